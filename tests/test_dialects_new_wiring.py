"""The dialects of issue 22 on the Dialects page (rows, first diverging step) and in reproduce, and their CLI
contract: ``python -m explainer bleu --tokenize ja-mecab|ko-mecab`` and ``python -m explainer rouge --dialect
rouge-chinese|pltrdy|rouge-metric`` print the same fields as the other dialects."""
from __future__ import annotations

import io
import json
import sys

import pytest

import explainer.bleu as bleu
from explainer.cli import main
from explainer.dialectcmp.configs import stdin_line
from explainer.dialectcmp.reproduction import reproduce
from explainer.dialectcmp.rows import bleu_row_configs, relevant_tokenizers, rouge_row_configs
from explainer.rouge import score_rouge
from tests.dialects_samples import EN_SUMMARIES, JA_NEWS, KO_NEWS, ZH_NEWS


def _cli(argv, stdin: str, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    rc = main(argv)
    out = capsys.readouterr()
    assert rc == 0, out.err
    return [json.loads(x) for x in out.out.splitlines()]


@pytest.mark.parametrize("dialect", ["rouge-chinese", "pltrdy", "rouge-metric"])
def test_rouge_cli_prints_the_usual_fields(dialect, capsys, monkeypatch):
    c, r = ZH_NEWS[2] if dialect == "rouge-chinese" else (EN_SUMMARIES[0][0], EN_SUMMARIES[0][1][0])
    [got] = _cli(["rouge", "--jsonl", "-", "--dialect", dialect], stdin_line(c, [r]) + "\n", capsys, monkeypatch)
    for t in ("rouge1", "rouge2", "rougeL"):
        assert set(got[t]) == {"precision", "recall", "fmeasure"}
    want = score_rouge(c, [r], dialect=dialect)
    assert {t: s.to_dict() for t, s in want.items()} == got


@pytest.mark.parametrize("tok,pairs", [("ja-mecab", JA_NEWS), ("ko-mecab", KO_NEWS)])
def test_bleu_cli_with_mecab_prints_the_usual_fields(tok, pairs, capsys, monkeypatch):
    import sacrebleu

    c, r = pairs[0]
    [got] = _cli(["bleu", "--jsonl", "-", "--tokenize", tok], stdin_line(c, [r]) + "\n", capsys, monkeypatch)
    ref = sacrebleu.corpus_bleu([c], [[r]], tokenize=tok)
    assert abs(got["score"] - ref.score) <= 1e-9 and got["counts"] == list(ref.counts)
    assert {"score", "bleu", "counts", "totals", "precisions", "bp", "sys_len", "ref_len", "signature"} <= set(got)


def test_dialects_page_has_mecab_rows_for_japanese_and_korean_only():
    assert "ja-mecab" in relevant_tokenizers(list(JA_NEWS[0]))
    assert "ko-mecab" in relevant_tokenizers(list(KO_NEWS[0]))
    en = [EN_SUMMARIES[0][0], *EN_SUMMARIES[0][1]]
    assert not {"ja-mecab", "ko-mecab"} & set(relevant_tokenizers(en))
    ids = [c.id for c in bleu_row_configs(list(JA_NEWS[0]))]
    assert "sacrebleu:ja-mecab" in ids


def test_dialects_page_rows_and_their_first_diverging_step(capsys, monkeypatch):
    ids = [c.id for c in rouge_row_configs()]
    assert {"pltrdy", "rouge-chinese", "rouge-metric"} <= set(ids)
    c, r = ZH_NEWS[1]
    rc = main(["dialects", "--metric", "rouge", "--candidate", c, "--ref", r, "--pair", "rouge-score:rouge-chinese",
               "--pair", "pltrdy:rouge-chinese"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0
    rows = {row["id"]: row for row in d["rows"]}
    assert rows["rouge-score"]["score"] == 0.0 and rows["rouge-chinese"]["score"] > 0.3
    # each row is what the CLI prints with its argv
    for rid in ("pltrdy", "rouge-chinese", "rouge-metric"):
        [got] = _cli(rows[rid]["argv"], stdin_line(c, [r]) + "\n", capsys, monkeypatch)
        assert got == rows[rid]["scores"]
    pairs = {(p["a"], p["b"]): p for p in d["pairs"]}
    assert pairs[("rouge-score", "rouge-chinese")]["first_step"] == "tokens"
    assert pairs[("pltrdy", "rouge-chinese")]["first_step"] == "tokens"


def test_f_rule_difference_is_named_when_tokens_agree(capsys):
    """On text the two read alike, pltrdy's 1e-8 in F is the first difference from rouge-score's F1."""
    c, r = "the cat sat on a mat", "a cat sat on the mat"      # no word twice: sets and lists agree
    rc = main(["dialects", "--metric", "rouge", "--types", "rougeL", "--candidate", c, "--ref", r,
               "--pair", "textbook:pltrdy"])
    d = json.loads(capsys.readouterr().out)
    [p] = d["pairs"]
    assert rc == 0 and p["first_step"] == "f_measure" and "1e-8" in p["why"], p


def test_reproduce_finds_the_new_dialects():
    c, r = ZH_NEWS[0]
    f = score_rouge(c, [r], dialect="rouge-chinese", types="rouge1")["rouge1"].fmeasure
    res = reproduce(c, [r], f"ROUGE-1 F {f:.4f}", max_matches=None)
    assert any(m.config.dialect == "rouge-chinese" for m in res.matches)
    c, refs = EN_SUMMARIES[1]
    f = score_rouge(c, refs[:1], dialect="pltrdy", types="rougeL")["rougeL"].fmeasure
    res = reproduce(c, refs[:1], f"ROUGE-L {f:.5f}", max_matches=None)
    assert any(m.config.dialect == "pltrdy" for m in res.matches)
    jc, jr = JA_NEWS[2]
    b = bleu.score_bleu(jc, [jr], tokenize="ja-mecab").score
    res = reproduce(jc, [jr], f"BLEU = {b:.2f}", max_matches=None)
    assert any(m.config.dialect == "sacrebleu" and m.config.opts.get("tokenize") == "ja-mecab" for m in res.matches)


def test_torchmetrics_rows_and_reproduce(capsys, monkeypatch):
    c, refs = EN_SUMMARIES[4]
    assert {"torchmetrics", "torchmetrics-sacrebleu"} <= {x.id for x in bleu_row_configs([c, *refs])}
    assert "torchmetrics" in {x.id for x in rouge_row_configs()}
    b = bleu.score_bleu(c, list(refs), dialect="torchmetrics", smooth=True).score
    res = reproduce(c, list(refs), f"BLEU {b:.6f}", max_matches=None)
    hits = [m for m in res.matches if m.config.dialect == "torchmetrics"]
    assert hits and hits[0].config.opts == {"smooth": True}
    [got] = _cli(hits[0].argv, hits[0].stdin + "\n", capsys, monkeypatch)
    assert got["score"] == b
    # ROUGE accumulate='avg' through the command line
    [avg] = _cli(["rouge", "--jsonl", "-", "--dialect", "torchmetrics", "--multi-ref", "avg"],
                 stdin_line(c, list(refs)) + "\n", capsys, monkeypatch)
    want = score_rouge(c, list(refs), dialect="torchmetrics", multi_ref="avg")
    assert avg == {t: s.to_dict() for t, s in want.items()}
