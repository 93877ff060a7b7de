"""Tokens with character spans in the user's original text.

Every tokenizer used by a dialect is the real library's own (sacreBLEU's tokenizer classes, rouge-score's
tokenizer, NLTK's Porter stemmer, ``str.split``). Those return bare strings, often after the text was
changed (lowercased, entities unescaped, punctuation spaced out). ``align_spans`` maps such tokens back
to the original string so the UI can highlight the user's own text; it never changes the tokens.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, asdict
from typing import Iterable, Sequence

__all__ = ["Token", "align_spans", "make_tokens", "MAX_INPUT_CHARS", "InputTooLong", "check_length"]

# A documented limit on one text: above it the explainer refuses with a clear message instead of building
# traces that no browser could show. 200,000 characters is ~35,000 English words.
MAX_INPUT_CHARS = 200_000


class InputTooLong(ValueError):
    """A text is longer than MAX_INPUT_CHARS."""


def check_length(texts: Iterable[str], what: str = "text", limit: int = MAX_INPUT_CHARS) -> None:
    for i, t in enumerate(texts):
        if t is not None and len(t) > limit:
            raise InputTooLong(
                f"{what} {i + 1} has {len(t):,} characters; the explainer's limit is {limit:,} per text"
            )


@dataclass(frozen=True)
class Token:
    """One token. ``start``/``end`` are character offsets into the original string (end exclusive), or
    None when the token cannot be located there (it was produced by the tokenizer, e.g. from an entity)."""

    text: str
    start: int | None
    end: int | None

    def to_dict(self) -> dict:
        return asdict(self)


# Entities that sacreBLEU's 13a / mteval unescape, mapped to the character they become.
_ENTITIES = {"&quot;": '"', "&amp;": "&", "&lt;": "<", "&gt;": ">", "&apos;": "'"}
_ENTITY_RE = re.compile("|".join(re.escape(e) for e in _ENTITIES))


def _normalised_view(text: str, *, casefold: bool, unescape: bool) -> tuple[str, list[int]]:
    """The text as a tokenizer may have seen it, plus, for every character of that view, the index of the
    original character it came from. Lowercasing can change lengths ('İ' -> 'i̇'), so map per character."""
    out: list[str] = []
    origin: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        if unescape and text[i] == "&":
            m = _ENTITY_RE.match(text, i)
            if m:
                ch = _ENTITIES[m.group(0)]
                out.append(ch)
                origin.append(i)
                # Record the entity's end through a sentinel: every view char maps to a start index;
                # the span end is computed from the next original index (see align_spans).
                i = m.end()
                continue
        ch = text[i]
        low = ch.lower() if casefold else ch
        for c in low:
            out.append(c)
            origin.append(i)
        i += 1
    return "".join(out), origin


def _original_end(text: str, origin: list[int], view_end: int) -> int:
    """Original end offset for a match ending (exclusive) at view_end. A match that ends inside the expansion of
    one original character (lowercasing 'İ' gives 'i' + U+0307) covers that whole character."""
    k = view_end
    if 0 < k < len(origin):
        last = origin[k - 1]
        while k < len(origin) and origin[k] == last:
            k += 1
    if k < len(origin):
        return origin[k]
    return len(text)


def align_spans(text: str, tokens: Sequence[str], *, casefold: bool = True, unescape: bool = True,
                ignore: str | None = None) -> list[Token]:
    """Locate each token, in order, in ``text``.

    Matching is done on a view of the text that is lowercased (``casefold``) and entity-unescaped
    (``unescape``), comparing with the lowercased token. Tokens are searched left to right from the end of
    the previous match. A token that cannot be found (for example ``<skipped>`` removed by a tokenizer, or a
    character the tokenizer invented) gets ``start = end = None``; alignment continues after it.
    ``ignore`` is an optional regex of characters to skip inside a token when it does not match literally
    (rouge-score replaces non-alphanumerics by spaces, so tokens never contain them anyway).
    """
    view, origin = _normalised_view(text, casefold=casefold, unescape=unescape)
    pos = 0
    out: list[Token] = []
    for tok in tokens:
        needle = tok.lower() if casefold else tok
        if not needle:
            out.append(Token(tok, None, None))
            continue
        j = view.find(needle, pos)
        if j < 0 and ignore:
            stripped = re.sub(ignore, "", needle)
            j = view.find(stripped, pos) if stripped else -1
            needle = stripped if j >= 0 else needle
        if j < 0:
            out.append(Token(tok, None, None))
            continue
        start = origin[j]
        end = _original_end(text, origin, j + len(needle))
        # An entity occupies several original characters; make sure the span covers all of it.
        if end <= start:
            end = start + 1
        out.append(Token(tok, start, end))
        pos = j + len(needle)
    return out


def make_tokens(text: str, tokens: Sequence[str], **kw) -> list[Token]:
    """Alias kept for readability at call sites: tokens (strings from a real tokenizer) -> Token list."""
    return align_spans(text, tokens, **kw)
