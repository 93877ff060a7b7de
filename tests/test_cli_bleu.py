"""`python -m explainer bleu`: JSONL segments, line-aligned corpora, flags, and bad input (one line, exit 2)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU

from explainer.cli import main

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def run_cli(argv, stdin: bytes | None = None, capsys=None, monkeypatch=None):
    """In-process run (fast); stdin is fed through sys.stdin.buffer."""
    import io

    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


SEGS = [
    {"candidate": "The cat sat on the mat.", "references": ["The cat is on the mat.", "A cat sat on a mat."]},
    {"candidate": "", "references": ["x"]},
    {"candidate": "Hello world", "references": ["Hello world"]},
]


def _jsonl(objs) -> bytes:
    return ("\n".join(json.dumps(o, ensure_ascii=False) for o in objs) + "\n").encode()


def test_jsonl_segments_match_sacrebleu(capsys, monkeypatch):
    rc, out, err = run_cli(["bleu", "--jsonl", "-"], _jsonl(SEGS), capsys, monkeypatch)
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == len(SEGS)
    for obj, seg in zip(lines, SEGS):
        ref = BLEU().corpus_score([seg["candidate"]], [[r] for r in seg["references"]])
        assert obj["score"] == pytest.approx(ref.score, abs=1e-9)
        assert obj["bleu"] == pytest.approx(ref.score / 100, abs=1e-11)
        assert obj["counts"] == ref.counts and obj["totals"] == ref.totals
        assert obj["precisions"] == pytest.approx([p / 100 for p in ref.precisions], abs=1e-11)
        assert obj["bp"] == pytest.approx(ref.bp, abs=1e-9)
        assert obj["sys_len"] == ref.sys_len and obj["ref_len"] == ref.ref_len
        nrefs = len(seg["references"])
        assert obj["signature"] == f"nrefs:{nrefs}|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"


def test_flags_reach_the_dialect(capsys, monkeypatch):
    seg = SEGS[2]
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--tokenize", "char", "--lowercase", "--smooth", "floor",
                            "--smooth-value", "0.5", "--max-order", "3", "--effective-order"],
                           _jsonl([seg]), capsys, monkeypatch)
    assert rc == 0, err
    obj = json.loads(out)
    ref = BLEU(tokenize="char", lowercase=True, smooth_method="floor", smooth_value=0.5, max_ngram_order=3,
               effective_order=True)
    want = ref.corpus_score([seg["candidate"]], [[r] for r in seg["references"]])
    assert obj["score"] == pytest.approx(want.score, abs=1e-9)
    assert obj["signature"] == str(ref.get_signature())
    assert len(obj["counts"]) == 3


def test_sentence_bleu_api_flag(capsys, monkeypatch):
    seg = SEGS[2]
    rc, out, _ = run_cli(["bleu", "--jsonl", "-", "--api", "sentence_bleu"], _jsonl([seg]), capsys, monkeypatch)
    assert rc == 0
    want = sacrebleu.sentence_bleu(seg["candidate"], seg["references"])
    assert json.loads(out)["score"] == pytest.approx(want.score, abs=1e-9)


def test_full_trace(capsys, monkeypatch):
    rc, out, _ = run_cli(["bleu", "--jsonl", "-", "--full"], _jsonl(SEGS[:1]), capsys, monkeypatch)
    assert rc == 0
    d = json.loads(out)
    assert d["kind"] == "bleu-segment" and d["ngrams"][0]["entries"] and d["candidate"]["tokens"][0]["start"] == 0


def test_nltk_flags(capsys, monkeypatch):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    seg = SEGS[0]
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--dialect", "nltk", "--smooth", "method4", "--weights",
                            "0.5,0.3,0.2"], _jsonl([seg]), capsys, monkeypatch)
    assert rc == 0, err
    want = sentence_bleu([r.split() for r in seg["references"]], seg["candidate"].split(), weights=(0.5, 0.3, 0.2),
                         smoothing_function=SmoothingFunction().method4)
    assert json.loads(out)["score"] == pytest.approx(want, abs=1e-12)


def test_hf_empty_candidate_is_recorded_not_raised(capsys, monkeypatch):
    rc, out, _ = run_cli(["bleu", "--jsonl", "-", "--dialect", "hf-evaluate"], _jsonl([SEGS[1]]), capsys, monkeypatch)
    assert rc == 0
    assert json.loads(out)["library_error"]["type"] == "ZeroDivisionError"


def test_corpus_files(tmp_path, capsys, monkeypatch):
    hyps = [s["candidate"] for s in SEGS]
    r0 = [s["references"][0] for s in SEGS]
    (tmp_path / "h").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r0").write_text("\r\n".join(r0) + "\r\n", encoding="utf-8")   # CRLF is fine
    rc, out, err = run_cli(["bleu", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r0")], None, capsys,
                           monkeypatch)
    assert rc == 0, err
    d = json.loads(out)
    want = sacrebleu.corpus_bleu(hyps, [r0])
    assert d["score"] == pytest.approx(want.score, abs=1e-9) and d["n_segments"] == 3
    rc, out, _ = run_cli(["bleu", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r0"), "--full"], None,
                         capsys, monkeypatch)
    assert rc == 0 and len(json.loads(out)["segments"]) == 3


def test_jsonl_corpus_mode(capsys, monkeypatch):
    rc, out, _ = run_cli(["bleu", "--jsonl", "-", "--corpus"], _jsonl(SEGS), capsys, monkeypatch)
    assert rc == 0
    want = BLEU().corpus_score([s["candidate"] for s in SEGS],
                               [[s["references"][k] if k < len(s["references"]) else None for s in SEGS]
                                for k in range(2)])
    assert json.loads(out)["score"] == pytest.approx(want.score, abs=1e-9)


@pytest.mark.parametrize("argv,stdin,needle", [
    (["bleu", "--jsonl", "-"], b"not json\n", "line 1: invalid JSON"),
    (["bleu", "--jsonl", "-"], b'{"candidate": 3, "references": ["a"]}\n', "'candidate' must be a string"),
    (["bleu", "--jsonl", "-"], b'{"candidate": "a"}\n', "line 1: 'references' is missing"),
    (["bleu", "--jsonl", "-"], b'{"candidate": "a", "references": [1]}\n', "list of strings"),
    (["bleu", "--jsonl", "-"], b'[1, 2]\n', "expected a JSON object"),
    (["bleu", "--jsonl", "-"], b'\xff\xfe\n', "not valid UTF-8"),
    (["bleu", "--jsonl", "-", "--dialect", "nope"], b"", "unknown dialect"),
    (["bleu", "--jsonl", "-", "--dialect", "hf-evaluate", "--tokenize", "intl"], b"", "does not apply"),
    (["bleu", "--jsonl", "-", "--smooth", "bogus"], b"", "smooth_method"),
    (["bleu", "--jsonl", "-", "--max-order", "0"], b"", "max_ngram_order"),
    (["bleu", "--jsonl", "-", "-o", "nonsense"], b"", "KEY=VALUE"),
    (["bleu", "--jsonl", "-", "-o", "colour=red"], b"", "has no option"),
    (["bleu", "--jsonl", "-", "--dialect", "nltk", "--weights", "a,b"], b"", "list of numbers"),
])
def test_bad_input_one_line_exit_2(argv, stdin, needle, capsys, monkeypatch):
    rc, out, err = run_cli(argv, stdin, capsys, monkeypatch)
    assert rc == 2
    assert needle in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_mismatched_and_missing_files(tmp_path, capsys, monkeypatch):
    (tmp_path / "h").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "r").write_text("a\n", encoding="utf-8")
    (tmp_path / "bad").write_bytes(b"caf\xe9\n")
    for argv, needle in (
        (["bleu", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r")], "has 2 lines but"),
        (["bleu", "--hyp", str(tmp_path / "h")], "needs at least one --ref"),
        (["bleu", "--hyp", str(tmp_path / "nope"), "--ref", str(tmp_path / "r")], "cannot read"),
        (["bleu", "--hyp", str(tmp_path / "bad"), "--ref", str(tmp_path / "r")], "not valid UTF-8"),
    ):
        rc, _, err = run_cli(argv, None, capsys, monkeypatch)
        assert rc == 2 and needle in err, (argv, err)
        assert len(err.strip().splitlines()) == 1


def test_real_subprocess_no_traceback(tmp_path):
    """One end-to-end run through `python -m explainer` in a fresh interpreter."""
    p = subprocess.run([sys.executable, "-m", "explainer", "bleu", "--jsonl", "-"], input=b"{bad\n",
                       capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and b"Traceback" not in p.stderr and b"invalid JSON" in p.stderr
    p = subprocess.run([sys.executable, "-m", "explainer", "bleu", "--jsonl", "-"], input=_jsonl(SEGS[:1]),
                       capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)["sys_len"] == 7


def test_corpus_bootstrap_flag(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    hyps = [s["candidate"] for s in SEGS]
    r0 = [s["references"][0] for s in SEGS]
    (tmp_path / "h").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r").write_text("\n".join(r0) + "\n", encoding="utf-8")
    rc, out, err = run_cli(["bleu", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r"), "--bootstrap", "100"],
                           None, capsys, monkeypatch)
    assert rc == 0, err
    b = json.loads(out)["bootstrap"]
    want = BLEU().corpus_score(hyps, [r0], n_bootstrap=100)
    assert b["mean"] == pytest.approx(want._mean, abs=1e-9) and b["ci"] == pytest.approx(want._ci, abs=1e-9)
    rc, _, err = run_cli(["bleu", "--jsonl", "-", "--bootstrap", "10"], _jsonl(SEGS), capsys, monkeypatch)
    assert rc == 2 and "needs a corpus" in err


@pytest.mark.parametrize("argv,needle", [
    (["bleu", "--jsonl", "-", "--max-order", "abc"], "invalid int value: 'abc'"),
    (["rouge", "--jsonl", "-", "--multi-ref", "max"], "invalid choice: 'max'"),
    (["bleu", "--jsonl", "-", "--hyp", "h.txt"], "not allowed with argument"),
    ([], "required: command"),
])
def test_bad_flags_are_one_line(argv, needle, capsys):
    """argparse's default prints the whole usage block before the error; the CLI promises one line."""
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "--help" in err


@pytest.mark.parametrize("opts,line,want_type,want_msg", [
    (["--smooth", "method4", "-o", "k=0"], {"candidate": "a b", "references": ["a c"]},
     "ZeroDivisionError", "float division by zero"),
    (["--smooth", "method6", "-o", "alpha=0"], {"candidate": "a b c", "references": ["a b c"]},
     "ZeroDivisionError", "Fraction(0, 0)"),
    (["--smooth", "method5"], {"candidate": "a b c d e", "references": []}, "KeyError", "('a',)"),
])
def test_nltk_parameter_edges_are_recorded_not_internal_errors(opts, line, want_type, want_msg, capsys,
                                                                monkeypatch):
    """These inputs made the CLI print 'internal error' (exit 3); NLTK itself raises, which is recorded."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    params = {kv.split("=")[0]: int(kv.split("=")[1]) for kv in opts[3:4]}
    with pytest.raises(Exception) as real:
        sentence_bleu([r.split() for r in line["references"]], line["candidate"].split(),
                      smoothing_function=getattr(SmoothingFunction(**params), opts[1]))
    assert (type(real.value).__name__, str(real.value)) == (want_type, want_msg)
    for full in ([], ["--full"]):
        rc, out, err = run_cli(["bleu", "--jsonl", "-", "--dialect", "nltk", *opts, *full], _jsonl([line]), capsys,
                               monkeypatch)
        assert rc == 0, err
        e = json.loads(out)["library_error"]
        assert (e["type"], e["message"]) == (want_type, want_msg)


@pytest.mark.parametrize("dialect,value", [
    ("hf-evaluate", "exp"), ("hf-evaluate", "nist"), ("hf-evaluate", "method1"), ("hf-evaluate", "floor"),
    ("hf-evaluate", "yes"), ("mteval", "add-one"), ("mteval", "method3"), ("mteval", "floor"), ("mteval", "on"),
    ("nltk", "exp"), ("nltk", "add-one"), ("sacrebleu", "add-one"), ("sacrebleu", "method1"),
])
def test_smooth_accepts_only_the_dialects_own_values(dialect, value, capsys, monkeypatch):
    """`--dialect hf-evaluate --smooth exp` silently became smooth=True (a table shared between dialects)."""
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--dialect", dialect, "--smooth", value],
                           _jsonl(SEGS[:1]), capsys, monkeypatch)
    assert rc == 2 and out == "", (dialect, value, out)
    assert len(err.strip().splitlines()) == 1 and repr(value) in err, err
    accepted = {"hf-evaluate": "none, add-one", "mteval": "none, exp, nist", "nltk": "method0",
                "sacrebleu": "exp, floor, add-k, none"}[dialect]
    assert accepted in err, err


@pytest.mark.parametrize("dialect,value,option,want", [
    ("hf-evaluate", "none", "smooth", False), ("hf-evaluate", "add-one", "smooth", True),
    ("hf-evaluate", "true", "smooth", True), ("mteval", "exp", "smoothing", True),
    ("mteval", "none", "smoothing", False), ("mteval", "NIST", "smoothing", True),
])
def test_smooth_own_values_reach_the_dialect(dialect, value, option, want, capsys, monkeypatch):
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--dialect", dialect, "--smooth", value], _jsonl(SEGS[:1]),
                           capsys, monkeypatch)
    assert rc == 0, err
    assert json.loads(out)["options"][option] is want


@pytest.mark.parametrize("full", [[], ["--full"]])
def test_deeply_nested_json_is_invalid_json_not_internal_error(full, capsys, monkeypatch):
    """'[' * 100000 made json.loads raise RecursionError: 'internal error', exit 3."""
    stdin = _jsonl(SEGS[:2]) + b"[" * 100_000 + b"\n"
    rc, out, err = run_cli(["bleu", "--jsonl", "-", *full], stdin, capsys, monkeypatch)
    assert rc == 2 and out == ""
    assert "line 3: invalid JSON" in err and len(err.strip().splitlines()) == 1, err
    p = subprocess.run([sys.executable, "-m", "explainer", "bleu", "--jsonl", "-"], input=b'{"candidate": ' +
                       b"[" * 100_000 + b"\n", capture_output=True, cwd=ROOT, timeout=60)
    assert p.returncode == 2 and b"line 1: invalid JSON" in p.stderr and p.stderr.count(b"\n") == 1


def test_full_trace_with_lone_surrogate_is_one_line_before_any_output(capsys, monkeypatch):
    """A lone surrogate (a JSON escape without its pair) cannot be written as UTF-8: the full trace used to write
    the earlier lines, then fail with an encoder message without a line number."""
    lines = _jsonl(SEGS[:1]) + b'{"candidate": "a \\ud800 b", "references": ["a b"]}\n'
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--full"], lines, capsys, monkeypatch)
    assert rc == 2 and out == "", out[:100]
    assert "line 2: 'candidate' contains a lone surrogate U+D800" in err and len(err.strip().splitlines()) == 1
    lines = _jsonl(SEGS[:1]) + b'{"candidate": "a b", "references": ["x", "a \\udfff"]}\n'
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--full", "--corpus"], lines, capsys, monkeypatch)
    assert rc == 2 and out == "" and "line 2: reference 2 contains a lone surrogate U+DFFF" in err
    # the statistics do not repeat the text: fine
    rc, out, err = run_cli(["bleu", "--jsonl", "-"], lines, capsys, monkeypatch)
    assert rc == 0 and len(out.splitlines()) == 2, err
    # NLTK's KeyError names the first token, but as a repr (escaped): still writable
    lines = _jsonl(SEGS[:1]) + b'{"candidate": "\\ud800 b", "references": []}\n'
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--dialect", "nltk"], lines, capsys, monkeypatch)
    assert rc == 0, err
    assert json.loads(out.splitlines()[1])["library_error"]["message"] == str(KeyError(("\ud800",)))


def test_stdout_that_cannot_encode_the_result_is_one_line(capsys, monkeypatch):
    import io

    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_jsonl(SEGS[:2])), encoding="utf-8"))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="ascii"))
    rc = main(["bleu", "--jsonl", "-", "--full"])
    sys.stdout.flush()
    err = capsys.readouterr().err
    assert rc == 2 and raw.getvalue() == b""
    assert "line 1: the result cannot be written to stdout (encoding ascii)" in err and "PYTHONIOENCODING" in err
    assert len(err.strip().splitlines()) == 1
