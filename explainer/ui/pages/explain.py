"""Explain page (thin): everything lives in explainer.ui.explain.page."""
from explainer.ui.explain.page import render

render()
