"""Numeric dialect options carry their bounds from the cores (``min``/``max``) to the page: a link with a value
outside them warns and falls back, and the cores themselves refuse it with a clear message (a link with
``rouge_alpha=5`` used to fail every ROUGE number on the page instead)."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from explainer.options import OptionSpec
from explainer.rouge import explain_rouge
from explainer.ui.families import ui_families
from tests.families_support import schema

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _bounded():
    for fam in (f.name for f in ui_families()):    # every registered family's options
        sch = schema(fam)
        for dialect in sch.dialects:
            for spec in sch.specs(dialect):
                if spec.kind in ("int", "float", "optional_float") and (spec.min is not None or spec.max is not None):
                    yield fam, sch.dialect_param, dialect, spec


def test_rouge155_numeric_options_are_bounded():
    specs = {s.name: s for fam, _, d, s in _bounded() if fam == "rouge" and d == "rouge155"}
    assert (specs["alpha"].min, specs["alpha"].max) == (0.0, 1.0)
    assert specs["length_limit"].min == 0 and specs["byte_limit"].min == 0


@pytest.mark.parametrize("opts,msg", [({"alpha": 5}, "alpha must be between 0 and 1"),
                                      ({"alpha": "nan"}, "alpha expects a finite number"),
                                      ({"length_limit": -3}, "length_limit must be at least 0")])
def test_core_refuses_out_of_range(opts, msg):
    with pytest.raises(ValueError, match=msg):
        explain_rouge("the cat", ["the cat"], dialect="rouge155", **opts)


def test_coerce_option_bounds():
    o = OptionSpec("x", "float", 0.5, "", min=0.0, max=1.0)
    assert o.coerce("1") == 1.0 and o.coerce(0) == 0.0
    with pytest.raises(ValueError, match="between 0 and 1"):
        o.coerce("1.5")
    assert OptionSpec("n", "int", 0, "", min=1).to_dict()["min"] == 1


def test_every_bounded_option_out_of_range_in_a_link_warns_and_falls_back():
    cases = list(_bounded())
    assert any(fam == "rouge" for fam, *_ in cases) and any(fam == "bleu" for fam, *_ in cases)
    for fam, dialect_param, dialect, spec in cases:
        bad = spec.max + 1 if spec.max is not None else spec.min - 1
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["example"] = "cat_mat"
        at.query_params[dialect_param] = dialect
        at.query_params[spec.param] = str(bad)
        at.run()
        where = f"{fam} {dialect} {spec.param}={bad}"
        assert not at.exception, where
        assert any(spec.param.replace("_", "\\_") in w.value for w in at.warning), where
        labels = [m.label for m in at.metric]
        values = [m.value for m in at.metric]
        # the page still shows numbers for the family whose option was bad (it fell back to the default)
        shown = values[0] if fam == "bleu" else values[labels.index("ROUGE-1")]
        assert shown not in ("—", "fails"), where


@pytest.mark.parametrize("value,ok", [("2", 2), (2.0, 2), (2.7, None), (True, None), ("x", None), ("-1", None)])
def test_int_options_follow_one_rule_in_both_cores(value, ok):
    """BLEU's max_ngram_order and ROUGE-1.5.5's length_limit are checked by the same rule (explainer.options):
    ROUGE used to turn 2.7 into 2 and True into 1 where BLEU refused them."""
    from explainer.bleu import explain_bleu

    for call in (lambda: explain_bleu("a b", ["a b"], max_ngram_order=value).options["max_ngram_order"],
                 lambda: explain_rouge("a b", ["a b"], dialect="rouge155", length_limit=value).options["length_limit"]):
        if ok is None:
            with pytest.raises(ValueError):
                call()
        else:
            assert call() == ok
