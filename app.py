"""Streamlit entry point: page config and navigation. All Streamlit code lives in explainer/ui/."""
from pathlib import Path

import streamlit as st

# A local image, not ":material/...:": Streamlit fetches a Material page icon from fonts.gstatic.com, and no
# request may leave the machine (an offline classroom; privacy). Icons inside the page use the bundled font.
FAVICON = Path(__file__).resolve().parent / "explainer" / "ui" / "assets" / "favicon.png"
st.set_page_config(page_title="BLEU, ROUGE & chrF explainer", page_icon=str(FAVICON), layout="wide")

pages = [
    st.Page("explainer/ui/pages/explain.py", title="Explain", icon=":material/search:", default=True),
    st.Page("explainer/ui/pages/gaming_lab.py", title="Gaming lab", icon=":material/science:", url_path="gaming_lab"),
    st.Page("explainer/ui/pages/dialects.py", title="Dialects", icon=":material/compare:", url_path="dialects"),
    st.Page("explainer/ui/pages/teach.py", title="Teach", icon=":material/school:", url_path="teach"),
    st.Page("explainer/ui/pages/corpus.py", title="Corpus", icon=":material/table_chart:", url_path="corpus"),
]
st.navigation(pages).run()
