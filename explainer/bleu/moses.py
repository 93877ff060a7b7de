"""The Moses BLEU scripts as dialects: ``multi-bleu.perl``, ``multi-bleu-detok.perl`` and ``mteval-v13a.pl``.

Reference: moses-smt/mosesdecoder@3445289 (2025-02-03), ``scripts/generic/`` (see
``docs/dialects-moses.md`` and ../shared/docs/bleu-dialects.md §1, §6). The scripts cannot run here; their
numbers are checked against ../shared/golden/bleu/{multi_bleu,mteval}.jsonl.

This module holds only what is specific to the scripts: how they read and tokenize text, their
reference-length rules, their precision/smoothing/brevity-penalty arithmetic (in the scripts' own order of
floating-point operations, so full-precision values agree to the last bit), their printed lines and the
inputs on which Perl dies. N-gram counting and clipping are the shared algorithm's.

Tokenizers reuse sacreBLEU's classes where the Perl is the same code: ``Tokenizer13a`` is a port of
mteval's ``tokenization`` and ``TokenizerV14International`` of ``tokenization_international``. What the
Perl does around them (SGML reading, ASCII-only ``tr`` lowercasing, byte-level ``split``) is written here.
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Sequence

from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

__all__ = [
    "MOSES_VERSION", "MAX_ORDER", "ScriptDeath", "NotExpressible",
    "multibleu_tokenize", "detok_tokenize", "mteval_tokenize", "perl_lc", "ascii_lower",
    "multibleu_ref_length", "mteval_ref_length",
    "MultiBleuScore", "multibleu_score", "MtevalScore", "mteval_score", "mteval_segment_score",
    "check_expressible", "sgml_escape", "mteval_printed", "run_multibleu", "run_mteval",
    "MultiBleuDialect", "MtevalDialect",
]

MOSES_VERSION = "moses-smt/mosesdecoder@3445289 (2025-02-03)"
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
# Perl text semantics
# --------------------------------------------------------------------------------------------------

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """``tr/[A-Z]/[a-z]/`` (mteval) and ``lc`` on undecoded bytes (multi-bleu -lc): only A-Z change."""
    return text.translate(_ASCII_LOWER)


def perl_lc(text: str) -> str:
    """Perl ``lc`` on a decoded string: full Unicode lowercase mapping, but no context rules.

    Python's ``str.lower`` applies the Final_Sigma rule (a word-final 'Σ' becomes 'ς'); Perl always gives
    'σ'. Lowercasing character by character gives Perl's result."""
    low = text.lower()
    if "Σ" in text:
        low = "".join(ch.lower() for ch in text)
    return low


# multi-bleu.perl never decodes its input, so Perl's ``split`` sees bytes and ``\s`` is ASCII whitespace
# only (UTF-8 multi-byte characters never contain these bytes, so splitting the decoded text is the same).
_PERL_BYTE_WS = re.compile(r"[ \t\n\r\f\v]+")
# On decoded strings Perl's \s is Unicode White_Space; Python's str.split also splits on \x1c-\x1f.
_PERL_UNI_WS = re.compile("[\t\n\x0b\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")
_PY_ONLY_WS = "\x1c\x1d\x1e\x1f"


def _perl_split_bytes(text: str) -> list[str]:
    """Perl ``split`` / ``split(' ', $s)`` on a byte string: leading whitespace skipped, no empty fields."""
    return [t for t in _PERL_BYTE_WS.split(text) if t]


def _with_perl_whitespace(tokenizer: Callable[[str], str], text: str, *, unassigned: bool = False) -> str:
    """Run a sacreBLEU tokenizer whose last step is ``' '.join(line.split())`` as Perl would run the same
    rules ending in ``s/\\s+/ /g``: Python also splits on \\x1c-\\x1f, Perl does not. Those characters are
    swapped for unused private-use characters (which every rule treats alike: not digits, punctuation,
    symbols or whitespace) and swapped back.

    ``unassigned``: also swap the characters that Unicode 14 (perl 5.36's version, and Python 3.11's
    ``unicodedata``) leaves unassigned. The ``regex`` module behind sacreBLEU's intl tokenizer has newer
    tables in which some of them are punctuation or symbols (e.g. U+1FA77, Unicode 15); for perl 5.36 they
    are none of \\p{P}, \\p{S}, \\p{N}, \\p{Z}."""
    odd = [ch for ch in _PY_ONLY_WS if ch in text]
    if unassigned:
        odd += sorted({ch for ch in text if ord(ch) > 0x7F and unicodedata.category(ch) == "Cn"})
    if not odd:
        return tokenizer(text)
    stand_ins: list[str] = []
    cp = 0xF0000
    while len(stand_ins) < len(odd):
        ch = chr(cp)
        if ch not in text:
            stand_ins.append(ch)
        cp += 1
    there, back = str.maketrans("".join(odd), "".join(stand_ins)), str.maketrans("".join(stand_ins), "".join(odd))
    return tokenizer(text.translate(there)).translate(back)


_TOK13A = Tokenizer13a()
_TOKINTL = TokenizerV14International()


def multibleu_tokenize(text: str, *, lowercase: bool = False) -> list[str]:
    """multi-bleu.perl: ``$_ = lc if -lc`` on undecoded bytes (ASCII only), then Perl ``split``."""
    if lowercase:
        text = ascii_lower(text)
    return _perl_split_bytes(text)


def _is_noncharacter(ch: str) -> bool:
    cp = ord(ch)
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def strict_utf8_read(text: str) -> str:
    """What Perl's ``:encoding(UTF-8)`` layer (multi-bleu-detok.perl's reference files) makes of a line:
    Unicode noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF) are replaced by the literal text of their
    bytes, e.g. U+FDD0 -> ``\\xEF\\xB7\\x90`` (checked with perl 5.36). The hypothesis (STDIN, lax
    ``:utf8``) keeps them."""
    if not any(_is_noncharacter(ch) for ch in text):
        return text
    return "".join("".join(f"\\x{b:02X}" for b in ch.encode("utf-8")) if _is_noncharacter(ch) else ch
                   for ch in text)


def detok_tokenize(text: str, *, lowercase: bool = False, role: str = "candidate") -> list[str]:
    """multi-bleu-detok.perl: UTF-8 decoded; mteval's 13a ``tokenization`` (no lowercasing inside).
    With -lc the hypothesis is ``lc``-ed *before* tokenizing and each reference *after* (so a reference's
    ``<SKIPPED>`` is not removed while a hypothesis's is). References are read through the strict
    ``:encoding(UTF-8)`` layer (``strict_utf8_read``)."""
    if role != "candidate":
        text = strict_utf8_read(text)
    if lowercase and role == "candidate":
        text = perl_lc(text)
    out = _with_perl_whitespace(_TOK13A, text)
    if lowercase and role != "candidate":
        out = perl_lc(out)
    return out.split(" ") if out else []


def sgml_escape(text: str) -> str:
    """How the text is written into the SGML files (the golden vectors' writer): & < > " escaped."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def mteval_tokenize(text: str, *, preserve_case: bool = False, international: bool = False) -> list[str]:
    """mteval-v13a.pl on one segment, from the text the user typed to the tokens it scores.

    1. The text is written into the SGML file with & < > " escaped (``sgml_escape``).
    2. Reading a ``<doc>``, the script turns every run of whitespace (Perl ``\\s``) into one space.
    3. ``tokenization`` (13a): remove ``<skipped>``, decode the four entities once, lowercase A-Z with
       ``tr`` unless ``-c``, split punctuation. ``tr`` touches only letters and the punctuation rules never
       look at letters, so lowercasing the tokenizer's output gives the same tokens.
       ``--international-tokenization``: also ``&apos;``; Unicode ``lc`` unless ``-c``; the v14 rules.
    """
    s = _PERL_UNI_WS.sub(" ", sgml_escape(text))
    if not international:
        out = _with_perl_whitespace(_TOK13A, s)
        if not preserve_case:
            out = ascii_lower(out)
    else:
        # \p{Hyphen}\p{Zl} and \p{Zl} cannot occur any more: U+2028 is \s and became a space in step 2.
        s = s.replace("<skipped>", "")
        s = (s.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
             .replace("&apos;", "'"))
        if not preserve_case:
            s = perl_lc(s)
        out = _with_perl_whitespace(_TOKINTL, s, unassigned=True)
    return out.split(" ") if out else []


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


def _perl_min0(x: float) -> float:
    """mteval's ``min(0, x)``: pops x first, replaced by 0 only if 0 < x."""
    return 0 if 0 < x else x


def mteval_segment_score(matches: Sequence[int], totals: Sequence[int], ref_len: int, *,
                         smoothing: bool = True, system_level: bool = False) -> MtevalScore:
    """One call of mteval's BLEU function. ``system_level`` adds the ``length ratio`` report that is only
    printed for the system score, and with it the script's deaths (r = 0 or a zero brevity penalty)."""
    m = [int(x) for x in matches][:MAX_ORDER]
    t = [int(x) for x in totals][:MAX_ORDER]
    c = t[0]
    death = None
    logs: list[float | None] = []
    steps: list[str] = []
    individual: list[float] = []
    cumulative: list[float] = []
    if smoothing:
        exp_len_score = 0
        if c > 0:
            exp_len_score = math.exp(_perl_min0(1 - ref_len / c))
        bp_log = length_ratio = None
        if system_level:
            # print "length ratio: ".(c/r)." (c/r), penalty (log): ".log($exp_len_score)  [mt:854]
            if ref_len == 0:
                death = ScriptDeath(
                    "mteval-v13a.pl", f"Illegal division by zero at mteval-v13a.pl line {MTEVAL_DEATH_LINE}.",
                    "the reference length is 0: the system-level report prints the length ratio "
                    "sys_len/ref_len, which divides by 0")
            elif exp_len_score == 0:
                why = ("the candidate has no tokens, so the brevity penalty is set to 0"
                       if c == 0 else "the brevity penalty exp(1 - r/c) underflows to 0")
                death = ScriptDeath(
                    "mteval-v13a.pl", f"Can't take log of 0 at mteval-v13a.pl line {MTEVAL_DEATH_LINE}.",
                    f"{why}, and the system-level report prints log(BP)")
            else:
                length_ratio = c / ref_len
                bp_log = math.log(exp_len_score)
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
    # --no-smoothing [bleu_score_nosmoothing]
    score = 0.0
    len_score = None
    for j in range(MAX_ORDER):
        if m[j] == 0:
            logs.append(None)
            steps.append(f"0 matches: this order's cumulative score is 0" +
                         (" (no candidate n-grams)" if t[j] == 0 else ""))
            individual.append(0.0)
            cumulative.append(0.0)
        else:
            len_score = _perl_min0(1 - ref_len / t[0])
            lp = math.log(m[j] / t[j])
            score += lp
            logs.append(lp)
            steps.append(f"{m[j]}/{t[j]}")
            cumulative.append(math.exp(score / (j + 1) + len_score))
            individual.append(math.exp(lp))
    bp = math.exp(len_score) if len_score is not None else None
    return MtevalScore(False, m, t, c, ref_len, logs, steps, individual, cumulative, bp,
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


# --------------------------------------------------------------------------------------------------
# Whole runs (standalone; the explainer's trace is built by the shared algorithm with these policies)
# --------------------------------------------------------------------------------------------------


def _stats(d, candidates, references):
    """Per-segment [c, r, m_1..m_4, t_1..t_4] from the shared algorithm with dialect policy ``d``."""
    from explainer.bleu.algorithm import segment_stats
    return [segment_stats(d, c, rs) for c, rs in zip(candidates, references)]


def run_multibleu(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
                  script: str = "multi-bleu.perl", lowercase: bool = False) -> dict:
    """multi-bleu.perl / multi-bleu-detok.perl on a line-aligned corpus, as the script reports it;
    ``references[i]`` are segment i's references (reference k goes to file REFSTEM<k>). Raises
    NotExpressible for inputs the files cannot carry."""
    check_expressible(script, candidates, references)
    d = MultiBleuDialect(script=script, lowercase=lowercase)
    stats = _stats(d, candidates, references)
    N = MAX_ORDER
    summed = [sum(col) for col in zip(*stats)]
    res = multibleu_score(summed[2:2 + N], summed[2 + N:], summed[0], summed[1], script=script,
                          lines_read=len(candidates))
    segs = [{"hyp_len": st[0], "ref_len": st[1], "matches": st[2:2 + N], "totals": st[2 + N:]} for st in stats]
    return {"result": res, "segments": segs,
            "tokens": {"candidates": [d.tokenize(c) for c in candidates],
                       "references": [[d.tokenize(r) for r in rs] for rs in references]}}


def run_mteval(candidates: Sequence[str], references: Sequence[Sequence[str]], *,
               preserve_case: bool = False, smoothing: bool = True, international: bool = False) -> dict:
    """mteval-v13a.pl -b on one document holding the segments (``references[i][k]`` goes to refset k):
    the system score with its report, every segment's ``-d 2`` score and the ``document info`` counts."""
    check_expressible("mteval-v13a.pl", candidates, references)
    d = MtevalDialect(preserve_case=preserve_case, smoothing=smoothing,
                      international_tokenization=international)
    stats = _stats(d, candidates, references)
    N = MAX_ORDER
    segs = [(st[2:2 + N], st[2 + N:], st[1]) for st in stats]
    tok_r = [[d.tokenize(r) for r in rs] for rs in references]
    ref_counts = [sum(max(0, len(x) - n) for rs in tok_r for x in rs) for n in range(N)]
    system, per_seg = mteval_score(segs, smoothing=smoothing)
    return {"result": system, "segments": per_seg, "ref_ngram_counts": ref_counts,
            "tokens": {"candidates": [d.tokenize(c) for c in candidates], "references": tok_r}}


# --------------------------------------------------------------------------------------------------
# Dialect policies over the shared algorithm (explainer/bleu/algorithm.py)
# --------------------------------------------------------------------------------------------------
from explainer.bleu.dialects import (BleuDialect, Combination, LibraryError, LibraryWarning,  # noqa: E402
                                     OptionSpec, OrderResult, RefLengthChoice)
from explainer.bleu.registry import register_dialect  # noqa: E402
from explainer.text import ENTITIES_13A, align_spans  # noqa: E402

_SHORT_VERSION = "mosesdecoder@3445289"


def _fmt(x: float) -> str:
    return f"{x:.6g}"


def _choice(r: int, c: int, ref_lens: Sequence[int], rule: str, how: str) -> RefLengthChoice:
    d = abs(c - r)
    tie = any(abs(c - L) == d and L != r for L in ref_lens)
    chosen = [i for i, L in enumerate(ref_lens) if L == r]
    return RefLengthChoice(r=r, chosen=chosen, rule=rule, tie_break="shorter reference wins a tie", tie=tie,
                           explanation=how)


def _not_expressible(script: str, candidates, references) -> LibraryError | None:
    try:
        check_expressible(script, candidates, references)
    except NotExpressible as e:
        return LibraryError("NotExpressible", str(e),
                            f"the real script cannot even be given this input: {e}")
    return None


def _death_error(death: ScriptDeath) -> LibraryError:
    return LibraryError("PerlDie", f"{death.message} (exit {death.exit_status})",
                        f"the real script dies here because {death.reason}")


@register_dialect
class MultiBleuDialect(BleuDialect):
    """Moses ``multi-bleu.perl`` (and ``multi-bleu-detok.perl``): see bleu-dialects.md §1, §6."""

    name = "multi-bleu"
    label = "Moses multi-bleu.perl"
    implementation = f"Moses multi-bleu.perl / multi-bleu-detok.perl ({MOSES_VERSION})"
    description = ("multi-bleu.perl: whitespace split of the raw bytes (no tokenization), -lc lowercases ASCII "
                   "only, closest reference length (ties to the shorter), no smoothing (any order with 0 "
                   "matches gives 0.00), prints 'BLEU = xx.xx, p1/p2/p3/p4 (BP=…, ratio=…, hyp_len=…, ref_len=…)'. "
                   "multi-bleu-detok.perl: the same after mteval's 13a tokenization.")
    scale = 100.0
    OPTIONS = (
        OptionSpec("script", "choice", "multi-bleu.perl",
                   "multi-bleu.perl (whitespace split of raw bytes) or multi-bleu-detok.perl (13a tokenization)",
                   choices=("multi-bleu.perl", "multi-bleu-detok.perl")),
        OptionSpec("lowercase", "bool", False, "-lc: Perl lc on undecoded bytes, so only A-Z are lowercased "
                                               "(multi-bleu.perl only)"),
    )
    totals_rule = "number of candidate n-grams, max(0, c − n + 1); a precision with 0 candidate n-grams is 0"

    def _setup(self) -> None:
        o = self.options
        self._detok = o["script"] == "multi-bleu-detok.perl"
        if self._detok and o["lowercase"]:
            raise ValueError(
                "multi-bleu-detok.perl -lc is not reproduced: it lowercases each hypothesis before tokenizing "
                "but each reference after, and has no golden vectors; use multi-bleu.perl -lc or mteval")
        self.tokenizer_name = ("13a (mteval tokenization, multi-bleu-detok.perl)" if self._detok
                               else "Perl split on ASCII whitespace (raw bytes)")

    @property
    def script(self) -> str:
        return self.options["script"]

    def tokenize(self, text: str) -> list[str]:
        if self._detok:
            return detok_tokenize(text)
        return multibleu_tokenize(text, lowercase=self.options["lowercase"])

    def preprocessed_text(self, text: str) -> str:
        return " ".join(self.tokenize(text))

    def preprocess_changes(self, text: str) -> list[dict]:
        out = []
        if self._detok:
            k = text.count("<skipped>")
            if k:
                out.append({"step": "skipped", "detail": f"'<skipped>' removed {k} time(s)"})
            t = text.replace("<skipped>", "")
            for ent, ch in ENTITIES_13A:
                k = t.count(ent)
                if k:
                    out.append({"step": "unescape", "detail": f"{ent} unescaped {k} time(s)"})
                t = t.replace(ent, ch)
            out.append({"step": "tokenize", "detail": "mteval-v13a 13a rules (sacreBLEU's Tokenizer13a), "
                                                      "case kept"})
            return out
        if self.options["lowercase"] and ascii_lower(text) != text:
            out.append({"step": "lowercase", "detail": "-lc: A-Z lowercased (Perl lc on bytes: non-ASCII "
                                                       "letters such as Ä keep their case)"})
        if any(ch in text for ch in "\u00a0\u2009\u3000\u202f\u2007\u200a"):
            out.append({"step": "split", "detail": "non-ASCII spaces (e.g. NBSP) are not whitespace for "
                                                   "multi-bleu.perl: they stay inside tokens"})
        out.append({"step": "tokenize", "detail": "split on ASCII whitespace only; punctuation stays "
                                                  "attached (no tokenization)"})
        return out

    def align(self, text: str, tokens: Sequence[str]):
        return align_spans(text, tokens, casefold=True, unescape=self._detok)

    @property
    def max_order(self) -> int:
        return MAX_ORDER

    def choose_ref_length(self, c: int, ref_lens: Sequence[int]) -> RefLengthChoice:
        r, how = multibleu_ref_length(c, ref_lens)
        if how == "closest":
            how = f"|c − L| is smallest ({abs(c - r)}) for L = {r}"
        return _choice(r, c, ref_lens, "closest", how)

    def ref_length_fast(self, c: int, ref_lens: Sequence[int]) -> int:
        return multibleu_ref_length(c, ref_lens)[0]

    def combine(self, c, r, matches, totals, ctx, *, n_segments=1) -> Combination:
        s = multibleu_score(matches, totals, c, r, script=self.script, lines_read=max(1, n_segments))
        orders = []
        for n in range(1, MAX_ORDER + 1):
            m, t, p, lg = matches[n - 1], totals[n - 1], s.precisions[n - 1], s.log_precisions[n - 1]
            if t == 0:
                formula, reason = "0 (TOTAL is 0)", f"no candidate {n}-grams: the precision is set to 0"
            else:
                formula, reason = f"{m} / {t} = {_fmt(p)}", "CORRECT/TOTAL, no smoothing"
            if p == 0:
                reason += "; my_log(0) = −9999999999, so exp of the mean is exactly 0"
            orders.append(OrderResult(n=n, matches=m, totals=t, precision_raw=(m / t) if t else None,
                                      precision=float(p), smoothing="none", formula=formula, reason=reason,
                                      weight=0.25, included=True, log_term=lg, precision_native=100 * p))
        extra = {"printed": s.printed, "returncode": s.returncode, "script": self.script,
                 "command": self.command(), "notes": s.notes}
        err = None
        if s.death is not None:
            err = _death_error(s.death)
            return Combination(orders=orders, c=c, r=r, ratio=None, bp=0.0, bp_branch=s.bp_branch,
                               bp_formula="exp(1 − ref_len/hyp_len) with hyp_len = 0: Perl dies",
                               weights=[o.weight for o in orders], nominal_weights=[0.25] * 4,
                               effective_order=4, log_sum=None, log_mean=None, geo_mean=0.0,
                               score=0.0, bleu=0.0, scale=100.0, early_exit="the script dies (no score printed)",
                               library_error=err, extra=extra)
        if s.returncode == 1:
            return Combination(orders=orders, c=c, r=r, ratio=None, bp=0.0, bp_branch=s.bp_branch,
                               bp_formula="not computed: ref_len = 0",
                               weights=[o.weight for o in orders], nominal_weights=[0.25] * 4,
                               effective_order=4, log_sum=None, log_mean=None, geo_mean=0.0,
                               score=0.0, bleu=0.0, scale=100.0,
                               early_exit="ref_len = 0: prints 'BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, "
                                          "ref_len=0)' and exits with status 1", extra=extra)
        log_sum = s.log_precisions[0] + s.log_precisions[1] + s.log_precisions[2] + s.log_precisions[3]
        geo = math.exp(log_sum / 4)
        bpf = (f"exp(1 − {r}/{c}) = {_fmt(s.bp)}" if c < r else f"hyp_len = {c} ≥ ref_len = {r}: BP = 1")
        return Combination(orders=orders, c=c, r=r, ratio=s.ratio, bp=s.bp, bp_branch=s.bp_branch, bp_formula=bpf,
                           weights=[o.weight for o in orders], nominal_weights=[0.25] * 4,
                           effective_order=4, log_sum=log_sum, log_mean=log_sum / 4,
                           geo_mean=geo, score=s.score, bleu=s.bleu, scale=100.0, extra=extra)

    def command(self) -> str:
        flags = " -lc" if self.options["lowercase"] else ""
        return f"perl {self.script}{flags} REFSTEM < hyp"

    def signature(self, nrefs) -> str:
        case = "lc-ascii" if self.options["lowercase"] else "mixed"
        tok = "13a" if self._detok else "split-bytes"
        return f"moses:{self.script}|nrefs:{nrefs}|case:{case}|tok:{tok}|smooth:none|version:{_SHORT_VERSION}"

    def check_inputs(self, candidates, references, *, corpus):
        warns = []
        if self._detok and any(_is_noncharacter(ch) for rs in references for r in rs for ch in r):
            warns.append(LibraryWarning(
                "note", "a reference contains a Unicode noncharacter (U+FDD0..U+FDEF or U+xFFFE/U+xFFFF): "
                        "multi-bleu-detok.perl reads reference files through :encoding(UTF-8), which turns it "
                        "into the literal text of its bytes (e.g. \\xEF\\xB7\\x90); this explainer tokenizes "
                        "the character as typed, so its counts can differ from the script's here"))
        return warns, _not_expressible(self.script, candidates, references)


@register_dialect
class MtevalDialect(BleuDialect):
    """Moses ``mteval-v13a.pl -b``: see bleu-dialects.md §1, §6."""

    name = "mteval"
    label = "Moses mteval-v13a.pl"
    implementation = f"Moses mteval-v13a.pl ({MOSES_VERSION})"
    description = ("mteval-v13a.pl: reads SGML (whitespace collapsed, entities decoded once), 13a tokenization, "
                   "lowercases A-Z unless -c, closest reference length (ties to the shorter), NIST geometric "
                   "smoothing by default (an order with no candidate n-grams counts as 1), score on 0-1 "
                   "printed with 4 decimals.")
    scale = 1.0
    OPTIONS = (
        OptionSpec("preserve_case", "bool", False, "-c: keep case (default: tr/[A-Z]/[a-z]/, ASCII only)"),
        OptionSpec("smoothing", "bool", True, "NIST geometric smoothing (default); false = --no-smoothing"),
        OptionSpec("international_tokenization", "bool", False,
                   "--international-tokenization: the Unicode (v14) rules; lowercasing then uses Unicode lc"),
        OptionSpec("brevity_penalty", "choice", "closest",
                   "--brevity-penalty: closest (ties to the shorter) or shortest reference length",
                   choices=("closest", "shortest")),
    )

    def _setup(self) -> None:
        o = self.options
        self._pc = o["preserve_case"]
        self._intl = o["international_tokenization"]
        self.tokenizer_name = ("international (mteval v14 rules, sacreBLEU's intl)" if self._intl
                               else "13a (mteval tokenization, sacreBLEU's Tokenizer13a)")
        self.totals_rule = "number of candidate n-grams, max(0, c − n + 1)"

    def tokenize(self, text: str) -> list[str]:
        return mteval_tokenize(text, preserve_case=self._pc, international=self._intl)

    def preprocessed_text(self, text: str) -> str:
        return " ".join(self.tokenize(text))

    def preprocess_changes(self, text: str) -> list[dict]:
        out = [{"step": "sgml", "detail": "written to the SGML file with & < > \" escaped; the script decodes "
                                          "&quot; &amp; &lt; &gt; once"}]
        lit = [e for e in ("&lt;", "&gt;") if e in text]
        if lit:
            out.append({"step": "unescape", "detail": f"the literal {' and '.join(lit)} in the text is decoded "
                                                      "(written as &amp;lt;, '&amp;' is decoded first, then "
                                                      "'&lt;'), while a literal &amp; or &quot; stays as typed"})
        if "<skipped>" in text:
            out.append({"step": "skipped", "detail": "'<skipped>' is NOT removed: it reaches the script as "
                                                     "&lt;skipped&gt; and is tokenized as '< skipped >'"})
        if _PERL_UNI_WS.sub(" ", text) != text:
            out.append({"step": "whitespace", "detail": "runs of whitespace (incl. NBSP, tabs, newlines) "
                                                        "become one space when the SGML is read"})
        if not self._pc:
            if self._intl and perl_lc(text) != text:
                out.append({"step": "lowercase", "detail": "Unicode lc (international tokenization)"})
            elif not self._intl and ascii_lower(text) != text:
                out.append({"step": "lowercase", "detail": "tr/[A-Z]/[a-z]/ after <skipped> removal and entity "
                                                           "decoding: ASCII only (Ä stays Ä)"})
        out.append({"step": "tokenize", "detail": "international (Unicode punctuation/symbols)" if self._intl
                    else "13a: punctuation split off"})
        return out

    def align(self, text: str, tokens: Sequence[str]):
        # What the SGML round trip decodes, seen from the typed text: a literal "&lt;"/"&gt;" becomes "<"/">"
        # (written as "&amp;lt;": "&amp;" is decoded first, then "&lt;"), "&amp;" and "&quot;" stay as typed;
        # --international-tokenization also decodes "&apos;" last.
        chain = (("&lt;", "<"), ("&gt;", ">")) + ((("&apos;", "'"),) if self._intl else ())
        return align_spans(text, tokens, casefold=True, unescape=chain)

    @property
    def max_order(self) -> int:
        return MAX_ORDER

    def choose_ref_length(self, c: int, ref_lens: Sequence[int]) -> RefLengthChoice:
        rule = self.options["brevity_penalty"]
        if not ref_lens:
            return RefLengthChoice(0, [], rule, "shorter reference wins a tie", False,
                                   "no reference: mteval cannot be given this input (r = 0 shown)")
        r, how = mteval_ref_length(c, ref_lens, rule=rule)
        if how == "closest":
            how = f"|c − L| is smallest ({abs(c - r)}) for L = {r}"
        elif how == "shortest":
            how = f"--brevity-penalty shortest: the shortest reference has {r} tokens"
        ch = _choice(r, c, ref_lens, rule, how)
        if rule == "shortest":
            ch.tie = False
            ch.tie_break = "no tie-break needed (lengths only)"
        return ch

    def ref_length_fast(self, c: int, ref_lens: Sequence[int]) -> int:
        if not ref_lens:
            return 0
        return mteval_ref_length(c, ref_lens, rule=self.options["brevity_penalty"])[0]

    def combine(self, c, r, matches, totals, ctx, *, n_segments=1) -> Combination:
        smoothing = self.options["smoothing"]
        s = mteval_segment_score(matches, totals, r, smoothing=smoothing, system_level=True)
        # the -d 2 line for a one-segment run never dies: same arithmetic without the length report
        seg = mteval_segment_score(matches, totals, r, smoothing=smoothing) if n_segments == 1 else None
        orders = []
        for n in range(1, MAX_ORDER + 1):
            m, t = matches[n - 1], totals[n - 1]
            lg = s.log_precisions[n - 1]
            if smoothing:
                prec = math.exp(lg) if t else 1.0
                if t == 0:
                    sm, formula = "nist", "1 (log 0 added)"
                    reason = f"no candidate {n}-grams: mteval adds log 1 = 0, the mean still divides by 4"
                elif m == 0:
                    sm, formula = "nist", s.smoothing_steps[n - 1].split(": ", 1)[1]
                    reason = ("0 matches: NIST geometric smoothing 1/(2^k·t), k counting the zero-match orders "
                              "so far")
                else:
                    sm, formula, reason = "none", f"{m} / {t} = {_fmt(m / t)}", "matches > 0: plain precision"
                inc = True
            else:
                prec = (m / t) if m else 0.0
                sm = "none"
                if m == 0:
                    formula = "0"
                    reason = ("0 matches and --no-smoothing: this order's cumulative score is 0"
                              + (" — and because it is order ≤ 4 the BLEU score is 0" if n <= 4 else ""))
                else:
                    formula, reason = f"{m} / {t} = {_fmt(m / t)}", "matches > 0: plain precision"
                inc = m != 0
            orders.append(OrderResult(n=n, matches=m, totals=t, precision_raw=(m / t) if t else None,
                                      precision=float(prec), smoothing=sm, formula=formula, reason=reason,
                                      weight=0.25 if inc else 0.0, included=inc, log_term=lg,
                                      precision_native=s.individual[n - 1]))
        extra = {"command": self.command(), "individual_1to4": s.individual, "cumulative_1to4": s.cumulative,
                 "smoothing_steps": s.smoothing_steps, "bp_log": s.bp_log, "length_ratio": s.length_ratio}
        if seg is not None:
            extra["segment_score"] = seg.score
            extra["segment_line"] = (f'  BLEU score using 4-grams = {seg.score:.4f} for system "sys" on segment 1 '
                                     f'of document "d1" ({totals[0]} words)')
        logs = [x for x in s.log_precisions if x is not None]
        log_sum = 0.0
        for x in logs:
            log_sum += x
        log_mean = log_sum / 4
        geo = math.exp(log_mean) if logs else 0.0
        ratio = (c / r) if r else None
        if smoothing:
            if c == 0:
                branch, bpf = "c = 0", "the candidate is empty: exp_len_score = 0"
            elif c < r:
                branch, bpf = "c < r", f"exp(min(0, 1 − {r}/{c})) = {_fmt(s.bp)}"
            else:
                branch, bpf = "c ≥ r", f"exp(min(0, 1 − {r}/{c})) = 1"
        else:
            if s.bp is None:
                branch = "not used"
                bpf = ("no order has a match: the script returns 0 without computing the length term "
                       "(shown: exp(min(0, 1 − r/c)), or 0 for an empty candidate)")
            elif c < r:
                branch, bpf = "c < r", f"min(0, 1 − {r}/{c}) is added inside exp(): factor {_fmt(s.bp)}"
            else:
                branch, bpf = "c ≥ r", "min(0, 1 − r/c) = 0"
        if s.death is not None:
            extra["printed"] = None
            return Combination(orders=orders, c=c, r=r, ratio=ratio, bp=float(s.bp or 0.0), bp_branch=branch,
                               bp_formula=bpf, weights=[o.weight for o in orders], nominal_weights=[0.25] * 4,
                               effective_order=4, log_sum=log_sum,
                               log_mean=log_mean, geo_mean=geo, score=0.0, bleu=0.0, scale=1.0,
                               early_exit="the script dies while printing the system-level length ratio",
                               library_error=_death_error(s.death), extra=extra)
        extra["printed"] = mteval_printed(s.score)
        early = None
        if not smoothing and matches[3] == 0:
            early = "--no-smoothing and 0 matching 4-grams: the score is 0"
        if s.bp is not None:
            bp = float(s.bp)
        else:
            bp = math.exp(_perl_min0(1 - r / c)) if c > 0 else 0.0
        return Combination(orders=orders, c=c, r=r, ratio=ratio, bp=bp,
                           bp_branch=branch, bp_formula=bpf, weights=[o.weight for o in orders],
                           nominal_weights=[0.25] * 4, effective_order=4,
                           log_sum=log_sum, log_mean=log_mean, geo_mean=geo, score=float(s.score),
                           bleu=float(s.score), scale=1.0, early_exit=early, extra=extra)

    def command(self) -> str:
        o = self.options
        flags = []
        if o["preserve_case"]:
            flags.append("-c")
        if not o["smoothing"]:
            flags.append("--no-smoothing")
        if o["international_tokenization"]:
            flags.append("--international-tokenization")
        if o["brevity_penalty"] != "closest":
            flags.append(f"--brevity-penalty {o['brevity_penalty']}")
        return " ".join(["perl mteval-v13a.pl -b -r ref.sgm -s src.sgm -t tst.sgm"] + flags)

    def signature(self, nrefs) -> str:
        o = self.options
        case = "mixed" if o["preserve_case"] else ("lc" if o["international_tokenization"] else "lc-ascii")
        tok = "intl" if o["international_tokenization"] else "13a"
        return (f"moses:mteval-v13a.pl|nrefs:{nrefs}|case:{case}|tok:{tok}|"
                f"smooth:{'nist' if o['smoothing'] else 'none'}|bp:{o['brevity_penalty']}|version:{_SHORT_VERSION}")

    def check_inputs(self, candidates, references, *, corpus):
        return [], _not_expressible("mteval-v13a.pl", candidates, references)
