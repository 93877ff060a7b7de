"""Where two token lists of the same text differ, in words (``mat.`` vs ``mat .``, ``The`` vs ``the``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Sequence

__all__ = ["TokenDiff", "first_token_diff", "quote"]


def quote(tokens: Sequence[str] | str, limit: int = 60) -> str:
    """Tokens shown as the user would type them, in backticks (``mat .``); long runs are cut."""
    s = tokens if isinstance(tokens, str) else " ".join(tokens)
    if len(s) > limit:
        s = s[:limit - 1] + "…"
    return f"`{s}`" if s else "nothing"


@dataclass
class TokenDiff:
    """The first differing stretch: ``a[a_start:a_end]`` against ``b[b_start:b_end]``."""

    a_start: int
    a_end: int
    b_start: int
    b_end: int
    kind: str          # "split", "case", "dropped", "added", "changed"
    n_stretches: int   # how many differing stretches the whole text has
    a_all: list[int] = field(default_factory=list)   # every token index of a / b in some differing stretch
    b_all: list[int] = field(default_factory=list)

    def a_tokens(self, a: Sequence[str]) -> list[str]:
        return list(a[self.a_start:self.a_end])

    def b_tokens(self, b: Sequence[str]) -> list[str]:
        return list(b[self.b_start:self.b_end])


def first_token_diff(a: Sequence[str], b: Sequence[str]) -> TokenDiff | None:
    """The first stretch where two token lists differ (None when they are equal)."""
    if list(a) == list(b):
        return None
    ops = [op for op in SequenceMatcher(None, list(a), list(b), autojunk=False).get_opcodes() if op[0] != "equal"]
    tag, i1, i2, j1, j2 = ops[0]
    ta, tb = list(a[i1:i2]), list(b[j1:j2])
    if not ta:
        kind = "added"
    elif not tb:
        kind = "dropped"
    elif "".join(ta) == "".join(tb):
        kind = "split"
    elif [t.lower() for t in ta] == [t.lower() for t in tb] or " ".join(ta).lower() == " ".join(tb).lower():
        kind = "case"
    elif "".join(ta).lower() == "".join(tb).lower():
        kind = "split"          # split and case both differ: the split is the striking part
    else:
        kind = "changed"
    a_all = [i for op in ops for i in range(op[1], op[2])]
    b_all = [j for op in ops for j in range(op[3], op[4])]
    return TokenDiff(i1, i2, j1, j2, kind, len(ops), a_all, b_all)


def describe(diff: TokenDiff, a: Sequence[str], b: Sequence[str], la: str, lb: str, what: str) -> str:
    """One sentence: what A's tokenizer does with this stretch of ``what`` and what B's does."""
    ta, tb = diff.a_tokens(a), diff.b_tokens(b)
    where = f" in the {what}" if what else ""
    if diff.kind == "split":
        if len(ta) > len(tb):
            s = f"{la} splits {quote(tb)} into {quote(ta)}{where}; {lb} keeps {quote(tb)}"
        else:
            s = f"{lb} splits {quote(ta)} into {quote(tb)}{where}; {la} keeps {quote(ta)}"
        if " ".join(ta).lower() != " ".join(ta) or " ".join(tb).lower() != " ".join(tb):
            if [t.lower() for t in ta] != ta or [t.lower() for t in tb] != tb:
                s += " (and the case differs)"
    elif diff.kind == "case":
        if " ".join(ta) == " ".join(ta).lower():
            s = f"{la} lowercases {quote(tb)} to {quote(ta)}{where}; {lb} keeps the case"
        elif " ".join(tb) == " ".join(tb).lower():
            s = f"{lb} lowercases {quote(ta)} to {quote(tb)}{where}; {la} keeps the case"
        else:
            s = f"{la} has {quote(ta)}{where}, {lb} {quote(tb)} (different case)"
    elif diff.kind == "dropped":
        s = f"{lb} drops {quote(ta)}{where}, which {la} keeps"
    elif diff.kind == "added":
        s = f"{la} drops {quote(tb)}{where}, which {lb} keeps"
    else:
        s = f"{la} has {quote(ta)}{where} where {lb} has {quote(tb)}"
    if diff.n_stretches > 1:
        s += f" ({diff.n_stretches - 1} more difference{'s' if diff.n_stretches > 2 else ''} in this text)"
    return s
