"""Configurations: a dialect plus the options given to it, with the CLI argument list that computes it.

A :class:`Config` is what one row of the side-by-side table, or one candidate of the reproduce search, is.
``argv`` gives the exact ``python -m explainer <family>`` arguments (input: one JSON line on stdin) that
print its numbers; documented flags are used where the CLI has them, ``-o KEY=VALUE`` otherwise.
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from typing import Sequence

__all__ = ["Config", "bleu_argv", "dialect_class", "rouge_argv", "stdin_line", "shell_command"]


@dataclass(frozen=True)
class Config:
    """One dialect with explicit options. ``options`` holds only what is given (the rest is the dialect's
    default), as ``(name, value)`` pairs so that a Config can be a dict key."""

    family: str                     # a registered family's name (explainer.families.FAMILIES)
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

    def dialect_class(self) -> type:
        """The dialect's class, from its family's registry."""
        return dialect_class(self.family, self.dialect)

    def bound(self):
        """The bound dialect: the one hashable value "dialect + options" (ROUGE: + types) the cores, the caches
        and the CLI use; configurations that compute the same numbers give equal values."""
        from explainer.families import get_family

        extra = {"types": list(self.types)} if self.types else {}
        return get_family(self.family).bind(self.dialect, **extra, **self.opts)

    def argv(self) -> list[str]:
        """The ``python -m explainer`` arguments that print this configuration's numbers (the dialect's own
        ``cli_argv``; [] for a family without a command)."""
        cls = self.dialect_class()
        if not hasattr(cls, "cli_argv"):
            return []
        return cls.cli_argv(self.opts, self.types) if self.types else cls.cli_argv(self.opts)


def dialect_class(family: str, name: str) -> type:
    """A dialect class of a registered family by name (ValueError naming the choices when unknown)."""
    from explainer.families import get_family

    return get_family(family).dialects.dialect_class(name)


def bleu_argv(dialect: str, options: dict) -> list[str]:
    """``python -m explainer bleu`` arguments for a configuration (the dialect's flag table)."""
    return dialect_class("bleu", dialect).cli_argv(options)


def rouge_argv(dialect: str, options: dict, types: Sequence[str]) -> list[str]:
    return dialect_class("rouge", dialect).cli_argv(options, types)


def stdin_line(candidate: str, references: Sequence[str]) -> str:
    """The JSON line the ``argv`` of a configuration reads from stdin (``--jsonl -``)."""
    return json.dumps({"candidate": candidate, "references": list(references)}, ensure_ascii=False)


def shell_command(argv: Sequence[str], stdin: str) -> str:
    """A shell command that runs ``argv`` on ``stdin`` (for people who copy it into a terminal)."""
    return f"printf '%s\\n' {shlex.quote(stdin)} | python -m explainer {shlex.join(argv)}"
