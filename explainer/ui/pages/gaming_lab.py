"""Gaming lab page (thin): everything lives in explainer.ui.lab.page."""
from explainer.ui.lab.page import render

render()
