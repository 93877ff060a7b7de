"""What the server did with the link a page was opened with (Streamlit; pure parts in permalink)."""
from __future__ import annotations

import streamlit as st

from explainer.ui.permalink import dropped_params_message

__all__ = ["dropped_link_warning", "LINK_LIMITS_TEXT"]

#: Beyond about this many characters the web server answers a link with "400 Bad Request" before the page can
#: run (the request line and headers are capped), so the page cannot say so itself; the Explain page's own links
#: never come close (texts over MAX_URL_TEXT characters are left out of them).
HTTP_LINK_LIMIT_TEXT = "about 100 KB"


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


def dropped_link_warning() -> str | None:
    """A sentence when the link's parameters were dropped by the server before the page saw them, else None."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

        ctx = get_script_run_ctx()
        raw = getattr(ctx, "query_string", "") or ""
    except Exception:  # noqa: BLE001 - a Streamlit without this internal: nothing to detect
        return None
    fields, chars = _limits()
    return dropped_params_message(raw, len(st.query_params), max_fields=fields, max_chars=chars)
