"""Configurations: a dialect plus the options given to it, with the CLI argument list that computes it.

A :class:`Config` is what one row of the side-by-side table, or one candidate of the reproduce search, is.
``argv`` gives the exact ``python -m explainer bleu|rouge`` arguments (input: one JSON line on stdin) that
print its numbers; documented flags are used where the CLI has them, ``-o KEY=VALUE`` otherwise.
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from typing import Sequence

from explainer.options import format_value

__all__ = ["Config", "bleu_argv", "rouge_argv", "chrf_argv", "stdin_line", "shell_command"]


@dataclass(frozen=True)
class Config:
    """One dialect with explicit options. ``options`` holds only what is given (the rest is the dialect's
    default), as ``(name, value)`` pairs so that a Config can be a dict key."""

    family: str                     # "bleu" or "rouge"
    dialect: str
    options: tuple = ()
    id: str = ""
    label: str = ""
    types: tuple = ()               # ROUGE: the types computed
    note: str = ""                  # what makes this configuration special, in words
    extra: tuple = field(default=(), compare=False)

    @classmethod
    def make(cls, family: str, dialect: str, options: dict | None = None, **kw) -> "Config":
        opts = tuple(sorted((options or {}).items()))
        return cls(family, dialect, opts, **kw)

    @property
    def opts(self) -> dict:
        return dict(self.options)

    def argv(self) -> list[str]:
        if self.family == "bleu":
            return bleu_argv(self.dialect, self.opts)
        if self.family == "chrf":
            return chrf_argv(self.dialect, self.opts)
        return rouge_argv(self.dialect, self.opts, self.types)


def bleu_argv(dialect: str, options: dict) -> list[str]:
    """``python -m explainer bleu`` arguments for a configuration (the command line's own flag table)."""
    from explainer.bleu.flags import option_argv

    return ["bleu", "--jsonl", "-", "--dialect", dialect] + option_argv(dialect, options)


def rouge_argv(dialect: str, options: dict, types: Sequence[str]) -> list[str]:
    argv = ["rouge", "--jsonl", "-", "--dialect", dialect]
    if types:
        argv += ["--types", ",".join(types)]
    for name in sorted(options):
        v = options[name]
        if v is None:
            continue
        if name == "use_stemmer":
            if v:
                argv.append("--stem")
        elif name == "multi_ref":
            argv += ["--multi-ref", str(v)]
        elif name == "tokenizer":
            argv += ["--tokenizer", str(v)]
        else:
            argv += ["-o", f"{name}={format_value(v)}"]
    return argv


def chrf_argv(dialect: str, options: dict) -> list[str]:
    """``python -m explainer chrf`` arguments for a configuration (its flags where it has them, -o otherwise)."""
    argv = ["chrf", "--jsonl", "-", "--dialect", dialect]
    flags = {"word_order": "--word-order", "char_order": "--char-order", "beta": "--beta"}
    switches = {"lowercase": "--lowercase", "whitespace": "--whitespace", "eps_smoothing": "--eps-smoothing"}
    for name in sorted(options):
        v = options[name]
        if v is None:
            continue
        if name in flags:
            argv += [flags[name], format_value(v)]
        elif name in switches and v is True:
            argv.append(switches[name])
        elif name == "ignore_whitespace" and v is False:
            argv.append("--whitespace")
        else:
            argv += ["-o", f"{name}={format_value(v)}"]
    return argv


def stdin_line(candidate: str, references: Sequence[str]) -> str:
    """The JSON line the ``argv`` of a configuration reads from stdin (``--jsonl -``)."""
    return json.dumps({"candidate": candidate, "references": list(references)}, ensure_ascii=False)


def shell_command(argv: Sequence[str], stdin: str) -> str:
    """A shell command that runs ``argv`` on ``stdin`` (for people who copy it into a terminal)."""
    return f"printf '%s\\n' {shlex.quote(stdin)} | python -m explainer {shlex.join(argv)}"
