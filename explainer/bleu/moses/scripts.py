"""The arithmetic of the Moses BLEU scripts, in their own order of floating-point operations: reference-length
rules, ``multi-bleu(-detok).perl``'s and ``mteval-v13a.pl``'s scores and printed lines, and the inputs on which
Perl dies or which the scripts' file formats cannot carry.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

__all__ = [
    "MOSES_VERSION", "SHORT_VERSION", "MAX_ORDER", "ScriptDeath", "NotExpressible", "check_expressible",
    "multibleu_ref_length", "mteval_ref_length", "MultiBleuScore", "multibleu_score", "MtevalScore",
    "mteval_segment_score", "mteval_score", "mteval_printed", "perl_min0",
]

MOSES_VERSION = "moses-smt/mosesdecoder@3445289 (2025-02-03)"
SHORT_VERSION = "mosesdecoder@3445289"
MAX_ORDER = 4  # fixed in both scripts (mteval loops to 9 for NIST; BLEU reports order 4)

# --------------------------------------------------------------------------------------------------
# Deaths and inputs the scripts cannot be given
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScriptDeath:
    """The real script dies here. ``message`` is what Perl prints (directory names removed),
    ``reason`` explains why in plain words; ``exit_status`` is the process exit status."""

    script: str
    message: str
    reason: str
    exit_status: int = 255

    @property
    def error(self) -> str:
        """The golden-file form: ``PerlDie: <message> (exit N)``."""
        return f"PerlDie: {self.message} (exit {self.exit_status})"

    def to_dict(self) -> dict:
        return {"script": self.script, "message": self.message, "reason": self.reason,
                "exit_status": self.exit_status, "error": self.error,
                "explanation": f"the real script dies here because {self.reason}"}


class NotExpressible(ValueError):
    """The input cannot even be given to the script (its files are line- or SGML-aligned)."""


def check_expressible(script: str, candidates: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    """Raise NotExpressible, with the reason, for inputs the script's file formats cannot carry.

    * multi-bleu*.perl read one segment per line: a newline inside a segment would shift every later line.
    * Both scripts read reference *k* of every segment from one file (``REFSTEM<k>`` / one ``<refset>``):
      every segment needs the same number of references, and at least one.
    """
    if len(candidates) != len(references):
        raise NotExpressible(
            f"{len(candidates)} candidates but {len(references)} reference lists: the scripts read "
            "line-aligned (or segment-aligned) files, one segment each")
    counts = {len(r) for r in references}
    if not candidates:
        raise NotExpressible("no segments: the scripts need at least one line / <seg>")
    if 0 in counts:
        if script == "mteval-v13a.pl":
            raise NotExpressible(
                "no references: mteval-v13a.pl reads one <refset> per reference and cannot be given a "
                "segment without one")
        raise NotExpressible(
            f"no references: {script} reads reference k of every segment from the file REFSTEM<k>; with no "
            "reference file at all it dies ('could not find reference file'), and it cannot be given "
            "a segment without a reference line while others have one")
    if len(counts) > 1:
        raise NotExpressible(
            f"the number of references varies between segments ({sorted(counts)}): {script} reads "
            "reference k of every segment from one file, so every segment has the same number")
    if script != "mteval-v13a.pl":
        for i, text in enumerate(candidates):
            if "\n" in text:
                raise NotExpressible(
                    f"candidate {i + 1} contains a newline: {script} reads one segment per line, so the "
                    "text would become two segments and shift every later line")
        for i, refs in enumerate(references):
            for k, text in enumerate(refs):
                if "\n" in text:
                    raise NotExpressible(
                        f"reference {k + 1} of segment {i + 1} contains a newline: {script} reads one "
                        "segment per line, so the reference file would be misaligned")



# --------------------------------------------------------------------------------------------------
# Reference length
# --------------------------------------------------------------------------------------------------


def multibleu_ref_length(hyp_len: int, ref_lens: Sequence[int]) -> tuple[int, str]:
    """multi-bleu's closest length: start from (diff, length) = (9999, 9999); a smaller diff wins, an equal
    diff keeps the shorter length. Returns (r, how it was chosen)."""
    closest_diff, closest_length = 9999, 9999
    for length in ref_lens:
        diff = abs(hyp_len - length)
        if diff < closest_diff:
            closest_diff, closest_length = diff, length
        elif diff == closest_diff and length < closest_length:
            closest_length = length
    if not ref_lens:
        return closest_length, "no reference: the start value 9999 is kept"
    if closest_length == 9999 and 9999 not in ref_lens:
        return closest_length, ("every reference differs from the candidate by more than 9999 tokens: "
                                "the start value 9999 is kept")
    ties = sorted({L for L in ref_lens if abs(hyp_len - L) == closest_diff})
    if len(ties) > 1:
        return closest_length, f"closest; lengths {ties} tie at distance {closest_diff}: the shorter wins"
    return closest_length, "closest"


def mteval_ref_length(hyp_len: int, ref_lens: Sequence[int], *, rule: str = "closest") -> tuple[int, str]:
    """mteval's ``brevity_penalty_closest`` (default) or ``_shortest``, folded over the references in
    ``refset`` order starting from the first reference's length."""
    if not ref_lens:
        raise NotExpressible("mteval-v13a.pl cannot be given a segment without references")
    r = ref_lens[0]
    for L in ref_lens[1:]:
        if rule == "shortest":
            r = L if L < r else r
        elif abs(hyp_len - L) <= abs(hyp_len - r):
            if abs(hyp_len - L) == abs(hyp_len - r):
                if r > L:
                    r = L
            else:
                r = L
    if rule == "shortest":
        return r, "shortest"
    d = abs(hyp_len - r)
    ties = sorted({L for L in ref_lens if abs(hyp_len - L) == d})
    if len(ties) > 1:
        return r, f"closest; lengths {ties} tie at distance {d}: the shorter wins"
    return r, "closest"



# --------------------------------------------------------------------------------------------------
# multi-bleu.perl / multi-bleu-detok.perl scoring
# --------------------------------------------------------------------------------------------------

_MB_DIV_LINE = {"multi-bleu.perl": 154, "multi-bleu-detok.perl": 166}
_MB_ZERO_REF_LINE = "BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)"


def _my_log(x: float) -> float:
    """multi-bleu's ``my_log``: -9999999999 for 0 (so exp of the mean underflows to exactly 0)."""
    return -9999999999 if not x else math.log(x)


@dataclass
class MultiBleuScore:
    """What multi-bleu(-detok).perl computes from the corpus totals, on its native 0-100 scale."""

    script: str
    matches: list[int]
    totals: list[int]
    hyp_len: int
    ref_len: int
    precisions: list[float]            # 0..1, CORRECT/TOTAL or 0 when TOTAL is 0
    log_precisions: list[float]        # my_log of each (-9999999999 for 0)
    bp: float | None
    bp_branch: str
    ratio: float | None
    bleu: float | None                 # 0..1
    score: float | None                # 0..100 (100 * bleu)
    printed: str | None
    returncode: int
    death: ScriptDeath | None = None
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["death"] = self.death.to_dict() if self.death else None
        return d


def multibleu_score(matches: Sequence[int], totals: Sequence[int], hyp_len: int, ref_len: int, *,
                    script: str = "multi-bleu.perl", lines_read: int = 1) -> MultiBleuScore:
    """The end of multi-bleu.perl, step by step (mb:141-177). ``lines_read`` is the number of
    hypothesis lines, quoted in Perl's death message."""
    matches = [int(m) for m in matches]
    totals = [int(t) for t in totals]
    precisions = [(m / t) if t else 0 for m, t in zip(matches, totals)]
    logs = [_my_log(p) for p in precisions]
    common = dict(script=script, matches=matches, totals=totals, hyp_len=hyp_len, ref_len=ref_len,
                  precisions=[float(p) for p in precisions], log_precisions=[float(x) for x in logs])
    if ref_len == 0:
        return MultiBleuScore(
            **common, bp=0.0, bp_branch="reference length 0: the script prints a fixed line and exits 1",
            ratio=0.0, bleu=0.0, score=0.0, printed=_MB_ZERO_REF_LINE, returncode=1,
            notes=["ref_len is 0: the script prints the literal line 'BLEU = 0, 0/0/0/0 (BP=0, ratio=0, "
                   "hyp_len=0, ref_len=0)' (hyp_len printed as 0 whatever it is) and exits with status 1"])
    if hyp_len < ref_len:
        if hyp_len == 0:
            death = ScriptDeath(
                script,
                f"Illegal division by zero at {script} line {_MB_DIV_LINE.get(script, 154)}, "
                f"<STDIN> line {lines_read}.",
                "the candidate has no tokens: the brevity penalty exp(1 - ref_len/hyp_len) divides by "
                "hyp_len = 0, and the script has no guard for it")
            return MultiBleuScore(**common, bp=None, bp_branch="hyp_len < ref_len with hyp_len = 0: dies",
                                  ratio=None, bleu=None, score=None, printed=None, returncode=255,
                                  death=death)
        bp = math.exp(1 - ref_len / hyp_len)
        branch = "hyp_len < ref_len: BP = exp(1 - ref_len/hyp_len)"
    else:
        bp = 1
        branch = "hyp_len >= ref_len: BP = 1"
    bleu = bp * math.exp((logs[0] + logs[1] + logs[2] + logs[3]) / 4)
    ratio = hyp_len / ref_len
    printed = "BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ratio=%.3f, hyp_len=%d, ref_len=%d)" % (
        100 * bleu, 100 * precisions[0], 100 * precisions[1], 100 * precisions[2], 100 * precisions[3],
        bp, ratio, hyp_len, ref_len)
    notes = []
    if any(m == 0 for m in matches):
        notes.append("an order has 0 matches: my_log(0) = -9999999999, so the score is exactly 0")
    return MultiBleuScore(**common, bp=float(bp), bp_branch=branch, ratio=float(ratio), bleu=float(bleu),
                          score=float(100 * bleu), printed=printed, returncode=0, notes=notes)



# --------------------------------------------------------------------------------------------------
# mteval-v13a.pl scoring
# --------------------------------------------------------------------------------------------------

MTEVAL_DEATH_LINE = 854


@dataclass
class MtevalScore:
    """``bleu_score`` / ``bleu_score_nosmoothing`` of mteval-v13a.pl on one set of totals (0..1 scale)."""

    smoothing: bool
    matches: list[int]
    totals: list[int]
    sys_len: int
    ref_len: int
    log_precisions: list[float | None]   # the i_n added to the log-sum (None: order skipped)
    smoothing_steps: list[str]           # per order: what the script did and why
    individual: list[float]              # the "Individual N-gram scoring" row, n = 1..4
    cumulative: list[float]              # the "Cumulative N-gram scoring" row (BLEU-1..BLEU-4)
    bp: float | None                     # exp_len_score (smoothed) / exp(len_score) (not smoothed)
    bp_log: float | None
    length_ratio: float | None
    score: float | None                  # = cumulative[3]
    death: ScriptDeath | None = None

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["death"] = self.death.to_dict() if self.death else None
        return d


def perl_min0(x: float) -> float:
    """mteval's ``min(0, x)``: pops x first, replaced by 0 only if 0 < x."""
    return 0 if 0 < x else x


def mteval_segment_score(matches: Sequence[int], totals: Sequence[int], ref_len: int, *,
                         smoothing: bool = True, system_level: bool = False) -> MtevalScore:
    """One call of mteval's BLEU function (``bleu_score`` or, with ``smoothing=False``, ``bleu_score_nosmoothing``).
    ``system_level`` adds the ``length ratio`` report that is only printed for the system score, and with it the
    script's deaths (r = 0 or a zero brevity penalty)."""
    m = [int(x) for x in matches][:MAX_ORDER]
    t = [int(x) for x in totals][:MAX_ORDER]
    if smoothing:
        return _bleu_score_smoothed(m, t, ref_len, system_level)
    return _bleu_score_nosmoothing(m, t, ref_len)


def _bleu_score_smoothed(m: list[int], t: list[int], ref_len: int, system_level: bool) -> MtevalScore:
    """``bleu_score``: NIST geometric smoothing; an order without candidate n-grams counts as precision 1."""
    c = t[0]
    exp_len_score = math.exp(perl_min0(1 - ref_len / c)) if c > 0 else 0
    death, bp_log, length_ratio = (_length_report(c, ref_len, exp_len_score) if system_level
                                   else (None, None, None))
    logs: list[float | None] = []
    steps: list[str] = []
    individual: list[float] = []
    cumulative: list[float] = []
    score = 0.0
    smooth = 1
    for j in range(MAX_ORDER):
        if t[j] == 0:
            iscore = 0
            steps.append(f"no candidate {j + 1}-grams: the order counts as precision 1 (log 0 added)")
        elif m[j] == 0:
            smooth *= 2
            iscore = math.log(1 / (smooth * t[j]))
            steps.append(f"0 matches: precision 1/(2^{smooth.bit_length() - 1}·{t[j]}) = 1/{smooth * t[j]}")
        else:
            iscore = math.log(m[j] / t[j])
            steps.append(f"{m[j]}/{t[j]}")
        logs.append(float(iscore))
        individual.append(math.exp(iscore))
        score += iscore
        cumulative.append(math.exp(score / (j + 1)) * exp_len_score)
    return MtevalScore(True, m, t, c, ref_len, logs, steps, individual, cumulative, float(exp_len_score),
                       bp_log, length_ratio, None if death else cumulative[3], death)


def _length_report(c: int, ref_len: int, exp_len_score: float) -> tuple[ScriptDeath | None, float | None,
                                                                        float | None]:
    """The system-level ``length ratio: (c/r), penalty (log): log(BP)`` line [mt:854]: (death, log BP, c/r)."""
    if ref_len == 0:
        return ScriptDeath(
            "mteval-v13a.pl", f"Illegal division by zero at mteval-v13a.pl line {MTEVAL_DEATH_LINE}.",
            "the reference length is 0: the system-level report prints the length ratio sys_len/ref_len, "
            "which divides by 0"), None, None
    if exp_len_score == 0:
        why = ("the candidate has no tokens, so the brevity penalty is set to 0"
               if c == 0 else "the brevity penalty exp(1 - r/c) underflows to 0")
        return ScriptDeath(
            "mteval-v13a.pl", f"Can't take log of 0 at mteval-v13a.pl line {MTEVAL_DEATH_LINE}.",
            f"{why}, and the system-level report prints log(BP)"), None, None
    return None, math.log(exp_len_score), c / ref_len


def _bleu_score_nosmoothing(m: list[int], t: list[int], ref_len: int) -> MtevalScore:
    """``bleu_score_nosmoothing`` (--no-smoothing): an order with 0 matches makes its cumulative score 0."""
    logs: list[float | None] = []
    steps: list[str] = []
    individual: list[float] = []
    cumulative: list[float] = []
    score = 0.0
    len_score = None
    for j in range(MAX_ORDER):
        if m[j] == 0:
            logs.append(None)
            steps.append("0 matches: this order's cumulative score is 0" +
                         (" (no candidate n-grams)" if t[j] == 0 else ""))
            individual.append(0.0)
            cumulative.append(0.0)
        else:
            len_score = perl_min0(1 - ref_len / t[0])
            lp = math.log(m[j] / t[j])
            score += lp
            logs.append(lp)
            steps.append(f"{m[j]}/{t[j]}")
            cumulative.append(math.exp(score / (j + 1) + len_score))
            individual.append(math.exp(lp))
    bp = math.exp(len_score) if len_score is not None else None
    return MtevalScore(False, m, t, t[0], ref_len, logs, steps, individual, cumulative, bp,
                       float(len_score) if len_score is not None else None, None, cumulative[3])


def mteval_score(segments: Sequence[tuple[Sequence[int], Sequence[int], int]], *, smoothing: bool = True
                 ) -> tuple[MtevalScore, list[MtevalScore]]:
    """System score from per-segment (matches, totals, ref_len), plus every segment's own score
    (printed with ``-d 2``; those never die)."""
    seg_scores = [mteval_segment_score(mm, tt, rr, smoothing=smoothing) for mm, tt, rr in segments]
    cm = [sum(s[0][j] for s in segments) for j in range(MAX_ORDER)]
    ct = [sum(s[1][j] for s in segments) for j in range(MAX_ORDER)]
    cr = sum(s[2] for s in segments)
    return mteval_segment_score(cm, ct, cr, smoothing=smoothing, system_level=True), seg_scores


def mteval_printed(score: float, sysid: str = "sys") -> str:
    return 'BLEU score = %.4f for system "%s"' % (score, sysid)

