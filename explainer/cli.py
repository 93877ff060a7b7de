"""`python -m explainer {bleu,rouge} ...`: one sub-command per metric family.

Each metric package provides ``add_arguments(parser)`` and ``run(args) -> int`` in its own ``cli`` module
(``explainer/bleu/cli.py``, ``explainer/rouge/cli.py``). This module only dispatches and turns every
expected error into one line on stderr with a non-zero exit (never a traceback).
"""
from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "bleu": ("explainer.bleu.cli", "Explain BLEU for JSONL segments or a line-aligned corpus."),
    "rouge": ("explainer.rouge.cli", "Explain ROUGE for JSONL segments or a line-aligned corpus."),
    "dialects": ("explainer.dialectcmp.cli_dialects",
                 "Every BLEU or ROUGE implementation side by side, and the first step where two disagree."),
    "reproduce": ("explainer.dialectcmp.cli_reproduce",
                  "Which configurations give a claimed BLEU or ROUGE number for this candidate and references?"),
}


class CliError(Exception):
    """An error with a message meant for the user (printed as one line, exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse prints the whole usage block before a bad-flag error; print one line (and where to look)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m explainer", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (modname, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        try:
            mod = importlib.import_module(modname)
        except ImportError:  # metric package not available yet
            continue
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        print(f"explainer: the '{args.command}' command is not available", file=sys.stderr)
        return 2
    try:
        return int(run(args) or 0)
    except CliError as e:
        print(f"explainer {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (`| head`): not an error; must precede OSError
        return 0
    except (ValueError, OSError, UnicodeDecodeError) as e:
        print(f"explainer {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # a bug of ours: still one line, never a traceback, and say it is not the user's fault
        print(f"explainer {args.command}: internal error ({type(e).__name__}: {e}); "
              "this is a bug in the explainer, please report it with the input", file=sys.stderr)
        return 3
