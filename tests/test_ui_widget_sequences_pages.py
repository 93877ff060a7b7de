"""No click crashes, as a property of every page (issue 18): random widget sequences on the Dialects, Corpus,
Gaming lab and Teach pages (the Explain page's are in test_ui_widget_sequences.py).

Each seed drives one reproducible sequence of what a user does on one page, through
:class:`tests.ui_driver.BrowserLikeApp` (choice widgets send back the labels the browser holds): any widget the
page shows (by key or label, nothing about the page's internals), and between those steps switches of the
page's examples, lessons, modes, metrics and dialects. After every step the page must have run without an
exception; at random points the link in the address bar is opened in a new session and must show the same view
(the keyed widgets' values and the page's key numbers). A failure names the seed and the steps.

The default run is a sample (``SEEDS`` × ``STEPS`` per page, every page and its modes); ``-m slow`` runs the
full 40 sequences of 10 steps per page.
"""
from __future__ import annotations

import importlib.util
import re

import pytest

from explainer.examples import EXAMPLES
from explainer.families import FAMILIES
from tests.ui_driver import PageSpec, run_sequence

FULL_SEEDS, FULL_STEPS = 40, 10


def _html(app) -> str:
    return "".join(h.proto.body for h in app.at.get("html"))


def _frames(app) -> list:
    """The tables' cells as shown (NaN as an empty cell: NaN is not equal to itself)."""
    return [[list(d.value.columns)] + d.value.astype(object).where(d.value.notna(), "").values.tolist()
            for d in app.at.dataframe]


# ------------------------------------------------------------------------------------------------ Teach
def _teach_numbers(app):
    """The step shown (family, title, 'step i of n') or the exercise shown, and the score line."""
    body = _html(app)
    return (re.findall(r'<div class="tc-title">(.*?)</div>', body), [m.value for m in app.at.markdown
                                                                     if m.value.startswith("**Score")])


def _teach_link_ok(app) -> bool:
    # own texts longer than a link carries are left out of it (said on the page): nothing to read back
    return "text" not in app.query


def _teach_exclude(app) -> set[str]:
    # the answers typed and the LCS table's fill slider are the student's own, not the lesson's; an exercise set
    # does not depend on the lesson's source (the sidebar keeps it, its link leaves it out)
    own = {"large_text", "tch_answer_*", "tch_set_answer_*", "tch_atk_*", "tch_cells_*"}
    if app.query.get("mode") == ["practice"]:
        own |= {"tch_source", "tch_example", "tch_preset", "tch_variant", "tch_cand", "tch_ref_*", "tch_order"}
    return own


TEACH = PageSpec(
    "teach",
    starts=[lambda r: {}, lambda r: {"example": r.choice(EXAMPLES).id},
            lambda r: {"example": r.choice(EXAMPLES).id, "mode": "student"},
            lambda r: {"preset": r.choice(["word-salad", "permutation", "stem-mismatch"])},
            lambda r: {"candidate": "the the the the", "ref": ["the cat is on the mat", "there is a cat"]},
            lambda r: {"mode": "practice", "seed": str(r.randrange(20)), "level": r.choice(["easy", "medium"]),
                       "n": "6", "item": "1"},
            # every family's exercise sets and lessons (the "Lesson of" choice; chrf++: an earlier version's value)
            lambda r: {"mode": "practice", "seed": str(r.randrange(20)), "level": r.choice(["easy", "hard"]),
                       "n": "6", "item": "1", "metric": r.choice(["chrf", "chrf++", "ter", "bleu,ter"])},
            lambda r: {"example": r.choice(EXAMPLES).id, "metric": r.choice(["chrf", "ter", "bleu,rouge,chrf,ter"])},
            # presenting (projector / presenter windows of one room) and the ready-made demo
            lambda r: {"example": r.choice(EXAMPLES).id, "view": r.choice(["projector", "presenter"]),
                       "room": "%016x" % r.getrandbits(64)},
            lambda r: {"example": r.choice(EXAMPLES).id, "demo": str(r.randint(1, 3))}],
    switches=["tch_mode", "tch_source", "tch_example", "tch_example", "tch_preset", "tch_variant", "tch_step",
              "tch_order", "tch_item", "tch_level", "bleu_dialect", "rouge_dialect", "tch_lecture"],
    # the answers typed and the LCS table's fill slider are the student's own, not the lesson's
    exclude=_teach_exclude, numbers=_teach_numbers,
    link_ok=_teach_link_ok,
)


# ------------------------------------------------------------------------------------------------ Dialects
def _dialects_numbers(app):
    return _frames(app), re.findall(r'data-testid="dl-divergence">(.*?)</div>', _html(app))


DIALECTS = PageSpec(
    "dialects",
    # every registered family in the metric picker (the dl_metric switch picks among them too)
    starts=[lambda r: {}, lambda r: {"candidate": "the cat sat on the mat", "ref": ["the cat is on the mat"],
                                     "metric": r.choice(list(FAMILIES))},
            lambda r: {"candidate": "a b c", "ref": ["a b", "b c"], "metric": "rouge"}],
    switches=["dl_example", "dl_metric", "dl_a", "dl_b", "dl_head",
              lambda app, r: app.open_tab(r.choice(["Side by side", "Reproduce a number"]), key="dl_tab")
              and "open a tab"],
    # "Load a worked example" and the textbook claim picker load texts; they are not a state of the page
    exclude={"dl_example", "dl_builtin", "dl_head"}, numbers=_dialects_numbers,
)


# ------------------------------------------------------------------------------------------------ Gaming lab
def _lab_numbers(app):
    """The references as the lab reads them (one per non-empty line, stripped: the link carries them so)."""
    boxes = [t.value for t in app.at.text_area if t.key == "lab_refs_box"]
    return [[ln.strip() for ln in b.splitlines() if ln.strip()] for b in boxes]


LAB = PageSpec(
    "lab",
    # every start with the optimizer's smallest budget (three steps, half a second at most; the link keeps them)
    starts=[lambda r: {"budget": "0.5", "steps": "3"},
            lambda r: {"lab": r.choice(["presets", "generators", "sweeps", "optimizer"]), "budget": "0.5",
                       "steps": "3"},
            lambda r: {"lab": "optimizer", "budget": "0.5", "steps": "3", "seed": str(r.randrange(100)),
                       "target": r.choice(["bleu:score", "ter:score", "rouge1_f"])},
            # a preset presented on a projector; the outlier demonstration; a sweep's figure as the user set it
            lambda r: {"preset": r.choice(["permutation", "word-salad", "tokenizer", "corpus-bp"]), "view": "present"},
            lambda r: {"preset": "small-differences", "wmt": r.choice(["de-cs", "en-de", "gu-en"])},
            lambda r: {"lab": "sweeps", "knob": r.choice(["length", "repetitions", "stuffing"]),
                       "yrange": r.choice(["auto", "fixed"]), "title": "A figure for the talk", "budget": "0.5",
                       "steps": "3"}],
    switches=["lab_section", "lab_section", "lab_preset", "lab_gen_box", "lab_sweep_box", "lab_opt_target_box",
              "lab_sw_series", "lab_sw_yrange", "lab_wmt_lp", "lab_wmt_metric"],
    # kept across sections but not in the link: the generators' parameters, the sweeps' own inputs and the G3
    # corpus texts
    exclude={"large_text", "lab_gen_*", "lab_sw_len", "lab_sw_pad", "lab_sw_trials", "lab_sw_seed", "lab_sw_n",
             "lab_sw_word", "lab_sw_reps", "lab_pad_*", "lab_refs_box"}, numbers=_lab_numbers,
    # the optimizer's budget stays the smallest; the sweeps stay small
    fixed={"lab_opt_budget": 0.5, "lab_opt_steps": 3, "lab_sw_len": 40, "lab_sw_trials": 2, "lab_sw_reps": 10,
           "lab_sw_n": 10},
)


# ------------------------------------------------------------------------------------------------ Corpus
CORPUS = PageSpec(
    "corpus",
    # every registered family can be the one looked at; several in the scores table (issue 29, item 3)
    starts=[lambda r: {"sample": "news-zh", "metric": r.choice(list(FAMILIES))},
            lambda r: {"sample": "news-en"},
            lambda r: {"sample": "news-en", "metric": r.choice(list(FAMILIES)),
                       "also": ",".join(r.sample(list(FAMILIES), 2))}],
    switches=["cp_metric", "cp_also", "cp_baseline", "cp_system", "cp_view_sys", "cp_measure", "cp_differ_view",
              "cp_view_family", "cp_impl_a", "cp_impl_b", "bleu_dialect", "rouge_dialect", "rouge_types",
              "cp_chrf_ngram_order", "cp_impl_chrf_a", "cp_impl_chrf_b"],
    # not in the link (docs/corpus.md lists what is): the input form (the sample loaded is), the table's search
    # and filter, the chart format, the names given to the systems (the headline metrics' labels show them: their
    # values are compared), the segment's step-by-step view and the implementations compared (computed on
    # demand); the language-pair field (what it sets, the tokenizer, is in the link); chrF's n-gram order, and the
    # order its segment view shows (as BLEU's "ngram"), the reference each family's step-by-step section shows
    exclude={"rouge_ref", "ter_ref", "sem_ref", "cp_source", "cp_sample", "cp_search", "cp_show", "cp_chart_format",
             "large_text", "cp_name_*",
             "cp_langpair", "cp_view_family", "colour", "ngram", "cp_impl_*", "(metrics)", "cp_rep_claim",
             "cp_rep_metric", "cp_chrf_ngram_order", "chrf_order", "cp_sort", "cp_sort_desc", "cp_table_page",
             "cp_seg_charts", "cp_sec_*", "cp_matrix_open"},
    numbers=lambda app: [m.value for m in app.at.metric],
    fixed={"cp_test_n_bs": 100, "cp_test_n_ar": 100},
)

SPECS = {"teach": TEACH, "dialects": DIALECTS, "lab": LAB, "corpus": CORPUS}
DEFAULT = {"teach": (16, 10), "dialects": (10, 10), "lab": (10, 10), "corpus": (6, 10)}

# Issue 18's two Teach crashes (Next after the step list changed; Next / Previous after Check) are fixed on the
# branch that brings explainer.ui.pagestate; until it is merged the Teach sequences may hit them. The marker goes
# away by itself with that module: from then on the Teach sequences are as strict as the others.
TEACH_CRASHES_FIXED = importlib.util.find_spec("explainer.ui.pagestate") is not None
KNOWN_TEACH_CRASH = pytest.mark.xfail(not TEACH_CRASHES_FIXED, strict=False,
                                      reason="issue 18 crashes 1-2 (Teach), fixed with explainer.ui.pagestate")


def _cases(seeds: dict[str, int]) -> list:
    return [pytest.param(p, s, id=f"{p}-{s}", marks=[KNOWN_TEACH_CRASH] if p == "teach" else [])
            for p, n in seeds.items() for s in range(n)]


@pytest.mark.parametrize("page,seed", _cases({p: n for p, (n, _) in DEFAULT.items()}))
def test_random_widget_sequence_never_raises(page, seed):
    run_sequence(SPECS[page], seed, DEFAULT[page][1])


@pytest.mark.slow
@pytest.mark.parametrize("page,seed", _cases(dict.fromkeys(SPECS, FULL_SEEDS)))
def test_random_widget_sequence_never_raises_full(page, seed):
    run_sequence(SPECS[page], seed, FULL_STEPS)


# --------------------------------------------------------------------- sequences that failed, kept as they were
def _reopened_same(app, spec):
    from tests.ui_driver import check_link

    check_link(app, spec, ["regression"])


def test_dialects_headline_rouge_type_is_in_the_link():
    """Dialects, seed 0 (shortened): the headline ROUGE type changes the chart and the table's columns, but the
    link left it out, so the link opened the page on ROUGE-1."""
    from tests.ui_driver import BrowserLikeApp

    app = BrowserLikeApp({"candidate": "the cat sat on the mat", "ref": ["the cat is on the mat"], "metric": "rouge"},
                         page="dialects")
    app.select("dl_head", "rougeL")
    assert not app.exceptions and app.query["head"] == ["rougeL"]
    assert list(app.at.dataframe[0].value.columns)[1] == "rougeL F"
    _reopened_same(app, DIALECTS)
    again = app.reopen()
    assert again.at.selectbox(key="dl_head").value == "rougeL"


def test_lab_no_move_and_no_reference_are_in_the_link():
    """Gaming lab, seeds 2 and 5 of the sequences: with no optimizer move chosen, or every reference box line
    blank, the link said nothing, so it opened with every move and with the default references."""
    from tests.ui_driver import BrowserLikeApp

    app = BrowserLikeApp({"lab": "optimizer", "budget": "0.5"}, page="lab")
    app.select("lab_opt_moves", [], kind="multiselect")
    assert not app.exceptions and app.query["moves"] == [""]
    again = app.reopen()
    assert again.at.multiselect(key="lab_opt_moves").value == []
    assert any("Choose at least one move" in w.value for w in again.at.warning)
    _reopened_same(app, LAB)
    app.set("text_area", "lab_refs_box", "   ")
    assert not app.exceptions and app.query["ref"] == [""]
    again = app.reopen()
    assert again.at.text_area(key="lab_refs_box").value == ""
    assert any("Add at least one reference" in w.value for w in again.at.warning)
    _reopened_same(app, LAB)


def test_corpus_sample_link_keeps_the_default_rouge_types():
    """Corpus, seed 0: ``corpus?sample=news-zh&metric=rouge`` (a sample with its own suggested settings) opened
    with no ROUGE type at all ("Select at least one ROUGE type"), and its link then said ``rouge_types=``: the
    sample's settings were put on top of settings read before any widget existed, where no pick yet was taken
    for an empty pick."""
    from tests.ui_driver import BrowserLikeApp

    app = BrowserLikeApp({"sample": "news-zh", "metric": "rouge"}, page="corpus")
    assert not app.exceptions
    assert app.at.multiselect(key="rouge_types").value == ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    assert not [w for w in app.at.warning if "ROUGE type" in w.value]
    assert app.query["tokenize"] == ["zh"] and app.query["rouge_types"] == ["rouge1,rouge2,rougeL,rougeLsum"]
    _reopened_same(app, CORPUS)


@KNOWN_TEACH_CRASH
def test_teach_next_after_the_step_list_changed():
    """Issue 18 crash 1 (Teach seeds 10 and 21 hit it too): a worked example whose lesson has another number of
    steps, then Next: the browser sent the old label '1 / 15 · BLEU · …' back and Next crashed (int() of it)."""
    from tests.ui_driver import BrowserLikeApp

    app = BrowserLikeApp({}, page="teach")
    app.select("tch_example", "papineni_the")
    app.click("tch_next")
    assert not app.exceptions, app.exceptions
    _reopened_same(app, TEACH)


@KNOWN_TEACH_CRASH
def test_exercise_set_next_and_previous_after_check():
    """Issue 18 crash 2: an exercise set, an answer checked (its label gets a tick), then Next and Previous."""
    from tests.ui_driver import BrowserLikeApp

    app = BrowserLikeApp({"mode": "practice", "seed": "1", "level": "easy", "n": "6", "item": "1"}, page="teach")
    box = next(t for t in app.at.text_input if (t.key or "").startswith("tch_set_answer_"))
    box.set_value("3")   # a count (a whole number is asked)
    next(b for b in app.at.button if b.label == "Check").click()
    app.run()
    for key in ("tch_item_next", "tch_item_prev"):
        app.click(key)
        assert not app.exceptions, (key, app.exceptions)
    assert app.query["item"] == ["1"]
    _reopened_same(app, TEACH)


def test_corpus_link_keeps_the_baseline_when_a_typed_name_is_refused():
    """Corpus, seed 3: a system renamed to a blank name (refused: the page uses the file names), then another
    baseline picked: the link left the baseline and the system out (it looked them up among the typed names), so
    the link read back compared against the first system."""
    from tests.ui_driver import BrowserLikeApp

    app = BrowserLikeApp({"sample": "news-zh", "metric": "bleu"}, page="corpus")
    app.set("text_input", "cp_name_1", "   ")
    assert any("file names" in w.value for w in app.at.warning)
    app.select("cp_baseline", "system-b")
    assert not app.exceptions
    assert app.query["baseline"] == ["system-b"] and app.query["system"] in (["system-a"], ["system-b"])
    _reopened_same(app, CORPUS)


def test_exercise_set_link_keeps_settings_equal_to_the_lessons_source():
    """Teach, seed 25 of the full run: a gaming-lab preset's lesson, then the exercise set and a setting equal
    to the preset's own (sentence_bleu): the link left it out (it states only what differs from the lesson's
    source), but an exercise set's link has no source, so the link read back showed the default setting."""
    from tests.ui_driver import BrowserLikeApp

    app = BrowserLikeApp({"preset": "permutation"}, page="teach")
    app.select("tch_mode", "practice", kind="button_group")
    app.select("bleu_opt:sacrebleu:api", "sentence_bleu")
    assert not app.exceptions and app.query["bleu_api"] == ["sentence_bleu"]
    assert app.reopen().at.selectbox(key="bleu_opt:sacrebleu:api").value == "sentence_bleu"
    _reopened_same(app, TEACH)
