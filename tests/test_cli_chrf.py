"""`python -m explainer chrf`: JSONL segments, line-aligned corpora, every flag, and bad input (one line, exit 2);
numbers from sacreBLEU's CHRF and NLTK's chrf_score computed here."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from nltk.translate.chrf_score import sentence_chrf
from sacrebleu.metrics import CHRF

from explainer.cli import main

SEGS = [
    {"candidate": "The cat sat on the mat.", "references": ["The cat is on the mat.", "A cat sat on a mat."]},
    {"candidate": "", "references": ["x"]},
    {"candidate": "Hello World", "reference": "hello world"},
]


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


@pytest.mark.parametrize("flags,opts", [
    ([], {}),
    (["--word-order", "2"], {"word_order": 2}),
    (["--char-order", "4", "--beta", "1", "--lowercase", "--whitespace", "--eps-smoothing"],
     {"char_order": 4, "beta": 1, "lowercase": True, "whitespace": True, "eps_smoothing": True}),
])
def test_jsonl_segments_match_sacrebleu(flags, opts, capsys, monkeypatch):
    rc, out, err = run_cli(["chrf", "--jsonl", "-"] + flags, _jsonl(SEGS), capsys, monkeypatch)
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == len(SEGS)
    for obj, seg in zip(lines, SEGS):
        m = CHRF(**opts)
        want = m.sentence_score(seg["candidate"], _refs(seg))
        assert obj["score"] == pytest.approx(want.score, abs=1e-9)
        assert obj["native_score"] == pytest.approx(want.score, abs=1e-9)
        assert obj["name"] == want.name
        assert obj["signature"] == m.get_signature().format()
        stats = m._extract_corpus_statistics([seg["candidate"]], [[r] for r in _refs(seg)])[0]
        assert [x for o in obj["orders"] for x in (o["hyp"], o["ref"], o["match"])] == stats


def test_nltk_dialect_and_its_flags(capsys, monkeypatch):
    seg = {"candidate": "The cat sat on the mat.", "references": ["The cat is on the mat."]}
    rc, out, err = run_cli(["chrf", "--jsonl", "-", "--dialect", "nltk", "--char-order", "3", "--beta", "2",
                            "--whitespace"], _jsonl([seg]), capsys, monkeypatch)
    assert rc == 0, err
    obj = json.loads(out)
    want = sentence_chrf(seg["references"][0], seg["candidate"], max_len=3, beta=2.0, ignore_whitespace=False)
    assert obj["native_score"] == pytest.approx(want, abs=1e-12)
    assert obj["score"] == pytest.approx(100 * want, abs=1e-9)


def test_corpus_files_and_full(tmp_path, capsys, monkeypatch):
    hyps = ["The cat sat on the mat.", "Hello there", "a b c"]
    r1 = ["The cat is on the mat.", "Hello", "a b d"]
    r2 = ["A cat sat.", "hello there", "c b a"]
    for name, lines in (("h", hyps), ("r1", r1), ("r2", r2)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["chrf", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r1"), "--ref", str(tmp_path / "r2"),
            "--word-order", "2"]
    rc, out, err = run_cli(argv, None, capsys, monkeypatch)
    assert rc == 0, err
    obj = json.loads(out)
    m = CHRF(word_order=2)
    want = m.corpus_score(hyps, [r1, r2])
    assert obj["score"] == pytest.approx(want.score, abs=1e-9) and obj["n_segments"] == 3
    assert obj["signature"] == m.get_signature().format()
    rc, out, err = run_cli(argv + ["--full"], None, capsys, monkeypatch)
    full = json.loads(out)
    assert rc == 0 and len(full["segments"]) == 3 and full["score"] == pytest.approx(want.score, abs=1e-9)


def test_jsonl_corpus_mode(capsys, monkeypatch):
    segs = [s for s in SEGS if "references" in s]
    rc, out, err = run_cli(["chrf", "--jsonl", "-", "--corpus"], _jsonl(segs), capsys, monkeypatch)
    assert rc == 0, err
    obj = json.loads(out)
    want = CHRF().corpus_score([s["candidate"] for s in segs], [[segs[0]["references"][0], segs[1]["references"][0]],
                                                                [segs[0]["references"][1], None]])
    assert obj["score"] == pytest.approx(want.score, abs=1e-9)
    assert "nrefs:var" in obj["signature"]


@pytest.mark.parametrize("argv,stdin,needle", [
    (["chrf", "--jsonl", "-"], b'{"candidate": "a", "references": []}\n', "at least one reference"),
    (["chrf", "--jsonl", "-"], b'{"candidate": "a"\n', "line 1"),
    (["chrf", "--jsonl", "-", "--dialect", "moses"], b"", "unknown chrF dialect"),
    (["chrf", "--jsonl", "-", "--dialect", "nltk", "--eps-smoothing"], b"", "does not apply to the nltk dialect"),
    (["chrf", "--jsonl", "-", "--beta", "-1"], b"", "beta must be between"),
    (["chrf", "--jsonl", "-", "-o", "max_len=3"], b"", "has no option 'max_len'"),
    (["chrf", "--jsonl", "-", "--ref", "x"], b"", "--ref is for corpus mode"),
])
def test_bad_input_one_line_exit_2(argv, stdin, needle, capsys, monkeypatch):
    rc, out, err = run_cli(argv, stdin, capsys, monkeypatch)
    assert rc == 2 and needle in err and out == "", err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("flag", ["--char-order 11", "--word-order 5", "--char-order 99999999999999999999999"])
def test_bounded_flags(flag, capsys):
    with pytest.raises(SystemExit) as e:
        main(["chrf", "--jsonl", "-"] + flag.split())
    assert e.value.code == 2
    assert "expected a whole number" in capsys.readouterr().err


def test_real_subprocess_no_traceback(tmp_path):
    p = subprocess.run([sys.executable, "-m", "explainer", "chrf", "--hyp", str(tmp_path / "missing"), "--ref",
                        str(tmp_path / "missing2")], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "cannot read" in p.stderr


@pytest.mark.parametrize("dialect,opts", [
    ("sacrebleu", {}), ("sacrebleu", {"word_order": 2, "lowercase": True, "eps_smoothing": True}),
    ("sacrebleu", {"char_order": 4, "beta": 1.0, "whitespace": True, "lowercase": False}),
    ("nltk", {"beta": 2.0, "ignore_whitespace": False}), ("nltk", {"min_len": 2, "max_len": 3}),
    ("nltk", {"ignore_whitespace": True}),
])
def test_cli_argv_prints_the_configurations_numbers(dialect, opts, capsys, monkeypatch):
    """A dialect's cli_argv (what reproduce and the Dialects rows print) binds the same options again."""
    from explainer.chrf import DIALECTS, score_chrf

    argv = DIALECTS[dialect].cli_argv(opts)
    seg = SEGS[0]
    rc, out, err = run_cli(argv, _jsonl([seg]), capsys, monkeypatch)
    assert rc == 0, err
    want = score_chrf(seg["candidate"], seg["references"], dialect=dialect, **opts)
    got = json.loads(out)
    assert got["native_score"] == want.score and got["options"] == want.options


def test_corpus_bootstrap_equals_corpus_score_n_bootstrap(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    hyps = ["The cat sat on the mat.", "Hello there", "a b c", "the dog barks"]
    r1 = ["The cat is on the mat.", "Hello", "a b d", "a dog barked"]
    for name, lines in (("h", hyps), ("r1", r1)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    rc, out, err = run_cli(["chrf", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r1"), "--word-order", "2",
                            "--bootstrap", "300"], None, capsys, monkeypatch)
    assert rc == 0, err
    b = json.loads(out)["bootstrap"]
    m = CHRF(word_order=2)
    s = m.corpus_score(hyps, [r1], n_bootstrap=300)
    assert b["mean"] == s._mean and b["ci"] == s._ci
    assert b["signature"] == m.get_signature().format()
    rc, out, err = run_cli(["chrf", "--jsonl", "-", "--bootstrap", "10"], _jsonl(SEGS[:1]), capsys, monkeypatch)
    assert rc == 2 and "--bootstrap needs a corpus" in err
