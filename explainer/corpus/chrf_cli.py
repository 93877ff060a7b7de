"""`python -m explainer compare --metric chrf`: corpus chrF of several systems, intervals and paired tests.

The files are read in lockstep a block at a time (as for BLEU); each segment's references are prepared once and
every system's statistics vector is kept (flat memory: integers only). With the sacrebleu dialect every number is
``sacrebleu.significance.PairedTest``'s with ``CHRF(...)`` (``corpus_score(..., n_bootstrap=N)`` for
``--confidence``), including its float32 arithmetic in the bootstrap (``explainer/corpus/chrf_stats.py``); with NLTK the
tests resample the per-segment, per-order F-scores whose mean is NLTK's corpus score (the project's own extension).
"""
from __future__ import annotations

from explainer.errors import ExplainerInputError

__all__ = ["run_chrf", "chrf_dialect"]

_NOT_CHRF = ("tokenize", "smooth", "smooth_value", "max_order", "api", "weights", "auto_reweigh", "effective_order",
             "types", "multi_ref", "tokenizer", "rouge_type")


def chrf_dialect(args, extra_options: dict):
    """The bound dialect of the flags (its own flag table) and ``-o`` options; ExplainerInputError otherwise."""
    from explainer.chrf import DIALECTS, get_dialect
    from explainer.chrf.dialects import FLAGS

    if args.dialect is None:
        args.dialect = DIALECTS.names()[0]
    for flag in _NOT_CHRF:
        if getattr(args, flag, None) is not None:
            raise ExplainerInputError(f"--{flag.replace('_', '-')} is not a chrF option (chrF takes --char-order "
                                      "--word-order --beta --lowercase --whitespace --eps-smoothing -o)")
    if args.stem:
        raise ExplainerInputError("--stem is a ROUGE option (use --metric rouge)")
    if args.report:
        raise ExplainerInputError("--report is not available for chrF yet; use --segments for the per-segment table")
    try:
        cls = DIALECTS.dialect_class(args.dialect)
        opts = cls.options_from_flags({f: getattr(args, f, None) for f in FLAGS}, [DIALECTS[n] for n in DIALECTS])
        opts.update(extra_options)
        return get_dialect(args.dialect, **opts)
    except ValueError as e:
        raise ExplainerInputError(str(e)) from None


def run_chrf(args, systems, settings, read_blocks, tests, emit, write_csv, extra_options: dict) -> int:
    import numpy as np

    from explainer.chrf.algorithm import candidate_stats, check_references, prepare_references
    from explainer.corpus.chrf_stats import chrf_statistic
    from explainer.gcpause import gc_paused

    d = chrf_dialect(args, extra_options)
    K = len(args.ref)
    stats: list[list] = [[] for _ in systems]
    chosen: list[list] = [[] for _ in systems]
    warnings: list[str] = []

    def on_block(block):
        refs_block = [list(x) for x in zip(*block[:K])]
        check_references(refs_block)
        for i, refs in enumerate(refs_block):
            prep, ws = prepare_references(d, refs)
            for w in ws:
                if w.message not in warnings:
                    warnings.append(w.message)
            for j in range(len(systems)):
                st, k = candidate_stats(d, block[K + j][i], prep)
                stats[j].append(st)
                chosen[j].append(k)

    with gc_paused():
        S = read_blocks(args, systems, on_block)
    corpus, statistics = [], []
    for j, (name, _) in enumerate(systems):
        summed = [sum(col) for col in zip(*stats[j])]
        comb = d.corpus_combine(stats[j], summed)
        c = {"name": name, "score": comb.score100, "native_score": comb.score, "stats": summed,
             "orders": [{"kind": o.kind, "n": o.n, "hyp": o.hyp, "ref": o.ref, "match": o.match,
                         "precision": o.precision, "recall": o.recall, "f": o.f, "included": o.included}
                        for o in comb.orders],
             "averaging": comb.averaging, "effective_order": comb.effective_order}
        corpus.append(c)
        statistics.append(chrf_statistic(d, stats[j], comb.score))
    sacre = d.sacrebleu_significance
    out = tests(systems, statistics, settings, faithful=sacre, plain_sig=d.signature(K), sacre=sacre)
    out.update({"metric": "chrf", "name": d.metric_name, "dialect": d.name, "options": d.options_dict(),
                "n_segments": S, "n_references": K, "corpus": corpus, "warnings": warnings})
    if args.segments:
        cols: dict = {"segment": list(range(1, S + 1))}
        base = None
        for j, (name, _) in enumerate(systems):
            sc = np.asarray([d.f_score(v) if d.corpus_rule == "sum" else d.corpus_combine([v], v).score
                             for v in stats[j]])
            cols[f"{name} | score"] = sc.tolist()
            if base is None:
                base = sc
            else:
                cols[f"{name} | Δ"] = (sc - base).tolist()
            cols[f"{name} | reference"] = [k + 1 for k in chosen[j]]
        write_csv(args.segments, cols)
    emit(out)
    return 0
