"""Escaped HTML over the user's own text. Pure: no Streamlit here.

Every character of user text that reaches markup goes through :func:`escape_text`, which HTML-escapes it
and turns invisible or direction-changing characters (zero-width spaces, bidi overrides, other format and
control characters) into a visible ``U+XXXX`` badge, so a payload shows as the literal characters the
user typed and cannot reorder or hide the surrounding text.

Colour is never the only signal: each n-gram order also has its own underline style and a small numeric
label, clipped occurrences are struck through with a ``✂`` label, and every token has a title (tooltip)
saying the same thing in words. The palette is Okabe–Ito (colour-blind safe), as translucent fills that
read on light and dark backgrounds.
"""
from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Sequence

__all__ = ["TokenMark", "escape_text", "escape_attr", "render_marked_text", "legend_html", "legend_refs_html", "STYLE",
           "is_suspicious_char", "md_escape"]

# Colours (Okabe–Ito) and underline styles per n-gram order live in STYLE below.

# Characters shown as a badge instead of themselves. Newline and tab stay (the text is pre-wrapped).
_KEEP = {"\n", "\t", " "}


def is_suspicious_char(ch: str) -> bool:
    if ch in _KEEP:
        return False
    cat = unicodedata.category(ch)
    # Cc control, Cf format (ZWSP, ZWJ, bidi embeddings/overrides/isolates, BOM, soft hyphen),
    # Zl/Zp line/paragraph separators, Co private use, Cn unassigned, Cs lone surrogates.
    return cat in ("Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs")


def _badge(ch: str) -> str:
    cp = f"U+{ord(ch):04X}"
    try:
        name = unicodedata.name(ch)
    except ValueError:
        name = "control or unnamed character"
    return (f'<span class="xp-cp" title="{html.escape(cp + " " + name, quote=True)}">'
            f"{cp}</span>")


def escape_text(s: str) -> str:
    """HTML-escape ``s`` for element content; invisible/bidi/control characters become visible badges."""
    if not any(is_suspicious_char(c) for c in s):
        return html.escape(s, quote=True)
    out = []
    for ch in s:
        if is_suspicious_char(ch):
            out.append(_badge(ch))
        else:
            out.append(html.escape(ch, quote=True))
    return "".join(out)


def escape_attr(s: str) -> str:
    """Escape for an attribute value (title=...). Invisible characters become ``<U+XXXX>`` in words."""
    s = "".join(f"<U+{ord(c):04X}>" if is_suspicious_char(c) else c for c in s)
    return html.escape(s, quote=True)


_MD_SPECIAL = set("\\`*_{}[]()#+-.!|<>~$&:\"'=")


#: Streamlit's Markdown (remark-gfm) finds bare URLs and e-mail addresses in the text AFTER escapes are read, so
#: ``http\://`` still links: a zero-width space after ``:`` before ``//``, after ``www`` before ``.`` and after
#: ``@`` breaks every autolink literal (www., http(s)://, any scheme://, e-mail, mailto:, xmpp:) invisibly
_ZWSP = "\u200b"
_AUTOLINKS = re.compile(r"(\\:)(?=//)|(?i:(www))(?=\\\.)|(@)(?=[-\w])")


def md_escape(s: str) -> str:
    """Text for st.markdown / labels: every ASCII punctuation backslash-escaped (CommonMark), so no link,
    emphasis, HTML or ``$…$`` maths can form; bare URLs and e-mail addresses cannot become links (``_AUTOLINKS``);
    invisible characters spelled out as ``<U+XXXX>``."""
    return _AUTOLINKS.sub(lambda m: m.group() + _ZWSP, _md_escape_chars(s))


def _md_escape_chars(s: str) -> str:
    out = []
    for ch in s:
        if is_suspicious_char(ch):
            out.append(f"\\<U+{ord(ch):04X}\\>")
        elif ch in _MD_SPECIAL:
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("  \n")
        else:
            out.append(ch)
    return "".join(out)


@dataclass(frozen=True)
class TokenMark:
    """How to show one token. ``start``/``end`` index the original text (end exclusive).

    ``order``: the highest n-gram order of a *counted* (clipped-in) match covering the token, 0 if none.
    ``clipped``: the token starts an occurrence that was clipped away (counted in the candidate but beyond
    the reference maximum). ``selected``: part of the n-gram the user selected. ``title``: the tooltip."""

    start: int
    end: int
    order: int = 0
    clipped: bool = False
    selected: bool = False
    title: str = ""
    ref: int | None = None   # colour by justifying reference instead of order (0-based); label R1, R2, …
    also: int = 0            # (reference texts) the longest counted candidate n-gram that occurs here too
                             # but was not used for the clip / assignment; shown in a secondary style
    label: str | None = None  # replaces the small label (order number / R-label) when given


STYLE = """
<style>
.xp-text{white-space:pre-wrap;word-break:break-word;line-height:2.1;font-size:1.05rem;
  unicode-bidi:plaintext;padding:.4rem .6rem;border:1px solid rgba(128,128,128,.35);border-radius:.4rem;
  margin-bottom:.9rem}
.xp-tok{border-radius:.2rem;padding:0 .1rem;text-decoration-thickness:2px;text-underline-offset:.25em}
.xp-tok sub{font-size:max(14px,.7em);opacity:.85;margin-left:.05em;font-weight:600}
.xp-o1{background:rgba(86,180,233,.30);text-decoration-line:underline;text-decoration-style:solid;text-decoration-color:#56B4E9}
.xp-o2{background:rgba(0,158,115,.30);text-decoration-line:underline;text-decoration-style:double;text-decoration-color:#009E73}
.xp-o3{background:rgba(230,159,0,.32);text-decoration-line:underline;text-decoration-style:dashed;text-decoration-color:#E69F00}
.xp-o4{background:rgba(204,121,167,.34);text-decoration-line:underline;text-decoration-style:dotted;text-decoration-color:#CC79A7}
.xp-o5{background:rgba(0,114,178,.30);text-decoration-line:underline;text-decoration-style:solid;text-decoration-color:#0072B2}
.xp-o6{background:rgba(240,228,66,.34);text-decoration-line:underline;text-decoration-style:double;text-decoration-color:#F0E442}
.xp-r0{background:rgba(0,114,178,.28);text-decoration-line:underline;text-decoration-style:solid;text-decoration-color:#0072B2}
.xp-r1{background:rgba(230,159,0,.32);text-decoration-line:underline;text-decoration-style:double;text-decoration-color:#E69F00}
.xp-r2{background:rgba(0,158,115,.30);text-decoration-line:underline;text-decoration-style:dashed;text-decoration-color:#009E73}
.xp-r3{background:rgba(204,121,167,.34);text-decoration-line:underline;text-decoration-style:dotted;text-decoration-color:#CC79A7}
.xp-r4{background:rgba(86,180,233,.30);text-decoration-line:underline;text-decoration-style:wavy;text-decoration-color:#56B4E9}
.xp-r5{background:rgba(240,228,66,.34);text-decoration-line:underline;text-decoration-style:solid;text-decoration-color:#B8A800}
.xp-also{border:2px dotted rgba(128,128,128,.95);border-radius:.25rem;background:none;padding:0 .1rem}
.xp-also sub{font-style:italic}
.xp-clip{text-decoration-line:line-through;text-decoration-style:solid;text-decoration-color:#D55E00;
  outline:2px dashed #D55E00;outline-offset:-1px}
.xp-sel{outline:3px solid #0072B2;outline-offset:1px;font-weight:700}
.xp-cp{font-family:monospace;font-size:max(14px,.75em);border:1px solid currentColor;border-radius:.2rem;
  padding:0 .15rem;margin:0 .05rem;opacity:.9}
.xp-legend{font-size:.9rem;line-height:2.2}
.xp-legend .xp-tok{margin-right:.6rem;white-space:nowrap}
.xp-legend .xp-note{display:block;line-height:1.5;margin-top:.2rem}
.xp-note{font-size:max(14px,.875rem);opacity:.8}
</style>
"""


def _token_html(text: str, m: TokenMark) -> str:
    classes = ["xp-tok"]
    label = ""
    if m.ref is not None:
        classes.append(f"xp-r{m.ref % 6}")
        label = f"R{m.ref + 1}"
    elif m.order > 0:
        classes.append(f"xp-o{min(m.order, 6)}")
        label = str(m.order)
    elif m.also > 0:
        classes.append("xp-also")
        label = f"({m.also})"
    if m.label is not None:
        label = m.label
    if m.clipped:
        classes.append("xp-clip")
        label = (label + "✂") if label else "✂"
    if m.selected:
        classes.append("xp-sel")
    inner = escape_text(text[m.start:m.end])
    sub = f"<sub>{html.escape(label)}</sub>" if label else ""
    title = f' title="{escape_attr(m.title)}"' if m.title else ""
    return f'<span class="{" ".join(classes)}"{title}>{inner}{sub}</span>'


def render_marked_text(text: str, marks: Iterable[TokenMark], *, max_chars: int | None = None,
                       css_class: str = "xp-text", aria_label: str = "") -> str:
    """The whole of ``text``, escaped, with each mark's span wrapped in a styled ``<span>``.

    Marks must not overlap (later overlapping ones are dropped); gaps between marks are emitted as escaped
    plain text, so nothing the user typed disappears. With ``max_chars`` only the beginning is shown,
    followed by a note saying how much was left out."""
    shown = text if max_chars is None or len(text) <= max_chars else text[:max_chars]
    out: list[str] = []
    pos = 0
    for m in sorted((m for m in marks if m.start is not None and m.end is not None), key=lambda m: m.start):
        if m.start < pos or m.end > len(shown) or m.end <= m.start:
            continue
        if m.start > pos:
            out.append(escape_text(shown[pos:m.start]))
        out.append(_token_html(shown, m))
        pos = m.end
    if pos < len(shown):
        out.append(escape_text(shown[pos:]))
    if not shown:
        out.append('<span class="xp-note">(empty)</span>')
    aria = f' aria-label="{escape_attr(aria_label)}"' if aria_label else ""
    body = f'<div class="{css_class}"{aria}>{"".join(out)}</div>'
    if len(shown) < len(text):
        body += (f'<div class="xp-note">Highlighting shows the first {len(shown):,} of {len(text):,} '
                 f"characters; the scores use the whole text.</div>")
    return body


_ALSO_LEGEND = '<span class="xp-tok xp-also">occurs here too, not used for the count<sub>(n)</sub></span>'


def legend_html(max_order: int = 4) -> str:
    """A legend that explains colour *and* its non-colour twin (underline style, label)."""
    parts = []
    for n in range(1, max(1, min(max_order, 6)) + 1):
        parts.append(f'<span class="xp-tok xp-o{n}">in a matched {n}-gram<sub>{n}</sub></span>')
    parts.append(_ALSO_LEGEND)
    parts.append('<span class="xp-tok xp-clip">clipped away<sub>✂</sub></span>')
    parts.append('<span class="xp-tok">no match</span>')
    parts.append('<span class="xp-tok xp-sel">selected n-gram</span>')
    return ('<div class="xp-legend">' + " ".join(parts) +
            '<br><span class="xp-note">Each token shows the longest matched n-gram it belongs to '
            "(number and underline style); in a reference, a dotted box marks a counted candidate n-gram that "
            "occurs there too but was not the occurrence used for the count. Clipping removes a count, not a "
            "particular occurrence. Hover a token for the details in words.</span></div>")


def legend_refs_html(n_refs: int) -> str:
    """Legend for colouring by justifying reference (each colour also has its R-label and underline)."""
    parts = [f'<span class="xp-tok xp-r{k % 6}">justified by reference {k + 1}<sub>R{k + 1}</sub></span>'
             for k in range(n_refs)]
    parts.append(_ALSO_LEGEND)
    parts.append('<span class="xp-tok xp-clip">clipped away<sub>✂</sub></span>')
    parts.append('<span class="xp-tok">no match</span>')
    return ('<div class="xp-legend">' + " ".join(parts) +
            '<br><span class="xp-note">Each token shows the reference that justified the longest counted n-gram it '
            "belongs to (one valid assignment); stitched texts show their seams.</span></div>")


def suspicious_chars(texts: Sequence[str]) -> list[str]:
    """Distinct invisible/bidi/control characters present, as 'U+XXXX NAME' strings (for a notice)."""
    seen: dict[str, None] = {}
    for t in texts:
        for ch in t:
            if is_suspicious_char(ch):
                try:
                    name = unicodedata.name(ch)
                except ValueError:
                    name = "control or unnamed character"
                seen[f"U+{ord(ch):04X} {name}"] = None
    return list(seen)
