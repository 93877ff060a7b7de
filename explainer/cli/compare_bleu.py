"""`compare --metric bleu`: corpus BLEU of several systems, read in one streamed pass (only the statistics kept:
flat memory), with sacreBLEU's paired tests and intervals; ``--segments`` (the per-segment table), ``--report``
(the whole BLEU corpus report with compare-mt's analyses: the texts kept in memory, within the report's limits).
"""
from __future__ import annotations

from explainer.cli import compare as ccli
from explainer.cli.compare_output import run_tests, write_csv, write_json
from explainer.cli.io import CliError

__all__ = ["run", "dialect", "bind", "TAKES_SOURCE"]

#: ``--source`` and ``--freq-corpus`` go with ``--report`` (compare-mt's analyses are in the BLEU report)
TAKES_SOURCE = True

#: the flags of the other metrics (refused when BLEU alone is compared)
_ROUGE_FLAGS = ("types", "multi_ref", "tokenizer", "rouge_type")


def _refuse_other_flags(args) -> None:
    for flag in _ROUGE_FLAGS:
        if getattr(args, flag):
            raise CliError(f"--{flag.replace('_', '-')} is a ROUGE option (use --metric rouge)")
    if args.stem:
        raise CliError("--stem is a ROUGE option (use --metric rouge)")
    for flag in ccli.CHRF_FLAGS:
        if getattr(args, flag, None) is not None:
            raise CliError(f"--{flag.replace('_', '-')} is a chrF option (use --metric chrf)")


def _described(d) -> dict:
    """What the comparison says of the metric (the tables read its label, scale and direction from it)."""
    return {"metric": "bleu", "label": "BLEU", "scale": d.scale, "higher_is_better": True, "dialect": d.name,
            "options": d.options_dict()}


def dialect(args, *, strict: bool = True):
    """The bound BLEU dialect of the flags (``--dialect``, ``--tokenize``, ``--smooth``, ``-o``…) and its options;
    ``strict``: another metric's flags are refused (one metric compared)."""
    from explainer.bleu import get_dialect
    from explainer.cli.bleu import build_options

    if args.dialect is None:
        args.dialect = "sacrebleu"
    if strict:
        _refuse_other_flags(args)
    opts = build_options(args)
    try:
        d = get_dialect(args.dialect, **opts)
    except ValueError as e:
        raise CliError(str(e)) from None
    return d, opts


def bind(args, *, strict: bool = True):
    """The bound dialect (the flags read as for BLEU alone; ``strict``: no other metric's flags)."""
    return dialect(args, strict=strict)[0]


def run(args, systems, settings) -> dict:
    """``compare --metric bleu``: the comparison (and the --segments / --report files written)."""
    from explainer.bleu.algorithm import gc_paused
    from explainer.bleu.system_stats import StatsStream

    d, opts = dialect(args)
    if (settings["paired"] or settings["confidence_n"]) and d.needs_last_segment:
        raise CliError(f"bootstrap and paired tests are not defined for the {d.name} dialect: its corpus score "
                       "depends on the last segment (NLTK's smoothing reads it), which resampling would change")
    if args.report:
        return _run_report(args, systems, settings, d, opts)
    ts = ccli.read_testset(args, systems, settings) if getattr(args, "structured", False) else None
    if ts is not None:
        systems = ccli.systems_of(ts, systems)
    K = len(args.ref) if ts is None else ts.n_refs()
    stream = StatsStream(d, len(systems))
    warnings: list[str] = []
    feed = ccli.statistics_feeder(d, stream, warnings)
    # the statistics are built from short-lived, acyclic objects (token lists, n-gram Counters): the cyclic
    # garbage collector has nothing to find in them and would only re-scan everything alive, again and again
    with gc_paused():
        if ts is None:
            S = ccli.read_blocks(args, systems, lambda b: feed([list(x) for x in zip(*b[:K])], b[K:]), settings)
        else:
            S = ts.n_segments
            for a in range(0, S, ccli.BLOCK):
                feed(ts.references[a:a + ccli.BLOCK], [lines[a:a + ccli.BLOCK] for _, lines in ts.systems])
    warnings[:0] = getattr(args, "corpus_warnings", [])
    arrays = stream.arrays()
    corpus, statistics = _bleu_corpus(d, systems, arrays, stream.last_contexts(), S, K)
    if d.checks_whole_corpus:
        warnings += d.streamed_input_warnings(stream.ends_with_period)
    out = run_tests(systems, statistics, settings, faithful=d.sacrebleu_significance, plain_sig=d.signature(K),
                 sacre=d.sacrebleu_significance)
    out.update(_described(d))
    out.update({"n_segments": S, "n_references": K, "corpus": corpus, "warnings": warnings})
    if getattr(args, "detected", None):
        out["inputs"] = args.detected
    if args.segments:
        _write_bleu_segments(args.segments, d, systems, arrays, stream.first_reference_lengths(), stream.ctxs,
                             args.ref, ts)
    return out


def _bleu_corpus(d, systems, arrays, lasts, S: int, K: int) -> tuple[list[dict], list]:
    """Per system: the corpus statistics from the summed rows (as the dialect combines them) and the
    ``Statistic`` the tests resample."""
    from explainer.bleu.rowscore import score_rows
    from explainer.bleu.trace import BleuStats
    from explainer.statistic import Statistic

    N = d.max_order
    corpus, statistics = [], []
    for j, (name, _) in enumerate(systems):
        summed = arrays[j].sum(0).tolist()
        comb = d.combine(summed[0], summed[1], summed[2:2 + N], summed[2 + N:], lasts[j], n_segments=S)
        st = BleuStats.from_combination(d.name, comb, d.signature(K), [], comb.library_error, d.options_dict())
        c = st.to_dict()
        for k in ("signature", "options", "dialect", "warnings"):
            c.pop(k, None)
        corpus.append(dict(name=name, **c))
        statistics.append(Statistic(arrays[j], lambda rows, mode: score_rows(d, rows, mode=mode), comb.score))
    return corpus, statistics


def _write_bleu_segments(path, d, systems, arrays, ref_first, ctxs, ref_paths=(), ts=None) -> None:
    from explainer.bleu.rowscore import segment_scores
    from explainer.corpus.export import testset_texts, with_texts
    from explainer.corpus.report import segment_columns

    rows = []
    for j, (name, _) in enumerate(systems):
        sent, bp = segment_scores(d, arrays[j], ctxs[j] if ctxs is not None else None)
        rows.append((name, arrays[j], sent, bp))
    cols = segment_columns(rows, ref_first, d.max_order)
    write_csv(path, _streamed_texts(cols, ref_paths, systems) if ts is None else with_texts(cols, *testset_texts(ts)))


def _streamed_texts(cols, ref_paths, systems):
    """The segment table with the texts, read again from the files line by line while the CSV is written (flat
    memory: the statistics pass kept no text)."""
    from explainer.corpus.export import with_texts
    from explainer.inputs import iter_lines

    if not ref_paths or any(p == "-" for p in list(ref_paths) + [p for _, p in systems]):
        return cols
    refs = [(f"reference {k + 1}", iter_lines(p)) for k, p in enumerate(ref_paths)]
    return with_texts(cols, refs, [(name, iter_lines(p)) for name, p in systems])


def _run_report(args, systems, settings, d, opts) -> dict:
    """--report: the whole report (texts kept in memory, the analyses need them)."""
    from explainer.corpus.report import bleu_report

    ts = ccli.read_testset(args, systems, settings)
    systems = ccli.systems_of(ts, systems)
    rep = bleu_report(ts, dialect=d.name, **opts)
    statistics = [rep.statistic(j) if not d.needs_last_segment else None for j in range(len(systems))]
    K = ts.n_refs()
    out = run_tests(systems, statistics, settings, faithful=d.sacrebleu_significance, plain_sig=rep.signature,
                 sacre=d.sacrebleu_significance)
    corpus = []
    for s in rep.systems:
        c = s.trace.stats_summary().to_dict()
        for k in ("signature", "options", "dialect", "warnings", "segment_stats"):
            c.pop(k, None)
        corpus.append(dict(name=s.name, **c))
    warnings = list(getattr(args, "corpus_warnings", []))
    for s in rep.systems:
        for w in s.trace.warnings:
            if w.message not in warnings:
                warnings.append(w.message)
    out.update(_described(d))
    out.update({"n_segments": rep.n_segments, "n_references": K, "corpus": corpus, "warnings": warnings})
    if args.segments:
        from explainer.corpus.export import testset_texts, with_texts

        write_csv(args.segments, with_texts(rep.segment_rows(), *testset_texts(rep.testset)))
    report = rep.to_dict(tests=out.get("test"))
    report.update(_comparemt_analyses(args, rep))
    if args.report:
        write_json(args.report, report)
    if getattr(args, "detected", None):
        out["inputs"] = args.detected
    return out


def _comparemt_analyses(args, rep) -> dict:
    """compare-mt's analyses for --report: word accuracy by frequency bucket (--freq-corpus or the references),
    sentence-score buckets, source-length buckets (--source)."""
    from explainer.corpus.comparemt import sentence_buckets, source_length_buckets, word_accuracy
    from explainer.inputs import ReadLimits, iter_lines, read_lines

    out: dict = {}
    freq = None
    if getattr(args, "freq_corpus", None):
        limits = ReadLimits(max_bytes=ccli.FREQ_CORPUS_MAX_BYTES, hint="take a sample of it (e.g. `head -n 500000`)")
        limits.check_sizes([args.freq_corpus])
        freq = iter_lines(args.freq_corpus, limits=limits)
    out["word_accuracy"] = word_accuracy(rep, freq_corpus=freq)
    out["sentence_buckets"] = sentence_buckets(rep)
    if getattr(args, "source", None):
        limits = ReadLimits(rep.n_segments + 1, ccli.REPORT_MAX_BYTES, hint="--source has one line per segment")
        limits.check_sizes([args.source])
        source = read_lines(args.source, limits=limits)
        ts = rep.testset.with_source(source, f"source {args.source}")
        out["source_length_buckets"] = source_length_buckets(rep, ts.source)
        out["source"] = ts.source
    return out
