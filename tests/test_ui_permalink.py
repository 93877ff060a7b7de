"""The Explain page's link: state -> query params -> state is the identity; bad values warn and fall back. The
link is read by the page-state engine (explainer.ui.pagestate, the page's fields in explainer.ui.explain.link)
and the families' settings (explainer.ui.settings, explainer.ui.families): one codec, ``pagestate.Field``."""
from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st

from explainer.ui.explain.link import PAGE, parse_link
from explainer.ui.families.rouge import TYPE_CHOICES
from explainer.ui.pagestate import MAX_REFS, MAX_URL_TEXT, texts_fit
from explainer.ui.settings import (
    MetricSettings,
    apply_example_settings,
    choice_for,
    default_settings,
    settings_to_params,
)

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4")
DEF_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
VIEW_DEFAULTS = {f.param: f.default for f in PAGE.fields}


@dataclass
class State:
    """The link's whole state: texts, settings, view (by link name)."""

    candidate: str = ""
    refs: list = None
    settings: MetricSettings = field(default_factory=default_settings)
    view: dict = field(default_factory=lambda: dict(VIEW_DEFAULTS, rouge_ref=0))

    def options(self, family: str) -> dict:
        return dict(self.settings[family].options)


def parse(params):
    link = parse_link(params)
    return State(link.candidate, link.refs, link.settings, dict(link.view)), link.warnings


def to_params(state: State) -> dict:
    """The page's link of a state, as the page builds it (texts when they fit, every family's settings, the
    view)."""
    out = {"candidate": state.candidate, "ref": list(state.refs)} if texts_fit(state.candidate, state.refs) else {}
    out.update(settings_to_params(state.settings))
    out.update(PAGE.params(state.view))
    return out


def _as_lists(d):
    return {k: (v if isinstance(v, list) else [v]) for k, v in d.items()}


def test_empty_params_give_defaults_without_warnings():
    state, warns = parse({})
    assert warns == []
    assert state.settings["bleu"].dialect == "sacrebleu" and state.settings["rouge"].dialect == "rouge-score"
    assert state.options("bleu") == {"tokenize": "13a", "lowercase": False, "smooth_method": "exp",
                                     "smooth_value": None, "max_ngram_order": 4, "effective_order": None,
                                     "api": "corpus_bleu", "force": False}
    assert state.options("rouge") == {"use_stemmer": False, "multi_ref": "best-f", "tokenizer": "rouge-score",
                                      "split_summaries": False, "types": DEF_TYPES}


def test_issue_parameter_names():
    state, warns = parse({"candidate": ["the cat"], "ref": ["a cat", "the dog"], "bleu_dialect": ["sacrebleu"],
                          "tokenize": ["char"], "smooth": ["floor"], "lowercase": ["1"],
                          "rouge_dialect": ["rouge-score"], "stem": ["1"]})
    assert warns == []
    assert state.candidate == "the cat" and state.refs == ["a cat", "the dog"]
    b = state.options("bleu")
    assert b["tokenize"] == "char" and b["smooth_method"] == "floor" and b["lowercase"] is True
    assert state.options("rouge")["use_stemmer"] is True


def test_bad_values_warn_and_fall_back():
    state, warns = parse({"bleu_dialect": ["bogus"], "tokenize": ["<script>"], "lowercase": ["maybe"],
                          "max_order": ["0"], "smooth_value": ["nan"], "stem": ["2"], "rouge_types": ["rouge1,rougeX"],
                          "zzz": ["1"]})
    b = state.options("bleu")
    assert state.settings["bleu"].dialect == "sacrebleu"
    assert b["tokenize"] == "13a" and b["lowercase"] is False
    assert b["max_ngram_order"] == 4 and b["smooth_value"] is None
    assert state.options("rouge")["use_stemmer"] is False and state.options("rouge")["types"] == ("rouge1",)
    text = "\n".join(warns)
    for needle in ("bogus", "<script>", "maybe", "max_order=0", "smooth_value=nan", "stem=2", "rougeX", "zzz"):
        assert needle in text, needle
    assert len(warns) == 8


def test_too_many_refs_are_cut_with_a_warning():
    state, warns = parse({"ref": [f"r{i}" for i in range(MAX_REFS + 3)]})
    assert state.refs == [f"r{i}" for i in range(MAX_REFS)]
    assert any("at most" in w for w in warns)


def test_options_of_other_dialect_are_not_unknown():
    # a link made with NLTK and then switched back keeps NLTK's params harmlessly
    state, warns = parse({"bleu_dialect": ["sacrebleu"], "bleu_weights": ["0.5,0.5"]})
    assert warns == []


def test_view_params_validated():
    state, warns = parse({"ref": ["a", "b"], "colour": "reference", "rouge_ref": "2"})
    assert warns == [] and state.view["colour"] == "reference" and state.view["rouge_ref"] == 1
    state, warns = parse({"ref": ["a", "b"], "colour": "plaid", "rouge_ref": "3"})
    assert state.view["colour"] == "order" and state.view["rouge_ref"] == 0
    assert any("plaid" in w for w in warns) and any("rouge_ref=3" in w for w in warns)


def test_long_texts_are_left_out_of_the_url():
    s, _ = parse({})
    s.candidate = "x" * (MAX_URL_TEXT + 1)
    p = to_params(s)
    assert "candidate" not in p and "ref" not in p and p["bleu_dialect"] == "sacrebleu"


texts = st.text(max_size=40)


@given(
    cand=texts, refs=st.lists(texts, min_size=1, max_size=MAX_REFS),
    dialect=st.sampled_from(["sacrebleu", "nltk"]),
    tok=st.sampled_from(["13a", "intl", "none", "char"]), lc=st.booleans(),
    sv=st.one_of(st.none(), st.floats(0, 100, allow_nan=False)), order=st.integers(1, 10),
    eff=st.sampled_from([None, True, False]),
    weights=st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=10).map(tuple),
    rd=st.sampled_from(["rouge-score", "rouge155"]), stem=st.booleans(),
    types=st.lists(st.sampled_from(TYPES), min_size=1, unique=True).map(
        lambda ts: tuple(t for t in TYPE_CHOICES if t in ts)),
    colour=st.sampled_from(["order", "reference"]), rr=st.integers(0, MAX_REFS - 1),
)
def test_round_trip(cand, refs, dialect, tok, lc, sv, order, eff, weights, rd, stem, types, colour, rr):
    if dialect == "sacrebleu":
        bo = {"tokenize": tok, "lowercase": lc, "smooth_method": "exp", "smooth_value": sv,
              "max_ngram_order": order, "effective_order": eff}
    else:
        bo = {"smoothing": "method3", "weights": weights}
    ro = {"use_stemmer": stem} if rd == "rouge-score" else {"use_stemmer": stem, "multi_ref": "best-recall"}
    settings = default_settings().replace(choice_for("bleu", dialect, bo), choice_for("rouge", rd, ro, types=types))
    s = State(candidate=cand, refs=refs, settings=settings,
              view=dict(VIEW_DEFAULTS, example="cat_mat", ngram="the cat", colour=colour, rouge_ref=rr % len(refs)))
    back, warns = parse(_as_lists(to_params(s)))
    assert warns == []
    assert back == s


@given(chrf_dialect=st.sampled_from(["sacrebleu", "nltk"]), word_order=st.integers(0, 2),
       beta=st.floats(0, 10, allow_nan=False).map(lambda x: round(x, 3)), ws=st.booleans(),
       max_len=st.integers(1, 10), focus=st.integers(0, 13))
def test_round_trip_of_the_chrf_settings(chrf_dialect, word_order, beta, ws, max_len, focus):
    chrf = (choice_for("chrf", "sacrebleu", {"word_order": word_order, "whitespace": ws}) if chrf_dialect ==
            "sacrebleu" else choice_for("chrf", "nltk", {"beta": beta, "max_len": max_len}))
    s = State(candidate="a b", refs=["a"], settings=default_settings().replace(chrf),
              view=dict(VIEW_DEFAULTS, chrf_order=focus))
    back, warns = parse(_as_lists(to_params(s)))
    assert warns == []
    assert back == s


def test_shared_parameter_the_dialect_lacks_warns():
    # nltk has no 'lowercase': a hand-made link asking for it must not be ignored silently
    state, warns = parse({"bleu_dialect": ["nltk"], "lowercase": ["1"]})
    assert state.options("bleu") == choice_for("bleu", "nltk").options
    assert len(warns) == 1 and "lowercase=1" in warns[0] and "nltk" in warns[0] and "bleu_weights" in warns[0]
    # prefixed options of another dialect stay silent (test_options_of_other_dialect_are_not_unknown)
    assert parse({"bleu_dialect": ["nltk"], "bleu_weights": ["0.5,0.5"]})[1] == []


def test_out_of_range_optional_value_names_the_default_in_words():
    state, warns = parse({"smooth_value": ["-1"]})
    assert state.options("bleu")["smooth_value"] is None
    assert len(warns) == 1 and "None" not in warns[0] and "the dialect's default" in warns[0]


def test_apply_settings_explicit_params_win():
    state, _ = parse({"stem": ["0"]})
    s, _ = apply_example_settings(state.settings, {"stem": "1", "lowercase": "1", "bleu_weights": "1"},
                                  skip={"stem"})
    assert s["rouge"].options["use_stemmer"] is False      # the link said stem=0
    assert s["bleu"].options["lowercase"] is True          # the example's setting
    state, _ = parse({})
    s, _ = apply_example_settings(state.settings, {"stem": "1"})
    assert s["rouge"].options["use_stemmer"] is True
