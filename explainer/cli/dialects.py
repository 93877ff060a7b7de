"""`python -m explainer dialects ...`: every implementation side by side, and where two first disagree.

    python -m explainer dialects --candidate TEXT --ref TEXT [--ref TEXT ...] [--metric bleu|rouge|chrf|ter|...]
    python -m explainer dialects --jsonl FILE [--metric ...] [--corpus]

Prints, per input (one JSON object per line in ``--jsonl`` mode; one for the whole file with ``--corpus``):
``{"metric", "level", "rows": [{"id", "label", "dialect", "options", "argv", "score", "bleu"|"fmeasure", ...}],
"pairs": [{"a", "b", "first_step", "why", "cells"}]}``. A row's numbers are what ``python -m explainer`` prints
with the row's ``argv`` on ``{"candidate", "references"}`` (stdin). Pairs: each row against the first, or the
``--pair A:B`` given (row ids or 1-based row numbers), or ``--all-pairs``. ``--metric`` is any registered family
(``explainer.families.FAMILIES``): its rows and steps are its part's (``explainer.dialectcmp.families``).
"""
from __future__ import annotations

import argparse

from explainer.cli.io import CliError, write_json
from explainer.cli.io import read_segments as _read_segments

__all__ = ["add_arguments", "run", "parse_pairs", "read_segments", "write"]


def _family_names() -> list[str]:
    from explainer.families import family_names

    return family_names()


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--candidate", metavar="TEXT", help="the candidate text")
    src.add_argument("--jsonl", metavar="FILE",
                     help="JSONL: one {\"candidate\": ..., \"references\": [...]} per line ('-' = stdin)")
    p.add_argument("--ref", metavar="TEXT", action="append", default=[],
                   help="a reference text (repeat for several references); with --candidate")
    p.add_argument("--metric", choices=_family_names(), default="bleu",
                   help="the metric family: " + ", ".join(_family_names()) + " (default: bleu)")
    p.add_argument("--types", default=None,
                   help="rouge: comma-separated types (default rouge1,rouge2,rougeL,rougeLsum); the first one is "
                        "each row's headline 'score'")
    p.add_argument("--corpus", action="store_true", help="with --jsonl: compare at corpus level (one object)")
    pairs = p.add_mutually_exclusive_group()
    pairs.add_argument("--pair", action="append", default=[], metavar="A:B",
                       help="compare rows A and B (ids such as sacrebleu, nltk:method1, or 1-based row numbers); "
                            "repeatable; default: each row against the first")
    pairs.add_argument("--all-pairs", action="store_true", help="compare every pair of rows")


def read_segments(path: str) -> list[tuple[int, str, list[str]]]:
    """(line number, candidate, references) for every non-empty JSONL line (the shared CLI reader)."""
    return [tuple(s) for s in _read_segments(path)]


def write(obj, where: str) -> None:
    """One JSON line on stdout, encoded completely before anything is written (the shared CLI writer)."""
    write_json(obj, where)


def parse_pairs(specs, row_ids: list[str], all_pairs: bool = False) -> list[tuple[str, str]] | None:
    """``["A:B", ...]`` (ids or 1-based numbers) -> id pairs; None means the default (each against the first)."""
    if all_pairs:
        return [(a, b) for i, a in enumerate(row_ids) for b in row_ids[i + 1:]]
    if not specs:
        return None
    out = []
    for spec in specs:
        # ids contain ':' themselves (nltk:method1): split at the ':' that leaves two known ids
        cut = [i for i, ch in enumerate(spec) if ch == ":"]
        found = None
        for i in cut:
            a, b = _row_ref(spec[:i], row_ids), _row_ref(spec[i + 1:], row_ids)
            if a and b:
                found = (a, b)
                break
        if found is None:
            raise CliError(f"--pair {spec!r}: expected A:B with two row ids or numbers; rows: {', '.join(row_ids)}")
        out.append(found)
    return out


def _row_ref(s: str, ids: list[str]) -> str | None:
    s = s.strip()
    if s in ids:
        return s
    if s.isascii() and s.isdigit() and 1 <= int(s) <= len(ids):
        return ids[int(s) - 1]
    return None


def _types(args) -> tuple:
    """``--types`` for the family's comparison (only a family with types takes it)."""
    from explainer.dialectcmp.families import families_with_types, family_part

    part = family_part(args.metric)
    if args.types is not None and not part.has_types:
        raise CliError(f"--types applies to --metric {' or '.join(families_with_types())}")
    try:
        return part.comparison_types(args.types)
    except ValueError as e:
        raise CliError(str(e)) from None


def _pairs(cmp, args) -> None:
    """The pairs asked for (default: each row against the first), each kept in the comparison."""
    from explainer.dialectcmp.comparison import default_pairs, pairs_scope

    pairs = parse_pairs(args.pair, [r.id for r in cmp.rows], args.all_pairs)
    with pairs_scope():
        for a, b in (default_pairs(cmp.rows) if pairs is None else pairs):
            cmp.pair(a, b)


def _compare(args, types, cand, refs, where: str) -> dict:
    from explainer.dialectcmp.comparison import compare

    try:
        cmp = compare(cand, refs, metric=args.metric, types=types, pairs=[])
        _pairs(cmp, args)
    except ValueError as e:
        raise CliError(f"{where}{e}") from None
    return cmp.to_dict()


def run(args) -> int:
    _write = write
    types = _types(args)
    if args.candidate is not None:
        if args.corpus:
            raise CliError("--corpus needs --jsonl (one segment per line)")
        if not args.ref:
            raise CliError("give at least one --ref TEXT")
        _write(_compare(args, types, args.candidate, args.ref, ""), "the result")
        return 0
    if args.ref:
        raise CliError("--ref is for --candidate; with --jsonl put the references in each line")
    segments = read_segments(args.jsonl)
    if not segments:
        where = "standard input" if args.jsonl == "-" else args.jsonl
        raise CliError(f"{where} has no segments: give one JSON object per line, "
                       '{"candidate": "...", "references": ["..."]}')
    if args.corpus:
        from explainer.dialectcmp.comparison import compare_corpus

        try:
            cmp = compare_corpus([s[1] for s in segments], [s[2] for s in segments], metric=args.metric,
                                 types=types, pairs=[])
            _pairs(cmp, args)
        except ValueError as e:
            raise CliError(str(e)) from None
        _write(cmp.to_dict(), "the corpus result")
        return 0
    for lineno, cand, refs in segments:
        _write(_compare(args, types, cand, refs, f"line {lineno}: "), f"line {lineno}")
    return 0
