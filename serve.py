"""The app as `make run` serves it: the pages of app.py under Streamlit's ASGI app (``st.App``), with Streamlit's
frontend files answered from memory (explainer/ui/static_assets.py).

`streamlit run serve.py` (every ``streamlit run`` option and .streamlit/config.toml apply as for app.py) or any
ASGI server (``uvicorn serve:app``). `streamlit run app.py` still serves the same pages; it only costs the server
more CPU per first visit (issue 34: 0.43 s of a fresh browser's 0.62 s was Streamlit copying its own files).
"""
import streamlit as st
from starlette.middleware import Middleware

from explainer.ui.static_assets import StaticAssets

app = st.App("app.py", middleware=[Middleware(StaticAssets)])
