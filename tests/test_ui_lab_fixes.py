"""The gaming lab as people use it (issue 10, defect 8): the noun-phrase swap moves only noun phrases and changes
no word's case, and the texts typed on the Explain page carry into the lab."""
from __future__ import annotations

from collections import Counter

from sacrebleu.metrics import BLEU

from explainer.attacks import generators as G
from tests.ui_driver import BrowserLikeApp

COUNCIL = "The city council approved the plan. The plan raises spending on schools."
REF = "The city council approved the plan on Monday. It raises spending on schools."


def test_swap_keeps_case_and_swaps_only_noun_phrases():
    g = G.swap_noun_phrases(COUNCIL)
    assert g.changed
    assert g.text == "The plan approved the city council. The plan raises spending on schools."
    # the same words, each with its own case: the swap alone changes the order, not the vocabulary
    assert Counter(g.text.replace(".", " .").split()) == Counter(COUNCIL.replace(".", " .").split())
    # "The plan raises spending" is a noun phrase and a verb, not a four-word noun phrase
    toks = G._WORD_RE.findall("The plan raises spending on schools")
    assert G._noun_phrases(toks) == [(0, 2)]
    assert "raises" not in g.note


def test_swap_gains_nothing_from_case_in_bleu():
    """Unigram counts are those of the original text: any change in BLEU comes from the order alone."""
    before = BLEU().corpus_score([COUNCIL], [[REF]])
    after = BLEU().corpus_score([G.swap_noun_phrases(COUNCIL).text], [[REF]])
    assert before.counts[0] == after.counts[0] and before.totals == after.totals


def test_swap_in_the_lab_page():
    app = BrowserLikeApp()
    app.at.switch_page("explainer/ui/pages/gaming_lab.py")
    app.at.query_params.update({"lab": "generators", "gen": "swap", "candidate": COUNCIL, "ref": REF})
    app.run()
    assert not app.exceptions, app.exceptions
    shown = " ".join(h.proto.body for h in app.at.get("html"))
    assert "The plan approved the city council." in shown


def test_text_typed_on_the_explain_page_carries_into_the_lab():
    app = BrowserLikeApp()
    app.set("text_area", "candidate", "my own candidate text")
    app.set("text_area", "ref_0", "my own reference text")
    app.switch_page("explainer/ui/pages/gaming_lab.py")
    app.at.session_state["lab_section"] = "generators"
    app.run()
    assert not app.exceptions, app.exceptions
    assert app.at.text_area(key="lab_cand_box").value == "my own candidate text"
    assert app.at.text_area(key="lab_refs_box").value == "my own reference text"
    assert any("Explain page" in c.value for c in app.at.caption)
    # edits made in the lab stay while the Explain page's texts do not change
    app.set("text_area", "lab_cand_box", "edited in the lab")
    app.switch_page("explainer/ui/pages/explain.py")
    assert app.at.text_area(key="candidate").value == "my own candidate text"  # the Explain page kept its text
    app.switch_page("explainer/ui/pages/gaming_lab.py")
    assert app.at.text_area(key="lab_cand_box").value == "edited in the lab"


def test_the_untouched_default_page_does_not_replace_the_labs_example():
    from explainer.ui.lab.link import DEFAULT_CAND

    app = BrowserLikeApp()
    app.switch_page("explainer/ui/pages/gaming_lab.py")
    app.at.session_state["lab_section"] = "generators"
    app.run()
    assert app.at.text_area(key="lab_cand_box").value == DEFAULT_CAND


def test_a_variant_label_does_not_repeat_its_role():
    """Issue 21: the lab showed "Honest (honest)" above the honest text of an attack preset; the role in brackets
    is only added when the label does not say it."""
    import re

    from explainer.attacks.presets import PRESETS

    app = BrowserLikeApp()
    app.at.switch_page("explainer/ui/pages/gaming_lab.py")
    app.at.query_params.update({"lab": "presets", "preset": "repetition"})
    app.run()
    assert not app.exceptions, app.exceptions
    shown = " ".join(h.proto.body for h in app.at.get("html"))
    labels = [re.sub(r"<[^>]+>", "", m) for m in re.findall(r'<div class="lab-tl">(.*?)</div>', shown)]
    first = PRESETS["repetition"].variants[0].label
    assert first in labels and not any(x.lower().count(first.lower()) > 1 for x in labels), labels
    assert any("(attack)" in x for x in labels), labels   # a role the label does not say is still given


def test_the_optimizer_starts_from_its_own_defaults_and_makes_word_salad():
    """Issue 21, defect 7: the optimizer's default (the fox sentence, maximising BLEU) only rebuilt the
    reference. Opened on the lab's untouched texts, the optimizer section starts from the optimizer's own default
    start and references and maximises ROUGE-1 F; the climb from there ends on word salad."""
    from explainer.attacks import optimizer as opt
    from tests.test_ui_lab import new_lab

    at = new_lab({"lab": "optimizer"})   # the lab's link opened in a new browser tab
    assert at.text_area(key="lab_cand_box").value == opt.DEFAULT_START
    assert at.text_area(key="lab_refs_box").value == "\n".join(opt.DEFAULT_REFERENCES)
    assert at.selectbox(key="lab_opt_target_box").value == opt.DEFAULT_TARGET == "rouge:rouge1"
    assert at.query_params["target"] == "rouge:rouge1"
    res = opt.default_run(seed=0)
    assert res.target == "rouge:rouge1" and res.source == opt.DEFAULT_START and opt.is_word_salad(res)
