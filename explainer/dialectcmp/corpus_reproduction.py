"""Which settings give a corpus score printed in a paper? ``reproduce_corpus(candidates, references, claim)``.

The search space (``space.bleu_space(corpus=True)``, ``space.rouge_corpus_space()``): every BLEU implementation
× its tokenizers (sacreBLEU's 13a, intl, none, char, and zh for text in a script without spaces) × case ×
smoothing and effective order × max order; ROUGE: dialect × tokenizer × stemming × (ROUGE-1.5.5) stop words ×
aggregation (rouge-score's bootstrap mid or the mean of the per-document scores, HF evaluate's bootstrap mid,
ROUGE-1.5.5's Average) × multi-reference rule; each over every reference subset (all references, each single one,
each pair, ...). Ranked by how common a configuration is (``space.py``: the cost of what a reader would have to
be told), as the segment-level search.

Each match carries the ``argv`` of ``python -m explainer bleu|rouge --hyp HYP --ref REF ...`` (the reference
files of its subset, in order) that prints its ``value`` (at ``value_path`` of that command's JSON output).

Time: the BLEU statistics are shared as ``corpus_engines`` describes; a ROUGE aggregation is computed exactly
where its plain mean is near the claim (and for the nearest values), see ``_screen``. Figures:
docs/benchmarks.md ("reproduce, corpus").
"""
from __future__ import annotations

import math
import time
from typing import Callable, Sequence

from explainer.dialectcmp.claim import Claim, parse_claim
from explainer.dialectcmp.configs import dialect_class
from explainer.dialectcmp.corpus_engines import CorpusBleuEngine, CorpusRougeEngine, corpus_subsets
from explainer.dialectcmp.limits import check_reproduce_corpus
from explainer.dialectcmp.reproduction import (
    MAX_MATCHES,
    Reproduction,
    _Collector,
    _refusal,
    _rouge_types,
    finish,
    rouge_l_meaning,
)
from explainer.dialectcmp.space import SearchConfig, bleu_space, iter_rules, rouge_corpus_space

__all__ = ["reproduce_corpus", "reproduce_corpus_claims", "DEFAULT_PATHS"]

#: file names used in ``argv`` when the caller gives none
DEFAULT_PATHS = ("HYP", ("REF1", "REF2", "REF3", "REF4"))


class _CorpusCollector(_Collector):
    """A collector whose matches carry the corpus command (``--hyp``/``--ref`` files) instead of a stdin line."""

    def __init__(self, claim: Claim, hyp_path: str, ref_paths: Sequence[str]) -> None:
        super().__init__(claim, "", [])
        self.hyp_path = hyp_path
        self.ref_paths = list(ref_paths)
        self.value_paths: dict = {}

    def _stdin(self, cand, refs, subset) -> str:
        return ""


def _files_argv(argv: list[str], hyp_path: str, ref_paths: Sequence[str] | None, subset) -> list[str]:
    """``bleu|rouge --jsonl - ...`` as the corpus command over files: ``--hyp HYP --ref R ...``, or ``--jsonl
    FILE --corpus`` (``ref_paths`` None: texts with line breaks, one JSON object per segment)."""
    head, rest = argv[0], argv[3:]
    if ref_paths is None:
        return [head, "--jsonl", hyp_path, "--corpus"] + rest
    out = [head, "--hyp", hyp_path]
    for k in subset:
        out += ["--ref", ref_paths[k]]
    return out + rest


def reproduce_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], claim: str | Claim, *,
                     metric: str = "any", paths: tuple | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     max_matches: int | None = MAX_MATCHES) -> Reproduction:
    """Search the configurations for a corpus claim. ``references[i]`` are segment i's references (the same number
    for every segment: one per reference file); ``paths``: (hypothesis file, [reference files]) for the ``argv``
    of the matches, or (JSONL file, None) for a corpus read from one JSONL file (texts may hold line breaks:
    multi-sentence summaries; only all the references are searched then, as the file holds them). A claim naming
    another metric comes back ``refused``."""
    t0 = time.perf_counter()
    cands, refs = check_reproduce_corpus(candidates, references)
    refused = _refusal(claim)
    if refused is not None:
        return refused
    cl = claim if isinstance(claim, Claim) else parse_claim(claim, metric)
    n_refs = len(refs[0])
    hyp_path, ref_paths = paths or (DEFAULT_PATHS[0], [f"REF{k + 1}" for k in range(n_refs)])
    ref_paths = list(ref_paths) if ref_paths is not None else None
    col = _CorpusCollector(cl, hyp_path, ref_paths or [])
    subsets = corpus_subsets(n_refs) if ref_paths is not None else corpus_subsets(n_refs)[:1]
    do_bleu = cl.family in (None, "bleu") and not (cl.family is None and set(cl.measures) & {"recall", "fmeasure"})
    do_rouge = cl.family in (None, "rouge") and not (cl.family is None and set(cl.measures) & {"bp"})
    sample = cands[:200] + [r for rs in refs[:200] for r in rs]
    bspace = bleu_space(sample, cl.bleu_order, corpus=True) if do_bleu else []
    rspace = rouge_corpus_space() if do_rouge else []
    total = len(bspace) + len(rspace)
    state = {"done": 0}

    def tick(k: int = 1) -> None:
        state["done"] += k
        if progress:
            progress(min(state["done"], total), total)

    if do_bleu:
        _search_bleu(col, cl, bspace, subsets, CorpusBleuEngine(cands, refs, subsets), tick)
    if do_rouge:
        _search_rouge(col, cl, rspace, subsets, CorpusRougeEngine(cands, refs), tick)
    if progress:
        progress(total, total)
    res = finish(col, cl, t0, max_matches)
    for m in res.matches + res.truncated + res.nearest:
        m.corpus_argv = _files_argv(m.config.argv(), hyp_path, ref_paths, m.references)
        m.value_path = col.value_paths.get((m.metric, m.config, tuple(m.references), m.measure), ["score"])
    res.n_configurations = col.n
    res.seconds = time.perf_counter() - t0
    return res


def reproduce_corpus_claims(candidates, references, text: str, **kw) -> list[Reproduction]:
    """``reproduce_corpus`` for each number of a claim string (each under its own name)."""
    from explainer.dialectcmp.reproduction import _parts

    return [reproduce_corpus(candidates, references, p, **kw) for p in _parts(text)]


# ------------------------------------------------------------------------------------------------ BLEU
def _search_bleu(col, cl: Claim, space, subsets, eng: CorpusBleuEngine, tick) -> None:
    measures = cl.measures if cl.family == "bleu" else (
        ("p1", "p2", "p3", "p4") if "precision" in cl.measures else ("score",))
    measures = tuple(m for m in measures if m in ("score", "bp", "p1", "p2", "p3", "p4")) or ("score",)
    for sc in space:
        opts = sc.config.opts
        scale = eng.dialect(sc.dialect, opts).scale
        for subset, sub_cost, sub_words in subsets:
            res = eng.score(sc.dialect, opts, subset)
            col.n += 1
            if res.error is not None:
                continue        # the real library fails here: it prints no number, so it explains no claim
            for m in measures:
                if m == "score":
                    col.add("bleu", sc, subset, sub_cost, sub_words, m, res.score, scale)
                    col.value_paths[("bleu", sc.config, tuple(subset), m)] = ["score"]
                elif m == "bp":
                    col.add("bleu", sc, subset, sub_cost, sub_words, m, float(res.bp), 1.0)
                    col.value_paths[("bleu", sc.config, tuple(subset), m)] = ["bp"]
                else:
                    n = int(m[1])
                    if n <= len(res.precisions):
                        col.add("bleu", sc, subset, sub_cost, sub_words, m, float(res.precisions[n - 1]), 1.0)
                        col.value_paths[("bleu", sc.config, tuple(subset), m)] = ["precisions", n - 1]
        tick()


# ----------------------------------------------------------------------------------------------- ROUGE
def _search_rouge(col, cl: Claim, space, subsets, eng: CorpusRougeEngine, tick) -> None:
    """Every configuration's per-item scores, a cheap screen (the plain mean, with a margin for the bootstrap's
    distance from it), then the implementation's own aggregation for the values that may print as the claim and
    for the nearest ones."""
    measures_all = cl.measures or ("precision", "recall", "fmeasure")
    pending = []        # (distance bound, ...) for the exact step
    # without a line break in any text, summary-level ROUGE-L (rougeLsum) is the sentence-level value: searched
    # once, as rougeL, whose meaning then says so (tests/test_reproduce_corpus.py checks the equality)
    one_line = not any("\n" in t for t in eng.candidates) and not any("\n" in r for rs in eng.references for r in rs)
    for sc in space:
        tick()
        types = _rouge_types(cl, sc.dialect)
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


def _screen_distance(cl: Claim, mean: float, margin: float) -> float:
    """The smallest distance, in the claim's units, from the claim to a value the aggregate can print as (as
    printed, or ×100)."""
    c = float(cl.value)
    return min(max(0.0, abs(mean - c) - margin), max(0.0, abs(mean * 100.0 - c) - 100.0 * margin))


def _exact(col, cl: Claim, pending: list, eng: CorpusRougeEngine, one_line: bool = False) -> None:
    """The implementation's aggregate for every value the screen keeps, and for the nearest few."""
    from explainer.dialectcmp.configs import Config

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
