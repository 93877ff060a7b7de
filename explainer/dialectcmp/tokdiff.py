"""Where two token lists of the same text differ, in words (``mat.`` vs ``mat .``, ``The`` vs ``the``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Sequence

__all__ = ["TokenDiff", "Stretch", "first_token_diff", "describe", "quote"]


def quote(tokens: Sequence[str] | str, limit: int = 60) -> str:
    """Tokens shown as the user would type them, in backticks (``mat .``); long runs are cut."""
    s = tokens if isinstance(tokens, str) else " ".join(tokens)
    if len(s) > limit:
        s = s[:limit - 1] + "…"
    return f"`{s}`" if s else "nothing"


@dataclass
class Stretch:
    """One differing stretch: ``a[a_start:a_end]`` against ``b[b_start:b_end]``, and what kind of difference."""

    a_start: int
    a_end: int
    b_start: int
    b_end: int
    kind: str          # "split", "case", "dropped", "added", "changed"


@dataclass
class TokenDiff:
    """The stretch the evidence is about (the first one that is more than case, else the first one), the first
    stretch of every other kind, and every token index of a / b in some differing stretch."""

    a_start: int
    a_end: int
    b_start: int
    b_end: int
    kind: str
    n_stretches: int   # how many differing stretches the whole text has
    a_all: list[int] = field(default_factory=list)
    b_all: list[int] = field(default_factory=list)
    others: list[Stretch] = field(default_factory=list)   # the first stretch of each other kind

    def a_tokens(self, a: Sequence[str]) -> list[str]:
        return list(a[self.a_start:self.a_end])

    def b_tokens(self, b: Sequence[str]) -> list[str]:
        return list(b[self.b_start:self.b_end])


def _kind(ta: list[str], tb: list[str]) -> str:
    if not ta:
        return "added"
    if not tb:
        return "dropped"
    if "".join(ta) == "".join(tb):
        return "split"
    if [t.lower() for t in ta] == [t.lower() for t in tb] or " ".join(ta).lower() == " ".join(tb).lower():
        return "case"
    if "".join(ta).lower() == "".join(tb).lower():
        return "split"          # split and case both differ: the split is the striking part
    return "changed"


def first_token_diff(a: Sequence[str], b: Sequence[str]) -> TokenDiff | None:
    """Where two token lists of the same text differ (None when they are equal). The evidence is the first
    stretch that is more than a change of case (a split, a dropped or changed token moves the counts; a
    lowercasing applied to every text often does not), else the first stretch; the first stretch of every
    other kind is kept so that the sentence can name it too."""
    if list(a) == list(b):
        return None
    ops = [op for op in SequenceMatcher(None, list(a), list(b), autojunk=False).get_opcodes() if op[0] != "equal"]
    stretches = [Stretch(i1, i2, j1, j2, _kind(list(a[i1:i2]), list(b[j1:j2]))) for _, i1, i2, j1, j2 in ops]
    main = next((x for x in stretches if x.kind != "case"), stretches[0])
    others, seen = [], {main.kind}
    for x in stretches:
        if x.kind not in seen:
            seen.add(x.kind)
            others.append(x)
    a_all = [i for op in ops for i in range(op[1], op[2])]
    b_all = [j for op in ops for j in range(op[3], op[4])]
    return TokenDiff(main.a_start, main.a_end, main.b_start, main.b_end, main.kind, len(ops), a_all, b_all, others)


def _sentence(kind: str, ta: list[str], tb: list[str], la: str, lb: str, where: str) -> str:
    """What A's tokenizer does with one stretch and what B's does."""
    if kind == "split":
        if len(ta) > len(tb):
            s = f"{la} splits {quote(tb)} into {quote(ta)}{where}; {lb} keeps {quote(tb)}"
        else:
            s = f"{lb} splits {quote(ta)} into {quote(tb)}{where}; {la} keeps {quote(ta)}"
        if [t.lower() for t in ta] != ta or [t.lower() for t in tb] != tb:
            if " ".join(ta).lower() != " ".join(ta) or " ".join(tb).lower() != " ".join(tb):
                s += " (and the case differs)"
        return s
    if kind == "case":
        if " ".join(ta) == " ".join(ta).lower():
            return f"{la} lowercases {quote(tb)} to {quote(ta)}{where}; {lb} keeps the case"
        if " ".join(tb) == " ".join(tb).lower():
            return f"{lb} lowercases {quote(ta)} to {quote(tb)}{where}; {la} keeps the case"
        return f"{la} has {quote(ta)}{where}, {lb} {quote(tb)} (different case)"
    if kind == "dropped":
        return f"{lb} drops {quote(ta)}{where}, which {la} keeps"
    if kind == "added":
        return f"{la} drops {quote(tb)}{where}, which {lb} keeps"
    return f"{la} has {quote(ta)}{where} where {lb} has {quote(tb)}"


def describe(diff: TokenDiff, a: Sequence[str], b: Sequence[str], la: str, lb: str, what: str) -> str:
    """One sentence: what A's tokenizer does with the stretch of ``what`` the evidence is about and what B's
    does; then, in a few words, each other kind of difference in this text."""
    where = f" in the {what}" if what else ""
    s = _sentence(diff.kind, diff.a_tokens(a), diff.b_tokens(b), la, lb, where)
    for x in diff.others:
        s += "; also " + _sentence(x.kind, list(a[x.a_start:x.a_end]), list(b[x.b_start:x.b_end]), la, lb, "")
    rest = diff.n_stretches - 1 - len(diff.others)
    if rest > 0:
        s += f" ({rest} more difference{'s' if rest > 1 else ''} in this text)"
    return s
