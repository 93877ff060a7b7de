"""Every metric's verdict on one attack: a table of texts (rows) by measures (columns, every family's), with the
deltas and one verdict per column, and the sentence that says what resisted.

The verdict words are the same for every family (:func:`explainer.family.verdict`, in each measure's own
direction — TER is an error rate, a lower TER is the better score):

* an **attack** (honest text vs an attack on it): ``fooled`` when the attack scores at least as well as the honest
  text (``tie``: exactly as well — the metric cannot tell them apart, which is also fooled), ``resisted`` when it
  scores worse;
* a **preference** (two legitimate texts, e.g. an extractive lead vs a written summary): which one the metric
  rates higher — the same rule, reported as a preference, not as a trick;
* a **configuration trap** (the same text under different settings): ``changed`` or ``unchanged``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from explainer.attacks.measures import Column
from explainer.family import verdict as family_verdict

__all__ = ["Row", "VerdictTable", "build_table", "KINDS", "Summary"]

KINDS = ("attack", "preference", "config")


@dataclass
class Row:
    """One text of the table: its label and role ("honest", "attack", "baseline", "setting", "comparison"),
    column key -> value (None: not computed, ``why`` says why), and the row its deltas are taken against
    (``base``: None for the first row and for a row with references of its own)."""

    label: str
    role: str
    values: dict[str, float | None]
    base: int | None = None
    note: str = ""
    why: dict[str, str] = field(default_factory=dict)

    def delta(self, rows: Sequence["Row"], key: str) -> float | None:
        if self.base is None:
            return None
        a, b = rows[self.base].values.get(key), self.values.get(key)
        return None if a is None or b is None else b - a


@dataclass
class Summary:
    """The columns by verdict, in table order (labels), and the sentence a page shows."""

    groups: dict[str, list[str]]
    kind: str
    labels: tuple[str, str] = ("the first text", "the second text")   # (row 0, the judged row)

    def line(self) -> str:
        g = {k: v for k, v in self.groups.items() if v}
        if self.kind == "config":
            parts = [f"**Changed by the setting:** {', '.join(g['changed'])}" if g.get("changed") else
                     "**Changed by the setting:** nothing",
                     f"**Unchanged:** {', '.join(g['unchanged'])}" if g.get("unchanged") else ""]
        elif self.kind == "preference":
            first, second = self.labels
            parts = [f"**Rate “{second}” higher:** {', '.join(g['fooled'])}" if g.get("fooled") else "",
                     f"**Rate “{first}” higher:** {', '.join(g['resisted'])}" if g.get("resisted") else "",
                     f"**Same score:** {', '.join(g['tie'])}" if g.get("tie") else ""]
        else:
            fooled = g.get("fooled", []) + [f"{x} (same score)" for x in g.get("tie", [])]
            parts = [f"**What resisted:** {', '.join(g['resisted'])}" if g.get("resisted") else
                     "**What resisted:** nothing",
                     f"**Fooled:** {', '.join(fooled)}" if fooled else ""]
        if g.get("n/a"):
            parts.append(f"**Not computed:** {', '.join(g['n/a'])}")
        return " · ".join(p for p in parts if p)


@dataclass
class VerdictTable:
    """A lab table: ``columns`` (:class:`explainer.attacks.measures.Column`), ``rows``, and for each column its
    verdict (``verdicts``: column key -> word) on row ``judged`` against row 0 (attacks, preferences) or on every
    judged row (configuration traps). ``headline``: the columns the lesson is about (bold)."""

    kind: str
    columns: list[Column]
    rows: list[Row]
    verdicts: dict[str, str]
    judged: tuple[int, ...] = ()
    headline: frozenset = frozenset()
    notes: list[str] = field(default_factory=list)

    def column(self, key: str) -> Column:
        return next(c for c in self.columns if c.key == key)

    def summary(self) -> Summary:
        groups: dict[str, list[str]] = {}
        for c in self.columns:
            v = self.verdicts.get(c.key)
            if v is not None:
                groups.setdefault(v, []).append(_name(c))
        labels = (self.rows[0].label, self.rows[self.judged[0]].label) if self.judged else ("", "")
        return Summary(groups, self.kind, labels)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "judged": list(self.judged),
                "columns": [{"key": c.key, "family": c.family, "label": c.label, "scale": c.measure.scale,
                             "higher_is_better": c.measure.higher_is_better} for c in self.columns],
                "rows": [{"label": r.label, "role": r.role, "values": r.values, "base": r.base,
                          "deltas": {c.key: r.delta(self.rows, c.key) for c in self.columns}} for r in self.rows],
                "verdicts": self.verdicts, "summary": self.summary().groups}


def _name(c: Column) -> str:
    """A column's name in a sentence (the family's when it is its only measure: "TER", "chrF2")."""
    return c.label


def build_table(kind: str, columns: Sequence[Column], rows: Sequence[Row], judged: Sequence[int], *,
                headline: Sequence[str] = (), verdict_columns: Sequence[str] | None = None) -> VerdictTable:
    """The table with its verdicts: an attack or a preference judges row ``judged[0]`` against row 0 (its base);
    a configuration trap says ``changed`` when any judged row differs from its base. ``verdict_columns``: the
    columns that get a verdict (default: all)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}")
    keys = [c.key for c in columns] if verdict_columns is None else list(verdict_columns)
    by_key = {c.key: c for c in columns}
    verdicts: dict[str, str] = {}
    for key in keys:
        m = by_key[key].measure
        if kind == "config":
            words = [_one(m, rows, i, key) for i in judged]
            verdicts[key] = ("n/a" if all(w == "n/a" for w in words) else
                             "changed" if any(w not in ("tie", "n/a") for w in words) else "unchanged")
        elif judged:
            verdicts[key] = _one(m, rows, judged[0], key)
    return VerdictTable(kind, list(columns), list(rows), verdicts, tuple(judged), frozenset(headline))


def _one(measure, rows: Sequence[Row], i: int, key: str) -> str:
    row = rows[i]
    base = rows[row.base if row.base is not None else 0]
    return family_verdict(measure, base.values.get(key), row.values.get(key))
