"""`python -m explainer reproduce ...`: which configurations give a claimed number?

    python -m explainer reproduce --candidate TEXT --ref TEXT [--ref TEXT ...] --claim VALUE
        [--metric bleu|rouge1|rouge2|rougeL|rougeLsum|chrf|ter|...|any]
    python -m explainer reproduce --hyp SYSTEM --ref R1 [--ref R2 ...] --claim VALUE [--metric ...]
    python -m explainer reproduce --jsonl CORPUS.jsonl --claim VALUE [--metric ...]

Prints ``{"claim", "decimals", "verdict", "message", "judgement", "matches": [{"metric", "dialect", "options",
"references", "measure", "value", "argv", ...}], "truncated": [...], "nearest": [...]}``. One segment: ``argv``
is the ``python -m explainer`` argument list that prints ``value`` when ``stdin`` (one JSON line: the candidate
and the references used) is its input. A corpus (``--hyp`` and one ``--ref`` file per reference stream): ``argv``
reads the files itself (``--hyp SYSTEM --ref ...``: the files of the subset used) and ``value_path`` says where
``value`` is in its output. ``references`` are the 0-based indices of the ``--ref`` given. Every match's value,
printed with the claim's decimals (as is, or ×100 / ÷100: ``form``), is the claim. A claim with several numbers
("R-1/R-2/L 44.2/21.3/41.0", "BLEU 27.3 / chrF 55.1") prints ``{"claim", "parts": [one result per number]}``; a
number of a metric this tool does not compute ("COMET 0.82") is ``refused``, with a message naming it; a claim
naming a registered family ("chrF 55.2", "TER 45.2") is searched in that family's own settings. When several
implementations give the claimed number, the result says so (``ties``), and ``coincidence`` says how likely an
unrelated configuration prints the claim at its precision (docs/dialects-compare.md).
"""
from __future__ import annotations

import argparse

from explainer.cli.io import CliError

__all__ = ["add_arguments", "run"]


def _family_names() -> list[str]:
    from explainer.families import family_names

    return family_names()


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--candidate", metavar="TEXT", help="the candidate text (one segment)")
    src.add_argument("--hyp", metavar="FILE", help="a system output, one segment per line (a corpus score)")
    src.add_argument("--jsonl", metavar="FILE",
                     help="a corpus as JSON Lines ({'candidate', 'references'} per segment), for texts with line "
                          "breaks (multi-sentence summaries); all the references of each line are used")
    p.add_argument("--ref", metavar="TEXT|FILE", action="append", default=[],
                   help="a reference text (with --candidate) or a reference file, line-aligned with --hyp "
                        "(repeat for several references)")
    p.add_argument("--claim", metavar="VALUE", required=True,
                   help="the claimed number, with words if you like: 'BLEU = 0.576', '38.0', 'ROUGE-L 0.41', "
                        "'R-1 recall 0.67', 'R-1/R-2/R-L 44.2/21.3/41.0', 'chrF++ 55.2'; or sacreBLEU's own JSON "
                        "output (-f json: the text, or a file holding it)")
    p.add_argument("--metric", default="any",
                   help="what the claim is: any (default) or a metric family (" + ", ".join(_family_names())
                        + "; ROUGE by its type: rouge1, rouge2, rougeL, rougeLsum); words in the claim narrow it too")


def _claim_text(args) -> str:
    """The claim as typed, or the one sacreBLEU's JSON output states (the text given, or a file holding it)."""
    import os

    from explainer.dialectcmp.sacrebleu_json import MAX_JSON_CHARS, claim_from_sacrebleu_json, looks_like_json

    text = args.claim
    if not looks_like_json(text) and text.endswith(".json") and os.path.isfile(text):
        if os.path.getsize(text) > MAX_JSON_CHARS:
            raise CliError(f"{text}: over the limit of {MAX_JSON_CHARS:,} bytes for sacreBLEU's JSON output")
        with open(text, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    if not looks_like_json(text):
        return text
    return claim_from_sacrebleu_json(text, system=args.hyp)


def run(args) -> int:
    from explainer.cli.dialects import write
    from explainer.cli.io import read_corpus, read_segments
    from explainer.dialectcmp.corpus_reproduction import reproduce_corpus
    from explainer.dialectcmp.reproduction import claim_parts, reproduce

    if args.jsonl is None and not args.ref:
        raise CliError("give at least one --ref: the metrics compare the candidate with references")
    if args.jsonl is not None and args.ref:
        raise CliError("--ref is for --candidate and --hyp; with --jsonl put the references in each line")
    try:
        claim = _claim_text(args)
        parts = claim_parts(claim)
        if args.jsonl is not None:
            segs = read_segments(args.jsonl)
            if not segs:
                raise CliError(f"{args.jsonl} has no segments")
            hyps, refs = [s.candidate for s in segs], [s.references for s in segs]
            results = [reproduce_corpus(hyps, refs, c, metric=args.metric, paths=(args.jsonl, None))
                       for c in parts]
        elif args.hyp is not None:
            hyps, refs = read_corpus(args.hyp, args.ref)
            results = [reproduce_corpus(hyps, refs, c, metric=args.metric, paths=(args.hyp, list(args.ref)))
                       for c in parts]
        else:
            results = [reproduce(args.candidate, args.ref, c, metric=args.metric) for c in parts]
    except ValueError as e:
        raise CliError(str(e)) from None
    if len(results) == 1:
        write(results[0].to_dict(), "the result")
    else:
        write({"claim": claim, "parts": [r.to_dict() for r in results]}, "the result")
    return 0
