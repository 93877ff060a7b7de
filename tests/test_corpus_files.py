"""Files of any name read by their content (JSON Lines, TSV, plain lines) and the short, distinct system names
derived from released file names (issue 19, items 1 and 2)."""
from __future__ import annotations

import json

import pytest
import sacrebleu

from explainer.corpus.testset import (
    TestSetError,
    detect_format,
    display_names,
    read_file,
    testset_from_files,
)
from tests.corpus_data import make_testset

WMT = "generaltest2022.en-de.{}.de"


def _lines(xs) -> bytes:
    return ("\n".join(xs) + "\n").encode("utf-8")


def test_released_file_names_become_short_distinct_names():
    names = [WMT.format(f"hyp.{s}") for s in ("Online-B", "OpenNMT", "PROMT")]
    assert display_names(names) == ["Online-B", "OpenNMT", "PROMT"]
    assert display_names(["runs/" + WMT.format("hyp.Online-A"), WMT.format("hyp.Online-B")]) == [
        "Online-A", "Online-B"]                     # cut at a '.', not inside 'Online-'
    assert display_names(["sys.txt"]) == ["sys"]
    assert display_names(["a.txt", "a.txt"]) == ["a", "a (2)"]
    # nothing left after the common parts: the names without their extension
    assert display_names(["x.txt", "x.txt.txt"]) == ["x", "x.txt"]
    got = display_names([f"out/model-{k}.detok.txt" for k in range(12)])
    assert len(set(got)) == 12 and all(got)


def test_format_by_content_whatever_the_name():
    jl = [json.dumps({"candidate": "a b", "references": ["a c"]}), json.dumps({"candidate": "x", "reference": "y"})]
    assert detect_format(jl) == "jsonl"
    assert detect_format(["ref\tsysA", "a\tb", "c\td"]) == "tsv"
    assert detect_format(["a\tb", "c\td"]) == "lines"            # no ref… header: tabs inside segments
    assert detect_format(["ref\tsysA", "a\tb\tc"]) == "tsv"       # a header: uneven fields are refused (below)
    assert detect_format(["{not json} but a segment", "plain"]) == "lines"
    assert detect_format([]) == "lines"
    f = read_file(_lines(jl), WMT.format("hyp.X"))
    assert f.format == "jsonl" and f.per_segment_refs == [["a c"], ["y"]]
    assert "JSON Lines" in f.described and "2 segments" in f.described
    f = read_file(b"ref\tA\tB\nr\ta\tb\n", "table.de")
    assert f.format == "tsv" and [n for n, _ in f.systems] == ["A", "B"] and "TSV" in f.described
    with pytest.raises(TestSetError, match=r"t\.tsv, line 3: 2 tab-separated fields, the header has 3 \(line 1: "
                                            r"ref, A, B\)"):
        read_file(b"ref\tA\tB\nr\ta\tb\nr2\ta2\n", "t.tsv")  # issue 34: was read as plain lines, header = segment 1
    f = read_file(b"eins\nzwei\n", WMT.format("ref.A"))
    assert f.format == "lines" and f.lines == ["eins", "zwei"] and "2 lines" in f.described


def test_wmt_named_files_give_sacrebleus_scores_and_distinct_names():
    refs, systems = make_testset(200, 2, 3, seed=11)
    names = ["Online-B", "OpenNMT", "PROMT"]
    sys_files = [(WMT.format(f"hyp.{n}"), _lines(lines)) for n, (_, lines) in zip(names, systems)]
    ref_files = [(WMT.format(f"ref.{k}"), _lines(r)) for k, r in zip("AB", refs)]
    ts, detected = testset_from_files(sys_files, ref_files)
    assert ts.names == names
    assert len(detected) == 5 and all("plain text" in d for d in detected)
    assert ts.n_refs() == 2
    for (_, mine), (_, lines) in zip(ts.systems, systems):
        assert mine == lines
    from explainer.corpus.report import bleu_report

    rep = bleu_report(ts)
    for s, (_, lines) in zip(rep.systems, systems):
        assert s.score == sacrebleu.corpus_bleu(lines, refs).score


def test_a_structured_file_given_as_a_reference_is_refused_with_what_to_do():
    jl = _lines([json.dumps({"candidate": "a", "references": ["b"]})])
    with pytest.raises(TestSetError, match="give it as a system file"):
        testset_from_files([("s.de", b"a\n")], [("r.de", jl)])


def test_too_many_segments_points_to_the_command_line():
    with pytest.raises(TestSetError, match=r"over the limit of 2; the command line `python -m explainer compare`"):
        testset_from_files([("s.de", b"a\nb\nc\n")], [("r.de", b"a\nb\nc\n")], max_segments=2)
