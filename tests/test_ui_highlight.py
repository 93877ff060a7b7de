"""Highlight HTML: user text is escaped, invisible characters are made visible, colour has a twin signal."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explainer.ui.highlight import (
    TokenMark,
    escape_attr,
    escape_text,
    legend_html,
    md_escape,
    render_marked_text,
    suspicious_chars,
)

PAYLOADS = [
    "<img src=x onerror=alert(1)>",
    "<script>alert('x')</script>",
    '<a href="javascript:alert(1)">click</a>',
    "[click me](javascript:alert(1))",
    "abc\u202edcba",          # RTL override
    "zero\u200bwidth\u200djoin\ufeff",
    "\" onmouseover=\"alert(1)",
    "&lt;already escaped&gt;",
]


class _Collector(HTMLParser):
    """Parses the produced HTML like a browser would and records tags, attributes and visible text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parse(h: str) -> _Collector:
    c = _Collector()
    c.feed(h)
    return c


def _visible(h: str) -> str:
    # Badges show U+XXXX; turn them back into the character to compare with the input.
    c = _parse(h)
    return "".join(c.text)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_payload_is_inert_and_visible(payload):
    text = f"before {payload} after"
    marks = [TokenMark(0, 6, order=1, title=payload)]
    out = render_marked_text(text, marks)
    parsed = _parse(out)
    # only our own tags, never an <img>, <script> or <a>
    assert {t for t, _ in parsed.tags} <= {"div", "span", "sub"}
    for _, attrs in parsed.tags:
        assert not any(k.startswith("on") for k in attrs), attrs
        assert set(attrs) <= {"class", "title", "aria-label"}
    visible = _visible(out)
    # every visible character of the payload is there, invisible ones as U+XXXX badges
    expected = "".join(f"U+{ord(ch):04X}" if ch in "\u202e\u200b\u200d\ufeff" else ch for ch in payload)
    assert expected in visible


def test_rtl_override_cannot_reorder_following_text():
    out = escape_text("a\u202eb")
    assert "\u202e" not in out
    assert "U+202E" in out and "RIGHT-TO-LEFT OVERRIDE" in out


def test_attr_escape_quotes():
    a = escape_attr('x" onclick="y')
    assert '"' not in a
    assert html.unescape(a) == 'x" onclick="y'


def test_marks_cover_text_and_gaps_preserved():
    text = "the cat\nsat  on"
    marks = [TokenMark(0, 3, order=2, title="t"), TokenMark(4, 7, clipped=True), TokenMark(8, 11)]
    out = render_marked_text(text, marks)
    assert _visible(out).replace("2", "").replace("✂", "") == text
    assert "xp-o2" in out and "xp-clip" in out
    # non-colour signals: the order number and the clip label are text, and the title is in words
    assert "<sub>2</sub>" in out and "<sub>✂</sub>" in out


def test_overlapping_and_out_of_range_marks_dropped():
    text = "abcdef"
    out = render_marked_text(text, [TokenMark(0, 3), TokenMark(2, 4), TokenMark(5, 99)])
    assert _visible(out) == text


def test_truncation_note():
    out = render_marked_text("x" * 100, [], max_chars=10)
    assert "first 10 of 100" in out


def test_legend_has_words_for_every_colour():
    leg = legend_html(4)
    for n in range(1, 5):
        assert f"matched {n}-gram" in leg
    assert "clipped" in leg


@pytest.mark.parametrize("payload", PAYLOADS)
def test_md_escape_blocks_markdown_and_html(payload):
    out = md_escape(payload)
    assert "](" not in out.replace("\\]\\(", "")
    assert "<" not in out.replace("\\<", "")
    assert "\u202e" not in out and "\u200b" not in out


def test_suspicious_chars_listed():
    assert suspicious_chars(["a\u200bb", "c\u202e"]) == ["U+200B ZERO WIDTH SPACE", "U+202E RIGHT-TO-LEFT OVERRIDE"]


@given(st.text(max_size=60), st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), max_size=8))
def test_any_text_any_marks_keeps_every_visible_char(text, spans):
    marks = [TokenMark(min(a, b), max(a, b), order=(a % 5)) for a, b in spans]
    out = render_marked_text(text, marks)
    parsed = _parse(out)
    assert {t for t, _ in parsed.tags} <= {"div", "span", "sub"}
    vis = re.sub(r"<sub>[^<]*</sub>", "", out)
    vis = _visible(vis)
    expected = "".join(f"U+{ord(c):04X}" if (c not in "\n\t " and __import__("unicodedata").category(c) in
                       ("Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs")) else c for c in text) or "(empty)"
    # \r is normalised by nobody here: compare exactly
    assert vis == expected
