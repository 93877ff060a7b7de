"""ROUGE's reproduce search for a corpus score: every configuration of the ROUGE dialects' corpus search space,
each text prepared once per dialect and token options, each type scored once per reference and item
(``corpus_engines.CorpusRougeEngine``), each multi-reference rule and subset combined per item; the corpus value
is the dialect's own aggregation, computed exactly where its plain mean is near the claim (and for the nearest
values), see ``_margin``."""
from __future__ import annotations

import math

from explainer.dialectcmp.configs import Config, dialect_class
from explainer.dialectcmp.corpus_engines import CorpusRougeEngine
from explainer.dialectcmp.rouge_search import iter_rules, rouge_l_meaning, rouge_types
from explainer.dialectcmp.space import SearchConfig
from explainer.dialectcmp.ties import claim_scale

__all__ = ["search_corpus"]


def search_corpus(col, cl, measures_all, space, subsets, candidates, references, tick) -> None:
    """Every configuration's per-item scores, a cheap screen (the plain mean, with a margin for the bootstrap's
    distance from it), then the implementation's own aggregation for the values that may print as the claim and
    for the nearest ones."""
    eng = CorpusRougeEngine(candidates, references)
    pending = []        # (distance bound, ...) for the exact step
    # without a line break in any text, summary-level ROUGE-L (rougeLsum) is the sentence-level value: searched
    # once, as rougeL, whose meaning then says so (tests/test_reproduce_corpus.py checks the equality)
    one_line = not any("\n" in t for t in eng.candidates) and not any("\n" in r for rs in eng.references for r in rs)
    for sc in space:
        tick(1)
        types = rouge_types(cl, sc.dialect)
        if one_line and "rougeLsum" not in cl.rouge_types and "rougeL" in types:
            types = [t for t in types if t != "rougeLsum"]
        reported = dialect_class("rouge", sc.dialect).reported_measures    # HF evaluate: F only
        measures = tuple(m for m in measures_all if m in reported)
        if not types or not measures:
            continue
        prepared = eng.per_reference(sc.dialect, sc.config.opts, types)
        first_rule = next(iter(iter_rules(sc.dialect)))[0]
        rules = list(iter_rules(sc.dialect)) if len(eng.references[0]) > 1 else [next(iter(iter_rules(sc.dialect)))]
        for rule, rule_cost, rule_words in rules:
            opts = dict(sc.config.opts)
            if rule != first_rule:
                opts["multi_ref"] = rule
            for subset, sub_cost, sub_words in subsets:
                if len(subset) == 1 and rule != first_rule:
                    continue        # one reference: every rule gives the same numbers
                per_type = eng.item_scores(prepared, rule, subset)
                col.n += 1
                for t, scores in per_type.items():
                    if any(getattr(s, "died", None) for s in scores):
                        continue
                    for m in measures:
                        vals = [float(getattr(s, m)) for s in scores]
                        mean = math.fsum(vals) / len(vals)
                        col.values.append(claim_scale(cl, mean, 1.0))   # near enough for the spread of values
                        margin = _margin(vals, sc.aggregation)
                        pending.append((_screen_distance(cl, mean, margin), sc, opts, rule_cost, rule_words, subset,
                                        sub_cost, sub_words, t, m, scores))
    _exact(col, cl, pending, eng, one_line)


def _margin(vals: list[float], aggregation: str) -> float:
    """How far the implementation's aggregate can be from the plain mean: 0 for the mean; for a bootstrap (mid =
    median, or ROUGE-1.5.5's mean, of 1,000 resample means) six standard errors of that statistic, plus the
    5-decimal rounding of ROUGE-1.5.5."""
    if aggregation == "mean":
        return 0.0
    n = len(vals)
    mu = math.fsum(vals) / n
    sd = math.sqrt(math.fsum((v - mu) ** 2 for v in vals) / n)
    return 6.0 * 1.26 * sd / math.sqrt(n) / math.sqrt(1000) + 1e-5


def _screen_distance(cl, mean: float, margin: float) -> float:
    """The smallest distance, in the claim's units, from the claim to a value the aggregate can print as (as
    printed, or ×100)."""
    c = float(cl.value)
    return min(max(0.0, abs(mean - c) - margin), max(0.0, abs(mean * 100.0 - c) - 100.0 * margin))


def _exact(col, cl, pending: list, eng: CorpusRougeEngine, one_line: bool = False) -> None:
    """The implementation's aggregate for every value the screen keeps, and for the nearest few."""
    window = 1.01 * cl.resolution
    pending.sort(key=lambda p: p[0])
    keep = [p for p in pending if p[0] <= window]
    keep += pending[len(keep):len(keep) + 8]
    cache: dict = {}
    for _, sc, opts, rule_cost, rule_words, subset, sub_cost, sub_words, t, m, scores in keep:
        key = (sc.config, tuple(sorted(opts.items())), subset, t)
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = eng.aggregate(sc.dialect, opts, t, scores)
        values, types = hit
        value, path = values[m]
        cfg = Config.make("rouge", sc.dialect, opts, types=types)
        mean_cost, meaning = rouge_l_meaning(cl, t, sc.dialect, False)
        if one_line and t == "rougeL" and meaning:
            meaning += "; one line per text: the summary-level ROUGE-L (ROUGE-1.5.5's, rougeLsum) is the same"
        sc2 = SearchConfig(cfg, sc.cost + rule_cost + mean_cost,
                           sc.words + ((rule_words,) if rule_words else ()) + ((meaning,) if meaning else ()))
        col.add(t, sc2, subset, sub_cost, sub_words, m, value, 1.0)
        col.value_paths[(t, cfg, tuple(subset), m)] = path
