"""Teach core: the step sequence of every worked example, every question's answer against the trace and the
real libraries, the LCS grid and its cell rule, answer checking with its tolerance, and the limits."""
from __future__ import annotations

import pytest

from explainer.bleu import explain_bleu
from explainer.examples import EXAMPLES, get_example
from explainer.rouge import explain_rouge
from explainer.teach import LESSON_TYPES, MAX_LESSON_CHARS, build_lesson, check_answer, lesson_from_traces, parse_number
from explainer.teach.answers import question
from explainer.teach.model import Chip, LcsGrid, Result, Table, TokenRow
from explainer.teach.paging import part_of
from explainer.ui.teach.teach_html import cell_rule, grid_cells

BLEU_ALWAYS = ["bleu-texts", "bleu-ngrams", "bleu-counting", "bleu-clipping", "bleu-precision"]
ROUGE_ALWAYS = ["rouge-1", "rouge-2", "rouge-prf", "rouge-lcs-table", "rouge-alignment", "rouge-l", "rouge-lsum"]


def real_bleu(cand: str, refs: list[str], **kw) -> float:
    from sacrebleu.metrics import BLEU

    return BLEU(**kw).corpus_score([cand], [[r] for r in refs]).score


def real_rouge(cand: str, refs: list[str]) -> dict:
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(list(LESSON_TYPES)).score_multi(refs, cand)


def step(lesson, sid):
    return next(s for s in lesson.steps if s.id == sid)


def results(lesson) -> dict[str, Result]:
    return {b.metric: b for s in lesson.steps for b in s.blocks if isinstance(b, Result)}


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.id)
def test_step_sequence_of_every_example(ex):
    refs = list(ex.references)
    lesson = build_lesson(ex.candidate, refs)
    bt = explain_bleu(ex.candidate, refs)
    zero = any(o.matches == 0 for o in bt.combination.orders)
    want = BLEU_ALWAYS + (["bleu-smoothing"] if zero else []) + ["bleu-bp", "bleu-score"] + ROUGE_ALWAYS + (
        ["rouge-refs"] if len(refs) > 1 else []) + ["bleu-vs-rouge"]
    # a step too long for a screen comes as consecutive parts (explainer.teach.paging): the sequence of steps is
    # that of the first parts, and every other part follows its first
    ids = lesson.step_ids()
    assert [i for i in ids if part_of(i)[1] == 1] == want
    assert all(part_of(b)[0] == part_of(a)[0] and part_of(b)[1] == part_of(a)[1] + 1
               for a, b in zip(ids, ids[1:]) if part_of(b)[1] > 1)
    assert lesson.notes == []
    # every step has speaker notes and a misconception, every step but the multi-reference table a question
    for s in lesson.steps:
        assert s.say and s.misconception and s.title
    assert all(s.question is not None for s in lesson.steps
               if s.id not in ("rouge-refs", "bleu-vs-rouge") and part_of(s.id)[1] == 1)
    # the final numbers are the real libraries' (sacreBLEU corpus_score, rouge-score score_multi)
    res = results(lesson)
    assert res["bleu"].value == pytest.approx(real_bleu(ex.candidate, refs), abs=1e-9)
    assert res["bleu"].value == bt.score
    real = real_rouge(ex.candidate, refs)
    for t in LESSON_TYPES:
        assert res[f"{t}_f"].value == pytest.approx(real[t].fmeasure, abs=1e-9)


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.id)
def test_question_answers_are_trace_values(ex):
    refs = list(ex.references)
    lesson = build_lesson(ex.candidate, refs)
    b = explain_bleu(ex.candidate, refs).to_dict()
    r = explain_rouge(ex.candidate, refs, types=LESSON_TYPES).to_dict()
    comb = b["combination"]
    n = int(step(lesson, "bleu-ngrams").question.id.rsplit("-", 1)[1])
    order = b["ngrams"][n - 1]
    q = {s.id: s.question for s in lesson.steps}
    assert q["bleu-texts"].answer == len(b["candidate"]["tokens"])
    assert q["bleu-ngrams"].answer == order["candidate_ngrams"] == max(0, len(b["candidate"]["tokens"]) - n + 1)
    assert q["bleu-clipping"].answer in {e["clipped"] for e in order["entries"]} | {order["matches"]}
    if comb["orders"][n - 1]["precision_raw"] is not None:
        assert q["bleu-precision"].answer == comb["orders"][n - 1]["precision_raw"]
    assert q["bleu-bp"].answer == comb["bp"]
    assert q["bleu-score"].answer == b["score"]
    assert q["bleu-score"].tolerance == 0.5 and q["bleu-texts"].tolerance == 0
    k1 = r["chosen_reference"]["rouge1"]
    assert q["rouge-1"].answer == r["per_reference"][k1]["rouge1"]["hits"]
    assert q["rouge-prf"].answer == r["per_reference"][k1]["rouge1"]["fmeasure"]
    kl = r["chosen_reference"]["rougeL"]
    lcs = r["per_reference"][kl]["rougeL"]["detail"]["lcs_length"]
    assert q["rouge-lcs-table"].answer == lcs
    assert q["rouge-alignment"].answer == len(r["candidate"]["tokens"]) - lcs
    assert q["rouge-l"].answer == r["per_reference"][kl]["rougeL"]["fmeasure"]
    assert q["rouge-lsum"].answer == r["per_reference"][r["chosen_reference"]["rougeLsum"]]["rougeLsum"]["hits"]
    # the right answer is accepted, an answer off by more than the tolerance is not
    for s in lesson.steps:
        if s.question is None:
            continue
        assert check_answer(s.question, repr(s.question.answer)).right, s.id
        off = s.question.answer + max(1.0, s.question.tolerance * 3)
        assert check_answer(s.question, repr(off)).status == "wrong", s.id


def test_papineni_clipping_points_at_the_repeated_word():
    ex = get_example("papineni_the")
    lesson = build_lesson(ex.candidate, list(ex.references))
    s = step(lesson, "bleu-clipping")
    assert "‘the’" in s.question.prompt and s.question.answer == 1  # case-sensitive: both references start "The"
    assert "min(7, 1) = 1" in s.question.explanation
    row = next(b for b in s.blocks if isinstance(b, TokenRow))
    assert [c.kind for c in row.chips] == ["match"] + ["clip"] * 6
    table = next(b for b in s.blocks if isinstance(b, Table))
    assert table.rows == (("the", 7, 1, "refs 1, 2", 1),) and table.total[-1] == 1
    # with lowercasing the paper's 2/7
    low = build_lesson(ex.candidate, list(ex.references), bleu_options={"lowercase": True})
    assert step(low, "bleu-clipping").question.answer == 2
    assert step(low, "bleu-precision").question.shown == "2/7 = 0.2857"


def test_smoothing_step_only_when_an_order_has_no_match():
    full = build_lesson(*_ex("military_c1"))
    assert "bleu-smoothing" not in full.step_ids()
    cat = build_lesson(*_ex("cat_sat"))
    s = step(cat, "bleu-smoothing")
    b = explain_bleu(*_ex("cat_sat")).to_dict()
    zero = next(o for o in b["combination"]["orders"] if o["matches"] == 0)
    assert s.question.answer == zero["precision"] and zero["formula"] in s.question.explanation


def test_focus_order_follows_the_url_parameter_and_falls_back():
    cand, refs = _ex("military_c1")
    for n in (1, 2, 3, 4):
        L = build_lesson(cand, refs, focus_order=n)
        assert step(L, "bleu-ngrams").title.endswith(("unigrams (1-grams)", "bigrams (2-grams)", "trigrams (3-grams)",
                                                      "4-grams"))
        assert step(L, "bleu-ngrams").question.id == f"bleu-ngrams-{n}"
    assert step(build_lesson(cand, refs, focus_order=9), "bleu-ngrams").question.id == "bleu-ngrams-1"


def test_bp_step_for_a_short_candidate_against_sacrebleu():
    from sacrebleu.metrics import BLEU

    cand, refs = _ex("military_party")
    L = build_lesson(cand, refs)
    real = BLEU().corpus_score([cand], [[r] for r in refs])
    assert step(L, "bleu-bp").question.answer == pytest.approx(real.bp, abs=1e-12)
    assert "exp(1 − 17/3)" in step(L, "bleu-bp").question.explanation


def test_lcs_grid_is_the_traces_table_and_the_cell_rule_reads_it():
    cand, refs = _ex("cat_mat")
    L = build_lesson(cand, refs)
    grid = next(b for b in step(L, "rouge-lcs-table").blocks if isinstance(b, LcsGrid))
    r = explain_rouge(cand, refs, types=LESSON_TYPES).to_dict()
    d = r["per_reference"][0]["rougeL"]["detail"]
    assert [list(v) for v in grid.values] == d["table"]["values"] and grid.full
    assert grid.path == {(ri + 1, ci + 1) for ri, ci in d["pairs"]}
    assert grid_cells(grid) == 7 * 6
    # row 2 = reference "is", column 3 = candidate "is": equal tokens, diagonal + 1
    k = (2 - 1) * 6 + 3
    assert cell_rule(grid, k) == "Row 2 (reference ‘is’), column 3 (candidate ‘is’): the tokens are equal, so " \
                                 "diagonal 0 + 1 = 1."
    assert "the tokens differ" in cell_rule(grid, 1)


def test_lsum_union_and_several_references():
    cand, refs = _ex("union_lcs")
    L = build_lesson(cand, refs)
    s = step(L, "rouge-lsum")
    assert s.question.answer == 4
    rows = [b for b in s.blocks if isinstance(b, TokenRow)]
    assert [r.label for r in rows] == ["Candidate sentence 1", "Candidate sentence 2", "Reference 1 sentence 1"]
    assert [c.text for c in rows[2].chips if c.kind == "match"] == ["w1", "w2", "w3", "w5"]
    cand, refs = _ex("abandon_hope")
    L = build_lesson(cand, refs)
    s = step(L, "rouge-refs")
    r = explain_rouge(cand, refs, types=LESSON_TYPES)
    assert s.question.answer == r.chosen_reference["rougeL"] + 1


def test_stemming_shows_the_compared_form():
    cand, refs = _ex("stem_took")
    L = build_lesson(cand, refs, rouge_options={"use_stemmer": True})
    row = next(b for b in step(L, "rouge-1").blocks if isinstance(b, TokenRow))
    assert row.chips[0] == Chip("cats", "match", "cat", "‘cat’: overlaps (compared as ‘cat’)")


def test_rouge1_step_says_once_which_text_each_tokenizer_message_is_about():
    """The trace's notes already carry every text's tokenizer message; the step used to add the candidate's and
    the kept reference's again, and no note said which text had lost characters."""
    from explainer.teach.model import Para

    cand, refs = "the café is open", ["the cafe is open", "a naïve café"]
    rouge_trace = explain_rouge(cand, refs, types=LESSON_TYPES)
    c_msg, r2_msg = rouge_trace.candidate.tokenized.message, rouge_trace.references[1].tokenized.message
    assert c_msg and r2_msg and rouge_trace.references[0].tokenized.message is None
    assert c_msg in rouge_trace.notes and r2_msg in rouge_trace.notes
    notes = [b.text for b in step(build_lesson(cand, refs), "rouge-1").blocks if isinstance(b, Para)
             and b.kind == "note"]
    assert notes == [f"Candidate: {c_msg}", f"Reference 2: {r2_msg}"]
    # a message that names its text already is not labelled twice
    rouge_trace = explain_rouge("the cat", ["日本語", "the"], types=LESSON_TYPES)
    notes = [b.text for b in step(build_lesson("the cat", ["日本語", "the"]), "rouge-1").blocks
             if isinstance(b, Para) and b.kind == "note"]
    assert notes == [rouge_trace.references[0].tokenized.message] and "this reference 1 " in notes[0]


def test_pooled_rouge155_reports_the_pooled_score():
    L = build_lesson("a b c", ["a b", "c d"], rouge_dialect="rouge155", rouge_options={"multi_ref": "pool"})
    r = explain_rouge("a b c", ["a b", "c d"], dialect="rouge155", types=LESSON_TYPES, multi_ref="pool")
    assert results(L)["rougeL_f"].value == r.scores["rougeL"].fmeasure
    assert any("pooled" in b.text for b in step(L, "rouge-prf").blocks if hasattr(b, "text") and
               isinstance(b.text, str))


def test_textbook_rouge_has_no_lsum_and_bad_options_become_notes():
    L = build_lesson("the cat", ["the cat sat"], rouge_dialect="textbook")
    assert "rouge-lsum" not in L.step_ids() and "rouge-l" in L.step_ids()
    bad = build_lesson("the cat", ["the cat sat"], bleu_options={"tokenize": "nope"})
    assert bad.notes and bad.notes[0].startswith("BLEU:") and bad.step_ids()[0] == "rouge-1"
    # no reference: ROUGE refuses (a note), sacreBLEU's failure is recorded in the trace and shown
    nothing = build_lesson("the cat", [])
    assert len(nothing.notes) == 1 and nothing.notes[0].startswith("ROUGE:")
    bt = explain_bleu("the cat", [])
    assert bt.library_error is not None
    assert any(getattr(b, "text", None) == bt.library_error.explanation for b in step(nothing, "bleu-score").blocks)


def test_lesson_size_limit_is_checked_first():
    with pytest.raises(ValueError, match="at most 10,000"):
        build_lesson("a " * (MAX_LESSON_CHARS // 2 + 1), ["a"])


def test_nltk_zero_order_and_tiny_scores():
    L = build_lesson("party", ["The military follows party commands"], bleu_dialect="nltk")
    s = step(L, "bleu-score")
    res = next(b for b in s.blocks if isinstance(b, Result))
    assert res.shown == f"{res.value:.4g}" and res.value < 1e-100    # not shown as 0
    assert "bleu-smoothing" in L.step_ids()


def test_lesson_from_traces_accepts_objects_and_dicts():
    cand, refs = _ex("cat_mat")
    bt, rouge_trace = explain_bleu(cand, refs), explain_rouge(cand, refs, types=LESSON_TYPES)
    a = lesson_from_traces(bt, rouge_trace)
    b = lesson_from_traces(bt.to_dict(), rouge_trace.to_dict())
    assert a.step_ids() == b.step_ids() and a.candidate == cand and a.references == refs
    assert [s.question for s in a.steps] == [s.question for s in b.steps]


@pytest.mark.parametrize("raw,value", [("0.25", .25), ("0,25", .25), (".25", .25), ("1/4", .25), ("25%", .25),
                                       ("25 %", .25), ("2.5e-1", .25), ("−0.5", -.5), (" 3 ", 3.0)])
def test_parse_number_forms(raw, value):
    assert parse_number(raw) == (pytest.approx(value), None)


@pytest.mark.parametrize("raw", ["", "abc", "1/0", "1/2/3", "nan", "inf", "x" * 41, "1e999"])
def test_parse_number_refuses_with_a_message(raw):
    v, msg = parse_number(raw)
    assert v is None and msg


def test_check_answer_tolerances():
    q = question("x", "p?", 5 / 7, kind="ratio", explanation="", shown="5/7 = 0.7143")
    assert check_answer(q, "5/7").right and check_answer(q, "0.71").right and check_answer(q, "71.4%").right
    assert check_answer(q, "0.70").status == "wrong" and "0.7143" in check_answer(q, "0.70").message
    small = question("y", "p?", 0.0833, kind="ratio", explanation="")
    assert small.tolerance == 0.0005 and check_answer(small, "0.08").status == "wrong"
    c = question("z", "n?", 3, kind="count", explanation="")
    assert check_answer(c, "3").right and check_answer(c, "3.5").status == "invalid"
    s = question("s", "BLEU?", 38.2, kind="score", scale=100, explanation="")
    assert check_answer(s, "38").right and check_answer(s, "38%").right and not check_answer(s, "0.38").right
    assert "±0.5" in s.hint and "±0.005" in q.hint


def _ex(eid):
    ex = get_example(eid)
    return ex.candidate, list(ex.references)


# ------------------------------------------------------------ answers mark the tokens they talk about
def _focus(row) -> list[int]:
    return [i for i, c in enumerate(row.chips) if c.kind == "focus"]


def _occurrences(toks: list[str], gram: list[str]) -> set[int]:
    """Token positions covered by the n-gram's occurrences, found by scanning the tokens (not the trace)."""
    n = len(gram)
    return {p + i for p in range(len(toks) - n + 1) if toks[p:p + n] == gram for i in range(n)}


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: e.id)
def test_answers_mark_the_tokens_they_name(ex):
    """The explanation names tokens; ``marked`` shows them as focus chips (never among the rows shown before the
    answer, which would give it away)."""
    from rouge_score import rouge_scorer
    from rouge_score import tokenize as rs_tokenize

    cand, refs = ex.candidate, list(ex.references)
    lesson = build_lesson(cand, refs)
    q = {s.id: s.question for s in lesson.steps}
    for s in lesson.steps:
        if s.question is not None:
            assert not any(c.kind == "focus" for b in s.question.given if isinstance(b, TokenRow) for c in b.chips)
    b = explain_bleu(cand, refs).to_dict()
    # counting: the n-gram asked about, in the reference asked about
    count = q["bleu-counting"]
    if count.id.startswith("bleu-count-") and "occur in reference" in count.prompt:
        k = int(count.prompt.rsplit("reference ", 1)[1].rstrip("?")) - 1
        gram = count.prompt.split("‘", 1)[1].split("’", 1)[0].split()
        ref_toks = [t["text"] for t in b["references"][k]["tokens"]]
        (row,) = count.marked
        assert [c.text for c in row.chips] == ref_toks
        assert set(_focus(row)) == _occurrences(ref_toks, gram) and len(_occurrences(ref_toks, gram)) > 0
        assert count.answer == sum(1 for p in range(len(ref_toks)) if ref_toks[p:p + len(gram)] == gram)
    # clipping: the clipped n-gram in the candidate and in the reference that justified it
    clip = q["bleu-clipping"]
    if "times. How many of them are counted" in clip.prompt:
        gram = clip.prompt.split("‘", 1)[1].split("’", 1)[0].split()
        cand_toks = [t["text"] for t in b["candidate"]["tokens"]]
        crow = clip.marked[0]
        assert set(_focus(crow)) == _occurrences(cand_toks, gram)
        assert len(clip.marked) == 2 and _focus(clip.marked[1])
    # ROUGE: rouge-score's own tokens; the overlapping unigrams, the LCS and the tokens left off it
    scorer = rouge_scorer.RougeScorer(list(LESSON_TYPES))
    best = max(range(len(refs)), key=lambda j: scorer.score(refs[j], cand)["rouge1"].fmeasure)
    ctoks, rtoks = rs_tokenize.tokenize(cand, None), rs_tokenize.tokenize(refs[best], None)
    if ctoks and rtoks:
        crow, rrow = q["rouge-1"].marked
        assert [c.text.lower() for c in crow.chips] == ctoks
        assert len(_focus(crow)) == len(_focus(rrow)) == q["rouge-1"].answer
        assert {ctoks[i] for i in _focus(crow)} == set(ctoks) & set(rtoks)
        from rouge_score.rouge_scorer import _lcs_table

        kl = max(range(len(refs)), key=lambda j: scorer.score(refs[j], cand)["rougeL"].fmeasure)
        lcs = _lcs_table(rs_tokenize.tokenize(refs[kl], None), ctoks)[-1][-1]
        crow, rrow = q["rouge-lcs-table"].marked
        assert len(_focus(crow)) == len(_focus(rrow)) == lcs == q["rouge-lcs-table"].answer
        (urow,) = q["rouge-alignment"].marked
        assert len(_focus(urow)) == len(ctoks) - lcs == q["rouge-alignment"].answer
        assert set(_focus(urow)).isdisjoint(_focus(crow))


def test_marked_tokens_in_the_handouts():
    from explainer.ui.teach.teach_html import handout_html
    from explainer.ui.teach.teach_markdown import handout_markdown

    lesson = build_lesson(*_ex("cat_mat"))
    html = handout_html(lesson)
    answers = html.split('id="answers"', 1)[1]
    assert answers.count('class="tk tk-focus"') == sum(
        len(_focus(r)) for _, q in lesson.questions() for r in q.marked) > 0
    md = handout_markdown(lesson).split("## Answers", 1)[1]
    assert "==the== (1)" in md and "==cat==" in md
