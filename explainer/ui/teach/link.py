"""The Teach page's state, declared once (:data:`PAGE`), and its link in and out, on the engine of
:mod:`explainer.ui.pagestate`.

A link: ``teach?example=cat_mat&step=4``; ``preset``/``variant``; own text as ``candidate``/``ref`` (or
``text=not-in-link`` when the texts are longer than a link carries: this tab keeps them, session state only);
the Explain page's dialect parameters (only those that differ from the source's own settings); ``mode``,
``notes``, ``order``; for exercise sets ``seed``, ``level``, ``n``, ``item``.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any
from urllib.parse import parse_qs

import streamlit as st

from explainer.attacks.presets import PRESETS
from explainer.examples import EXAMPLES, get_example
from explainer.options import OptionSpec
from explainer.teach.demo import DEMO_IDS
from explainer.teach.exercises import LEVELS, MAX_SEED, MAX_SET
from explainer.teach.families import DEFAULT_LECTURE, lesson_family, lesson_names, read_lecture
from explainer.ui import pagestate as ps
from explainer.ui import settings as ms
from explainer.ui.pagestate import MAX_REFS, MAX_URL_TEXT, Field
from explainer.ui.settings import MetricSettings

DEFAULT_EXAMPLE = "cat_mat"
MODES = {"walk": "Walkthrough", "student": "Student", "practice": "Exercise set"}
# presenting from two windows (explainer.ui.teach.present): the projector shows the step only, the presenter
# window the notes, the answers, the next step and a clock
VIEWS = {"projector": "Projector", "presenter": "Presenter"}
SOURCES = {"example": "Worked example", "preset": "Gaming-lab preset", "text": "Your own text"}
NOT_IN_LINK = "not-in-link"
MAX_ORDER = 10   # the largest order a lesson follows (``order`` is bounded by the settings' own)
#: the step's text size (``zoom`` in the link, percent of its own): the presentation mode's zoom control; the
#: browser makes a step that no longer fits smaller again (explainer.ui.teach.fitter), so a larger size reflows it
ZOOMS = ("75", "100", "125", "150", "175", "200")
MAX_CELLS = 25 * 25   # the LCS table's cells filled one by one (a larger table is shown sampled, at once)
MAX_STEPS = 100  # more than any lesson has (``step`` is bounded by the lesson's own number of steps)
ORDER_WHAT = "an order the lesson can follow with these settings (0 = automatic, up to their maximum order)"
# the Explain page's own view parameters: a link made there and edited to ``teach`` may carry them
_EXPLAIN_VIEW_PARAMS = ("ngram", "colour", "rouge_ref")


def preset_ids() -> list[str]:
    """Gaming-lab presets whose every variant is one candidate (a corpus preset is not one lesson)."""
    return [pid for pid, p in PRESETS.items() if not any(v.is_corpus for v in p.variants)]


def preset_default_variant(pid: str) -> int:
    return 1 if len(PRESETS[pid].variants) > 1 else 0


#: the lesson value of a link is at most this long (every registered family's name, comma-separated, fits)
MAX_LECTURE_CHARS = 200
LECTURE_WHAT = "a comma-separated list of lessons"


def _spec(name: str, type_: str, default: Any, **kw) -> OptionSpec:
    return OptionSpec(name, type_, default, **kw)


PAGE = ps.Page("teach", (
    Field(_spec("mode", "choice", "walk", choices=tuple(MODES)), "tch_mode", label="View"),
    # the lecture's families, in order (``bleu,rouge,chrf,ter``; earlier versions' ``bleu-rouge`` and ``chrf++`` still
    # open): read by :func:`_read_lecture` (session key ``tch_lecture``, a list of family names)
    Field(_spec("metric", "text", "", max=MAX_LECTURE_CHARS), what=LECTURE_WHAT, label="Lesson of"),
    Field(_spec("example", "choice", DEFAULT_EXAMPLE, choices=tuple(e.id for e in EXAMPLES)), "tch_example",
          what="a known example", label="Worked example"),
    Field(_spec("preset", "choice", None, choices=tuple(preset_ids())), what="a gaming-lab preset with one "
          "candidate", default_words=f"the worked example {DEFAULT_EXAMPLE}", label="Gaming-lab preset"),
    Field(_spec("variant", "int", 0, min=0, max=20), base=1, late=True, what="a variant number of this preset",
          label="Which output"),
    Field(_spec("text", "choice", None, choices=(NOT_IN_LINK,)), default_words="no texts"),
    Field(_spec("step", "int", 0, min=0, max=MAX_STEPS - 1), "tch_step", base=1, late=True,
          what="a step of this lesson", label="Step"),
    Field(_spec("notes", "bool", False), "tch_notes", label="Speaker notes"),
    Field(_spec("zoom", "choice", "100", choices=ZOOMS), "tch_zoom",
          what=f"a text size of the step in percent ({', '.join(ZOOMS)})", label="Text size"),
    Field(_spec("view", "choice", None, choices=tuple(VIEWS)), "tch_view", what="a view (projector or presenter)",
          default_words="the ordinary page", label="Presenting"),
    Field(_spec("order", "int", 0, min=0, max=MAX_ORDER), "tch_order", late=True, what=ORDER_WHAT,
          label="n-gram order followed in steps 2–4"),
    Field(_spec("demo", "int", 0, min=0, max=len(DEMO_IDS)), "tch_demo", what="a step of the demo (0 = none)",
          label="Demo step"),
    # what the class sees besides the step (a presenter's room carries them): the blank screen, and how many cells
    # of the LCS table are filled (-1: all of them)
    Field(_spec("blank", "bool", False), "tch_blank", label="Blank screen"),
    Field(_spec("cells", "int", -1, min=-1, max=MAX_CELLS), "tch_cells", what="a number of LCS table cells",
          label="Cells filled"),
    Field(_spec("level", "choice", "easy", choices=tuple(LEVELS)), "tch_level", label="Level"),
    Field(_spec("seed", "int", 1, min=0, max=MAX_SEED), "tch_seed", what="a seed", label="Seed"),
    Field(_spec("n", "int", 6, min=1, max=MAX_SET), "tch_n", what="a number of exercises", label="Exercises"),
    Field(_spec("item", "int", 0, min=0, max=MAX_SET), "tch_item", base=1, what="an exercise number",
          label="Exercise"),
    # the progress of an exercise set or the student view (a reload keeps it): one character per exercise or
    # question, "-" or the points it got; ``sig``: its keyed checksum (explainer.teach.results), so that a score
    # edited by hand does not read back
    Field(_spec("done", "text", "", max=MAX_STEPS), what="the exercises' progress", label="Progress"),
    Field(_spec("sig", "text", "", max=64), what="the progress' checksum", label="Checksum"),
), known=lambda: ms.settings_params() | set(_EXPLAIN_VIEW_PARAMS) | {"room", "key"})


def preset_params(pid: str, variant: int) -> dict[str, list[str]]:
    """The Explain-page parameters of one preset variant (texts and settings), as the lab's own links build
    them — so a preset's lesson shows the lab's numbers."""
    from explainer.ui.lab.view import explain_query

    v = PRESETS[pid].variants[variant]
    return parse_qs(explain_query(v.candidate, list(v.references), v.bleu, v.rouge), keep_blank_values=True)


def _settings_params(params: dict) -> dict:
    """The query parameters that are metric settings (the Explain page's names)."""
    mine = ms.settings_params()
    return {k: v for k, v in params.items() if k in mine}


def source_defaults(source: str, example: str, preset: str | None, variant: int) -> MetricSettings:
    """The settings a source brings when the link states none: the defaults with a worked example's own
    settings (e.g. stemming), or the gaming-lab preset's settings."""
    if source == "preset" and preset in PRESETS:
        return ms.settings_from_params(_settings_params(preset_params(preset, variant)))[0]
    base = ms.default_settings()
    if source == "example":
        base, _ = ms.apply_example_settings(base, get_example(example).settings)
    return base


@dataclasses.dataclass
class _Source:
    """What a link asks the lesson to be made of: a worked example, a gaming-lab preset's variant or own text, and
    the metric-setting parameters that go with it."""

    source: str = "example"
    example: str = DEFAULT_EXAMPLE
    preset: str | None = None
    variant: int = 0
    cand: str | None = None
    refs: list[str] | None = None
    settings_params: dict = dataclasses.field(default_factory=dict)


def _source(params: dict, values: dict, warns: list[str]) -> _Source:
    """Own text (``candidate``/``ref``; ``text=not-in-link``), a preset (``preset``, ``variant``) or a worked
    example (``example``)."""
    settings = _settings_params(params)
    if "candidate" in params or "ref" in params:
        ss = st.session_state
        had = (ss["tch_cand"], [ss.get(f"tch_ref_{i}", "") for i in range(ss.get("tch_nrefs", 1))]) \
            if ss.get("tch_source") == "text" and "tch_cand" in ss else None
        cand, refs = ps.read_texts(params, warns, keep=had)
        if cand is not None or refs is not None:
            return _Source("text", cand=cand or "", refs=refs or [""], settings_params=settings)
        return _Source(settings_params=settings)   # texts over a link's size: the worked example
    if values["text"] == NOT_IN_LINK:
        kept = st.session_state.get("_tch_long_texts")
        if kept is None:
            warns.append(f"This link was made for a lesson of your own texts longer than a link carries "
                         f"({MAX_URL_TEXT:,} characters in all), so the texts are not in it (nor stored anywhere). "
                         "Paste them again in the sidebar (“Your own text”).")
        cand, refs = kept or ("", [""])
        return _Source("text", cand=cand, refs=list(refs), settings_params=settings)
    pid = values["preset"]
    if pid is not None:
        n = len(PRESETS[pid].variants)
        raw = ps.first(params, "variant")
        variant = preset_default_variant(pid)
        if raw is not None:
            variant, w = PAGE["variant"].decode(raw, lo=0, hi=n - 1, default=variant)
            warns += [w] if w else []
        merged = _settings_params(preset_params(pid, variant))
        merged.update(settings)   # settings stated in the link win
        return _Source("preset", preset=pid, variant=variant, settings_params=merged)
    return _Source(example=values["example"], settings_params=settings)


def _link_settings(params: dict, src: _Source, keep_settings: bool, warns: list[str]) -> MetricSettings:
    """The metric settings of the link (an example's own settings under them), or the other pages' settings."""
    settings, w = ms.settings_from_params(src.settings_params)
    warns += w
    if src.source == "example":
        settings, w = ms.apply_example_settings(settings, get_example(src.example).settings, skip=set(params))
        warns += w
    shared = ms.stored_settings()
    if keep_settings and shared is not None:
        return shared
    if shared is not None and "rouge_types" not in params:
        # not a setting of this page (a lesson shows its fixed types): the other pages keep theirs
        return settings.replace(settings["rouge"].replace(types=shared["rouge"].options["types"]))
    return settings


def _put_source(src: _Source) -> None:
    """The source widgets' values (every source's widgets get one, so switching source keeps a sensible value)."""
    ss = st.session_state
    ss["tch_source"] = src.source
    ss["tch_example"] = src.example
    ss["tch_preset"] = src.preset or preset_ids()[0]
    ss["tch_variant"] = src.variant
    ss["tch_cand"] = src.cand if src.cand is not None else get_example(DEFAULT_EXAMPLE).candidate
    refs = src.refs if src.refs is not None else list(get_example(DEFAULT_EXAMPLE).references)
    ss["tch_nrefs"] = len(refs)
    for i in range(MAX_REFS):
        ss[f"tch_ref_{i}"] = refs[i] if i < len(refs) else ""


def lecture() -> tuple[str, ...]:
    """The lecture's families (session ``tch_lecture``), in the registry's order; the default when none."""
    chosen = st.session_state.get("tch_lecture") or ()
    names = tuple(n for n in lesson_names() if n in chosen)
    return names or DEFAULT_LECTURE


def max_focus(settings: MetricSettings, names: tuple[str, ...] | None = None) -> int:
    """The highest order the lecture's families can follow with these settings (BLEU: its maximum n-gram order,
    chrF: its character orders …; each family's own rule); 0 when none follows an order."""
    names = lecture() if names is None else names
    return max((lesson_family(n).max_focus(settings[n].dialect, settings[n].options) for n in names), default=0)


def _read_lecture(raw: str, settings: MetricSettings, warns: list[str]) -> MetricSettings:
    """The link's lesson value into ``tch_lecture``; an earlier version's value may imply options (``chrf++``: chrF
    with word n-grams), put into the settings."""
    names, implied, bad = read_lecture(raw or None)
    if bad:
        warns.append(f"“metric={ps.show(raw)}” names no lesson ({', '.join(map(ps.show, bad))}); the lessons are "
                     f"{', '.join(lesson_names())}.")
    st.session_state["tch_lecture"] = list(names)
    for fam, opts in implied.items():
        settings = settings.replace(settings[fam].replace(**opts))
    return settings


def load_from_url() -> None:
    """A link defines the page on the first run of a session and whenever it differs from what the page last
    wrote (another link followed in the same tab); otherwise the widgets keep their values."""
    from explainer.ui.teach.presenting import ROOM_LOAD

    pending = st.session_state.pop(ROOM_LOAD, None)   # the room moved: the projector shows its state
    if pending is not None:
        params, keep_settings = pending, False
    else:
        params, keep_settings = PAGE.link(is_rerun=lambda: "tch_source" in st.session_state)
        if params is None:
            return
    warns: list[str] = []
    if pending is None:
        params = _joined_room(params, warns)
    values = PAGE.read(params, warns)
    src = _source(params, values, warns)
    settings = _read_lecture(values["metric"], _link_settings(params, src, keep_settings, warns), warns)
    _read_room(params, values, warns)
    PAGE.seed(values)
    st.session_state["_tch_cells_link"] = values["cells"]   # for the LCS step's slider
    _put_source(src)
    ms.put_settings(settings)
    raw_order = st.session_state.pop("_ps_late:tch_order", None)
    order = 0
    if raw_order is not None:
        n_max = max_focus(settings, lecture())
        order, w = PAGE["order"].decode(raw_order, lo=0, hi=n_max, default=0)
        warns += [w] if w else []
    st.session_state["tch_order"] = order
    st.session_state["tch_step"] = 0
    _read_progress(values["done"], values["sig"], warns)
    PAGE.loaded(warns)


PROGRESS = re.compile(r"[-0-9]*")
#: session: (done, checksum) of the view shown, for the page's link (the exercise set and the student view set it)
LINK_PROGRESS = "_tch_link_progress"


def _read_progress(raw: str, sig: str, warns: list[str]) -> None:
    """``done`` and ``sig``: the points of the exercises (or questions) answered so far and their checksum
    (restored by the exercise set's view or the student view, which check the checksum)."""
    st.session_state.pop("_tch_done_link", None)
    st.session_state.pop(LINK_PROGRESS, None)
    if not raw:
        return
    if not PROGRESS.fullmatch(raw):
        warns.append(f"“done={ps.show(raw)}” is not the exercises' progress (one character per exercise: - or "
                     "its points); starting the set afresh.")
        return
    st.session_state["_tch_done_link"] = (raw, sig)


def _joined_room(params: dict, warns: list[str]) -> dict:
    """A window of a room without its control key (a projector) shows the room as it is, not its own link's step
    or lesson: a projector opened late joins the lecture where it is (and never moves it back)."""
    from explainer.ui.teach.present import current, may_control, valid_room
    from explainer.ui.teach.presenting import joined

    room = valid_room(ps.first(params, "room"))
    if room is None or may_control(room, ps.first(params, "key")):
        return params
    got = current(room)
    if got is None:
        return params
    if ps.first(params, "view") == "presenter":
        warns.append(NO_KEY)
    st.session_state["_tch_room_seen"] = (room, got["version"])
    return joined(room, got["state"])


NO_KEY = ("This presenter link has no valid control key for its room, so this window shows the lesson as the "
          "projector does and follows the room; only the presenter's own link moves it.")


def _read_room(params, values: dict, warns: list[str]) -> None:
    """``room``: the presenting channel of the projector and presenter windows (16 hex digits, else dropped);
    ``key``: the room's control key (the presenter's link). Without the right key a window is a viewer: a
    presenter link shows the projector's view (``values``: the link's, before they are seeded)."""
    from explainer.ui.teach.present import may_control, valid_room

    ss = st.session_state
    raw = ps.first(params, "room")
    room = valid_room(raw)
    if raw is not None and room is None:
        warns.append(f"“room={ps.show(raw)}” is not a presenting room (16 hex digits); this window is not "
                     "linked to another.")
    key = ps.first(params, "key")
    ss["tch_room_key"] = key if may_control(room, key) else None
    if values["view"] == "presenter" and room is not None and ss["tch_room_key"] is None:
        values["view"] = "projector"
        warns.append(NO_KEY)
    ss["tch_room"] = room


def query(settings: MetricSettings, texts, *, mode: str, step: int | None = None) -> dict:
    """The page's own link: the source, the settings that differ from the source's defaults, and the place.
    ``texts``: (candidate, references) of own text."""
    ss = st.session_state
    src = ss.get("tch_source", "example")
    full = ms.settings_to_params(settings)
    full.pop("rouge_types", None)   # not a setting of a lesson
    names = lecture()
    metric = "" if names == DEFAULT_LECTURE else ",".join(names)
    values: dict[str, Any] = {"mode": mode, "demo": int(ss.get("tch_demo") or 0), "metric": metric}
    out: dict[str, Any] = {}
    if mode == "practice":
        values.update({k: ss.get(PAGE[k].key, PAGE[k].default) for k in ("seed", "level", "n", "item")})
        values["done"], values["sig"] = ss.get(LINK_PROGRESS) or ("", "")
        # an exercise set's link names no source: it reads back on the default worked example, so the settings
        # are stated against that example's own, not the source's
        return {**_differing(full, "example", DEFAULT_EXAMPLE), **PAGE.params(values, always=("seed", "level", "n",
                                                                                             "item"))}
    if src == "example":
        values["example"] = ss.get("tch_example") or DEFAULT_EXAMPLE
    elif src == "preset":
        values["preset"], values["variant"] = ss["tch_preset"], ss.get("tch_variant", 0)
    else:
        cand, refs = texts
        if ps.texts_fit(cand, refs):
            out["candidate"], out["ref"] = cand, list(refs)
            ss.pop("_tch_long_texts", None)
        else:   # the link cannot carry them: this tab keeps them, the link says so
            values["text"] = NOT_IN_LINK
            ss["_tch_long_texts"] = (cand, list(refs))
    if mode == "student":
        values["done"], values["sig"] = ss.get(LINK_PROGRESS) or ("", "")
    walk = mode == "walk"
    cells = ss.get("tch_cells")
    values.update(blank=bool(ss.get("tch_blank")) and walk,
                  cells=cells if walk and isinstance(cells, int) and 0 <= cells <= MAX_CELLS else -1)
    values.update(step=step, order=ss.get("tch_order") or 0, notes=bool(ss.get("tch_notes")) and mode == "walk",
                  zoom=ss.get("tch_zoom") if mode == "walk" and ss.get("tch_zoom") in ZOOMS else "100")
    view = ss.get("tch_view") if mode == "walk" else None
    values["view"] = view
    if view and ss.get("tch_room"):
        out["room"] = ss["tch_room"]
        if view == "presenter" and ss.get("tch_room_key"):
            out["key"] = ss["tch_room_key"]
    return {**PAGE.params(values, always=("example", "preset", "variant", "step")), **out, **_differing(full, src)}


def _differing(full: dict, src: str, example: str | None = None) -> dict:
    """The settings that differ from the source's own (a worked example's, a preset's, the defaults)."""
    ss = st.session_state
    have = ms.settings_to_params(source_defaults(src, example or ss.get("tch_example") or DEFAULT_EXAMPLE,
                                                 ss.get("tch_preset"), ss.get("tch_variant", 0)))
    return {k: v for k, v in full.items() if have.get(k) != v}
