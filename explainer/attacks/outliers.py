"""Mathur, Baldwin & Cohn (2020)'s outlier lesson, recomputed: one system far from the others can make a metric's
correlation with human judgements look strong (or weak).

The data are WMT19's system-level scores (``data/wmt19_system_scores.tsv``; its README says where they come from
and under which terms): for each language pair, every system's direct-assessment score (human, z) and its
sacreBLEU BLEU and chrF. :func:`correlation` recomputes Pearson's r of a metric against the human scores with all
systems and without the ones left out; :func:`mad_outliers` flags outliers by the paper's rule (a human score more
than 2.5 robust standard deviations from the median, the MAD scaled by 1.4826).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

__all__ = ["System", "METRICS", "DEFAULT_PAIR", "DEFAULT_METRIC", "pairs", "systems", "pearson", "mad_outliers",
           "correlation", "Correlation", "SOURCE", "DATA"]

DATA = Path(__file__).resolve().parent / "data" / "wmt19_system_scores.tsv"
#: metric (the data's column) -> (label, factor to its usual scale: the metrics task gives BLEU on 0-1)
METRICS = {"sacrebleu_bleu": ("BLEU (sacreBLEU)", 100.0), "sacrebleu_chrf": ("chrF (sacreBLEU)", 1.0)}
DEFAULT_METRIC = "sacrebleu_bleu"
#: German→Czech: one system (CAiRE) far below the others, the paper's rule flags it alone
DEFAULT_PAIR = "de-cs"
MAD_SCALE = 1.4826
MAD_THRESHOLD = 2.5
SOURCE = ("WMT19 system-level scores (Barrault et al. 2019; Ma et al. 2019) as released by Mathur, Baldwin & Cohn "
          "2020, Tangled up in BLEU (ACL) — https://aclanthology.org/2020.acl-main.448/; data: "
          "https://github.com/nitikam/tangled (data/wmt19_sys_scores)")


@dataclass(frozen=True)
class System:
    lp: str
    name: str
    human: float
    scores: dict            # metric key -> value on its usual scale


@lru_cache(maxsize=1)
def _table() -> tuple[System, ...]:
    lines = DATA.read_text(encoding="utf-8").splitlines()
    head = lines[0].split("\t")
    out = []
    for line in lines[1:]:
        row = dict(zip(head, line.split("\t")))
        out.append(System(row["lp"], row["system"], float(row["human_z"]),
                          {k: float(row[k]) * f for k, (_, f) in METRICS.items()}))
    return tuple(out)


def pairs() -> list[str]:
    return sorted({s.lp for s in _table()})


def systems(lp: str) -> list[System]:
    out = [s for s in _table() if s.lp == lp]
    if not out:
        raise ValueError(f"no WMT19 language pair {lp!r}; choose one of: {', '.join(pairs())}")
    return out


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's r (NaN with fewer than two points or no variance)."""
    n = len(xs)
    if n < 2 or n != len(ys):
        return math.nan
    mx, my = math.fsum(xs) / n, math.fsum(ys) / n
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan


def _median(v: Sequence[float]) -> float:
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def mad_outliers(values: Sequence[float]) -> list[bool]:
    """Mathur et al.'s rule: |v − median| / (1.4826 · median absolute deviation) > 2.5."""
    med = _median(values)
    mad = _median([abs(v - med) for v in values]) * MAD_SCALE
    return [mad > 0 and abs(v - med) / mad > MAD_THRESHOLD for v in values]


@dataclass(frozen=True)
class Correlation:
    lp: str
    metric: str
    systems: tuple[System, ...]
    left_out: tuple[str, ...]          # the systems left out (names)
    outliers: tuple[str, ...]          # the systems the paper's rule flags
    r_all: float
    r_kept: float
    leave_one_out: dict                # system -> r without that system alone

    @property
    def kept(self) -> list[System]:
        return [s for s in self.systems if s.name not in self.left_out]


def correlation(lp: str = DEFAULT_PAIR, metric: str = DEFAULT_METRIC, left_out: Sequence[str] | None = None
                ) -> Correlation:
    """Pearson's r of ``metric`` against the human scores of ``lp``'s systems, with all of them and without
    ``left_out`` (None: the outliers the paper's rule flags)."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of: {', '.join(METRICS)}")
    sys_ = systems(lp)
    human = [s.human for s in sys_]
    flagged = tuple(s.name for s, o in zip(sys_, mad_outliers(human)) if o)
    names = {s.name for s in sys_}
    gone = flagged if left_out is None else tuple(n for n in left_out if n in names)
    xs = [s.scores[metric] for s in sys_]
    kept = [(x, s.human) for x, s in zip(xs, sys_) if s.name not in gone]
    loo = {s.name: pearson(xs[:i] + xs[i + 1:], human[:i] + human[i + 1:]) for i, s in enumerate(sys_)}
    return Correlation(lp, metric, tuple(sys_), gone, flagged, pearson(xs, human),
                       pearson([k[0] for k in kept], [k[1] for k in kept]), loo)
