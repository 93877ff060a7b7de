""""Save this comparison": one JSON file (``explainer.corpus.saved``) with the test set, the names, the settings,
the view and the tests run — the view as it is when the button is pressed, not when it was drawn.

The download is made when pressed, outside any run of the page, where the session cannot be read: it reads the
page's live records instead (dicts kept in the session and updated in place): the view, which every run and every
fragment's run writes at its end (:func:`record_view`: a segment opened from an analysis and stepped through with
"next" reruns the segment view only, so the button drawn before it held segment 1 and the first analysis, issue 33,
item 1), and the tests, which each test run updates.
"""
from __future__ import annotations

import streamlit as st

from explainer.corpus.testset import TestSetError
from explainer.ui import settings as metric_settings
from explainer.ui.corpus.link import SAVED_VIEW_KEYS
from explainer.ui.corpus.significance import TESTS, saved_tests

__all__ = ["save_button", "record_view", "saved_comparison", "VIEW_NOW"]

VIEW_NOW = "_cp_view_now"       # the view as the page shows it now (a dict updated in place)


def _plain(k: str, v):
    """A view value as the file keeps it (plain values only: the list of other metrics comma-separated)."""
    if isinstance(v, (list, tuple)):
        return ",".join(map(str, v))
    return v if isinstance(v, (str, int, float, bool)) else None


def record_view(ss=None) -> None:
    """The view's values into the live record (called at the end of every run and fragment run)."""
    ss = st.session_state if ss is None else ss
    now = ss.setdefault(VIEW_NOW, {})
    fresh = {k: _plain(k, ss[k]) for k in SAVED_VIEW_KEYS if k in ss}
    now.clear()
    now.update({k: v for k, v in fresh.items() if v is not None})


def saved_comparison(ss=None) -> str | None:
    """This view as a saved comparison's JSON, or None when nothing is loaded."""
    ss = st.session_state if ss is None else ss
    record_view(ss)
    parts = _parts(ss)
    return None if parts is None else _dump(parts())


def _parts(ss):
    """What the file holds, gathered in this run, with the view and the tests read when it is made."""
    from explainer.corpus.saved import Saved

    ts = ss.get("cp_ts")
    if ts is None:
        return None
    names = [ss.get(f"cp_name_{i}", n) for i, n in enumerate(ts.names)]
    try:
        ts = ts.with_names(names)
    except TestSetError:
        pass
    settings = metric_settings.stored_settings(ss) or metric_settings.default_settings()
    params = metric_settings.settings_to_params(settings)
    label, ts_key = ss.get("cp_ts_label", ""), ss.get("cp_ts_key")
    view = ss.setdefault(VIEW_NOW, {})      # the live record: read when the file is made
    store = ss.setdefault(TESTS, {})

    def made() -> Saved:
        return Saved(ts, label, params, dict(view), saved_tests(store, ts_key))

    return made


def _dump(saved) -> str:
    from explainer.corpus.saved import dump_saved

    return dump_saved(saved)


def save_button() -> None:
    """The button; its file is written when pressed, from the live records."""
    parts = _parts(st.session_state)
    if parts is None:
        return
    st.download_button("Save this comparison (JSON: test set, names, settings, view, test results)",
                       lambda: _dump(parts()), file_name="corpus_comparison.json", mime="application/json",
                       key="cp_dl_saved", on_click="ignore")
