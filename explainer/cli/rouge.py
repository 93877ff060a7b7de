"""`python -m explainer rouge ...`

Segments: ``--jsonl FILE|-``: one JSON object per line with ``candidate`` and ``references`` (a list) or
``reference`` (a string); prints one JSON object per line: ``{"rouge1": {"precision", "recall", "fmeasure"}, ...}``
(``--full``: the whole trace; ``--corpus``: aggregate the lines as one corpus). Corpus: ``--hyp FILE --ref FILE
[--ref FILE ...]`` (one segment per line, one ``--ref`` per reference stream) prints one JSON object with the
dialect's aggregation. Input, output and error rules: ``explainer.cli.io``.
"""
from __future__ import annotations

import argparse

from explainer.cli.io import (
    CliError,
    add_segment_inputs,
    option_pairs,
    run_input,
    write_json,
)

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_segment_inputs(p)
    p.add_argument("--dialect", default="rouge-score",
                   help="rouge-score (default), hf-evaluate, textbook, rouge155, rouge-chinese, pltrdy, rouge-metric, "
                        "torchmetrics")
    p.add_argument("--types", default=None,
                   help="comma-separated: rouge1..rouge9, rougeL, rougeLsum, rougeW-1.2, rougeS4, rougeSU4, rougeS* "
                        "(default: the dialect's: rouge1,rouge2,rougeL,rougeLsum; textbook: rouge1,rouge2,rougeL)")
    p.add_argument("--stem", action="store_true", help="Porter stemming (use_stemmer=True)")
    p.add_argument("--multi-ref", choices=["best-f", "pool", "best-recall", "avg"], default=None,
                   help="how several references are combined (default: the dialect's)")
    p.add_argument("--tokenizer", default=None,
                   help="rouge-score (default), unicode or whitespace (opt-in, not a library default; whitespace: "
                        "text.split(), case and punctuation kept)")
    p.add_argument("--full", action="store_true", help="print the full trace instead of the scores")
    p.add_argument("--corpus", action="store_true",
                   help="with --jsonl: treat the lines as one corpus and print the dialect's aggregation "
                        "(for texts that contain newlines, which --hyp/--ref files cannot hold)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other dialect option, e.g. -o split_summaries=true, -o seed=42, -o use_aggregator=false")


def build_options(args) -> dict:
    """The dialect options implied by the CLI flags (only the flags that were given)."""
    opts = {}
    if args.stem:
        opts["use_stemmer"] = True
    if args.multi_ref:
        opts["multi_ref"] = args.multi_ref
    if args.tokenizer:
        opts["tokenizer"] = args.tokenizer
    opts.update(option_pairs(args.option))
    return opts


def run(args) -> int:
    import explainer.rouge as rouge
    from explainer.rouge.engine import check_rouge_call

    opts = build_options(args)
    # dialect, types and options concern no line of the input: check them once, before reading it
    try:
        check_rouge_call(args.dialect, args.types, corpus=bool(args.corpus or args.hyp is not None), **opts)
    except ValueError as e:
        raise CliError(str(e)) from None
    def per_segment(cand: str, refs: list[str]) -> dict:
        if args.full:
            return rouge.explain_rouge(cand, refs, dialect=args.dialect, types=args.types, **opts).to_dict()
        return {t: s.to_dict() for t, s in
                rouge.score_rouge(cand, refs, dialect=args.dialect, types=args.types, **opts).items()}

    def traps(hyps, refs):
        from explainer.rouge.engine import bind_dialect
        from explainer.rouge.traps import rouge_traps

        return rouge_traps(hyps, refs, bind_dialect(args.dialect, args.types, corpus=True, **opts),
                           corpus=bool(args.corpus or args.hyp is not None))

    return run_input(args, per_segment, lambda hyps, refs: _corpus(hyps, refs, args, opts), metric="ROUGE",
                     traps=traps)


def _corpus(hyps, refs, args, opts) -> int:
    import explainer.rouge as rouge

    try:
        ct = rouge.explain_rouge_corpus(hyps, refs, dialect=args.dialect, types=args.types, traces=args.full,
                                        **opts)
    except ValueError as e:
        raise CliError(str(e)) from None
    d = ct.to_dict()
    if not args.full:
        d.pop("item_scores", None)
        d.pop("chosen_reference", None)
    write_json(d, "the corpus result")
    return 0
