"""Dialects page (thin): everything lives in explainer.ui.dialects_page."""
from explainer.ui.dialects_page import render

render()
