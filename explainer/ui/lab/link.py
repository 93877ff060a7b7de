"""The Gaming lab's state, declared once (:data:`PAGE`), and its link in and out, on the engine of
:mod:`explainer.ui.pagestate`: ``lab`` (section), ``preset`` (preset id); for the other sections ``candidate`` /
``ref`` (the user's texts, when short enough for a link), ``gen``, ``knob``, ``target`` and the optimizer's
``seed``, ``budget``, ``moves``."""
from __future__ import annotations

import streamlit as st

from explainer.attacks import generators as gen
from explainer.attacks.optimizer import DEFAULT_REFERENCES, DEFAULT_START, DEFAULT_TARGET, MOVES, TARGETS
from explainer.attacks.presets import ENTRIES
from explainer.attacks.sweeps import SWEEPS
from explainer.options import OptionSpec
from explainer.ui import pagestate as ps
from explainer.ui.lab import view as lv
from explainer.ui.pagestate import Field

DEFAULT_PRESET = "permutation"
DEFAULT_CAND = "the quick brown fox leaped above the lazy dog"
DEFAULT_REFS = "the quick brown fox jumped over the lazy dog\na fast brown fox jumped over a lazy dog"
# The optimizer's own default texts (a list of the story's keywords against one reference): from them, maximising
# ROUGE-1 F (its default target) climbs into word salad; from the fox sentence above it only rebuilt the reference
OPT_CAND = DEFAULT_START
OPT_REFS = "\n".join(DEFAULT_REFERENCES)
OPT_BUDGET = (0.5, 15.0, 3.0, 0.5)  # min, max, default, step of the optimizer's time budget (seconds)
OPT_SEED = (0, 10_000, 0)

PAGE = ps.Page("lab", (
    Field(OptionSpec("lab", "choice", "presets", choices=tuple(lv.SECTIONS)), "lab_section",
          what="a section of the lab", label="Section"),
    Field(OptionSpec("preset", "choice", DEFAULT_PRESET, choices=ENTRIES), "lab_preset", what="a known preset",
          label="Preset"),
    Field(OptionSpec("gen", "choice", "permute", choices=tuple(gen.GENERATORS)), "lab_gen", label="Generator"),
    Field(OptionSpec("knob", "choice", "length", choices=tuple(SWEEPS)), "lab_sweep", label="Knob"),
    Field(OptionSpec("target", "choice", DEFAULT_TARGET, choices=tuple(TARGETS)), "lab_opt_target",
          label="Maximise"),
    Field(OptionSpec("seed", "int", OPT_SEED[2], min=OPT_SEED[0], max=OPT_SEED[1]), "lab_opt_seed_v",
          label="seed"),
    Field(OptionSpec("budget", "float", OPT_BUDGET[2], min=OPT_BUDGET[0], max=OPT_BUDGET[1]), "lab_opt_budget_v",
          step=OPT_BUDGET[3], what="a time budget in seconds, in steps of 0.5", label="time budget (s)"),
    Field(OptionSpec("moves", "choice", tuple(MOVES), choices=tuple(MOVES)), "lab_opt_moves_v", multi=True,
          label="moves"),
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
    had = (ss["lab_cand"], refs_list(ss.get("lab_refs", ""))) if "lab_cand" in ss else None
    cand, refs = ps.read_texts(params, warns, keep=had)
    PAGE.seed(values)
    ss["lab_cand"] = cand if cand is not None else DEFAULT_CAND
    ss["lab_refs"] = "\n".join(r.replace("\n", " ") for r in refs) if refs else DEFAULT_REFS
    ss["_lab_link_texts"] = cand is not None or bool(refs)  # a link's own texts win over the Explain page's
    PAGE.loaded(warns)


def query() -> dict:
    """The lab's link now: the section and what it shows."""
    ss = st.session_state
    values = PAGE.values()
    section = values["lab"] if values["lab"] in lv.SECTIONS else "presets"
    if section == "presets":
        return PAGE.params({"lab": section, "preset": values["preset"]}, always=("lab", "preset"))
    mine = {"generators": ("gen",), "sweeps": ("knob",), "optimizer": ("target", "seed", "budget", "moves")}
    names = ("lab",) + mine[section]
    out = PAGE.params({k: values[k] for k in names}, always=names)   # no move chosen is "moves="
    cand, refs = ss.get("lab_cand", ""), refs_list(ss.get("lab_refs", ""))
    if ps.texts_fit(cand, refs):
        out["candidate"], out["ref"] = cand, refs or [""]   # no reference is "ref=" (absent: the defaults)
    return out
