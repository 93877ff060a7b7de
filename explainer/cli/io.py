"""Input and output of every ``python -m explainer`` sub-command, so that all of them behave the same.

A sub-command module (``explainer/cli/bleu.py``, ``rouge.py``, ...) provides ``add_arguments(parser)`` and
``run(args) -> int`` and does its reading, checking and writing with these functions. It raises ``CliError``
for anything the user must fix; ``explainer.cli.main`` prints it as ONE line on stderr
(``explainer <command>: error: <message>``) and exits 2. Exit codes: 0 done, 2 bad input / usage / resources,
3 a bug of ours (still one line), 130 interrupted. A closed pipe (``| head``) ends the run quietly with 0.

Reading: the rules and messages of ``explainer.inputs`` (shared with the corpus core and the Corpus page), with
its errors raised as ``CliError``:

* ``read_lines(path) -> list[str]``: the lines of a UTF-8 file (``"-"`` = stdin). A byte-order mark and CRLF
  line ends are accepted; a final newline adds no empty line. Not UTF-8 -> ``"PATH: line N is not valid UTF-8
  (byte 0xE9 at column 4); save it as UTF-8"``; unreadable -> ``"cannot read PATH: reason"``.
* ``read_segments(path) -> list[Segment]``: JSON Lines, one object per non-blank line; ``Segment``
  (``explainer.inputs.Segment``) is the tuple ``(lineno, candidate, references)``. Keys: ``candidate`` (or
  ``prediction`` / ``hypothesis``, the names of Hugging Face evaluate and sacreBLEU) and ``references`` (a list
  of strings) or ``reference`` (one string). An empty list is allowed here (BLEU records what the library does
  with it); a command that needs references refuses with ``require_references``. Every error names the line:
  invalid JSON, JSON nested too deeply to read, a number of more than 4,300 digits, a wrong type, a missing key.
* ``read_corpus(hyp_path, ref_paths) -> (candidates, references)``: line-aligned files, one ``--ref`` per
  reference stream; ``references[i]`` is the list of segment i's references. Files of different lengths
  (``"H has N lines but R has M: the files must be line-aligned (the explainer never truncates)"``) and an
  empty corpus (``"H is empty"``) are errors.
* Limits of ``read_segments`` and ``read_corpus`` (the commands that keep their whole input in memory: ``bleu``,
  ``rouge``, ``chrf``, ``dialects``, ``reproduce``): ``MAX_REFERENCES`` references per segment (``--ref`` files,
  counted before reading), ``MAX_SEGMENTS`` segments (lines of each file) and ``MAX_INPUT_BYTES`` bytes of all
  input files together (regular files measured before reading, every file counted while it is read); every
  line within the limit on one text (a JSON Lines line: ``explainer.inputs.MAX_RECORD_CHARS``), refused as soon as
  it is passed. ``compare`` streams its files and has its own limits.
* ``aligned_blocks(paths, first=..., block=...)``: the same files read in lockstep, a block of lines at a time
  (``compare`` streams its files with it: flat memory), with the same messages as ``read_corpus``.
* ``option_pairs(["KEY=VALUE", ...]) -> dict``: the ``-o`` flags (values stay strings; each core coerces them
  with its option specs).
* ``int_arg(lo, hi)``: an argparse ``type=`` for a bounded whole number, checked before conversion
  (so ``--bootstrap 9999...9`` with 5,000 digits is a one-line refusal, not a conversion error).

Checking before any output (a run either writes all its results or none):

* ``check_stdout()``: refuses a closed stdout (``>&-``) before any work.
* ``check_texts(items, full=...)``: with ``full=True`` (the trace repeats the input texts), every text must be
  writable to stdout: a lone surrogate (``"\\ud800"`` in JSON) or a character stdout's encoding lacks is
  refused with its line (``items`` are ``(where, candidate, references)``, e.g. ``Segment`` tuples or
  ``corpus_items(...)``).

Writing:

* ``write_json(obj, where)``: one JSON line on stdout, encoded completely before anything is written (never a
  partial line). Numbers JSON cannot hold (``inf``, ``nan``: e.g. sacreBLEU's add-k with k = 1e308) are written
  as ``null`` and named in a ``notes`` list of the object (``json_notes`` if it has a ``notes`` that is not a
  list). ``where`` ("line 3", "the corpus result") names
  the result in an encoding error.
"""
from __future__ import annotations

import json
import math
import re
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

if TYPE_CHECKING:
    from explainer.inputs import Segment

__all__ = ["CliError", "read_lines", "read_segments", "read_corpus", "aligned_blocks", "corpus_items", "run_input",
           "option_pairs", "int_arg", "require_references", "check_argv", "check_stdout", "check_texts", "write_json",
           "one_line", "MAX_SEGMENTS", "MAX_REFERENCES", "MAX_INPUT_BYTES"]


# Python's int/str conversion limit (sys.get_int_max_str_digits() default); explainer.inputs.MAX_INT_DIGITS too
MAX_INT_DIGITS = 4300
#: segments of one input (lines of each --hyp / --ref file, lines of a JSON Lines file) of the commands that keep
#: it in memory; BLEU on 100,000 segments of ~165 bytes takes ~30 s of CPU (busy machine) and 0.17 GB
MAX_SEGMENTS = 100_000
#: references per segment (--ref files; references of a JSON Lines segment): video captioning has ~40
MAX_REFERENCES = 100
#: bytes of all input files together (~5 bytes of memory per byte read: ~0.3 GB at the limit)
MAX_INPUT_BYTES = 50_000_000
_LIMITS_HINT = ("split the input, or use `python -m explainer compare`, which streams its files (up to 1,000,000 "
                "segments)")


class CliError(Exception):
    """An error with a message meant for the user (printed as one line, exit code 2)."""


def one_line(message: str) -> str:
    """A message as one line: line breaks inside it (e.g. quoting the user's text) are shown escaped."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


# ------------------------------------------------------------------------------------------------- reading
# explainer.inputs is imported when a command reads its input, not when the parser is built (start-up stays fast)
@contextmanager
def _as_cli_error():
    """``explainer.inputs``' errors, as the CLI's (the same message)."""
    from explainer.inputs import InputFileError

    try:
        yield
    except InputFileError as e:
        raise CliError(str(e)) from None


def read_lines(path: str) -> list[str]:
    """The lines of a UTF-8 file or stdin (``"-"``), without line ends."""
    from explainer import inputs

    with _as_cli_error():
        return inputs.read_lines(path)


def _read_limits():
    from explainer.inputs import ReadLimits

    return ReadLimits(MAX_SEGMENTS, MAX_INPUT_BYTES, what="lines (segments)", hint=_LIMITS_HINT)


def read_segments(path: str) -> list[Segment]:
    """The segments of a JSONL file or stdin (``"-"``); blank lines are skipped (line numbers count them). Within
    ``MAX_SEGMENTS`` lines, ``MAX_INPUT_BYTES`` bytes and ``MAX_REFERENCES`` references per segment."""
    from explainer import inputs

    limits = _read_limits()
    with _as_cli_error():
        limits.check_sizes([path])
        return inputs.read_segments(path, limits=limits, max_refs=MAX_REFERENCES)


def require_references(segments: Iterable[Segment], metric: str) -> None:
    """Refuse a segment without references (for a metric whose core needs at least one)."""
    for s in segments:
        if not s.references:
            raise CliError(f"line {s.lineno}: 'references' is empty; {metric} compares the candidate with at least "
                           "one reference")


def read_corpus(hyp_path: str, ref_paths: list[str]) -> tuple[list[str], list[list[str]]]:
    """Line-aligned corpus files: the candidates and, per candidate, its references (one per ``--ref``)."""
    if not ref_paths:
        raise CliError("corpus mode needs at least one --ref FILE")
    if len(ref_paths) > MAX_REFERENCES:
        raise CliError(f"{len(ref_paths):,} --ref files, over the limit of {MAX_REFERENCES} references per segment")
    from explainer import inputs

    limits = _read_limits()
    with _as_cli_error():
        inputs.check_one_stdin([hyp_path] + ref_paths)
        limits.check_sizes([hyp_path] + ref_paths)
        hyps = inputs.read_lines(hyp_path, limits=limits)
        streams = [inputs.read_lines(r, limits=limits) for r in ref_paths]
        inputs.check_aligned([(inputs.shown_name(p), s) for p, s in zip([hyp_path] + ref_paths, [hyps] + streams)])
    return hyps, [list(x) for x in zip(*streams)]


def aligned_blocks(paths: Sequence[str], *, first: int = 0, block: int = 1000) -> Iterator[list[list[str]]]:
    """``explainer.inputs.aligned_blocks``: line-aligned files in lockstep, ``block`` lines at a time."""
    from explainer import inputs

    with _as_cli_error():
        yield from inputs.aligned_blocks(paths, first=first, block=block)


def corpus_items(hyp_path: str, ref_paths: list[str], hyps: list[str], refs: list[list[str]]):
    """``(where, candidate, references)`` per corpus line, for ``check_texts``."""
    return ((f"{hyp_path} / {', '.join(ref_paths)} line {i + 1}", h, r) for i, (h, r) in enumerate(zip(hyps, refs)))


def option_pairs(pairs: list[str]) -> dict:
    """``-o KEY=VALUE`` flags as a dict (values stay strings)."""
    opts = {}
    for kv in pairs:
        if "=" not in kv:
            raise CliError(f"--option expects KEY=VALUE, got {kv!r}")
        k, v = kv.split("=", 1)
        opts[k.strip()] = v.strip()
    return opts


def int_arg(lo: int | None = None, hi: int | None = None):
    """An argparse ``type=`` for a whole number in [lo, hi] (either bound optional), refusing long digit
    strings before converting them (a 5,000-digit number is a one-line refusal, not a conversion error)."""
    import argparse

    def convert(text: str) -> int:
        t = text.strip()
        digits = t.lstrip("+-")
        if not (digits.isascii() and digits.isdigit()):     # int() would read '١٠' (Arabic-Indic) as 10
            raise argparse.ArgumentTypeError(f"invalid int value: {text[:40]!r}")
        limit = min(len(str(hi)) if hi is not None else MAX_INT_DIGITS, MAX_INT_DIGITS)
        too_long = len(digits.lstrip("0")) > limit
        value = None if too_long else int(t)
        if too_long or (hi is not None and value > hi) or (lo is not None and value < lo):
            shown = text if len(text) <= 20 else f"{text[:12]}... ({len(digits):,} digits)"
            if lo is not None and hi is not None:
                bound = f"from {lo:,} to {hi:,}"
            elif lo is not None:
                bound = f"of at least {lo:,}"
            elif hi is not None:
                bound = f"of at most {hi:,}"
            else:
                bound = f"of at most {MAX_INT_DIGITS:,} digits"
            raise argparse.ArgumentTypeError(f"expected a whole number {bound}, got {shown}")
        return value

    convert.__name__ = "int"
    return convert


# ---------------------------------------------------------------------------------------- checks up front
def check_argv(argv: Sequence[str]) -> None:
    """Refuse an argument that is not valid UTF-8 (Python keeps its bytes as lone surrogates U+DC80..U+DCFF, which
    stdout would write back raw: invalid JSON), before any work."""
    for k, a in enumerate(argv, 1):
        m = re.search("[\udc80-\udcff]", a) if isinstance(a, str) else None
        if m:
            raise CliError(f"argument {k} ({a[:m.start()][-20:]!r} then byte 0x{ord(m.group()) - 0xDC00:02X}) is not "
                           "valid UTF-8; give text and file names as UTF-8")


def check_stdout() -> None:
    """Refuse a closed stdout before doing any work (Python sets sys.stdout to None when fd 1 is closed)."""
    if sys.stdout is None or getattr(sys.stdout, "closed", False):
        raise CliError("stdout is closed (>&-), so no result could be written; redirect it to a file or to "
                       "/dev/null instead")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _char_desc(ch: str) -> str:
    cp = ord(ch)
    if 0xD800 <= cp <= 0xDFFF:
        return (f"a lone surrogate U+{cp:04X} (a JSON escape \\u{cp:04x} without its pair), which is not a "
                "character and cannot be written as UTF-8")
    return f"the character U+{cp:04X} ({ch!r})"


def _stdout_encoding() -> tuple[str, str]:
    out = sys.stdout
    return (getattr(out, "encoding", None) or "utf-8"), (getattr(out, "errors", None) or "strict")


def check_texts(items, *, full: bool) -> None:
    """With ``full`` (the output repeats the texts): every text must be writable to stdout; otherwise refuse,
    before any output, naming the line. ``items``: ``(where, candidate, references)``; ``where`` may be a line
    number."""
    if not full:
        return
    enc, errors = _stdout_encoding()
    try:
        "".encode(enc, errors)
    except LookupError:
        return   # an encoding Python does not know: the stream itself will report it
    for where, cand, refs in items:
        where = f"line {where}" if isinstance(where, int) else where
        for what, t in [("'candidate'", cand)] + [(f"reference {k + 1}", r) for k, r in enumerate(refs)]:
            m = _SURROGATE.search(t)
            if m:
                raise CliError(f"{where}: {what} contains {_char_desc(m.group())}; the full trace repeats the "
                               "text (remove it, or drop --full to get the statistics only)")
            try:
                t.encode(enc, errors)
            except UnicodeEncodeError as e:
                ch = t[e.start]
                raise CliError(f"{where}: {what} contains {_char_desc(ch)}, which stdout (encoding {enc}) cannot "
                               "write, and the full trace repeats the text; set PYTHONIOENCODING=utf-8") from None


# --------------------------------------------------------------------------------------------------- writing
def _finite(obj, path: str, found: list):
    """``obj`` with every non-finite float replaced by None; their paths and values are added to ``found``."""
    if isinstance(obj, float):
        if math.isfinite(obj):
            return obj
        found.append(f"{path} = {obj}")
        return None
    if isinstance(obj, dict):
        return {k: _finite(v, f"{path}.{k}" if path else str(k), found) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v, f"{path}[{i}]", found) for i, v in enumerate(obj)]
    return obj


def _dumps(obj) -> str:
    try:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except ValueError:   # inf or nan somewhere: JSON cannot hold them (json.dumps would write bare Infinity)
        found: list[str] = []
        obj = _finite(obj, "", found)
        note = ("not a finite number in the result, written as null (JSON has no infinity or NaN): "
                + ", ".join(found))
        if isinstance(obj, dict):
            key = "notes" if isinstance(obj.get("notes", []), list) else "json_notes"
            obj[key] = list(obj.get(key) or []) + [note]
        return json.dumps(obj, ensure_ascii=False, allow_nan=False)


def write_json(obj, where: str) -> None:
    """One JSON line on stdout, encoded completely before anything is written."""
    text = _dumps(obj) + "\n"
    m = _SURROGATE.search(text)
    if m:       # stdout's surrogateescape would write the raw byte back: never invalid UTF-8 / JSON
        raise CliError(f"{where}: the result cannot be written as UTF-8: it contains {_char_desc(m.group())} "
                       "(an argument or file name that is not valid UTF-8?)")
    enc, errors = _stdout_encoding()
    try:
        text.encode(enc, errors)
    except UnicodeEncodeError as e:
        ch = e.object[e.start:e.start + 1] if isinstance(e.object, str) else ""
        hint = "" if _SURROGATE.match(ch) else "; set PYTHONIOENCODING=utf-8"
        raise CliError(f"{where}: the result cannot be written to stdout (encoding {enc}): it contains "
                       f"{_char_desc(ch) if ch else e.reason}{hint}") from None
    except LookupError:
        pass   # an encoding Python does not know: let the stream itself report it
    sys.stdout.write(text)


def warn_traps(args, traps: Iterable) -> None:
    """Each trap (``explainer.traps.Trap``) as one line on stderr: ``explainer <command>: warning: <message>``."""
    sys.stdout.flush()          # the results first: a closed pipe surfaces here, before any warning
    for t in traps:
        print(f"explainer {getattr(args, 'command', '')}: warning: {one_line(t.message)}", file=sys.stderr)


def run_input(args, per_segment: Callable[[str, list[str]], dict],
              corpus: Callable[[list[str], list[list[str]]], int], *, metric: str | None = None,
              traps: Callable[[list[str], list[list[str]]], Iterable] | None = None) -> int:
    """The input rules `bleu` and `rouge` share: ``--jsonl`` (one JSON result per line, or ``--corpus``) or
    ``--hyp``/``--ref`` files (a corpus). ``metric`` names the metric when every segment needs a reference.
    ``traps(candidates, references)``: warnings about the whole input, found before any scoring and printed on
    stderr once the results are written (a run that fails still prints its one error line only)."""
    if args.jsonl is not None:
        if args.ref:
            raise CliError("--ref is for corpus mode (--hyp); with --jsonl put the references in each line")
        segments = read_segments(args.jsonl)
        if metric is not None:
            require_references(segments, metric)
        check_texts(segments, full=args.full)
        found = traps([s.candidate for s in segments], [s.references for s in segments]) if traps else []
        if args.corpus:
            if not segments:
                raise CliError(f"{args.jsonl} has no segments")
            rc = corpus([s.candidate for s in segments], [s.references for s in segments])
            warn_traps(args, found)
            return rc
        for lineno, cand, refs in segments:
            try:
                res = per_segment(cand, refs)
            except ValueError as e:
                raise CliError(f"line {lineno}: {e}") from None
            write_json(res, f"line {lineno}")
        warn_traps(args, found)
        return 0
    hyps, refs = read_corpus(args.hyp, args.ref)
    check_texts(corpus_items(args.hyp, args.ref, hyps, refs), full=args.full)
    found = traps(hyps, refs) if traps else []
    rc = corpus(hyps, refs)
    warn_traps(args, found)
    return rc


def add_segment_inputs(p) -> None:
    """The bleu, rouge and chrf commands' inputs: JSONL segments or a corpus (--hyp with --ref streams)."""
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--jsonl", metavar="FILE", help="JSONL segments ('-' = stdin)")
    src.add_argument("--hyp", metavar="FILE", help="corpus: candidates, one per line")
    p.add_argument("--ref", metavar="FILE", action="append", default=[],
                   help="corpus: a reference stream, one per line (repeat for several references)")
