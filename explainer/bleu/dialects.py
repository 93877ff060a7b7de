"""The BLEU dialect policy interface.

A *dialect* reproduces one real implementation (sacreBLEU, NLTK, Hugging Face ``evaluate``, Moses, the
textbook's from-scratch code). The BLEU algorithm itself is written once (``explainer/bleu/algorithm.py``): tokenize,
count n-grams, clip against the per-n-gram maximum over references, choose a reference length, reduce each
segment to sufficient statistics ``[c, r, m_1..m_N, t_1..t_N]``, sum them over a corpus, and combine the
sums into a score. A dialect is a small policy object that decides only the points where implementations
differ (docs/dialects-bleu.md):

==========================  =============================================================================
hook                        decides
==========================  =============================================================================
``tokenize(text)``          ① preprocessing + tokenizer (the real library's own tokenizer), ② lowercasing
``preprocess_changes``      what preprocessing changed in the text (for the trace)
``align(text, tokens)``     character spans of the tokens in the user's text
``max_order``               N
``segment_total(len, n)``   ③ the per-segment denominator rule (NLTK: max(1, ·))
``choose_ref_length``       ④ closest / shortest / first-closest and the tie-break
``combine(stats, ctx)``     ⑤⑥⑦⑧⑨ smoothing, zero handling, brevity penalty, weights / effective order,
                            output scale, early exits, warnings and errors of the real library
``signature(nrefs)``        a reproducibility string (sacreBLEU's exact format for sacreBLEU)
``check_inputs``            errors the real library raises *before* scoring (recorded, never raised)
``pick_reference``          with ``per_reference``: the statistics are ONE reference's own (counts clipped
                            against that reference alone), the reference the dialect picks (GLEU: the best)
==========================  =============================================================================

A dialect is constructed with its options bound (``SacreBleuDialect(tokenize="intl")``); the options are
validated once by the constructor (see ``explainer/dialect.py``). To add a dialect: subclass
:class:`BleuDialect`, declare ``name``/``OPTIONS``, implement the hooks that differ from the defaults, and add
it to the registry (``explainer/bleu/registry.py``: its module path for a built-in dialect, or
``register_dialect(cls)``).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Mapping, Sequence

from explainer.dialect import Dialect
from explainer.options import OptionSpec, freeze
from explainer.text import Token, align_spans

__all__ = [
    "OptionSpec", "BleuDialect", "RefLengthChoice", "OrderResult", "Combination", "LibraryError",
    "LibraryWarning", "SegmentContext", "ReferencePick", "align_offsets", "closest_shorter", "closest_first",
    "shortest", "search_order_cost",
]


def search_order_cost(n: int, context) -> float | None:
    """BLEU-n in the reproduce search (``explainer/search_space.py``): a claimed BLEU-n (``context.named``'s
    ``max_order``) keeps only order n (None for the others); otherwise max order 4, everyone's default, costs
    nothing and any other order 1."""
    wanted = context.named.get("max_order")
    if wanted is not None:
        return 0.0 if n == wanted else None
    return 0.0 if n == 4 else 1.0


# -------------------------------------------------------------------------------------- result records
@dataclass
class LibraryError:
    """An exception the real library would raise on this input. The explainer records it and carries on."""

    type: str           # exception class name, e.g. "ZeroDivisionError"
    message: str        # the library's message (as close as known)
    explanation: str    # "the real library fails here because ..."

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class LibraryWarning:
    """A warning / log message the real library would emit on this input."""

    category: str       # e.g. "UserWarning" (NLTK), "logging.WARNING" (sacreBLEU's logger)
    message: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class RefLengthChoice:
    """How a segment's effective reference length r was chosen."""

    r: int
    chosen: list[int]           # indices of every reference whose length is r (and that the rule allows)
    rule: str                   # "closest" | "shortest" | "first-closest"
    tie_break: str              # the rule's tie-break, in words
    tie: bool                   # True when two different lengths were equally close
    explanation: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ReferencePick:
    """A segment scored against ONE of its references (``BleuDialect.per_reference``, GLEU): the reference kept,
    each reference's own numbers (the trace's per-reference table) and the segment's statistics vector."""

    index: int | None           # the reference kept (None: no reference qualifies, the segment adds nothing)
    rows: list[dict]            # per reference, in order: its statistics as the dialect reads them
    rule: str                   # the choice, in words
    explanation: str
    stats: list                 # [c, r, m_1..m_N, t_1..t_N] of the segment (the dialect's meaning of m and t)
    ref_length: RefLengthChoice

    def to_dict(self) -> dict:
        return {"index": self.index, "rows": self.rows, "rule": self.rule, "explanation": self.explanation,
                "stats": list(self.stats)}


@dataclass
class SegmentContext:
    """What a dialect may need from the *last* segment of a corpus (NLTK passes the last segment's
    hypothesis and references to its smoothing functions). Filled only when ``needs_last_segment``."""

    hyp_len: int = 0
    extra: dict = field(default_factory=dict)


@dataclass
class OrderResult:
    """One n-gram order in the final combination."""

    n: int
    matches: float            # sum of clipped counts (as counted; before any add-k mutation)
    totals: float             # candidate n-grams under the dialect's totals rule
    precision_raw: float | None   # matches/totals on 0..1; None when totals == 0
    precision: float          # the value that enters the log, on 0..1 (after smoothing / substitutions)
    smoothing: str            # name of what was applied to this order ("none" if nothing)
    formula: str              # the arithmetic, with numbers
    reason: str               # why that formula applied
    weight: float             # weight of this order in the sum the library takes (0 when excluded / no sum)
    included: bool            # whether this order enters the log-sum
    log_term: float | None    # the summand the library adds (already weighted where the library weights)
    reported_matches: float | None = None   # counts as the library reports them (sacreBLEU add-k mutates)
    reported_totals: float | None = None
    precision_native: float | None = None    # precision on the library's reported scale (sacreBLEU: %)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Combination:
    """The final step: from summed statistics to the score. Produced by ``BleuDialect.combine``."""

    orders: list[OrderResult]
    c: int
    r: int
    ratio: float | None       # c / r (None when r == 0)
    bp: float
    bp_branch: str            # which branch of the BP formula was taken, in words
    bp_formula: str
    weights: list[float]      # per order, the weight actually used in the sum (= orders[i].weight; 0 when the
                              # order is excluded or the library takes no log-sum)
    effective_order: int      # number of orders averaged
    log_sum: float | None     # the sum as the library computes it (None when the library never takes logs)
    log_mean: float | None    # what goes into exp() (log_sum / E for sacreBLEU, log_sum for weighted sums)
    geo_mean: float           # exp(log_mean) (0 when the library short-cuts to 0)
    score: float              # native scale
    bleu: float               # 0..1
    scale: float              # 100 or 1
    early_exit: str | None = None
    warnings: list[LibraryWarning] = field(default_factory=list)
    library_error: LibraryError | None = None
    extra: dict = field(default_factory=dict)   # dialect specifics (e.g. NLTK's return_type)
    #: the weights the dialect is configured with, before exclusions (NLTK: the ``weights`` option as given,
    #: before auto_reweigh and the p > 0 filter; sacreBLEU/HF/textbook: 1/N each; Moses: 0.25 each).
    #: None -> a copy of ``weights``.
    nominal_weights: list[float] | None = None

    def __post_init__(self) -> None:
        if self.nominal_weights is None:
            self.nominal_weights = list(self.weights)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["warnings"] = [w.to_dict() for w in self.warnings]
        d["library_error"] = self.library_error.to_dict() if self.library_error else None
        return d


# ------------------------------------------------------------------------------ reference-length rules
def closest_shorter(c: int, ref_lens: Sequence[int]) -> RefLengthChoice:
    """Closest to c; a tie goes to the shorter reference (sacreBLEU, NLTK, Moses)."""
    if not ref_lens:
        return RefLengthChoice(0, [], "closest", "shorter reference wins a tie", False,
                               "no reference: r = 0")
    best = min(ref_lens, key=lambda L: (abs(L - c), L))
    d = abs(best - c)
    tie = any(abs(L - c) == d and L != best for L in ref_lens)
    chosen = [i for i, L in enumerate(ref_lens) if L == best]
    expl = f"|c − L| is smallest ({d}) for L = {best}"
    if tie:
        expl += f"; L = {c + d} is equally close, the shorter length wins"
    return RefLengthChoice(best, chosen, "closest", "shorter reference wins a tie", tie, expl)


def closest_first(c: int, ref_lens: Sequence[int]) -> RefLengthChoice:
    """Closest to c; a tie goes to the first listed reference (``min(key=abs diff)``)."""
    if not ref_lens:
        return RefLengthChoice(0, [], "first-closest", "first listed reference wins a tie", False,
                               "no reference: r = 0")
    best = min(ref_lens, key=lambda L: abs(L - c))
    d = abs(best - c)
    tie = any(abs(L - c) == d and L != best for L in ref_lens)
    first = ref_lens.index(best)
    expl = f"|c − L| is smallest ({d}) for L = {best} (reference {first + 1})"
    if tie:
        other = c + d if best == c - d else c - d
        expl += f"; L = {other} is equally close but listed later, the first listed wins"
    return RefLengthChoice(best, [i for i, L in enumerate(ref_lens) if L == best], "first-closest",
                           "first listed reference wins a tie", tie, expl)


def shortest(c: int, ref_lens: Sequence[int]) -> RefLengthChoice:
    """The shortest reference, whatever c is (TensorFlow NMT / HF evaluate)."""
    if not ref_lens:
        return RefLengthChoice(0, [], "shortest", "no tie-break needed (lengths only)", False,
                               "no reference: r = 0")
    best = min(ref_lens)
    return RefLengthChoice(best, [i for i, L in enumerate(ref_lens) if L == best], "shortest",
                           "no tie-break needed (lengths only)", False,
                           f"the shortest reference has {best} tokens (c = {c} is not considered)")


# ------------------------------------------------------------------------------------------ token spans
def align_offsets(text: str, tokens: Sequence[str], *, casefold: bool, unescape,
                  lowercase_first: bool = False) -> tuple[list, list]:
    """Start and end offsets of ``tokens`` in ``text``: ``explainer.text.align_spans`` with a fast path.
    When the text cannot have been changed by lowercasing or entity unescaping, the tokens are exact
    substrings of it, found left to right with ``str.find``; if any token is not found verbatim, the general
    ``align_spans`` decides."""
    if not ((casefold and text.lower() != text) or (unescape and "&" in text)):
        starts, ends = [], []
        pos = 0
        find = text.find
        for tok in tokens:
            j = find(tok, pos) if tok else -1
            if j < 0:
                break
            pos = j + len(tok)
            starts.append(j)
            ends.append(pos)
        else:
            return starts, ends
    spans = align_spans(text, tokens, casefold=casefold, unescape=unescape, lowercase_first=lowercase_first)
    return [t.start for t in spans], [t.end for t in spans]


# ---------------------------------------------------------------------------------------- the policy
class BleuDialect(Dialect):
    """Base class of a BLEU dialect policy: constructed with its options bound (``explainer.dialect.Dialect``:
    validated once, then read-only in ``self.options``).

    Subclasses set the class attributes and override the hooks where their implementation differs.
    Every hook must reproduce the real implementation exactly (same integers, floats to 1e-9).
    """

    family: ClassVar[str] = "BLEU"
    scale: ClassVar[float] = 1.0            # native output scale: 100 (sacreBLEU, multi-bleu) or 1
    needs_last_segment: ClassVar[bool] = False
    #: what the trace shows as the per-segment totals rule
    totals_rule: ClassVar[str] = ("number of candidate n-grams: max(0, c − n + 1); 0 when the candidate is shorter "
                                  "than n")
    #: a lesson points the totals rule out (NLTK's max(1, ·) differs from the textbook's count)
    totals_rule_notable: ClassVar[bool] = False
    #: the log terms are logs of precisions in percent (sacreBLEU computes on 0-100)
    log_of_percent: ClassVar[bool] = False
    #: its bootstrap confidence interval and paired tests are sacreBLEU's own (the same procedure, numbers and
    #: signature), not the project's extension of them to this dialect
    sacrebleu_significance: ClassVar[bool] = False
    #: the real library reads a plain string as a sequence of characters (NLTK's ``sentence_bleu``): the gaming
    #: lab can reproduce that mistake
    reads_strings_as_characters: ClassVar[bool] = False
    #: ``check_inputs`` looks at the whole corpus at once (sacreBLEU counts lines ending in " ."), so a corpus
    #: read block by block is checked at the end from tallies (``streamed_input_warnings``), not per block
    checks_whole_corpus: ClassVar[bool] = False
    #: command-line flags of ``explainer bleu`` (generic flag -> this dialect's option), read both ways: the CLI
    #: reads flags to options, ``cli_argv`` writes a configuration's options as flags
    cli_flags: ClassVar[Mapping[str, str]] = {}
    #: ``--smooth`` words of a dialect whose smoothing option is a bool (word -> "true"/"false"); the first word of
    #: each truth value is the one ``cli_argv`` writes
    smooth_words: ClassVar[Mapping[str, str]] = {}
    #: options applied after counting (smoothing, effective order, the API, the warning switch): a segment's
    #: statistics (lengths, clipped matches and totals per order, NLTK's last-segment context) do not depend on
    #: them, so a corpus's statistics are kept when only these change (``counts_key``; a test checks each)
    SCORING_ONLY: ClassVar[frozenset[str]] = frozenset()

    @property
    def counts_key(self) -> tuple:
        """The hashable value "this dialect with the options its statistics depend on"."""
        return (self.family, self.name, freeze({k: v for k, v in self.options.items()
                                                  if k not in self.SCORING_ONLY}))

    # ---- identity
    def describe(self) -> dict:
        return dict(super().describe(), scale=self.scale)

    def options_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.options.items()}

    # ---- ① ② tokenization
    tokenizer_name: str = "whitespace"

    def tokenize(self, text: str) -> list[str]:
        """The tokens the real implementation computes n-grams over. Must be fast (statistics path)."""
        return text.split()

    def preprocess_changes(self, text: str) -> list[dict]:
        """What preprocessing did to ``text``, as ``[{"step": ..., "detail": ...}]`` (for the trace)."""
        return []

    def preprocessed_text(self, text: str) -> str:
        """The string the tokens were split from, when the library builds one (for the trace)."""
        return " ".join(self.tokenize(text))

    def align(self, text: str, tokens: Sequence[str]) -> list[Token]:
        """Tokens with character spans in ``text`` (see ``explainer.text.align_spans``)."""
        starts, ends = self.align_offsets(text, tokens)
        return [Token(t, a, b) for t, a, b in zip(tokens, starts, ends)]

    #: (casefold, unescape) for the default ``align_offsets`` (see ``explainer.text.align_spans``); dialects that
    #: override ``align`` instead keep working (the default ``align_offsets`` then calls their ``align``).
    align_mode: tuple | None = None
    #: with ``align_mode``: the dialect lowercases *before* decoding entities (sacreBLEU's ``lowercase=True``)
    align_lowercase_first: bool = False

    def align_offsets(self, text: str, tokens: Sequence[str]) -> tuple[list, list]:
        """Start and end offsets of the tokens in ``text`` (None where not locatable); used by traces."""
        if self.align_mode is not None:
            return align_offsets(text, tokens, casefold=self.align_mode[0], unescape=self.align_mode[1],
                                 lowercase_first=self.align_lowercase_first)
        if type(self).align is not BleuDialect.align:
            spans = self.align(text, tokens)
            return [t.start for t in spans], [t.end for t in spans]
        return align_offsets(text, tokens, casefold=True, unescape=False)

    # ---- ③ counting
    @property
    def max_order(self) -> int:
        return 4

    def segment_total(self, length: int, n: int) -> int:
        return length - n + 1 if length >= n else 0

    # ---- ④ reference length
    def choose_ref_length(self, c: int, ref_lens: Sequence[int]) -> RefLengthChoice:
        return closest_shorter(c, ref_lens)

    def ref_length_fast(self, c: int, ref_lens: Sequence[int]) -> int:
        """Same r as ``choose_ref_length`` without building the explanation (statistics path)."""
        return self.choose_ref_length(c, ref_lens).r

    # ---- one reference's own statistics (GLEU)
    #: the segment's statistics are those of one reference alone, chosen by ``pick_reference`` (each candidate
    #: n-gram clipped against that reference's count), not clipped against the maximum over the references
    per_reference: ClassVar[bool] = False

    def pick_reference(self, c: int, ref_lens: Sequence[int], matches: Sequence[Sequence[int]]) -> ReferencePick:
        """With ``per_reference``: from the candidate length, each reference's length and each reference's own
        clipped matches per order (``matches[k][n - 1]``), the reference kept and the segment's statistics."""
        raise NotImplementedError

    # ---- last-segment context (NLTK smoothing methods 5/6)
    def last_segment_context(self, hyp_tokens: Sequence[str], refs_tokens: Sequence[Sequence[str]]) -> SegmentContext:
        return SegmentContext(hyp_len=len(hyp_tokens))

    # ---- ⑤-⑨ combination
    def combine(self, c: int, r: int, matches: Sequence[float], totals: Sequence[float],
                ctx: SegmentContext | None, *, n_segments: int = 1) -> Combination:
        raise NotImplementedError

    # ---- signature, library behaviour
    def signature(self, nrefs: int | str) -> str:
        return f"{self.name}|nrefs:{nrefs}"

    def check_inputs(self, candidates: Sequence[str], references: Sequence[Sequence[str]],
                     *, corpus: bool) -> tuple[list[LibraryWarning], LibraryError | None]:
        """Warnings the real library emits and the error it raises *before* scoring (e.g. no reference).
        The default records nothing."""
        return [], None

    def bootstrap_signature(self, nrefs: int | str, n_bootstrap: int, seed: str) -> str:
        """The signature of a bootstrap confidence interval (sacreBLEU's own format for sacreBLEU)."""
        return f"{self.signature(nrefs)}|bs:{n_bootstrap}|seed:{seed}"

    def streamed_input_warnings(self, ends_with_period: Sequence[int]) -> list[str]:
        """With ``checks_whole_corpus``: the library's input warnings for a corpus read block by block, from the
        number of lines of each system that end in " ."."""
        return []

    # ---- what the features ask of a dialect (capabilities; the defaults: "not this dialect")
    def compute_bleu_params(self) -> dict | None:
        """When this dialect's arithmetic from summed statistics is sacreBLEU's ``compute_bleu``: its parameters
        (``max_order``, ``smooth_method``, ``smooth_value``, ``effective_order``), so that many rows can be
        scored at once, vectorised (``explainer.bleu.rowscore``); None otherwise (rows go through ``combine``)."""
        return None

    def library_metric(self, references: Any = None, *, force: bool = False) -> Any:
        """The real library's own metric object with these options (sacreBLEU's ``BLEU``; with ``references``:
        its reference cache), or None when the dialect has none to run."""
        return None

    def other_entry_point(self) -> tuple[str, "BleuDialect"] | None:
        """When the library has two entry points that differ on this input's kind (sacreBLEU's ``corpus_bleu`` and
        ``sentence_bleu``): (the other one in words, this dialect bound as it), else None."""
        return None

    def tokenization_key(self) -> tuple:
        """Bound dialects with the same key tokenize every text identically (work shared between them)."""
        return (self.name,)

    def smoothing_label(self) -> str:
        """The smoothing this dialect applies, in a few words."""
        return "none"

    @classmethod
    def flag_options(cls, flag: str, value: Any) -> dict | None:
        """The options a generic flag sets when the dialect has no option of that name in ``cli_flags``
        (NLTK: ``--max-order N`` is N equal weights), or None when the flag does not apply."""
        return None

    @classmethod
    def cli_argv(cls, given: Mapping[str, Any], types: Sequence[str] = ()) -> list[str]:
        """The ``explainer bleu`` arguments (input: one JSON line on stdin) that bind this dialect with the
        options ``given`` (documented flags where ``cli_flags`` has one, ``-o NAME=VALUE`` otherwise; options in
        name order, None left out). ``types`` is ROUGE's; BLEU has none."""
        from explainer.bleu.flags import option_argv

        return ["bleu", "--jsonl", "-", "--dialect", cls.name] + option_argv(cls, given)
