"""The shared metric-settings model (explainer.ui.settings): URL round trip for every dialect and option, the
keyword arguments the cores take, and the Explain page opened from a link the model builds."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from explainer.ui.families import DialectChoice, ui_families
from explainer.ui.settings import (
    MetricSettings,
    choice_for,
    default_settings,
    explain_link_params,
    put_settings,
    read_settings,
    settings_from_params,
    settings_to_params,
)
from tests.conftest import ROOT

APP = str(ROOT / "app.py")


def _value(spec, draw):
    if spec.kind == "bool":
        return draw(st.booleans())
    if spec.kind == "tristate":
        return draw(st.sampled_from([None, True, False]))
    if spec.kind == "choice":
        return draw(st.sampled_from(spec.choices))
    if spec.kind == "int":
        lo = int(spec.min) if spec.min is not None else -5
        hi = int(spec.max) if spec.max is not None else lo + 50
        return draw(st.integers(lo, hi))
    if spec.kind in ("float", "optional_float"):
        lo = spec.min if spec.min is not None else -1e6
        hi = spec.max if spec.max is not None else 1e6
        x = draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False))
        return None if spec.kind == "optional_float" and draw(st.booleans()) else x
    if spec.kind == "float_list":
        n = draw(st.integers(1, int(spec.max) if spec.max else 4))
        return tuple(draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n)))
    raise AssertionError(spec.kind)


@st.composite
def metric_settings(draw):
    """Every registered family: a dialect, a value of each of its options, its own values (ROUGE's types)."""
    choices = []
    for fam in ui_families():
        d = draw(st.sampled_from(fam.dialects()))
        opts = {s.name: _value(s, draw) for s in fam.option_specs(d)}
        for f in fam.extra_fields():
            picked = draw(st.lists(st.sampled_from(f.spec.choices), min_size=1, max_size=4, unique=True))
            opts[fam.extra_option(f)] = tuple(c for c in f.spec.choices if c in picked)   # a set, in one order
        choices.append(DialectChoice(fam.name, d, opts))
    return MetricSettings({c.family: c for c in choices})


@hsettings(max_examples=150, deadline=None)
@given(metric_settings())
def test_url_round_trip_is_the_identity(s):
    params = settings_to_params(s)
    back, warns = settings_from_params({k: [v] for k, v in params.items()})
    assert warns == []
    assert back == s


@hsettings(max_examples=60, deadline=None)
@given(metric_settings())
def test_session_round_trip_is_the_identity(s):
    ss: dict = {}
    put_settings(s, ss)
    back, warns = read_settings(ss)
    assert warns == [] and back == s


def test_defaults_and_core_keyword_arguments():
    from explainer.bleu import explain_bleu
    from explainer.rouge import explain_rouge

    s = default_settings()
    assert [s[f.name].dialect for f in ui_families()] == [f.core.default_dialect for f in ui_families()]
    bt = explain_bleu("the cat", ["the cat sat"], **s["bleu"].kwargs())
    rouge_trace = explain_rouge("the cat", ["the cat sat"], **s["rouge"].kwargs())
    assert bt.dialect == s["bleu"].dialect and rouge_trace.dialect == s["rouge"].dialect
    assert set(rouge_trace.scores) == set(s["rouge"].options["types"])
    for fam in ui_families():     # every family's choice binds to its default dialect
        assert s[fam.name].bind() == fam.core.bind()


def test_settings_are_a_value():
    s = default_settings()
    with pytest.raises(TypeError):
        s["bleu"].options["lowercase"] = True  # read-only: a shared model nobody can change behind one's back
    assert hash(s) == hash(default_settings()) and s == default_settings()


def test_foreign_parameters_are_ignored_bad_values_warn():
    s, warns = settings_from_params({"candidate": ["x"], "lab": ["presets"], "tokenize": ["<b>"]})
    assert s["bleu"].options["tokenize"] == "13a"
    assert len(warns) == 1 and "tokenize" in warns[0]


def test_explain_link_opens_the_explain_page_with_the_same_settings():
    """What the Corpus page does for a segment: an Explain link from the model shows those settings."""
    s = MetricSettings().replace(
        choice_for("bleu", "sacrebleu", {"lowercase": True, "smooth_method": "floor", "tokenize": "char"}),
        choice_for("rouge", "rouge155", {"use_stemmer": True}, types=("rouge1", "rougeL")),
        choice_for("chrf", "sacrebleu", {"word_order": 2}))
    params = explain_link_params("The cat sat", ["the cat", "a cat sat"], s)
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown, warns = read_settings(at.session_state)
    assert warns == [] and shown == s
    assert at.text_area(key="candidate").value == "The cat sat"
    assert at.selectbox(key="bleu_dialect").value == "sacrebleu"
    assert at.checkbox(key="bleu_opt:sacrebleu:lowercase").value is True


def test_settings_survive_another_page_and_are_shared():
    """Settings changed on the Explain page are what the next page (and the Explain page again) gets."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.selectbox(key="bleu_dialect").set_value("nltk").run()
    at.switch_page("explainer/ui/pages/gaming_lab.py").run()
    assert not at.exception
    from explainer.ui.settings import SESSION_KEY

    assert at.session_state[SESSION_KEY]["bleu"].dialect == "nltk"
    at.switch_page("explainer/ui/pages/explain.py").run()
    assert not at.exception
    assert at.selectbox(key="bleu_dialect").value == "nltk"


@pytest.mark.parametrize("params,needle", [
    ({"max_order": "٣"}, "“max_order=٣” is not a whole number (1–10); using 4."),   # int() reads it as 3
    ({"max_order": "３"}, "is not a whole number"),                                   # a full-width 3
    ({"smooth_value": "١.٥"}, "“smooth_value=١.٥” is not a number or default"),        # float() reads 1.5
    ({"bleu_dialect": "nltk", "bleu_weights": "٠.٥,0.5"}, "is not a list of numbers"),
    ({"rouge_dialect": "rouge155", "rouge_length_limit": "9" * 4000}, "has more than 18 digits"),
    ({"rouge_dialect": "rouge155", "rouge_length_limit": "9" * 19}, "has more than 18 digits"),
])
def test_link_numbers_are_ascii_and_bounded_before_conversion(params, needle):
    """A link's number is read only in the digits 0-9 (as the CLI does; float() reads '١.٥' as 1.5) and bounded
    before int(): a 4,000-digit word limit was told it "must be at least 0", then "is not a whole number"."""
    settings, warns = settings_from_params({k: [v] for k, v in params.items()})
    assert len(warns) == 1 and needle in warns[0], warns
    assert "at least" not in warns[0]
    assert settings == settings_from_params({k: [v] for k, v in params.items() if k.endswith("dialect")})[0]


def test_link_numbers_in_ascii_still_read():
    settings, warns = settings_from_params({"max_order": ["+3"], "smooth_value": [".5"], "rouge_dialect":
                                            ["rouge155"], "rouge_length_limit": [" 12 "]})
    assert warns == []
    assert settings["bleu"].options["max_ngram_order"] == 3 and settings["bleu"].options["smooth_value"] == 0.5
    assert settings["rouge"].options["length_limit"] == 12
