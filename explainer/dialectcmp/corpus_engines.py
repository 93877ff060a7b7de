"""Scoring many configurations of one corpus (a system output and its reference streams), sharing the work.

BLEU: every text is tokenized once per tokenization (the dialect's ``tokenization_key``) and its n-grams
(orders 1-4) counted once; a tokenization that gives the same tokens as one already counted (zh on
text without Chinese, ...) reuses its counts. Per tokenization, one pass over the candidates' n-grams gives the
clipped matches of every reference subset at once (per n-gram the count in each reference, the subset's maximum).
Each configuration then applies only its own rules, on the summed statistics: the reference length of each
segment (``ref_length_fast``), the totals (``segment_total``), ``check_inputs`` and ``combine`` over the corpus
sums — the calls ``explainer.bleu.score_bleu_corpus`` makes (``algorithm.score_corpus``). Reference lengths and
totals are shared by the configurations whose hooks give the same numbers on a fixed set of probes (e.g. every
sacreBLEU smoothing and order).

ROUGE: each text is prepared once per dialect and token options, each type scored once per reference and item
(``score_type``), each multi-reference rule and subset combines those per item (``combine``); the corpus value
is the dialect's own aggregation (``aggregate``) of the per-item scores, computed exactly only for the
configurations whose plain mean is near the claim (the bootstrap aggregations are within a few thousandths of
the mean), the mean itself for the rest.

Every value reported is checked against ``python -m explainer bleu|rouge --hyp ... --ref ...`` with the match's
arguments in the tests (tests/test_reproduce_corpus.py).
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Sequence

from explainer.dialectcmp.engines import BleuResult

__all__ = ["CorpusBleuEngine", "CorpusRougeEngine", "corpus_subsets", "rouge155_average"]

_PROBES_R = ((5, (4, 6)), (5, (6, 4)), (5, (3, 8)), (5, (8, 3)), (5, (7,)), (0, (3,)), (5, (5, 9)), (10, (4, 12)),
             (10, (12, 4)), (1, (0, 2)), (3, (2, 4)), (3, (4, 2)), (7, (9, 5, 2)))


_PROBE_TEXT = ("The Running cats, café's e-mail at 3.5% -- NOT the U.S.A.'s \"best\"; caring flies!\n"
               "Second line: a the of and studies 2023.  Über straße")


def corpus_subsets(n: int) -> list[tuple[tuple, float, str]]:
    """(reference indices, cost, words): all references, each single one, each pair (each triple, ... for more
    than three references), simplest first. A test set's corpus score is often computed against one of its
    references (WMT's reference A): a single reference costs less here than for one segment, where dropping
    references is a mistake more often than a choice."""
    out = [(tuple(range(n)), 0.0, "")]
    if n > 1:
        out.append(((0,), 0.5, "the first reference only"))
        out += [((k,), 0.75, f"reference {k + 1} only") for k in range(1, n)]
        for size in range(2, n):
            for sub in combinations(range(n), size):
                out.append((sub, 1.0 + 0.1 * size, "references " + ", ".join(str(k + 1) for k in sub)))
    return out


def _ngram_sets(toks: list[str]) -> list[tuple[set, dict | None]]:
    """Per order 1..4: (the set of distinct n-grams, {n-gram: count - 1} for the n-grams seen more than once, or
    None). A clipped count is then ``|H ∩ R|`` (set intersection, in C) plus the clipped counts of the repeated
    n-grams less one: min(h, r) - 1 = min(h - 1, r - 1) for h, r >= 1."""
    out = []
    for grams in (toks, list(zip(toks, toks[1:])), list(zip(toks, toks[1:], toks[2:])),
                  list(zip(toks, toks[1:], toks[2:], toks[3:]))):
        st = set(grams)
        if len(st) == len(grams):
            out.append((st, None))
        else:
            out.append((st, {g: c - 1 for g, c in Counter(grams).items() if c > 1}))
    return out


def _clipped(h: tuple, refs: list[tuple]) -> int:
    """Σ over the candidate's n-grams of min(count, the largest count in ``refs``), from ``_ngram_sets``."""
    hs, hm = h
    if len(refs) == 1:
        rs, rm = refs[0]
        n = len(hs & rs)
        if hm and rm:
            n += _clipped((hm.keys(), _multi(hm)), [(rm.keys(), _multi(rm))])
        return n
    union = set()
    for rs, _ in refs:
        union |= rs
    n = len(hs & union)
    if hm:
        ms = [(rm.keys(), _multi(rm)) for _, rm in refs if rm]
        if ms:
            n += _clipped((hm.keys(), _multi(hm)), ms)
    return n


def _multi(m: dict) -> dict | None:
    """The counts less one of the n-grams of a ``{n-gram: count - 1}`` seen more than once there."""
    out = {g: c - 1 for g, c in m.items() if c > 1}
    return out or None


class CorpusBleuEngine:
    """Candidates, their references (the same number per segment); ``score(dialect, options, subset)``."""

    MAX_ORDER = 4

    def __init__(self, candidates: Sequence[str], references: Sequence[Sequence[str]], subsets) -> None:
        self.candidates = list(candidates)
        self.references = [list(r) for r in references]
        self.n_refs = len(self.references[0]) if self.references else 0
        self.subsets = [s for s, _, _ in subsets]
        self._dialects: dict = {}
        self._tokens: dict = {}
        self._by_tokens: dict = {}      # fingerprint of the tokens -> the key whose statistics they share
        self._stats: dict = {}          # tk -> (c per segment, ref lengths per segment, {subset: matches[4]})
        self._lens: dict = {}
        self._checks: dict = {}

    def dialect(self, name: str, opts: dict):
        from explainer.bleu import get_dialect

        key = (name, tuple(sorted(opts.items())))
        d = self._dialects.get(key)
        if d is None:
            d = self._dialects[key] = get_dialect(name, **opts)
        return d

    def tokens(self, tk: tuple, d):
        t = self._tokens.get(tk)
        if t is None:
            tok = d.tokenize
            t = self._tokens[tk] = ([tok(h) for h in self.candidates],
                                    [[tok(r) for r in refs] for refs in self.references])
        return t

    def _statistics(self, tk: tuple, d):
        s = self._stats.get(tk)
        if s is not None:
            return s
        hyp_toks, ref_toks = self.tokens(tk, d)
        fp = hash((tuple(map(tuple, hyp_toks)), tuple(tuple(map(tuple, r)) for r in ref_toks)))
        same = self._by_tokens.get(fp)
        if same is not None and self._tokens[same] == (hyp_toks, ref_toks):
            s = self._stats[tk] = self._stats[same]
            return s
        self._by_tokens[fp] = tk
        sums = {sub: [0, 0, 0, 0] for sub in self.subsets}
        subsets = self.subsets
        for ht, rts in zip(hyp_toks, ref_toks):
            hc = _ngram_sets(ht)
            rcs = [_ngram_sets(r) for r in rts]
            for n in range(4):
                h = hc[n]
                if not h[0]:
                    continue
                rn = [rc[n] for rc in rcs]
                for sub in subsets:
                    sums[sub][n] += _clipped(h, [rn[k] for k in sub])
        c = [len(t) for t in hyp_toks]
        lens = [tuple(len(t) for t in rts) for rts in ref_toks]
        s = self._stats[tk] = (c, lens, sums)
        return s

    def _fingerprint(self, d) -> tuple:
        """What a dialect's reference-length and totals hooks give on fixed probes (configurations with the same
        fingerprint and tokenization share the per-segment sums)."""
        return (type(d).ref_length_fast, type(d).segment_total,
                tuple(d.ref_length_fast(c, lens) for c, lens in _PROBES_R),
                tuple(d.segment_total(c, n) for c in range(6) for n in range(1, 5)))

    def _length_sums(self, tk, d, subset) -> tuple[int, int, list[int]]:
        """(sum of c, sum of r, totals of orders 1..4) over the corpus for a subset."""
        key = (tk, subset, self._fingerprint(d))
        v = self._lens.get(key)
        if v is None:
            c, lens, _ = self._statistics(tk, d)
            rl = d.ref_length_fast
            r = sum(rl(ci, tuple(li[k] for k in subset)) for ci, li in zip(c, lens))
            counts = Counter(c)
            st = d.segment_total
            totals = [sum(k * st(ci, n) for ci, k in counts.items()) for n in range(1, 5)]
            v = self._lens[key] = (sum(c), r, totals)
        return v

    def score(self, name: str, opts: dict, subset: tuple) -> BleuResult:
        """The numbers ``score_bleu_corpus(candidates, [[refs[k] for k in subset] ...], dialect=name, **opts)``
        gives; ``error`` is set where the real library fails (it then reports no number at all)."""
        d = self.dialect(name, opts)
        N = d.max_order
        if N > self.MAX_ORDER:
            raise ValueError(f"the search counts n-grams up to order {self.MAX_ORDER}")
        if d.per_reference:
            return self._per_reference_score(d, subset)
        tk = d.tokenization_key()         # configurations with the same key tokenize every text identically
        _, _, sums = self._statistics(tk, d)
        c, r, totals = self._length_sums(tk, d, subset)
        # what the library refuses before scoring concerns the inputs (no candidate, no reference, an empty text):
        # the same for every configuration of one dialect class, tokenization and subset
        ck = (type(d).check_inputs, tk, subset)
        chk = self._checks.get(ck)
        if chk is None:
            refs = [[rs[k] for k in subset] for rs in self.references]
            chk = self._checks[ck] = d.check_inputs(self.candidates, refs, corpus=True)
        warns, err = chk
        ctx = None
        if d.needs_last_segment:
            hyp_toks, ref_toks = self.tokens(tk, d)
            ctx = d.last_segment_context(hyp_toks[-1], [ref_toks[-1][k] for k in subset])
        comb = d.combine(c, r, sums[subset][:N], totals[:N], ctx, n_segments=len(self.candidates))
        score, bleu = comb.score, comb.bleu
        if err is not None and (score != 0.0 or bleu != 0.0):
            score = bleu = 0.0
        return BleuResult(score, bleu, comb.bp, [o.precision for o in comb.orders], err or comb.library_error)


    def _per_reference_score(self, d, subset: tuple) -> BleuResult:
        """A dialect keeping one reference's statistics per segment (GLEU): the core's own corpus statistics over
        the subset (its per-reference choice does not decompose into the shared per-subset sums)."""
        from explainer.bleu.algorithm import score_corpus

        st = score_corpus(d, self.candidates, [[rs[k] for k in subset] for rs in self.references])
        return BleuResult(st.score, st.bleu, st.bp, list(st.precisions), st.library_error)


class CorpusRougeEngine:
    """Candidates and their references; per configuration (dialect, token options, types) the per-reference
    results of every item once, then any multi-reference rule over any subset, then the dialect's aggregation."""

    def __init__(self, candidates: Sequence[str], references: Sequence[Sequence[str]]) -> None:
        self.candidates = list(candidates)
        self.references = [list(r) for r in references]
        self._per_ref: dict = {}
        self._texts: dict = {}

    def per_reference(self, name: str, opts: dict, types: Sequence[str]):
        """(name, opts, types, {type: RougeType}, per item [per reference {type: result}])."""
        from explainer.rouge.engine import bind_dialect

        key = (name, tuple(sorted(opts.items())), tuple(types))
        hit = self._per_ref.get(key)
        if hit is not None:
            return hit
        d = bind_dialect(name, list(types), corpus=True, **opts)
        cands, refs = self._prepared(d)
        score = d.score_type
        items = [[{rt.name: score(rt, cp, rp, full=False) for rt in d.types} for rp in rps]
                 for cp, rps in zip(cands, refs)]
        hit = self._per_ref[key] = (name, dict(opts), list(types), {rt.name: rt for rt in d.types}, items)
        return hit

    def _prepared(self, d):
        """Every text as ``d`` prepares it, shared by the dialects that prepare a probe text identically."""
        need = d.needs_sentences
        probe = d.prepare(_PROBE_TEXT, need_sents=need, full=False)
        key = (type(d).prepare, need, tuple(probe.tokens), tuple(map(tuple, probe.sentence_tokens or ())))
        hit = self._texts.get(key)
        if hit is None:
            prep = d.prepare
            hit = self._texts[key] = ([prep(c, need_sents=need, full=False) for c in self.candidates],
                                      [[prep(r, need_sents=need, full=False) for r in rs] for rs in self.references])
        return hit

    def item_scores(self, prepared, rule: str, subset: tuple) -> dict:
        """{type: [Score per item]} under a multi-reference rule for a reference subset."""
        from explainer.rouge.engine import bind_dialect

        name, opts, types, rts, items = prepared
        d = bind_dialect(name, types, corpus=True, **dict(opts, multi_ref=rule))
        comb = d.combine
        return {t: [comb(rt, [per[k][t] for k in subset])[0] for per in items] for t, rt in rts.items()}

    def aggregate(self, name: str, opts: dict, rtype: str, scores: list) -> tuple[dict, tuple]:
        """({measure: (value, path in the CLI's JSON output)}, the --types of the command) for one type: the
        implementation's corpus value with the dialect's default types (a bootstrap's draws go on from type to
        type, so the type's place among them matters; the draws do not depend on the scores, so the other types
        enter as zeros)."""
        from explainer.rouge.engine import bind_dialect
        from explainer.rouge.scoring import Score

        d = bind_dialect(name, None, corpus=True, **opts)
        order = list(d.type_names)
        types: tuple = ()
        if rtype not in order:
            order, types = [rtype], (rtype,)
        zero = [Score(0.0, 0.0, 0.0)] * len(scores)
        probe = bind_dialect(name, order[:1], corpus=True, **opts).aggregate({order[0]: zero[:2]})[1]
        if _is_rouge155_average(probe):
            vals = {m: rouge155_average([float(getattr(s, m)) for s in scores]) for m in ("precision", "recall",
                                                                                           "fmeasure")}
            return {m: (v, ["aggregate", rtype, "mid", m]) for m, v in vals.items()}, types
        upto = order[:order.index(rtype) + 1]
        per_type = {t: (scores if t == rtype else zero) for t in upto}
        agg, _, _ = bind_dialect(name, upto, corpus=True, **opts).aggregate(per_type)
        a = agg[rtype]
        if isinstance(a, dict) and "mid" in a:
            return {m: (float(getattr(a["mid"], m)), ["aggregate", rtype, "mid", m])
                    for m in ("precision", "recall", "fmeasure")}, types
        return {m: (float(getattr(a, m)), ["aggregate", rtype, m]) for m in ("precision", "recall", "fmeasure")}, types


def _is_rouge155_average(desc: dict) -> bool:
    """ROUGE-1.5.5's Average over per-item values (-t 0) with the script's 1,000 resamples at 95 %."""
    return (str(desc.get("method", "")).startswith("bootstrap-mean (ROUGE-1.5.5)") and desc.get("counting") == 0
            and desc.get("n_samples") == 1000)


_DRAWS: dict = {}


def _perl_draws(n: int, n_resamples: int = 1000):
    """The items ROUGE-1.5.5 draws: resample i draws n with int(rand(n)) after srand(i) (Perl's drand48, as
    ``explainer.rouge.rouge155.bootstrap.Drand48``), all resamples at once."""
    import numpy as np

    hit = _DRAWS.get((n, n_resamples))
    if hit is not None:
        return hit
    mask = np.uint64((1 << 48) - 1)
    x = ((np.arange(n_resamples, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)) & mask
    mult, add = np.uint64(0x5DEECE66D), np.uint64(0xB)
    out = np.empty((n_resamples, n), dtype=np.int64)
    with np.errstate(over="ignore"):
        for j in range(n):
            x = (x * mult + add) & mask
            out[:, j] = (float(n) * (x.astype(np.float64) / float(1 << 48))).astype(np.int64)
    if len(_DRAWS) > 4:
        _DRAWS.clear()
    _DRAWS[(n, n_resamples)] = out
    return out


def rouge155_average(values: Sequence[float], n_resamples: int = 1000) -> float:
    """ROUGE-1.5.5's printed Average_X of per-item values (-t 0): the same draws and the same sequential sums as
    ``explainer.rouge.rouge155.bootstrap.bootstrap_average`` (np.cumsum adds in order), a thousand times faster."""
    import numpy as np

    from explainer.rouge.rouge155.bootstrap import perl_round5, sort_eval_keys

    n = len(values)
    if n == 0:
        return 0.0
    keys = sort_eval_keys([f"{i + 1}.X" for i in range(n)])
    rows = np.array([values[int(k.split(".")[0]) - 1] for k in keys], dtype=np.float64)
    sums = np.cumsum(rows[_perl_draws(n, n_resamples)], axis=1)[:, -1]
    samples = np.sort(sums / n)
    return perl_round5(float(np.cumsum(samples)[-1]) / n_resamples)
