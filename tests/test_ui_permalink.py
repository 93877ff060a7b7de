"""The Explain page's link: state -> query params -> state is the identity; bad values warn and fall back. The
link is read by the page-state engine (explainer.ui.pagestate, the page's fields in explainer.ui.explain.link)
and the shared settings codec (explainer.ui.settings, explainer.ui.schema)."""
from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import given
from hypothesis import strategies as st

from explainer.ui.explain.link import CHRF_PARAMS, PAGE, parse_link
from explainer.ui.pagestate import MAX_REFS, MAX_URL_TEXT, texts_fit
from explainer.ui.schema import FamilySchema, OptionSpec
from explainer.ui.settings import MetricSettings, apply_example_settings, format_settings

BLEU = FamilySchema("bleu_dialect", "sacrebleu", ("sacrebleu", "nltk"), {
    "sacrebleu": (
        OptionSpec("tokenize", "choice", "13a", param="tokenize", choices=("13a", "intl", "none", "char")),
        OptionSpec("lowercase", "bool", False, param="lowercase"),
        OptionSpec("smooth_method", "choice", "exp", param="smooth", choices=("exp", "floor", "add-k", "none")),
        OptionSpec("smooth_value", "optional_float", None, param="smooth_value", min=0.0),
        OptionSpec("max_ngram_order", "int", 4, param="max_order", min=1, max=10),
        OptionSpec("effective_order", "bool", None, param="effective_order"),   # a tristate
    ),
    "nltk": (
        OptionSpec("smoothing", "choice", "method0", param="smooth", choices=tuple(f"method{i}" for i in range(8))),
        OptionSpec("weights", "float_list", (0.25, 0.25, 0.25, 0.25), param="bleu_weights", max=10),
    ),
})
ROUGE = FamilySchema("rouge_dialect", "rouge-score", ("rouge-score", "rouge155"), {
    "rouge-score": (OptionSpec("use_stemmer", "bool", False, param="stem"),),
    "rouge155": (OptionSpec("use_stemmer", "bool", False, param="stem"),
                 OptionSpec("multi_ref", "choice", "A", param="rouge_multi_ref", choices=("A", "B"))),
})
TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4")
DEF_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


@dataclass
class State:
    """The link's whole state, flattened for the assertions."""

    candidate: str = ""
    refs: list = None
    bleu_dialect: str = ""
    bleu_options: dict = None
    rouge_dialect: str = ""
    rouge_types: tuple = ()
    rouge_options: dict = None
    example: str = ""
    ngram: str = ""
    colour: str = "order"
    rouge_ref: int = 0
    chrf: dict = field(default_factory=lambda: dict(CHRF_DEFAULTS))   # the chrF settings and order (link names)

    def settings(self) -> MetricSettings:
        return MetricSettings(self.bleu_dialect, self.bleu_options, self.rouge_dialect, self.rouge_types,
                              self.rouge_options)


CHRF_DEFAULTS = {f.param: f.default for f in PAGE.fields if f.param in CHRF_PARAMS or f.param == "chrf_order"}


def parse(params):
    link = parse_link(params, bleu=BLEU, rouge=ROUGE, type_choices=TYPES, default_types=DEF_TYPES)
    s = link.settings
    view = {k: v for k, v in link.view.items() if k not in CHRF_DEFAULTS}
    chrf = {k: v for k, v in link.view.items() if k in CHRF_DEFAULTS}
    return State(link.candidate, link.refs, s.bleu_dialect, dict(s.bleu_options), s.rouge_dialect, s.rouge_types,
                 dict(s.rouge_options), **view, chrf=chrf), link.warnings


def to_params(state: State, bleu=BLEU, rouge=ROUGE) -> dict:
    """The page's link of a state, as the page builds it (texts when they fit, every option of the chosen
    dialects, the view), with the test schemas."""
    out = {"candidate": state.candidate, "ref": list(state.refs)} if texts_fit(state.candidate, state.refs) else {}
    out.update(format_settings(state.settings(), bleu, rouge))
    out.update(PAGE.params({"example": state.example, "ngram": state.ngram, "colour": state.colour,
                            "rouge_ref": state.rouge_ref, **state.chrf}))
    return out


def _as_lists(d):
    return {k: (v if isinstance(v, list) else [v]) for k, v in d.items()}


def test_empty_params_give_defaults_without_warnings():
    state, warns = parse({})
    assert warns == []
    assert state.bleu_dialect == "sacrebleu" and state.rouge_dialect == "rouge-score"
    assert state.bleu_options == {"tokenize": "13a", "lowercase": False, "smooth_method": "exp",
                                  "smooth_value": None, "max_ngram_order": 4, "effective_order": None}
    assert state.rouge_types == DEF_TYPES and state.rouge_options == {"use_stemmer": False}


def test_issue_parameter_names():
    state, warns = parse({"candidate": ["the cat"], "ref": ["a cat", "the dog"], "bleu_dialect": ["sacrebleu"],
                          "tokenize": ["char"], "smooth": ["floor"], "lowercase": ["1"],
                          "rouge_dialect": ["rouge-score"], "stem": ["1"]})
    assert warns == []
    assert state.candidate == "the cat" and state.refs == ["a cat", "the dog"]
    assert state.bleu_options["tokenize"] == "char" and state.bleu_options["smooth_method"] == "floor"
    assert state.bleu_options["lowercase"] is True and state.rouge_options["use_stemmer"] is True


def test_bad_values_warn_and_fall_back():
    state, warns = parse({"bleu_dialect": ["bogus"], "tokenize": ["<script>"], "lowercase": ["maybe"],
                          "max_order": ["0"], "smooth_value": ["nan"], "stem": ["2"], "rouge_types": ["rouge1,rougeX"],
                          "zzz": ["1"]})
    assert state.bleu_dialect == "sacrebleu"
    assert state.bleu_options["tokenize"] == "13a" and state.bleu_options["lowercase"] is False
    assert state.bleu_options["max_ngram_order"] == 4 and state.bleu_options["smooth_value"] is None
    assert state.rouge_options["use_stemmer"] is False and state.rouge_types == ("rouge1",)
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
    assert warns == [] and state.colour == "reference" and state.rouge_ref == 1
    state, warns = parse({"ref": ["a", "b"], "colour": "plaid", "rouge_ref": "3"})
    assert state.colour == "order" and state.rouge_ref == 0
    assert any("plaid" in w for w in warns) and any("rouge_ref=3" in w for w in warns)


def test_long_texts_are_left_out_of_the_url():
    s, _ = parse({})
    s.candidate = "x" * (MAX_URL_TEXT + 1)
    p = to_params(s, BLEU, ROUGE)
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
    types=st.lists(st.sampled_from(TYPES), min_size=1, unique=True).map(tuple),
    colour=st.sampled_from(["order", "reference"]), rr=st.integers(0, MAX_REFS - 1),
)
def test_round_trip(cand, refs, dialect, tok, lc, sv, order, eff, weights, rd, stem, types, colour, rr):
    if dialect == "sacrebleu":
        bo = {"tokenize": tok, "lowercase": lc, "smooth_method": "exp", "smooth_value": sv,
              "max_ngram_order": order, "effective_order": eff}
    else:
        bo = {"smoothing": "method3", "weights": weights}
    ro = {"use_stemmer": stem} if rd == "rouge-score" else {"use_stemmer": stem, "multi_ref": "B"}
    s = State(candidate=cand, refs=refs, bleu_dialect=dialect, bleu_options=bo, rouge_dialect=rd,
              rouge_types=types, rouge_options=ro, example="cat_mat", ngram="the cat", colour=colour,
              rouge_ref=rr % len(refs))
    back, warns = parse(_as_lists(to_params(s, BLEU, ROUGE)))
    assert warns == []
    assert back == s


@given(chrf_dialect=st.sampled_from(["sacrebleu", "nltk"]), word_order=st.integers(0, 4),
       beta=st.floats(0, 10, allow_nan=False).map(lambda x: round(x, 3)), ws=st.booleans(),
       max_len=st.integers(1, 10), focus=st.integers(0, 13))
def test_round_trip_of_the_chrf_settings(chrf_dialect, word_order, beta, ws, max_len, focus):
    chrf = dict(CHRF_DEFAULTS, chrf_dialect=chrf_dialect, chrf_sacrebleu_word_order=word_order,
                chrf_sacrebleu_whitespace=ws, chrf_nltk_beta=beta, chrf_nltk_max_len=max_len, chrf_order=focus)
    s = State(candidate="a b", refs=["a"], bleu_dialect="sacrebleu", bleu_options=BLEU.defaults("sacrebleu"),
              rouge_dialect="rouge-score", rouge_types=DEF_TYPES, rouge_options=ROUGE.defaults("rouge-score"),
              chrf=chrf)
    back, warns = parse(_as_lists(to_params(s, BLEU, ROUGE)))
    assert warns == []
    assert back == s


def test_shared_parameter_the_dialect_lacks_warns():
    # nltk has no 'lowercase': a hand-made link asking for it must not be ignored silently
    state, warns = parse({"bleu_dialect": ["nltk"], "lowercase": ["1"]})
    assert state.bleu_options == {"smoothing": "method0", "weights": (0.25, 0.25, 0.25, 0.25)}
    assert len(warns) == 1 and "lowercase=1" in warns[0] and "nltk" in warns[0] and "bleu_weights" in warns[0]
    # prefixed options of another dialect stay silent (test_options_of_other_dialect_are_not_unknown)
    assert parse({"bleu_dialect": ["nltk"], "bleu_weights": ["0.5,0.5"]})[1] == []


def test_out_of_range_optional_value_names_the_default_in_words():
    state, warns = parse({"smooth_value": ["-1"]})
    assert state.bleu_options["smooth_value"] is None
    assert len(warns) == 1 and "None" not in warns[0] and "the dialect's default" in warns[0]


def test_apply_settings_explicit_params_win():
    state, _ = parse({"stem": ["0"]})
    s, _ = apply_example_settings(state.settings(), {"stem": "1", "lowercase": "1", "bleu_weights": "1"},
                                  skip={"stem"}, bleu=BLEU, rouge=ROUGE)
    assert s.rouge_options["use_stemmer"] is False      # the link said stem=0
    assert s.bleu_options["lowercase"] is True          # the example's setting
    state, _ = parse({})
    s, _ = apply_example_settings(state.settings(), {"stem": "1"}, bleu=BLEU, rouge=ROUGE)
    assert s.rouge_options["use_stemmer"] is True
