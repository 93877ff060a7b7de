"""What the server did with the link a page was opened with.

Streamlit ignores a whole query string over its limits (more than 1,000 parameters or 512 KB): in a browser the
page then gets no parameters at all and shows its default example. The server cannot tell afterwards: the
session replaces such a query string with "" before the script runs (``AppSession.request_rerun`` →
``sanitize_query_string``), and the page URL the browser reports (``st.context.url``) has its query removed by
the frontend. So the check runs where the link still is, in the browser: on a page's first load without
parameters, :func:`watch_dropped_link` mounts an invisible component that reads the query string of the link the
browser opened and, only when it is over the limits, reports its size (two numbers, never the text); the page then
says so with the other link warnings. ``dropped_link_warning`` covers a run that does get the raw query string
(``streamlit.testing`` passes it to the script as it is).
"""
from __future__ import annotations

import streamlit as st

__all__ = ["dropped_link_warning", "watch_dropped_link", "LINK_LIMITS_TEXT", "dropped_params_message",
           "dropped_params_text"]

def dropped_params_message(raw_query: str, n_parsed: int, *, max_fields: int, max_chars: int) -> str | None:
    """The server ignores a whole query string with more than ``max_fields`` parameters or ``max_chars``
    characters (the page then gets none). Given the raw query string the browser sent and the number of
    parameters the page got: a sentence for the page when they were dropped, else None."""
    if not raw_query or n_parsed:
        return None
    return dropped_params_text(raw_query.count("&") + 1, len(raw_query), max_fields=max_fields, max_chars=max_chars)


def dropped_params_text(n_fields: int, n_chars: int, *, max_fields: int, max_chars: int) -> str | None:
    """The sentence for a query string of ``n_fields`` parameters and ``n_chars`` characters that the server
    ignored (over either limit), else None."""
    if n_fields > max_fields:
        return (f"This link has {n_fields:,} parameters; the server reads links with at most {max_fields:,} "
                "parameters and ignored all of them, so the page shows its default example instead.")
    if n_chars > max_chars:
        return (f"This link is {n_chars:,} characters long; the server reads links of at most "
                f"{max_chars:,} characters and ignored it, so the page shows its default example instead.")
    return None


#: Beyond about this many characters the web server answers a link with "400 Bad Request" before the page can
#: run (the request line and headers are capped), so the page cannot say so itself; the Explain page's own links
#: never come close (texts over MAX_URL_TEXT characters are left out of them).
HTTP_LINK_LIMIT_TEXT = "about 64 KB"

_ARMED = "_dropped_link_check"        # session state: {page key: True} while a page's browser check is mounted
_COMPONENT_KEY = "dropped_link_check_"  # + the page's key; the component's container: CSS class st-key-...

# Trusted constant code (no user data reaches it; only two numbers leave it). The link the browser opened is the
# document's navigation entry: the page may have rewritten the address bar since (its own permalink). Reports
# once per document, and only for the page the link opened (not after a switch to another page of the app).
_CHECK_JS = """
export default function (component) {
  const { setTriggerValue, data } = component;
  const nav = performance.getEntriesByType("navigation")[0];
  if (!nav || window.__explainerDroppedLinkReported) return;
  const opened = new URL(nav.name);
  if (opened.pathname !== window.location.pathname) return;
  const query = opened.search.replace(/^[?]/, "");
  const fields = query ? query.split("&").length : 0;
  if (fields > data.max_fields || query.length > data.max_chars) {
    window.__explainerDroppedLinkReported = true;
    // after the browser has rendered what the run sent so far (the rerun carries the widgets' values)
    requestAnimationFrame(() => requestAnimationFrame(
      () => setTriggerValue("dropped", { fields: fields, chars: query.length })));
  }
}
"""
_HIDE_CSS = "div[class*='st-key-" + _COMPONENT_KEY + "'] { display: none; }"

_check = st.components.v2.component("explainer_dropped_link_check", js=_CHECK_JS)


def _limits() -> tuple[int, int]:
    try:  # Streamlit's own limits on the query string it passes to a page
        from streamlit.runtime.state.query_params import (
            CLIENT_STATE_QUERY_STRING_MAX_FIELDS,
            CLIENT_STATE_QUERY_STRING_MAX_LENGTH,
        )
        return CLIENT_STATE_QUERY_STRING_MAX_FIELDS, CLIENT_STATE_QUERY_STRING_MAX_LENGTH
    except ImportError:  # another Streamlit version: the values of 1.67
        return 1000, 512 * 1024


LINK_LIMITS_TEXT = (f"A link may have at most {_limits()[0]:,} parameters and {HTTP_LINK_LIMIT_TEXT}; longer "
                    "hand-made links are refused by the server")


def dropped_link_warning(page: str = "explain") -> str | None:
    """Called on a page's first load: a sentence when the run got the raw query string and it is over the
    server's limits, else None. When the page got no parameters in a browser, the browser-side check of
    :func:`watch_dropped_link` is armed for ``page``."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx()
        raw = getattr(ctx, "query_string", "") or ""
    except Exception:  # noqa: BLE001 - a Streamlit without this internal: nothing to detect
        raw = ""
    fields, chars = _limits()
    n_parsed = len(st.query_params)
    msg = dropped_params_message(raw, n_parsed, max_fields=fields, max_chars=chars) if raw else None
    if msg is None and not n_parsed and st.context.url is not None:   # a browser; AppTest reports no URL
        st.session_state.setdefault(_ARMED, {})[page] = True
    return msg


def watch_dropped_link(warnings_key: str, page: str = "explain", *, escape=None) -> None:
    """Mount the browser-side check (invisible) while it is armed for ``page``; when the browser reports a link
    over the limits, its sentence is added to the page's link warnings ``st.session_state[warnings_key]``
    (passed through ``escape`` first when the page stores them escaped) and the page reruns to show it."""
    armed = st.session_state.get(_ARMED, {})
    if not armed.get(page):
        return
    key = _COMPONENT_KEY + page

    def reported() -> None:
        ss = st.session_state
        ss.get(_ARMED, {}).pop(page, None)
        got = (ss.get(key) or {}).get("dropped") or {}
        fields, chars = _limits()
        msg = dropped_params_text(_count(got.get("fields")), _count(got.get("chars")), max_fields=fields,
                                  max_chars=chars)
        if msg:
            ss[warnings_key] = list(ss.get(warnings_key) or []) + [escape(msg) if escape else msg]

    st.html(f"<style>{_HIDE_CSS}</style>")
    _check(key=key, data={"max_fields": _limits()[0], "max_chars": _limits()[1]}, on_dropped_change=reported)


def _count(value) -> int:
    """A count the browser reported (a stranger's client may send anything): a non-negative int, else 0."""
    return value if type(value) is int and 0 <= value < 10**12 else 0
