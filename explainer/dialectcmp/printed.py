"""The three-way verdict on the numbers the textbook prints for the worked examples (``explainer.examples``):
``judge_printed(candidate, references, claim, agrees)`` — holds with these settings, with other settings (which:
the reproduce search for a value, every ROUGE configuration and reference for a count, every BLEU configuration for
a bound), or under no configuration searched (the nearest). Used by Teach, the handouts and the Explain page."""
from __future__ import annotations

from functools import lru_cache

from explainer.dialectcmp.verdict import Judgement, judge
from explainer.examples import CLAIM_COUNTS

__all__ = ["judge_printed", "example_claim_text"]

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
    from explainer.dialectcmp.families import part_for_choice

    q = example_claim_text(c)
    if q is not None:
        from explainer.dialectcmp.reproduction import reproduce

        return judge(reproduce(candidate, list(references), q[0], metric=q[1]), None)
    if c.metric in CLAIM_COUNTS:
        t = CLAIM_COUNTS[c.metric]
        return part_for_choice(t).judge_count(candidate, list(references), t, c.value)
    words = _CLAIM_WORDS.get(c.metric)
    if words is not None and c.relation == "<":
        return part_for_choice(words[1]).judge_bound(candidate, list(references), c.agrees)
    return Judgement("not-searched", "")


