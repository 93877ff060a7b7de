"""Reading input files: the rules and the messages every entry point shares.

The command line (``explainer.cli.io``: ``bleu``, ``rouge``, ``compare``, ...), the corpus core
(``explainer.corpus.testset``) and through it the Corpus page read files with these functions, so a file that is
not UTF-8, files of different lengths or an unknown JSON key get the same message wherever they are read.
Nothing is ever truncated or guessed. Errors are ``InputFileError`` (an ``ExplainerInputError``, so a
``ValueError``) with a message meant for the user.

* Lines (``decode_lines``, ``read_lines``, ``iter_lines``): UTF-8; a byte-order mark and CRLF line ends are
  accepted, a final newline adds no empty line. ``"-"`` is stdin (named "stdin" in messages). Not UTF-8 ->
  ``"NAME: line N is not valid UTF-8 (byte 0xE9 at column C); save it as UTF-8"`` (C counts bytes);
  unreadable -> ``"cannot read NAME: reason"``. Every reader (files, pipes, uploaded bytes) splits lines with one
  function, a line at a time (flat memory), with the same messages.
* Limits while reading: a line longer than ``max_chars`` (default ``MAX_LINE_CHARS``, the limit on one text,
  ``explainer.text.MAX_INPUT_CHARS``; a JSON Lines or TSV line, which holds several texts: ``MAX_RECORD_CHARS``)
  is refused as soon as that many characters are passed, without reading the rest of it (``/dev/zero`` is one
  endless line). A ``ReadLimits`` bounds what one run reads: lines (segments) per file and bytes of all its files,
  checked from the sizes of regular files before reading and again while reading (pipes, ``/dev/stdin``).
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

import io
import json
import os
import stat
import sys
from typing import IO, Iterable, Iterator, NamedTuple, Sequence

from explainer.errors import ExplainerInputError
from explainer.text import MAX_INPUT_CHARS

__all__ = ["InputFileError", "Segment", "CANDIDATE_KEYS", "REFERENCE_KEYS", "MAX_INT_DIGITS", "STDIN", "shown_name",
           "MAX_LINE_CHARS", "MAX_RECORD_CHARS", "ReadLimits", "regular_file_bytes", "read_bytes",
           "decode_lines", "read_lines", "iter_lines", "lines_count", "line_count_mismatch", "empty_message",
           "check_one_stdin", "check_aligned", "aligned_blocks", "parse_segments", "read_segments", "iter_segments"]

STDIN = "-"
MAX_INT_DIGITS = 4300   # Python's int/str conversion limit (sys.get_int_max_str_digits() default; cli/io's too)
CANDIDATE_KEYS = ("candidate", "prediction", "hypothesis")
REFERENCE_KEYS = ("references", "reference")
_BOM = "\ufeff"
#: a line of a plain file is one text: the limit on one text
MAX_LINE_CHARS = MAX_INPUT_CHARS
#: a JSON Lines or TSV line holds a candidate and its references (or a column per system): ten texts at the limit
MAX_RECORD_CHARS = 2_000_000
_CONTINUATION = bytes(range(0x80, 0xC0))      # UTF-8 continuation bytes: every other byte starts a character


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


def _cannot_read(path: str, e: OSError) -> InputFileError:
    return InputFileError(f"cannot read {shown_name(path)}: {e.strerror or e}")


class ReadLimits:
    """What one run may read: ``max_lines`` lines (segments) of each file and ``max_bytes`` bytes of all the files
    read with it (None: no limit). ``hint`` ends a refusal (what to do instead). Regular files are measured before
    reading (``check_sizes``); every file is counted again while it is read, so a pipe is refused as soon as it
    passes a limit."""

    def __init__(self, max_lines: int | None = None, max_bytes: int | None = None, *, what: str = "lines",
                 hint: str = ""):
        self.max_lines, self.max_bytes, self.what, self.hint = max_lines, max_bytes, what, hint
        self.bytes = 0

    def _refuse(self, message: str) -> InputFileError:
        return InputFileError(message + (f"; {self.hint}" if self.hint else ""))

    def check_sizes(self, paths: Sequence[str]) -> None:
        """Refuse regular files whose sizes together pass ``max_bytes``, before reading any."""
        if self.max_bytes is not None:
            total = sum(regular_file_bytes(p) or 0 for p in paths)
            if total > self.max_bytes:
                raise self._refuse(f"the input files have {total:,} bytes together, over the limit of "
                                   f"{self.max_bytes:,}")

    def add_bytes(self, n: int, name: str) -> None:
        self.bytes += n
        if self.max_bytes is not None and self.bytes > self.max_bytes:
            raise self._refuse(f"{name}: more than {self.max_bytes:,} bytes read (all input files together), over "
                               "the limit")

    def check_lines(self, n: int, name: str) -> None:
        if self.max_lines is not None and n > self.max_lines:
            raise self._refuse(f"{name}: more than {self.max_lines:,} {self.what}, over the limit of "
                               f"{self.max_lines:,}")


def regular_file_bytes(path: str) -> int | None:
    """The size of a regular file (None for stdin, a pipe, a device or a file that cannot be read)."""
    if path == STDIN:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def _too_long(name: str, lineno: int, max_chars: int, n: int | None) -> InputFileError:
    what = "text" if max_chars == MAX_LINE_CHARS else "line"
    size = f"{n:,} characters" if n is not None else f"more than {max_chars:,} characters"
    rest = "" if n is not None else " (not read further)"
    return InputFileError(f"{name}, line {lineno}: {size}, over the limit of {max_chars:,} per {what}{rest}")


def _long_line(fh: IO[bytes], first: bytes, max_chars: int, name: str, lineno: int) -> bytes:
    """The rest of a line whose first ``max_chars + 3`` bytes had no newline, read while it stays within
    ``max_chars`` characters (+ a byte-order mark and a CR); refused as soon as it passes them."""
    parts, chars = [first], len(first.translate(None, _CONTINUATION))
    room = max_chars + 2
    while chars <= room:
        more = fh.readline(room + 1 - chars)        # never more bytes than the characters still allowed
        if not more:
            break
        parts.append(more)
        if more.endswith(b"\n"):
            chars += len(more[:-1].translate(None, _CONTINUATION))
            if chars > room:
                break
            return b"".join(parts)
        chars += len(more.translate(None, _CONTINUATION))
    if chars > room:
        raise _too_long(name, lineno, max_chars, None)
    return b"".join(parts)


def _split_lines(fh: IO[bytes], name: str, max_chars: int, limits: ReadLimits | None) -> Iterator[str]:
    """The decoded lines of a binary stream (without line ends), one at a time, within the limits."""
    room = max_chars + 3        # a BOM and a CR may come on top of the characters; the exact check is below
    lineno = 0
    while True:
        raw = fh.readline(room)
        if not raw:
            return
        lineno += 1
        if len(raw) == room and not raw.endswith(b"\n"):
            raw = _long_line(fh, raw, max_chars, name, lineno)
        if limits is not None:
            limits.check_lines(lineno, name)
            limits.add_bytes(len(raw), name)
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
        if len(line) > max_chars:
            raise _too_long(name, lineno, max_chars, len(line))
        yield line


def decode_lines(data: bytes, name: str, *, max_chars: int = MAX_LINE_CHARS) -> list[str]:
    """The lines of the UTF-8 bytes of a file called ``name`` (without line ends), split as a file is read."""
    return list(_split_lines(io.BytesIO(data), name, max_chars, None))


def _stdin_bytes():
    """stdin as a binary stream; a closed one (``<&-``: Python sets ``sys.stdin`` to None) is refused."""
    s = sys.stdin
    if s is None or getattr(s, "closed", False):
        raise InputFileError("cannot read stdin: it is closed (<&-); pipe the input in, or give a file instead "
                             "of '-'")
    buf = getattr(s, "buffer", None)
    if buf is None:             # a text stream without bytes underneath (io.StringIO)
        return io.BytesIO(s.read().encode("utf-8"))
    return buf


def iter_lines(path: str, *, max_chars: int = MAX_LINE_CHARS, limits: ReadLimits | None = None) -> Iterator[str]:
    """The lines of a UTF-8 file or stdin (``"-"``), read and decoded one at a time, each within ``max_chars``
    characters, the file within ``limits``."""
    name = shown_name(path)
    try:
        fh = _stdin_bytes() if path == STDIN else open(path, "rb")
    except OSError as e:
        raise _cannot_read(path, e) from None
    try:
        yield from _split_lines(fh, name, max_chars, limits)
    except OSError as e:
        raise _cannot_read(path, e) from None
    finally:
        if path != STDIN:
            fh.close()


def read_lines(path: str, *, max_chars: int = MAX_LINE_CHARS, limits: ReadLimits | None = None) -> list[str]:
    """The lines of a UTF-8 file, or of stdin (``"-"``) (``iter_lines``, kept)."""
    return list(iter_lines(path, max_chars=max_chars, limits=limits))


def read_bytes(path: str, max_bytes: int, what: str = "file", *, refusal: str | None = None) -> bytes:
    """A whole file's bytes (``"-"``: stdin), refused as soon as it passes ``max_bytes`` (a regular file: from
    its size, before reading); ``refusal``: the message then (default: it names the bytes and ``what``)."""
    size = regular_file_bytes(path)
    too_big = refusal or (f"{shown_name(path)}: more than {max_bytes:,} bytes, over the limit of {max_bytes:,} "
                          f"per {what}")
    if size is not None and size > max_bytes:
        raise InputFileError(too_big)
    try:
        if path == STDIN:
            data = _stdin_bytes().read(max_bytes + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(max_bytes + 1)
    except OSError as e:
        raise _cannot_read(path, e) from None
    if len(data) > max_bytes:
        raise InputFileError(too_big)
    return data


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


def iter_segments(path: str, *, limits: ReadLimits | None = None, max_refs: int | None = None) -> Iterator[Segment]:
    """The segments of a JSONL file or stdin (``"-"``), read one line at a time: each line within
    ``MAX_RECORD_CHARS``, the file within ``limits``, at most ``max_refs`` references per segment."""
    name = shown_name(path)
    for lineno, line in enumerate(iter_lines(path, max_chars=MAX_RECORD_CHARS, limits=limits), 1):
        if line.strip():
            where = f"line {lineno}"
            seg = _segment(_parse_json_line(line, where), lineno, where)
            if max_refs is not None and len(seg.references) > max_refs:
                raise InputFileError(f"{name}, {where}: {len(seg.references):,} references, over the limit of "
                                     f"{max_refs:,} per segment")
            yield seg


def read_segments(path: str, *, limits: ReadLimits | None = None, max_refs: int | None = None) -> list[Segment]:
    """The segments of a JSONL file or stdin (``"-"``) (``iter_segments``, kept)."""
    return list(iter_segments(path, limits=limits, max_refs=max_refs))
