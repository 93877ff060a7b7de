"""The traps of issue 22, each named by explainer.traps before it bites, on the CLI's stderr too."""
from __future__ import annotations

import json
import logging

import pytest

import explainer.bleu as bleu
from explainer.bleu.traps import bleu_traps
from explainer.cli import main
from explainer.rouge import score_rouge
from explainer.rouge.engine import bind_dialect
from explainer.rouge.traps import rouge_traps
from explainer.trapchecks import (
    SACREBLEU_DETOK_LINES,
    cjk_unsplit,
    dropped_words,
    lsum_without_newlines,
    pretokenized,
    reference_layout,
    swapped_files,
)
from tests.dialects_samples import EN_SUMMARIES, JA_NEWS, ZH_NEWS


def _codes(traps):
    return [t.code for t in traps]


# ------------------------------------------------------------------------------ words the tokenizer drops
def test_rouge_score_drops_chinese_and_says_what_keeps_it():
    c, r = ZH_NEWS[1]
    d = bind_dialect("rouge-score", ["rouge1"])
    [t] = dropped_words([c], [[r]], d)
    assert t.code == "dropped-words" and t.detail["script"] == "Chinese"
    assert "rouge-chinese" in t.message and "segment 1 lost every word" in t.message
    assert score_rouge(c, [r], dialect="rouge-score", types="rouge1")["rouge1"].fmeasure == 0.0
    assert score_rouge(c, [r], dialect="rouge-chinese", types="rouge1")["rouge1"].fmeasure > 0.0
    assert dropped_words([c], [[r]], bind_dialect("rouge-chinese", ["rouge1"])) == []


def test_rouge_score_drops_cyrillic_words_in_mixed_text():
    c, r = "Президент Putin said the talks went well", "Putin said talks went well, Президент added"
    [t] = dropped_words([c], [[r]], bind_dialect("rouge-score", ["rouge1"]))
    assert t.detail["script"] == "Cyrillic" and "Президент" in t.message and "unicode" in t.message
    assert dropped_words([c], [[r]], bind_dialect("rouge-score", ["rouge1"], tokenizer="unicode")) == []


# ------------------------------------------------------------------------------ ROUGE-Lsum without newlines
def test_lsum_without_newlines_is_rouge_l_and_is_named():
    c, refs = EN_SUMMARIES[1]
    assert "\n" not in c + "".join(refs)
    s = score_rouge(c, refs, types="rougeL,rougeLsum")
    assert s["rougeL"] == s["rougeLsum"]               # the claim, computed
    [t] = lsum_without_newlines([c], [refs], ["rougeLsum"])
    assert t.code == "lsum-no-newlines" and t.detail["example_split"].count("\n") >= 1
    # with the sentences on lines the two differ and nothing is said
    split = t.detail["example_split"]
    assert lsum_without_newlines([split], [refs], ["rougeLsum"]) == []
    assert lsum_without_newlines([c], [refs], ["rougeL"]) == []                 # no Lsum asked
    assert lsum_without_newlines(["one sentence"], [["one more"]], ["rougeLsum"]) == []
    d = bind_dialect("pltrdy")                                                  # splits at '.' itself
    assert "lsum-no-newlines" not in _codes(rouge_traps([c], [refs], d))
    d = bind_dialect("rouge-score", ["rougeLsum"], split_summaries=True)
    assert "lsum-no-newlines" not in _codes(rouge_traps([c], [refs], d))


# ------------------------------------------------------------------------------ CJK left unsplit
def test_cjk_under_13a_is_named_and_not_under_ja_mecab_or_zh():
    c, r = JA_NEWS[0]
    [t] = cjk_unsplit([c], [[r]], bleu.get_dialect("sacrebleu").tokenize)
    assert t.detail["script"] == "Japanese" and "ja-mecab" in t.message
    assert cjk_unsplit([c], [[r]], bleu.get_dialect("sacrebleu", tokenize="ja-mecab").tokenize) == []
    zc, zr = ZH_NEWS[0]
    assert _codes(cjk_unsplit([zc], [[zr]], bleu.get_dialect("sacrebleu").tokenize)) == ["cjk-unsplit"]
    assert cjk_unsplit([zc], [[zr]], bleu.get_dialect("sacrebleu", tokenize="zh").tokenize) == []
    # the cost is real: 13a scores far lower than ja-mecab on the same pair
    assert (bleu.score_bleu(c, [r], tokenize="13a").score
            < bleu.score_bleu(c, [r], tokenize="ja-mecab").score)


# ------------------------------------------------------------------------------ references' layout
def test_reference_streams_given_as_per_segment_lists():
    hyps = ["the cat sat", "a dog ran", "birds fly"]
    streams = [["the cat sat down", "a dog was running", "birds can fly"],
               ["a cat was sitting", "the dog ran off", "the birds flew"]]
    [t] = reference_layout(hyps, streams)
    assert t.code == "references-transposed" and "zip" in t.message
    assert reference_layout(hyps, [list(x) for x in zip(*streams)]) == []


def test_square_transposition_is_found_by_overlap():
    hyps = ["the cat sat on the mat", "a dog ran in the park", "birds fly over the sea"]
    per_seg = [["the cat sat on a mat", "a cat sat on the mat", "the cat was on the mat"],
               ["a dog ran through the park", "the dog ran in a park", "a dog was running in the park"],
               ["birds fly over the ocean", "the birds fly above the sea", "birds flew over the sea"]]
    transposed = [list(x) for x in zip(*per_seg)]
    assert reference_layout(hyps, per_seg) == []
    assert _codes(reference_layout(hyps, transposed)) == ["references-transposed"]


def test_varying_number_of_references():
    [t] = reference_layout(["a", "b", "c"], [["a"], ["b", "bb"], ["c"]])
    assert t.code == "references-varying" and t.detail["distinct"] == [1, 2]
    assert reference_layout(["a", "b", "c"], [["a"], ["b", "bb"], ["c"]], corpus=False) == []   # one by one


def test_cli_names_varying_references_for_a_corpus_only(capsys, monkeypatch):
    lines = "".join(json.dumps({"candidate": f"the cat sat {i}", "references": [f"the cat sat {i}"] * (1 + i % 2)})
                    + "\n" for i in range(4))
    rc, out, err = _run(["bleu", "--jsonl", "-", "--corpus"], lines, capsys, monkeypatch)
    assert rc == 0 and "1 to 2 references" in err
    rc, out, err = _run(["bleu", "--jsonl", "-"], lines, capsys, monkeypatch)
    assert rc == 0 and "references" not in err


# ------------------------------------------------------------------------------ swapped files
def test_candidate_file_that_is_the_reference():
    lines = [c for c, _ in EN_SUMMARIES] * 2
    [t] = swapped_files(lines, [[x] for x in lines])
    assert t.code == "candidate-is-reference"
    assert swapped_files(lines[:1], [[lines[0]]]) == []          # one example equal to its reference is fine


def test_references_that_look_like_system_output():
    human = ["The cat sat on the mat.", "Stocks rose on Monday.", "It rained all day in Paris.",
             "The team won the final.", "Prices fell again in May.", "She said she would come back."]
    system = ["the cat sat on the the the mat .", "stocks rose <unk> monday .", "it rained all day in paris .",
              "the team won the final .", "prices fell again in may .", "she said she would come back ."]
    [t] = swapped_files(human, [[s] for s in system])
    assert t.code == "references-swapped" and "precision and recall" in t.message
    assert swapped_files(system, [[h] for h in human]) == []


# ------------------------------------------------------------------------------ pre-tokenised input
def test_pretokenized_matches_sacrebleus_own_heuristic(caplog):
    import sacrebleu

    hyps = [f"the result number {i} is ready ." for i in range(SACREBLEU_DETOK_LINES)]
    refs = [f"The result number {i} is ready." for i in range(SACREBLEU_DETOK_LINES)]
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        sacrebleu.corpus_bleu(hyps, [refs])
    assert any("forgot to detokenize" in r.getMessage() for r in caplog.records)
    [t] = pretokenized(hyps)
    assert t.detail["sacrebleu_warns"] and t.detail["count"] == SACREBLEU_DETOK_LINES and "line 1:" in t.message
    caplog.clear()
    fewer = hyps[:40] + refs[40:]
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        sacrebleu.corpus_bleu(fewer, [refs])
    assert not any("detokenize" in r.getMessage() for r in caplog.records)   # sacreBLEU is silent below 100 …
    [t] = pretokenized(fewer)
    assert not t.detail["sacrebleu_warns"] and "below sacreBLEU's 100-line threshold" in t.message   # … we are not
    assert pretokenized(refs) == []


def test_bleu_traps_together():
    c, r = JA_NEWS[1]
    assert _codes(bleu_traps([c], [[r]], bleu.get_dialect("sacrebleu"))) == ["cjk-unsplit"]
    assert bleu_traps([c], [[r]], bleu.get_dialect("sacrebleu", tokenize="ja-mecab")) == []
    json.dumps([t.to_dict() for t in bleu_traps([c], [[r]], bleu.get_dialect("sacrebleu"))])


# ------------------------------------------------------------------------------ on the command line
def _run(argv, stdin: str, capsys, monkeypatch):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_rouge_names_dropped_chinese_on_stderr(capsys, monkeypatch):
    c, r = ZH_NEWS[1]
    line = json.dumps({"candidate": c, "references": [r]}, ensure_ascii=False) + "\n"
    rc, out, err = _run(["rouge", "--jsonl", "-"], line, capsys, monkeypatch)
    assert rc == 0 and json.loads(out)["rouge1"]["fmeasure"] == 0.0
    assert err.startswith("explainer rouge: warning: ") and "rouge-chinese" in err
    rc, out, err = _run(["rouge", "--jsonl", "-", "--dialect", "rouge-chinese"], line, capsys, monkeypatch)
    assert rc == 0 and err == "" and json.loads(out)["rouge1"]["fmeasure"] > 0


def test_cli_bleu_names_pretokenized_and_cjk_on_stderr(tmp_path, capsys, monkeypatch):
    h, r = tmp_path / "h.txt", tmp_path / "r.txt"
    h.write_text("".join(f"the value {i} rose .\n" for i in range(120)), encoding="utf-8")
    r.write_text("".join(f"The value {i} rose.\n" for i in range(120)), encoding="utf-8")
    rc, out, err = _run(["bleu", "--hyp", str(h), "--ref", str(r)], "", capsys, monkeypatch)
    assert rc == 0 and "score" in json.loads(out)
    assert "forgot to detokenize" in err and err.count("\n") == 1
    c, ref = JA_NEWS[0]
    line = json.dumps({"candidate": c, "references": [ref]}, ensure_ascii=False) + "\n"
    rc, out, err = _run(["bleu", "--jsonl", "-"], line, capsys, monkeypatch)
    assert rc == 0 and "ja-mecab" in err
    rc, out, err = _run(["bleu", "--jsonl", "-", "--tokenize", "ja-mecab"], line, capsys, monkeypatch)
    assert rc == 0 and err == ""


@pytest.mark.parametrize("tok", ["flores101", "flores200"])
def test_cli_refuses_flores_in_one_line(tok, capsys, monkeypatch):
    rc, out, err = _run(["bleu", "--jsonl", "-", "--tokenize", tok], '{"candidate": "a", "references": ["a"]}\n',
                        capsys, monkeypatch)
    assert rc == 2 and out == "" and "downloads" in err and err.count("\n") == 1


def test_page_traps_are_data_for_the_pages():
    from explainer.traps import page_traps

    c, r = ZH_NEWS[1]
    [t] = page_traps("rouge", [c], [[r]], "rouge-score", types=["rouge1"])
    assert t["code"] == "dropped-words" and "rouge-chinese" in t["message"] and t["detail"]["script"] == "Chinese"
    assert page_traps("rouge", [c], [[r]], "rouge-chinese") == []
    jc, jr = JA_NEWS[0]
    assert [x["code"] for x in page_traps("bleu", [jc], [[jr]], "sacrebleu")] == ["cjk-unsplit"]
    assert page_traps("bleu", [jc], [[jr]], "sacrebleu", tokenize="ja-mecab") == []
    assert page_traps("bleu", [jc], [[jr]], "sacrebleu", tokenize="flores200") == []     # the page says why
    json.dumps(page_traps("rouge", [c], [[r]], "rouge-score"))
