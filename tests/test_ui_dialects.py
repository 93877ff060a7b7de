"""The Dialects page under streamlit.testing (AppTest): the side-by-side table shows the core's (and the real
libraries') numbers, the first divergence is shown for the chosen rows, the reproduce form finds the built-in
claims' verdicts, every "open" link puts that configuration on the Explain page, user text stays escaped, and
bad input gives a message, never a traceback."""
from __future__ import annotations

import html
import re
import urllib.parse

import pytest
from streamlit.testing.v1 import AppTest

from explainer.dialectcmp.cases import BUILTIN_CLAIMS
from explainer.dialectcmp.comparison import compare
from explainer.dialectcmp.reproduction import reproduce
from explainer.examples import get_example
from explainer.families import FAMILIES
from explainer.ui import highlight as hl
from explainer.ui.dialects import view as dv
from explainer.ui.explain.link import parse_link
from tests.conftest import ROOT

PAGE = str(ROOT / "explainer" / "ui" / "pages" / "dialects.py")


def new_page(params: dict | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def html_of(at) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def link_state(link: str):
    assert link.startswith("./?")
    q = urllib.parse.parse_qs(link[3:], keep_blank_values=True)
    state = parse_link(q)
    assert not state.warnings, state.warnings
    return state


def test_default_page_table_is_the_cores_and_sacrebleus():
    from sacrebleu.metrics import BLEU

    at = new_page()
    ex = get_example("cat_sat")
    df = at.dataframe[0].value
    cmp = compare(ex.candidate, list(ex.references))
    assert list(df["implementation"]) == [r.label for r in cmp.rows]
    assert list(df["score"]) == [dv._num(r.data["score"]) for r in cmp.rows]
    real = BLEU().corpus_score([ex.candidate], [[r] for r in ex.references]).score
    assert df["score"][0] == dv._num(real)
    # the first divergence shown is the default pair's: row 1 vs row 2
    body = html_of(at)
    d = cmp.pair(cmp.rows[0].id, cmp.rows[1].id)
    assert f"First divergence: {dv.STEP_WORDS[d.first_step]}" in body
    assert hl.escape_text(d.why) in body
    assert 'class="dl-cell-hit"' in body


def test_every_row_link_opens_that_configuration_on_the_explain_page():
    ex = get_example("abandon_hope")
    at = new_page({"candidate": ex.candidate, "ref": list(ex.references)})
    df = at.dataframe[0].value
    cmp = compare(ex.candidate, list(ex.references))
    for row, link in zip(cmp.rows, df["explain"]):
        st = link_state(link)
        assert st.candidate == ex.candidate and st.refs == list(ex.references)
        assert st.settings["bleu"].dialect == row.config.dialect
        for k, v in row.config.opts.items():
            assert st.settings["bleu"].options[k] == v, (row.id, k)


def test_rouge_rows_and_a_chosen_pair():
    ex = get_example("abandon_hope")
    at = new_page({"candidate": ex.candidate, "ref": list(ex.references), "metric": "rouge",
                   "a": "rouge-score", "b": "rouge155:A"})
    assert at.radio(key="dl_metric").value == "rouge"
    df = at.dataframe[0].value
    assert list(df["implementation"])[:2] == ["rouge-score", "rouge-score (stemmer)"]
    assert df["rouge1 F"][0] == "1" and df["rougeLsum F"][5] == "n/a"       # the textbook has no rougeLsum
    body = html_of(at)
    assert "First divergence: several references" in body
    assert "pools the 4 references (R = 20/26)" in body
    at.selectbox(key="dl_b").set_value("rouge-score:stem").run()
    # "Leave" in references 3 and 4 is stemmed to "leav"
    body = html_of(at)
    assert "First divergence: stemming" in body and "`leave` unchanged (rouge-score) vs `leav`" in body


def test_pair_selection_updates_the_url_and_the_panel():
    at = new_page({"candidate": "The cat sat on the mat.", "ref": ["The cat is on the mat."]})
    at.selectbox(key="dl_b").set_value("textbook").run()
    assert at.query_params["b"] == "textbook"
    body = html_of(at)
    assert "First divergence: tokens" in body and "Textbook lowercases `The` to `the`" in body
    assert 'class="dl-tok dl-hit"' in body


def test_user_text_is_escaped():
    payload = '<img src=x onerror=alert(1)> <script>alert(2)</script> "q" & \u202e'
    at = new_page({"candidate": payload + " mat.", "ref": [payload + " mat"], "a": "sacrebleu", "b": "nltk:method1"})
    body = html_of(at)
    assert "<img src=x" not in body and "<script>alert" not in body
    assert "&lt;img" in body and "U+202E" in body


@pytest.mark.parametrize("case", [c for c in BUILTIN_CLAIMS if c.id in
                                  ("lesson_cat_sat", "colab_abandon", "lesson_warfarin_r1", "chapter_military_bp",
                                   "colab_abandon_r2")],
                         ids=lambda c: c.id)
def test_builtin_claim_picker_runs_the_search(case):
    at = new_page()
    at.selectbox(key="dl_builtin").set_value(case.id).run()
    assert not at.exception
    ex = get_example(case.example)
    assert at.text_area(key="dl_cand").value == ex.candidate
    want = reproduce(ex.candidate, list(ex.references), case.claim, metric=case.metric)
    box = {"reproduced": at.success, "unreproducible": at.error, "unusual": at.warning}[case.expected]
    assert box and box[0].value.startswith(hl.md_escape(want.message)[:30])
    assert any(hl.md_escape(case.note) in i.value for i in at.info)
    body = html_of(at)
    links = [html.unescape(x) for x in re.findall(r'<a class="dl-explain" href="([^"]*)"', body)]
    if case.expected in ("reproduced", "unusual"):
        for m in want.matches[:25]:
            assert hl.escape_text(m.description) in body
        m0, link = want.matches[0], links[0]
        st = link_state(link)
        fam_dialect = st.settings["bleu" if m0.metric == "bleu" else "rouge"].dialect
        assert fam_dialect == m0.config.dialect
        assert st.refs == [ex.references[k] for k in m0.references]
    else:
        assert len(links) == len(want.nearest) == 5
        for m in want.nearest:
            assert hl.escape_text(m.description) in body


def test_claim_in_the_url_runs_the_search_and_shows_matches_on_the_first_visit():
    ex = get_example("abandon_hope")
    at = new_page({"candidate": ex.candidate, "ref": list(ex.references), "claim": "BLEU: 0.541"})
    assert at.success and "is reproduced by" in at.success[0].value
    assert "the first reference only" in html_of(at) and "explain →" in html_of(at)


def test_form_search_and_bad_claims():
    at = new_page()
    at.text_input(key="dl_claim").set_value("38.0")
    at.button(key="FormSubmitter:dl_form-Search").click().run()
    assert at.success and hl.md_escape("the simplest: sacreBLEU BLEU = 38.0.") in at.success[0].value
    at.text_input(key="dl_claim").set_value("no number here")
    at.button(key="FormSubmitter:dl_form-Search").click().run()
    assert not at.exception and at.error and hl.md_escape("no number in the claim") in at.error[0].value
    at.text_input(key="dl_claim").set_value("")
    at.button(key="FormSubmitter:dl_form-Search").click().run()
    assert any("Type the number" in w.value for w in at.warning)


def test_bad_input_messages_keep_the_text():
    at = new_page({"candidate": "", "ref": ["a"]})
    assert any("candidate is empty" in w.value for w in at.warning)
    at = new_page({"candidate": "a", "ref": [""]})
    assert any("no reference yet" in w.value for w in at.warning)
    long = "word " * 4500
    at = new_page()
    at.text_area(key="dl_cand").set_value(long).run()
    assert not at.exception
    assert any("limit here is 20,000" in e.value for e in at.error)
    assert at.text_area(key="dl_cand").value == long


def test_bad_link_parameters_are_warnings():
    at = new_page({"metric": "meteor", "claim_metric": "x", "ref": ["r"] * 12, "candidate": "c"})
    warns = " ".join(w.value for w in at.warning)
    names = list(FAMILIES)
    assert f"not {', '.join(names[:-1])} or {names[-1]}" in warns and "only the first 10" in warns
    assert "using any" in warns
    at = new_page({"claim": "x" * 500})
    assert any("longer than 200" in w.value for w in at.warning)


def test_page_params_roundtrip_and_bounds():
    """The page's link (built by the engine) reads back to the same state, and the texts over a link's size
    stay out of it."""
    at = new_page({"candidate": "c", "ref": ["r1", "r2"], "metric": "bleu", "claim": "BLEU 0.5",
                   "claim_metric": "bleu"})
    assert not at.exception and not at.warning
    q = {k: at.query_params[k] for k in at.query_params}
    again = new_page(q)
    assert not again.warning and {k: again.query_params[k] for k in again.query_params} == q
    assert (again.text_area(key="dl_cand").value, again.text_area(key="dl_ref_1").value) == ("c", "r2")
    assert again.radio(key="dl_metric").value == "bleu" and again.text_input(key="dl_claim").value == "BLEU 0.5"
    long = new_page({"candidate": "x" * 7000, "ref": "r"})
    assert any("more than a link may carry" in w.value for w in long.warning)
    long.text_area(key="dl_cand").set_value("x" * 7000).run()
    assert "candidate" not in long.query_params and "ref" not in long.query_params


def test_match_links_for_rouge_and_split_texts():
    cand = "schools were closed on monday. the storm cut power to homes."
    refs = ["the storm cut power to homes. schools were closed on monday."]
    res = reproduce(cand, refs, "ROUGE-Lsum F 1.0", max_matches=None)
    rows = dv.match_rows(res)
    split = [(m, r) for m, r in zip(res.matches, rows) if m.lsum_split]
    assert split
    m, r = split[0]
    st = link_state(r["explain"])
    assert st.settings["rouge"].dialect == m.config.dialect and "rougeLsum" in st.settings["rouge"].options["types"]
    assert "\n" in st.candidate and st.candidate.replace("\n", " ") == cand
    assert re.match(r"printf '%s\\n' .* \| python -m explainer rouge ", r["command"])


def test_empty_reference_boxes_are_named_when_left_out():
    at = new_page({"candidate": "the cat sat on the mat", "ref": ["", "the cat is on the mat", "", "a cat sat"]})
    notes = " ".join(c.value for c in at.caption)
    assert ("Reference boxes 1 and 3 are empty and left out: below, reference 1 is your reference 2 and "
            "reference 2 is your reference 4.") in notes, notes
    # the comparison is over the two texts, in the user's order
    cmp = compare("the cat sat on the mat", ["the cat is on the mat", "a cat sat"])
    assert at.dataframe[0].value["score"].tolist() == [r["score"] for r in dv.table_rows(cmp)]
    # only trailing boxes empty: nothing is renumbered
    at = new_page({"candidate": "the cat sat on the mat", "ref": ["the cat is on the mat", ""]})
    notes = " ".join(c.value for c in at.caption)
    assert "Reference box 2 is empty and left out." in notes and "below, reference" not in notes
    at = new_page({"candidate": "the cat sat on the mat", "ref": ["the cat is on the mat"]})
    assert "left out" not in " ".join(c.value for c in at.caption)


def test_picking_a_builtin_claim_keeps_the_reproduce_tab():
    at = new_page()
    assert at.session_state["dl_tab"] == "Side by side"
    at.session_state["dl_tab"] = "Reproduce a number"       # the user is on the Reproduce tab
    at.run()
    at.selectbox(key="dl_builtin").set_value("colab_abandon_r2").run()    # 4 references: the page grows above
    assert not at.exception
    assert at.session_state["dl_tab"] == "Reproduce a number"
    # a link with a claim opens on its answer
    ex = get_example("cat_sat")
    at = new_page({"candidate": ex.candidate, "ref": list(ex.references), "claim": "38.0"})
    assert at.session_state["dl_tab"] == "Reproduce a number"
    # an example picked on the Side-by-side tab stays there
    at = new_page()
    at.selectbox(key="dl_example").set_value("abandon_hope").run()
    assert at.session_state["dl_tab"] == "Side by side"


# ------------------------------------------------------------------------------------------ divergence panels
def _sides(cand, refs, a, b, metric="bleu", **kw):
    cmp = compare(cand, refs, metric=metric, pairs=[], **kw)
    div = cmp.pair(a, b)
    return div, dv.side_html(cmp, div, "a"), dv.side_html(cmp, div, "b")


def _chips(side_html: str) -> list[list[str]]:
    """The compared tokens of each text block, as shown (a stem: 'word → stem')."""
    out = []
    for block in re.findall(r'<div class="dl-toks"[^>]*>(.*?)</div>', side_html):
        toks = re.findall(r'<span class="dl-tok[^"]*"[^>]*>(.*?)</span>(?=<span class="dl-tok|$| <span)', block)
        out.append([html.unescape(re.sub(r"<[^>]+>", "", t)) for t in toks])
    return out


def test_the_stemmer_side_shows_the_stems_it_compared():
    div, a, b = _sides("cats taking took taken", ["cat take take take"], "rouge-score", "rouge-score:stem", "rouge")
    assert div.first_step == "stemming"
    assert _chips(a)[0] == ["cats", "taking", "took", "taken"]
    assert _chips(b)[0] == ["cats → cat", "taking → take", "took", "taken"]
    assert "tokens compared (4)" in b


def test_no_inline_label_covers_a_neighbouring_token():
    # `mat` and `.` are adjacent in the text: the marks carry no inline "≠" label, which covered the `.`
    div, a, _ = _sides("the cat sat on the mat.", ["the cat is on the mat."], "sacrebleu", "nltk:method1")
    assert "≠" not in a and "<sub>" not in a
    assert re.search(r'>mat</span><span[^>]*>\.</span>', a)


def test_every_text_tokenized_differently_is_shown_on_both_sides():
    refs = ["The cat is on the mat.", "There is a cat on the mat.", "a cat"]
    div, a, b = _sides("The cat sat on the mat.", refs, "sacrebleu", "nltk:method1")
    for side in (a, b):
        names = re.findall(r"<div><b>([^<]+)</b> — as typed", side)
        assert names == ["candidate", "reference 1", "reference 2"], names
    many = ["a cat sat on the mat."] * 6
    cmp = compare("the cat sat on the mat.", many, pairs=[])
    div = cmp.pair("sacrebleu", "nltk:method1")
    side = dv.side_html(cmp, div, "a")
    assert len(re.findall(r"— as typed", side)) == dv.MAX_TOKEN_TEXTS
    assert "… and 3 more text(s) tokenized differently" in side


def test_a_failing_library_is_shown_in_its_panel():
    div, a, b = _sides("", ["a b c"], "sacrebleu", "hf-evaluate")
    assert div.first_step == "brevity_penalty"
    assert "The real library fails here" not in a
    assert "The real library fails here</b>: ZeroDivisionError: float division by zero" in b


def test_rouge_step_table_has_five_columns_with_the_counts():
    ex = get_example("abandon_hope")
    div, a, _ = _sides(ex.candidate, list(ex.references), "rouge-score", "rouge155:A", "rouge")
    assert div.first_step == "multi_ref"
    head = re.findall(r"<th[^>]*>(.*?)</th>", a)
    assert head[:5] == ["reference", "hits / cand / ref", "P", "R", "F"]
    assert ">7 / 7 / 7</td>" in a          # rouge1 against reference 1 (rouge-score's tokens)


def test_a_claim_of_another_metric_is_refused_and_the_three_way_verdict_is_said():
    ex = get_example("abandon_hope")
    at = new_page({"candidate": ex.candidate, "ref": list(ex.references), "claim": "METEOR 0.55"})
    assert not at.exception and at.error and "METEOR" in at.error[0].value and not at.success
    at = new_page({"candidate": ex.candidate, "ref": list(ex.references), "claim": "BLEU: 0.541"})
    assert any(c.value.startswith(hl.md_escape("Holds with other settings:")) for c in at.caption)


def test_a_chrf_claims_matches_open_the_explain_page_on_the_libraries_number():
    """A random widget sequence (dialects-39) crashed: a chrF match was sent to the Explain link builder, which
    looked the chrF dialect up among the ROUGE dialects (KeyError 'nltk'). Now that the Explain page shows chrF
    (issue 23), a match links there with its chrF settings, and the page shows sacreBLEU's own number for them."""
    from sacrebleu.metrics import CHRF

    from tests.ui_driver import BrowserLikeApp

    cand, refs = "The Cat.\nOn the mat!", ["a b c"]
    at = new_page({"candidate": cand, "ref": refs, "metric": "rouge"})
    at.text_input(key="dl_claim").set_value("0.25")
    at.selectbox(key="dl_claim_metric").set_value("chrf")
    at.button(key="FormSubmitter:dl_form-Search").click().run()
    assert not at.exception
    links = [html.unescape(h) for h in re.findall(r'class="dl-explain" href="([^"]+)"', html_of(at))]
    assert links and "<code>" not in html_of(at)
    q = urllib.parse.parse_qs(links[0][3:], keep_blank_values=True)
    assert q.get("chrf_dialect", ["sacrebleu"]) == ["sacrebleu"]     # the family's default dialect may be left out
    opts = {k[len("chrf_sacrebleu_"):]: v[0] for k, v in q.items() if k.startswith("chrf_sacrebleu_")}
    flags = ("lowercase", "whitespace", "eps_smoothing")
    kw = {k: (v == "1") if k in flags else int(float(v)) for k, v in opts.items()}
    explain = BrowserLikeApp(q)
    assert not explain.exceptions
    shown = next(m for m in explain.at.metric if m.label == "chrF")
    assert shown.value == f"{CHRF(**kw).sentence_score(cand, refs).score:.4f}"
