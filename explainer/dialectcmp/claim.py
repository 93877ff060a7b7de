"""A claimed number, read from what people write: "BLEU = 0.576", "38.0", "ROUGE-L 0.41", "R-1 recall 0.67",
"BLEU-4: 27.3", "about 14 %", "BP 0.0131", "unigram precision 0.29".

The number gives the value and the decimals it was printed with; words around it narrow the search: the
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

METRIC_CHOICES = ("any", "bleu", "rouge1", "rouge2", "rougeL", "rougeLsum")
#: ROUGE types searched when the claim names none
ROUGE_TYPES_SEARCHED = ("rouge1", "rouge2", "rougeL", "rougeLsum")

_NUM = re.compile(r"(?<![\w.])[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:\s*%)?")
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
    value: Decimal              # as written ("38.0" -> 38.0, "57.6 %" -> 57.6)
    decimals: int
    percent: bool               # written with a % sign
    family: str | None          # "bleu", "rouge" or None (either)
    bleu_order: int | None      # BLEU-n
    rouge_types: tuple          # ROUGE types named (empty: any)
    measures: tuple             # ROUGE: precision/recall/fmeasure; BLEU: score, bp, p1..p4

    @property
    def shown(self) -> str:
        return f"{self.value:.{self.decimals}f}"

    def rounds_to(self, x: float) -> bool:
        """``x`` printed with the claim's decimals is the claim."""
        return f"{x:.{self.decimals}f}" == self.shown

    def truncates_to(self, x: float) -> bool:
        """``x`` cut (not rounded) to the claim's decimals is the claim."""
        q = Decimal(1).scaleb(-self.decimals)
        try:
            return Decimal(repr(float(x))).quantize(q, rounding=ROUND_DOWN) == self.value
        except InvalidOperation:
            return False

    def distance(self, x: float) -> float:
        return abs(float(x) - float(self.value))

    def to_dict(self) -> dict:
        return {"text": self.text, "value": float(self.value), "decimals": self.decimals, "percent": self.percent,
                "family": self.family, "bleu_order": self.bleu_order, "rouge_types": list(self.rouge_types),
                "measures": list(self.measures)}


def parse_claim(text: str, metric: str = "any") -> Claim:
    """Read a claim; ``metric`` (``--metric``) narrows it. ExplainerInputError with a clear message otherwise."""
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
    family = None
    order = None
    types: list[str] = []
    measures: list[str] = []

    def cut(m) -> str:
        return " " * (m.end() - m.start())

    for m in list(_BLEU.finditer(s)):
        family = "bleu"
        if m.group(1):
            order = int(m.group(1))
    s = _BLEU.sub(cut, s)
    for m in list(_ROUGE.finditer(s)):
        g = m.group(1)
        types.append(_ROUGE_NAME.get(g, f"rouge{g}"))
    s = _ROUGE.sub(cut, s)
    if types or _ROUGE_BARE.search(s):
        if family == "bleu":
            raise ExplainerInputError("the claim names both BLEU and ROUGE; give one number for one metric")
        family = "rouge"
    s = _ROUGE_BARE.sub(cut, s)
    m = _BLEU_PREC.search(s)
    if m:
        n = int(m.group(1) or m.group(2) or _ORDINAL[m.group(3)])
        measures.append(f"p{n}")
        family = family or "bleu"
        s = _BLEU_PREC.sub(cut, s)
    if _BP.search(s):
        measures.append("bp")
        family = family or "bleu"
        s = _BP.sub(cut, s)
    if _RECALL.search(s):
        measures.append("recall")
    if _PRECISION.search(s):
        measures.append("p1" if family == "bleu" else "precision")
    if _FMEASURE.search(s):
        measures.append("fmeasure")
    s = _FMEASURE.sub(cut, _PRECISION.sub(cut, _RECALL.sub(cut, s)))
    if "=" in s:                        # "2/7 = 0.29": the number after the last '='
        s = s[s.rindex("=") + 1:]
    nums = _NUM.findall(s)
    if not nums:
        raise ExplainerInputError(f"no number in the claim {text.strip()[:60]!r}; write e.g. 'BLEU = 0.576' or "
                                  "'ROUGE-L 0.41'")
    if len(nums) > 1:
        raise ExplainerInputError(f"the claim has several numbers ({', '.join(n.strip() for n in nums[:4])}); give "
                                  "one, e.g. 'BLEU = 0.576'")
    raw = nums[0].replace(" ", "")
    percent = raw.endswith("%")
    raw = raw.rstrip("%")
    value = Decimal(raw)
    if value < 0 or value > 100:
        raise ExplainerInputError(f"{raw} cannot be a BLEU or ROUGE value (they are between 0 and 1, or 0 and 100)")
    decimals = len(raw.split(".", 1)[1]) if "." in raw else 0
    if decimals > 12:
        raise ExplainerInputError(f"{raw} has {decimals} decimals; at most 12 are compared")

    # --metric narrows (and must agree with what the claim says)
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
    elif family == "rouge":
        measures = [x for x in measures if x in ("precision", "recall", "fmeasure")]
    else:
        measures = [x for x in measures if x in ("precision", "recall", "fmeasure")]
    return Claim(text.strip(), value, decimals, percent, family, order, tuple(dict.fromkeys(types)),
                 tuple(dict.fromkeys(measures)))
