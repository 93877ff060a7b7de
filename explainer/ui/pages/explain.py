import streamlit as st

st.title("BLEU & ROUGE explainer")
st.info("The Explain page is under construction.")
