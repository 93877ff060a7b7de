"""Explain page (thin): everything lives in explainer.ui.explain_page."""
from explainer.ui.explain_page import render

render()
