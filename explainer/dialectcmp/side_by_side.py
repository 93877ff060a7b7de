"""The side-by-side table as a value: its rows (one per configuration, each from the core's own trace) and the
first divergence of each pair of rows, built by a family's part (``explainer.dialectcmp.families``); the callers'
functions are in ``comparison`` (``compare``, ``compare_corpus``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from explainer.dialectcmp.configs import Config
from explainer.dialectcmp.divergence import Divergence
from explainer.dialectcmp.rows import Row
from explainer.dialectcmp.tokdiff import MAX_COMPARISON_ALIGN_WORK, MAX_PAIR_ALIGN_WORK, alignment_budget

__all__ = ["Comparison", "divergence", "default_pairs", "pairs_scope", "build", "Progress"]


@dataclass
class Comparison:
    metric: str                     # the family's name
    level: str                      # "segment" or "corpus"
    rows: list[Row]
    pairs: list[Divergence] = field(default_factory=list)
    candidate: str | list[str] = ""
    references: list = field(default_factory=list)
    #: the family part's first difference of two rows: ``differ(comparison, a, b)``
    differ: Callable = field(default=None, compare=False, repr=False)

    def row(self, row_id: str) -> Row:
        for r in self.rows:
            if r.id == row_id:
                return r
        raise KeyError(f"no row {row_id!r}; rows: {', '.join(r.id for r in self.rows)}")

    def pair(self, a: str, b: str) -> Divergence:
        """The divergence of rows ``a`` and ``b`` (computed on demand, kept)."""
        for d in self.pairs:
            if d.a == a and d.b == b:
                return d
        d = divergence(self, a, b)
        self.pairs.append(d)
        return d

    def divergence(self, a: str, b: str) -> Divergence:
        """The divergence of rows ``a`` and ``b``, a kept one or computed without keeping it (a comparison shared
        between sessions is never changed)."""
        for d in self.pairs:
            if d.a == a and d.b == b:
                return d
        return divergence(self, a, b)

    def to_dict(self) -> dict:
        return {"metric": self.metric, "level": self.level, "rows": [r.data for r in self.rows],
                "pairs": [d.to_dict() for d in self.pairs]}


def default_pairs(rows: Sequence[Row]) -> list[tuple[str, str]]:
    """Each row against the first one."""
    return [(rows[0].id, r.id) for r in rows[1:]]


def pairs_scope():
    """A context in which a run of ``cmp.pair`` calls shares one alignment budget (the token step's cost of all
    of them together is bounded: ``tokdiff.MAX_COMPARISON_ALIGN_WORK``)."""
    return alignment_budget(MAX_COMPARISON_ALIGN_WORK)


def divergence(cmp: Comparison, a: str, b: str) -> Divergence:
    """The first divergence of rows ``a`` and ``b``; its token alignments share ``tokdiff.MAX_PAIR_ALIGN_WORK``
    (of the enclosing ``pairs_scope``'s budget, if any)."""
    with alignment_budget(MAX_PAIR_ALIGN_WORK):
        return _divergence(cmp, a, b)


def _divergence(cmp: Comparison, a: str, b: str) -> Divergence:
    return cmp.differ(cmp, a, b)


Progress = Callable[[int, int, str], None]   # (steps done, steps in all, what is being done)


def _pairs(cmp: Comparison, pairs, progress: Progress | None = None, done: int = 0, total: int = 0) -> None:
    with pairs_scope():
        for a, b in (default_pairs(cmp.rows) if pairs is None else pairs):
            if progress is not None:
                progress(done, total, f"first divergence: {cmp.row(a).label} vs {cmp.row(b).label}")
                done += 1
            cmp.pair(a, b)


def build(level: str, metric: str, cands, refs, configs: Sequence[Config], make: Callable[[Config], Row], pairs,
          progress: Progress | None = None, *, differ: Callable) -> Comparison:
    """The rows (``make(config)``: a row from the core's trace), then the pairs (``differ(comparison, a, b)``: the
    family part's first difference of two rows); ``progress`` before each."""
    configs = list(configs)
    n_pairs = len(configs) - 1 if pairs is None else len(pairs)
    total = len(configs) + n_pairs
    rows = []
    for k, c in enumerate(configs):
        if progress is not None:
            progress(k, total, c.label)
        rows.append(make(c))
    _check_ids(rows)
    cmp = Comparison(metric, level, rows, [], cands, refs, differ)
    _pairs(cmp, pairs, progress, len(configs), total)
    if progress is not None:
        progress(total, total, "done")
    return cmp


def _check_ids(rows) -> None:
    ids = [r.id for r in rows]
    if len(set(ids)) != len(ids):
        raise ValueError(f"row ids must be unique: {ids}")
