"""chrF's reproduce search (a claim that names chrF / chrF++), over the chrF dialects' search space (each
dialect's ``search_configs``: sacreBLEU's word order, beta, lowercase, whitespace, eps smoothing; NLTK's beta and
whitespace). Each value is the dialect's native score (``python -m explainer chrf`` prints it as
``native_score``); the collector also tries it ×100 / ÷100. A corpus shares the statistics of the configurations
that count the same n-grams (``corpus_vectors``).
"""
from __future__ import annotations

from explainer.dialectcmp.space import SearchContext, family_space

__all__ = ["chrf_space", "search_chrf", "search_chrf_corpus", "corpus_vectors"]


def chrf_space(word_order: int | None = None, beta: float | None = None):
    """Every chrF configuration searched (``word_order`` / ``beta``: what the claim names, if anything): the chrF
    dialects' own ``search_configs``."""
    named = {k: v for k, v in (("word_order", word_order), ("beta", beta)) if v is not None}
    return family_space("chrf", SearchContext(named=named))


def search_chrf(col, cl, candidate: str, refs: list[str], subsets, tick=None) -> int:
    """Score every configuration of ``chrf_space`` on every reference subset into the collector ``col``
    (``explainer.dialectcmp.reproduction._Collector``). Returns the number of configurations."""
    from explainer.chrf import get_dialect
    from explainer.chrf.algorithm import candidate_stats, prepare_references

    space = chrf_space(cl.chrf_word_order, cl.chrf_beta)
    for i, sc in enumerate(space):
        d = get_dialect(sc.dialect, **sc.config.opts)
        for subset, sub_cost, sub_words in subsets:
            stats, _ = candidate_stats(d, candidate, prepare_references(d, [refs[k] for k in subset])[0])
            comb = d.corpus_combine([stats], stats) if d.corpus_rule == "mean" else d.combine(stats)
            col.n += 1
            col.add(d.metric_name, sc, subset, sub_cost, sub_words, "score", comb.score, d.scale)
        if tick is not None and i % 16 == 0:
            tick()
    return len(space)


# ------------------------------------------------------------------------------------------------ corpus
def corpus_vectors(d, candidates, references, subsets) -> dict:
    """Per reference subset, per segment, the statistics vector against each reference the library compares with
    (``effective_references`` of the subset's references): computed once for every configuration that counts the
    same n-grams (``counting_key``). Only integers are kept, no n-gram tables."""
    from explainer.chrf.algorithm import prepare_references

    out: dict = {tuple(s): [] for s, _, _ in subsets}
    for h, refs in zip(candidates, references):
        hyp = d.extract(d.prepare(h))
        cache: dict = {}
        for subset in out:
            eff, _ = d.effective_references([refs[k] for k in subset])
            vecs = []
            for r in eff:
                v = cache.get(r)
                if v is None:
                    v = cache[r] = _vector(d, hyp, prepare_references(d, [r])[0][0])
                vecs.append(v)
            out[subset].append(vecs)
    return out


def _vector(d, hyp, ref) -> list:
    (hc, hl), (rc, rl) = hyp, ref
    v: list = []
    for h, r, nh, nr in zip(hc, rc, hl, rl):
        v.extend(d.order_stats(h, r, nh, nr))
    return v


def _corpus_score(d, per_segment: list) -> float:
    kept = []
    for vecs in per_segment:
        kept.append(vecs[0] if len(vecs) == 1 else vecs[d.select_reference([d.f_score(v) for v in vecs])])
    summed = [sum(col) for col in zip(*kept)]
    return d.corpus_combine(kept, summed).score


def search_chrf_corpus(col, cl, candidates, references, subsets, tick=None) -> int:
    """The corpus search: every configuration of ``chrf_space`` on every reference subset, the corpus score as
    ``python -m explainer chrf --hyp ... --ref ...`` prints it (``native_score``). Configurations that count the
    same n-grams share their statistics (``corpus_vectors``). Returns the number of configurations."""
    from explainer.chrf import get_dialect

    space = chrf_space(cl.chrf_word_order, cl.chrf_beta)
    groups: dict = {}
    for sc in space:
        d = get_dialect(sc.dialect, **sc.config.opts)
        groups.setdefault(d.counting_key(), []).append((sc, d))
    paths = getattr(col, "value_paths", None)
    for members in groups.values():
        vectors = corpus_vectors(members[0][1], candidates, references, subsets)
        for sc, d in members:
            for subset, sub_cost, sub_words in subsets:
                value = _corpus_score(d, vectors[tuple(subset)])
                col.n += 1
                col.add(d.metric_name, sc, subset, sub_cost, sub_words, "score", value, d.scale)
                if paths is not None:
                    paths[(d.metric_name, sc.config, tuple(subset), "score")] = ["native_score"]
            if tick is not None:
                tick()
    return len(space)
