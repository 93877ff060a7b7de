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
           "system_name_from_file", "MAX_SYSTEMS", "MAX_REFERENCES", "MAX_SEGMENTS", "build_testset",
           "check_names", "unique_name"]

MAX_SYSTEMS = 10          # systems compared at once (each added system adds one comparison per test)
MAX_REFERENCES = 4        # reference streams (sacreBLEU and the Explain page take any number; 4 is WMT's most)
MAX_SEGMENTS = 1_000_000  # segments of one test set (the CLI streams them; the page has a lower limit)


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
        segments = inputs.parse_segments(inputs.decode_lines(data, name), name)
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
    """(systems, reference streams) of a .tsv file with a header line."""
    lines = segment_lines(data, name)
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
            raise TestSetError(f"{name}, line {lineno}: {len(fields)} tab-separated fields, the header has "
                               f"{len(header)}")
        for i, f in enumerate(fields):
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
        return TestSet(self.references, [(n, lines) for n, (_, lines) in zip(names, self.systems)], self.ref_names)


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
        raise TestSetError(f"{S:,} segments, over the limit of {max_segments:,}")
    for name, lines in systems:
        if len(lines) != S:
            src = (sources or {}).get(name)
            what = f"system {name}" + (f" ({src})" if src and src != name else "")
            raise TestSetError(inputs.line_count_mismatch(what, len(lines), ref_label, S))
    return TestSet(refs, [(n, list(lines)) for n, lines in systems], ref_names)
