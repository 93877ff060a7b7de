"""The Teach page under streamlit.testing (AppTest): the navigation entry, Previous / Next / the step index and
the step in the URL, every source (worked example, gaming-lab preset, own text) and dialect parameters, the
student view checking answers right and wrong, exercise sets with their score, and bad links and input giving
a message, never a traceback."""
from __future__ import annotations

import html
import re

import pytest
from streamlit.testing.v1 import AppTest

from explainer.examples import get_example
from explainer.teach import build_lesson
from explainer.teach.exercises import AttackItem, generate_set
from tests.conftest import ROOT

PAGE = str(ROOT / "explainer" / "ui" / "pages" / "teach.py")
APP = str(ROOT / "app.py")


def new_page(params: dict | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def page_html(at) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def title(at) -> str:
    m = re.search(r'<div class="tc-title"><span class="fam">(\w+)</span>(.*?)<span class="num">step (\d+) of (\d+)',
                  page_html(at))
    assert m, page_html(at)[:500]
    return f"{m.group(1)}|{html.unescape(m.group(2))}|{m.group(3)}/{m.group(4)}"


def warnings(at) -> str:
    """The page's warnings as a reader sees them (without the Markdown escapes)."""
    return " ".join(w.value.replace("\\", "") for w in at.warning)


def qp(at) -> dict:
    return {k: at.query_params[k] for k in at.query_params}


def widget(at, kind: str, prefix: str, i: int):
    """The one widget of ``kind`` whose key is ``<prefix><lesson or set tag>_<i>`` (each lesson's and each set's
    answer boxes are their own)."""
    keys = [w.key for w in getattr(at, kind) if w.key and w.key.startswith(prefix) and w.key.endswith(f"_{i}")]
    assert len(keys) == 1, (prefix, i, keys)
    return getattr(at, kind)(key=keys[0])


def test_navigation_entry_teach():
    at = AppTest.from_file(APP, default_timeout=90)
    at.switch_page("explainer/ui/pages/teach.py")
    at.run()
    assert not at.exception
    assert title(at) == f"BLEU|The texts and their tokens|1/{_n('cat_mat')}"
    assert qp(at)["example"] == "cat_mat" and qp(at)["step"] == "1"


def test_next_previous_and_the_step_index_follow_the_url():
    at = new_page({"example": "cat_mat", "step": "1"})
    lesson = _lesson("cat_mat")
    n = len(lesson.steps)
    assert title(at).endswith(f"|1/{n}")
    at.button(key="tch_next").click().run()
    assert title(at) == f"BLEU|{lesson.steps[1].title}|2/{n}" and qp(at)["step"] == "2"
    at.button(key="tch_next").click().run()
    at.button(key="tch_prev").click().run()
    assert qp(at)["step"] == "2"
    at.selectbox(key="tch_step").set_value(11).run()
    assert title(at) == f"ROUGE|{lesson.steps[11].title}|12/{n}" and qp(at)["step"] == "12"
    at.selectbox(key="tch_step").set_value(len(lesson.steps) - 1).run()
    assert at.button(key="tch_next").disabled and not at.button(key="tch_prev").disabled


def test_every_step_of_every_source_renders():
    for params in ({"example": "abandon_hope"}, {"preset": "word-salad"}, {"candidate": "a b c", "ref": ["a b"]}):
        at = new_page(params)
        n = int(title(at).split("/")[1])
        for k in range(n):
            at.selectbox(key="tch_step").set_value(k).run()
            assert not at.exception and title(at).endswith(f"|{k + 1}/{n}")


def test_step_parameter_and_bad_links():
    at = new_page({"example": "cat_mat", "step": "4"})
    n = _n("cat_mat")
    assert title(at) == f"BLEU|Clipping the unigram counts|4/{n}"
    at = new_page({"example": "cat_mat", "step": "99"})
    assert title(at).endswith(f"|1/{n}") and f"“step=99” is not a step of this lesson (1–{n})" in warnings(at)
    at = new_page({"example": "nope", "step": "²"})
    assert title(at).endswith(f"|1/{n}")
    assert "example=nope" in warnings(at) and "step=²" in warnings(at)
    at = new_page({"preset": "not-a-preset", "mode": "cinema", "seed": "9" * 5000})
    w = warnings(at)
    assert "preset=not-a-preset" in w and "mode=cinema" in w
    assert "“seed=9999" in w and "has more than 18 digits" in w and "using 1." in w


def test_own_text_and_dialect_parameters_as_on_the_explain_page():
    at = new_page({"candidate": "the cat sat on the mat", "ref": ["the cat is on the mat"], "bleu_dialect": "nltk",
                   "smooth": "method1", "step": _step(("the cat sat on the mat", ["the cat is on the mat"]),
                                                      "bleu-score", bleu_dialect="nltk",
                                                      bleu_options={"smoothing": "method1"})})
    body = page_html(at)
    want = build_lesson("the cat sat on the mat", ["the cat is on the mat"], bleu_dialect="nltk",
                        bleu_options={"smoothing": "method1"})
    assert f'data-value="{want.bleu_summary["score"]!r}"' in body
    assert qp(at)["bleu_dialect"] == "nltk" and qp(at)["smooth"] == "method1"
    assert qp(at)["candidate"] == "the cat sat on the mat"


def test_example_settings_apply_and_url_stays_short():
    at = new_page({"example": "stem_took", "step": _step("stem_took", "rouge-1")})
    assert at.session_state["rouge_opt:rouge-score:use_stemmer"] is True
    assert "stem" not in qp(at)   # the example's own setting is not repeated in its link
    assert "compared as ‘cat’" in page_html(at)


def test_preset_source_uses_the_labs_numbers():
    from explainer.attacks.presets import evaluate

    at = new_page({"preset": "word-salad"})
    score = next(i for i, o in enumerate(at.selectbox(key="tch_step").options) if "the final score" in o)
    at = new_page({"preset": "word-salad", "step": str(score + 1)})
    res = evaluate("word-salad")
    html = page_html(at)
    m = re.search(r'data-metric="bleu" data-value="([^"]+)"', html)
    assert float(m.group(1)) == pytest.approx(res.scores[1].values["bleu"], abs=1e-9)
    assert qp(at)["preset"] == "word-salad" and qp(at)["variant"] == "2"


def test_notes_toggle_shows_speaker_notes():
    at = new_page({"example": "cat_mat", "step": "4"})
    assert "Common misconception" not in page_html(at)
    at.toggle(key="tch_notes").set_value(True).run()
    html = page_html(at)
    assert "Common misconception" in html and "Ask the class" in html and qp(at)["notes"] == "1"


def test_notes_parameter_takes_on_off_words_and_says_when_it_cannot():
    at = new_page({"example": "cat_mat", "step": "4", "notes": "maybe"})
    assert "“notes=maybe” is not on or off" in warnings(at)
    assert at.session_state["tch_notes"] is False and "Common misconception" not in page_html(at)
    for word, on in (("TRUE", True), ("yes", True), ("1", True), ("off", False), ("0", False)):
        at = new_page({"example": "cat_mat", "step": "4", "notes": word})
        assert not warnings(at) and at.session_state["tch_notes"] is on, word
        assert ("Common misconception" in page_html(at)) is on, word


def test_lcs_slider_fills_the_table_cell_by_cell():
    at = new_page({"example": "cat_mat", "step": _step("cat_mat", "rouge-lcs-table")})
    slider = at.slider[0]
    assert slider.value == 42
    slider.set_value(3).run()
    html = page_html(at)
    assert "Row 1 (reference ‘there’), column 3 (candidate ‘is’): the tokens differ" in html
    assert html.count('class="empty"') == 42 - 3


def test_student_answers_right_and_wrong():
    at = new_page({"example": "cat_mat", "step": "4", "mode": "student"})
    assert "Predict before you see it" in page_html(at)
    assert "m_1 = Σ" not in page_html(at)   # the step's answer is hidden until answered
    widget(at, "text_input", "tch_answer_", 3).set_value("2")
    at.button[[b.label for b in at.button].index("Check")].click().run()
    # a first wrong answer: a retry with a hint (2 is the count before clipping), the answer not shown yet
    assert not at.error and "count before clipping" in warnings(at) and "Try again" in warnings(at)
    assert "the answer is" not in warnings(at) and "m_1 = Σ" not in page_html(at)
    # Check again with the same answer (a double click): the same try, not the last one (issue 31)
    at.button[[b.label for b in at.button].index("Check")].click().run()
    assert not at.error and "Try again (1 try left)" in warnings(at) and "m_1 = Σ" not in page_html(at)
    widget(at, "text_input", "tch_answer_", 3).set_value("3")
    at.button[[b.label for b in at.button].index("Check")].click().run()
    assert at.error and "the answer is 1" in at.error[0].value
    assert "m\\_1 \\= Σ" not in at.error[0].value and "m_1 = Σ" in page_html(at)
    # the answer marks the tokens it names: both ‘the’ of the candidate, the one ‘the’ of the reference
    marked = page_html(at).split('class="tc tc-marked"', 1)[1].split("</div></div></div>", 1)[0]
    assert re.findall(r'class="tk tk-focus"[^>]*><span class="tk-t">([^<]*)<', marked) == ["the", "the", "the"]
    at.button(key="tch_again_3").click().run()
    widget(at, "text_input", "tch_answer_", 3).set_value("1")
    at.button[[b.label for b in at.button].index("Check")].click().run()
    assert at.success and "Right" in at.success[0].value
    assert any(m.value == "**1/1** right" for m in at.markdown)   # trying again replaces the wrong answer


def test_student_invalid_answer_keeps_the_question():
    at = new_page({"example": "cat_mat", "step": "5", "mode": "student"})
    widget(at, "text_input", "tch_answer_", 4).set_value("five sixths")
    at.button[[b.label for b in at.button].index("Check")].click().run()
    assert "not a number" in warnings(at) and not at.success and not at.error
    widget(at, "text_input", "tch_answer_", 4).set_value("5/6")
    at.button[[b.label for b in at.button].index("Check")].click().run()
    assert at.success


def test_exercise_set_from_the_url_and_its_score():
    s = generate_set(7, "easy", 6)
    at = new_page({"mode": "practice", "seed": "7", "level": "easy", "n": "6", "item": "1"})
    first = s.items[0]
    assert first.candidate in page_html(at)
    widget(at, "text_input", "tch_set_answer_", 0).set_value(repr(first.question.answer))
    at.button[[b.label for b in at.button].index("Check")].click().run()
    assert at.success and "Right" in at.success[0].value
    atk = next(i for i in s.items if isinstance(i, AttackItem))
    at.selectbox(key="tch_item").set_value(atk.index).run()
    widget(at, "radio", "tch_atk_pick_", atk.index).set_value(atk.attack)
    widget(at, "button_group", "tch_atk_metrics_", atk.index).set_value(sorted(atk.fooled))
    at.button[[b.label for b in at.button].index("Check")].click().run()
    assert at.success and "2 of 2 points" in at.success[0].value and "as you said" in at.success[0].value
    at.selectbox(key="tch_item").set_value(6).run()
    assert "Score: 3 of 7 points · 2 of 6 exercises done" in page_html(at)
    assert "(2 points)" not in page_html(at)   # the score screen lists points per item instead
    assert "2 / 2" in page_html(at) and "1 / 1" in page_html(at)
    assert qp(at)["seed"] == "7" and qp(at)["item"] == "7" and qp(at)["mode"] == "practice"


def test_exercise_progress_survives_a_reload():
    """Issue 21: the exercise set's progress was lost on reload. The link carries it (``done``: "-" or the points
    of each exercise); opening that link in a new session (a reload) shows the same score and the answered items
    as answered; a bad ``done`` gives a message and a fresh set."""
    s = generate_set(7, "easy", 6)
    at = new_page({"mode": "practice", "seed": "7", "level": "easy", "n": "6", "item": "1"})
    widget(at, "text_input", "tch_set_answer_", 0).set_value(repr(s.items[0].question.answer))
    at.button[[b.label for b in at.button].index("Check")].click().run()
    assert at.success and "Right" in at.success[0].value
    atk = next(i for i in s.items if isinstance(i, AttackItem))
    at.selectbox(key="tch_item").set_value(atk.index).run()
    widget(at, "radio", "tch_atk_pick_", atk.index).set_value(1 - atk.attack)   # the wrong output: 0 points
    at.button[[b.label for b in at.button].index("Check")].click().run()
    score = re.search(r"Score: [^<*]*", " ".join(m.value for m in at.markdown)).group(0)
    assert score.startswith("Score: 1 of 7 points · 2 of 6 exercises done"), score
    link = qp(at)
    assert link["done"] == "1" + "-" * (atk.index - 1) + "0", link
    again = new_page(link)                                   # the reload: a new session on the same link
    assert score in " ".join(m.value for m in again.markdown)
    assert again.warning and "Answered before" in again.warning[0].value   # the attack item, its 0 points
    again.selectbox(key="tch_item").set_value(0).run()
    assert again.success and "1 of 1 point" in again.success[0].value and not again.text_input
    assert qp(again)["done"] == link["done"]
    bad = new_page({**link, "done": "x1"})
    assert "is not the exercises' progress" in warnings(bad) and "done" not in qp(bad)


def test_bad_input_gives_a_message():
    at = new_page({"candidate": "", "ref": ["x"]})
    assert "candidate is empty" in warnings(at)
    at = new_page({"candidate": "x", "ref": [""]})
    assert "no reference" in warnings(at)
    at = new_page({"candidate": "x", "ref": ["x"]})
    at.text_area(key="tch_cand").set_value("x " * 6000).run()       # typed: a link carries at most 6,000
    assert "at most 10,000" in warnings(at)
    at = new_page({"candidate": "x " * 6000, "ref": ["x"]})
    assert "more than a link may carry (6,000); they are not loaded" in warnings(at)


def test_user_text_is_escaped_on_the_page():
    payload = '<img src=x onerror=alert(1)><script>alert(2)</script>'
    at = new_page({"candidate": payload + " the cat", "ref": ["the cat"], "step": "1"})
    html = page_html(at)
    assert "<img src=x" not in html and "<script>" not in html
    chips = re.findall(r'<span class="tk-t">([^<]*)</span>', html)
    assert chips[:6] == ["&lt;", "img", "src", "=", "x", "onerror"]   # the tokens, shown literally


def _texts(eid):
    ex = get_example(eid)
    return ex.candidate, list(ex.references)


def _lesson(eid: str, **kw):
    """The lesson of a worked example as its link shows it: with the example's printed numbers compared."""
    return build_lesson(*_texts(eid), claims=get_example(eid).claims, **kw)


def _step(texts: tuple | str, step_id: str, **kw) -> str:
    """The link's step number of the lesson's step ``step_id`` (the paging may split a step in parts); ``texts``:
    (candidate, references) or a worked example's id."""
    lesson = _lesson(texts, **kw) if isinstance(texts, str) else build_lesson(*texts, **kw)
    return str(1 + [s.id for s in lesson.steps].index(step_id))


def _n(eid: str) -> int:
    return len(_lesson(eid).steps)


def _dialects():
    from explainer import bleu, rouge

    return [("bleu", d) for d in bleu.dialect_names()] + [("rouge", d) for d in rouge.dialect_names()]


@pytest.mark.parametrize("family,dialect", _dialects())
def test_every_dialect_from_the_link(family, dialect):
    from explainer.bleu import explain_bleu
    from explainer.rouge import explain_rouge

    cand, refs = _texts("abandon_hope")
    # the step of the family's final score: BLEU's, or ROUGE-L's (after the dialect's own earlier steps)
    step = _step("abandon_hope", "bleu-score" if family == "bleu" else "rouge-l", **{f"{family}_dialect": dialect})
    at = new_page({"example": "abandon_hope", f"{family}_dialect": dialect, "step": str(step)})
    body = page_html(at)
    if family == "bleu":
        want = explain_bleu(cand, refs, dialect=dialect).score
        m = re.search(r'data-metric="bleu" data-value="([^"]+)"', body)
    else:
        want = explain_rouge(cand, refs, dialect=dialect,
                             types=("rouge1", "rouge2", "rougeL")).scores["rougeL"].fmeasure
        m = re.search(r'data-metric="rougeL_f" data-value="([^"]+)"', body)
    assert m and float(m.group(1)) == pytest.approx(want, abs=1e-12), (dialect, body[:300])
    assert qp(at).get(f"{family}_dialect") == (None if dialect in ("sacrebleu", "rouge-score") else dialect)


def test_a_worked_examples_printed_numbers_at_their_step():
    """medication: the textbook says BLEU = 0; sacreBLEU (its recorded score) gives more, said at the
    final-score step — in the walkthrough, in the student view once answered, not for the same texts typed in."""
    from tests.test_teach_claims import _seed

    ex = get_example("medication")
    lesson = _lesson("medication")
    k = lesson.step_ids().index("bleu-score") + 1
    recorded = _seed("s002_medication", "sacrebleu", {})["score"]
    at = new_page({"example": "medication", "step": str(k)})
    body = page_html(at)
    m = re.search(r'<div class="tclaim-l" data-claim="bleu" data-agrees="no" data-value="([^"]+)"'
                  r'(?: title="[^"]*")?>(.*?)</div>', body)   # the title: the verdict with its detail
    assert m and float(m.group(1)) == pytest.approx(recorded / 100, abs=1e-12)
    text = html.unescape(re.sub(r"<[^>]+>", "", m.group(2)))
    assert text.startswith("✗The textbook says BLEU (0–1) = 0") and f"{recorded:.4f}" in text
    assert 'class="tclaim ' not in page_html(new_page({"example": "medication", "step": str(k - 1)}))
    own = new_page({"candidate": ex.candidate, "ref": list(ex.references), "step": str(k)})
    assert 'class="tclaim ' not in page_html(own)


def test_order_above_the_settings_maximum_is_refused():
    from explainer.bleu import explain_bleu

    ex = get_example("cat_mat")
    N = len(explain_bleu(ex.candidate, list(ex.references)).to_dict()["ngrams"])   # sacreBLEU's default order
    at = new_page({"example": "cat_mat", "order": str(N + 5), "step": "3"})
    w = warnings(at)
    assert f"“order={N + 5}” is not an order the lesson can follow with these settings" in w and f"(0–{N})" in w
    assert at.session_state["tch_order"] == 0 and "order" not in qp(at)
    assert len(at.selectbox(key="tch_order").options) == N + 1
    # with max order 2 in the link, order 3 is refused too; order 2 is followed
    at = new_page({"example": "cat_mat", "max_order": "2", "order": "3"})
    assert "(0–2)" in warnings(at) and at.session_state["tch_order"] == 0
    at = new_page({"example": "cat_mat", "max_order": "2", "order": "2", "step": "2"})
    n = len(_lesson("cat_mat", bleu_options={"max_ngram_order": 2}).steps)
    assert not warnings(at) and title(at) == f"BLEU|The candidate's bigrams (2-grams)|2/{n}"
    # the sidebar: the order followed, then a setting lowers the maximum order under it
    at = new_page({"example": "cat_mat", "order": "4", "step": "2"})
    assert "4-grams" in title(at)
    at.number_input(key="bleu_opt:sacrebleu:max_ngram_order").set_value(3).run()
    assert "The n-gram order followed (4) is above the maximum order of these settings (3)" in warnings(at)
    assert at.session_state["tch_order"] == 0 and len(at.selectbox(key="tch_order").options) == 4
    assert "order" not in qp(at)


def test_own_text_too_long_for_a_link_says_so_and_stays_in_the_tab():
    from explainer.ui.pagestate import MAX_URL_TEXT

    cand = "a " * (MAX_URL_TEXT // 2)   # with the reference: one character over what a link carries
    at = AppTest.from_file(APP, default_timeout=90)
    at.switch_page("explainer/ui/pages/teach.py")
    for k, v in {"candidate": "a", "ref": ["a"], "step": "2"}.items():
        at.query_params[k] = v
    at.run()
    at.text_area(key="tch_cand").set_value(cand).run()     # typed (a link carrying it is not loaded)
    w = warnings(at)
    assert f"{MAX_URL_TEXT + 1:,} characters together, more than a link carries ({MAX_URL_TEXT:,})" in w
    assert "this lesson has no link" in w
    # the URL does not pretend to be this lesson's link, and does not become another lesson's
    assert "candidate" not in qp(at) and qp(at)["text"] == "not-in-link" and qp(at)["step"] == "2"
    at.button(key="tch_next").click().run()
    assert at.session_state["tch_cand"] == cand and at.session_state["tch_source"] == "text"
    assert qp(at)["step"] == "3" and "Teaching: Your own text" in " ".join(c.value.replace("\\", "")
                                                                        for c in at.caption)
    # to another page and back (navigation drops the query and this page's widget values): the tab has the texts
    at.switch_page("explainer/ui/pages/explain.py")
    at.query_params.clear()
    at.run()
    at.query_params.clear()
    at.switch_page("explainer/ui/pages/teach.py")
    at.run()
    assert at.session_state["tch_cand"] == cand and at.session_state["tch_source"] == "text"
    assert title(at).endswith(f"|3/{len(build_lesson(cand, ['a']).steps)}") and qp(at)["text"] == "not-in-link"
    # the link opened elsewhere (a new session): a message, the own-text source, not another lesson
    fresh = new_page({"text": "not-in-link", "step": "3"})
    assert "longer than a link carries" in warnings(fresh) and fresh.session_state["tch_source"] == "text"
    assert fresh.session_state["tch_cand"] == "" and "candidate is empty" in warnings(fresh)
    # shortened again: the texts are back in the link
    at.text_area(key="tch_cand").set_value("the cat sat").run()
    assert qp(at)["candidate"] == "the cat sat" and "text" not in qp(at)


def test_handouts_say_why_a_lesson_has_no_link():
    from explainer.ui.teach.teach_html import handout_html
    from explainer.ui.teach.teach_markdown import handout_markdown

    lesson = build_lesson("a b c", ["a b"])
    note = "the texts have 7,001 characters together, more than a link carries (6,000)"
    html = handout_html(lesson, link="", link_note=note)
    assert f"No link: {note}" in html and "teach?" not in html
    md = handout_markdown(lesson, link="", link_note=note)
    assert f"**Open in the app:** no link — {note}" in md and "teach?" not in md


def test_a_lesson_on_pooled_references_without_a_rule_text():
    """rouge-score with multi_ref='pool' (and rouge-metric, which pools by default) records no 'rule' for ROUGE-N/L:
    the lesson's note on pooled counts raised KeyError: 'rule'."""
    from explainer.rouge import explain_rouge
    from explainer.teach.rouge_steps import rouge_steps

    cand, refs = _texts("abandon_hope")
    for dialect, opts in (("rouge-score", {"multi_ref": "pool"}), ("rouge-metric", {})):
        tr = explain_rouge(cand, refs, dialect=dialect, types=("rouge1", "rouge2", "rougeL"), **opts).to_dict()
        assert any(s.title == "ROUGE-L" for s in rouge_steps(tr))
