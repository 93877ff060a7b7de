"""Teach page (thin): everything lives in explainer.ui.teach.page."""
from explainer.ui.teach.page import render

render()
