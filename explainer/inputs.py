"""Reading input files: the rules and the messages every entry point shares.

The command line (``explainer.cli.io``: ``bleu``, ``rouge``, ``compare``, ...), the corpus core
(``explainer.corpus.testset``) and through it the Corpus page read files with these functions, so a file that is
not UTF-8, files of different lengths or an unknown JSON key get the same message wherever they are read.
Nothing is ever truncated or guessed. Errors are ``InputFileError`` (an ``ExplainerInputError``, so a
``ValueError``) with a message meant for the user.

* Lines (``decode_lines``, ``read_lines``, ``iter_lines``): UTF-8; a byte-order mark and CRLF line ends are
  accepted, a final newline adds no empty line. ``"-"`` is stdin (named "stdin" in messages). Not UTF-8 ->
  ``"NAME: line N is not valid UTF-8 (byte 0xE9 at column C); save it as UTF-8"`` (C counts bytes);
  unreadable -> ``"cannot read NAME: reason"``. ``iter_lines`` reads one line at a time (flat memory) and gives
  the same messages as reading the whole file.
* Line-aligned files (``check_aligned``, ``aligned_blocks``): ``"A has N lines but B has M: the files must be
  line-aligned (the explainer never truncates)"``; no segment at all: ``"A is empty"``; stdin can be only one of
  the files.
* JSON Lines segments (``parse_segments``, ``read_segments``): one object per non-blank line with the candidate
  under ``candidate`` (or ``prediction`` / ``hypothesis``, the names of Hugging Face evaluate and sacreBLEU) and
  ``references`` (a list of strings) or ``reference`` (one string). An empty list of references is allowed here
  (BLEU reports what each library does with it); a reader that needs references refuses it itself. Every error
  names the line: invalid JSON, JSON nested too deeply to read, a number of more than 4,300 digits, a wrong
  type, a missing key.
"""
from __future__ import annotations

import json
import sys
from typing import Iterable, Iterator, NamedTuple, Sequence

from explainer.errors import ExplainerInputError

__all__ = ["InputFileError", "Segment", "CANDIDATE_KEYS", "REFERENCE_KEYS", "MAX_INT_DIGITS", "STDIN", "shown_name",
           "decode_lines", "read_lines", "iter_lines", "lines_count", "line_count_mismatch", "empty_message",
           "check_one_stdin", "check_aligned", "aligned_blocks", "parse_segments", "read_segments"]

STDIN = "-"
MAX_INT_DIGITS = 4300   # Python's int/str conversion limit (sys.get_int_max_str_digits() default; cli/io's too)
CANDIDATE_KEYS = ("candidate", "prediction", "hypothesis")
REFERENCE_KEYS = ("references", "reference")
_BOM = "\ufeff"


class InputFileError(ExplainerInputError):
    """A file that cannot be read as the input it should be; the message names the file or the line."""


class Segment(NamedTuple):
    """One JSONL segment: the line it came from, the candidate, its references."""

    lineno: int
    candidate: str
    references: list[str]


def shown_name(path: str) -> str:
    """How a path is named in messages (``"-"`` is stdin)."""
    return "stdin" if path == STDIN else path


# ------------------------------------------------------------------------------------------------- lines
def _not_utf8(name: str, lineno: int, column: int, byte: int) -> InputFileError:
    return InputFileError(f"{name}: line {lineno} is not valid UTF-8 (byte 0x{byte:02X} at column {column}); "
                          "save it as UTF-8")


def decode_lines(data: bytes, name: str) -> list[str]:
    """The lines of the UTF-8 bytes of a file called ``name`` (without line ends)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        lineno = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise _not_utf8(name, lineno, column, data[e.start]) from None
    if text.startswith(_BOM):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def _cannot_read(path: str, e: OSError) -> InputFileError:
    return InputFileError(f"cannot read {shown_name(path)}: {e.strerror or e}")


def _stdin_bytes():
    """stdin as a binary stream; a closed one (``<&-``: Python sets ``sys.stdin`` to None) is refused."""
    s = sys.stdin
    if s is None or getattr(s, "closed", False):
        raise InputFileError("cannot read stdin: it is closed (<&-); pipe the input in, or give a file instead "
                             "of '-'")
    buf = getattr(s, "buffer", None)
    if buf is None:             # a text stream without bytes underneath (io.StringIO)
        import io

        return io.BytesIO(s.read().encode("utf-8"))
    return buf


def read_lines(path: str) -> list[str]:
    """The lines of a UTF-8 file, or of stdin (``"-"``)."""
    try:
        if path == STDIN:
            data = _stdin_bytes().read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise _cannot_read(path, e) from None
    return decode_lines(data, shown_name(path))


def iter_lines(path: str) -> Iterator[str]:
    """The lines of a UTF-8 file or stdin (``"-"``), read and decoded one at a time; the same lines and the same
    messages as ``read_lines``."""
    name = shown_name(path)
    try:
        fh = _stdin_bytes() if path == STDIN else open(path, "rb")
    except OSError as e:
        raise _cannot_read(path, e) from None
    try:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                raise _not_utf8(name, lineno, e.start + 1, raw[e.start]) from None
            if lineno == 1 and line.startswith(_BOM):
                line = line[1:]
            if line.endswith("\n"):
                line = line[:-1]
            if line.endswith("\r"):
                line = line[:-1]
            yield line
    except OSError as e:
        raise _cannot_read(path, e) from None
    finally:
        if path != STDIN:
            fh.close()


# ------------------------------------------------------------------------------------ line-aligned files
def lines_count(k: int) -> str:
    return f"{k:,} line" + ("" if k == 1 else "s")


def line_count_mismatch(name_a: str, n_a: int, name_b: str, n_b: int) -> str:
    """The message for two files (or streams) that should be line-aligned and are not."""
    return (f"{name_a} has {lines_count(n_a)} but {name_b} has {n_b:,}: the files must be line-aligned (the "
            "explainer never truncates)")


def empty_message(name: str) -> str:
    return f"{name} is empty"


def check_one_stdin(paths: Sequence[str]) -> None:
    """Refuse stdin (``"-"``) as more than one of the files (the second would read nothing, or lines meant for the
    first)."""
    if sum(p == STDIN for p in paths) > 1:
        raise InputFileError("stdin ('-') is given for more than one file; at most one file can be read from stdin")


def check_aligned(named: Sequence[tuple[str, Sequence[str]]]) -> None:
    """Refuse line-aligned files of different lengths (each measured against the first) and an empty corpus.
    ``named``: (name, lines) per file."""
    first_name, first = named[0]
    for name, lines in named[1:]:
        if len(lines) != len(first):
            raise InputFileError(line_count_mismatch(first_name, len(first), name, len(lines)))
    if not first:
        raise InputFileError(empty_message(first_name))


def aligned_blocks(paths: Sequence[str], *, first: int = 0, block: int = 1000,
                   lines=iter_lines) -> Iterator[list[list[str]]]:
    """Line-aligned files read in lockstep, ``block`` lines at a time: per block, one list of lines per file
    (memory does not grow with the files). The same refusals as ``check_aligned``, every file measured against
    ``paths[first]`` (the files are read to their ends to say how many lines each has). ``lines(path)``: the
    iterator of a file's lines (default ``iter_lines``)."""
    check_one_stdin(paths)
    iters = [lines(p) for p in paths]
    n = 0
    while True:
        rows: list[list[str]] = [[] for _ in iters]
        ended = [False] * len(iters)
        for _ in range(block):
            row = []
            for k, it in enumerate(iters):
                x = next(it, None)
                if x is None:
                    ended[k] = True
                row.append(x)
            if any(ended):
                break
            for k, x in enumerate(row):
                rows[k].append(x)
        if rows[0]:
            n += len(rows[0])
            yield rows
        if any(ended):
            if not all(ended):
                counts = [n if ended[k] else n + 1 + sum(1 for _ in it) for k, it in enumerate(iters)]
                other = next(k for k in range(len(iters)) if counts[k] != counts[first])
                raise InputFileError(line_count_mismatch(shown_name(paths[first]), counts[first],
                                                         shown_name(paths[other]), counts[other]))
            if n == 0:
                raise InputFileError(empty_message(shown_name(paths[first])))
            return


# ---------------------------------------------------------------------------------------- JSON Lines
def _parse_json_line(line: str, where: str):
    try:
        return json.loads(line)
    except json.JSONDecodeError as e:
        raise InputFileError(f"{where}: invalid JSON ({e.msg}, column {e.colno})") from None
    except RecursionError:
        raise InputFileError(f"{where}: invalid JSON (nested too deeply to read)") from None
    except ValueError as e:   # int() limit: "Exceeds the limit (4300 digits) for integer string conversion"
        if "digits" in str(e):
            raise InputFileError(f"{where}: invalid JSON (a number with more than {MAX_INT_DIGITS:,} digits)") \
                from None
        raise InputFileError(f"{where}: invalid JSON ({e})") from None


def _segment(obj, lineno: int, where: str) -> Segment:
    if not isinstance(obj, dict):
        raise InputFileError(f"{where}: expected a JSON object with 'candidate' and 'references'")
    key = next((k for k in CANDIDATE_KEYS if k in obj), None)
    if key is None:
        raise InputFileError(f"{where}: 'candidate' is missing (also accepted: 'prediction', 'hypothesis')")
    cand = obj[key]
    if not isinstance(cand, str):
        raise InputFileError(f"{where}: '{key}' must be a string")
    rkey = next((k for k in REFERENCE_KEYS if k in obj), None)
    if rkey is None:
        raise InputFileError(f"{where}: 'references' is missing (a list of strings; or 'reference': one string)")
    refs = obj[rkey]
    if isinstance(refs, str):
        refs = [refs]
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        raise InputFileError(f"{where}: '{rkey}' must be a list of strings (or one string)")
    return Segment(lineno, cand, refs)


def parse_segments(lines: Iterable[str], name: str | None = None) -> list[Segment]:
    """The segments of JSON Lines; blank lines are skipped (line numbers count them). Messages start with
    ``"line N"``, or ``"NAME, line N"`` when ``name`` is given."""
    out = []
    for lineno, line in enumerate(lines, 1):
        if line.strip():
            where = f"{name}, line {lineno}" if name else f"line {lineno}"
            out.append(_segment(_parse_json_line(line, where), lineno, where))
    return out


def read_segments(path: str) -> list[Segment]:
    """The segments of a JSONL file or stdin (``"-"``)."""
    return parse_segments(read_lines(path))
