"""The three-way verdict on a printed number, wherever a claim is judged (CLI, Dialects, Explain, Teach, handouts).

* ``holds``: with the settings the claim is shown with, the value prints as the claim;
* ``holds-otherwise``: not with these settings, but with others the search found (``match``: the simplest,
  with its ``argv``; ``others`` counts them);
* ``holds-nowhere``: under no configuration searched (``match``: the nearest value);
* ``refused``: the claim names a metric that is not searched (``claim_names.METRIC_NAMES``).

``judge(reproduction, value_here)``: ``value_here`` is the value with "these settings" (None when the claim is
not shown with settings: then a found configuration is ``holds-otherwise``). The same for a number the textbook
prints for a worked example: ``explainer.dialectcmp.printed.judge_printed``.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Judgement", "judge", "HEADLINES"]

HEADLINES = {"holds": "holds with these settings", "holds-otherwise": "holds with other settings",
             "holds-nowhere": "holds under no configuration searched", "refused": "not searched (another metric)",
             "not-searched": "not searched"}


@dataclass(frozen=True)
class Judgement:
    kind: str                   # a key of HEADLINES
    detail: str                 # which settings, or the nearest value, in words
    match: object = None        # reproduction.Match: the simplest other configuration, or the nearest
    others: int = 0             # configurations that give the claim

    @property
    def headline(self) -> str:
        return HEADLINES[self.kind]

    @property
    def sentence(self) -> str:
        return f"{self.headline[:1].upper()}{self.headline[1:]}" + (f": {self.detail}" if self.detail else ".")

    def to_dict(self) -> dict:
        m = self.match
        return {"kind": self.kind, "headline": self.headline, "detail": self.detail, "others": self.others,
                **({"match": m.to_dict()} if m is not None else {})}


def _prints_as(claim, x: float, scale: float) -> bool:
    """``x`` (on its implementation's scale) prints as the claim, as printed or on the other scale."""
    other = x * 100.0 if scale == 1.0 else x / 100.0
    return claim.rounds_to(x) or claim.rounds_to(other)


def judge(res, value_here: float | None = None, *, scale: float = 1.0) -> Judgement:
    """The three-way verdict of a Reproduction (``value_here``: the value with these settings, ``scale`` its
    implementation's scale: 1 or 100)."""
    if res.verdict == "refused":
        return Judgement("refused", res.refused)
    if value_here is not None and _prints_as(res.claim, float(value_here), scale):
        return Judgement("holds", "", others=res.n_matches)
    if res.matches:
        m = res.matches[0]
        return Judgement("holds-otherwise", f"{m.description} = {m.shown}", m, res.n_matches)
    if res.truncated:
        m = res.truncated[0]
        return Judgement("holds-otherwise", f"{m.description} = {m.shown}", m, len(res.truncated))
    near = res.nearest[0] if res.nearest else None
    detail = f"the nearest: {near.description} = {near.value:.6g}" if near else ""
    return Judgement("holds-nowhere", detail, near)
