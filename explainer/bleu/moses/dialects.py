"""The Moses BLEU scripts as dialect policies over the shared algorithm (``explainer/bleu/algorithm.py``):
``multi-bleu.perl`` / ``multi-bleu-detok.perl`` (``multi-bleu``) and ``mteval-v13a.pl -b`` (``mteval``).
See docs/dialects-moses.md.
"""
from __future__ import annotations

import math
from typing import Sequence

from explainer.bleu.dialects import (
    BleuDialect,
    Combination,
    LibraryError,
    LibraryWarning,
    OptionSpec,
    OrderResult,
    RefLengthChoice,
    search_order_cost,
)
from explainer.bleu.moses.scripts import (
    MAX_ORDER,
    MOSES_VERSION,
    SHORT_VERSION,
    NotExpressible,
    ScriptDeath,
    check_expressible,
    mteval_printed,
    mteval_ref_length,
    mteval_segment_score,
    multibleu_ref_length,
    multibleu_score,
    perl_min0,
)
from explainer.bleu.moses.text import (
    PERL_UNI_WS,
    ascii_lower,
    detok_tokenize,
    is_noncharacter,
    mteval_tokenize,
    multibleu_tokenize,
    perl_lc,
)
from explainer.search_space import point
from explainer.text import ENTITIES_13A, align_spans

__all__ = ["MultiBleuDialect", "MtevalDialect"]


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


class MultiBleuDialect(BleuDialect):
    """Moses ``multi-bleu.perl`` (and ``multi-bleu-detok.perl``): see docs/dialects-moses.md."""

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
    short_label = "multi-bleu.perl"
    rank = 3
    cli_flags = {"lowercase": "lowercase"}

    def tokenization_key(self) -> tuple:
        return (self.name, self.options["script"], bool(self.options["lowercase"]))

    @classmethod
    def search_configs(cls, context):
        """The script as it is, -lc, and the detok variant."""
        oc = search_order_cost(4, context)
        if oc is None:
            return []
        return [point({}, 0.5 + oc), point({"lowercase": True}, 1.0 + oc, "-lc"),
                point({"script": "multi-bleu-detok.perl"}, 1.0 + oc, "multi-bleu-detok.perl")]

    @classmethod
    def comparison_rows(cls, texts):
        return [{"options": {}, "id": cls.name, "label": "multi-bleu.perl",
                 "note": "Moses multi-bleu.perl: whitespace tokens, no smoothing"}]

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
            # the script prints a literal line: hyp_len=0 (whatever the candidate's length), ratio 0, precisions 0
            for o in orders:
                o.precision, o.precision_native, o.log_term = 0.0, 0.0, None
                o.formula = "printed 0 (ref_len = 0)"
                o.reason = "ref_len = 0: the script prints 0/0/0/0 without computing the precisions"
            return Combination(orders=orders, c=0, r=r, ratio=0.0, bp=0.0, bp_branch=s.bp_branch,
                               bp_formula=f"not computed: ref_len = 0 (the script prints hyp_len=0; the candidate "
                                          f"has {c} token{'s' if c != 1 else ''})",
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
        return f"moses:{self.script}|nrefs:{nrefs}|case:{case}|tok:{tok}|smooth:none|version:{SHORT_VERSION}"

    def check_inputs(self, candidates, references, *, corpus):
        warns = []
        if self._detok and any(is_noncharacter(ch) for rs in references for r in rs for ch in r):
            warns.append(LibraryWarning(
                "note", "a reference contains a Unicode noncharacter (U+FDD0..U+FDEF or U+xFFFE/U+xFFFF): "
                        "multi-bleu-detok.perl reads reference files through :encoding(UTF-8), which turns it "
                        "into the literal text of its bytes (e.g. \\xEF\\xB7\\x90); this explainer tokenizes "
                        "the character as typed, so its counts can differ from the script's here"))
        return warns, _not_expressible(self.script, candidates, references)


def _mteval_order(n: int, m, t, s, smoothing: bool) -> OrderResult:
    """One order of mteval's BLEU: its precision, the smoothing step and whether it enters the mean."""
    lg = s.log_precisions[n - 1]
    if smoothing:
        prec = math.exp(lg) if t else 1.0
        if t == 0:
            sm, formula = "nist", "1 (log 0 added)"
            reason = f"no candidate {n}-grams: mteval adds log 1 = 0, the mean still divides by 4"
        elif m == 0:
            sm, formula = "nist", s.smoothing_steps[n - 1].split(": ", 1)[1]
            reason = "0 matches: NIST geometric smoothing 1/(2^k·t), k counting the zero-match orders so far"
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
    return OrderResult(n=n, matches=m, totals=t, precision_raw=(m / t) if t else None, precision=float(prec),
                       smoothing=sm, formula=formula, reason=reason, weight=0.25 if inc else 0.0, included=inc,
                       log_term=lg, precision_native=s.individual[n - 1])


def _mteval_bp_words(c: int, r: int, s, smoothing: bool) -> tuple[str, str]:
    """Which branch of mteval's length term was taken, and its formula with the numbers."""
    if smoothing:
        if c == 0:
            return "c = 0", "the candidate is empty: exp_len_score = 0"
        if c < r:
            return "c < r", f"exp(min(0, 1 − {r}/{c})) = {_fmt(s.bp)}"
        return "c ≥ r", f"exp(min(0, 1 − {r}/{c})) = 1"
    if s.bp is None:
        return "not used", ("no order has a match: the script returns 0 without computing the length term "
                            "(shown: exp(min(0, 1 − r/c)), or 0 for an empty candidate)")
    if c < r:
        return "c < r", f"min(0, 1 − {r}/{c}) is added inside exp(): factor {_fmt(s.bp)}"
    return "c ≥ r", "min(0, 1 − r/c) = 0"


class MtevalDialect(BleuDialect):
    """Moses ``mteval-v13a.pl -b``: see docs/dialects-moses.md."""

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
    short_label = "mteval-v13a.pl"
    rank = 4
    original = True
    cli_flags = {"smooth": "smoothing"}
    smooth_words = {"none": "false", "exp": "true", "nist": "true", "false": "false", "true": "true"}

    def tokenization_key(self) -> tuple:
        return (self.name, bool(self.options["preserve_case"]), bool(self.options["international_tokenization"]))

    @classmethod
    def search_configs(cls, context):
        """-c, --no-smoothing, --international-tokenization, --brevity-penalty shortest."""
        oc = search_order_cost(4, context)
        if oc is None:
            return []
        out = []
        for pc in (False, True):
            for sm in (True, False):
                for intl in (False, True):
                    for bp in ("closest", "shortest"):
                        opts: dict = {}
                        if pc:
                            opts["preserve_case"] = True
                        if not sm:
                            opts["smoothing"] = False
                        if intl:
                            opts["international_tokenization"] = True
                        if bp != "closest":
                            opts["brevity_penalty"] = bp
                        out.append(point(opts, 0.5 + 0.5 * pc + 0.5 * (not sm) + 1.0 * intl + 1.0 * (bp != "closest")
                                         + oc, "-c" if pc else "", "--no-smoothing" if not sm else "",
                                         "--international-tokenization" if intl else "",
                                         "--brevity-penalty shortest" if bp != "closest" else ""))
        return out

    def smoothing_label(self) -> str:
        return "NIST geometric" if self.options["smoothing"] else "none"

    @classmethod
    def comparison_rows(cls, texts):
        return [{"options": {}, "id": cls.name, "label": "mteval-v13a.pl",
                 "note": "Moses mteval-v13a.pl: 13a, ASCII lowercasing, NIST smoothing"}]

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
        if PERL_UNI_WS.sub(" ", text) != text:
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
        """The script's system-level BLEU (its ``-b`` line) on the summed statistics, with its length report."""
        smoothing = self.options["smoothing"]
        s = mteval_segment_score(matches, totals, r, smoothing=smoothing, system_level=True)
        orders = [_mteval_order(n, matches[n - 1], totals[n - 1], s, smoothing) for n in range(1, MAX_ORDER + 1)]
        extra = {"command": self.command(), "individual_1to4": s.individual, "cumulative_1to4": s.cumulative,
                 "smoothing_steps": s.smoothing_steps, "bp_log": s.bp_log, "length_ratio": s.length_ratio}
        if n_segments == 1:
            # the -d 2 line for a one-segment run never dies: same arithmetic without the length report
            seg = mteval_segment_score(matches, totals, r, smoothing=smoothing)
            extra["segment_score"] = seg.score
            extra["segment_line"] = (f'  BLEU score using 4-grams = {seg.score:.4f} for system "sys" on segment 1 '
                                     f'of document "d1" ({totals[0]} words)')
        logs = [x for x in s.log_precisions if x is not None]
        log_sum = 0.0
        for x in logs:
            log_sum += x
        log_mean = log_sum / 4
        branch, bpf = _mteval_bp_words(c, r, s, smoothing)
        common = dict(orders=orders, c=c, r=r, ratio=(c / r) if r else None, bp_branch=branch, bp_formula=bpf,
                      weights=[o.weight for o in orders], nominal_weights=[0.25] * 4, effective_order=4,
                      log_sum=log_sum, log_mean=log_mean, geo_mean=math.exp(log_mean) if logs else 0.0, scale=1.0,
                      extra=extra)
        if s.death is not None:
            extra["printed"] = None
            return Combination(bp=float(s.bp or 0.0), score=0.0, bleu=0.0,
                               early_exit="the script dies while printing the system-level length ratio",
                               library_error=_death_error(s.death), **common)
        extra["printed"] = mteval_printed(s.score)
        early = None
        if not smoothing and matches[3] == 0:
            early = "--no-smoothing and 0 matching 4-grams: the score is 0"
        if s.bp is not None:
            bp = float(s.bp)
        else:
            bp = math.exp(perl_min0(1 - r / c)) if c > 0 else 0.0
        return Combination(bp=bp, score=float(s.score), bleu=float(s.score), early_exit=early, **common)

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
                f"smooth:{'nist' if o['smoothing'] else 'none'}|bp:{o['brevity_penalty']}|version:{SHORT_VERSION}")

    def check_inputs(self, candidates, references, *, corpus):
        return [], _not_expressible("mteval-v13a.pl", candidates, references)

