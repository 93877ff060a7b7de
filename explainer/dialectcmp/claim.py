"""A claimed number, read from what people write: "BLEU = 0.576", "38.0", "ROUGE-L 0.41", "R-1 recall 0.67",
"chrF++ 55.2", "BLEU-4: 27.3", "about 14 %", "BP 0.0131", "unigram precision 0.29", "NLTK BLEU 7.26e-78".

The number gives the value and the precision it was printed with (decimals, or significant digits in scientific
notation: ``7.26e-78`` is 3 significant digits); words around it narrow the search: the
metric family (BLEU / ROUGE), the BLEU order (BLEU-2 = max order 2), the ROUGE type, the measure (precision,
recall, F; for BLEU the score, the brevity penalty or an n-gram precision).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from explainer.dialectcmp.limits import MAX_CLAIM_CHARS
from explainer.errors import ExplainerInputError

__all__ = ["Claim", "parse_claim", "METRIC_CHOICES", "ROUGE_TYPES_SEARCHED"]

METRIC_CHOICES = ("any", "bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "chrf")
#: ROUGE types searched when the claim names none
ROUGE_TYPES_SEARCHED = ("rouge1", "rouge2", "rougeL", "rougeLsum")

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
_BLEU = re.compile(r"\b(?:sacre)?bleu(?:[\s_-]*@?\s*([1-9])(?![\d.]))?")
_ROUGE = re.compile(r"\b(?:rouge|r)[\s_-]*(lsum|l|w(?:-?1\.2)?|su\*|s\*|su4|s4|[1-9](?![\d.]))(?![a-z])")
_ROUGE_BARE = re.compile(r"\brouge\b")
_BLEU_PREC = re.compile(r"\b(?:p([1-4])|([1-4])-?gram precision|(uni|bi|tri|four)-?gram precision)\b")
_BP = re.compile(r"\b(?:bp|brevity[\s-]*penalty)\b")
_RECALL = re.compile(r"\b(?:recall|rec|r)\b")
_PRECISION = re.compile(r"\b(?:precision|prec|p)\b")
_FMEASURE = re.compile(r"\b(?:f1|f-1|f|f-?measure|f-?score|f1-?score)\b")
_ORDINAL = {"uni": 1, "bi": 2, "tri": 3, "four": 4}
_ROUGE_NAME = {"lsum": "rougeLsum", "l": "rougeL", "w": "rougeW-1.2", "w-1.2": "rougeW-1.2", "w1.2": "rougeW-1.2",
               "su*": "rougeSU*", "s*": "rougeS*", "su4": "rougeSU4", "s4": "rougeS4"}


@dataclass(frozen=True)
class Claim:
    text: str
    value: Decimal              # as written ("38.0" -> 38.0, "57.6 %" -> 57.6, "7.26e-78")
    decimals: int               # decimals of the value written out in full (7.26e-78: 80)
    percent: bool               # written with a % sign
    family: str | None          # "bleu", "rouge" or None (either)
    bleu_order: int | None      # BLEU-n
    rouge_types: tuple          # ROUGE types named (empty: any)
    measures: tuple             # ROUGE: precision/recall/fmeasure; BLEU: score, bp, p1..p4
    significant: int | None = None   # scientific notation: the significant digits written (7.26e-78: 3)
    chrf_word_order: int | None = None  # chrF: "chrF++" -> 2, "chrF+" -> 1, "chrF" -> None (either)
    chrf_beta: int | None = None        # chrF: "chrF3" -> 3

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
        return {"text": self.text, "value": float(self.value), "decimals": self.decimals,
                "significant": self.significant, "percent": self.percent, "family": self.family,
                "bleu_order": self.bleu_order, "rouge_types": list(self.rouge_types), "measures": list(self.measures)}


# ------------------------------------------------------------------------------------------------ parsing
def parse_claim(text: str, metric: str = "any") -> Claim:
    """Read a claim; ``metric`` (``--metric``) narrows it. ExplainerInputError with a clear message otherwise."""
    s = _normalise(text, metric)
    s, chrf = _read_chrf(s)
    s, family, order, types = _read_metric_names(s)
    if chrf is not None or metric == "chrf":
        return _chrf_claim(text, s, family, chrf or (None, None), metric)
    s, family, measures = _read_measures(s, family)
    value, decimals, significant, percent = _read_number(s, text)
    family, types, measures = _narrow(family, types, measures, metric)
    return Claim(text.strip(), value, decimals, percent, family, order, tuple(dict.fromkeys(types)),
                 tuple(dict.fromkeys(measures)), significant)


#: "chrF", "chrF2", "chrF++", "chrF2++", "chrF+" (the beta digit is written right after the name)
_CHRF = re.compile(r"\bchrf(\d)?(\+\+|\+)?(?![\w])")


def _read_chrf(s: str) -> tuple[str, tuple | None]:
    """A chrF name in the claim: (the rest of the claim, (word order or None, beta or None)) or (s, None)."""
    found = None
    for m in _CHRF.finditer(s):
        plus = m.group(2) or ""
        found = ({"++": 2, "+": 1}.get(plus), int(m.group(1)) if m.group(1) else None)
    return _CHRF.sub(_blank, s), found


def _chrf_claim(text: str, s: str, family, chrf: tuple, metric: str) -> Claim:
    """A chrF claim: the score (no other measure is searched); naming BLEU or ROUGE too is an error."""
    if family is not None:
        raise ExplainerInputError(f"the claim names both chrF and {family.upper()}; give one number for one metric")
    if metric not in ("any", "chrf"):
        raise ExplainerInputError(f"the claim names chrF but --metric is {metric}")
    s = _FMEASURE.sub(_blank, s)            # "chrF F-score 55.2"
    value, decimals, significant, percent = _read_number(s, text)
    return Claim(text.strip(), value, decimals, percent, "chrf", None, (), ("score",), significant,
                 chrf_word_order=chrf[0], chrf_beta=chrf[1])


def _normalise(text, metric: str) -> str:
    """The claim checked for type and length, lowercased, with a decimal comma read as a point."""
    if not isinstance(text, str):
        raise ExplainerInputError("the claim must be a string, e.g. 'BLEU = 0.576'")
    if len(text) > MAX_CLAIM_CHARS:
        raise ExplainerInputError(f"the claim has {len(text):,} characters; write it in at most {MAX_CLAIM_CHARS} "
                                  "(e.g. 'BLEU = 0.576' or 'ROUGE-L recall 0.41')")
    if metric not in METRIC_CHOICES:
        raise ExplainerInputError(f"metric must be one of {', '.join(METRIC_CHOICES)}, got {metric!r}")
    s = text.strip().lower().replace("−", "-").replace("，", ",")
    s = re.sub(r"(?<=\d),(?=\d)", ".", s) if "." not in s else s   # "0,576" (decimal comma)
    if not s:
        raise ExplainerInputError("the claim is empty: type the number you want to reproduce, e.g. 'BLEU = 0.576'")
    return s


def _blank(m) -> str:
    """A matched name replaced by spaces (so that what is left is the number, and positions stay)."""
    return " " * (m.end() - m.start())


def _read_metric_names(s: str) -> tuple[str, str | None, int | None, list[str]]:
    """BLEU / BLEU-n and the ROUGE types named: (the rest of the claim, family, BLEU order, ROUGE types)."""
    family, order = None, None
    for m in _BLEU.finditer(s):
        family = "bleu"
        if m.group(1):
            order = int(m.group(1))
    s = _BLEU.sub(_blank, s)
    types = [_ROUGE_NAME.get(m.group(1), f"rouge{m.group(1)}") for m in _ROUGE.finditer(s)]
    s = _ROUGE.sub(_blank, s)
    if types or _ROUGE_BARE.search(s):
        if family == "bleu":
            raise ExplainerInputError("the claim names both BLEU and ROUGE; give one number for one metric")
        family = "rouge"
    return _ROUGE_BARE.sub(_blank, s), family, order, types


def _read_measures(s: str, family: str | None) -> tuple[str, str | None, list[str]]:
    """The measure words: an n-gram precision or the BP (both BLEU), recall, precision, F."""
    measures: list[str] = []
    m = _BLEU_PREC.search(s)
    if m:
        measures.append(f"p{int(m.group(1) or m.group(2) or _ORDINAL[m.group(3)])}")
        family = family or "bleu"
        s = _BLEU_PREC.sub(_blank, s)
    if _BP.search(s):
        measures.append("bp")
        family = family or "bleu"
        s = _BP.sub(_blank, s)
    if _RECALL.search(s):
        measures.append("recall")
    if _PRECISION.search(s):
        measures.append("p1" if family == "bleu" else "precision")
    if _FMEASURE.search(s):
        measures.append("fmeasure")
    s = _FMEASURE.sub(_blank, _PRECISION.sub(_blank, _RECALL.sub(_blank, s)))
    return s, family, measures


def _read_number(s: str, text: str) -> tuple[Decimal, int, int | None, bool]:
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
                                  f"a BLEU or ROUGE value needs one between -{MAX_EXPONENT} and {MAX_EXPONENT}")
    value = Decimal(raw)
    if value < 0 or value > 100:
        raise ExplainerInputError(f"{raw} cannot be a BLEU or ROUGE value (they are between 0 and 1, or 0 and 100)")
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


def _narrow(family, types: list[str], measures: list[str], metric: str):
    """``--metric`` narrows the claim (and must agree with what it says); the measures that fit the family."""
    if metric != "any":
        want = "bleu" if metric == "bleu" else "rouge"
        if family is not None and family != want:
            raise ExplainerInputError(f"the claim names {family.upper()} but --metric is {metric}")
        family = want
        if want == "rouge":
            if types and metric not in types:
                raise ExplainerInputError(f"the claim names {', '.join(types)} but --metric is {metric}")
            types = [metric]
    if family == "bleu":
        measures = [x for x in measures if x in ("bp", "p1", "p2", "p3", "p4")] or ["score"]
    else:
        measures = [x for x in measures if x in ("precision", "recall", "fmeasure")]
    return family, types, measures
