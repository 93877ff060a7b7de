"""`python -m explainer rouge ...`

Segments: ``--jsonl FILE|-``: one JSON object per line with ``candidate`` and ``references`` (a list) or
``reference`` (a string); prints one JSON object per line: ``{"rouge1": {"precision", "recall", "fmeasure"}, ...}``
(``--full``: the whole trace; ``--corpus``: aggregate the lines as one corpus). Corpus: ``--hyp FILE --ref FILE [--ref FILE ...]`` (one segment per line, one
``--ref`` per reference stream) prints one JSON object with the dialect's aggregation.
"""
from __future__ import annotations

import argparse
import json
import sys

from explainer.cli import CliError

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--jsonl", metavar="FILE", help="JSONL segments ('-' = stdin)")
    src.add_argument("--hyp", metavar="FILE", help="corpus: candidates, one per line")
    p.add_argument("--ref", metavar="FILE", action="append", default=[],
                   help="corpus: a reference stream, one per line (repeat for several references)")
    p.add_argument("--dialect", default="rouge-score", help="rouge-score (default), hf-evaluate, textbook, rouge155")
    p.add_argument("--types", default=None,
                   help="comma-separated: rouge1..rouge9, rougeL, rougeLsum, rougeW-1.2, rougeS4, rougeSU4, rougeS* "
                        "(default: the dialect's: rouge1,rouge2,rougeL,rougeLsum; textbook: rouge1,rouge2,rougeL)")
    p.add_argument("--stem", action="store_true", help="Porter stemming (use_stemmer=True)")
    p.add_argument("--multi-ref", choices=["best-f", "pool", "best-recall"], default=None,
                   help="how several references are combined (default: the dialect's)")
    p.add_argument("--tokenizer", default=None, help="rouge-score (default) or unicode (opt-in, not a library default)")
    p.add_argument("--full", action="store_true", help="print the full trace instead of the scores")
    p.add_argument("--corpus", action="store_true",
                   help="with --jsonl: treat the lines as one corpus and print the dialect's aggregation "
                        "(for texts that contain newlines, which --hyp/--ref files cannot hold)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other dialect option, e.g. -o split_summaries=true, -o seed=42, -o use_aggregator=false")


def _options(args) -> dict:
    opts = {}
    if args.stem:
        opts["use_stemmer"] = True
    if args.multi_ref:
        opts["multi_ref"] = args.multi_ref
    if args.tokenizer:
        opts["tokenizer"] = args.tokenizer
    for kv in args.option:
        if "=" not in kv:
            raise CliError(f"--option expects KEY=VALUE, got {kv!r}")
        k, v = kv.split("=", 1)
        opts[k.strip()] = v.strip()
    return opts


def _read_lines(path: str) -> list[str]:
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise CliError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CliError(f"{path} is not UTF-8 (byte {e.start}: {data[e.start:e.start + 1]!r})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def _segment(obj, lineno: int):
    if not isinstance(obj, dict):
        raise CliError(f"line {lineno}: expected a JSON object with 'candidate' and 'references'")
    cand = obj.get("candidate", obj.get("prediction", obj.get("hypothesis")))
    refs = obj.get("references", obj.get("reference"))
    if not isinstance(cand, str):
        raise CliError(f"line {lineno}: 'candidate' must be a string")
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list) or not refs or not all(isinstance(r, str) for r in refs):
        raise CliError(f"line {lineno}: 'references' must be a non-empty list of strings")
    return cand, refs


def run(args) -> int:
    from explainer.rouge import explain_rouge, score_rouge
    from explainer.rouge.engine import check_rouge_call

    opts = _options(args)
    # dialect, types and options concern no line of the input: check them once, before reading it
    try:
        check_rouge_call(args.dialect, args.types, corpus=bool(args.corpus or args.hyp is not None), **opts)
    except ValueError as e:
        raise CliError(str(e)) from None
    out = sys.stdout
    if args.jsonl is not None:
        if args.ref:
            raise CliError("--ref is for corpus mode (--hyp); with --jsonl put the references in each line")
        segments = []
        for lineno, line in enumerate(_read_lines(args.jsonl), 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise CliError(f"line {lineno}: invalid JSON ({e.msg})") from None
            segments.append((lineno,) + _segment(obj, lineno))
        if args.corpus:
            if not segments:
                raise CliError(f"{args.jsonl} has no segments")
            return _corpus([s[1] for s in segments], [s[2] for s in segments], args, opts)
        for lineno, cand, refs in segments:
            try:
                if args.full:
                    res = explain_rouge(cand, refs, dialect=args.dialect, types=args.types, **opts).to_dict()
                else:
                    res = {t: s.to_dict() for t, s in
                           score_rouge(cand, refs, dialect=args.dialect, types=args.types, **opts).items()}
            except ValueError as e:
                raise CliError(f"line {lineno}: {e}") from None
            out.write(json.dumps(res, ensure_ascii=False) + "\n")
        return 0
    if not args.ref:
        raise CliError("corpus mode needs at least one --ref FILE")
    hyps = _read_lines(args.hyp)
    streams = [_read_lines(r) for r in args.ref]
    for path, s in zip(args.ref, streams):
        if len(s) != len(hyps):
            raise CliError(f"{args.hyp} has {len(hyps)} lines but {path} has {len(s)}")
    refs = [list(x) for x in zip(*streams)] if hyps else []
    return _corpus(hyps, refs, args, opts)


def _corpus(hyps, refs, args, opts) -> int:
    from explainer.rouge import explain_rouge_corpus

    ct = explain_rouge_corpus(hyps, refs, dialect=args.dialect, types=args.types, traces=args.full, **opts)
    d = ct.to_dict()
    if not args.full:
        d.pop("item_scores", None)
        d.pop("chosen_reference", None)
    sys.stdout.write(json.dumps(d, ensure_ascii=False) + "\n")
    return 0
