"""`python -m explainer dialects` and `python -m explainer reproduce`: the contract, and bad input (one line on
stderr, non-zero exit, never a traceback)."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from explainer.cli import main
from explainer.families import FAMILIES

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def run(argv, capsys, monkeypatch=None, stdin: bytes | None = None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    rc = main(argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_dialects_bleu_contract(capsys):
    rc, out, err = run(["dialects", "--candidate", "the cat sat on the mat.", "--ref", "the cat is on the mat.",
                        "--ref", "there is a cat on the mat."], capsys)
    assert rc == 0 and err == ""
    d = json.loads(out)
    assert d["metric"] == "bleu" and d["level"] == "segment"
    for row in d["rows"]:
        for key in ("id", "dialect", "options", "score", "bleu", "counts", "totals", "sys_len", "ref_len", "bp",
                    "smoothing", "scale", "argv"):
            assert key in row, key
    assert [p["a"] for p in d["pairs"]] == [d["rows"][0]["id"]] * (len(d["rows"]) - 1)
    for p in d["pairs"]:
        assert set(p) >= {"a", "b", "first_step", "why"} and p["why"]


def test_dialects_rouge_contract_and_types(capsys):
    rc, out, _ = run(["dialects", "--candidate", "the cat sat", "--ref", "the cat is here", "--metric", "rouge",
                      "--types", "rougeL,rouge1"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["metric"] == "rouge"
    for row in d["rows"]:
        assert row["type"] == "rougeL" and row["score"] == row["fmeasure"] == row["scores"]["rougeL"]["fmeasure"]
        assert row["argv"][:2] == ["rouge", "--jsonl"]


def test_dialects_pairs_option(capsys):
    rc, out, _ = run(["dialects", "--candidate", "a b c", "--ref", "a b d", "--pair", "nltk:method0:nltk:method1",
                      "--pair", "1:4"], capsys)
    d = json.loads(out)
    ids = [r["id"] for r in d["rows"]]
    assert [(p["a"], p["b"]) for p in d["pairs"]] == [("nltk:method0", "nltk:method1"), (ids[0], ids[3])]
    rc, out, _ = run(["dialects", "--candidate", "a b c", "--ref", "a b d", "--all-pairs"], capsys)
    n = len(json.loads(out)["rows"])
    assert len(json.loads(out)["pairs"]) == n * (n - 1) // 2


def test_dialects_jsonl_and_corpus(capsys, monkeypatch):
    lines = [{"candidate": "the cat sat", "references": ["the cat sat"]},
             {"candidate": "a dog.", "references": ["a dog ran."]}]
    data = ("\n".join(json.dumps(x) for x in lines) + "\n").encode()
    rc, out, _ = run(["dialects", "--jsonl", "-"], capsys, monkeypatch, data)
    objs = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and len(objs) == 2 and all(o["level"] == "segment" for o in objs)
    rc, out, _ = run(["dialects", "--jsonl", "-", "--corpus", "--metric", "rouge"], capsys, monkeypatch, data)
    d = json.loads(out)
    assert rc == 0 and d["level"] == "corpus" and d["rows"][0]["n_segments"] == 2


def _numbers(out) -> list:
    """Every number of a command's JSON output."""
    if isinstance(out, dict):
        return [x for v in out.values() for x in _numbers(v)]
    if isinstance(out, list):
        return [x for v in out for x in _numbers(v)]
    return [out] if isinstance(out, (int, float)) and not isinstance(out, bool) else []


def _row_value(row: dict):
    return row["native_score"] if "native_score" in row else row["score"]


@pytest.mark.parametrize("metric", list(FAMILIES))
def test_dialects_takes_every_registered_family(metric, capsys, monkeypatch):
    """Every family compares (TER through the generic part): each row's argv prints the row's score; a corpus
    too."""
    cand, refs = "The cat sat on the mat.", ["the cat is on the mat .", "A cat sat on a mat!"]
    rc, out, err = run(["dialects", "--candidate", cand, "--ref", refs[0], "--ref", refs[1], "--metric", metric],
                       capsys)
    d = json.loads(out)
    assert rc == 0 and err == "" and d["metric"] == metric and d["rows"]
    assert len(d["pairs"]) == len(d["rows"]) - 1 and all(p["why"] for p in d["pairs"])
    stdin = (json.dumps({"candidate": cand, "references": refs}) + "\n").encode()
    for row in d["rows"]:
        rc, printed, _ = run(row["argv"], capsys, monkeypatch, stdin)
        got = json.loads(printed.splitlines()[0])
        assert rc == 0 and _row_value(row) in _numbers(got), (metric, row["id"])
    lines = [{"candidate": cand, "references": refs}, {"candidate": "a dog.", "references": ["a dog ran.", "dog"]}]
    data = ("\n".join(json.dumps(x) for x in lines) + "\n").encode()
    rc, out, _ = run(["dialects", "--jsonl", "-", "--corpus", "--metric", metric], capsys, monkeypatch, data)
    assert rc == 0 and json.loads(out)["level"] == "corpus"


@pytest.mark.parametrize("argv,msg", [
    (["dialects", "--candidate", "a"], "give at least one --ref"),
    (["dialects", "--candidate", "a", "--ref", "b", "--types", "rouge1"], "--types applies to --metric rouge"),
    (["dialects", "--candidate", "a", "--ref", "b", "--metric", "rouge", "--types", "rougeX"], "invalid ROUGE type"),
    (["dialects", "--candidate", "a", "--ref", "b", "--pair", "x:y"], "expected A:B"),
    (["dialects", "--candidate", "a", "--ref", "b", "--corpus"], "--corpus needs --jsonl"),
    (["dialects", "--candidate", "a " * 20000, "--ref", "b"], "limit here is 20,000"),
    (["dialects", "--candidate", "a"] + ["--ref", "b"] * 11, "at most 10"),
    (["reproduce", "--candidate", "a", "--ref", "b", "--claim", "nothing"], "no number"),
    (["reproduce", "--candidate", "a", "--ref", "b", "--claim", "ROUGE-L 0.4", "--metric", "bleu"], "--metric is bleu"),
    (["reproduce", "--candidate", "a " * 1500, "--ref", "b", "--claim", "0.5"], "2,000 per text"),
])
def test_bad_input_is_one_line_and_exit_2(argv, msg, capsys):
    rc, out, err = run(argv, capsys)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and msg in err, err


def test_dialects_jsonl_bad_line(capsys, monkeypatch):
    rc, out, err = run(["dialects", "--jsonl", "-"], capsys, monkeypatch, b'{"candidate": "a", "references": ["a"]}\n{')
    assert rc == 2 and "line 2: invalid JSON" in err and out == ""


def test_reproduce_contract(capsys):
    rc, out, err = run(["reproduce", "--candidate", "Abandon all hope , ye who enter here",
                        "--ref", "All hope abandon , ye who enter here",
                        "--ref", "All hope abandon , ye who enter in !",
                        "--ref", "Leave every hope, ye that enter", "--ref", "Leave all hope , ye that enter",
                        "--claim", "BLEU: 0.541"], capsys)
    assert rc == 0 and err == ""
    d = json.loads(out)
    assert d["claim"] == "BLEU: 0.541" and d["decimals"] == 3 and d["verdict"] == "reproduced"
    for m in d["matches"]:
        assert set(m) >= {"metric", "dialect", "options", "references", "measure", "value", "argv"}
        assert m["references"] == [0] and m["argv"][0] == "bleu"
        x = {"as printed": m["value"], "x100": m["value"] * 100, "/100": m["value"] / 100}[m["form"]]
        assert f"{x:.3f}" == "0.541"
    assert isinstance(d["nearest"], list)


def test_reproduce_unreproducible(capsys):
    rc, out, _ = run(["reproduce", "--candidate", "the cat sat on the mat", "--ref", "the cat is on the mat",
                      "--claim", "BLEU = 0.576", "--metric", "bleu"], capsys)
    d = json.loads(out)
    assert rc == 0 and d["verdict"] == "unreproducible" and d["matches"] == [] and len(d["nearest"]) == 5


def test_subprocess_run_and_help():
    r = subprocess.run([sys.executable, "-m", "explainer", "reproduce", "--help"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and "--claim" in r.stdout
    r = subprocess.run([sys.executable, "-m", "explainer", "dialects", "--candidate", "a b", "--ref", "a b c"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and json.loads(r.stdout)["rows"]


@pytest.mark.parametrize("content", [b"", b"\n\n  \n"])
@pytest.mark.parametrize("extra", [[], ["--corpus"], ["--metric", "rouge"]])
def test_dialects_jsonl_with_no_segment_is_an_error(content, extra, capsys, monkeypatch, tmp_path):
    f = tmp_path / "empty.jsonl"
    f.write_bytes(content)
    rc, out, err = run(["dialects", "--jsonl", str(f)] + extra, capsys)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "has no segments" in err and "empty.jsonl" in err, err
    rc, out, err = run(["dialects", "--jsonl", "-"] + extra, capsys, monkeypatch, content)
    assert rc == 2 and out == "" and "has no segments" in err, err
