"""The names of metrics papers print, and claims with several numbers at once.

* ``METRIC_NAMES``: the names of metrics this tool does not compute, each refused with a message that names it
  (never "reproduced" by a BLEU or ROUGE value that happens to print the same). The registered families' own
  names are read by their parts (``explainer.dialectcmp.families``): a metric that lands in the explainer as a
  family is searched under its name, and a name here that a family reads is no longer refused.
* ``other_metric(text)``: the refused metric a claim names (or None).
* ``split_claims(text)``: "R-1/R-2/R-L 44.2/21.3/41.0" -> ["R-1 44.2", "R-2 21.3", "R-L 41.0"]; "BLEU 27.3 /
  chrF 55.1" -> ["BLEU 27.3", "chrF 55.1"]; a claim with one number (or a fraction "2/7 = 0.29") stays whole.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MetricName", "METRIC_NAMES", "other_metric", "refusal_message", "split_claims", "MAX_CLAIM_PARTS"]

#: numbers in one claim (each is searched on its own)
MAX_CLAIM_PARTS = 8


@dataclass(frozen=True)
class MetricName:
    name: str                   # as papers print it
    pattern: str                # regular expression over the lowercased claim
    what: str                   # the metric in words (for the refusal)


#: metrics this tool does not compute (a registered family reading one of these names takes it over)
METRIC_NAMES: tuple[MetricName, ...] = (
    MetricName("COMET", r"\b(?:x-?)?comet(?:[\w-]*)?\b", "COMET, a learned metric"),
    MetricName("METEOR", r"\bmeteor\b", "METEOR, an alignment metric with stems and synonyms"),
    MetricName("BERTScore", r"\bbert[\s_-]?score\b", "BERTScore, a learned embedding metric"),
    MetricName("BLEURT", r"\bbleurt\b", "BLEURT, a learned metric"),
    MetricName("CIDEr", r"\bcider(?:-?d)?\b", "CIDEr, a consensus metric for image captions"),
    MetricName("SPICE", r"\bspice\b", "SPICE, a scene-graph metric"),
    MetricName("NIST", r"\bnist\b", "NIST, an information-weighted n-gram metric"),
    MetricName("GLEU", r"\bgleu\b", "GLEU (Google BLEU), a sentence-level variant"),
    MetricName("WER", r"\b(?:wer|word error rate)\b", "WER, the word error rate"),
    MetricName("MoverScore", r"\bmover[\s_-]?score\b", "MoverScore, a learned embedding metric"),
)
_COMPILED = [(m, re.compile(m.pattern)) for m in METRIC_NAMES]


def other_metric(text: str) -> MetricName | None:
    """The first metric the claim names that no registered family computes (None: only the families' names, or
    no name)."""
    from explainer.dialectcmp.families import family_parts

    s = text.lower() if isinstance(text, str) else ""
    parts = family_parts()
    for m, rx in _COMPILED:
        if rx.search(s) and not any(p.reads_name(m.name.lower()) for p in parts):
            return m
    return None


def _listed(labels: list[str], word: str) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + f" {word} " + labels[-1]


def refusal_message(m: MetricName, claim: str) -> str:
    from explainer.dialectcmp.families import family_parts

    labels = [p.label for p in family_parts()]
    return (f"{claim.strip()!r} is a {m.name} number: {m.what}. This tool computes {_listed(labels, 'and')} only, "
            f"so it cannot say which settings give it (no {_listed(labels, 'or')} configuration is offered in its "
            "place).")


_NUMBER = r"[+-]?(?:\d+(?:[.,]\d+)?|[.,]\d+)(?:e[+-]?\d+)?\s*%?"
#: "R-1/R-2/R-L 44.2/21.3/41.0", "ROUGE-1/2/L: 44.2 / 21.3 / 41.0", "BLEU/chrF 27.3/55.1": the numbers at the end
_TRAILING_NUMBERS = re.compile(rf"(?P<nums>{_NUMBER}(?:\s*/\s*{_NUMBER})+)\s*$", re.I)
_NUMBER_RX = re.compile(rf"(?<![\w.]){_NUMBER}")
_SEPARATORS = re.compile(r"\s*(?:;|\s/\s|,\s|\band\b|\|)\s*")


def split_claims(text: str) -> list[str]:
    """The claims of one string, one number each (in order); a claim with one number is returned whole."""
    if not isinstance(text, str) or "=" in text:
        return [text]           # "2/7 = 0.29": the number after '=' is the claim (parse_claim reads it)
    s = text.strip()
    m = _TRAILING_NUMBERS.search(s)
    if m and m.start() > 0:
        names = [n.strip() for n in s[:m.start()].strip().rstrip(":").strip().split("/")]
        nums = [n.strip() for n in m.group("nums").split("/")]
        if len(names) == len(nums) and all(names):
            return [f"{n} {v}" for n, v in zip(_complete_names(names), nums)][:MAX_CLAIM_PARTS + 1]
    if len(_NUMBER_RX.findall(s)) < 2:
        return [text]
    parts = [p for p in _SEPARATORS.split(s) if p and p.strip()]
    if len(parts) > 1 and all(len(_NUMBER_RX.findall(p)) == 1 for p in parts):
        return parts[:MAX_CLAIM_PARTS + 1]
    return [text]


def _complete_names(names: list[str]) -> list[str]:
    """"ROUGE-1/2/L" -> ROUGE-1, ROUGE-2, ROUGE-L: a bare suffix takes the first name's stem."""
    first = names[0]
    m = re.match(r"(?i)^(.*?(?:rouge|r)[\s_-]*)(?:lsum|l|[1-9])$", first)
    if not m:
        return names
    stem = m.group(1)
    return [first] + [n if not re.fullmatch(r"(?i)lsum|l|[1-9]", n) else stem + n for n in names[1:]]
