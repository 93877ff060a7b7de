"""Test-set input: plain text, .jsonl and .tsv, and every bad input as one message naming the file and the line.
Files are read by ``explainer.inputs``, the reader of every entry point (the command line too)."""
from __future__ import annotations

import json

import pytest

from explainer import inputs
from explainer.corpus.testset import (
    TestSetError,
    build_testset,
    parse_jsonl,
    parse_tsv,
    segment_lines,
    system_name_from_file,
)
from explainer.ui.corpus import testset as corpus_page

CASES = [("\ufeffa\r\nb\r\n\r\n".encode(), ["a", "b", ""]), (b"a\nb", ["a", "b"]), (b"", []),
         (b"\n", [""]), (b"a\rb\r\n", ["a\rb"])]


@pytest.mark.parametrize("data,lines", CASES)
def test_lines_bom_crlf_and_final_newline_read_whole_or_streamed(data, lines, tmp_path):
    p = tmp_path / "f.txt"
    p.write_bytes(data)
    assert segment_lines(data, "f.txt") == lines
    assert inputs.read_lines(str(p)) == lines
    assert list(inputs.iter_lines(str(p))) == lines


@pytest.mark.parametrize("data,where", [(b"ok\nfine\nca\xe9f\n", "line 3 is not valid UTF-8 (byte 0xE9 at column 3)"),
                                        (b"\xef\xbb\xbfa\xffb\n", "line 1 is not valid UTF-8 (byte 0xFF at column 5)"),
                                        (b"a\n\x80", "line 2 is not valid UTF-8 (byte 0x80 at column 1)")])
def test_utf8_error_is_the_same_message_whole_or_streamed(data, where, tmp_path):
    """The page and the corpus core said "x.txt is not valid UTF-8: line 3, byte 3 (b'\\xe9')", bleu and rouge
    "x.txt: line 3 is not valid UTF-8 (byte 0xE9 at column 3)": one message now, however the file is read."""
    p = tmp_path / "y.txt"
    p.write_bytes(data)
    want = f"{p}: {where}; save it as UTF-8"
    with pytest.raises(TestSetError) as e:
        segment_lines(data, str(p))
    assert str(e.value) == want
    for read in (inputs.read_lines, lambda path: list(inputs.iter_lines(path))):
        with pytest.raises(inputs.InputFileError) as e:
            read(str(p))
        assert str(e.value) == want


def test_jsonl_keys_are_the_command_lines():
    """parse_jsonl knew only 'candidate'; the command line also takes 'prediction' and 'hypothesis' (the names of
    Hugging Face evaluate and sacreBLEU): one key vocabulary for every reader."""
    want = (["a b", "c"], [["a b", "a c"], ["x"]])
    for key in inputs.CANDIDATE_KEYS:
        text = "\n".join(json.dumps(o) for o in [{key: "a b", "references": ["a b", "a c"]},
                                                 {key: "c", "reference": "x"}])
        assert parse_jsonl(text.encode(), "s.jsonl") == want, key
        assert [tuple(s)[1:] for s in inputs.parse_segments(text.splitlines())] == list(zip(*want)), key


def test_jsonl_and_its_errors():
    good = "\n".join(json.dumps(o) for o in [{"candidate": "a b", "references": ["a b", "a c"]},
                                            {"candidate": "", "reference": "x"}]) + "\n"
    assert parse_jsonl(good.encode(), "s.jsonl") == (["a b", ""], [["a b", "a c"], ["x"]])
    for text, needle in [('{"candidate": 1, "references": ["a"]}', "s.jsonl, line 1: 'candidate' must be a string"),
                         ('{"candidate": "a"}', "s.jsonl, line 1: 'references' is missing"),
                         ('{"candidate": "a", "references": []}', "s.jsonl, line 1: 'references' is empty"),
                         ('{"text": "a", "references": ["a"]}', "line 1: 'candidate' is missing \\(also accepted: "
                                                                "'prediction', 'hypothesis'\\)"),
                         ('{"candidate": "a", "references": ["a"]}\n{oops', "line 2: invalid JSON"),
                         ('[1, 2]', "line 1: expected a JSON object"),
                         ('{"candidate": "a", "references": ["1", "2", "3", "4", "5"]}', "5 references, over")]:
        with pytest.raises(TestSetError, match=needle):
            parse_jsonl(text.encode(), "s.jsonl")


def test_tsv_columns():
    data = "ref\tbase\tnew\tref2\nr1\tb1\tn1\tq1\nr2\tb2\tn2\tq2\n".encode()
    systems, refs = parse_tsv(data, "t.tsv")
    assert systems == [("base", ["b1", "b2"]), ("new", ["n1", "n2"])]
    assert refs == [["r1", "r2"], ["q1", "q2"]]
    with pytest.raises(TestSetError, match=r"t\.tsv, line 3: 2 tab-separated fields, the header has 3"):
        parse_tsv("ref\ta\tb\nx\ty\tz\nx\ty\n".encode(), "t.tsv")
    with pytest.raises(TestSetError, match="no reference column"):
        parse_tsv(b"a\tb\nx\ty\n", "t.tsv")


def test_build_checks_alignment_names_and_limits():
    with pytest.raises(TestSetError, match="system B has 1 line but reference r.txt has 2"):
        build_testset([("A", ["a", "b"]), ("B", ["a"])], [("r.txt", ["x", "y"])])
    with pytest.raises(TestSetError, match="reference r2.txt has 1 line but reference r1.txt has 2"):
        build_testset([("A", ["a", "b"])], [("r1.txt", ["x", "y"]), ("r2.txt", ["x"])])
    with pytest.raises(TestSetError, match="'A' is given twice"):
        build_testset([("A", ["a"]), ("A", ["b"])], [("r.txt", ["x"])])
    with pytest.raises(TestSetError, match="5 reference files, over the limit of 4"):
        build_testset([("A", ["a"])], [(f"r{k}", ["x"]) for k in range(5)])
    with pytest.raises(TestSetError, match="over the limit of 2"):
        build_testset([("A", ["a", "b", "c"])], [("r", ["x", "y", "z"])], max_segments=2)
    ts = build_testset([("A", ["a", ""])], [("r1", ["x", "y"]), ("r2", ["p", "q"])])
    assert ts.references == [["x", "p"], ["y", "q"]] and ts.n_refs() == 2


def test_system_names_from_files():
    assert system_name_from_file("out/newstest2019.sysA.txt") == "newstest2019.sysA"
    assert system_name_from_file("b.jsonl") == "b"
    assert system_name_from_file(".txt") == ".txt"


def test_uploads_mix_formats_and_name_the_file_on_error():
    refs = [("ref.txt", b"r1\nr2\n")]
    ts = corpus_page.testset_from_uploads([("a.txt", b"h1\nh2\n"), ("a.txt", b"g1\ng2\n")], refs)
    assert ts.names == ["a", "a (2)"]                  # the same file name twice gets a distinct name
    jl = "\n".join(json.dumps({"candidate": c, "references": ["r1" if i == 0 else "r2"]})
                   for i, c in enumerate(["x", "y"])).encode()
    ts = corpus_page.testset_from_uploads([("s.jsonl", jl)], [])
    assert ts.references == [["r1"], ["r2"]] and ts.system("s") == ["x", "y"]
    with pytest.raises(TestSetError, match="carries its own references"):
        corpus_page.testset_from_uploads([("s.jsonl", jl)], refs)
    with pytest.raises(TestSetError, match=r"system b \(b\.txt\) has 1 line "):
        corpus_page.testset_from_uploads([("a.txt", b"h1\nh2\n"), ("b.txt", b"h1\n")], refs)
    with pytest.raises(TestSetError, match="add at least one reference file"):
        corpus_page.testset_from_uploads([("a.txt", b"h1\n")], [])


def test_paste():
    ts = corpus_page.testset_from_paste([("A", "a b\nc d"), ("B", "a c\nc")], ["a b\nc d"])
    assert ts.names == ["A", "B"] and ts.references == [["a b"], ["c d"]]
    with pytest.raises(TestSetError, match="paste the reference"):
        corpus_page.testset_from_paste([("A", "x")], ["  "])
