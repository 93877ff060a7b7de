"""Trace contents: spans, tokenizers, tables, W/S/SU details, call snippets, corpus plumbing."""
from __future__ import annotations

import json
import random

import pytest
from rouge_score import rouge_scorer
from rouge_score.rouge_scorer import _lcs_table

from explainer.rouge import explain_rouge, explain_rouge_corpus, score_rouge
from explainer.rouge import lcs as lcs_mod

ALL = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]


def test_trace_is_pure_json_for_every_type():
    tr = explain_rouge("The cat sat.\nThe dog ran!", ["the cat sat on the mat\nA dog ran", "cats sit"], types=ALL,
                       use_stemmer=True)
    s = json.dumps(tr.to_dict(), allow_nan=False)
    back = json.loads(s)
    assert back["types"] == ALL and set(back["scores"]) == set(ALL)
    assert back["per_reference"][0]["rougeSU4"]["detail"]["su_last_token_counted"] is False
    w = back["per_reference"][0]["rougeW-1.2"]["detail"]
    assert w["per_ref_sentence"][0]["lcs_per_cand_sentence"][0]["table"][0][0] == 0.0
    assert all(r == sorted(r) for r in [w["per_ref_sentence"][0]["marked"]])


def test_spans_point_into_the_original_text():
    text = "  Dr. Smith's U.S.-led plan, 3.30 p.m.\tTODAY İstanbul"
    tr = explain_rouge(text, ["dr smith"], use_stemmer=False)
    toks = tr.to_dict()["candidate"]["tokens"]
    assert [t["text"] for t in toks] == rouge_scorer.RougeScorer(["rouge1"])._tokenizer.tokenize(text)
    for t in toks:
        assert text[t["start"]:t["end"]].lower().replace("i̇", "i") == t["text"]


def test_stems_recorded():
    tr = explain_rouge("the children were running quickly", ["a child runs"], use_stemmer=True)
    toks = tr.to_dict()["candidate"]["tokens"]
    tok = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)._tokenizer
    assert [t["stem"] for t in toks] == tok.tokenize("the children were running quickly")
    assert any(t["stem"] != t["text"] for t in toks)
    assert "Porter" in tr.stemmer


def test_unicode_tokenizer():
    tr = explain_rouge("Привет, мир! 中文 Running", ["привет мир"], tokenizer="unicode", use_stemmer=True)
    c = tr.to_dict()["candidate"]
    assert [t["text"] for t in c["tokens"]] == ["привет", "мир", "中", "文", "running"]
    assert [t["stem"] for t in c["tokens"]][-1] == "run"
    assert tr.scores["rouge1"].recall == 1.0
    assert "not any library's default" in tr.tokenizer
    assert c["dropped"] == []


def test_textbook_tokens_keep_punctuation():
    tr = explain_rouge("The cat sat on the mat.", ["the mat"], dialect="textbook", types=["rouge1"])
    c = tr.to_dict()["candidate"]
    assert [t["text"] for t in c["tokens"]] == "The cat sat on the mat.".lower().split()
    assert c["tokens"][-1]["start"] == 19 and c["tokens"][-1]["end"] == 23


def test_sampled_table_values_are_exact():
    rng = random.Random(3)
    a = [rng.choice("abcdefgh") for _ in range(450)]
    b = [rng.choice("abcdefgh") for _ in range(430)]
    res = lcs_mod.lcs(a, b)
    tf = lcs_mod.table_form(res, len(a), len(b))
    assert tf["kind"] == "sampled" and tf["row_index"][0] == 0 and tf["row_index"][-1] == 450
    t = _lcs_table(a, b)
    for ri, row in zip(tf["row_index"], tf["values"]):
        assert row == [t[ri][c] for c in tf["col_index"]]


def test_alternative_flag_both_code_paths(monkeypatch):
    rng = random.Random(5)
    cases = [([rng.choice("abc") for _ in range(rng.randint(1, 40))], [rng.choice("abc") for _ in range(rng.randint(1, 40))])
             for _ in range(150)]
    want = [lcs_mod.alternative_exists(a, b, lcs_mod.lcs(a, b)) for a, b in cases]
    monkeypatch.setattr(lcs_mod, "SMALL_PAIR_CELLS", 0)
    got_np = [lcs_mod.alternative_exists(a, b, lcs_mod.lcs(a, b)) for a, b in cases]
    monkeypatch.setattr(lcs_mod, "CHOSEN_MATRIX_MAX_CELLS", 0)
    got = [lcs_mod.alternative_exists(a, b, lcs_mod.lcs(a, b)) for a, b in cases]
    assert got == got_np == want and any(want) and not all(want)


@pytest.mark.parametrize("refs", [["the cat sat on the mat"], ["the cat sat on the mat", "a cat was sitting\nhere"]])
@pytest.mark.parametrize("stem", [False, True])
def test_call_snippet_reproduces_the_numbers(refs, stem):
    cand = "the cats sat\non a mat"
    tr = explain_rouge(cand, refs, use_stemmer=stem)
    ns = {"candidate": cand, "reference": refs[0], "references": refs}
    exec(tr.call, ns)
    for t, s in ns["scores"].items():
        assert tuple(s) == pytest.approx(tuple(tr.scores[t]), abs=1e-12)
    assert explain_rouge(cand, refs, types=["rougeW-1.2"]).call is None


def test_corpus_progress_traces_and_mean():
    seen = []
    ct = explain_rouge_corpus(["a b", "c d e"], [["a b"], ["c e", "d e"]], types=["rouge1", "rougeL"], traces=True,
                              aggregate="mean", progress=lambda i, n: seen.append((i, n)))
    assert seen == [(1, 2), (2, 2)]
    assert len(ct.items) == 2 and ct.items[1].chosen_reference["rouge1"] in (0, 1)
    want = [score_rouge("a b", ["a b"], types=["rouge1"])["rouge1"],
            score_rouge("c d e", ["c e", "d e"], types=["rouge1"])["rouge1"]]
    assert ct.aggregate["rouge1"].fmeasure == pytest.approx((want[0].fmeasure + want[1].fmeasure) / 2)
    json.dumps(ct.to_dict(), allow_nan=False)


def test_split_summaries_without_punkt_is_a_clear_error():
    try:
        import nltk

        nltk.data.find("tokenizers/punkt_tab")
        pytest.skip("punkt_tab is installed here")
    except LookupError:
        pass
    with pytest.raises(ValueError, match="punkt_tab"):
        explain_rouge("a. b.", ["a. b."], types=["rougeLsum"], split_summaries=True)


def test_lsum_tie_rule_matters_on_golden_case():
    from tests.conftest import golden

    rec = next(r for r in golden("rouge/rouge_score.jsonl")
               if r["case_id"] == "lcs_tiebreak_union" and not r["options"]["use_stemmer"])
    tr = explain_rouge(rec["candidate"], rec["references"], types=["rougeLsum"])
    d = tr.per_reference[0]["rougeLsum"].detail
    assert d["hits"] / d["ref_tokens"] == pytest.approx(rec["result"]["scores"]["rougeLsum"]["recall"])
    assert d["tie_rule_changes_hits"] and d["hits_with_other_tie_rule"] < d["hits"]
    assert any(c["alternative_lcs_exists"] for c in d["per_ref_sentence"][0]["lcs_per_cand_sentence"])


def test_huge_w_and_s_star_are_refused_clearly():
    from explainer.errors import ExplainerInputError

    a = " ".join(f"w{i}" for i in range(7000))
    with pytest.raises(ExplainerInputError, match="rougeS4"):
        explain_rouge(a, [a], types=["rougeS*"])
    with pytest.raises(ExplainerInputError, match="weighted-LCS"):
        score_rouge(a, [a], types=["rougeW-1.2"])
    assert score_rouge(a, [a], types=["rougeS4", "rougeL"])["rougeS4"].fmeasure == 1.0


def test_checkpointed_rows_give_the_same_alignment(monkeypatch):
    rng = random.Random(8)
    cases = [([rng.choice("abcdef") for _ in range(rng.randint(0, 120))],
              [rng.choice("abcdef") for _ in range(rng.randint(0, 120))]) for _ in range(60)]

    def run():
        out = []
        for a, b in cases:
            r = lcs_mod.lcs(a, b)
            out.append((r.length, r.pairs, lcs_mod.table_form(r, len(a), len(b), max_cells=0, sample=17)["values"],
                        lcs_mod.alternative_exists(a, b, r) if r.length else None))
        return out

    want = run()
    monkeypatch.setattr(lcs_mod, "ROWS_KEEP_ALL_MAX_BYTES", 0)
    assert lcs_mod.BitRows(["a"] * 50, ["a"] * 50)._all is None
    assert run() == want


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_texts = st.text(alphabet=st.sampled_from(list("aZ9 .,-\n\tßİKéñ中文ीहि😀\u0301'")), max_size=40)


@settings(max_examples=200)
@given(_texts)
def test_spans_property_rouge_score(text):
    tr = explain_rouge(text, ["a"], types=["rouge1"])
    c = tr.to_dict()["candidate"]
    real = rouge_scorer.RougeScorer(["rouge1"])._tokenizer.tokenize(text)
    assert [t["text"] for t in c["tokens"]] == real
    last = 0
    for t in c["tokens"]:
        assert t["start"] is not None and last <= t["start"] < t["end"] <= len(text)
        assert t["text"] in text[t["start"]:t["end"]].lower()
        last = t["end"]
    json.dumps(tr.to_dict(), allow_nan=False)


@settings(max_examples=200)
@given(_texts)
def test_spans_property_unicode(text):
    tr = explain_rouge(text, ["a"], types=["rouge1"], tokenizer="unicode")
    for t in tr.to_dict()["candidate"]["tokens"]:
        assert text[t["start"]:t["end"]].lower() == t["text"]
