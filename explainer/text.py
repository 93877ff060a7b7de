"""Tokens with character spans in the user's original text.

Every tokenizer used by a dialect is the real library's own (sacreBLEU's tokenizer classes, rouge-score's
tokenizer, NLTK's Porter stemmer, ``str.split``). Those return bare strings, often after the text was
changed (lowercased, entities unescaped, punctuation spaced out). ``align_spans`` maps such tokens back
to the original string so the UI can highlight the user's own text; it never changes the tokens.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Iterable, Sequence

__all__ = ["Token", "align_spans", "MAX_INPUT_CHARS", "InputTooLong", "check_length",
           "ENTITIES_13A", "NO_SPACE_SCRIPT", "has_no_space_script"]

#: a character of a script written without spaces between words (kana, CJK ideographs, Thai, Hangul)
NO_SPACE_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f\uac00-\ud7af]")


def has_no_space_script(texts: Iterable[str]) -> bool:
    """Some text holds a character of a script written without spaces (what word tokenizers get wrong)."""
    return any(NO_SPACE_SCRIPT.search(t) for t in texts)

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


# The entity decoding of sacreBLEU's 13a tokenizer (and HF's copy, and mteval's 13a ``tokenization``): four
# ``str.replace`` calls in this order, each over the output of the previous one. So "&amp;lt;" becomes "&lt;"
# and then "<", while "&amp;quot;" stays "&quot;" (&quot; was replaced first). ``&apos;`` is not decoded.
ENTITIES_13A: tuple[tuple[str, str], ...] = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def _normalised_view(text: str, *, casefold: bool, unescape, lowercase_first: bool = False
                     ) -> tuple[str, list[int], list[int]]:
    """The text as a tokenizer may have seen it, plus, for every character of that view, the start and end
    offsets of the original characters it came from.

    ``unescape`` is a sequence of ``(entity, character)`` replacements applied one after the other, each to the
    whole result of the previous one (as chained ``str.replace`` calls do); a decoded character spans all the
    original characters of its entity, even when it took two rounds ("&amp;lt;" -> "&lt;" -> "<").
    ``casefold`` lowercases the view per original character (lowercasing can change lengths: 'İ' -> 'i̇', each
    part keeping the span of 'İ'); ``lowercase_first`` lowercases before decoding entities (sacreBLEU's
    ``lowercase=True`` runs before its tokenizer, so "&LT;" is decoded there), otherwise after."""
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def lower_all():
        nc, ns, ne = [], [], []
        for c, a, b in zip(chars, starts, ends):
            for x in c.lower():
                nc.append(x)
                ns.append(a)
                ne.append(b)
        chars[:], starts[:], ends[:] = nc, ns, ne

    for i, ch in enumerate(text):
        chars.append(ch)
        starts.append(i)
        ends.append(i + 1)
    if casefold and lowercase_first:
        lower_all()
    for ent, rep in unescape or ():
        view = "".join(chars)
        j = view.find(ent)
        if j < 0:
            continue
        nc, ns, ne = [], [], []
        pos = 0
        L = len(ent)
        while j >= 0:
            nc.extend(chars[pos:j])
            ns.extend(starts[pos:j])
            ne.extend(ends[pos:j])
            nc.append(rep)
            ns.append(starts[j])
            ne.append(ends[j + L - 1])
            pos = j + L
            j = view.find(ent, pos)
        nc.extend(chars[pos:])
        ns.extend(starts[pos:])
        ne.extend(ends[pos:])
        chars, starts, ends = nc, ns, ne
    if casefold and not lowercase_first:
        lower_all()
    return "".join(chars), starts, ends


def align_spans(text: str, tokens: Sequence[str], *, casefold: bool = True, unescape=True,
                ignore: str | None = None, lowercase_first: bool = False) -> list[Token]:
    """Locate each token, in order, in ``text``.

    Matching is done on a view of the text that is lowercased (``casefold``) and entity-decoded
    (``unescape``: True = the 13a decoding ``ENTITIES_13A``, False = none, or a sequence of
    ``(entity, character)`` replacements applied in order; ``lowercase_first``: lowercase before decoding),
    comparing with the lowercased token. Tokens are searched left to right from the end of the previous match.
    A token that cannot be found (for example ``<skipped>`` removed by a tokenizer, or a character the tokenizer
    invented) gets ``start = end = None``; alignment continues after it. A token found in the view spans every
    original character its view characters came from (a decoded entity: the whole entity text).
    ``ignore`` is an optional regex of characters to skip inside a token when it does not match literally
    (rouge-score replaces non-alphanumerics by spaces, so tokens never contain them anyway).
    """
    chain = ENTITIES_13A if unescape is True else (unescape or ())
    view, vstarts, vends = _normalised_view(text, casefold=casefold, unescape=chain,
                                            lowercase_first=lowercase_first)
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
        end_v = j + len(needle)
        out.append(Token(tok, vstarts[j], vends[end_v - 1]))
        pos = end_v
    return out
