"""What a lesson is made of: steps, their content blocks and their questions. Plain data, no rendering.

A step is a list of *blocks* (a paragraph, a row of token chips, a table, a formula, a chart, the LCS grid).
The Teach page, the HTML handout and the Markdown handout render the same blocks, so the three always show
the same numbers. Every number in a block is a field of a trace (or a count of trace entries) put into a
string by :func:`num` / :func:`frac`; nothing is computed here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

__all__ = ["Chip", "TokenRow", "Table", "Formula", "Chart", "LcsGrid", "Para", "Result", "ClaimCheck", "Block",
           "Question", "Step", "Lesson", "num", "frac", "pct"]


@dataclass(frozen=True)
class Chip:
    """One token (or one n-gram occurrence) shown as a box.

    ``kind``: ``""`` plain, ``"match"`` counted / overlapping, ``"clip"`` counted in the candidate but clipped
    away, ``"lcs"`` on the longest common subsequence, ``"focus"`` the token a question is about.
    ``label`` is a small tag under the box (a position, ``R1``, ``L2``, ``✂``); ``title`` the same in words."""

    text: str
    kind: str = ""
    label: str = ""
    title: str = ""


@dataclass(frozen=True)
class TokenRow:
    label: str                    # "Candidate", "Reference 2", "Candidate sentence 1"
    chips: tuple[Chip, ...]
    note: str = ""                # e.g. "7 tokens"


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    emphasis: tuple[int, ...] = ()   # row indices to highlight
    caption: str = ""
    total: tuple[Any, ...] | None = None   # a last "sum" row, shown in bold


@dataclass(frozen=True)
class Formula:
    """Arithmetic with the trace's numbers, as plain Unicode text (one line per element of ``lines``)."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Chart:
    """A chart drawn as static SVG. ``kind``: ``precision_bars`` (data: orders [{n, label, raw, smoothed,
    matches, totals}]), ``bp_curve`` (data: c, r, bp), ``prf_bars`` (data: rows [{label, p, r, f}]),
    ``alignment`` (data: cand tokens, ref tokens, pairs [[ref_i, cand_j]])."""

    kind: str
    data: dict
    alt: str


@dataclass(frozen=True)
class LcsGrid:
    """The ROUGE-L dynamic-programming table as the trace records it. ``values[a][b]`` = LCS of the first
    ``row_index[a]`` reference tokens and the first ``col_index[b]`` candidate tokens; ``path`` the cells
    (a, b) of the chosen alignment (matches). ``full`` is False when the trace sampled a large table."""

    ref_tokens: tuple[str, ...]
    cand_tokens: tuple[str, ...]
    row_index: tuple[int, ...]
    col_index: tuple[int, ...]
    values: tuple[tuple[int, ...], ...]
    path: frozenset
    full: bool
    ref_forms: tuple[str, ...] = ()   # the forms compared (stems when stemming), same length as ref_tokens
    cand_forms: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Para:
    """A sentence or two. ``kind``: ``text``, ``key`` (the one thing to take away, shown prominently), ``note``
    (small print: a library quirk, a warning the library emits)."""

    text: str
    kind: str = "text"


@dataclass(frozen=True)
class Result:
    """A final score of the walkthrough: ``value`` is the trace's number, ``shown`` how it is displayed,
    ``metric`` a stable name (``bleu``, ``rougeL_f``, …) for the handout's data attributes and the tests."""

    label: str
    value: float
    shown: str
    metric: str


@dataclass(frozen=True)
class ClaimCheck:
    """A number the textbook prints for a worked example, beside what the lesson's implementation gives
    for it (read from the trace by :func:`explainer.families.claim_value`). ``what``: the quantity in words;
    ``printed``: as the material prints it; ``shown``: the true value as text ("" when the lesson does not compute
    it); ``implementation``: which implementation gives it; ``agrees``: None when not computed."""

    metric: str
    what: str
    printed: str
    value: float | None
    shown: str
    implementation: str
    agrees: bool | None
    #: where a number that is wrong with these settings holds (the three-way verdict,
    #: ``explainer.dialectcmp.printed.judge_printed``): kind ("holds-otherwise" / "holds-nowhere") and which
    #: settings, or the nearest value
    elsewhere: str = ""
    elsewhere_detail: str = ""
    #: the number holds when the tokens are compared without case (the textbook lowercased: Papineni's 2/7): the
    #: family and the options that do it (the page offers them), and the switch in words
    setting: tuple = ()
    setting_label: str = ""

    @property
    def verdict(self) -> str:
        return self._verdict(detail=True)

    def _verdict(self, *, detail: bool) -> str:
        if self.agrees is None:
            return "not computed with these settings"
        if self.agrees:
            return "holds with these settings"
        if self.setting:
            return (f"wrong with these settings (case-sensitive tokens); holds with lowercase tokens "
                    f"({self.setting_label} on)")
        tail = f" ({self.elsewhere_detail})" if self.elsewhere_detail and detail else ""
        if self.elsewhere == "holds-otherwise":
            return f"wrong with these settings; holds with other settings{tail}"
        if self.elsewhere == "holds-nowhere":
            return f"wrong with these settings; holds under no configuration searched{tail}"
        return "wrong with these settings"

    @property
    def mark(self) -> str:
        return {None: "?", True: "✓", False: "✗"}[self.agrees]

    @property
    def short(self) -> str:
        """The verdict in a word or two (a table cell)."""
        return f"{self.mark} " + {None: "not computed", True: "holds", False: "wrong"}[self.agrees]

    @property
    def said(self) -> str:
        """The printed number after the quantity's name: "= 0.541", "≈ 0.0131", "about 43 %"."""
        return self.printed if self.printed[:1] in "≈<>≤≥" or self.printed[:1].isalpha() else f"= {self.printed}"

    @property
    def sentence(self) -> str:
        """The comparison in one sentence (both handouts, the presenter's notes)."""
        return self._sentence(detail=True)

    @property
    def brief(self) -> str:
        """The sentence without the three-way verdict's detail (which settings, the nearest value): what a step
        fitted to a projector's window shows (the detail is in the presenter's notes and the handouts)."""
        return self._sentence(detail=False)

    def _sentence(self, *, detail: bool) -> str:
        head = f"The textbook says {self.what} {self.said}"
        if self.agrees is None:
            return f"{head} — {self._verdict(detail=detail)}."
        return f"{head}; {self.implementation} gives {self.shown} — {self._verdict(detail=detail)}."


Block = Union[Para, TokenRow, Table, Formula, Chart, LcsGrid, Result, ClaimCheck]


@dataclass(frozen=True)
class Question:
    """"Predict before you see it": a number the student types before the step shows it.

    ``answer`` is a trace value; an answer within ``tolerance`` (absolute) of it is right. ``given`` are the
    blocks the student sees while answering (the step itself would give the answer away). ``explanation``
    works the answer out from the trace, naming the tokens involved; ``marked`` are token rows shown with the
    answer in which those tokens are marked (``focus`` chips). They are not among ``given``: marked before the
    answer, they would give it away (count the marks)."""

    id: str
    prompt: str
    answer: float
    tolerance: float
    hint: str                          # the expected form, e.g. "a whole number", "0–1, a fraction is fine"
    explanation: str
    given: tuple = ()
    kind: str = "ratio"                # "count" (whole number), "ratio" (0..1), "score" (the metric's scale)
    shown: str = ""                    # the answer as the step shows it (e.g. "5/6 = 0.8333")
    scale: float = 1.0                 # "score": 100 for sacreBLEU's 0-100, 1 for 0-1 dialects
    marked: tuple = ()                 # token rows with the answer's tokens as "focus" chips
    #: the numbers a known misconception gives, each with the hint that names it ((value, hint), …): the count
    #: before clipping, another reference's length, the count with lowercase tokens … (never the answer itself)
    mixups: tuple = ()
    off_by_one: str = ""               # a count's own off-by-one hint ("" = the general one)


@dataclass(frozen=True)
class Step:
    id: str                            # stable id, e.g. "bleu-clipping"
    family: str                        # "BLEU" or "ROUGE"
    title: str
    blocks: tuple
    say: str                           # speaker notes: what to say
    misconception: str                 # the common misconception at this step
    question: Question | None = None
    formula_id: str = ""               # the textbook formula the handout prints (STEP_TEX key; "" = ``id``)


@dataclass
class Lesson:
    """The whole walkthrough for one candidate and its references."""

    title: str
    candidate: str
    references: list[str]
    steps: list[Step]
    #: family name -> the family's header line (label, implementation, signature, dialect, and its numbers)
    summaries: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)      # problems met while building (a family that failed)
    source: str = ""                                    # what the lesson was made from (example title …)
    claims: list = field(default_factory=list)          # ClaimCheck: the worked example's printed numbers
    #: (the family's label, the index of its first step): one section per family of the lecture, in order
    sections: list = field(default_factory=list)

    @property
    def bleu_summary(self) -> dict:
        """BLEU's header line (empty when the lesson has no BLEU): score, scale, shown, signature, dialect."""
        return self.summaries.get("bleu", {})

    @property
    def rouge_summary(self) -> dict:
        return self.summaries.get("rouge", {})

    def step_ids(self) -> list[str]:
        return [s.id for s in self.steps]

    def section_of(self, i: int) -> tuple[int, str, int, int]:
        """(section number 0…, its label, the step's place in it 0…, the section's number of steps) of step
        ``i``; one section ("", the whole lesson) when the lesson has no sections."""
        if not self.sections:
            return 0, "", i, len(self.steps)
        k = max(j for j, (_, start) in enumerate(self.sections) if start <= i) if i >= self.sections[0][1] else 0
        label, start = self.sections[k]
        end = self.sections[k + 1][1] if k + 1 < len(self.sections) else len(self.steps)
        return k, label, i - start, end - start

    def questions(self) -> list[tuple[int, Question]]:
        return [(i, s.question) for i, s in enumerate(self.steps) if s.question is not None]


# ----------------------------------------------------------------------------------------- number text
def num(x, digits: int = 4) -> str:
    """A trace number as text: integers (and whole floats) without decimals, others with ``digits``."""
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e15):
        return str(int(x))
    if x != 0 and (abs(x) < 1e-4 or abs(x) >= 1e6):
        return f"{x:.{digits}g}"
    return f"{x:.{digits}f}"


def frac(a, b, value=None, digits: int = 4) -> str:
    """``a/b = value`` (the value as the trace has it; without one only the fraction)."""
    head = f"{num(a)}/{num(b)}"
    return head if value is None else f"{head} = {num(value, digits)}"


def pct(x: float) -> str:
    return f"{x * 100:.1f} %"
