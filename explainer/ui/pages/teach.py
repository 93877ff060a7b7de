"""Teach page (thin): everything lives in explainer.ui.teach_page."""
from explainer.ui.teach_page import render

render()
