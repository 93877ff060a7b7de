"""The three-way verdict on a printed number, wherever a claim is judged (CLI, Dialects, Explain, Teach, handouts).

* ``holds``: with the settings the claim is shown with, the value prints as the claim;
* ``holds-otherwise``: not with these settings, but with others the search found (``match``: the simplest,
  with its ``argv``; ``others`` counts them);
* ``holds-nowhere``: under no configuration searched (``match``: the nearest value);
* ``refused``: the claim names a metric that is not searched (``claim_names.METRIC_NAMES``).

``judge(reproduction, value_here)``: ``value_here`` is the value with "these settings" (None when the claim is
not shown with settings: then a found configuration is ``holds-otherwise``). ``judge_printed(example, claim,
value_here)``: the same for a number the textbook prints for a worked example (``explainer.examples.Claim``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Judgement", "judge", "judge_printed", "HEADLINES", "example_claim_text"]

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


#: the textbook's claim metrics (explainer.examples.CLAIM_METRICS) as reproduce claim words; counts are not searched
_CLAIM_WORDS = {"bleu": ("BLEU", "bleu"), "bleu_p1": ("unigram precision", "bleu"), "bleu_bp": ("BP", "bleu"),
                "rouge1_p": ("ROUGE-1 precision", "rouge1"), "rouge1_r": ("ROUGE-1 recall", "rouge1"),
                "rouge1_f": ("ROUGE-1 F", "rouge1"), "rouge2_r": ("ROUGE-2 recall", "rouge2"),
                "rouge2_f": ("ROUGE-2 F", "rouge2"), "rougeL_r": ("ROUGE-L recall", "rougeL"),
                "rougeL_f": ("ROUGE-L F", "rougeL")}


def example_claim_text(c) -> tuple[str, str] | None:
    """(claim string, --metric) for a textbook claim (``explainer.examples.Claim``), None when it is not a
    number the search looks for (counts; "below 1")."""
    words = _CLAIM_WORDS.get(c.metric)
    if words is None or c.relation != "=":
        return None
    printed = c.printed.split("(")[0].replace("≈", "=").replace("about", "").strip()
    return f"{words[0]} {printed}", words[1]


def judge_printed(candidate: str, references, c, agrees: bool | None) -> Judgement:
    """The three-way verdict of a textbook number ``c`` for an example's texts; ``agrees``: whether it holds with
    the settings on the page (``explainer.examples.Claim.agrees`` of the value there; None: not computed)."""
    if agrees:
        return Judgement("holds", "")
    return _judge_elsewhere(candidate, tuple(references), c)


@lru_cache(maxsize=256)
def _judge_elsewhere(candidate: str, references: tuple, c) -> Judgement:
    q = example_claim_text(c)
    if q is not None:
        from explainer.dialectcmp.reproduction import reproduce

        return judge(reproduce(candidate, list(references), q[0], metric=q[1]), None)
    if c.metric in _HITS:
        return _judge_count(candidate, list(references), c)
    if c.metric == "bleu" and c.relation == "<":
        return _judge_bound(candidate, list(references), c)
    return Judgement("not-searched", "")


#: count claims: the ROUGE type whose hits they are
_HITS = {"lcs": "rougeL", "lsum_hits": "rougeLsum", "rouge1_hits": "rouge1"}


def _judge_count(candidate: str, references: list, c) -> Judgement:
    """A count (LCS length, union-LCS hits, unigram overlap) against each reference, under every ROUGE
    configuration searched: the simplest that gives it, else the nearest count."""
    from explainer.dialectcmp.configs import dialect_class
    from explainer.dialectcmp.engines import RougeEngine
    from explainer.dialectcmp.space import rouge_space

    t = _HITS[c.metric]
    eng = RougeEngine(candidate, references)
    best = None
    near = None
    for sc in sorted(rouge_space(split_changes=False), key=lambda x: x.cost):
        try:
            prepared = eng.per_reference(sc.dialect, sc.config.opts, [t])
        except ValueError:
            continue        # the type is not one of this implementation's
        for k, per in enumerate(prepared[4]):
            hits = float(per[t].hits)
            label = dialect_class("rouge", sc.dialect).short_label or sc.dialect
            words = ", ".join((label,) + sc.words + (f"reference {k + 1}",))
            if hits == c.value and best is None:
                best = f"{words}: {hits:g}"
            d = abs(hits - c.value)
            if near is None or d < near[0]:
                near = (d, f"the nearest: {words}: {hits:g}")
    if best is not None:
        return Judgement("holds-otherwise", best)
    return Judgement("holds-nowhere", near[1] if near else "")


def _judge_bound(candidate: str, references: list, c) -> Judgement:
    """A bound ("BLEU stays below 1") under every BLEU configuration searched."""
    from explainer.dialectcmp.engines import BleuEngine
    from explainer.dialectcmp.space import bleu_space

    eng = BleuEngine(candidate, references)
    subset = tuple(range(len(references)))
    for sc in sorted(bleu_space([candidate, *references]), key=lambda x: x.cost):
        res = eng.score(sc.dialect, sc.config.opts, subset)
        scale = eng.dialect(sc.dialect, sc.config.opts).scale
        if res.error is None and c.agrees(res.score / scale):
            return Judgement("holds-otherwise", ", ".join((sc.dialect,) + sc.words) + f": {res.score / scale:.6g}")
    return Judgement("holds-nowhere", "every configuration searched gives at least the bound")
