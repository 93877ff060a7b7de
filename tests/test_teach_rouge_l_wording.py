"""The Teach page's ROUGE-L step says what each implementation's ROUGE-L counts (issue 22): the rouge package
(pltrdy) counts the distinct words of the union of sentence-pair LCSs, not one LCS over tokens; rouge-chinese one LCS
over words; rouge-metric's rougeL is one LCS, its own "rouge-l" is summary level (ROUGE-Lsum here). The numbers in
the formula are the real packages'."""
from __future__ import annotations

from explainer.rouge import explain_rouge
from explainer.teach import build_lesson
from explainer.teach.model import Formula, Para, Result
from tests.dialects_samples import EN_SUMMARIES, ZH_NEWS


def _step(lesson, sid):
    return next(s for s in lesson.steps if s.id == sid)


def _texts(step) -> list[str]:
    return [b.text for b in step.blocks if isinstance(b, Para)]


def _formula(step) -> tuple:
    return next(b.lines for b in step.blocks if isinstance(b, Formula))


def test_pltrdy_rouge_l_is_the_union_of_distinct_lcs_words():
    from rouge import Rouge

    c, refs = EN_SUMMARIES[0]
    L = build_lesson(c, [refs[0]], rouge_dialect="pltrdy")
    st = _step(L, "rouge-l")
    key = _texts(st)[0]
    assert "summary level" in key and "distinct words" in key and "not the length of one LCS" in key
    tr = explain_rouge(c, [refs[0]], dialect="pltrdy", types=["rougeL"])
    res = tr.per_reference[0]["rougeL"]
    toks = tr.candidate.tokenized.tokens
    assert res.cand_total == len(set(toks)) < len(toks)     # P divides by distinct words, as the formula now says
    p_line = _formula(st)[0]
    assert p_line.startswith("P = union of LCS words / candidate distinct words = ")
    assert f"{res.hits}/{res.cand_total}" in p_line
    one = res.detail["lcs_length"]
    assert one != res.hits      # this text shows the difference: one LCS vs the union
    assert any(f"has {one} tokens" in t and f"counts {res.hits}" in t for t in _texts(st))
    real = Rouge().get_scores(c, refs[0])[0]["rouge-l"]
    assert (res.score.precision, res.score.recall) == (real["p"], real["r"])
    res_block = next(b for b in st.blocks if isinstance(b, Result))
    assert res_block.value == real["f"]
    assert st.question.given[0].text.startswith(f"Union of LCS words = {res.hits}; candidate distinct words: ")


def test_pltrdy_without_exclusive_counts_words():
    c, refs = EN_SUMMARIES[0]
    st = _step(build_lesson(c, [refs[0]], rouge_dialect="pltrdy", rouge_options={"exclusive": False}), "rouge-l")
    assert "as a list" in _texts(st)[0] and "candidate words" in _formula(st)[0]


def test_rouge_metric_says_its_own_rouge_l_is_lsum():
    c, refs = EN_SUMMARIES[0]
    st = _step(build_lesson(c, [refs[0]], rouge_dialect="rouge-metric"), "rouge-l")
    assert any("rouge-metric's own ROUGE-L" in t and "ROUGE-Lsum here" in t for t in _texts(st))
    assert _formula(st)[0].startswith("P = LCS / candidate tokens = ")


def test_rouge_chinese_is_one_lcs_over_words():
    c, r = ZH_NEWS[0]
    st = _step(build_lesson(c, [r], rouge_dialect="rouge-chinese"), "rouge-l")
    assert "ONE LCS" in _texts(st)[0] and "candidate words" in _formula(st)[0]


def test_rouge_score_wording_unchanged():
    c, refs = EN_SUMMARIES[0]
    st = _step(build_lesson(c, [refs[0]]), "rouge-l")
    assert _texts(st)[0] == "ROUGE-L replaces the n-gram hits by the length of the longest common subsequence."
    assert not [t for t in _texts(st) if "own ROUGE-L" in t or "One LCS of the whole texts" in t]
