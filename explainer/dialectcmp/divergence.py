"""The first step at which two configurations diverge, named from a fixed vocabulary, with the evidence.

BLEU steps, in the order the algorithm takes them: ``tokens`` (tokenizer and lowercasing), ``counts`` (clipped
matches), ``totals`` (candidate n-grams under the dialect's rule), ``ref_length`` (closest / shortest / first
closest), ``smoothing`` (the precision that enters the log), ``brevity_penalty``, ``combination`` (weights,
effective order, early exits, log floors: the 0–1 score), ``scale`` (0–1 vs 0–100).

ROUGE steps: ``tokens`` (before stemming), ``stemming``, ``overlap`` (ROUGE-N/S/SU counts), ``lcs`` (ROUGE-L,
-Lsum (including how the texts are split into sentences), -W hits), ``multi_ref`` (which reference, or pooled),
``f_measure`` (F from the same P and R), ``scale`` (rounding of the printed numbers). A corpus of ROUGE items
adds ``aggregation`` (bootstrap median, bootstrap mean, plain mean) after every per-item step.

Each result names the step, says why in one sentence with the numbers (``why``), and lists the ``cells`` to
highlight in both traces (tokens, n-gram orders, references, the BP or the score).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from explainer.dialectcmp.tokdiff import describe, first_token_diff, quote

__all__ = ["BLEU_STEPS", "ROUGE_STEPS", "ROUGE_CORPUS_STEPS", "Divergence", "bleu_divergence",
           "rouge_divergence", "rouge_corpus_divergence"]

BLEU_STEPS = ("tokens", "counts", "totals", "ref_length", "smoothing", "brevity_penalty", "combination", "scale")
ROUGE_STEPS = ("tokens", "stemming", "overlap", "lcs", "multi_ref", "f_measure", "scale")
ROUGE_CORPUS_STEPS = ROUGE_STEPS[:-1] + ("aggregation", "scale")

REL_TOL = 1e-9      # the project's tolerance: values closer than this are "the same number"


def _same(x, y) -> bool:
    if x is None or y is None:
        return x is y
    return math.isclose(float(x), float(y), rel_tol=REL_TOL, abs_tol=1e-12)


def _f(x) -> str:
    if x is None:
        return "—"
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) < 1e6):
        return str(int(x))
    return f"{x:.4g}" if abs(x) >= 1e-3 or x == 0 else f"{x:.3g}"


@dataclass
class Divergence:
    a: str
    b: str
    first_step: str | None
    why: str
    cells: list[dict] = field(default_factory=list)
    segment: int | None = None          # corpus: 0-based segment / item where it shows

    def to_dict(self) -> dict:
        d = {"a": self.a, "b": self.b, "first_step": self.first_step, "why": self.why, "cells": self.cells}
        if self.segment is not None:
            d["segment"] = self.segment
        return d


# ================================================================================================ BLEU
def _bleu_texts(trace) -> list[tuple[str, Any]]:
    """(name, BleuText) for the candidate and each reference of a segment trace."""
    out = [("candidate", trace.candidate)]
    n = len(trace.references)
    out += [(f"reference {k + 1}" if n > 1 else "reference", r) for k, r in enumerate(trace.references)]
    return out


def _token_cells(side: str, text_index: int, idx, segment: int | None, all_idx=None) -> dict:
    """A token cell: ``indices`` = the first differing stretch (the one ``why`` describes), ``all`` = every token
    of the text in some differing stretch."""
    d = {"kind": "token", "side": side, "text": "candidate" if text_index == 0 else "reference",
         "ref": None if text_index == 0 else text_index - 1, "indices": list(idx),
         "all": list(all_idx if all_idx is not None else idx)}
    if segment is not None:
        d["segment"] = segment
    return d


def _texts_words(names: list[str], n: int) -> str:
    listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    return f"all {n} texts ({listed})" if len(names) == n else f"{len(names)} of the {n} texts ({listed})"


def _token_step(ta, tb, tokens_of, la: str, lb: str, segment: int | None = None) -> Divergence | None:
    """The tokens step over every text of a segment: the sentence describes the first text whose tokens differ
    and says which other texts differ too; every differing text gets its token cells (the view marks each)."""
    diffs = []
    for k, ((name, xa), (_, xb)) in enumerate(zip(ta, tb)):
        sa, sb = tokens_of(xa), tokens_of(xb)
        diff = first_token_diff(sa, sb)
        if diff is not None:
            diffs.append((k, name, sa, sb, diff))
    if not diffs:
        return None
    _, name, sa, sb, diff = diffs[0]
    why = describe(diff, sa, sb, la, lb, name)
    if len(diffs) > 1:
        why += f" ({_texts_words([x[1] for x in diffs], len(ta))} are tokenized differently; each is marked)"
    cells = []
    for k, _, _, _, d in diffs:
        cells += [_token_cells("a", k, range(d.a_start, d.a_end), segment, d.a_all),
                  _token_cells("b", k, range(d.b_start, d.b_end), segment, d.b_all)]
    return Divergence("", "", "tokens", why, cells, segment)


def _bleu_token_step(a, b, la, lb, segment=None) -> Divergence | None:
    return _token_step(_bleu_texts(a), _bleu_texts(b), lambda x: list(x.token_texts), la, lb, segment)


def _orders(trace):
    return trace.combination.orders


def _eff_precision(o) -> float:
    # the textbook keeps p = 0 but takes log(max(p, 1e-10)): the value that enters the log is the floor
    if o.smoothing.startswith("floor-"):
        return max(o.precision, float(o.smoothing.split("-", 1)[1]))
    return o.precision


def _consequence(a, b) -> str:
    """What a token difference leads to: the first order whose matches differ, else the lengths."""
    oa, ob = _orders(a), _orders(b)
    for x, y in zip(oa, ob):
        if x.matches != y.matches:
            return f"{x.n}-gram matches {_f(x.matches)} vs {_f(y.matches)}"
    for x, y in zip(oa, ob):
        if x.totals != y.totals:
            return f"{x.n}-gram totals {_f(x.totals)} vs {_f(y.totals)}"
    ca, cb = a.combination, b.combination
    if ca.c != cb.c:
        return f"candidate length {ca.c} vs {cb.c}"
    if ca.r != cb.r:
        return f"reference length {ca.r} vs {cb.r}"
    return "the counts stay the same"


_RULE_WORDS = {"closest": "the closest reference length (ties to the shorter)",
               "shortest": "the shortest reference",
               "first-closest": "the closest reference length (ties to the first listed)"}


def _ref_rule(trace) -> str:
    rl = getattr(trace, "ref_length", None)
    if rl is None:
        return ""
    return _RULE_WORDS.get(rl.rule, rl.rule)


def _bleu_after_tokens(a, b, la: str, lb: str, segment_stats=None) -> Divergence:
    """Steps counts .. scale on two traces whose tokens agree (segment or corpus combinations)."""
    for step in (_bleu_counts_step, _bleu_totals_step, _bleu_ref_length_step, _bleu_smoothing_step,
                 _bleu_bp_step, _bleu_score_step):
        d = step(a, b, la, lb, segment_stats)
        if d is not None:
            return d
    return Divergence("", "", None, f"identical at every step (score {_f(a.combination.score)})")


def _pairs_of_orders(a, b):
    oa, ob = a.combination.orders, b.combination.orders
    return list(zip(oa, ob))


def _one_reference_words(trace, label: str) -> str:
    """How a trace that keeps one reference's statistics (GLEU) clips, or "" for the usual clipping."""
    pick = getattr(trace, "reference_pick", None)
    if pick is None or pick.index is None:
        return ""
    return (f"; {label} clips each n-gram against reference {pick.index + 1} alone (the reference it keeps: the "
            "best min(precision, recall)), not against its largest count in any reference")


def _bleu_counts_step(a, b, la, lb, _stats) -> Divergence | None:
    for x, y in _pairs_of_orders(a, b):
        if not _same(x.matches, y.matches):
            return Divergence("", "", "counts",
                              f"{x.n}-gram matches (clipped) {_f(x.matches)} ({la}) vs {_f(y.matches)} ({lb})"
                              + _one_reference_words(a, la) + _one_reference_words(b, lb),
                              [{"kind": "order", "n": x.n, "field": "matches"}])
    return None


def _bleu_totals_step(a, b, la, lb, _stats) -> Divergence | None:
    c = a.combination.c
    for x, y in _pairs_of_orders(a, b):
        if _same(x.totals, y.totals):
            continue
        n = x.n
        why = (f"{n}-gram totals {_f(x.totals)} ({la}) vs {_f(y.totals)} ({lb}): the candidate has "
               f"{c} token{'s' if c != 1 else ''}")
        rule = {la: getattr(a, "totals_rule", ""), lb: getattr(b, "totals_rule", "")}
        nl = [k for k, v in rule.items() if v and "max(1" in v]
        if nl:
            why += f"; {nl[0]} counts at least 1 candidate {n}-gram per sentence (max(1, c − n + 1))"
        return Divergence("", "", "totals", why, [{"kind": "order", "n": n, "field": "totals"}])
    return None


def _bleu_ref_length_step(a, b, la, lb, segment_stats) -> Divergence | None:
    ca, cb = a.combination, b.combination
    if ca.r == cb.r:
        return None
    ra, rb = _ref_rule(a), _ref_rule(b)
    if ra and rb and ra != rb:
        why = f"{la} takes {ra} (r = {ca.r}), {lb} {rb} (r = {cb.r}); c = {ca.c}"
    else:
        why = f"r = {ca.r} ({la}) vs r = {cb.r} ({lb}) for c = {ca.c}"
    if segment_stats:
        why += segment_stats
    cells = [{"kind": "ref_length"}]
    for side, t in (("a", a), ("b", b)):
        rl = getattr(t, "ref_length", None)
        if rl is not None:
            cells.append({"kind": "reference", "side": side, "refs": list(rl.chosen)})
    return Divergence("", "", "ref_length", why, cells)


def _bleu_smoothing_step(a, b, la, lb, _stats) -> Divergence | None:
    """The precision that enters the log, per order."""
    for x, y in _pairs_of_orders(a, b):
        if not _same(_eff_precision(x), _eff_precision(y)):
            why = (f"{x.n}-gram precision ({_f(x.matches)}/{_f(x.totals)} matched): {la} uses {x.formula} "
                   f"({x.reason}); {lb} uses {y.formula} ({y.reason})")
            return Divergence("", "", "smoothing", why, [{"kind": "order", "n": x.n, "field": "precision"}])
    return None


def _bleu_bp_step(a, b, la, lb, _stats) -> Divergence | None:
    ca, cb = a.combination, b.combination
    if _same(ca.bp, cb.bp):
        return None
    why = f"BP {_f(ca.bp)} ({la}: {ca.bp_formula}) vs {_f(cb.bp)} ({lb}: {cb.bp_formula})"
    for lab, c in ((la, ca), (lb, cb)):
        if c.library_error is not None:
            why += f"; {lab} raises {c.library_error.type}: {c.library_error.message} here"
    return Divergence("", "", "brevity_penalty", why, [{"kind": "bp"}])


def _bleu_score_step(a, b, la, lb, _stats) -> Divergence | None:
    """combination (the 0-1 score from the same precisions and BP), then scale (0-1 vs 0-100)."""
    ca, cb = a.combination, b.combination
    if not _same(ca.bleu, cb.bleu):
        why = f"0–1 score {_f(ca.bleu)} ({la}) vs {_f(cb.bleu)} ({lb}): " + _combination_why(ca, cb, la, lb)
        return Divergence("", "", "combination", why, [{"kind": "score", "field": "bleu"}])
    if not _same(ca.score, cb.score):
        why = (f"the same BLEU {_f(ca.bleu)}, reported as {_f(ca.score)} by {la} (0–{_f(ca.scale)} scale) and as "
               f"{_f(cb.score)} by {lb} (0–{_f(cb.scale)} scale)")
        return Divergence("", "", "scale", why, [{"kind": "score", "field": "score"}])
    return None


def _combination_why(ca, cb, la, lb) -> str:
    if len(ca.orders) != len(cb.orders):
        return f"{la} combines orders 1–{len(ca.orders)}, {lb} orders 1–{len(cb.orders)}"
    for lab, c in ((la, ca), (lb, cb)):
        if c.early_exit:
            return f"{lab}: {c.early_exit}"
    if ca.effective_order != cb.effective_order:
        return f"{la} averages {ca.effective_order} orders, {lb} {cb.effective_order} (effective order)"
    wa, wb = [round(w, 12) for w in ca.weights], [round(w, 12) for w in cb.weights]
    if wa != wb:
        return f"weights {[_f(w) for w in ca.weights]} ({la}) vs {[_f(w) for w in cb.weights]} ({lb})"
    for lab, c in ((la, ca), (lb, cb)):
        if c.library_error is not None:
            return f"{lab} raises {c.library_error.type}: {c.library_error.message} (score recorded as 0)"
    return (f"log-sum {_f(ca.log_sum)} vs {_f(cb.log_sum)}, geometric mean {_f(ca.geo_mean)} vs {_f(cb.geo_mean)}")


def bleu_divergence(a, b, la: str, lb: str, *, id_a: str = "", id_b: str = "") -> Divergence:
    """First divergence of two BLEU traces (``BleuTrace`` or ``BleuCorpusTrace``); ``la``/``lb`` are labels."""
    corpus = getattr(a, "n_segments", None) is not None
    if corpus:
        d = _bleu_corpus_tokens(a, b, la, lb)
        if d is None:
            d = _bleu_after_tokens(a, b, la, lb, _corpus_r_note(a, b))
    else:
        d = _bleu_token_step(a, b, la, lb)
        if d is not None:
            d.why += ": " + _consequence(a, b)
            if d.why.endswith("the counts stay the same"):
                nxt = _bleu_after_tokens(a, b, la, lb)
                d.why += (f"; the next difference is {nxt.first_step} ({nxt.why})" if nxt.first_step
                          else " and so does the score")
        else:
            d = _bleu_after_tokens(a, b, la, lb)
    d = _with_failures(d, _bleu_failures(a, b, la, lb), _bleu_failure_step)
    d.a, d.b = id_a or la, id_b or lb
    return d


# ------------------------------------------------------------------------------------ library failures
@dataclass
class _Failure:
    side: str           # "a" or "b"
    label: str
    type: str
    message: str
    explanation: str
    trace: Any = None
    what: str = ""      # ROUGE: the type that fails

    @property
    def words(self) -> str:
        what = f" on {self.what}" if self.what else ""
        s = f"{self.label} fails{what}: {self.type}: {self.message}"
        if self.explanation:
            s += f" ({self.explanation})"
        return s


def _bleu_failures(a, b, la, lb) -> list[_Failure]:
    out = []
    for side, t, lab in (("a", a, la), ("b", b, lb)):
        err = t.library_error or getattr(t.combination, "library_error", None)
        if err is not None:
            out.append(_Failure(side, lab, err.type, err.message, err.explanation, t))
    return out


def _bleu_failure_step(f: _Failure) -> tuple[str, list[dict]]:
    """The step a BLEU failure belongs to when every number before it agrees: the brevity penalty when a length
    is 0 (exp(1 − r/c) and c/r are where the libraries divide by zero), else the combination."""
    c = f.trace.combination
    if c.c == 0 or c.r == 0:
        return "brevity_penalty", [{"kind": "bp"}]
    return "combination", [{"kind": "score", "field": "bleu"}]


def _with_failures(d: Divergence, failures: list[_Failure], step_of) -> Divergence:
    """A real library that fails reports no number: that is a difference, whatever the steps before it say.
    The failure is the evidence: appended to ``why`` when an earlier step already differs, else it is the
    divergence (``step_of(failure)`` -> its step and the cells to highlight). Two sides failing the same way
    are the same."""
    if not failures:
        return d
    f0 = failures[0]
    if len(failures) == 2 and (f0.type, f0.message, f0.what) == (failures[1].type, failures[1].message,
                                                                 failures[1].what):
        same = f"both fail the same way ({f0.type}: {f0.message}) and report no score"
        d.why = f"identical: {same}" if d.first_step is None else f"{d.why}; {same}"
        return d
    cells = [{"kind": "error", "side": f.side, **({"type": f.what} if f.what else {})} for f in failures]
    tail = " — it reports no score" if len(failures) == 1 else " — neither reports a score"
    if d.first_step is None or d.first_step == "scale":
        step, step_cells = step_of(f0)
        why = "; ".join(f.words for f in failures) + tail
        return Divergence(d.a, d.b, step, why, cells + step_cells, d.segment)
    missing = [f for f in failures if f.message not in d.why]
    if missing:
        d.why += "; and " + "; ".join(f.words for f in missing) + tail
    d.cells += cells
    return d


def _bleu_corpus_tokens(a, b, la, lb) -> Divergence | None:
    from explainer.bleu import get_dialect

    da = get_dialect(a.dialect, **a.options)
    db = get_dialect(b.dialect, **b.options)
    for i in range(a.n_segments):
        sa, sb = a.segment(i), b.segment(i)
        texts_a = [sa.candidate.text] + [r.text for r in sa.references]
        if any(da.tokenize(t) != db.tokenize(t) for t in texts_a):
            d = _bleu_token_step(sa, sb, la, lb, segment=i)
            if d is not None:
                d.why = f"segment {i + 1}: {d.why}; corpus: {_consequence(a, b)}"
                return d
    return None


def _corpus_r_note(a, b) -> str:
    segs = [i for i, (x, y) in enumerate(zip(a.segment_stats, b.segment_stats)) if x[1] != y[1]]
    if not segs:
        return ""
    i = segs[0]
    return (f"; the corpus r is the sum over segments, and {len(segs)} segment(s) differ (first: segment {i + 1}, "
            f"r = {a.segment_stats[i][1]} vs {b.segment_stats[i][1]})")


# =============================================================================================== ROUGE
def _rouge_texts(trace) -> list[tuple[str, Any]]:
    out = [("candidate", trace.candidate)]
    n = len(trace.references)
    out += [(f"reference {k + 1}" if n > 1 else "reference", r) for k, r in enumerate(trace.references)]
    return out


def _rouge_kind(t: str) -> str:
    from explainer.rouge import parse_type

    return parse_type(t).kind


def _rouge_class(trace) -> type:
    from explainer.rouge import DIALECTS

    return DIALECTS[trace.dialect]


def _rounds(trace) -> int | None:
    """Decimals the implementation rounds its printed P and R to (ROUGE-1.5.5: 5), else None."""
    return _rouge_class(trace).printed_decimals


def rouge_divergence(a, b, la: str, lb: str, *, id_a: str = "", id_b: str = "", segment: int | None = None
                     ) -> Divergence:
    """First divergence of two ``RougeTrace``s over the types both computed."""
    d = _rouge_divergence(a, b, la, lb, segment)
    d = _with_failures(d, _rouge_failures(a, b, la, lb), _rouge_failure_step)
    d.a, d.b, d.segment = id_a or la, id_b or lb, segment
    return d


def _rouge_failures(a, b, la, lb) -> list[_Failure]:
    """ROUGE-1.5.5 dies on some inputs (-w with an empty reference): the first type each side dies on."""
    types = [t for t in a.types if t in b.types]
    out = []
    for side, tr, lab in (("a", a, la), ("b", b, lb)):
        t = next((t for t in types if getattr(tr.scores[t], "died", None)), None)
        if t is not None:
            s = tr.scores[t]
            out.append(_Failure(side, lab, "PerlDie", s.died, s.died_why or "", tr, t))
    return out


def _rouge_failure_step(f: _Failure) -> tuple[str, list[dict]]:
    step = "lcs" if _rouge_kind(f.what) in ("L", "Lsum", "W") else "overlap"
    return step, [{"kind": "type", "type": f.what, "field": "fmeasure"}]


def _rouge_divergence(a, b, la, lb, segment) -> Divergence:
    """The ROUGE steps in order: tokens (before stemming), stemming, overlap / lcs, multi_ref, f_measure, scale.
    When the tokens differ but no count does, the sentence goes on with the next step that differs."""
    types = [t for t in a.types if t in b.types]
    d = _rouge_token_step(a, b, la, lb, types)
    if d is None:
        return _rouge_after_tokens(a, b, la, lb, types, segment)
    if d.why.endswith("the counts stay the same"):
        nxt = _rouge_after_tokens(a, b, la, lb, types, segment, stemming=False)
        d.why += f"; the next difference is {nxt.first_step} ({nxt.why})" if nxt.first_step else " and so do the scores"
    return d


def _rouge_after_tokens(a, b, la, lb, types, segment, *, stemming: bool = True) -> Divergence:
    steps = ((_rouge_stem_step,) if stemming else ()) + (_rouge_count_step, _rouge_multi_ref_step, _rouge_prf_step)
    for step in steps:
        d = step(a, b, la, lb, types, segment)
        if d is not None:
            return d
    return Divergence("", "", None, "identical at every step (" + ", ".join(
        f"{t} F {_f(a.scores[t].fmeasure)}" for t in types[:4]) + ")")


def _rouge_token_step(a, b, la, lb, types) -> Divergence | None:
    """The tokens before stemming (the tokenizer: case, punctuation, characters dropped)."""
    d = _token_step(_rouge_texts(a), _rouge_texts(b), lambda x: list(x.tokenized.surface), la, lb)
    if d is not None:
        d.why += ": " + _rouge_consequence(a, b, types)
    return d


def _stem_words(surf, sa, sb, idx, la, lb) -> str:
    """The first three stemmed tokens, what each side compares."""
    parts = []
    for i in idx[:3]:
        pa = f"{quote(surf[i])} → {quote(sa[i])}" if sa[i] != surf[i] else f"{quote(surf[i])} unchanged"
        pb = f"{quote(sb[i])}" if sb[i] != surf[i] else "unchanged"
        parts.append(f"{pa} ({la}) vs {pb} ({lb})")
    return "; ".join(parts) + (f" and {len(idx) - 3} more" if len(idx) > 3 else "")


def _rouge_stem_step(a, b, la, lb, types, segment) -> Divergence | None:
    """The same tokens stemmed differently (or only on one side): every text where that happens is marked."""
    found = []
    for k, ((name, xa), (_, xb)) in enumerate(zip(_rouge_texts(a), _rouge_texts(b))):
        sa, sb = list(xa.tokenized.tokens), list(xb.tokenized.tokens)
        if sa != sb:
            found.append((k, name, list(xa.tokenized.surface), sa, sb,
                          [i for i, (p, q) in enumerate(zip(sa, sb)) if p != q]))
    if not found:
        return None
    _, name, surf, sa, sb, idx = found[0]
    why = f"stemming the {name}: " + _stem_words(surf, sa, sb, idx, la, lb)
    if len(found) > 1:
        why += f" ({_texts_words([x[1] for x in found], len(a.references) + 1)} are stemmed differently)"
    why += (f" — {la}: {a.stemmer or 'no stemmer'}; {lb}: {b.stemmer or 'no stemmer'}: "
            + _rouge_consequence(a, b, types))
    cells = [_token_cells(s, k, ix, segment) for k, *_, ix in found for s in ("a", "b")]
    return Divergence("", "", "stemming", why, cells)


def _rouge_count_step(a, b, la, lb, types, segment) -> Divergence | None:
    """overlap (ROUGE-N, S, SU) and lcs (L, Lsum, W): the counts against each reference."""
    for step, kinds in (("overlap", ("N", "S", "SU")), ("lcs", ("L", "Lsum", "W"))):
        for t in types:
            if _rouge_kind(t) not in kinds:
                continue
            for k, (pa, pb) in enumerate(zip(a.per_reference, b.per_reference)):
                x, y = pa[t], pb[t]
                if _same(x.hits, y.hits) and _same(x.ref_total, y.ref_total) and _same(x.cand_total, y.cand_total):
                    continue
                ref = f"reference {k + 1}" if len(a.per_reference) > 1 else "the reference"
                why = (f"{t} against {ref}: {_f(x.hits)} hits of {_f(x.ref_total)} reference / {_f(x.cand_total)} "
                       f"candidate units ({la}) vs {_f(y.hits)} of {_f(y.ref_total)} / {_f(y.cand_total)} ({lb})")
                if _rouge_kind(t) == "Lsum":
                    na, nb = _n_sents(a, k), _n_sents(b, k)
                    if na != nb:
                        why += (f"; {la} splits the texts into {na[0]} candidate / {na[1]} reference sentence(s), "
                                f"{lb} into {nb[0]} / {nb[1]}")
                return Divergence("", "", step, why, [{"kind": "type", "type": t, "ref": k, "field": "hits"}])
    return None


def _rouge_multi_ref_step(a, b, la, lb, types, segment) -> Divergence | None:
    """The same per-reference results, another reference kept (or the references pooled)."""
    if len(a.references) < 2:
        return None
    for t in types:
        ca, cb = a.chosen_reference.get(t), b.chosen_reference.get(t)
        if ca == cb:
            continue
        sa, sb = a.scores[t], b.scores[t]
        why = f"{t}: {_multi_words(a, t, la)}; {_multi_words(b, t, lb)} — F {_f(sa.fmeasure)} vs {_f(sb.fmeasure)}"
        cells = [{"kind": "type", "type": t, "field": "fmeasure"}]
        for side, c in (("a", ca), ("b", cb)):
            if c is not None:
                cells.append({"kind": "reference", "side": side, "refs": [c]})
        return Divergence("", "", "multi_ref", why, cells)
    return None


def _rouge_prf_step(a, b, la, lb, types, segment) -> Divergence | None:
    """f_measure (another F from the same P and R: formula or weighting), then scale (rounding), over all types."""
    found_scale = None
    for t in types:
        step = _prf_step(a, b, t)
        if step == "f_measure":
            return Divergence("", "", "f_measure", _f_measure_words(a, b, la, lb, t),
                              [{"kind": "type", "type": t, "field": "fmeasure"}])
        if step == "scale" and found_scale is None:
            found_scale = t
    if found_scale is None:
        return None
    t = found_scale
    sa, sb = a.scores[t], b.scores[t]
    r = la if _rounds(a) else lb
    why = (f"{t}: {r} prints P, R and F rounded to 5 decimals (F from the rounded P and R): "
           f"R {sa.recall:.10g} vs {sb.recall:.10g}, F {sa.fmeasure:.10g} vs {sb.fmeasure:.10g} ({la} vs {lb})")
    return Divergence("", "", "scale", why, [{"kind": "type", "type": t, "field": "recall"}])


def _f_measure_words(a, b, la, lb, t) -> str:
    sa, sb = a.scores[t], b.scores[t]
    if _alpha(a) != _alpha(b):
        return (f"{t}: the F weighting (alpha) {_alpha(a):g} ({la}) vs {_alpha(b):g} ({lb}): the same "
                f"P {_f(sa.precision)} and R {_f(sa.recall)} give F {_f(sa.fmeasure)} vs {_f(sb.fmeasure)} "
                f"({la}: {_f_rule(a)}; {lb}: {_f_rule(b)})")
    return (f"{t}: the same P {_f(sa.precision)} and R {_f(sa.recall)} give F {_f(sa.fmeasure)} ({la}: "
            f"{_f_rule(a)}) vs {_f(sb.fmeasure)} ({lb}: {_f_rule(b)})")


def _n_sents(trace, k: int) -> tuple[int, int]:
    c = trace.candidate.sentence_tokens or []
    r = trace.references[k].sentence_tokens or []
    return sum(1 for s in c if s), sum(1 for s in r if s)


def _multi_words(trace, t: str, label: str) -> str:
    c = trace.chosen_reference.get(t)
    pooled = trace.pooled.get(t)
    if c is None and pooled:
        return (f"{label} pools the {pooled.get('references')} references (R = {_f(pooled.get('hits'))}/"
                f"{_f(pooled.get('ref_total'))})")
    rule = {"best-f": "the highest F", "best-recall": "the highest recall", "pool": "pooled"}.get(
        trace.multi_ref, trace.multi_ref)
    return f"{label} keeps reference {(c or 0) + 1} ({rule})"


def _f_rule(trace) -> str:
    return _rouge_class(trace).f_rule(trace.options)


def _alpha(trace) -> float:
    """The F weighting: F = PR/((1−α)P + αR); α = 0.5 is F1 (ROUGE-1.5.5 -p sets it)."""
    return _rouge_class(trace).f_alpha(trace.options)


def _prf_step(a, b, t) -> str | None:
    """None (same P, R, F), "f_measure" (F differs beyond what rounding explains: another formula or another
    weighting alpha) or "scale" (rounding only)."""
    sa, sb = a.scores[t], b.scores[t]
    if _same(sa.precision, sb.precision) and _same(sa.recall, sb.recall) and _same(sa.fmeasure, sb.fmeasure):
        return None
    if _alpha(a) != _alpha(b) and not _same(sa.fmeasure, sb.fmeasure):
        return "f_measure"
    if _rounds(a) or _rounds(b):
        if _round5(sa.precision) == _round5(sb.precision) and _round5(sa.recall) == _round5(sb.recall):
            fa, fb = _harmonised_f(a, b, sa), _harmonised_f(b, a, sb)
            return "scale" if abs(fa - fb) <= 1.5e-5 else "f_measure"
    if _same(sa.precision, sb.precision) and _same(sa.recall, sb.recall):
        return "f_measure"
    return "f_measure" if abs(sa.fmeasure - sb.fmeasure) > 1e-5 else "scale"


def _harmonised_f(t, other, s) -> float:
    """F as the rounding implementation would print it, for a comparison across rounding."""
    if _rounds(t):
        return s.fmeasure
    # the other one rounds: apply its rule (F from the 5-decimal P and R, alpha of that implementation)
    alpha = float(other.options.get("alpha", 0.5)) if _rounds(other) else 0.5
    p, r = _round5(s.precision), _round5(s.recall)
    den = (1 - alpha) * p + alpha * r
    return _round5(p * r / den) if den > 0 else 0.0


def _round5(x: float) -> float:
    """ROUGE-1.5.5's ``sprintf("%7.5f")`` read back as a number."""
    return float("%.5f" % x)


def _rouge_consequence(a, b, types) -> str:
    for t in types:
        for k, (pa, pb) in enumerate(zip(a.per_reference, b.per_reference)):
            x, y = pa[t], pb[t]
            if not (_same(x.hits, y.hits) and _same(x.ref_total, y.ref_total) and _same(x.cand_total, y.cand_total)):
                ref = f" (reference {k + 1})" if len(a.per_reference) > 1 else ""
                return (f"{t} hits {_f(x.hits)} vs {_f(y.hits)}, candidate units {_f(x.cand_total)} vs "
                        f"{_f(y.cand_total)}{ref}")
    return "the counts stay the same"


# ------------------------------------------------------------------------------------------ ROUGE corpus
#: items whose scores differ that the corpus divergence examines in full (each needs two full traces)
MAX_ITEMS_EXAMINED = 10


def rouge_corpus_divergence(a, b, la: str, lb: str, item_traces, *, id_a: str = "", id_b: str = "") -> Divergence:
    """Corpus: the earliest step among the items whose scores differ (the first ``MAX_ITEMS_EXAMINED`` of them
    are examined with full traces, built by ``item_traces(i)``); when every item agrees, the aggregation
    (bootstrap median, bootstrap mean, plain mean)."""
    types = [t for t in a.types if t in b.types]
    differing = [i for i, (sa, sb) in enumerate(zip(a.item_scores, b.item_scores))
                 if not all(_same(sa[t].precision, sb[t].precision) and _same(sa[t].recall, sb[t].recall)
                            and _same(sa[t].fmeasure, sb[t].fmeasure) for t in types)]
    best = None
    for i in differing[:MAX_ITEMS_EXAMINED]:
        xa, xb = item_traces(i)
        d = rouge_divergence(xa, xb, la, lb, id_a=id_a, id_b=id_b, segment=i)
        if d.first_step is not None and (best is None or ROUGE_CORPUS_STEPS.index(d.first_step)
                                         < ROUGE_CORPUS_STEPS.index(best.first_step)):
            best = d
        if best is not None and best.first_step == "tokens":
            break
    if best is not None:
        note = ""
        if len(differing) > 1:
            seen = min(len(differing), MAX_ITEMS_EXAMINED)
            note = (f" ({len(differing)} items score differently; the earliest step among the first {seen} of them "
                    "is shown)")
        best.why = f"item {best.segment + 1}: {best.why}{note}"
        return best
    desc_a, desc_b = a.aggregation, b.aggregation
    for t in types:
        ma, mb = _mid(a.aggregate.get(t)), _mid(b.aggregate.get(t))
        if ma is None or mb is None or _same(ma, mb):
            continue
        why = (f"every item scores the same, but {t} F aggregates to {_f(ma)} ({la}: {desc_a.get('method')}) vs "
               f"{_f(mb)} ({lb}: {desc_b.get('method')})")
        return Divergence(id_a or la, id_b or lb, "aggregation", why,
                          [{"kind": "type", "type": t, "field": "fmeasure"}])
    return Divergence(id_a or la, id_b or lb, None, "identical on every item and in the aggregate")


def _mid(v):
    if isinstance(v, dict):
        v = v.get("mid")
    if isinstance(v, list):
        return sum(v) / len(v) if v else 0.0
    return getattr(v, "fmeasure", None)
