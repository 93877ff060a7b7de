"""A claimed number, read from what people write: "BLEU = 0.576", "38.0", "ROUGE-L 0.41", "R-1 recall 0.67",
"chrF++ 55.2", "TER 45.2", "BLEU-4: 27.3", "about 14 %", "BP 0.0131", "unigram precision 0.29", "NLTK BLEU
7.26e-78".

The number gives the value and the precision it was printed with (decimals, or significant digits in scientific
notation: ``7.26e-78`` is 3 significant digits); words around it narrow the search: the metric family (each
registered family's part reads its own names, ``explainer.dialectcmp.families``), what the name says of the family's
settings (BLEU-2 = max order 2, a ROUGE type, chrF++'s word order), the measure (precision, recall, F; for BLEU
the score, the brevity penalty or an n-gram precision).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from types import MappingProxyType
from typing import Mapping

from explainer.dialectcmp.family_part import blank
from explainer.dialectcmp.limits import MAX_CLAIM_CHARS
from explainer.errors import ExplainerInputError

__all__ = ["Claim", "parse_claim", "metric_choices"]


def metric_choices() -> tuple[str, ...]:
    """What ``--metric`` (the page's "It is") may be: "any", then each registered family's choices."""
    from explainer.dialectcmp.families import family_parts

    return ("any",) + tuple(c for p in family_parts() for c in p.metric_choices())


#: a word that starts like a number (digits, a dot or a sign before a digit), up to the next space; an exponent's
#: sign is part of it ("7.26e-78"), a trailing "%" (spaces allowed) is kept apart
_NUMBERISH = re.compile(r"(?<![\w.])[+-]?\.?\d(?:[\w.]|(?<=e)[+-])*(?:\s*%)?")
#: what a number may be: decimal, optionally in scientific notation
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?")
#: the smallest positive value a float holds: a claim below it cannot be any implementation's output
_TINY = Decimal("4.9e-324")
MAX_DIGITS = 12
#: scientific notation: the largest exponent magnitude read (floats end near 5e-324; BLEU and ROUGE values are at
#: most 100: anything past ±330 is refused by those checks anyway), and the most decimals a value may stand for
#: (``0e-340``: 340); beyond them Decimal overflows or a claim asks for a million decimals
MAX_EXPONENT = 1000
MAX_DECIMALS = 340


@dataclass(frozen=True)
class Claim:
    text: str
    value: Decimal              # as written ("38.0" -> 38.0, "57.6 %" -> 57.6, "7.26e-78")
    decimals: int               # decimals of the value written out in full (7.26e-78: 80)
    percent: bool               # written with a % sign
    family: str | None          # the family the claim names (a registered family's name), or None (any)
    measures: tuple             # ROUGE: precision/recall/fmeasure; BLEU: score, bp, p1..p4; others: score
    significant: int | None = None   # scientific notation: the significant digits written (7.26e-78: 3)
    #: what the claim says of the family's own settings, as its part reads them, as sorted (name, value) pairs
    #: (a Claim is a value): "BLEU-2" -> max_order 2, "ROUGE-L" -> types ("rougeL",), "chrF3++" -> word_order 2,
    #: beta 3
    named_items: tuple = ()

    @property
    def named(self) -> Mapping:
        return MappingProxyType(dict(self.named_items))

    # what the claim names of BLEU's, ROUGE's and chrF's settings (the families' parts read them)
    @property
    def bleu_order(self) -> int | None:
        return self.named.get("max_order")

    @property
    def rouge_types(self) -> tuple:
        return tuple(self.named.get("types", ()))

    @property
    def chrf_word_order(self) -> int | None:
        return self.named.get("word_order")

    @property
    def chrf_beta(self) -> int | None:
        return self.named.get("beta")

    def format(self, x: float) -> str:
        """``x`` printed as the claim is: with its decimals, or in scientific notation with its significant
        digits."""
        if self.significant is not None:
            return f"{float(x):.{self.significant - 1}e}"
        return f"{float(x):.{self.decimals}f}"

    @property
    def shown(self) -> str:
        if self.significant is not None:
            return self.format(float(self.value))
        return f"{self.value:.{self.decimals}f}"

    @property
    def precision_words(self) -> str:
        if self.significant is not None:
            return f"{self.significant} significant digit{'s' if self.significant != 1 else ''}"
        return f"{self.decimals} decimal{'s' if self.decimals != 1 else ''}"

    @property
    def resolution(self) -> float:
        """One unit of the last digit written (0.576: 0.001; 7.26e-78: 1e-80)."""
        if self.significant is not None:
            return float(Decimal(1).scaleb(self.value.adjusted() - self.significant + 1))
        return float(Decimal(1).scaleb(-self.decimals))

    def rounds_to(self, x: float) -> bool:
        """``x`` printed with the claim's precision is the claim."""
        return self.format(x) == self.shown

    def truncates_to(self, x: float) -> bool:
        """``x`` cut (not rounded) to the claim's precision is the claim."""
        try:
            d = Decimal(repr(float(x)))
            if self.significant is not None:
                if d == 0 or d.adjusted() != self.value.adjusted():
                    return d == 0 and self.value == 0
                q = Decimal(1).scaleb(d.adjusted() - self.significant + 1)
            else:
                q = Decimal(1).scaleb(-self.decimals)
            return d.quantize(q, rounding=ROUND_DOWN) == self.value
        except InvalidOperation:
            return False

    def distance(self, x: float) -> float:
        return abs(float(x) - float(self.value))

    def to_dict(self) -> dict:
        from explainer.dialectcmp.families import family_parts

        own = {k: v for p in family_parts() for k, v in p.claim_fields(dict(self.named)).items()}
        return {"text": self.text, "value": float(self.value), "decimals": self.decimals,
                "significant": self.significant, "percent": self.percent, "family": self.family, **own,
                "measures": list(self.measures)}


# ------------------------------------------------------------------------------------------------ parsing
#: measure words every family may carry (BLEU's own, the brevity penalty and the n-gram precisions, are its part's)
_RECALL = re.compile(r"\b(?:recall|rec|r)\b")
_PRECISION = re.compile(r"\b(?:precision|prec|p)\b")
_FMEASURE = re.compile(r"\b(?:f1|f-1|f|f-?measure|f-?score|f1-?score)\b")


def parse_claim(text: str, metric: str = "any") -> Claim:
    """Read a claim; ``metric`` (``--metric``) narrows it. ExplainerInputError with a clear message otherwise."""
    s = _normalise(text, metric)
    s, part, named = _read_names(s)
    s, own, part = _read_own_measures(s, part)
    measures = own + _generic_measures(s)
    s = _FMEASURE.sub(blank, _PRECISION.sub(blank, _RECALL.sub(blank, s)))
    said = part is not None             # the claim itself says the family (not only --metric)
    if metric != "any":
        part, named = _narrow(part, named, metric)
    value, decimals, significant, percent = _read_number(s, text, part)
    measures = part.claim_measures(measures, said) if part is not None else _unnamed_measures(measures)
    return Claim(text.strip(), value, decimals, percent, part.name if part else None,
                 tuple(dict.fromkeys(measures)), significant, tuple(sorted((named or {}).items())))


def _read_names(s: str):
    """Every family's name in the claim, each part reading its own (in ``claim_order``): (the rest of the claim,
    the part of the family named or None, what the name says of its settings). Two families named is an error."""
    from explainer.dialectcmp.families import claim_readers

    found = []
    for p in claim_readers():
        s, named = p.read_name(s)
        if named is not None:
            found.append((p, named))
    if len(found) > 1:
        raise ExplainerInputError(f"the claim names both {found[0][0].label} and {found[1][0].label}; give one "
                                  "number for one metric")
    return (s, *found[0]) if found else (s, None, {})


def _read_own_measures(s: str, part):
    """The measure words only one family has (BLEU's "BP"): they say the family of a claim that names none."""
    from explainer.dialectcmp.families import family_parts

    own: list[str] = []
    for p in family_parts():
        s, ms, says = p.read_own_measures(s)
        own += ms
        if says and ms and part is None:
            part = p
    return s, own, part


def _generic_measures(s: str) -> list[str]:
    out = []
    if _RECALL.search(s):
        out.append("recall")
    if _PRECISION.search(s):
        out.append("precision")
    if _FMEASURE.search(s):
        out.append("fmeasure")
    return out


def _unnamed_measures(measures) -> list[str]:
    """A claim that names no family: the measures every family has words for (precision, recall, F)."""
    return [x for x in measures if x in ("precision", "recall", "fmeasure")]


def _narrow(part, named: dict, metric: str):
    """``--metric`` narrows the claim (and must agree with what it says)."""
    from explainer.dialectcmp.families import family_parts

    want = next(p for p in family_parts() if metric in p.metric_choices())
    if part is not None and part is not want:
        raise ExplainerInputError(f"the claim names {part.label} but --metric is {metric}")
    return want, want.narrow_named(dict(named), metric)


def _check_range(value: Decimal, raw: str, part) -> None:
    """A claimed value is at least 0 and at most its family's limit (100 for a score, none for an error rate)."""
    from explainer.dialectcmp.families import family_parts

    unnamed = [p.label for p in family_parts() if p.searches_unnamed_claims]
    if part is not None and not part.searches_unnamed_claims:
        limit, what = part.value_limit(), f"a {part.label} value"
    else:       # a number printed bare, or of a family such numbers are searched in
        limit, what = 100.0, f"a {' or '.join(unnamed)} value"
    if value < 0 or (limit is not None and value > Decimal(str(limit))):
        raise ExplainerInputError(f"{raw} cannot be {what} (they are between 0 and 1, or 0 and 100)"
                                  if limit is not None else f"{raw} cannot be {what} (it is at least 0)")


def _normalise(text, metric: str) -> str:
    """The claim checked for type and length, lowercased, with a decimal comma read as a point."""
    if not isinstance(text, str):
        raise ExplainerInputError("the claim must be a string, e.g. 'BLEU = 0.576'")
    if len(text) > MAX_CLAIM_CHARS:
        raise ExplainerInputError(f"the claim has {len(text):,} characters; write it in at most {MAX_CLAIM_CHARS} "
                                  "(e.g. 'BLEU = 0.576' or 'ROUGE-L recall 0.41')")
    choices = metric_choices()
    if metric not in choices:
        raise ExplainerInputError(f"metric must be one of {', '.join(choices)}, got {metric!r}")
    s = text.strip().lower().replace("−", "-").replace("，", ",")
    s = re.sub(r"(?<=\d),(?=\d)", ".", s) if "." not in s else s   # "0,576" (decimal comma)
    if not s:
        raise ExplainerInputError("the claim is empty: type the number you want to reproduce, e.g. 'BLEU = 0.576'")
    return s


def _read_number(s: str, text: str, family) -> tuple[Decimal, int, int | None, bool]:
    """The one number of the claim: (value, decimals written out, significant digits if in scientific notation,
    written with %). Words that look like numbers but are not decimal ones (0x10, 1.2.3) are refused."""
    if "=" in s:                        # "2/7 = 0.29": the number after the last '='
        s = s[s.rindex("=") + 1:]
    words = [w.replace(" ", "") for w in _NUMBERISH.findall(s)]
    if not words:
        raise ExplainerInputError(f"no number in the claim {text.strip()[:60]!r}; write e.g. 'BLEU = 0.576' or "
                                  "'ROUGE-L 0.41'")
    if len(words) > 1:
        raise ExplainerInputError(f"the claim has several numbers ({', '.join(words[:4])}); give one, e.g. "
                                  "'BLEU = 0.576'")
    raw = words[0]
    percent = raw.endswith("%")
    raw = raw.rstrip("%")
    if not _DECIMAL.fullmatch(raw) and _DECIMAL.fullmatch(raw.rstrip(".")):
        raw = raw.rstrip(".")           # "0.576." at the end of a sentence
    if not _DECIMAL.fullmatch(raw):
        kind = "a hexadecimal number" if re.fullmatch(r"[+-]?0x[0-9a-f]+", raw) else "not a decimal number"
        raise ExplainerInputError(f"{raw[:30]!r} is {kind}; write the value as a decimal number as printed, e.g. "
                                  "0.576, 38.0 or 7.26e-78")
    exponent = raw.partition("e")[2]
    if exponent and (len(exponent.lstrip("+-").lstrip("0")) > 4 or abs(int(exponent)) > MAX_EXPONENT):
        raise ExplainerInputError(f"{raw[:30]!r} has the exponent {exponent[:12]}{'…' if len(exponent) > 12 else ''}; "
                                  f"a metric's value needs one between -{MAX_EXPONENT} and {MAX_EXPONENT}")
    value = Decimal(raw)
    _check_range(value, raw, family)
    if 0 < value < _TINY:
        raise ExplainerInputError(f"{raw} is smaller than any number a program stores as a float (about 5e-324)")
    mantissa, _, _ = raw.lstrip("+").partition("e")
    digits = len(mantissa.replace(".", "").lstrip("0")) if value else 1
    significant = max(digits, 1) if "e" in raw else None
    exp = value.as_tuple().exponent
    decimals = max(0, -exp) if significant is not None else (len(mantissa.split(".", 1)[1]) if "." in mantissa else 0)
    if decimals > MAX_DECIMALS:
        raise ExplainerInputError(f"{raw[:30]!r} stands for {decimals:,} decimals; at most {MAX_DECIMALS} are read")
    if (significant or decimals) > MAX_DIGITS:
        what = f"{significant} significant digits" if significant else f"{decimals} decimals"
        raise ExplainerInputError(f"{raw} has {what}; at most {MAX_DIGITS} are compared")
    return value, decimals, significant, percent
