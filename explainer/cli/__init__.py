"""`python -m explainer {bleu,rouge,chrf,ter,dialects,reproduce,compare} ...` (console script: `explainer`).

Each sub-command is a module of this package with ``add_arguments(parser)`` and ``run(args) -> int`` (``bleu``,
``rouge``, ``chrf``, ``ter``, ``dialects``, ``reproduce``, ``compare``), imported here and registered in
``COMMANDS`` (no import by name); each calls plain functions of the cores and feature packages, and its input and
output go through ``explainer.cli.io`` (see that module for the shared rules). This module only dispatches and turns
every expected error into one line on stderr with a non-zero exit (never a traceback).

Start-up stays fast: building the parser imports only the sub-command modules, which import nothing heavy at
the top; the metric cores (and the libraries they use) are imported by ``run``, so ``--help`` loads none.
"""
from __future__ import annotations

import argparse
import os
import sys

from explainer.cli import bleu, chrf, compare, dialects, reproduce, rouge, semantic, ter
from explainer.cli.io import CliError, one_line

__all__ = ["main", "build_parser", "COMMANDS", "COMPARE_RUNNERS", "CliError"]

COMMANDS = {
    "bleu": (bleu, "Explain BLEU for JSONL segments or a line-aligned corpus."),
    "rouge": (rouge, "Explain ROUGE for JSONL segments or a line-aligned corpus."),
    "chrf": (chrf, "Explain chrF / chrF++ for JSONL segments or a line-aligned corpus."),
    "ter": (ter, "Explain TER (translation edit rate) for JSONL segments or a line-aligned corpus."),
    "semantic": (semantic, "STS and BERTScore (all-MiniLM-L6-v2, offline) for JSONL segments or a line-aligned "
                           "corpus."),
    "dialects": (dialects, "Every implementation of a metric (--metric) side by side, and the first step where two "
                           "disagree."),
    "reproduce": (reproduce, "Which configurations give a claimed number (BLEU, ROUGE, chrF, TER, ...) for this "
                             "candidate and references?"),
    "compare": (compare, "Compare systems on a test set: corpus scores, confidence intervals and paired "
                         "significance tests (sacreBLEU's)."),
}


#: a family's own `compare` runner ("module:function"), used when it is compared alone: its corpus details,
#: `--segments`, `--report` and reading (BLEU streams its files); every other family, and several metrics at once,
#: go through its MetricFamily (explainer/cli/compare_families.py)
COMPARE_RUNNERS = {
    "bleu": "explainer.cli.compare_bleu:run",
    "rouge": "explainer.cli.compare_rouge:run",
    "chrf": "explainer.cli.compare_chrf:run",
}
COMPARE_FAMILIES = "explainer.cli.compare_families:run"


class _Parser(argparse.ArgumentParser):
    """argparse prints the whole usage block before a bad-flag error; print one line (and where to look)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def _prog() -> str:
    """``explainer`` when run as the console script, else ``python -m explainer`` (the same program)."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "explainer" if name in ("explainer", "explainer.exe") else "python -m explainer"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=_prog(), description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (mod, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
        if mod is compare:
            p.set_defaults(compare_runners=COMPARE_RUNNERS, compare_families=COMPARE_FAMILIES)
    return parser


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so that the interpreter's final flush does not print
    'Exception ignored ... BrokenPipeError'."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    prefix = f"explainer {args.command}"
    try:
        from explainer.cli.io import check_argv, check_stdout

        check_argv(sys.argv[1:] if argv is None else argv)
        check_stdout()
        rc = int(args._run(args) or 0)
        sys.stdout.flush()   # inside the try: a closed pipe or a full disk surfaces here, not at exit
        return rc
    except CliError as e:
        print(f"{prefix}: error: {one_line(str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`| head`): not an error; must precede OSError
        _quiet_stdout()
        return 0
    except MemoryError:
        print(f"{prefix}: error: out of memory: this input needs more memory than the machine has; split it, "
              "or drop --full (the statistics need far less)", file=sys.stderr)
        return 2
    except (ValueError, OSError) as e:   # the cores' ExplainerInputError / option errors, and file errors
        print(f"{prefix}: error: {one_line(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # a bug of ours: still one line, never a traceback, and say it is not the user's fault
        print(f"{prefix}: internal error ({type(e).__name__}: {one_line(str(e))}); "
              "this is a bug in the explainer, please report it with the input", file=sys.stderr)
        return 3
