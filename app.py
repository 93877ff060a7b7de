"""Streamlit entry point: page config and navigation. All Streamlit code lives in explainer/ui/."""
import streamlit as st

st.set_page_config(page_title="BLEU & ROUGE explainer", page_icon=":material/search:", layout="wide")

pages = [
    st.Page("explainer/ui/pages/explain.py", title="Explain", icon=":material/search:", default=True),
    st.Page("explainer/ui/pages/gaming_lab.py", title="Gaming lab", icon=":material/science:", url_path="gaming_lab"),
    st.Page("explainer/ui/pages/dialects.py", title="Dialects", icon=":material/compare:", url_path="dialects"),
    st.Page("explainer/ui/pages/teach.py", title="Teach", icon=":material/school:", url_path="teach"),
    st.Page("explainer/ui/pages/corpus.py", title="Corpus", icon=":material/table_chart:", url_path="corpus"),
]
st.navigation(pages).run()
