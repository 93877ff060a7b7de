"""`python -m explainer reproduce ...`: which configurations give a claimed number?

    python -m explainer reproduce --candidate TEXT --ref TEXT [--ref TEXT ...] --claim VALUE
        [--metric bleu|rouge1|rouge2|rougeL|rougeLsum|any]

Prints ``{"claim", "decimals", "verdict", "message", "matches": [{"metric", "dialect", "options", "references",
"measure", "value", "argv", "stdin", ...}], "truncated": [...], "nearest": [...]}``. ``argv`` is the
``python -m explainer`` argument list that prints ``value`` when ``stdin`` (one JSON line: the candidate and
the references used) is its input; ``references`` are the 0-based indices of the references used. Every
match's value, printed with the claim's decimals (as is, or ×100 / ÷100: ``form``), is the claim.
"""
from __future__ import annotations

import argparse

from explainer.cli.io import CliError

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--candidate", metavar="TEXT", required=True, help="the candidate text")
    p.add_argument("--ref", metavar="TEXT", action="append", default=[], required=True,
                   help="a reference text (repeat for several references)")
    p.add_argument("--claim", metavar="VALUE", required=True,
                   help="the claimed number, with words if you like: 'BLEU = 0.576', '38.0', 'ROUGE-L 0.41', "
                        "'R-1 recall 0.67'")
    p.add_argument("--metric", default="any", choices=("bleu", "rouge1", "rouge2", "rougeL", "rougeLsum", "any"),
                   help="what the claim is (default: any; words in the claim narrow it too)")


def run(args) -> int:
    from explainer.dialectcmp.cli_dialects import write
    from explainer.dialectcmp.reproduction import reproduce

    try:
        res = reproduce(args.candidate, args.ref, args.claim, metric=args.metric)
    except ValueError as e:
        raise CliError(str(e)) from None
    write(res.to_dict(), "the result")
    return 0
