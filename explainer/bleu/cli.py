"""`python -m explainer bleu ...`

Segments: ``--jsonl FILE|-``: one JSON object per line, ``{"candidate": str, "references": [str, ...]}``; writes
one JSON object per line, in order, with ``score`` (native scale), ``bleu`` (0..1), ``counts``, ``totals``,
``precisions`` (0..1), ``bp``, ``sys_len``, ``ref_len``, ``ratio``, ``signature``, ``warnings``,
``library_error`` (``--full``: the whole trace; ``--corpus``: the lines as one corpus).
Corpus: ``--hyp FILE --ref FILE [--ref FILE ...]`` (line-aligned, one ``--ref`` per reference stream) writes
one JSON object for the corpus.

Generic flags map onto each dialect's options (``--max-order`` is ``max_ngram_order`` for sacreBLEU,
``max_order`` for HF, uniform weights for NLTK, ...); a flag the dialect does not have is an error.
``-o KEY=VALUE`` sets any option by its name (``explainer.bleu.dialect_options(name)``).
"""
from __future__ import annotations

import argparse
import json
import re
import sys

from explainer.cli import CliError

__all__ = ["add_arguments", "run", "build_options"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--jsonl", metavar="FILE", help="JSONL segments ('-' = stdin)")
    src.add_argument("--hyp", metavar="FILE", help="corpus: candidates, one per line")
    p.add_argument("--ref", metavar="FILE", action="append", default=[],
                   help="corpus: a reference stream, one per line (repeat for several references)")
    p.add_argument("--dialect", default="sacrebleu",
                   help="sacrebleu (default), nltk, hf-evaluate, multi-bleu, mteval, textbook")
    p.add_argument("--tokenize", default=None, help="sacrebleu: 13a (default), intl, zh, char, none")
    p.add_argument("--lowercase", action="store_true", default=None, help="lowercase (sacrebleu, multi-bleu -lc)")
    p.add_argument("--smooth", default=None,
                   help="sacrebleu: exp|floor|add-k|none; nltk: method0..method7; hf-evaluate: none|add-one "
                        "(or false|true); mteval: exp|nist|none (or true|false)")
    p.add_argument("--smooth-value", type=float, default=None, help="sacrebleu: value for floor / add-k")
    p.add_argument("--max-order", type=int, default=None, help="maximum n-gram order (default 4)")
    eff = p.add_mutually_exclusive_group()
    eff.add_argument("--effective-order", dest="effective_order", action="store_true", default=None,
                     help="sacrebleu: average only over orders with candidate n-grams")
    eff.add_argument("--no-effective-order", dest="effective_order", action="store_false")
    p.add_argument("--api", default=None, help="sacrebleu: corpus_bleu (default) or sentence_bleu")
    p.add_argument("--weights", default=None, help="nltk: comma-separated weights, e.g. 0.25,0.25,0.25,0.25")
    p.add_argument("--auto-reweigh", action="store_true", default=None, help="nltk: auto_reweigh=True")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other dialect option by name, e.g. -o epsilon=0.2, -o preserve_case=true")
    p.add_argument("--bootstrap", type=int, default=None, metavar="N",
                   help="corpus modes: add a bootstrap mean and 95%% CI from N resamples (sacreBLEU's procedure; "
                        "seed from SACREBLEU_SEED, default 12345)")
    p.add_argument("--full", action="store_true", help="write the whole trace instead of the statistics")
    p.add_argument("--corpus", action="store_true",
                   help="with --jsonl: score the lines as one corpus (for texts containing newlines)")


_FLAG_TO_OPTION = {
    "tokenize": {"sacrebleu": "tokenize"},
    "lowercase": {"sacrebleu": "lowercase", "multi-bleu": "lowercase"},
    "smooth": {"sacrebleu": "smooth_method", "nltk": "smoothing", "hf-evaluate": "smooth", "mteval": "smoothing"},
    "smooth_value": {"sacrebleu": "smooth_value"},
    "max_order": {"sacrebleu": "max_ngram_order", "hf-evaluate": "max_order", "textbook": "max_n"},
    "effective_order": {"sacrebleu": "effective_order"},
    "api": {"sacrebleu": "api"},
    "weights": {"nltk": "weights"},
    "auto_reweigh": {"nltk": "auto_reweigh"},
}
# --smooth for the dialects whose smoothing is a bool: each accepts only its own names (HF's add-one is not
# mteval's NIST smoothing; a shared table once turned `--dialect hf-evaluate --smooth exp` into smooth=True).
_BOOL_SMOOTH = {
    "hf-evaluate": {"none": "false", "add-one": "true", "false": "false", "true": "true"},
    "mteval": {"none": "false", "exp": "true", "nist": "true", "false": "false", "true": "true"},
}


def build_options(args) -> dict:
    """The dialect options implied by the CLI flags (only the flags that were given)."""
    from explainer.bleu import dialect_names

    d = args.dialect
    if d not in dialect_names():
        raise CliError(f"unknown dialect {d!r}; choose one of: {', '.join(dialect_names())}")
    opts: dict = {}
    for flag, table in _FLAG_TO_OPTION.items():
        value = getattr(args, flag, None)
        if value is None:
            continue
        if flag == "max_order" and d == "nltk":
            if value < 1:
                raise CliError("--max-order must be at least 1")
            opts["weights"] = (1.0 / value,) * value
            continue
        if d not in table:
            raise CliError(f"--{flag.replace('_', '-')} does not apply to the {d} dialect "
                           f"(it applies to: {', '.join(table)})")
        if flag == "smooth" and d in _BOOL_SMOOTH:
            v = _BOOL_SMOOTH[d].get(str(value).lower())
            if v is None:
                raise CliError(f"--smooth {value!r} is not a {d} smoothing; {d} accepts: "
                               f"{', '.join(_BOOL_SMOOTH[d])}")
            value = v
        opts[table[d]] = value
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
        raise CliError(f"{path} is not valid UTF-8 (byte {e.start}: {data[e.start:e.start + 1]!r})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def _segment(obj, lineno: int) -> tuple[str, list[str]]:
    if not isinstance(obj, dict):
        raise CliError(f"line {lineno}: expected a JSON object with 'candidate' and 'references'")
    if "candidate" not in obj:
        raise CliError(f"line {lineno}: missing 'candidate'")
    cand = obj["candidate"]
    refs = obj.get("references", obj.get("reference"))
    if not isinstance(cand, str):
        raise CliError(f"line {lineno}: 'candidate' must be a string")
    if isinstance(refs, str):
        refs = [refs]
    if refs is None:
        raise CliError(f"line {lineno}: missing 'references' (a list of strings)")
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        raise CliError(f"line {lineno}: 'references' must be a list of strings")
    return cand, refs


def _stats_dict(st) -> dict:
    d = st.to_dict()
    d.pop("segment_stats", None)
    return d


_SURROGATE = re.compile("[\ud800-\udfff]")


def _char_desc(ch: str) -> str:
    cp = ord(ch)
    if 0xD800 <= cp <= 0xDFFF:
        return (f"a lone surrogate U+{cp:04X} (a JSON escape \\u{cp:04x} without its pair), which is not a "
                "character and cannot be written as UTF-8")
    return f"the character U+{cp:04X} ({ch!r})"


def _write(obj, where: str) -> None:
    """One JSON line on stdout, encoded completely before anything is written: a result stdout cannot encode is
    one error line naming the input line, never a partial line."""
    text = json.dumps(obj, ensure_ascii=False) + "\n"
    enc = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(enc, getattr(sys.stdout, "errors", None) or "strict")
    except UnicodeEncodeError as e:
        ch = e.object[e.start:e.start + 1] if isinstance(e.object, str) else ""
        hint = "" if _SURROGATE.match(ch) else "; set PYTHONIOENCODING=utf-8"
        raise CliError(f"{where}: the result cannot be written to stdout (encoding {enc}): it contains "
                       f"{_char_desc(ch) if ch else e.reason}{hint}") from None
    except LookupError:
        pass   # an encoding Python does not know: let the stream itself report it
    sys.stdout.write(text)


def _check_surrogates(segments) -> None:
    """--full repeats every text: refuse lone surrogates up front, before any output, with the line number."""
    for lineno, cand, refs in segments:
        for what, t in [("'candidate'", cand)] + [(f"reference {k + 1}", r) for k, r in enumerate(refs)]:
            m = _SURROGATE.search(t)
            if m:
                raise CliError(f"line {lineno}: {what} contains {_char_desc(m.group())}; the full trace repeats "
                               "the text (remove it, or drop --full to get the statistics only)")


def run(args) -> int:
    from explainer.bleu import explain_bleu, explain_bleu_corpus, score_bleu, score_bleu_corpus

    opts = build_options(args)
    try:
        from explainer.bleu import get_dialect
        get_dialect(args.dialect, **opts)        # validate options once, before reading any input
    except ValueError as e:
        raise CliError(str(e)) from None

    if args.bootstrap is not None and args.jsonl is not None and not args.corpus:
        raise CliError("--bootstrap needs a corpus: use --hyp/--ref files or --jsonl with --corpus")
    if args.bootstrap is not None and args.bootstrap < 1:
        raise CliError("--bootstrap needs a positive number of resamples")

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
            except RecursionError:
                raise CliError(f"line {lineno}: invalid JSON (nested too deeply to read)") from None
            segments.append((lineno,) + _segment(obj, lineno))
        if args.full:
            _check_surrogates(segments)
        if args.corpus:
            if not segments:
                raise CliError(f"{args.jsonl} has no segments")
            return _corpus([s[1] for s in segments], [s[2] for s in segments], args, opts)
        for lineno, cand, refs in segments:
            try:
                if args.full:
                    res = explain_bleu(cand, refs, dialect=args.dialect, **opts).to_dict()
                else:
                    res = _stats_dict(score_bleu(cand, refs, dialect=args.dialect, **opts))
            except ValueError as e:
                raise CliError(f"line {lineno}: {e}") from None
            _write(res, f"line {lineno}")
        return 0

    if not args.ref:
        raise CliError("corpus mode needs at least one --ref FILE")
    hyps = _read_lines(args.hyp)
    streams = [_read_lines(r) for r in args.ref]
    for path, s in zip(args.ref, streams):
        if len(s) != len(hyps):
            raise CliError(f"{args.hyp} has {len(hyps)} lines but {path} has {len(s)}: the files must be "
                           "line-aligned (the explainer never truncates)")
    if not hyps:
        raise CliError(f"{args.hyp} is empty")
    refs = [list(x) for x in zip(*streams)]
    return _corpus(hyps, refs, args, opts)


def _corpus(hyps, refs, args, opts) -> int:
    from explainer.bleu import explain_bleu_corpus, score_bleu_corpus

    try:
        if args.full:
            d = explain_bleu_corpus(hyps, refs, dialect=args.dialect, **opts).to_dict(full=True)
        else:
            d = score_bleu_corpus(hyps, refs, dialect=args.dialect, **opts).to_dict()
    except ValueError as e:
        raise CliError(str(e)) from None
    d["n_segments"] = len(hyps)
    if args.bootstrap:
        from explainer.bleu import bootstrap_bleu_corpus

        try:
            d["bootstrap"] = bootstrap_bleu_corpus(hyps, refs, dialect=args.dialect, n_bootstrap=args.bootstrap,
                                                   **opts).to_dict()
        except ValueError as e:
            raise CliError(str(e)) from None
    _write(d, "the corpus result")
    return 0
