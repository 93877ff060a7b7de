"""ROUGE-1.5.5.pl's scoring without Perl, every step recorded.

One *evaluation* is one peer (candidate) against its models (references), as the script's
``computeROUGEX`` sees it. ``evaluate`` returns, per metric, the printed R/P/F (5 decimals, F from the
already rounded P and R), the ``-t 2`` counts, and the steps behind them: per-reference n-gram tables,
union-LCS hit masks with the unigram budgets, ROUGE-W runs, skip-bigram tables, and which reference
``-f B`` kept. ``evaluate_corpus`` adds the bootstrap ``Average`` lines (``bootstrap``).

Algorithms: the LCS alignment is the shared core's ``explainer.rouge.lcs.lcs`` (its backtrace makes the
same choice as the script's ``markLCS``: diagonal on equal tokens, else up — drop a model token — unless
the left cell is strictly larger). ROUGE-W's weighted DP is the script's own greedy one (``wlcs_inner``:
a match always goes diagonal, even when skipping would score more), so it lives here.

Script deaths are part of the result: with ``-w``, a reference without tokens makes the real script die
("Illegal division by zero at ROUGE-1.5.5.pl line 2450.") after it printed ROUGE-N and ROUGE-L; the result
then has ``died`` set, keeps the metrics printed before the death and explains why.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from explainer.rouge.lcs import lcs_pairs as _core_lcs_pairs
from explainer.rouge.ngrams import ngram_counts as _core_ngram_counts
from explainer.rouge.rouge155.bootstrap import BootstrapResult, bootstrap_average, perl_round5, sort_eval_keys
from explainer.rouge.rouge155.options import Rouge155Options
from explainer.rouge.rouge155.text import PerlText, read_text
from explainer.rouge.skipgram import skip_bigrams as _core_skip_bigrams
from explainer.rouge.skipgram import su_unigrams as _core_su_unigrams
from explainer.rouge.wlcs import WLCS_TABLE_MAX_CELLS
from explainer.rouge.wlcs import f_inverse as _f_inverse
from explainer.rouge.wlcs import f_weight as _f_weight
from explainer.rouge.wlcs import wlcs as _core_wlcs

__all__ = [
    "MetricResult", "Evaluation", "CorpusResult", "evaluate", "evaluate_texts", "evaluate_corpus",
    "corpus_from_texts", "PerlDeath", "WLCS_DEATH", "wlcs_inner", "lcs_mask", "ngram_counts", "skip_bigram_counts",
    "clipped_hits", "perl_prf", "score_grams", "score_lcs", "lcs_for_model",
]

WLCS_DEATH = "Illegal division by zero at ROUGE-1.5.5.pl line 2450."


class PerlDeath(Exception):
    """The real script dies here (message as Perl prints it)."""

    def __init__(self, message: str, why: str):
        super().__init__(message)
        self.message = message
        self.why = why


# ------------------------------------------------------------------------------------------- primitives
def ngram_counts(tokens: Sequence[str], n: int) -> tuple[Counter, int]:
    """``createNGram``: multiset of n-grams over the joined text (across unit boundaries) and their number
    (the shared ``ngrams.ngram_counts``)."""
    return _core_ngram_counts(tokens, n), max(len(tokens) - n + 1, 0)


def skip_bigram_counts(tokens: Sequence[str], skip: int, unigrams: bool) -> tuple[Counter, int]:
    """``createSkipBigram``: pairs (t_i, t_j), i < j <= i+skip+1 (skip < 0: any j); with ``unigrams`` also
    t_i for i < len-1 — the script's loop stops before the last token, so the last token never counts.
    Uses the shared ``skipgram`` module (its ``su_last_token=False`` is exactly this quirk)."""
    c = _core_skip_bigrams(tokens, None if skip < 0 else skip)
    if unigrams:
        c = c + _core_su_unigrams(tokens, su_last_token=False)
    return c, sum(c.values())


def clipped_hits(model: Counter, peer: Counter) -> int:
    """``ngramScore``: Σ over model grams of min(peer count, model count)."""
    return sum(min(v, peer[g]) for g, v in model.items() if g in peer)


def lcs_mask(model_sentence: Sequence[str], peer_sentence: Sequence[str]) -> list[tuple[int, int]]:
    """(model position, peer position) pairs that ``lcs_inner`` + ``markLCS`` mark for one sentence pair."""
    if not model_sentence or not peer_sentence:
        return []
    return _core_lcs_pairs(model_sentence, peer_sentence)


def wlcs_inner(model: Sequence[str], peer: Sequence[str], weight: float, *,
               keep_table: bool = False) -> tuple[list[tuple[int, int]], float] | tuple[list, float, dict]:
    """``wlcs_inner`` + ``markLCS`` (the shared ``wlcs.wlcs``: rows = model tokens, a match always goes
    diagonal adding f(k+1) - f(k), else up when c[i-1][j] >= c[i][j-1], else left). Returns the marked
    (model, peer) pairs and the DP value c[m][n]; with ``keep_table`` also {"table": c, "run_table": k}, the
    script's two matrices (the weighted values and the length of the consecutive run ending in each cell)."""
    if not model or not peer:
        return ([], 0.0, {}) if keep_table else ([], 0.0)
    res = _core_wlcs(model, peer, weight, keep_table=keep_table)
    if keep_table:
        return res["pairs"], res["value"], {"table": res["table"], "run_table": res["run_table"]}
    return res["pairs"], res["value"]


def _pow(r: float, p: float) -> float:
    """Perl ``$r**$p`` (C pow); a clear ValueError where C's pow would return infinity (weights above
    wlcs.SAFE_WEIGHT on long texts)."""
    return _f_weight(float(r), p)


# ------------------------------------------------------------------------------------------------ results
@dataclass
class MetricResult:
    name: str  # "ROUGE-1", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4", ...
    kind: str  # N, L, W, S, SU
    R: float
    P: float
    F: float
    model_count: float  # -t 2 "R:" column: pooled (-f A) or chosen (-f B) model total
    peer_count: float  # -t 2 "P:" column
    hit_count: float  # -t 2 "F:" column
    per_reference: list[dict] = field(default_factory=list)
    chosen_reference: int | None = None  # -f B: index of the kept reference (None with -f A)
    selection_score: str = ""  # what -f B compared
    formula: dict = field(default_factory=dict)  # unrounded ratios and the rounding steps

    def to_dict(self) -> dict:
        return {
            "name": self.name, "kind": self.kind, "R": self.R, "P": self.P, "F": self.F,
            "counts": {"model_count": self.model_count, "peer_count": self.peer_count,
                       "hit_count": self.hit_count},
            "chosen_reference": self.chosen_reference, "selection_score": self.selection_score,
            "formula": self.formula, "per_reference": self.per_reference,
        }


@dataclass
class Evaluation:
    """One peer against its models, as the script evaluates it."""

    options: Rouge155Options
    peer: PerlText
    models: list[PerlText]
    metrics: dict[str, MetricResult]
    died: str | None = None  # Perl's message when the real script dies during this evaluation
    died_why: str | None = None
    died_metric: str | None = None  # the metric the script was computing when it died
    notes: list[str] = field(default_factory=list)

    def scores(self) -> dict[str, dict[str, float]]:
        return {k: {"R": m.R, "P": m.P, "F": m.F} for k, m in self.metrics.items()}

    def counts(self) -> dict[str, dict[str, float]]:
        return {k: {"model_count": m.model_count, "peer_count": m.peer_count, "hit_count": m.hit_count}
                for k, m in self.metrics.items()}

    def to_dict(self) -> dict:
        return {
            "dialect": "rouge155", "flags": self.options.flags(),
            "metrics": {k: m.to_dict() for k, m in self.metrics.items()},
            "died": self.died, "died_why": self.died_why, "died_metric": self.died_metric,
            "notes": list(self.notes),
            "peer": _text_dict(self.peer), "models": [_text_dict(t) for t in self.models],
        }


def _text_dict(t: PerlText) -> dict:
    return {
        "units": t.units, "tokens": [x.to_dict() for x in t.ngram_tokens],
        "lcs_units": [[x.token for x in u] for u in t.lcs_units],
        "stopwords_removed": [x.to_dict() for x in t.stopwords_removed],
        "non_ascii_chars": t.non_ascii_chars, "truncated": t.truncated,
    }


def perl_prf(hit: float, mcount: float, pcount: float, alpha: float, inverse=None) -> tuple[float, float, float, dict]:
    """The script's last step: R and P rounded with %7.5f, then F from the *rounded* P and R, rounded."""
    if mcount != 0:
        r_raw = hit / mcount
        if inverse:
            r_raw = inverse(r_raw)
        r = perl_round5(r_raw)
    else:
        r_raw, r = 0.0, 0.0
    if pcount != 0:
        p_raw = hit / pcount
        if inverse:
            p_raw = inverse(p_raw)
        p = perl_round5(p_raw)
    else:
        p_raw, p = 0.0, 0.0
    den = (1 - alpha) * p + alpha * r
    if den > 0:
        f_raw = (p * r) / den
        f = perl_round5(f_raw)
    else:
        f_raw, f = 0.0, 0.0
    return r, p, f, {"recall_unrounded": r_raw, "precision_unrounded": p_raw,
                     "f_from_rounded_p_r": f_raw, "alpha": alpha}


# ------------------------------------------------------------------------------------------------ metrics
def score_grams(name: str, kind: str, peer_c: Counter, peer_n: int, models: list[tuple[Counter, int]],
                 opts: Rouge155Options, detail: bool) -> MetricResult:
    total_hit = total_m = total_p = 0
    best = -1.0
    chosen = None
    per_ref = []
    for idx, (mc, mn) in enumerate(models):
        hit = clipped_hits(mc, peer_c)
        score = perl_round5(hit / mn) if mn != 0 else 0.0
        row = {"reference": idx, "hit": hit, "model_count": mn, "peer_count": peer_n, "recall_5dp": score}
        if detail:
            row["grams"] = _gram_table(mc, peer_c)
        per_ref.append(row)
        if opts.mode == "A":
            total_hit += hit
            total_m += mn
            total_p += peer_n
        elif score > best:
            best = score
            chosen = idx
            total_hit, total_m, total_p = hit, mn, peer_n
    r, p, f, formula = perl_prf(total_hit, total_m, total_p, opts.alpha)
    return MetricResult(name, kind, r, p, f, total_m, total_p, total_hit, per_ref, chosen,
                        "recall rounded to 5 decimals" if opts.mode == "B" else "", formula)


def _gram_table(model: Counter, peer: Counter) -> list[dict]:
    keys = list(dict.fromkeys(list(peer) + list(model)))
    return [{"gram": " ".join(g), "peer": peer.get(g, 0), "model": model.get(g, 0),
             "overlap": min(peer.get(g, 0), model.get(g, 0))} for g in keys]


def lcs_for_model(model_units: list[list[str]], peer_units: list[list[str]], model_budget: Counter,
                  peer_budget: Counter, weight: float | None, detail: bool) -> tuple[float, float, list]:
    """``lcs`` / ``wlcs``: per model sentence, union the marked positions over the peer sentences, then
    walk them left to right, counting a hit only while both unigram budgets are > 0 (and decrementing both).
    ROUGE-W adds f(run) for each run of consecutive counted positions; a refused position neither extends
    nor closes the current run, and a run still open at the end of the sentence is dropped (script quirk).
    Returns (hits, the model's length or weighted length, the per-sentence records).

    The per-sentence records use the core trace schema (docs/trace-schema-rouge.md: ``per_ref_sentence``
    of rougeLsum / rougeW) so the UI draws them like any other dialect's."""
    hit = 0.0 if weight is not None else 0
    base = 0.0 if weight is not None else 0
    sentences = []
    for si, ms in enumerate(model_units):
        base += len(ms) if weight is None else _pow(len(ms), weight)
        mask, per_peer = _mark_sentence(ms, peer_units, weight, detail)
        hit, steps, runs, open_run = _walk_budgets(hit, ms, mask, model_budget, peer_budget, weight, detail)
        if detail:
            sentences.append(_sentence_record(si, ms, mask, per_peer, steps, runs, open_run, weight))
    return hit, base, sentences


def _mark_sentence(ms: list[str], peer_units: list[list[str]], weight: float | None,
                   detail: bool) -> tuple[list[int], list[dict]]:
    """The model positions marked by the (weighted) LCS with each peer sentence, and the per-pair records."""
    mask = [0] * len(ms)
    per_peer: list[dict] = []
    if not ms:
        return mask, per_peer
    mset = set(ms)
    for pj, ps in enumerate(peer_units):
        tables = None
        wscore = 0.0
        if mset.isdisjoint(ps):  # no equal tokens: neither DP makes a diagonal move
            pairs = []
            if detail and weight is not None and ps and len(ms) * len(ps) <= WLCS_TABLE_MAX_CELLS:
                tables = {"table": [[0.0] * (len(ps) + 1) for _ in range(len(ms) + 1)],
                          "run_table": [[0] * (len(ps) + 1) for _ in range(len(ms) + 1)]}
        elif weight is None:
            pairs = lcs_mask(ms, ps)
        elif detail and len(ms) * len(ps) <= WLCS_TABLE_MAX_CELLS:
            pairs, wscore, tables = wlcs_inner(ms, ps, weight, keep_table=True)
        else:
            pairs, wscore = wlcs_inner(ms, ps, weight)
        for a, _ in pairs:
            mask[a] = 1
        if detail:
            rec = {"cand_sentence": pj, "pairs": [list(p) for p in pairs],
                   "ref_indices": [p[0] for p in pairs], "cand_indices": [p[1] for p in pairs]}
            if weight is None:
                rec["lcs_length"] = len(pairs)
            else:
                rec["wlcs"] = wscore
                if tables:
                    rec.update(tables)
            per_peer.append(rec)
    return mask, per_peer


def _walk_budgets(hit: float, ms: list[str], mask: list[int], model_budget: Counter, peer_budget: Counter,
                  weight: float | None, detail: bool) -> tuple[float, list[dict], list[int], int]:
    """The budget walk over one model sentence's marked positions, adding to the running ``hit`` (in the script's
    order of additions): (hits so far, steps, closed runs, open run)."""
    steps, runs = [], []
    run = 0
    n = len(ms)
    for j in range(n):
        if mask[j] != 1:
            continue
        t = ms[j]
        ok = model_budget.get(t, 0) > 0 and peer_budget.get(t, 0) > 0
        if detail:
            steps.append({"ref_index": j, "token": t, "cand_budget_before": peer_budget.get(t, 0),
                          "ref_budget_before": model_budget.get(t, 0), "counted": ok})
        if ok:
            if weight is None:
                hit += 1
            else:
                run += 1
                if (j + 1 < n and mask[j + 1] == 0) or j + 1 == n:
                    hit += _pow(run, weight)
                    runs.append(run)
                    run = 0
            model_budget[t] -= 1
            peer_budget[t] -= 1
    return hit, steps, runs, run


def _sentence_record(si: int, ms: list[str], mask: list[int], per_peer: list[dict], steps: list[dict],
                     runs: list[int], open_run: int, weight: float | None) -> dict:
    counted = [x["ref_index"] for x in steps if x["counted"]]
    entry = {"ref_sentence": si, "tokens": list(ms), "lcs_per_cand_sentence": per_peer,
             "union": [j for j in range(len(ms)) if mask[j]], "clipping": steps, "hits": len(counted),
             "clipped": [{"ref_index": x["ref_index"], "token": x["token"]} for x in steps if not x["counted"]]}
    if weight is not None:
        # dropped_open_run: counted positions whose run never closed (not scored); 0 when none
        entry.update(marked=entry["union"], counted=counted, runs=runs,
                     run_weights=[_pow(r, weight) for r in runs], dropped_open_run=open_run)
    return entry


def score_lcs(name: str, peer: PerlText, models: list[PerlText], opts: Rouge155Options, detail: bool,
               weight: float | None) -> MetricResult:
    peer_units = peer.lcs_sequences
    peer_budget0 = Counter(peer.tokens)
    peer_n = len(peer.tokens)
    f = (lambda x: _pow(x, weight)) if weight is not None else None
    finv = (lambda x: _f_inverse(x, weight)) if weight is not None else None
    total_hit = total_m = total_p = 0.0 if weight is not None else 0
    best = -1.0
    chosen = None
    per_ref = []
    for idx, model in enumerate(models):
        model_budget = Counter(model.tokens)
        peer_budget = Counter(peer_budget0)
        hit, base, sentences = lcs_for_model(model.lcs_sequences, peer_units, model_budget, peer_budget,
                                              weight, detail)
        if weight is None:
            score = hit / base if base > 0 else 0.0
            m_add, p_add = base, peer_n
        else:
            if base == 0:
                raise PerlDeath(WLCS_DEATH, f"reference {idx + 1} has no tokens after tokenization"
                                f"{' and stop-word removal' if opts.remove_stopwords else ''}: the script "
                                "divides its weighted LCS hits by the reference's weighted length, 0")
            score = finv(hit / base)
            m_add, p_add = f(base), f(peer_n)
        row = {"reference": idx, "hit": hit, "base": base, "model_count": m_add, "peer_count": p_add,
               "score": score}
        if detail:
            row["sentences"] = sentences
        per_ref.append(row)
        if opts.mode == "A":
            total_hit += hit
            total_m += m_add
            total_p += p_add
        elif score > best:
            best = score
            chosen = idx
            total_hit, total_m, total_p = hit, m_add, p_add
    r, p, fm, formula = perl_prf(total_hit, total_m, total_p, opts.alpha, finv)
    sel = ""
    if opts.mode == "B":
        sel = "raw LCS recall" if weight is None else "single-weighted ROUGE-W recall f^-1(hits / sum f(|r_i|))"
    if weight is not None:
        formula["weight"] = weight
        formula["recall_rule"] = "R = f^-1(hits / f(sum_i f(|r_i|))): the reference length is weighted twice"
    return MetricResult(name, "L" if weight is None else "W", r, p, fm, total_m, total_p, total_hit, per_ref,
                        chosen, sel, formula)


# ------------------------------------------------------------------------------------------------- public
def evaluate_texts(peer: PerlText, models: list[PerlText], opts: Rouge155Options = Rouge155Options(), *,
                   detail: bool = True) -> Evaluation:
    """Score one evaluation from already-read texts (see ``evaluate`` for strings)."""
    if not models:
        raise ValueError("ROUGE-1.5.5 needs at least one reference (model) per evaluation")
    metrics: dict[str, MetricResult] = {}
    ev = Evaluation(opts, peer, models, metrics)
    ptoks = peer.tokens
    mtoks = [m.tokens for m in models]
    for n in range(1, opts.n + 1):
        pc, pn = ngram_counts(ptoks, n)
        metrics[f"ROUGE-{n}"] = score_grams(f"ROUGE-{n}", "N", pc, pn, [ngram_counts(t, n) for t in mtoks],
                                             opts, detail)
    if opts.rouge_l:
        metrics["ROUGE-L"] = score_lcs("ROUGE-L", peer, models, opts, detail, None)
    if opts.w is not None:
        try:
            metrics[opts.w_name] = score_lcs(opts.w_name, peer, models, opts, detail, opts.w)
        except PerlDeath as d:
            ev.died, ev.died_why, ev.died_metric = d.message, d.why, opts.w_name
            ev.notes.append(f"the real script dies here because {d.why}; it printed the metrics above "
                            f"and nothing after {opts.w_name} (exit status 255)")
            return ev
    for name, uni in opts.skip_names():
        pc, pn = skip_bigram_counts(ptoks, opts.skip, uni)
        metrics[name] = score_grams(name, "SU" if uni else "S", pc, pn,
                                     [skip_bigram_counts(t, opts.skip, uni) for t in mtoks], opts, detail)
    _add_notes(ev)
    return ev


def _add_notes(ev: Evaluation) -> None:
    for label, t in [("candidate", ev.peer)] + [(f"reference {i + 1}", m) for i, m in enumerate(ev.models)]:
        if t.non_ascii_chars:
            ev.notes.append(
                f"{label}: {t.non_ascii_chars} non-ASCII character(s) became spaces (the script works on bytes "
                "and keeps only [A-Za-z0-9])" + (" — no token is left, so every score against it is 0"
                                                  if not t.ngram_tokens else ""))
        elif not t.ngram_tokens:
            ev.notes.append(f"{label}: no tokens (the script prints 'readText: ... -> empty text' when the "
                            "file has no line at all); its scores are 0")
        if t.truncated:
            ev.notes.append(f"{label}: {t.truncated}")
        if t.lcs_truncation_differs and ev.options.byte_limit:
            ev.notes.append(f"{label}: with -b the script cuts the ROUGE-L/W sentences differently from the "
                            "n-gram text (it never advances its byte counter in readText_LCS)")


def evaluate(candidate: str, references: Sequence[str], opts: Rouge155Options = Rouge155Options(), *,
             detail: bool = True) -> Evaluation:
    """One candidate against its references, each text read as an SPL file (one unit per non-empty line)."""
    if isinstance(references, str):
        raise TypeError("references must be a list of strings")
    to = opts.token_options
    return evaluate_texts(read_text(candidate, options=to), [read_text(r, options=to) for r in references],
                          opts, detail=detail)


@dataclass
class CorpusResult:
    options: Rouge155Options
    evaluations: dict[str, Evaluation]  # key "<evalID>.<peerID>" as the script builds it
    averages: dict[str, BootstrapResult]  # -t 0 / -t 1: the Average_R/P/F lines
    counts: dict[str, dict[str, int]]  # the -t 2 M_count / P_count / H_count lines (int() of the sums)
    died: str | None = None
    died_why: str | None = None
    died_metric: str | None = None

    def to_dict(self) -> dict:
        return {"flags": self.options.flags(), "averages": {k: v.to_dict() for k, v in self.averages.items()},
                "counts": self.counts, "died": self.died, "died_why": self.died_why,
                "died_metric": self.died_metric,
                "per_eval": {k: e.scores() for k, e in self.evaluations.items()}}


def evaluate_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]],
                    opts: Rouge155Options = Rouge155Options(), *, peer_id: str = "X",
                    eval_ids: Sequence[str] | None = None, detail: bool = False) -> CorpusResult:
    """One evaluation per candidate (eval ids 1..N, as ``-z SPL`` numbers the lines of a file list)."""
    if len(candidates) != len(references):
        raise ValueError(f"{len(candidates)} candidates but {len(references)} reference lists")
    to = opts.token_options
    evals: list[tuple[str, PerlText, list[PerlText]]] = []
    for i, (c, refs) in enumerate(zip(candidates, references)):
        eid = eval_ids[i] if eval_ids is not None else str(i + 1)
        if isinstance(refs, str):
            refs = [refs]
        evals.append((f"{eid}.{peer_id}", read_text(c, options=to), [read_text(r, options=to) for r in refs]))
    return corpus_from_texts(evals, opts, detail=detail)


def corpus_from_texts(evals: list[tuple[str, PerlText, list[PerlText]]], opts: Rouge155Options, *,
                      detail: bool = False) -> CorpusResult:
    results: dict[str, Evaluation] = {}
    died = died_why = died_metric = None
    for key, peer, models in evals:
        ev = evaluate_texts(peer, models, opts, detail=detail)
        results[key] = ev
        if ev.died and died is None:
            died, died_why, died_metric = ev.died, ev.died_why, ev.died_metric
    names = opts.metric_names()
    if died:  # the script computes metric by metric over all evaluations; it dies in the first W pass
        names = names[: names.index(died_metric)]
    averages: dict[str, BootstrapResult] = {}
    counts: dict[str, dict[str, int]] = {}
    keys = sort_eval_keys(results)
    for name in names:
        raw = {k: results[k].metrics[name] for k in keys}
        tot = [0.0, 0.0, 0.0]
        for k in keys:
            m = raw[k]
            tot[0] += m.model_count
            tot[1] += m.peer_count
            tot[2] += m.hit_count
        counts[name] = {"model_count": int(tot[0]), "peer_count": int(tot[1]), "hit_count": int(tot[2])}
        if opts.counting == 2:
            continue
        if opts.counting == 0:
            vals = {k: (raw[k].R, raw[k].P, raw[k].F) for k in keys}
        else:
            vals = {k: (raw[k].model_count, raw[k].peer_count, raw[k].hit_count) for k in keys}
        averages[name] = bootstrap_average(vals, n_resamples=opts.resamples, confidence=opts.confidence,
                                           mode=opts.counting, alpha=opts.alpha)
    return CorpusResult(opts, results, averages, counts, died, died_why, died_metric)
