"""`python -m explainer chrf ...`

Segments: ``--jsonl FILE|-``: one JSON object per line, ``{"candidate": str, "references": [str, ...]}``; writes one
JSON object per line, in order, with ``score`` (0-100), ``native_score`` (the library's scale: sacreBLEU 0-100,
NLTK 0-1), ``name`` (chrF2, chrF2++), ``orders`` (per order: candidate, reference and matched n-grams, precision,
recall, F, whether it enters the average), the averaging, ``chosen_references``, ``signature`` (sacreBLEU's own),
``warnings`` and ``library_error`` (``--full``: the whole trace; ``--corpus``: the lines as one corpus).
Corpus: ``--hyp FILE --ref FILE [--ref FILE ...]`` (line-aligned, one ``--ref`` per reference stream) writes one
JSON object for the corpus.

Flags map onto each dialect's options (``--char-order`` is ``char_order`` for sacreBLEU and ``max_len`` for NLTK,
``--whitespace`` is ``ignore_whitespace=false`` for NLTK); a flag the dialect does not have is an error.
``-o KEY=VALUE`` sets any option by name (``explainer.chrf.dialect_options(name)``). Input, output and error
rules (the same as ``bleu``): ``explainer.cli.io``.
"""
from __future__ import annotations

import argparse

from explainer.cli.bleu import MAX_BOOTSTRAP, check_bootstrap  # the bleu command's bounds (no core imported)
from explainer.cli.io import CliError, add_segment_inputs, int_arg, option_pairs, run_input, write_json

__all__ = ["add_arguments", "run", "build_options", "MAX_BOOTSTRAP"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_segment_inputs(p)
    p.add_argument("--dialect", default="sacrebleu", help="sacrebleu (default) or nltk")
    p.add_argument("--char-order", type=int_arg(1, 10), default=None, metavar="N",
                   help="character n-gram order (default 6)")
    p.add_argument("--word-order", type=int_arg(0, 4), default=None, metavar="N",
                   help="sacrebleu: word n-gram order (0 = chrF, default; 2 = chrF++)")
    p.add_argument("--beta", type=float, default=None, help="recall weight (sacrebleu default 2, nltk 3)")
    p.add_argument("--lowercase", action="store_true", default=None, help="sacrebleu: lowercase the texts")
    p.add_argument("--whitespace", action="store_true", default=None,
                   help="keep whitespace in the character n-grams")
    p.add_argument("--eps-smoothing", action="store_true", default=None,
                   help="sacrebleu: average the per-order F-scores (eps for empty orders)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any dialect option by name, e.g. -o min_len=2 (nltk)")
    p.add_argument("--bootstrap", type=int_arg(1, MAX_BOOTSTRAP), default=None, metavar="N",
                   help=f"corpus modes: add a bootstrap mean and 95%% CI from N resamples, 1 to {MAX_BOOTSTRAP:,} "
                        "(sacreBLEU's corpus_score(..., n_bootstrap=N); seed from SACREBLEU_SEED, default 12345)")
    p.add_argument("--full", action="store_true", help="write the whole trace instead of the statistics")
    p.add_argument("--corpus", action="store_true",
                   help="with --jsonl: score the lines as one corpus (for texts containing newlines)")


def build_options(args) -> dict:
    """The dialect options implied by the flags that were given (the dialect's own flag table, ``cli_flags``)."""
    from explainer.chrf import DIALECTS
    from explainer.chrf.dialects import FLAGS

    if args.dialect not in DIALECTS:
        raise CliError(f"unknown chrF dialect {args.dialect!r}; choose one of: {', '.join(DIALECTS)}")
    cls = DIALECTS[args.dialect]
    try:
        opts = cls.options_from_flags({f: getattr(args, f, None) for f in FLAGS}, [DIALECTS[n] for n in DIALECTS])
    except ValueError as e:
        raise CliError(str(e)) from None
    opts.update(option_pairs(args.option))
    return opts


def run(args) -> int:
    import explainer.chrf as chrf

    if args.bootstrap is not None and args.jsonl is not None and not args.corpus:
        raise CliError("--bootstrap needs a corpus: use --hyp/--ref files or --jsonl with --corpus")
    opts = build_options(args)
    try:
        d = chrf.get_dialect(args.dialect, **opts)    # validate options once, before reading any input
    except ValueError as e:
        raise CliError(str(e)) from None

    def per_segment(cand: str, refs: list[str]) -> dict:
        if args.full:
            return chrf.explain_chrf(cand, refs, dialect=args.dialect, **opts).to_dict()
        return chrf.score_chrf(cand, refs, dialect=args.dialect, **opts).to_dict()

    def corpus(hyps, refs) -> int:
        check_bootstrap(args.bootstrap, len(hyps))   # the bleu command's limits: one system's CI
        try:
            if args.full:
                d = chrf.explain_chrf_corpus(hyps, refs, dialect=args.dialect, **opts).to_dict(full=True)
            else:
                d = chrf.score_chrf_corpus(hyps, refs, dialect=args.dialect, **opts).to_dict()
                d.pop("segment_stats", None)
        except ValueError as e:
            raise CliError(str(e)) from None
        d["n_segments"] = len(hyps)
        if args.bootstrap:
            d["bootstrap"] = _bootstrap(hyps, refs, args, opts)
        write_json(d, "the corpus result")
        return 0

    def traps(hyps, refs):
        from explainer.chrf.traps import chrf_traps

        return chrf_traps(hyps, refs, d, corpus=bool(args.corpus or args.hyp is not None))

    return run_input(args, per_segment, corpus, metric="chrF", traps=traps)


def _bootstrap(hyps, refs, args, opts) -> dict:
    """sacreBLEU's ``CHRF(...).corpus_score(..., n_bootstrap=N)``: mean and 95 % half-width (and its signature)."""
    import explainer.chrf as chrf
    from explainer.chrf.statistic import chrf_statistic
    from explainer.corpus.significance import bootstrap_confidence, confidence_signature

    d = chrf.get_dialect(args.dialect, **opts)
    st = chrf.score_chrf_corpus(hyps, refs, dialect=d)
    c = bootstrap_confidence(chrf_statistic(d, st.segment_stats, st.score), args.bootstrap,
                             faithful=d.sacrebleu_significance)
    out = c.to_dict()
    if d.sacrebleu_significance:
        out["signature"] = confidence_signature(st.signature, args.bootstrap, c.seed)
    return out
