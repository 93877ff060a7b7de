"""`python -m explainer compare --metric chrf`: corpus chrF of several systems, intervals and paired tests.

The files are read in lockstep a block at a time (as for BLEU); each segment's references are prepared once and
every system's statistics vector is kept (flat memory: integers only). With the sacrebleu dialect every number is
``sacrebleu.significance.PairedTest``'s with ``CHRF(...)`` (``corpus_score(..., n_bootstrap=N)`` for
``--confidence``), including its float32 arithmetic in the bootstrap (``explainer/chrf/statistic.py``); with NLTK the
tests resample the per-segment, per-order F-scores whose mean is NLTK's corpus score (the project's own extension).
"""
from __future__ import annotations

from explainer.cli import compare as ccli
from explainer.cli.compare_output import run_tests, write_csv, write_json
from explainer.cli.io import CliError
from explainer.errors import ExplainerInputError

__all__ = ["run", "dialect", "keeps", "bind"]

_NOT_CHRF = ("tokenize", "smooth", "smooth_value", "max_order", "api", "weights", "auto_reweigh", "effective_order",
             "types", "multi_ref", "tokenizer", "rouge_type")


def keeps(args) -> "ccli.Keep | None":
    """A TSV / JSON Lines input is read through the chrF report: it keeps what ``--report`` keeps."""
    if getattr(args, "structured", False):
        return ccli.Keep(ccli.REPORT_MAX_TEXTS, ccli.REPORT_MAX_BYTES, "chrF on a TSV / JSON Lines")
    return None


def dialect(args, *, strict: bool = True):
    """The bound dialect of the flags (its own flag table) and ``-o`` options; ExplainerInputError otherwise.
    ``strict``: another metric's flags are refused."""
    from explainer.chrf import DIALECTS, get_dialect
    from explainer.chrf.dialects import FLAGS
    from explainer.cli.io import option_pairs

    if args.dialect is None:
        args.dialect = DIALECTS.names()[0]
    for flag in _NOT_CHRF if strict else ():
        if getattr(args, flag, None) is not None:
            raise ExplainerInputError(f"--{flag.replace('_', '-')} is not a chrF option (chrF takes --char-order "
                                      "--word-order --beta --lowercase --whitespace --eps-smoothing -o)")
    if args.stem and strict:
        raise ExplainerInputError("--stem is a ROUGE option (use --metric rouge)")
    try:
        cls = DIALECTS.dialect_class(args.dialect)
        opts = cls.options_from_flags({f: getattr(args, f, None) for f in FLAGS}, [DIALECTS[n] for n in DIALECTS])
        opts.update(option_pairs(args.option))
        return get_dialect(args.dialect, **opts)
    except ValueError as e:
        raise ExplainerInputError(str(e)) from None


def bind(args, *, strict: bool = True):
    """The bound dialect of the flags (``dialect``; its errors as one line)."""
    try:
        return dialect(args, strict=strict)
    except ExplainerInputError as e:
        raise CliError(str(e)) from None


def run(args, systems, settings) -> dict:
    """``compare --metric chrf``: the comparison (and the --segments / --report files written)."""
    d = dialect(args)
    if args.report or getattr(args, "structured", False):     # a TSV / JSON Lines input is read whole
        return _run_report(args, systems, settings, d)
    K = len(args.ref)
    stats, chosen, warnings, S = _statistics(args, systems, ccli.read_blocks, d, settings)
    corpus, statistics = [], []
    for j, (name, _) in enumerate(systems):
        summed = [sum(col) for col in zip(*stats[j])]
        comb = d.corpus_combine(stats[j], summed)
        corpus.append(_corpus_row(name, comb, summed))
        statistics.append(_statistic(d, stats[j], comb.score))
    out = _output(d, systems, statistics, settings, K, S, corpus, warnings)
    if args.segments:
        write_csv(args.segments, _segment_columns(d, systems, stats, chosen, S))
    return out


def _statistic(d, stats, score):
    from explainer.chrf.statistic import chrf_statistic

    return chrf_statistic(d, stats, score)


def _statistics(args, systems, read_blocks, d, settings):
    """Every system's per-segment statistics vectors and kept references, the files read block by block (each
    segment's references prepared once for all systems)."""
    from explainer.chrf.algorithm import candidate_stats, check_references, prepare_references
    from explainer.gcpause import gc_paused

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
        S = read_blocks(args, systems, on_block, settings)      # the limits checked after every block
    return stats, chosen, warnings, S


def _corpus_row(name, comb, summed) -> dict:
    return {"name": name, "score": comb.score100, "native_score": comb.score, "stats": list(summed),
            "orders": [{"kind": o.kind, "n": o.n, "hyp": o.hyp, "ref": o.ref, "match": o.match,
                        "precision": o.precision, "recall": o.recall, "f": o.f, "included": o.included}
                       for o in comb.orders],
            "averaging": comb.averaging, "effective_order": comb.effective_order}


def _output(d, systems, statistics, settings, K, S, corpus, warnings) -> dict:
    sacre = d.sacrebleu_significance
    out = run_tests(systems, statistics, settings, faithful=sacre, plain_sig=d.signature(K), sacre=sacre)
    out.update({"metric": "chrf", "name": d.metric_name, "label": d.metric_name, "scale": d.scale,
                "higher_is_better": True, "dialect": d.name, "options": d.options_dict(),
                "n_segments": S, "n_references": K, "corpus": corpus, "warnings": warnings})
    return out


def _segment_columns(d, systems, stats, chosen, S) -> dict:
    cols: dict = {"segment": list(range(1, S + 1))}
    base = None
    for j, (name, _) in enumerate(systems):
        sc = [d.f_score(v) for v in stats[j]]
        cols[f"{name} | score"] = sc
        if base is None:
            base = sc
        else:
            cols[f"{name} | Δ"] = [a - b for a, b in zip(sc, base)]
        cols[f"{name} | reference"] = [k + 1 for k in chosen[j]]
    return cols


def _run_report(args, systems, settings, d) -> dict:
    """--report: the whole chrF report (the texts are kept: the report lists every segment)."""
    from explainer.corpus.chrf_report import chrf_report

    ts = ccli.read_testset(args, systems, settings)
    if len(ts.systems) != len(systems):         # a TSV holds several
        systems = [(name, "") for name in ts.names]
    rep = chrf_report(ts, dialect=d.name, **d.options_dict())
    statistics = [rep.statistic(j) for j in range(len(systems))]
    corpus = [_corpus_row(s.name, s.trace.combination, s.trace.summed) for s in rep.systems]
    warnings = []
    for s in rep.systems:
        for w in s.trace.warnings:
            if w.message not in warnings:
                warnings.append(w.message)
    out = _output(d, systems, statistics, settings, ts.n_refs(), rep.n_segments, corpus, warnings)
    if getattr(args, "detected", None):
        out["inputs"] = args.detected
    if args.segments:
        write_csv(args.segments, rep.segment_rows())
    if args.report:
        write_json(args.report, rep.to_dict(tests=out.get("test")))
    return out
