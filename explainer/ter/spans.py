"""Where each word TER compares came from in the user's text.

TER's tokenizer (sacreBLEU's ``TercomTokenizer``) lowercases, and with ``normalized`` joins line-end hyphens,
turns line breaks into spaces and decodes four entities (literal replacements, in order), then only *inserts*
spaces (around punctuation, CJK characters) and, with ``no_punct``, *deletes* punctuation. So the characters of
its words are the characters of a "view" of the text (lowercased, replacements applied), in order, with
whitespace and deleted punctuation between and inside them. Each word is found in that view left to right; its
span covers the original characters of its first and last view characters.

sacreBLEU tokenizes a reference twice: the second pass reads the first pass's output, so the words of the first
pass are located first, their characters keep their original spans, and the second pass's words are located in
them the same way.

A word is ``exact`` when its span in the user's text, lowercased as TER does, is the word; otherwise its note says
what the tokenizer changed (punctuation removed inside it, an entity decoded, a line-end hyphen joined).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from explainer.ter.trace import TerToken

__all__ = ["token_spans"]


@dataclass
class _View:
    """Characters with, for each, the original characters it came from (``start``/``end``, None if unknown) and
    what changed it on the way (``how``, "" if nothing)."""

    chars: list[str]
    starts: list
    ends: list
    how: list[str]

    @classmethod
    def of(cls, text: str) -> "_View":
        n = len(text)
        return cls(list(text), list(range(n)), list(range(1, n + 1)), [""] * n)

    def lowered(self) -> "_View":
        low = "".join(self.chars).lower()
        if len(low) == len(self.chars):     # context-aware str.lower (final sigma) kept position for position
            return _View(list(low), self.starts, self.ends, self.how)
        out = _View([], [], [], [])
        for c, a, b, h in zip(self.chars, self.starts, self.ends, self.how):
            for x in c.lower():             # a character whose lowercase is longer ('İ')
                out.chars.append(x)
                out.starts.append(a)
                out.ends.append(b)
                out.how.append(h)
        return out

    def replaced(self, old: str, new: str) -> "_View":
        """``str.replace(old, new)`` (``re.sub`` of a literal), each new character spanning the whole match."""
        text = "".join(self.chars)
        j = text.find(old)
        if j < 0:
            return self
        out = _View([], [], [], [])
        pos = 0
        label = f"{old!r} → {new!r}"
        while j >= 0:
            out.extend(self, pos, j)
            if new:
                out.chars += list(new)
                out.starts += [self.starts[j]] * len(new)
                out.ends += [self.ends[j + len(old) - 1]] * len(new)
                out.how += [label] * len(new)
            elif out.how:                   # removed: the character before it carries the note
                out.how[-1] = _join(out.how[-1], label)
            pos = j + len(old)
            j = text.find(old, pos)
        out.extend(self, pos, len(self.chars))
        return out

    def extend(self, other: "_View", a: int, b: int) -> None:
        self.chars += other.chars[a:b]
        self.starts += other.starts[a:b]
        self.ends += other.ends[a:b]
        self.how += other.how[a:b]


def _join(a: str, b: str) -> str:
    return f"{a}; {b}" if a and b and b not in a else (a or b)


def _locate(word: str, v: _View, removed, p: int) -> list[int] | None:
    """The view positions of ``word``'s characters, found from position ``p``: whitespace and deleted characters
    may come before it, deleted characters inside it (their note goes to the next character)."""
    q, n = p, len(v.chars)
    while q < n and v.chars[q] != word[0]:
        c = v.chars[q]
        if not (c.isspace() or (removed is not None and removed.match(c))):
            return None
        q += 1
    if q >= n:
        return None
    out = [q]
    for t in word[1:]:
        q += 1
        while q < n and v.chars[q] != t and removed is not None and removed.match(v.chars[q]):
            v.how[q + 1 if q + 1 < n else q] = _join(v.how[q + 1 if q + 1 < n else q], f"{v.chars[q]!r} removed")
            q += 1
        if q >= n or v.chars[q] != t:
            return None
        out.append(q)
    return out


def _locate_all(words: Sequence[str], v: _View, removed) -> list[list[int] | None]:
    out, p = [], 0
    for w in words:
        found = _locate(w, v, removed, p) if w else None
        out.append(found)
        if found is not None:
            p = found[-1] + 1
    return out


def _next_pass(words: Sequence[str], found, v: _View) -> _View:
    """The view of a pass's output (its words joined by single spaces) for the next pass."""
    out = _View([], [], [], [])
    for k, (w, idx) in enumerate(zip(words, found)):
        if k:
            out.chars.append(" ")
            out.starts.append(None)
            out.ends.append(None)
            out.how.append("")
        for c, q in zip(w, idx or [None] * len(w)):
            out.chars.append(c)
            out.starts.append(None if q is None else v.starts[q])
            out.ends.append(None if q is None else v.ends[q])
            out.how.append("" if q is None else v.how[q])
    return out


def _token(text: str, w: str, idx, v: _View, lowercase: bool) -> TerToken:
    if idx is None or v.starts[idx[0]] is None or v.ends[idx[-1]] is None:
        return TerToken(w, None, None, False, "not found in the text as typed")
    start, end = v.starts[idx[0]], v.ends[idx[-1]]
    shown = text[start:end].lower() if lowercase else text[start:end]
    if shown == w:
        return TerToken(w, start, end, True)
    changes = sorted({part for q in idx for part in v.how[q].split("; ") if part})
    note = "the tokenizer changed it: " + "; ".join(changes) if changes else "the tokenizer changed its characters"
    return TerToken(w, start, end, False, note)


def token_spans(text: str, passes: Sequence[str], *, lowercase: bool = False,
                replacements: Sequence[tuple[str, str]] = (), removed: str | None = None) -> list[TerToken]:
    """One ``TerToken`` per word of the last of ``passes`` (the tokenizer's output of ``text``, then of each
    previous output)."""
    rx = re.compile(removed) if removed else None
    v = _View.of(text)
    for i, out in enumerate(passes):
        if lowercase:
            v = v.lowered()
        for old, new in replacements:
            v = v.replaced(old, new)
        words = out.split()
        found = _locate_all(words, v, rx)
        if i == len(passes) - 1:
            return [_token(text, w, idx, v, lowercase) for w, idx in zip(words, found)]
        v = _next_pass(words, found, v)
    return []
