"""`compare --metric rouge`: each system's ROUGE as its dialect aggregates it (``"corpus"``), and the paired tests
on the mean per-item F (or P, R) of one type (``--rouge-type``, ``--measure``: the project's own extension, no ROUGE
implementation has them). ROUGE keeps every text in memory (its per-item scores): within its own limits.
"""
from __future__ import annotations

from explainer.cli import compare as ccli
from explainer.cli.compare_output import run_tests, write_csv, write_json
from explainer.cli.io import CliError

__all__ = ["run", "options", "keeps", "bind"]

#: BLEU's flags (refused when ROUGE alone is compared)
_BLEU_FLAGS = ("tokenize", "smooth", "smooth_value", "max_order", "api", "weights", "auto_reweigh", "effective_order",
               "lowercase")


def keeps(args) -> "ccli.Keep":
    """What a ROUGE run keeps in memory: every text (the per-item scores are computed from them)."""
    return ccli.Keep(ccli.ROUGE_MAX_TEXTS, ccli.ROUGE_MAX_BYTES, "ROUGE")


def options(args, *, strict: bool = True) -> dict:
    """The ROUGE dialect's options from the flags (``--types --stem --multi-ref --tokenizer -o``), checked as
    ``explain_rouge_corpus`` will take them; ``strict``: another metric's flags are refused."""
    from explainer.cli.rouge import build_options
    from explainer.rouge.engine import check_rouge_call

    if args.dialect is None:
        args.dialect = "rouge-score"
    if strict:
        for flag in _BLEU_FLAGS:
            if getattr(args, flag) is not None:
                raise CliError(f"--{flag.replace('_', '-')} is a BLEU option (ROUGE takes --types --stem --multi-ref "
                               "--tokenizer -o)")
        for flag in ccli.CHRF_FLAGS:
            if getattr(args, flag, None) is not None:
                raise CliError(f"--{flag.replace('_', '-')} is a chrF option (use --metric chrf)")
    opts = build_options(args)
    try:
        check_rouge_call(args.dialect, args.types, corpus=True, **opts)
    except ValueError as e:
        raise CliError(str(e)) from None
    return opts


def bind(args, *, strict: bool = True):
    """The bound dialect with its types (``--types``: the dialect's default types when not given)."""
    from explainer.rouge.engine import bind_dialect

    opts = options(args, strict=strict)
    return bind_dialect(args.dialect, args.types, corpus=True, **opts)


def run(args, systems, settings) -> dict:
    """``compare --metric rouge``: the comparison (and the --segments / --report files written)."""
    from explainer.corpus.rouge_report import rouge_report
    from explainer.rouge.types import parse_types

    opts = options(args)
    ts = ccli.read_testset(args, systems, settings)
    systems = ccli.systems_of(ts, systems)
    rep = rouge_report(ts, dialect=args.dialect, types=args.types, **opts)
    rtype = args.rouge_type or rep.types[0]
    if rtype not in rep.types:
        try:
            rtype = parse_types([rtype])[0].name
        except ValueError as e:
            raise CliError(str(e)) from None
        if rtype not in rep.types:
            raise CliError(f"--rouge-type {args.rouge_type} is not among the computed types "
                           f"({', '.join(rep.types)}); add it to --types")
    statistics = [rep.statistic(j, rtype, args.measure) for j in range(len(systems))]
    out = run_tests(systems, statistics, settings, faithful=False, plain_sig=rep.signature, sacre=False)
    out["test"]["statistic"] = f"mean per-item {args.measure} of {rtype}"
    corpus = []
    for s in rep.systems:
        corpus.append({"name": s.name, "aggregation": s.trace.aggregation, "reported": s.trace.reported,
                       "mean": {t: s.mean(t, args.measure) for t in rep.types}})
    out.update({"metric": "rouge", "label": f"{rtype} {args.measure}".replace("fmeasure", "F"), "scale": 1.0,
                "higher_is_better": True, "dialect": args.dialect, "options": rep.systems[0].trace.options,
                "types": rep.types, "rouge_type": rtype, "measure": args.measure, "n_segments": rep.n_segments,
                "n_references": ts.n_refs(), "corpus": corpus})
    if getattr(args, "detected", None):
        out["inputs"] = args.detected
    if args.segments:
        from explainer.corpus.export import testset_texts, with_texts

        write_csv(args.segments, with_texts(rep.segment_rows(rtype, measure=args.measure),
                                             *testset_texts(rep.testset)))
    if args.report:
        write_json(args.report, rep.to_dict(tests=out.get("test")))
    return out
