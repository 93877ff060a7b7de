"""`python -m explainer ter ...`

Segments: ``--jsonl FILE|-``: one JSON object per line, ``{"candidate": str, "references": [str, ...]}``; writes one
JSON object per line, in order, with ``score`` (sacreBLEU's scale: 100 · edits / reference length; lower is better,
above 100 when there are more edits than reference words), ``num_edits``, ``ref_length`` (the mean of the
references' lengths), ``ter`` (the same on 0-1), ``stats``, ``reference_edits`` (every reference's edits),
``chosen_references`` (the one with the fewest), ``signature`` (sacreBLEU's own), ``warnings`` and
``library_error`` (``--full``: the whole trace, every shift and the alignment; ``--corpus``: the lines as one
corpus). Corpus: ``--hyp FILE --ref FILE [--ref FILE ...]`` (line-aligned, one ``--ref`` per reference stream)
writes one JSON object for the corpus: ``score``, ``num_edits``, ``ref_length`` (sums over the segments),
``signature``, ``n_segments``, ``chosen_references``.

Flags: ``--normalized``, ``--no-punct``, ``--asian-support``, ``--case-sensitive`` (sacreBLEU's TER options);
``-o KEY=VALUE`` sets any option by name (``explainer.ter.dialect_options(name)``). Input, output and error rules
(the same as ``bleu`` and ``chrf``): ``explainer.cli.io``.
"""
from __future__ import annotations

import argparse

from explainer.cli.bleu import MAX_BOOTSTRAP, check_bootstrap  # the bleu command's bounds (no core imported)
from explainer.cli.io import CliError, add_segment_inputs, int_arg, option_pairs, run_input, write_json

__all__ = ["add_arguments", "run", "build_options"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_segment_inputs(p)
    p.add_argument("--dialect", default="sacrebleu", help="sacrebleu (default: sacreBLEU 2.6's TER)")
    p.add_argument("--normalized", action="store_true", default=None,
                   help="Tercom's normalization: punctuation split off, entities decoded (CJK split with "
                        "--asian-support)")
    p.add_argument("--no-punct", action="store_true", default=None, help="remove punctuation")
    p.add_argument("--asian-support", action="store_true", default=None,
                   help="CJK text (only with --normalized or --no-punct)")
    p.add_argument("--case-sensitive", action="store_true", default=None,
                   help="keep the case (TER lowercases by default)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any dialect option by name, e.g. -o normalized=true")
    p.add_argument("--bootstrap", type=int_arg(1, MAX_BOOTSTRAP), default=None, metavar="N",
                   help=f"corpus modes: add a bootstrap mean and 95%% CI from N resamples, 1 to {MAX_BOOTSTRAP:,} "
                        "(sacreBLEU's corpus_score(..., n_bootstrap=N); seed from SACREBLEU_SEED, default 12345)")
    p.add_argument("--full", action="store_true", help="write the whole trace instead of the statistics")
    p.add_argument("--corpus", action="store_true",
                   help="with --jsonl: score the lines as one corpus (for texts containing newlines)")


def build_options(args) -> dict:
    """The dialect options implied by the flags that were given (the dialect's own flag table, ``cli_flags``)."""
    from explainer.ter import DIALECTS
    from explainer.ter.dialects import FLAGS

    if args.dialect not in DIALECTS:
        raise CliError(f"unknown TER dialect {args.dialect!r}; choose one of: {', '.join(DIALECTS)}")
    cls = DIALECTS[args.dialect]
    try:
        opts = cls.options_from_flags({f: getattr(args, f, None) for f in FLAGS}, [DIALECTS[n] for n in DIALECTS])
    except ValueError as e:
        raise CliError(str(e)) from None
    opts.update(option_pairs(args.option))
    return opts


def run(args) -> int:
    import explainer.ter as ter

    if args.bootstrap is not None and args.jsonl is not None and not args.corpus:
        raise CliError("--bootstrap needs a corpus: use --hyp/--ref files or --jsonl with --corpus")
    opts = build_options(args)
    try:
        d = ter.get_dialect(args.dialect, **opts)    # validate options once, before reading any input
    except ValueError as e:
        raise CliError(str(e)) from None

    def per_segment(cand: str, refs: list[str]) -> dict:
        if args.full:
            return ter.explain_ter(cand, refs, dialect=d).to_dict()
        return ter.score_ter(cand, refs, dialect=d).to_dict()

    def corpus(hyps, refs) -> int:
        check_bootstrap(args.bootstrap, len(hyps))   # the bleu command's limits: one system's CI
        try:
            if args.full:
                out = ter.explain_ter_corpus(hyps, refs, dialect=d, full=True).to_dict(full=True)
                st = None
            else:
                st = ter.score_ter_corpus(hyps, refs, dialect=d)
                out = st.to_dict()
                out.pop("segment_stats", None)
                out.pop("reference_edits", None)
            out["n_segments"] = len(hyps)
            if args.bootstrap:
                out["bootstrap"] = _bootstrap(d, st or ter.score_ter_corpus(hyps, refs, dialect=d), args.bootstrap)
        except ValueError as e:
            raise CliError(str(e)) from None
        write_json(out, "the corpus result")
        return 0

    return run_input(args, per_segment, corpus, metric="TER")


def _bootstrap(d, st, n: int) -> dict:
    """sacreBLEU's ``TER(...).corpus_score(..., n_bootstrap=N)``: mean and 95 % half-width (and its signature)."""
    from explainer.corpus.significance import bootstrap_confidence, confidence_signature
    from explainer.ter.stats import ter_statistic

    c = bootstrap_confidence(ter_statistic(st.segment_stats, st.score), n, faithful=d.sacrebleu_significance)
    out = c.to_dict()
    if d.sacrebleu_significance:
        out["signature"] = confidence_signature(st.signature, n, c.seed)
    return out
