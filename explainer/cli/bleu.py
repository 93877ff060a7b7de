"""`python -m explainer bleu ...`

Segments: ``--jsonl FILE|-``: one JSON object per line, ``{"candidate": str, "references": [str, ...]}``; writes
one JSON object per line, in order, with ``score`` (native scale), ``bleu`` (0..1), ``counts``, ``totals``,
``precisions`` (0..1), ``bp``, ``sys_len``, ``ref_len``, ``ratio``, ``signature``, ``warnings``,
``library_error`` (``--full``: the whole trace; ``--corpus``: the lines as one corpus).
Corpus: ``--hyp FILE --ref FILE [--ref FILE ...]`` (line-aligned, one ``--ref`` per reference stream) writes
one JSON object for the corpus.

Generic flags map onto each dialect's options (``--max-order`` is ``max_ngram_order`` for sacreBLEU,
``max_order`` for HF, uniform weights for NLTK, ...); a flag the dialect does not have is an error.
``-o KEY=VALUE`` sets any option by its name (``explainer.bleu.dialect_options(name)``).

Where the real library fails on a segment (no reference, an empty candidate for HF, NLTK's method6 with
p3 = 0, ...), the line reports it as ``library_error`` and every statistic as ``null``: the library returns no
numbers there (``--full`` still shows the explainer's steps up to the failure). Input, output and error rules:
``explainer.cli.io``.
"""
from __future__ import annotations

import argparse

from explainer.cli.io import (
    CliError,
    add_segment_inputs,
    int_arg,
    option_pairs,
    run_input,
    write_json,
)

__all__ = ["add_arguments", "run", "build_options", "check_bootstrap", "MAX_BOOTSTRAP"]

# The core's bound on --bootstrap N (explainer.bleu.bootstrap.MAX_BOOTSTRAP; a test checks they are equal), spelled
# out here so that parsing the flags imports no core. The bound on resamples x segments is the core's
# check_bootstrap_size, applied once the corpus is read and before any scoring.
MAX_BOOTSTRAP = 10_000


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_segment_inputs(p)
    p.add_argument("--dialect", default="sacrebleu",
                   help="sacrebleu (default), nltk, hf-evaluate, multi-bleu, mteval, textbook, torchmetrics, "
                        "torchmetrics-sacrebleu, google-bleu (GLEU: HF evaluate google_bleu, NLTK gleu_score)")
    p.add_argument("--tokenize", default=None,
                   help="sacrebleu: 13a (default), intl, zh, char, none, ja-mecab, ko-mecab (flores101, flores200: "
                        "refused, they download a model)")
    p.add_argument("--lowercase", action="store_true", default=None, help="lowercase (sacrebleu, multi-bleu -lc)")
    p.add_argument("--smooth", default=None,
                   help="sacrebleu: exp|floor|add-k|none; nltk: method0..method7; hf-evaluate: none|add-one "
                        "(or false|true); mteval: exp|nist|none (or true|false)")
    p.add_argument("--smooth-value", type=float, default=None, help="sacrebleu: value for floor / add-k")
    p.add_argument("--max-order", type=int_arg(), default=None,
                   help="maximum n-gram order (default 4)")
    eff = p.add_mutually_exclusive_group()
    eff.add_argument("--effective-order", dest="effective_order", action="store_true", default=None,
                     help="sacrebleu: average only over orders with candidate n-grams")
    eff.add_argument("--no-effective-order", dest="effective_order", action="store_false")
    p.add_argument("--api", default=None, help="sacrebleu: corpus_bleu (default) or sentence_bleu")
    p.add_argument("--weights", default=None, help="nltk: comma-separated weights, e.g. 0.25,0.25,0.25,0.25")
    p.add_argument("--auto-reweigh", action="store_true", default=None, help="nltk: auto_reweigh=True")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other dialect option by name, e.g. -o epsilon=0.2, -o preserve_case=true")
    p.add_argument("--bootstrap", type=int_arg(1, MAX_BOOTSTRAP), default=None, metavar="N",
                   help=f"corpus modes: add a bootstrap mean and 95%% CI from N resamples, 1 to {MAX_BOOTSTRAP:,} "
                        "(sacreBLEU's procedure; seed from SACREBLEU_SEED, default 12345)")
    p.add_argument("--full", action="store_true", help="write the whole trace instead of the statistics")
    p.add_argument("--corpus", action="store_true",
                   help="with --jsonl: score the lines as one corpus (for texts containing newlines)")


def build_options(args) -> dict:
    """The dialect options implied by the CLI flags (only the flags that were given): the core's
    ``explainer.bleu.flags.options_from_flags``, then any ``-o KEY=VALUE``."""
    from explainer.bleu import DIALECTS
    from explainer.bleu.flags import FLAGS, options_from_flags

    if args.dialect not in DIALECTS:
        raise CliError(f"unknown dialect {args.dialect!r}; choose one of: {', '.join(DIALECTS)}")
    try:
        opts = options_from_flags(DIALECTS[args.dialect], {f: getattr(args, f, None) for f in FLAGS},
                                  DIALECTS.values())
    except ValueError as e:
        raise CliError(str(e)) from None
    opts.update(option_pairs(args.option))
    return opts


def check_bootstrap(n: int | None, n_segments: int) -> None:
    """``--bootstrap N`` of one system's corpus score (``bleu`` and ``chrf``): the core bootstrap's limits on the
    resamples and the draws (resamples x segments), before any scoring."""
    if n is not None:
        from explainer.bleu.bootstrap import check_bootstrap_size

        try:
            check_bootstrap_size(n, n_segments)
        except ValueError as e:
            raise CliError(f"--bootstrap {n:,}: {e}") from None


def run(args) -> int:
    import explainer.bleu as bleu
    from explainer.bleu.report import stats_dict

    if args.bootstrap is not None and args.jsonl is not None and not args.corpus:
        raise CliError("--bootstrap needs a corpus: use --hyp/--ref files or --jsonl with --corpus")
    try:            # the bound dialect, validated once before any input is read; every call below uses it
        d = bleu.get_dialect(args.dialect, **build_options(args))
    except ValueError as e:
        raise CliError(str(e)) from None

    def per_segment(cand: str, refs: list[str]) -> dict:
        if args.full:
            return bleu.explain_bleu(cand, refs, dialect=d).to_dict()
        return stats_dict(bleu.score_bleu(cand, refs, dialect=d))

    def traps(hyps, refs):
        from explainer.bleu.traps import bleu_traps

        return bleu_traps(hyps, refs, d, corpus=bool(args.corpus or args.hyp is not None))

    return run_input(args, per_segment, lambda hyps, refs: _corpus(hyps, refs, args, d), traps=traps)


def _corpus(hyps, refs, args, d) -> int:
    import explainer.bleu as bleu
    from explainer.bleu.report import stats_dict

    check_bootstrap(args.bootstrap, len(hyps))
    if args.full:           # the full corpus trace's limit, before the dialect's input checks and any trace
        from explainer.bleu.limits import check_corpus_trace_size

        try:
            check_corpus_trace_size(sum(map(len, hyps)) + sum(len(r) for rs in refs for r in rs), len(hyps))
        except ValueError as e:
            raise CliError(str(e)) from None
    try:
        if args.full:
            out = bleu.explain_bleu_corpus(hyps, refs, dialect=d).to_dict(full=True)
        else:
            out = stats_dict(bleu.score_bleu_corpus(hyps, refs, dialect=d))
    except ValueError as e:
        raise CliError(str(e)) from None
    out["n_segments"] = len(hyps)
    if args.bootstrap:
        try:
            out["bootstrap"] = bleu.bootstrap_bleu_corpus(hyps, refs, dialect=d, n_bootstrap=args.bootstrap).to_dict()
        except ValueError as e:
            raise CliError(str(e)) from None
    write_json(out, "the corpus result")
    return 0
