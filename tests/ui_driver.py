"""Drive the app under streamlit.testing (AppTest) the way a browser does.

AppTest sends every selectbox's value as the label of its *current* options. A browser does not: it keeps the
label it last showed until the user picks another one or the server sets a value, and sends that label back on
the next rerun — even when the options' labels changed in between (a label that names which reference was
"kept" changes with the ROUGE dialect). Streamlit then hands the page the bare label string instead of the
option (that is how ``rouge155`` → another dialect crashed the page). :class:`BrowserLikeApp` keeps each
selectbox's label as the browser does and sends it, so tests see what users see.
"""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT

APP = str(ROOT / "app.py")
TABS_KEY = "xp_tab"  # explainer.ui.explain.page.TABS_KEY (imported lazily there: the page module needs Streamlit)


class BrowserLikeApp:
    def __init__(self, params: dict | None = None, *, tab: str | None = None, open_details: bool = False,
                 timeout: float = 60):
        """``tab``: "BLEU" or "ROUGE", the Explain page's tab to have open (only the open tab is built);
        ``open_details``: open every "… details" expander of the ROUGE tab (built only when open)."""
        self.at = AppTest.from_file(APP, default_timeout=timeout)
        for k, v in (params or {}).items():
            self.at.query_params[k] = v
        if tab:
            self.at.session_state[TABS_KEY] = tab
        if open_details:
            from explainer.ui.schema import ROUGE_TYPE_CHOICES

            for t in ROUGE_TYPE_CHOICES:
                self.at.session_state[f"xp_more_{t}"] = True
        self.labels: dict[str, str] = {}   # selectbox id -> the label the browser holds
        self._run_first()

    def open_tab(self, name: str) -> "BrowserLikeApp":
        """Click a tab of the Explain page ("BLEU" or "ROUGE")."""
        self.at.session_state[TABS_KEY] = name
        return self.run()

    # ------------------------------------------------------------------ the browser's copy of each widget
    def _remember_labels(self) -> None:
        for sb in self.at.selectbox:
            wid = sb.id
            if wid not in self.labels or sb.proto.set_value:
                # a new widget shows its initial value; a value the server sets replaces the browser's
                label = sb.proto.raw_value if sb.proto.set_value and sb.proto.raw_value else (
                    sb.options[sb.index] if sb.index is not None and sb.options else None)
                if label is not None:
                    self.labels[wid] = label
        live = {sb.id for sb in self.at.selectbox}
        self.labels = {k: v for k, v in self.labels.items() if k in live}

    def _run_first(self) -> None:
        self.at.run()
        self._remember_labels()

    def run(self) -> "BrowserLikeApp":
        tree = self.at._tree
        states = tree.get_widget_states()
        for w in states.widgets:
            if w.id in self.labels and w.WhichOneof("value") == "string_value":
                w.string_value = self.labels[w.id]
        self.at._run(states)
        self._remember_labels()
        return self

    # ---------------------------------------------------------------------------- user actions
    def select(self, key: str, value) -> "BrowserLikeApp":
        sb = self.at.selectbox(key=key)
        sb.set_value(value)
        self.labels[sb.id] = sb.format_func(value)
        return self.run()

    def select_many(self, **values) -> "BrowserLikeApp":
        """Several selectboxes changed before one rerun (as a page with two changed widgets gets)."""
        for key, value in values.items():
            sb = self.at.selectbox(key=key)
            sb.set_value(value)
            self.labels[sb.id] = sb.format_func(value)
        return self.run()

    def switch_page(self, path: str) -> "BrowserLikeApp":
        """Go to another page as its navigation link does: the new page starts without the old page's link
        parameters."""
        self.at.query_params.clear()
        self.at.switch_page(path)
        return self.run()

    def set(self, kind: str, key: str, value) -> "BrowserLikeApp":
        getattr(self.at, kind)(key=key).set_value(value)
        return self.run()

    def click(self, key: str) -> "BrowserLikeApp":
        self.at.button(key=key).click()
        return self.run()

    @property
    def exceptions(self) -> list[str]:
        return [e.value for e in self.at.exception]
