"""Ties and coincidences of a reproduced number (docs/dialects-compare.md, "Ties and coincidences").

* A *tie*: several implementations print the claimed number (REALSumm's ROUGE: ROUGE-1.5.5 ``-m`` and rouge-score
  with stemming give the same 4 digits). ``tied_implementations`` lists one match per implementation (the simplest
  of each), the metric's original script first when it is among them (a dialect's ``original``), then simplest
  first; when common configurations give the number, unusual ones are not listed.
* A *coincidence*: at the claim's precision, a configuration unrelated to the paper's prints the claim by chance
  ("chrF 61.00" is printed by 60.99986 while the paper's value was 60.99699). ``coincidence`` estimates how likely
  that is: the claim stands for an interval one unit of its last digit wide; the values the search computed
  (each on the claim's scale: as printed or ×100 / ÷100, whichever is nearer the claim) spread over the range of
  their 5th to 95th percentile; an unrelated configuration whose value falls anywhere in that range lands in the
  interval with probability ``width / spread`` (capped at 1), and among the distinct values searched about
  ``n × width / spread`` would print the claim by chance.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

__all__ = ["tied_implementations", "Coincidence", "coincidence", "claim_scale", "MIN_VALUES"]

#: below this many distinct values the spread says nothing: no estimate
MIN_VALUES = 10


def tied_implementations(matches: Sequence) -> list:
    """One match per implementation (family and dialect) that prints the claim, the original script first (when
    it is among them), then simplest first; only common configurations when any gives the number."""
    common = [m for m in matches if not m.unusual]
    pool = common or list(matches)
    seen: dict = {}
    for m in pool:
        seen.setdefault((m.config.family, m.config.dialect), m)
    ordered = list(seen.values())
    return sorted(ordered, key=lambda m: not m.config.dialect_class().original)


def claim_scale(claim, value: float, native_scale: float) -> float:
    """``value`` on the claim's scale: as printed, or on the other scale (×100 for a 0–1 value, ÷100 for a 0–100
    one), whichever is nearer the claim."""
    other = value * 100.0 if native_scale == 1.0 else value / 100.0
    return value if claim.distance(value) <= claim.distance(other) else other


@dataclass(frozen=True)
class Coincidence:
    width: float                # the interval the claim stands for: one unit of its last digit
    spread: float | None        # the values searched: 5th to 95th percentile range (None: too few values)
    n_values: int               # distinct values searched
    p_one: float | None         # the chance that one unrelated configuration prints the claim
    expected: float | None      # unrelated configurations among those searched expected to print it by chance
    precision_words: str        # "2 decimals"

    @property
    def level(self) -> str:
        """"likely" (about one or more of the configurations searched would print it by chance), "possible" (at
        least one chance in ten), "unlikely", or "unknown" (too few values)."""
        if self.expected is None:
            return "unknown"
        if self.expected >= 1.0:
            return "likely"
        return "possible" if self.expected >= 0.1 else "unlikely"

    @property
    def sentence(self) -> str:
        if self.p_one is None:
            return (f"At {self.precision_words} the claim stands for an interval {self.width:g} wide; too few values "
                    "were searched to say how likely a rounding coincidence is.")
        odds = "every time" if self.p_one >= 1 else f"about once in {1 / self.p_one:,.0f} tries"
        head = (f"At {self.precision_words} the claim stands for an interval {self.width:g} wide; the "
                f"{self.n_values:,} values searched spread over {self.spread:.3g} (5th–95th percentile), so an "
                f"unrelated configuration prints it by chance {odds} (p ≈ {self.p_one:.2g}; about "
                f"{self.expected:.2g} of those searched).")
        tail = {"likely": " A match may well be a rounding coincidence: more digits or the paper's settings would "
                          "tell.",
                "possible": " A rounding coincidence is possible.",
                "unlikely": " A rounding coincidence is unlikely."}[self.level]
        return head + tail

    def to_dict(self) -> dict:
        return {"width": self.width, "spread": self.spread, "n_values": self.n_values, "p_one": self.p_one,
                "expected": self.expected, "level": self.level, "sentence": self.sentence}


def coincidence(claim, values: Sequence[float]) -> Coincidence:
    """How likely an unrelated configuration prints the claim at its precision, from the values searched (on the
    claim's scale, ``claim_scale``)."""
    distinct = sorted({float(f"{v:.12g}") for v in values if v == v})
    n = len(distinct)
    width = claim.resolution
    if n < MIN_VALUES:
        return Coincidence(width, None, n, None, None, claim.precision_words)
    lo, hi = distinct[round(0.05 * (n - 1))], distinct[round(0.95 * (n - 1))]
    spread = hi - lo
    p = 1.0 if spread <= 0 else min(1.0, width / spread)
    return Coincidence(width, spread, n, p, p * n, claim.precision_words)
