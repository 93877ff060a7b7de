"""Where two token lists of the same text differ, in words (``mat.`` vs ``mat .``, ``The`` vs ``the``).

Bounded: the alignment is difflib's ``SequenceMatcher`` (``autojunk=False``), whose cost is cubic on repetitive
token lists (``'a b. ' * 1200`` against its own re-tokenization: minutes). Every ``find_longest_match`` is charged
its work before it runs (the a-range plus every b-position it will visit), and an alignment stops when it has
spent ``MAX_ALIGN_WORK`` units (~0.1 s). Within that the result is exactly SequenceMatcher's. Past it the common
prefix and suffix are set aside and the differing middle gets the same budget once more; past that the diff says
"too long to align token by token" with the first differing token and the token counts (``kind = "unaligned"``).
A whole divergence (every text of a pair) shares ``MAX_PAIR_ALIGN_WORK`` (``alignment_budget``), so one pair, and
the default pairs of a comparison, stay within a stated CPU bound (docs/limits.md).
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Iterator, Sequence

__all__ = ["TokenDiff", "Stretch", "first_token_diff", "describe", "quote", "MAX_ALIGN_WORK", "MAX_PAIR_ALIGN_WORK",
           "MAX_COMPARISON_ALIGN_WORK", "alignment_budget"]

#: work units (one unit: one b-position visited or one a-token scanned by ``find_longest_match``; 65-95 ns) of one
#: alignment attempt; each text may take two attempts (whole lists, then the middle without the common ends)
MAX_ALIGN_WORK = 1_000_000
#: work units shared by every alignment of one divergence (one pair of rows: the candidate and every reference)
MAX_PAIR_ALIGN_WORK = 2_500_000
#: work units shared by every pair of one comparison (the default pairs, or every pair of ``--all-pairs``)
MAX_COMPARISON_ALIGN_WORK = 5_000_000


class _OverBudget(Exception):
    pass


class _Budget:
    """Work units left; ``cache`` maps (a, b) token tuples to their exact diff (pairs of a comparison often
    compare the same two tokenizations: one alignment serves them all)."""

    def __init__(self, units: int, cache: dict | None = None):
        self.left = units
        self.cache: dict = {} if cache is None else cache


_SCOPE: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("alignment_budget", default=None)


@contextlib.contextmanager
def alignment_budget(units: int = MAX_PAIR_ALIGN_WORK) -> Iterator[None]:
    """Every ``first_token_diff`` inside shares ``units`` work units. Inside another scope: at most what the
    outer one has left, charged to it, and the outer one's cache (a comparison's pairs each get
    ``MAX_PAIR_ALIGN_WORK`` of the comparison's ``MAX_COMPARISON_ALIGN_WORK``)."""
    outer = _SCOPE.get()
    mine = _Budget(units if outer is None else min(units, max(0, outer.left)),
                   None if outer is None else outer.cache)
    start = mine.left
    token = _SCOPE.set(mine)
    try:
        yield
    finally:
        _SCOPE.reset(token)
        if outer is not None:
            outer.left -= start - mine.left


class _BoundedMatcher(SequenceMatcher):
    """SequenceMatcher(None, a, b, autojunk=False) that raises ``_OverBudget`` before a ``find_longest_match``
    whose work would exceed ``units`` (its results are SequenceMatcher's own: only the charging is added)."""

    def __init__(self, a: list, b: list, units: int):
        self._left = units
        self.spent = 0
        super().__init__(None, a, b, autojunk=False)

    def find_longest_match(self, alo=0, ahi=None, blo=0, bhi=None):
        ahi = len(self.a) if ahi is None else ahi
        bhi = len(self.b) if bhi is None else bhi
        get = self.b2j.get
        # the inner loop visits at most every position of a[i] in b, for every i in the a-range
        cost = (ahi - alo) + sum(len(get(x, ())) for x in self.a[alo:ahi])
        if self.spent + cost > self._left:
            self.spent += ahi - alo         # only the scan above was done
            raise _OverBudget
        self.spent += cost
        return super().find_longest_match(alo, ahi, blo, bhi)


def _opcodes(a: list, b: list, units: int) -> tuple[list | None, int]:
    """SequenceMatcher's non-equal opcodes, or None past ``units``; and the units spent."""
    m = _BoundedMatcher(a, b, units)
    try:
        ops = [op for op in m.get_opcodes() if op[0] != "equal"]
    except _OverBudget:
        return None, m.spent
    return ops, m.spent


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
    kind: str          # "split", "case", "dropped", "added", "changed"; "unaligned" (too long to align)


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
    other kind is kept so that the sentence can name it too. Bounded (module docstring): past the budget the
    result is one ``"unaligned"`` stretch from the first differing token to the last."""
    a, b = list(a), list(b)
    if a == b:
        return None
    scope = _SCOPE.get()
    key = (tuple(a), tuple(b)) if scope is not None else None
    if key is not None and key in scope.cache:
        return scope.cache[key]
    out, exact = _diff(a, b, scope)
    if key is not None and exact:
        scope.cache[key] = out      # only SequenceMatcher's own result: a hit is what any budget would give
    return out


def _diff(a: list, b: list, scope: _Budget | None) -> tuple[TokenDiff, bool]:
    def units() -> int:
        return MAX_ALIGN_WORK if scope is None else max(0, min(MAX_ALIGN_WORK, scope.left))

    def spend(n: int) -> None:
        if scope is not None:
            scope.left -= n

    ops, spent = _opcodes(a, b, units())
    spend(spent)
    exact = ops is not None
    if ops is None:
        # set the common ends aside (linear) and try the differing middle once more
        p = 0
        while p < len(a) and p < len(b) and a[p] == b[p]:
            p += 1
        s = 0
        while s < len(a) - p and s < len(b) - p and a[-1 - s] == b[-1 - s]:
            s += 1
        ma, mb = a[p:len(a) - s], b[p:len(b) - s]
        if len(ma) + len(mb) < len(a) + len(b):
            ops, spent = _opcodes(ma, mb, units())
            spend(spent)
        if ops is None:
            return TokenDiff(p, len(a) - s, p, len(b) - s, "unaligned", 1, list(range(p, len(a) - s)),
                             list(range(p, len(b) - s))), False
        ops = [(tag, i1 + p, i2 + p, j1 + p, j2 + p) for tag, i1, i2, j1, j2 in ops]
    stretches = [Stretch(i1, i2, j1, j2, _kind(a[i1:i2], b[j1:j2])) for _, i1, i2, j1, j2 in ops]
    main = next((x for x in stretches if x.kind != "case"), stretches[0])
    others, seen = [], {main.kind}
    for x in stretches:
        if x.kind not in seen:
            seen.add(x.kind)
            others.append(x)
    a_all = [i for op in ops for i in range(op[1], op[2])]
    b_all = [j for op in ops for j in range(op[3], op[4])]
    return TokenDiff(main.a_start, main.a_end, main.b_start, main.b_end, main.kind, len(ops), a_all, b_all,
                     others), exact


def _sentence(kind: str, ta: list[str], tb: list[str], la: str, lb: str, where: str) -> str:
    """What A's tokenizer does with one stretch and what B's does."""
    if kind == "split":
        if len(ta) > len(tb):
            s = f"{la} splits {quote(tb)} into {quote(ta)}{where}; {lb} keeps {quote(tb)}"
        else:
            s = f"{lb} splits {quote(ta)} into {quote(tb)}{where}; {la} keeps {quote(ta)}"
        if "".join(ta) != "".join(tb):      # the same letters only once lowercased: one side changed the case
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
    if diff.kind == "unaligned":
        ta, tb = diff.a_tokens(a), diff.b_tokens(b)
        return (f"{la} and {lb} tokenize the {what or 'text'} differently from token {diff.a_start + 1} on ({la} "
                f"{quote(ta[:6])}, {lb} {quote(tb[:6])}); too long to align token by token (limit: "
                f"{MAX_ALIGN_WORK:,} steps), so here are the counts: {len(a):,} tokens ({la}) vs {len(b):,} "
                f"({lb}), of which {len(ta):,} vs {len(tb):,} lie between the common beginning and end")
    s = _sentence(diff.kind, diff.a_tokens(a), diff.b_tokens(b), la, lb, where)
    for x in diff.others:
        s += "; also " + _sentence(x.kind, list(a[x.a_start:x.a_end]), list(b[x.b_start:x.b_end]), la, lb, "")
    rest = diff.n_stretches - 1 - len(diff.others)
    if rest > 0:
        s += f" ({rest} more difference{'s' if rest > 1 else ''} in this text)"
    return s
