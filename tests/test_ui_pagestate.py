"""The page-state engine (explainer.ui.pagestate), without a browser: a link is read value by value, every value
bounded before it is converted, one warning per dropped or clamped value in one format, and what a page writes
reads back as the same values; a choice widget's stored value is reconciled with the options it is drawn with."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from explainer.options import OptionSpec
from explainer.ui.pagestate import Field, Page, read_texts

PAGE = Page("t", (
    Field(OptionSpec("mode", "choice", "walk", choices=("walk", "student")), "t_mode"),
    Field(OptionSpec("seed", "int", 1, min=0, max=1000), "t_seed", what="a seed"),
    Field(OptionSpec("step", "int", 0, min=0, max=99), "t_step", base=1, what="a step"),
    Field(OptionSpec("notes", "bool", False), "t_notes"),
    Field(OptionSpec("budget", "float", 3.0, min=0.5, max=15.0), "t_budget", step=0.5),
    Field(OptionSpec("moves", "choice", ("a", "b", "c"), choices=("a", "b", "c")), "t_moves", multi=True),
    Field(OptionSpec("claim", "text", "", max=20), "t_claim"),
), known=lambda: {"smooth"}, max_chars=100)


def read(params):
    warns: list[str] = []
    return PAGE.read({k: [v] if isinstance(v, str) else v for k, v in params.items()}, warns), warns


def test_absent_values_are_the_defaults_without_a_warning():
    values, warns = read({})
    assert warns == [] and values == {"mode": "walk", "seed": 1, "step": 0, "notes": False, "budget": 3.0,
                                      "moves": ["a", "b", "c"], "claim": ""}


@pytest.mark.parametrize("param,raw,needle", [
    ("mode", "cinema", "“mode=cinema” is not one of walk, student; using walk."),
    ("seed", "1001", "“seed=1001” is not a seed (0–1,000); using 1."),
    ("seed", "²", "is not a seed"),                       # str.isdigit, but int() refuses it
    ("seed", "٣", "is not a seed"),                       # a digit int() takes, but not an ASCII one
    ("seed", "9" * 4301, "too long"),                     # bounded before int() (Python refuses > 4,300 digits)
    ("step", "0", "“step=0” is not a step (1–100); using 1."),
    ("notes", "maybe", "is not on or off"),
    ("budget", "1.3", "in steps of 0.5"),
    ("budget", "nan", "in steps of 0.5"),
    ("budget", "١.٥", "in steps of 0.5"),                 # float() reads it as 1.5; a link's digits are ASCII
    ("moves", "teleport", "is not a comma-separated list of a, b, c"),
    ("claim", "x" * 21, "The link's claim is longer than 20 characters"),
])
def test_a_bad_value_gives_one_warning_and_the_default(param, raw, needle):
    values, warns = read({param: raw})
    assert len(warns) == 1 and needle in warns[0], warns
    assert values[param] == PAGE[param].default


def test_good_values_and_what_the_page_writes_read_back():
    values, warns = read({"mode": "student", "seed": "7", "step": "3", "notes": "on", "budget": "1.5",
                          "moves": "c,a", "claim": "BLEU 0.5", "smooth": "floor"})
    assert warns == []
    assert values == {"mode": "student", "seed": 7, "step": 2, "notes": True, "budget": 1.5, "moves": ["a", "c"],
                      "claim": "BLEU 0.5"}
    assert read(PAGE.params(values))[0] == values
    assert PAGE.params({"mode": "walk", "seed": 1}) == {}            # the defaults stay out of the link
    assert read({"moves": ""})[0]["moves"] == []                      # none chosen, not the default


def test_unknown_parameters_are_one_bounded_warning():
    _, warns = read({f"junk{k}": "x" for k in range(300)})
    assert warns == ["The link's parameter(s) “junk0”, “junk1”, “junk2”, “junk3”, “junk4” and 295 more mean "
                     "nothing on this page; they were dropped."]


def test_late_bounds_and_choices_of_this_run():
    f = PAGE["step"]
    assert f.decode("15", lo=0, hi=14) == (14, None)
    v, w = f.decode("16", lo=0, hi=14, default=0)
    assert v == 0 and "“step=16” is not a step (1–15); using 1." == w
    v, w = Field(OptionSpec("system", "text", None, max=60), what="a system of this sample").decode(
        "nobody", choices=["a", "b"])
    assert v is None and "is not a system of this sample (a, b)" in w


def test_texts_are_bounded():
    warns: list[str] = []
    cand, refs = read_texts({"candidate": ["c"], "ref": [f"r{i}" for i in range(12)]}, warns)
    assert cand == "c" and refs == [f"r{i}" for i in range(10)] and "only the first 10" in warns[0]
    warns = []
    assert read_texts({"candidate": ["x" * 7000]}, warns, max_chars=6000) == (None, None) and warns


def _labels_change():
    """A selectbox whose labels change between runs (a lesson with another number of steps): the browser sends
    back a label of the previous run."""
    import streamlit as st

    from explainer.ui import pagestate as ps

    n = st.session_state.setdefault("n", 15)
    ps.choice("step", range(n), 0)
    st.selectbox("Step", list(range(n)), key="step", format_func=lambda k: f"{k + 1} / {n}")
    st.write(f"value={st.session_state['step']!r}")


def test_choice_keeps_a_value_that_is_an_option_and_replaces_one_that_is_not():
    at = AppTest.from_function(_labels_change)
    at.run()
    at.selectbox(key="step").set_value(3).run()
    assert at.session_state["step"] == 3
    at.session_state["n"] = 14
    at.session_state["step"] = "4 / 15"     # what Streamlit stores when the browser sends a label no longer shown
    at.run()
    assert not at.exception and at.session_state["step"] == 3     # the last value shown, still an option
    at.session_state["n"] = 2
    at.session_state["step"] = "4 / 14"
    at.run()
    assert not at.exception and at.session_state["step"] == 0     # not an option any more: the default


class _Address(dict):
    """The address bar as a run sees it (``st.query_params``), recording what the page writes."""

    def __init__(self):
        super().__init__()
        self.written: list[dict] = []

    def get_all(self, k):
        return list(self[k])

    def from_dict(self, d):
        self.written.append(dict(d))
        self.clear()
        self.update({k: v if isinstance(v, list) else [v] for k, v in d.items()})


def test_the_address_bar_gets_this_runs_link_after_a_stale_address(monkeypatch):
    """Quick moves (issue 21, a burst of clicker keys): a run sees the address the browser sent with its rerun,
    which may be older than the page's last write still on its way to the browser. The page wrote step=2, then
    step=1; the next run wants step=2 and sees the stale step=2: it must write it again, or the browser ends on
    the step=1 that arrives last."""
    from types import SimpleNamespace

    from explainer.ui import pagestate

    bar = _Address()
    monkeypatch.setattr(pagestate, "st", SimpleNamespace(query_params=bar, session_state={}))
    PAGE.write({"step": "2"})
    PAGE.write({"step": "1"})
    assert bar.written == [{"step": "2"}, {"step": "1"}]
    bar.clear()
    bar["step"] = ["2"]                 # the browser's address when it sent the rerun: step=1 not there yet
    PAGE.write({"step": "2"})
    assert bar.written[-1] == {"step": "2"}
    PAGE.write({"step": "2"})           # nothing new: nothing written
    assert len(bar.written) == 3
