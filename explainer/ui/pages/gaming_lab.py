"""Gaming lab page (thin): everything lives in explainer.ui.lab_page."""
from explainer.ui.lab_page import render

render()
