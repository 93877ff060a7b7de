"""Issue 17 item 7: a user's bare URL or e-mail address shown through ``md_escape`` never becomes a link.

Streamlit's Markdown (remark-gfm) looks for autolink literals in the text after backslash escapes are read, so
escaping the punctuation is not enough (``http\\://evil`` still links: tests/browser/test_autolink_browser.py
shows it in the real app). Here: the text as the Markdown parser sees it (escapes read) holds no autolink
literal of GFM (``www.``, ``scheme://``, ``x@domain``), and every visible character is still there."""
from __future__ import annotations

import re

import pytest

from explainer.ui.highlight import md_escape

URLS = ["http://evil.example/x", "see HTTPS://evil.example/a?b=c now", "www.evil.example", "WWW.Evil.example/x",
        "bob@evil.example", "mailto:bob@evil.example", "xmpp:bob@evil.example", "<http://evil.example>",
        "ftp://evil.example", "BLEU — http://evil.example/x", "[x](http://evil.example)"]

#: GFM autolink literals (mdast-util-gfm-autolink-literal): a scheme URL, a www. domain, an e-mail address
_LITERAL = re.compile(r"(?i)[a-z][a-z0-9+.-]*://|(?i:www)\.|[-.\w+]@[-\w]")


def _as_parsed(md: str) -> str:
    """The text a CommonMark parser builds from ``md``: a backslash before ASCII punctuation is dropped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", md).replace("  \n", "\n")


@pytest.mark.parametrize("text", URLS)
def test_no_autolink_literal_survives(text):
    parsed = _as_parsed(md_escape(text))
    assert not _LITERAL.search(parsed), parsed
    assert parsed.replace("\u200b", "") == text        # nothing visible is lost or added


def test_plain_text_is_unchanged_apart_from_escapes():
    for t in ("a: b", "www", "x @ y", "the cat sat on the mat.", "e-mail me at noon"):
        assert "\u200b" not in md_escape(t)
