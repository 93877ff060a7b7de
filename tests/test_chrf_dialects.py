"""`dialects --metric chrf`: sacreBLEU's and NLTK's chrF side by side (numbers from the libraries, computed here),
each row's command printing its numbers, and the first step where two rows disagree."""
from __future__ import annotations

import io
import json
import sys

import pytest
from nltk.translate.chrf_score import sentence_chrf
from sacrebleu.metrics import CHRF

from explainer.cli import main
from explainer.dialectcmp.chrf_compare import compare_chrf

H = "The cat sat on the mat."
R = ["The cat is on the mat.", "A cat sat."]


def test_rows_are_the_libraries_numbers():
    d = compare_chrf(H, R)
    rows = {r["id"]: r for r in d["rows"]}
    assert rows["sacrebleu"]["native_score"] == pytest.approx(CHRF().sentence_score(H, R).score, abs=1e-9)
    assert rows["sacrebleu:chrf++"]["native_score"] == pytest.approx(
        CHRF(word_order=2).sentence_score(H, R).score, abs=1e-9)
    assert rows["nltk"]["native_score"] == pytest.approx(sentence_chrf(R, H), abs=1e-12)   # R joined, as NLTK does
    assert rows["nltk:beta2"]["native_score"] == pytest.approx(sentence_chrf(R, H, beta=2.0), abs=1e-12)


def test_first_differences():
    d = compare_chrf(H, R)
    first = {(p["a"], p["b"]): p["first_step"] for p in d["pairs"]}
    assert first[("sacrebleu", "sacrebleu:chrf++")] == "orders"
    assert first[("sacrebleu", "sacrebleu:eps")] == "averaging"
    assert first[("sacrebleu", "nltk")] == "references"
    one = compare_chrf(H, R[:1], pairs=[("nltk", "nltk:beta2"), ("sacrebleu", "sacrebleu")])
    assert [p["first_step"] for p in one["pairs"]] == ["beta", None]
    with pytest.raises(ValueError, match="unknown row"):
        compare_chrf(H, R, pairs=[("sacrebleu", "moses")])


def test_cli_rows_print_their_numbers(capsys, monkeypatch):
    rc = main(["dialects", "--metric", "chrf", "--candidate", H, "--ref", R[0], "--ref", R[1], "--pair", "1:4"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["pairs"][0]["a"] == "sacrebleu" and d["pairs"][0]["b"] == "nltk"
    for row in d["rows"]:
        line = json.dumps({"candidate": H, "references": R}) + "\n"
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(line.encode()), encoding="utf-8"))
        assert main(row["argv"]) == 0
        assert json.loads(capsys.readouterr().out)["native_score"] == row["native_score"]


def test_the_comparison_is_bounded_before_any_work():
    from explainer.dialectcmp.limits import MAX_COMPARE_CHARS

    with pytest.raises(ValueError, match="the limit here is"):
        compare_chrf("a" * MAX_COMPARE_CHARS, ["b"])
