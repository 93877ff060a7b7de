"""`python -m explainer ter`: JSONL segments, line-aligned corpora, every flag, and bad input (one line, exit 2);
numbers from sacreBLEU's TER computed here."""
from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys

import pytest
from sacrebleu.metrics import TER

from explainer.cli import main

SEGS = [
    {"candidate": "The cat sat on the mat.", "references": ["On the mat sat the cat.", "A cat sat on a mat."]},
    {"candidate": "", "references": ["x"]},
    {"candidate": "Hello, World &amp; you!", "reference": "hello world & you"},
    {"candidate": "a b c", "references": ["", "a b"]},
    {"candidate": "今天天气很好。", "references": ["今天 天气 很 好 。"]},
]
FLAGS = ("--normalized", "--no-punct", "--asian-support", "--case-sensitive")


def run_cli(argv, stdin: bytes | None, capsys, monkeypatch):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _jsonl(objs) -> bytes:
    return ("\n".join(json.dumps(o, ensure_ascii=False) for o in objs) + "\n").encode()


def _refs(seg):
    return seg.get("references") or [seg["reference"]]


def _opts(flags):
    return {f[2:].replace("-", "_"): True for f in flags}


@pytest.mark.parametrize("flags", [list(c) for k in range(5) for c in itertools.combinations(FLAGS, k)],
                         ids=lambda f: " ".join(f) or "default")
def test_jsonl_segments_match_sacrebleu(flags, capsys, monkeypatch):
    rc, out, err = run_cli(["ter", "--jsonl", "-"] + flags, _jsonl(SEGS), capsys, monkeypatch)
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == len(SEGS)
    for obj, seg in zip(lines, SEGS):
        m = TER(**_opts(flags))
        want = m.sentence_score(seg["candidate"], _refs(seg))
        assert obj["score"] == want.score
        assert obj["num_edits"] == want.num_edits and obj["ref_length"] == want.ref_length
        assert obj["signature"] == m.get_signature().format()
        assert obj["stats"] == m._extract_corpus_statistics([seg["candidate"]], [[r] for r in _refs(seg)])[0]
        assert obj["num_edits"] == min(obj["reference_edits"][0])


def test_corpus_files_full_and_the_issues_contract(tmp_path, capsys, monkeypatch):
    hyps = ["The cat sat on the mat.", "Hello there", "a b c", "x y z w"]
    r1 = ["On the mat sat the cat.", "Hello", "a b d", "w x y z"]
    r2 = ["A cat sat.", "hello there", "c b a", ""]
    for name, lines in (("h", hyps), ("r1", r1), ("r2", r2)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["ter", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r1"), "--ref", str(tmp_path / "r2"),
            "--normalized"]
    rc, out, err = run_cli(argv, None, capsys, monkeypatch)
    assert rc == 0, err
    obj = json.loads(out)
    m = TER(normalized=True)
    want = m.corpus_score(hyps, [r1, r2])
    assert obj["score"] == want.score and obj["num_edits"] == want.num_edits and obj["ref_length"] == want.ref_length
    assert obj["signature"] == m.get_signature().format() and obj["n_segments"] == 4
    rc, out, err = run_cli(argv + ["--full"], None, capsys, monkeypatch)
    full = json.loads(out)
    assert rc == 0 and len(full["segments"]) == 4 and full["score"] == want.score
    assert all("per_reference" in s and "shifts" in s["per_reference"][0] for s in full["segments"])


def test_jsonl_corpus_mode_and_full_segment(capsys, monkeypatch):
    segs = [s for s in SEGS if "references" in s]
    rc, out, err = run_cli(["ter", "--jsonl", "-", "--corpus"], _jsonl(segs), capsys, monkeypatch)
    assert rc == 0, err
    streams = [[s["references"][k] if k < len(s["references"]) else None for s in segs] for k in range(2)]
    want = TER().corpus_score([s["candidate"] for s in segs], streams)
    assert json.loads(out)["score"] == want.score and "nrefs:var" in json.loads(out)["signature"]
    rc, out, err = run_cli(["ter", "--jsonl", "-", "--full"], _jsonl(SEGS[:1]), capsys, monkeypatch)
    tr = json.loads(out)
    assert rc == 0 and tr["score"] == TER().sentence_score(SEGS[0]["candidate"], SEGS[0]["references"]).score
    assert tr["candidate"]["tokens"][0] == {"text": "the", "start": 0, "end": 3, "exact": True, "note": ""}


@pytest.mark.parametrize("argv,stdin,needle", [
    (["ter", "--jsonl", "-"], b'{"candidate": "a", "references": []}\n', "at least one reference"),
    (["ter", "--jsonl", "-"], b'{"candidate": "a"\n', "line 1"),
    (["ter", "--jsonl", "-"], b'{"candidate": 3, "references": ["a"]}\n', "line 1"),
    (["ter", "--jsonl", "-", "--dialect", "tercom"], b"", "unknown TER dialect"),
    (["ter", "--jsonl", "-", "-o", "beta=2"], b"", "has no option 'beta'"),
    (["ter", "--jsonl", "-", "-o", "normalized=maybe"], b"", "expects true/false"),
    (["ter", "--jsonl", "-", "--ref", "x"], b"", "--ref is for corpus mode"),
    (["ter", "--jsonl", "-"], ('{"candidate": "' + "a " * 1001 + '", "references": ["a"]}\n').encode(),
     "MAX_TEXT_TOKENS"),
    (["ter", "--jsonl", "-", "--full"], ('{"candidate": "' + "a " * 10001 + '", "references": ["a"]}\n').encode(),
     "MAX_TRACE_CHARS"),
    (["ter", "--jsonl", "-", "--bootstrap", "10"], b'{"candidate": "a", "references": ["a"]}\n',
     "--bootstrap needs a corpus"),
])
def test_bad_input_one_line_exit_2(argv, stdin, needle, capsys, monkeypatch):
    rc, out, err = run_cli(argv, stdin, capsys, monkeypatch)
    assert rc == 2 and needle in err and out == "", err
    assert len(err.strip().splitlines()) == 1


def test_bad_corpus_files(tmp_path, capsys, monkeypatch):
    (tmp_path / "h").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "r").write_text("a\n", encoding="utf-8")
    (tmp_path / "bad").write_bytes(b"caf\xe9\n")
    rc, out, err = run_cli(["ter", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r")], None, capsys,
                           monkeypatch)
    assert rc == 2 and "line-aligned" in err and out == ""
    rc, out, err = run_cli(["ter", "--hyp", str(tmp_path / "bad"), "--ref", str(tmp_path / "bad")], None, capsys,
                           monkeypatch)
    assert rc == 2 and "not valid UTF-8" in err and out == ""


def test_real_subprocess_no_traceback_and_a_closed_pipe(tmp_path):
    p = subprocess.run([sys.executable, "-m", "explainer", "ter", "--hyp", str(tmp_path / "missing"), "--ref",
                        str(tmp_path / "missing2")], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "cannot read" in p.stderr
    lines = "".join(json.dumps({"candidate": f"a b {i}", "references": ["b a"]}) + "\n" for i in range(3000))
    p = subprocess.run(f"{sys.executable} -m explainer ter --jsonl - | head -1", shell=True, input=lines,
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stderr == "" and json.loads(p.stdout)["num_edits"] == 2


@pytest.mark.parametrize("opts", [{}, {"normalized": True, "no_punct": True}, {"asian_support": True,
                                                                                "case_sensitive": True}])
def test_cli_argv_prints_the_configurations_numbers(opts, capsys, monkeypatch):
    """The dialect's cli_argv binds the same options again."""
    from explainer.ter import DIALECTS, score_ter

    argv = DIALECTS["sacrebleu"].cli_argv(opts)
    seg = SEGS[0]
    rc, out, err = run_cli(argv, _jsonl([seg]), capsys, monkeypatch)
    assert rc == 0, err
    want = score_ter(seg["candidate"], seg["references"], **opts)
    got = json.loads(out)
    assert got["score"] == want.score and got["options"] == want.options


def test_corpus_bootstrap_equals_corpus_score_n_bootstrap(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    hyps = ["The cat sat on the mat.", "Hello there", "a b c", "the dog barks", "one two three"]
    r1 = ["On the mat sat the cat.", "Hello", "a b d", "a dog barked", "three two one"]
    r2 = ["A cat sat.", "hello there", "c b a", "the dog", "one two"]
    for name, lines in (("h", hyps), ("r1", r1), ("r2", r2)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    rc, out, err = run_cli(["ter", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r1"), "--ref",
                            str(tmp_path / "r2"), "--bootstrap", "300"], None, capsys, monkeypatch)
    assert rc == 0, err
    b = json.loads(out)["bootstrap"]
    m = TER()
    s = m.corpus_score(hyps, [r1, r2], n_bootstrap=300)
    assert b["mean"] == s._mean and b["ci"] == s._ci
    assert b["signature"] == m.get_signature().format()


def test_the_worked_example_of_the_docs(capsys, monkeypatch):
    """docs/ter.md's command and the keys it shows: the CLI prints them, and they are sacreBLEU's numbers."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "ter.md").read_text(encoding="utf-8")
    cmd = next(x for x in doc.splitlines() if x.startswith("$ echo '"))
    shown = json.loads(next(x for x in doc.splitlines() if x.startswith('{"score"')))
    seg = json.loads(cmd.split("'")[1])
    assert cmd.endswith("| python -m explainer ter --jsonl -")
    rc, out, err = run_cli(["ter", "--jsonl", "-"], _jsonl([seg]), capsys, monkeypatch)
    got = json.loads(out)
    assert rc == 0 and {k: got[k] for k in shown} == shown
    want = TER().sentence_score(seg["candidate"], seg["references"])
    assert (shown["score"], shown["num_edits"], shown["ref_length"]) == (want.score, want.num_edits, want.ref_length)


def test_the_limits_are_documented():
    """The TER rows of docs/limits.md and docs/ter.md name each constant with its value."""
    from pathlib import Path

    import explainer.ter as ter

    root = Path(__file__).resolve().parents[1] / "docs"
    limits = (root / "limits.md").read_text(encoding="utf-8")
    table = (root / "ter.md").read_text(encoding="utf-8").split("## Limits", 1)[1].split("\n## ", 1)[0]
    for name in ("MAX_TEXT_TOKENS", "MAX_TRACE_CHARS", "MAX_CORPUS_TRACE_CHARS", "MAX_TRACE_WORK"):
        value = f"{getattr(ter, name):,}"
        row = next(x for x in limits.splitlines() if x.startswith("| TER core") and name in x)
        assert value in row, (name, row)
        row = next(x for x in table.splitlines() if f"`{name}`" in x)
        assert value in row, (name, row)
