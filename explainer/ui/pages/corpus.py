"""Corpus page (thin): everything lives in explainer.ui.corpus_page."""
from explainer.ui.corpus_page import render

render()
