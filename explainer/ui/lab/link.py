"""The Gaming lab's state, declared once (:data:`PAGE`), and its link in and out, on the engine of
:mod:`explainer.ui.pagestate`: ``lab`` (section), ``preset`` (preset id) and ``view=present``, the outlier demo's
``wmt`` / ``wmt_metric``; for the other sections ``candidate`` / ``ref`` (the user's texts, when short enough for a
link), ``gen``, the sweep's ``knob``, ``series``, ``yrange``, ``title``, and the optimizer's ``target``, ``seed``,
``steps``, ``budget`` (its time limit), ``moves`` and ``result`` (the text the run ended on)."""
from __future__ import annotations

import streamlit as st

from explainer.attacks import generators as gen
from explainer.attacks import outliers as ol
from explainer.attacks.optimizer import (
    DEFAULT_REFERENCES,
    DEFAULT_START,
    DEFAULT_STEPS,
    DEFAULT_TARGET,
    MOVES,
    TARGET_ALIASES,
    TARGETS,
    TIME_LIMIT,
)
from explainer.attacks.presets import ENTRIES
from explainer.attacks.sweeps import SWEEPS
from explainer.options import OptionSpec
from explainer.ui import pagestate as ps
from explainer.ui.lab import view as lv
from explainer.ui.lab.charts import SERIES_KEYS, Y_RANGES
from explainer.ui.pagestate import Field

DEFAULT_PRESET = "permutation"
DEFAULT_CAND = "the quick brown fox leaped above the lazy dog"
DEFAULT_REFS = "the quick brown fox jumped over the lazy dog\na fast brown fox jumped over a lazy dog"
# The optimizer's own default texts (a list of the story's keywords against one reference): from them, maximising
# ROUGE-1 F (its default target) climbs into word salad; from the fox sentence above it only rebuilt the reference
OPT_CAND = DEFAULT_START
OPT_REFS = "\n".join(DEFAULT_REFERENCES)
MAX_OPT_STEPS = 1000          # the optimizer's budget in search steps, at most (docs/limits.md)
MAX_OPT_SECONDS = 120.0       # its time limit (a safety net), at most
OPT_BUDGET = (0.5, MAX_OPT_SECONDS, TIME_LIMIT, 0.5)  # min, max, default, step of the optimizer's time limit
OPT_STEPS = (1, MAX_OPT_STEPS, DEFAULT_STEPS)       # min, max, default of the optimizer's budget in search steps
OPT_SEED = (0, 10_000, 0)
MAX_TITLE = 200                            # characters of a figure's title
MAX_LEFT_OUT = 4000                        # characters of the outlier demonstration's systems left out

PAGE = ps.Page("lab", (
    Field(OptionSpec("lab", "choice", "presets", choices=tuple(lv.SECTIONS)), "lab_section",
          what="a section of the lab", label="Section"),
    Field(OptionSpec("preset", "choice", DEFAULT_PRESET, choices=ENTRIES), "lab_preset", what="a known preset",
          label="Preset"),
    Field(OptionSpec("view", "choice", "", choices=("", "present")), "lab_view", what="present (or nothing)",
          label="View"),
    Field(OptionSpec("gen", "choice", "permute", choices=tuple(gen.GENERATORS)), "lab_gen", label="Generator"),
    Field(OptionSpec("knob", "choice", "length", choices=tuple(SWEEPS)), "lab_sweep", label="Knob"),
    Field(OptionSpec("series", "choice", SERIES_KEYS, choices=SERIES_KEYS), "lab_sw_series_v", multi=True,
          label="Series drawn"),
    Field(OptionSpec("yrange", "choice", "auto", choices=Y_RANGES), "lab_sw_yrange_v", label="y range"),
    Field(OptionSpec("title", "text", "", max=MAX_TITLE), "lab_sw_title_v", label="Title"),
    Field(OptionSpec("target", "choice", DEFAULT_TARGET, choices=tuple(TARGETS) + tuple(TARGET_ALIASES)),
          "lab_opt_target", label="Maximise"),
    Field(OptionSpec("seed", "int", OPT_SEED[2], min=OPT_SEED[0], max=OPT_SEED[1]), "lab_opt_seed_v",
          label="seed"),
    Field(OptionSpec("steps", "int", OPT_STEPS[2], min=OPT_STEPS[0], max=OPT_STEPS[1]), "lab_opt_steps_v",
          label="search steps"),
    Field(OptionSpec("budget", "float", OPT_BUDGET[2], min=OPT_BUDGET[0], max=OPT_BUDGET[1]), "lab_opt_budget_v",
          step=OPT_BUDGET[3], what="a time limit in seconds, in steps of 0.5", label="time limit (s)"),
    Field(OptionSpec("moves", "choice", tuple(MOVES), choices=tuple(MOVES)), "lab_opt_moves_v", multi=True,
          label="moves"),
    Field(OptionSpec("result", "text", "", max=ps.MAX_URL_TEXT), "lab_opt_link_result", label="the optimizer's "
          "result"),
    Field(OptionSpec("wmt", "choice", ol.DEFAULT_PAIR, choices=tuple(ol.pairs())), "lab_wmt_lp",
          label="WMT19 language pair"),
    Field(OptionSpec("wmt_metric", "choice", ol.DEFAULT_METRIC, choices=tuple(ol.METRICS)), "lab_wmt_metric",
          label="Metric"),
    Field(OptionSpec("wmt_out", "text", "", max=MAX_LEFT_OUT), "lab_wmt_out_v", label="Systems left out"),
))


def optimizer_texts() -> None:
    """The optimizer section on the lab's untouched default texts starts from the optimizer's own defaults."""
    ss = st.session_state
    if (ss.get("lab_cand"), ss.get("lab_refs")) == (DEFAULT_CAND, DEFAULT_REFS):
        ss["lab_cand"], ss["lab_refs"] = OPT_CAND, OPT_REFS


def refs_list(raw: str) -> list[str]:
    return [r.strip() for r in (raw or "").splitlines() if r.strip()]


def load_from_url() -> None:
    """The link on the first run of a session and when another link is followed in the same tab (the lab's
    values live in plain session keys, which survive a visit to another page)."""
    ss = st.session_state
    params, _ = PAGE.link(is_rerun=lambda: True)
    if params is None:
        return
    warns: list[str] = []
    if "preset" in params and "lab" not in params:
        params = {**params, "lab": ["presets"]}
    values = PAGE.read(params, warns)
    values["target"] = TARGET_ALIASES.get(values["target"], values["target"])   # an earlier link's metric key
    had = (ss["lab_cand"], refs_list(ss.get("lab_refs", ""))) if "lab_cand" in ss else None
    cand, refs = ps.read_texts(params, warns, keep=had)
    PAGE.seed(values)
    ss["lab_cand"] = cand if cand is not None else DEFAULT_CAND
    ss["lab_refs"] = "\n".join(r.replace("\n", " ") for r in refs) if refs else DEFAULT_REFS
    ss["_lab_link_texts"] = cand is not None or bool(refs)  # a link's own texts win over the Explain page's
    ss["_lab_opt_link_for"] = None                           # the link's result belongs to the link's settings
    PAGE.loaded(warns)


def query() -> dict:
    """The lab's link now: the section and what it shows."""
    ss = st.session_state
    values = PAGE.values()
    section = values["lab"] if values["lab"] in lv.SECTIONS else "presets"
    if section == "presets":
        names = ("lab", "preset", "view", "wmt", "wmt_metric", "wmt_out")
        return PAGE.params({k: values[k] for k in names}, always=("lab", "preset"))
    mine = {"generators": ("gen",), "sweeps": ("knob", "series", "yrange", "title"),
            "optimizer": ("target", "seed", "steps", "budget", "moves", "result")}
    always = {"generators": ("gen",), "sweeps": ("knob",), "optimizer": ("target", "seed", "steps", "moves")}
    names = ("lab",) + mine[section]
    out = PAGE.params({k: values[k] for k in names}, always=("lab",) + always[section])   # no move: "moves="
    cand, refs = ss.get("lab_cand", ""), refs_list(ss.get("lab_refs", ""))
    if ps.texts_fit(cand, refs):
        out["candidate"], out["ref"] = cand, refs or [""]   # no reference is "ref=" (absent: the defaults)
    return out
