"""Dialects page (thin): everything lives in explainer.ui.dialects.page."""
from explainer.ui.dialects.page import render

render()
