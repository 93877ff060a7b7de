"""A test set: segments, 1-4 references per segment, one or more systems. Reading files, with clear messages.

Formats (UTF-8; a byte-order mark and Windows line ends are accepted):

* plain text: one segment per line. A system output or one reference stream per file.
* ``.jsonl``: one JSON object per line, ``{"candidate": str, "references": [str, ...]}`` (``"reference": str``
  is one reference). One system per file; the references come with it (several .jsonl files must agree on them).
* ``.tsv``: a header line naming the columns, then one segment per line, tab-separated. Columns whose header
  starts with ``ref`` (``ref``, ``ref1``, ``reference 2`` ...) are references, every other column is a system
  named by its header.

Files are read with ``explainer.inputs`` (the rules and messages of every entry point: the command line too);
every error names the file and the line (``TestSetError``); nothing is silently truncated.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from explainer import inputs
from explainer.errors import ExplainerInputError
from explainer.text import MAX_INPUT_CHARS

__all__ = ["TestSet", "TestSetError", "segment_lines", "check_segment_lengths", "parse_jsonl", "parse_tsv",
           "system_name_from_file", "MAX_SYSTEMS", "MAX_REFERENCES", "MAX_SEGMENTS", "MAX_SYSTEM_SEGMENTS",
           "build_testset",
           "check_names", "unique_name", "FORMATS", "detect_format", "LoadedFile", "read_file", "display_names",
           "testset_from_files"]

MAX_SYSTEMS = 20          # systems compared at once: a whole WMT language pair (WMT22 en-zh, en-ja: 13)
MAX_REFERENCES = 4        # reference streams (sacreBLEU and the Explain page take any number; 4 is WMT's most)
MAX_SEGMENTS = 1_000_000  # segments of one test set (the CLI streams them; the page has a lower limit)
#: systems x segments of one run: the CLI keeps every system's statistics (40 bytes per segment for BLEU-4), so
#: 10,000,000 keep ~400 MB (20 systems x 500,000 segments, or 10 x 1,000,000)
MAX_SYSTEM_SEGMENTS = 10_000_000


class TestSetError(ExplainerInputError):
    """Bad test-set input; the message names the file and the line."""

    __test__ = False    # not a pytest test class, whatever its name


@contextmanager
def _as_testset_error():
    """``explainer.inputs``' errors as this module's (the same message)."""
    try:
        yield
    except inputs.InputFileError as e:
        raise TestSetError(str(e)) from None


def check_segment_lengths(lines: Iterable[str], name: str, first_lineno: int = 1) -> None:
    """Refuse a line longer than the explainer's limit on one text (``first_lineno``: the number of the first)."""
    for lineno, ln in enumerate(lines, first_lineno):
        if len(ln) > MAX_INPUT_CHARS:
            raise TestSetError(f"{name}, line {lineno}: {len(ln):,} characters, over the limit of "
                               f"{MAX_INPUT_CHARS:,} per segment")


def segment_lines(data: bytes, name: str) -> list[str]:
    """The segments of a UTF-8 file called ``name``, one per line (``explainer.inputs.decode_lines``), each
    within the limit on one text."""
    with _as_testset_error():
        lines = inputs.decode_lines(data, name)
    check_segment_lengths(lines, name)
    return lines


def parse_jsonl(data: bytes, name: str) -> tuple[list[str], list[list[str]]]:
    """Candidates and per-segment references of a .jsonl file (the keys of ``explainer.inputs.parse_segments``:
    ``candidate`` / ``prediction`` / ``hypothesis``, ``references`` / ``reference``); 1 to MAX_REFERENCES
    references per segment."""
    with _as_testset_error():
        segments = inputs.parse_segments(inputs.decode_lines(data, name, max_chars=inputs.MAX_RECORD_CHARS), name)
    for lineno, cand, refs in segments:
        if not refs:
            raise TestSetError(f"{name}, line {lineno}: 'references' is empty; every segment needs at least one "
                               "reference")
        if len(refs) > MAX_REFERENCES:
            raise TestSetError(f"{name}, line {lineno}: {len(refs)} references, over the limit of {MAX_REFERENCES}")
        for x in [cand] + refs:
            if len(x) > MAX_INPUT_CHARS:
                raise TestSetError(f"{name}, line {lineno}: a text of {len(x):,} characters, over the limit of "
                                   f"{MAX_INPUT_CHARS:,}")
    if not segments:
        raise TestSetError(f"{name} has no segments")
    return [s.candidate for s in segments], [s.references for s in segments]


_REF_HEADER = re.compile(r"^\s*ref", re.IGNORECASE)


def parse_tsv(data: bytes, name: str) -> tuple[list[tuple[str, list[str]]], list[list[str]]]:
    """(systems, reference streams) of a .tsv file with a header line; every line has as many fields as the
    header (else the message names the line and both counts), each within the limit on one text."""
    with _as_testset_error():
        lines = inputs.decode_lines(data, name, max_chars=inputs.MAX_RECORD_CHARS)
    if not lines:
        raise TestSetError(inputs.empty_message(name))
    header = [h.strip() for h in lines[0].split("\t")]
    if any(not h for h in header):
        raise TestSetError(f"{name}, line 1: every column needs a name in the header line (e.g. "
                           "'ref<TAB>baseline<TAB>system')")
    if len(set(header)) != len(header):
        raise TestSetError(f"{name}, line 1: a column name is given twice")
    ref_cols = [i for i, h in enumerate(header) if _REF_HEADER.match(h)]
    sys_cols = [i for i in range(len(header)) if i not in ref_cols]
    if not ref_cols:
        raise TestSetError(f"{name}, line 1: no reference column (a column whose name starts with 'ref')")
    if not sys_cols:
        raise TestSetError(f"{name}, line 1: no system column (every column's name starts with 'ref')")
    cols: list[list[str]] = [[] for _ in header]
    for lineno, line in enumerate(lines[1:], 2):
        fields = line.split("\t")
        if len(fields) != len(header):
            raise TestSetError(f"{name}, line {lineno}: {len(fields)} tab-separated field"
                               f"{'s' if len(fields) != 1 else ''}, the header has {len(header)} (line 1: "
                               f"{', '.join(header)}); a file whose first line is a header with a ref... column is "
                               "read as TSV: give every line one field per column")
        for i, f in enumerate(fields):
            if len(f) > MAX_INPUT_CHARS:
                raise TestSetError(f"{name}, line {lineno}, column {header[i]}: {len(f):,} characters, over the "
                                   f"limit of {MAX_INPUT_CHARS:,} per segment")
            cols[i].append(f)
    if not cols[0]:
        raise TestSetError(f"{name} has a header but no segments")
    return [(header[i], cols[i]) for i in sys_cols], [cols[i] for i in ref_cols]


def system_name_from_file(filename: str) -> str:
    """'out/newstest2019.sysA.txt' -> 'newstest2019.sysA'."""
    stem = Path(filename).name
    for ext in (".txt", ".jsonl", ".tsv", ".detok", ".hyp", ".out"):
        if stem.lower().endswith(ext) and len(stem) > len(ext):
            stem = stem[: -len(ext)]
            break
    return stem or filename


def unique_name(name: str, taken: Iterable[str]) -> str:
    taken = set(taken)
    if name not in taken:
        return name
    k = 2
    while f"{name} ({k})" in taken:
        k += 1
    return f"{name} ({k})"


@dataclass
class TestSet:
    """``references[i]``: the references of segment i; ``systems``: (name, one output line per segment) in order,
    the first one is the baseline by default. ``ref_names``: where each reference stream came from."""

    __test__ = False    # not a pytest test class, whatever its name
    references: list[list[str]]
    systems: list[tuple[str, list[str]]]
    ref_names: list[str] = field(default_factory=list)
    source: list[str] | None = None      # the source side, one line per segment (optional)

    @property
    def n_segments(self) -> int:
        return len(self.references)

    @property
    def names(self) -> list[str]:
        return [n for n, _ in self.systems]

    def n_refs(self) -> int | str:
        ks = {len(r) for r in self.references}
        return ks.pop() if len(ks) == 1 else "var"

    def n_chars(self) -> int:
        return (sum(len(x) for rs in self.references for x in rs)
                + sum(len(x) for _, lines in self.systems for x in lines))

    def system(self, name: str) -> list[str]:
        for n, lines in self.systems:
            if n == name:
                return lines
        raise KeyError(name)

    def with_names(self, names: Sequence[str]) -> "TestSet":
        """The same test set with its systems renamed (names must be distinct and non-empty)."""
        names = [n.strip() for n in names]
        check_names(names)
        return TestSet(self.references, [(n, lines) for n, (_, lines) in zip(names, self.systems)], self.ref_names,
                       self.source)

    def with_source(self, lines: Sequence[str] | None, name: str = "the source") -> "TestSet":
        """The same test set with a source side (one line per segment, checked)."""
        if lines is None:
            return TestSet(self.references, self.systems, self.ref_names, None)
        if len(lines) != self.n_segments:
            raise TestSetError(inputs.line_count_mismatch(name, len(lines), "the references", self.n_segments))
        check_segment_lengths(lines, name)
        return TestSet(self.references, self.systems, self.ref_names, list(lines))


def check_names(names: Sequence[str]) -> None:
    seen = set()
    for n in names:
        if not n:
            raise TestSetError("a system needs a name")
        if n in seen:
            raise TestSetError(f"the system name {n!r} is given twice; give every system its own name")
        seen.add(n)


def build_testset(systems: Sequence[tuple[str, Sequence[str]]], ref_streams: Sequence[tuple[str, Sequence[str]]] = (),
                  *, per_segment_refs: Sequence[Sequence[str]] | None = None,
                  max_segments: int = MAX_SEGMENTS, sources: dict[str, str] | None = None) -> TestSet:
    """A checked test set from systems and reference streams (file name, lines), or per-segment references.
    Line counts must agree; the message names both files (``sources``: system name -> its file name)."""
    if not systems:
        raise TestSetError("give at least one system output")
    if len(systems) > MAX_SYSTEMS:
        raise TestSetError(f"{len(systems)} systems, over the limit of {MAX_SYSTEMS} compared at once")
    check_names([n for n, _ in systems])
    if per_segment_refs is None:
        if not ref_streams:
            raise TestSetError("give at least one reference file")
        if len(ref_streams) > MAX_REFERENCES:
            raise TestSetError(f"{len(ref_streams)} reference files, over the limit of {MAX_REFERENCES}")
        first_name, first = ref_streams[0]
        for rname, lines in ref_streams[1:]:
            if len(lines) != len(first):
                raise TestSetError(inputs.line_count_mismatch(f"reference {rname}", len(lines),
                                                              f"reference {first_name}", len(first)))
        refs = [list(x) for x in zip(*[lines for _, lines in ref_streams])]
        ref_names = [n for n, _ in ref_streams]
        ref_label = f"reference {first_name}"
    else:
        refs = [list(r) for r in per_segment_refs]
        ref_names = []
        ref_label = "the references"
    S = len(refs)
    if S == 0:
        raise TestSetError("the test set has no segments")
    if S > max_segments:
        raise TestSetError(f"{S:,} segments, over the limit of {max_segments:,}" + (
            f"; the command line `python -m explainer compare` takes up to {MAX_SEGMENTS:,} segments (or split "
            "the test set)" if max_segments < MAX_SEGMENTS else ""))
    for name, lines in systems:
        if len(lines) != S:
            src = (sources or {}).get(name)
            what = f"system {name}" + (f" ({src})" if src and src != name else "")
            raise TestSetError(inputs.line_count_mismatch(what, len(lines), ref_label, S))
    return TestSet(refs, [(n, list(lines)) for n, lines in systems], ref_names)


# ------------------------------------------------------------------------------ format by content, names
#: the formats :func:`detect_format` tells apart, and how the page and the CLI say what was detected
FORMATS = {"jsonl": "JSON Lines (candidate and references per line)",
           "tsv": "TSV with a header (ref… columns and one column per system)",
           "lines": "plain text, one segment per line"}
_NAME_SEPARATORS = "._/\\ "


def detect_format(lines: Sequence[str]) -> str:
    """The format of a file's decoded lines, from its content alone (any file name): ``"jsonl"`` when every
    non-blank line is a JSON object (``{`` ... ``}``), ``"tsv"`` when the first line is a tab-separated header
    with a ``ref…`` column (every column named), else ``"lines"`` (one segment per line). A TSV whose lines do not
    all have the header's number of fields is refused by ``parse_tsv`` (naming the line and both counts), not read
    as plain lines (its header would become segment 1)."""
    body = [ln for ln in lines if ln.strip()]
    if body and all(ln.lstrip().startswith("{") and ln.rstrip().endswith("}") for ln in body):
        return "jsonl"
    if lines and "\t" in lines[0]:
        header = [h.strip() for h in lines[0].split("\t")]
        if any(_REF_HEADER.match(h) for h in header) and all(header):
            return "tsv"
    return "lines"


@dataclass
class LoadedFile:
    """One file read by content: its ``format`` (a key of :data:`FORMATS`), the systems it holds (name, lines),
    the reference streams it holds (name, lines) or, for JSON Lines, per-segment references."""

    name: str
    format: str
    systems: list[tuple[str, list[str]]] = field(default_factory=list)
    ref_streams: list[tuple[str, list[str]]] = field(default_factory=list)
    per_segment_refs: list[list[str]] | None = None
    lines: list[str] | None = None       # a plain file's lines (a system or a reference: the caller decides)

    @property
    def described(self) -> str:
        """What was detected, in words: ``"x.de: plain text, one segment per line (2,037 lines)"``."""
        if self.format == "jsonl":
            n = len(self.per_segment_refs or [])
            return f"{self.name}: {FORMATS['jsonl']} ({n:,} segments)"
        if self.format == "tsv":
            n = len(self.systems[0][1]) if self.systems else 0
            return (f"{self.name}: {FORMATS['tsv']} ({n:,} segments, {len(self.ref_streams)} reference and "
                    f"{len(self.systems)} system column{'s' if len(self.systems) != 1 else ''})")
        return f"{self.name}: {FORMATS['lines']} ({len(self.lines or []):,} lines)"


def read_file(data: bytes, name: str) -> LoadedFile:
    """A file of any name read by its content (:func:`detect_format`), with the messages of ``parse_jsonl``,
    ``parse_tsv`` and ``segment_lines``."""
    with _as_testset_error():
        lines = inputs.decode_lines(data, name, max_chars=inputs.MAX_RECORD_CHARS)   # plain lines: checked below
    fmt = detect_format(lines)
    if fmt == "jsonl":
        cands, refs = parse_jsonl(data, name)
        return LoadedFile(name, fmt, systems=[(system_name_from_file(name), cands)], per_segment_refs=refs)
    if fmt == "tsv":
        syss, streams = parse_tsv(data, name)
        return LoadedFile(name, fmt, systems=syss, ref_streams=[(f"{name}:{i + 1}", s) for i, s in enumerate(streams)])
    check_segment_lengths(lines, name)
    return LoadedFile(name, fmt, lines=lines)


def display_names(file_names: Sequence[str]) -> list[str]:
    """Short, distinct names for files: the base names without their common prefix and suffix, cut at a
    separator (``. _ / \\`` or a space), so ``generaltest2022.en-de.hyp.Online-B.de`` and
    ``generaltest2022.en-de.hyp.OpenNMT.de`` become ``Online-B`` and ``OpenNMT``. One file: its name without a
    known extension (:func:`system_name_from_file`). Never two equal names, never an empty one."""
    bases = [Path(str(n).replace("\\", "/")).name or str(n) for n in file_names]
    if len(bases) < 2 or len(set(bases)) < len(bases):
        out = [system_name_from_file(b) for b in bases]
    else:
        pre = _common_cut(bases)
        suf = _common_cut([b[::-1] for b in bases])
        out = [b[pre: len(b) - suf] for b in bases]
        if any(not x.strip() for x in out):
            out = [system_name_from_file(b) for b in bases]
    names: list[str] = []
    for x in out:
        names.append(unique_name(x.strip() or "system", names))
    return names


def _common_cut(names: Sequence[str]) -> int:
    """How many leading characters all ``names`` share, cut back to just after a separator."""
    k = 0
    shortest = min(len(n) for n in names)
    while k < shortest and all(n[k] == names[0][k] for n in names):
        k += 1
    while k > 0 and names[0][k - 1] not in _NAME_SEPARATORS:
        k -= 1
    return k


def testset_from_files(system_files: Sequence[tuple[str, bytes]], ref_files: Sequence[tuple[str, bytes]] = (), *,
                       max_segments: int = MAX_SEGMENTS, max_systems: int = MAX_SYSTEMS,
                       source_file: tuple[str, bytes] | None = None) -> tuple[TestSet, list[str]]:
    """See :func:`_testset_from_files`; ``source_file`` (name, bytes): the source side, plain lines (optional)."""
    ts, detected = _testset_from_files(system_files, ref_files, max_segments=max_segments, max_systems=max_systems)
    if source_file is not None:
        f = read_file(source_file[1], source_file[0])
        if f.format != "lines":
            raise TestSetError(f"{f.name} is {FORMATS[f.format]}: the source file holds one segment per line")
        detected.append(f.described + " — the source")
        ts = ts.with_source(f.lines or [], f"source {f.name}")
    return ts, detected


def _testset_from_files(system_files: Sequence[tuple[str, bytes]], ref_files: Sequence[tuple[str, bytes]] = (), *,
                        max_segments: int = MAX_SEGMENTS, max_systems: int = MAX_SYSTEMS
                        ) -> tuple[TestSet, list[str]]:
    """A test set from files of any name (name, bytes), each read by its content (:func:`read_file`): plain
    files are one system each (``system_files``) or one reference stream each (``ref_files``); a JSON Lines file
    is one system with its references; a TSV file holds reference and system columns. Plain-file systems are
    named by :func:`display_names`. Returns the test set and what was detected, one sentence per file."""
    loaded = [read_file(data, name) for name, data in system_files]
    refs_loaded = [read_file(data, name) for name, data in ref_files]
    detected = [f.described for f in loaded + refs_loaded]
    for f in refs_loaded:
        if f.format != "lines":
            raise TestSetError(f"{f.name} is {FORMATS[f.format]}: give it as a system file (it carries its "
                               "references); reference files hold one segment per line")
    by_file = [k for k, f in enumerate(loaded) if f.format != "tsv"]
    short = dict(zip(by_file, display_names([loaded[k].name for k in by_file])))
    systems: list[tuple[str, list[str]]] = []
    sources: dict[str, str] = {}
    per_segment_refs: list[list[str]] | None = None
    ref_source = None
    streams: list[tuple[str, list[str]]] = []
    for k_file, f in enumerate(loaded):
        if f.format == "tsv":
            for n, lines in f.systems:
                systems.append((unique_name(n, [x for x, _ in systems]), lines))
                sources[systems[-1][0]] = f"{f.name}, column {n}"
            streams += f.ref_streams
            continue
        lines = f.systems[0][1] if f.format == "jsonl" else f.lines or []
        if f.format == "jsonl":
            if per_segment_refs is None:
                per_segment_refs, ref_source = f.per_segment_refs, f.name
            elif f.per_segment_refs != per_segment_refs:
                refs = f.per_segment_refs or []
                k = next((i for i, (a, b) in enumerate(zip(refs, per_segment_refs)) if a != b),
                         min(len(refs), len(per_segment_refs)))
                raise TestSetError(f"{f.name}: the references of segment {k + 1} differ from those in {ref_source}; "
                                   "every system must be scored against the same references")
        systems.append((unique_name(short[k_file], [n for n, _ in systems]), lines))
        sources[systems[-1][0]] = f.name
    streams += [(f.name, f.lines or []) for f in refs_loaded]
    if len(systems) > max_systems:
        raise TestSetError(f"{len(systems)} systems, over the limit of {max_systems} compared at once")
    if per_segment_refs is not None:
        if streams:
            raise TestSetError(f"{ref_source} carries its own references; do not upload reference files with JSON "
                               "Lines systems")
        return build_testset(systems, per_segment_refs=per_segment_refs, max_segments=max_segments,
                             sources=sources), detected
    if not streams:
        raise TestSetError("add at least one reference file (one segment per line, aligned with the systems)")
    if len(streams) > MAX_REFERENCES:
        raise TestSetError(f"{len(streams)} reference files, over the limit of {MAX_REFERENCES}")
    return build_testset(systems, streams, max_segments=max_segments, sources=sources), detected


testset_from_files.__test__ = False     # not a pytest test, whatever its name
