"""Corpus page (thin): everything lives in explainer.ui.corpus.page."""
from explainer.ui.corpus.page import render

render()
