"""The Teach page: a worked example, a gaming-lab preset or the teacher's own text as a step-by-step lesson
(walkthrough for the projector, student view with answer boxes), generated exercise sets, and the handouts.

Thin over :mod:`explainer.teach` (steps, questions, exercise sets: pure) and :mod:`explainer.ui.teach_html` /
``teach_markdown`` (escaped rendering, shared with the handouts). The whole state lives in the URL
(``teach?example=cat_mat&step=4``; ``candidate``/``ref`` and the Explain page's dialect parameters; ``mode``,
``notes``, ``order``; for exercise sets ``seed``, ``level``, ``n``, ``item``), parsed once per link. The metric
settings are the shared model of every page (:mod:`explainer.ui.settings`: the same sidebar widgets as the
Explain and Corpus pages; what is set on one page holds here, and the other way round); the lesson's ROUGE
types are fixed (:data:`explainer.teach.lesson.LESSON_TYPES`). Lessons are computed once per texts and settings
and shared by every session (:mod:`explainer.ui.compute`): a class opening the teacher's link computes it once.
"""
from __future__ import annotations

import dataclasses
import random
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from explainer.attacks.presets import PRESETS
from explainer.examples import EXAMPLES, get_example
from explainer.options import coerce_value
from explainer.teach import check_answer
from explainer.teach.answers import MAX_ANSWER_CHARS
from explainer.teach.exercises import LEVELS, MAX_SEED, MAX_SET, AttackItem, check_attack, generate_set
from explainer.teach.lesson import LESSON_TYPES, MAX_LESSON_CHARS, build_lesson
from explainer.teach.model import LcsGrid, Lesson
from explainer.ui import compute as shared_compute
from explainer.ui import highlight as hl
from explainer.ui import settings as ms
from explainer.ui import teach_html as th
from explainer.ui.permalink import MAX_REFS, MAX_URL_TEXT, ExplainState
from explainer.ui.settings import MetricSettings
from explainer.ui.teach_markdown import handout_markdown

DEFAULT_EXAMPLE = "cat_mat"
MODES = {"walk": "Walkthrough", "student": "Student", "practice": "Exercise set"}
SOURCES = {"example": "Worked example", "preset": "Gaming-lab preset", "text": "Your own text"}
TEACH_PARAMS = {"mode", "step", "notes", "order", "seed", "level", "n", "item", "example", "preset", "variant",
                "candidate", "ref", "cell", "text"}
# The link of an own-text lesson whose texts are longer than a link carries (MAX_URL_TEXT) has ``text=NOT_IN_LINK``
# instead of the texts: this tab keeps them (session state, never the server's disk); a reload or another browser
# gets a message, not another lesson.
NOT_IN_LINK = "not-in-link"
MAX_PARAM_DIGITS = 9   # every integer in a link is bounded before int()
MAX_ORDER = 10   # the largest maximum n-gram order a BLEU dialect takes (``order`` is bounded by the settings' own)
ORDER_WHAT = "an n-gram order of these BLEU settings (0 = automatic, up to their maximum order)"
# Height of what the walkthrough shows above a step's body (top padding, the view / navigation rows: Streamlit's
# widgets, in px) and of the step's title (in the lesson's base size --tcb, which grows with the window), and of
# the LCS table's slider: the body gets the rest of the window.
FIT_OFFSET = 218
FIT_TITLE = 2.11
SLIDER_HEIGHT = 90

PAGE_CSS = """<style>
:root{--tcb:max(1.22rem,2.7vmin)}
[data-testid="stMainBlockContainer"]{padding-top:3.4rem;padding-bottom:1.2rem}
.tc{font-size:var(--tcb)}
.tc-title{font-size:calc(var(--tcb) * 1.52);font-weight:800;line-height:1.2;margin:.05em 0 .14em 0}
.tc-title .fam{display:inline-block;font-size:.54em;border:2px solid currentColor;border-radius:.3em;
  padding:0 .4em;margin-right:.55em;vertical-align:middle;letter-spacing:.04em}
.tc-title .num{font-weight:600;opacity:.75;font-size:.65em;margin-left:.4em}
.tc-box{border-left:.27em solid rgba(128,128,128,.6);background:rgba(128,128,128,.10);padding:.22em .54em;
  margin:.13em 0 .4em 0;white-space:pre-wrap;word-break:break-word;font-size:calc(var(--tcb) * .92)}
.tc-lab{font-weight:700;font-size:calc(var(--tcb) * .82)}
.st-key-tch_nav button p{font-size:1.05rem}
.st-key-tch_head>.stElementContainer:has([data-testid="stCaptionContainer"]){flex:1 1 0 !important;min-width:8rem}
.st-key-tch_head [data-testid="stCaptionContainer"] p{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.tnotes-fixed{position:fixed;right:1rem;bottom:.8rem;width:min(52em,calc(100vw - 6rem));max-height:42vh;
  overflow:auto;z-index:999990;box-shadow:0 4px 18px rgba(0,0,0,.35);font-size:calc(var(--tcb) * .84);
  line-height:1.4}
</style>"""


def _html(body: str) -> None:
    st.html(body)


def _escape(s: str) -> str:
    return hl.escape_text(s)


# ------------------------------------------------------------------------------------------- presets
def _preset_ids() -> list[str]:
    """Gaming-lab presets whose every variant is one candidate (a corpus preset is not one lesson)."""
    return [pid for pid, p in PRESETS.items() if not any(v.is_corpus for v in p.variants)]


def _preset_default_variant(pid: str) -> int:
    return 1 if len(PRESETS[pid].variants) > 1 else 0


def _preset_params(pid: str, variant: int) -> dict[str, list[str]]:
    """The Explain-page parameters of one preset variant (texts and settings), as the lab's own links build
    them — so a preset's lesson shows the lab's numbers."""
    from urllib.parse import parse_qs

    from explainer.ui.lab_view import explain_query

    v = PRESETS[pid].variants[variant]
    return parse_qs(explain_query(v.candidate, list(v.references), v.bleu, v.rouge), keep_blank_values=True)


# ------------------------------------------------------------------------------------------- URL state
def _int_param(params, name: str, lo: int, hi: int, default: int, warns: list[str], what: str) -> int:
    raw = _first(params, name)
    if raw is None:
        return default
    s = raw.strip()
    if s.isascii() and s.isdigit() and len(s) <= MAX_PARAM_DIGITS and lo <= int(s) <= hi:
        return int(s)
    warns.append(f"“{name}={raw[:40]}” is not {what} ({lo}–{hi:,}); using {default}.")
    return default


def _first(params, name: str) -> str | None:
    v = params.get(name)
    if not v:
        return None
    return v[-1] if isinstance(v, list) else v


# the Explain page's own view parameters: a link made there and edited to ``teach`` may carry them
_EXPLAIN_VIEW_PARAMS = {"ngram", "colour", "rouge_ref"}


def _settings_params(params: dict) -> dict:
    """The query parameters that are metric settings (the Explain page's names)."""
    return {k: v for k, v in params.items() if k not in TEACH_PARAMS}


def _parse_settings(params: dict, warns: list[str]) -> MetricSettings:
    """Metric settings from a link's parameters (absent: the defaults); a warning per bad value and one for
    parameters neither this page nor the settings know."""
    settings, w = ms.settings_from_params(params)
    warns += w
    unknown = sorted(k for k in params if k not in TEACH_PARAMS and k not in ms.settings_params()
                     and k not in _EXPLAIN_VIEW_PARAMS)
    if unknown:
        warns.append(f"Unknown link parameter(s) ignored: {', '.join(u[:40] for u in unknown)}.")
    return settings


def _source_defaults(source: str, example: str, preset: str | None, variant: int) -> MetricSettings:
    """The settings a source brings when the link states none: the defaults with a worked example's own
    settings (e.g. stemming), or the gaming-lab preset's settings."""
    if source == "preset" and preset in PRESETS:
        return _parse_settings({k: v for k, v in _preset_params(preset, variant).items()
                                if k not in ("candidate", "ref")}, [])
    base = ms.default_settings()
    if source == "example":
        base, _ = ms.apply_example_settings(base, get_example(example).settings)
    return base


@dataclasses.dataclass
class _LinkSource:
    """What a link asks the lesson to be made of: a worked example, a gaming-lab preset's variant or own text, and
    the metric-setting parameters that go with it."""

    source: str = "example"
    example: str = DEFAULT_EXAMPLE
    preset: str | None = None
    variant: int = 0
    cand: str | None = None
    refs: list[str] | None = None
    settings_params: dict = dataclasses.field(default_factory=dict)


def _params_to_load() -> tuple[dict | None, bool]:
    """(the link's parameters to load, or None when the widgets keep their values; whether the metric settings
    stay as the other pages left them)."""
    ss = st.session_state
    params = {k: st.query_params.get_all(k) for k in st.query_params.keys()}
    # the navigation entry (no link): the metric settings are the ones the other pages use, if any
    keep_settings = not params
    if ss.get("_tch_loaded"):
        if params and params == ss.get("_tch_last_params"):
            return None, keep_settings
        if not params:
            if "tch_source" in ss:   # a rerun of this page
                return None, keep_settings
            # back from another page: Streamlit dropped this page's widget values; its last link has them (the
            # metric settings stay as the other pages left them)
            params = ss.get("_tch_last_params") or {}
    return params, keep_settings


def _parse_mode(params: dict, warns: list[str]) -> str:
    mode = _first(params, "mode") or "walk"
    if mode not in MODES:
        warns.append(f"“mode={mode[:40]}” is not one of {', '.join(MODES)}; showing the walkthrough.")
        mode = "walk"
    return mode


def _own_text_source(params: dict, warns: list[str]) -> _LinkSource:
    refs = list(params.get("ref") or [""])
    if len(refs) > MAX_REFS:
        warns.append(f"The link has {len(refs)} references; at most {MAX_REFS} are used.")
        refs = refs[:MAX_REFS]
    return _LinkSource("text", cand=_first(params, "candidate") or "", refs=refs,
                       settings_params=_settings_params(params))


def _long_text_source(params: dict, warns: list[str]) -> _LinkSource:
    """``text=not-in-link``: own texts longer than a link carries; only the tab that wrote the link has them."""
    kept = st.session_state.get("_tch_long_texts")
    if kept is None:
        warns.append(f"This link was made for a lesson of your own texts longer than a link carries "
                     f"({MAX_URL_TEXT:,} characters in all), so the texts are not in it (nor stored anywhere). "
                     "Paste them again in the sidebar (“Your own text”).")
    cand, refs = kept or ("", [""])
    return _LinkSource("text", cand=cand, refs=list(refs), settings_params=_settings_params(params))


def _preset_source(params: dict, pid: str, warns: list[str]) -> _LinkSource:
    n = len(PRESETS[pid].variants)
    variant = _int_param(params, "variant", 1, n, _preset_default_variant(pid) + 1, warns,
                         "a variant number of this preset") - 1
    merged = _preset_params(pid, variant)
    merged.update(_settings_params(params))   # settings stated in the link win
    return _LinkSource("preset", preset=pid, variant=variant,
                       settings_params={k: v for k, v in merged.items() if k not in ("candidate", "ref")})


def _parse_source(params: dict, warns: list[str]) -> _LinkSource:
    """Own text (``candidate``/``ref``), a preset (``preset``, ``variant``) or a worked example (``example``)."""
    if "candidate" in params or "ref" in params:
        return _own_text_source(params, warns)
    if _first(params, "text") is not None:
        return _long_text_source(params, warns)
    fallback = _LinkSource(settings_params=_settings_params(params))
    pid = _first(params, "preset")
    if pid is not None:
        if pid in _preset_ids():
            return _preset_source(params, pid, warns)
        warns.append(f"“preset={pid[:40]}” is not a gaming-lab preset with one candidate; showing the worked "
                     f"example “{get_example(DEFAULT_EXAMPLE).title}”.")
        return fallback
    eid = _first(params, "example")
    if eid is not None:
        if eid in {e.id for e in EXAMPLES}:
            fallback.example = eid
        else:
            warns.append(f"“example={eid[:40]}” is not a known example; showing "
                         f"“{get_example(DEFAULT_EXAMPLE).title}”.")
    return fallback


def _link_settings(params: dict, src: _LinkSource, keep_settings: bool, warns: list[str]) -> MetricSettings:
    """The metric settings of the link (an example's own settings under them), or the other pages' settings."""
    settings = _parse_settings(src.settings_params, warns)
    if src.source == "example":
        settings, w = ms.apply_example_settings(settings, get_example(src.example).settings, skip=set(params))
        warns += w
    shared = ms.stored_settings()
    if keep_settings and shared is not None:
        return shared
    if shared is not None and "rouge_types" not in params:
        # not a setting of this page (a lesson shows its fixed types): the other pages keep theirs
        return dataclasses.replace(settings, rouge_types=shared.rouge_types)
    return settings


def _put_source(src: _LinkSource) -> None:
    """The source widgets' values (every source's widgets get one, so switching source keeps a sensible value)."""
    ss = st.session_state
    ss["tch_source"] = src.source
    ss["tch_example"] = src.example
    ss["tch_preset"] = src.preset or _preset_ids()[0]
    ss["tch_variant"] = src.variant
    ss["tch_cand"] = src.cand if src.cand is not None else get_example(DEFAULT_EXAMPLE).candidate
    refs = src.refs if src.refs is not None else list(get_example(DEFAULT_EXAMPLE).references)
    ss["tch_nrefs"] = len(refs)
    for i in range(MAX_REFS):
        ss[f"tch_ref_{i}"] = refs[i] if i < len(refs) else ""


def _parse_notes(params: dict, warns: list[str]) -> bool:
    """``notes``: on or off in the words the option parameters take (1/0, true/false, yes/no, on/off)."""
    raw = _first(params, "notes")
    if raw is None:
        return False
    try:
        return coerce_value("notes", "bool", raw.strip())
    except ValueError:
        warns.append(f"“notes={raw[:40]}” is not on or off (1/0, true/false, yes/no, on/off); the speaker notes "
                     "stay hidden.")
        return False


def _put_view(params: dict, warns: list[str], n_max: int = MAX_ORDER) -> None:
    """The lesson view's own parameters: order (up to ``n_max``, the BLEU settings' maximum order), step, notes
    and the exercise set's level, seed, size, item."""
    ss = st.session_state
    ss["tch_order"] = _int_param(params, "order", 0, n_max, 0, warns, ORDER_WHAT)
    ss["_tch_step_raw"] = _first(params, "step")
    ss["tch_step"] = 0
    ss["tch_notes"] = _parse_notes(params, warns)
    level = _first(params, "level")
    ss["tch_level"] = level if level in LEVELS else "easy"
    if level not in (None, *LEVELS):
        warns.append(f"“level={level[:40]}” is not one of {', '.join(LEVELS)}; using easy.")
    ss["tch_seed"] = _int_param(params, "seed", 0, MAX_SEED, 1, warns, "a seed")
    ss["tch_n"] = _int_param(params, "n", 1, MAX_SET, 6, warns, "a number of exercises")
    ss["tch_item"] = _int_param(params, "item", 1, MAX_SET + 1, 1, warns, "an exercise number") - 1


def _load_from_url() -> None:
    """A link defines the page on the first run of a session and whenever it differs from what the page last
    wrote (another link followed in the same tab); otherwise the widgets keep their values."""
    params, keep_settings = _params_to_load()
    if params is None:
        return
    ss = st.session_state
    warns: list[str] = []
    ss["tch_mode"] = _parse_mode(params, warns)
    src = _parse_source(params, warns)
    settings = _link_settings(params, src, keep_settings, warns)
    _put_source(src)
    ms.put_settings(settings)
    _put_view(params, warns, max_order(settings))
    ss["_tch_warnings"] = warns
    ss["_tch_loaded"] = True


# ------------------------------------------------------------------------------------------- n-gram order
def max_order(settings: MetricSettings) -> int:
    """The maximum n-gram order of the BLEU settings (the dialect's own rule: sacreBLEU's max_ngram_order,
    NLTK's number of weights …); invalid settings (the lesson says why): the largest any dialect takes."""
    from explainer.bleu.registry import get_dialect

    try:
        return min(MAX_ORDER, get_dialect(settings.bleu_dialect, **dict(settings.bleu_options)).max_order)
    except (ValueError, TypeError, KeyError):
        return MAX_ORDER


def _bound_order(n: int, warns: list[str]) -> None:
    """The order followed stays within the settings' maximum order (a setting changed under it): the
    automatic order otherwise, with a warning."""
    ss = st.session_state
    order = ss.get("tch_order")
    if isinstance(order, int) and 0 <= order <= n:
        return
    if isinstance(order, int) and order > n:
        warns.append(f"The n-gram order followed ({order}) is above the maximum order of these BLEU settings "
                     f"({n}); following the automatic order.")
    ss["tch_order"] = 0


# ------------------------------------------------------------------------------------------- sidebar
def _on_example() -> None:
    """Picking an example undoes the settings the previous example applied and applies its own (the shared
    settings: the Explain page's example picker does the same)."""
    ss = st.session_state
    settings, _ = ms.current_settings()
    prev = ss.get("_tch_prev_example")
    ex = get_example(ss["tch_example"])
    if prev and prev != ex.id:
        settings = ms.undo_example_settings(settings, sorted(set(get_example(prev).settings) - set(ex.settings)))
    settings, _ = ms.apply_example_settings(settings, ex.settings)
    ms.put_settings(settings)


def _on_preset() -> None:
    ss = st.session_state
    pid = ss.get("tch_preset")
    if pid in PRESETS:
        if not 0 <= ss.get("tch_variant", 0) < len(PRESETS[pid].variants) or ss.get("_tch_prev_preset") != pid:
            ss["tch_variant"] = _preset_default_variant(pid)
        _apply_preset_settings()


def _apply_preset_settings() -> None:
    """A preset's lesson shows the lab's numbers: its dialects and options become the shared settings (the
    ROUGE types stay as the other pages have them)."""
    ss = st.session_state
    current, _ = ms.current_settings()
    preset = _source_defaults("preset", DEFAULT_EXAMPLE, ss["tch_preset"], ss.get("tch_variant", 0))
    ms.put_settings(dataclasses.replace(preset, rouge_types=current.rouge_types))


def _sidebar() -> tuple[MetricSettings, list[str]]:
    """The lesson's source and the n-gram order followed, then the shared metric settings; returns those."""
    ss = st.session_state
    with st.sidebar:
        st.header("Lesson")
        st.radio("Teach from", list(SOURCES), key="tch_source", format_func=SOURCES.get, horizontal=False)
        src = ss.get("tch_source", "example")
        if src == "example":
            titles = {e.id: e.title for e in EXAMPLES}
            if ss.get("tch_example") not in titles:
                ss["tch_example"] = DEFAULT_EXAMPLE
            ss["_tch_prev_example"] = ss["tch_example"]
            st.selectbox("Worked example", list(titles), key="tch_example", format_func=titles.get,
                         on_change=_on_example)
            st.caption(hl.md_escape(get_example(ss["tch_example"]).note))
        elif src == "preset":
            ids = _preset_ids()
            if ss.get("tch_preset") not in ids:
                ss["tch_preset"] = ids[0]
            ss["_tch_prev_preset"] = ss["tch_preset"]
            st.selectbox("Gaming-lab preset", ids, key="tch_preset", on_change=_on_preset,
                         format_func=lambda p: f"{PRESETS[p].catalogue} · {PRESETS[p].title}")
            p = PRESETS[ss["tch_preset"]]
            if not 0 <= ss.get("tch_variant", 0) < len(p.variants):
                ss["tch_variant"] = _preset_default_variant(p.id)
            st.selectbox("Which output", list(range(len(p.variants))), key="tch_variant",
                         on_change=_apply_preset_settings, format_func=lambda i: p.variants[i].label)
            st.caption(hl.md_escape(p.lesson))
        else:
            st.text_area("Candidate", key="tch_cand", height=90, help="ROUGE-Lsum reads one sentence per line.")
            n = ss.get("tch_nrefs", 1)
            for i in range(n):
                st.text_area(f"Reference {i + 1}", key=f"tch_ref_{i}", height=70)
            c1, c2 = st.columns(2)
            c1.button("Add reference", key="tch_add_ref", disabled=n >= MAX_REFS,
                      on_click=lambda: ss.update(tch_nrefs=min(MAX_REFS, ss.get("tch_nrefs", 1) + 1)))
            c2.button("Remove last", key="tch_rm_ref", disabled=n <= 1,
                      on_click=lambda: ss.update(tch_nrefs=max(1, ss.get("tch_nrefs", 1) - 1)))
            st.caption(f"At most {MAX_LESSON_CHARS:,} characters in all (longer texts: use the Explain page). "
                       "Your text is not stored on the server; it lives in this page's URL (texts over "
                       f"{MAX_URL_TEXT:,} characters in all: only in this tab).")
        n_max = max_order(ms.current_settings(ss)[0])
        order_warns: list[str] = []
        _bound_order(n_max, order_warns)
        st.selectbox("n-gram order followed in steps 2–4", list(range(0, n_max + 1)), key="tch_order",
                     format_func=lambda n: "automatic (where clipping matters)" if n == 0 else f"{n}-grams",
                     help="The BLEU walkthrough follows one order through the n-gram, counting and clipping "
                          f"steps; automatic picks the lowest order where clipping removes a count. These BLEU "
                          f"settings count up to {n_max}-grams.")
    settings, warns = ms.render_settings_sidebar(rouge_types=False)
    return settings, order_warns + warns


# ------------------------------------------------------------------------------------------- the lesson
def _texts() -> tuple[str, list[str], str, str]:
    """(candidate, references, title, source description) of the chosen source."""
    ss = st.session_state
    src = ss.get("tch_source", "example")
    if src == "example":
        ex = get_example(ss.get("tch_example") or DEFAULT_EXAMPLE)
        return ex.candidate, list(ex.references), ex.title, f"worked example: {ex.title}"
    if src == "preset":
        pid, v = ss["tch_preset"], ss.get("tch_variant", 0)
        p = _preset_params(pid, v)
        return (p.get("candidate", [""])[0], p.get("ref", [""]),
                f"{PRESETS[pid].title}: {PRESETS[pid].variants[v].label}",
                f"gaming-lab preset {PRESETS[pid].catalogue} · {PRESETS[pid].title} — output: "
                f"{PRESETS[pid].variants[v].label}")
    n = ss.get("tch_nrefs", 1)
    return ss.get("tch_cand", ""), [ss.get(f"tch_ref_{i}", "") for i in range(n)], "Your own text", "your own text"


def shared_lesson(cand: str, refs: list[str], settings: MetricSettings, *, order: int = 0,
                  title: str = "", claims: tuple = ()) -> Lesson:
    """The lesson of these texts with these settings (ROUGE types: the lesson's own), computed once and shared
    by every session (:func:`explainer.ui.compute.cached`: in memory, bounded by the texts' size, one
    computation per key at a time — a class opening the teacher's link waits for one computation). ``claims``:
    a worked example's printed numbers, compared in the lesson."""
    settings = dataclasses.replace(settings, rouge_types=LESSON_TYPES)
    state = ExplainState(candidate=cand, refs=list(refs), **settings.to_state_fields())
    # the focus order, the title (the source's name) and the compared claims are part of the lesson
    kind = f"teach_lesson:{order}:{title}:{hash(tuple(claims))}"
    return shared_compute.cached(kind, state, list(refs), lambda: build_lesson(
        cand, list(refs), bleu_dialect=settings.bleu_dialect, bleu_options=dict(settings.bleu_options),
        rouge_dialect=settings.rouge_dialect, rouge_options=dict(settings.rouge_options),
        focus_order=order or None, title=title, claims=tuple(claims)))


def _lesson(cand: str, refs: list[str], settings: MetricSettings, title: str) -> Lesson:
    ss = st.session_state
    # a worked example's printed numbers are compared at their steps
    claims = ()
    if ss.get("tch_source", "example") == "example":
        claims = get_example(ss.get("tch_example") or DEFAULT_EXAMPLE).claims
    return shared_lesson(cand, refs, settings, order=int(ss.get("tch_order") or 0), title=title, claims=claims)


def _input_problem(cand: str, refs: list[str]) -> str | None:
    total = len(cand) + sum(len(r) for r in refs)
    if total > MAX_LESSON_CHARS:
        return (f"The texts have {total:,} characters together; a lesson takes at most {MAX_LESSON_CHARS:,}. "
                "Shorten them (your text stays in the boxes), or use the Explain page for long texts.")
    if not cand.strip():
        return "The candidate is empty. Type the text to be scored in the sidebar."
    if not any(r.strip() for r in refs):
        return "There is no reference yet. Type at least one reference in the sidebar."
    return None


# ----------------------------------------------------------------------------------------------- URL out
def _query(settings: MetricSettings, *, mode: str, step: int | None = None) -> dict:
    """The page's own link: the source, the settings that differ from the source's defaults, and the place."""
    ss = st.session_state
    out: dict[str, Any] = {}
    src = ss.get("tch_source", "example")
    full = ms.settings_to_params(settings)
    full.pop("rouge_types", None)   # not a setting of a lesson
    if src == "example":
        out["example"] = ss.get("tch_example") or DEFAULT_EXAMPLE
    elif src == "preset":
        out["preset"] = ss["tch_preset"]
        out["variant"] = str(ss.get("tch_variant", 0) + 1)
    else:
        cand, refs, _, _ = _texts()
        if _link_chars(cand, refs) is None:
            out["candidate"], out["ref"] = cand, refs
            ss.pop("_tch_long_texts", None)
        else:   # the link cannot carry them: this tab keeps them, the link says so
            out["text"] = NOT_IN_LINK
            ss["_tch_long_texts"] = (cand, list(refs))
    # an exercise set's link carries no source: its settings are stated against the page's default source
    have = ms.settings_to_params(_source_defaults(src, out.get("example", DEFAULT_EXAMPLE), ss.get("tch_preset"),
                                                  ss.get("tch_variant", 0)) if mode != "practice" else
                                 _source_defaults("example", DEFAULT_EXAMPLE, None, 0))
    out.update({k: v for k, v in full.items() if have.get(k) != v})   # only what differs from the source's own
    if mode != "walk":
        out["mode"] = mode
    if mode == "practice":
        out.update(seed=str(ss.get("tch_seed", 1)), level=ss.get("tch_level", "easy"), n=str(ss.get("tch_n", 6)),
                   item=str(ss.get("tch_item", 0) + 1))
        for k in ("example", "preset", "variant", "candidate", "ref"):
            out.pop(k, None)
        return out
    if step is not None:
        out["step"] = str(step + 1)
    if ss.get("tch_order"):
        out["order"] = str(ss["tch_order"])
    if ss.get("tch_notes") and mode == "walk":
        out["notes"] = "1"
    return out


def _link_chars(cand: str, refs: list[str]) -> int | None:
    """The texts' length when it is over what a link carries (MAX_URL_TEXT), else None."""
    total = len(cand) + sum(map(len, refs))
    return total if total > MAX_URL_TEXT else None


def _no_link_warning(total: int) -> str:
    return (f"The texts have {total:,} characters together, more than a link carries ({MAX_URL_TEXT:,}), so this "
            "lesson has no link: the page's URL leaves them out, and reloading or sharing it will not bring them "
            "back. They stay in this tab.")


def _no_link_note(total: int) -> str:
    """What the handouts say instead of a link."""
    return (f"the texts have {total:,} characters together, more than a link carries ({MAX_URL_TEXT:,}); paste "
            "them as your own text on the Teach page.")


def _sync_url(want: dict) -> None:
    norm = {k: (v if isinstance(v, list) else [v]) for k, v in want.items()}
    have = {k: st.query_params.get_all(k) for k in st.query_params.keys()}
    if norm != have:
        st.query_params.from_dict(want)
    st.session_state["_tch_last_params"] = norm


def _base_url() -> str:
    try:
        return (st.context.url or "").split("?")[0]
    except Exception:  # noqa: BLE001 - embedded contexts without a URL
        return ""


def _link(query: dict) -> str:
    return (_base_url() or "teach") + "?" + urlencode(query, doseq=True)


# ----------------------------------------------------------------------------------------- walkthrough
def _step_label(lesson: Lesson, i: int) -> str:
    s = lesson.steps[i]
    return f"{i + 1} / {len(lesson.steps)} · {s.family} · {s.title}"


def _go(delta: int, n: int) -> None:
    ss = st.session_state
    ss["tch_step"] = max(0, min(n - 1, int(ss.get("tch_step", 0)) + delta))


def _nav(lesson: Lesson, mode: str) -> int:
    ss = st.session_state
    n = len(lesson.steps)
    raw = ss.pop("_tch_step_raw", None)
    if raw is not None:
        s = raw.strip()
        if s.isascii() and s.isdigit() and len(s) <= MAX_PARAM_DIGITS and 1 <= int(s) <= n:
            ss["tch_step"] = int(s) - 1
        else:
            st.warning(hl.md_escape(f"Link: “step={raw[:40]}” is not a step of this lesson (1–{n}); showing "
                                    "step 1."), icon=":material/link:")
            ss["tch_step"] = 0
    if not isinstance(ss.get("tch_step"), int) or not 0 <= ss["tch_step"] < n:
        ss["tch_step"] = min(max(0, ss.get("tch_step", 0) if isinstance(ss.get("tch_step"), int) else 0), n - 1)
    i = ss["tch_step"]
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="tch_nav"):
        st.button("Previous", icon=":material/arrow_back:", key="tch_prev", disabled=i == 0, on_click=_go,
                  args=(-1, n), shortcut="Left" if mode == "walk" else None, help="Previous step (← key)")
        st.selectbox("Step", list(range(n)), key="tch_step", format_func=lambda k: _step_label(lesson, k),
                     label_visibility="collapsed", width=380)
        st.button("Next", icon=":material/arrow_forward:", key="tch_next", disabled=i >= n - 1, on_click=_go,
                  args=(1, n), shortcut="Right" if mode == "walk" else None, help="Next step (→ key)")
        if mode == "walk":
            st.toggle("Speaker notes", key="tch_notes")
        else:
            right, asked = _student_score(lesson)
            st.markdown(f"**{right}/{asked}** right", help=f"{right} of your {asked} answers were right; this "
                        f"lesson asks {len(lesson.questions())} questions.")
    return ss["tch_step"]


def _settings_lines(lesson: Lesson) -> list[tuple[str, str]]:
    out = []
    if lesson.bleu_summary:
        out.append(("BLEU", f"{lesson.bleu_summary['implementation']} — {lesson.bleu_summary['signature']}"))
    if lesson.rouge_summary:
        out.append(("ROUGE", lesson.rouge_summary["signature"]))
    return out


def _downloads(lesson: Lesson, settings: MetricSettings, source: str, no_link: int | None = None) -> None:
    """The handouts; ``no_link``: the texts' length when the lesson has no link (the handouts say why instead of
    giving a link to another lesson)."""
    link = "" if no_link else _link(_query(settings, mode="walk", step=0))
    note = _no_link_note(no_link) if no_link else ""
    lesson = dataclasses.replace(lesson, source=source)
    st.download_button("Handout (HTML)", lambda: th.handout_html(lesson, settings=_settings_lines(lesson), link=link,
                                                                 link_note=note),
                       file_name="bleu-rouge-lesson.html", mime="text/html", key="tch_dl_html", on_click="ignore",
                       icon=":material/description:")
    st.download_button("Handout (Markdown)", lambda: handout_markdown(lesson, settings=_settings_lines(lesson),
                                                                      link=link, link_note=note),
                       file_name="bleu-rouge-lesson.md", mime="text/markdown", key="tch_dl_md", on_click="ignore",
                       icon=":material/notes:")
    st.caption("The HTML handout is one file: it opens offline and prints one step per page."
               + (" It has no link to this lesson: the texts are too long for one." if no_link else ""))


def _title(lesson: Lesson, i: int) -> None:
    s = lesson.steps[i]
    _html(f'<div class="tc-title"><span class="fam">{_escape(s.family)}</span>{_escape(s.title)}'
          f'<span class="num">step {i + 1} of {len(lesson.steps)}</span></div>')


def _step_body(lesson: Lesson, i: int, *, notes: bool, fit_window: bool = False) -> None:
    s = lesson.steps[i]
    grid = next((b for b in s.blocks if isinstance(b, LcsGrid)), None)
    upto = None
    if grid is not None and th.grid_cells(grid):
        total = th.grid_cells(grid)
        key = f"tch_cells_{i}_{len(grid.ref_tokens)}x{len(grid.cand_tokens)}"
        if key not in st.session_state or not 0 <= st.session_state[key] <= total:
            st.session_state[key] = total
        upto = st.slider("Cells filled, row by row", 0, total, key=key,
                         help="Move the slider to fill the table one cell at a time.")
    # walkthrough: the step fits the window below the page's own rows (head, navigation, title; the slider)
    fit = (f"calc(100vh - {FIT_OFFSET + (SLIDER_HEIGHT if upto is not None else 0)}px - {FIT_TITLE} * var(--tcb))"
           if fit_window else None)
    body = th.step_html(s, upto=upto, fit=fit, lead=th.cell_rule(grid, upto) if upto else "")
    _html(body)
    if notes:
        extra = ""
        if s.question:
            extra = (f'<br><b>Ask the class:</b> {_escape(s.question.prompt)} <b>Answer:</b> '
                     f"{_escape(s.question.shown)}")
        # a panel fixed to the bottom of the window: the step keeps its layout (no scrolling), the notes
        # cover its lower part while the toggle is on
        _html(f'<div class="tc"><div class="tnotes tnotes-fixed" style="{_panel_style()}" role="note" '
              f'aria-label="speaker notes"><b>Say:</b> {_escape(s.say)}<br><b>Common misconception:</b> '
              f"{_escape(s.misconception)}{extra}</div></div>")


def _panel_style() -> str:
    try:
        dark = st.context.theme.type == "dark"
    except Exception:  # noqa: BLE001 - no theme information (tests, embedded)
        dark = False
    return "background:#0e1117;color:#fafafa" if dark else "background:#fff;color:#111"


# --------------------------------------------------------------------------------------------- student
def _answer_form(q, form_key: str, input_key: str):
    """An answer box with a Check button (Enter submits). The checked answer, or None: not submitted yet, or
    not a number (a warning says so and the question stays)."""
    with st.form(form_key, border=False, enter_to_submit=True):
        with st.container(horizontal=True, vertical_alignment="bottom"):
            st.text_input("Your answer", key=input_key, max_chars=MAX_ANSWER_CHARS, width=260,
                          placeholder="e.g. 3, 0.25, 1/4 or 25%")
            submitted = st.form_submit_button("Check", type="primary")
    if not submitted:
        return None
    c = check_answer(q, st.session_state.get(input_key, ""))
    if c.status == "invalid":
        st.warning(hl.md_escape(c.message), icon=":material/edit:")
        return None
    return c


def _lesson_key(lesson: Lesson) -> str:
    return str(abs(hash((lesson.candidate, tuple(lesson.references), tuple(
        (s.id, s.question.id if s.question else "", s.question.answer if s.question else 0) for s in lesson.steps)))))


def _answers(lesson: Lesson) -> dict:
    store = st.session_state.setdefault("_tch_answers", {})
    return store.setdefault(_lesson_key(lesson), {})


def _student_score(lesson: Lesson) -> tuple[int, int]:
    ans = _answers(lesson)
    return sum(1 for c in ans.values() if c.right), len(ans)


def _student_step(lesson: Lesson, i: int) -> None:
    s = lesson.steps[i]
    q = s.question
    if q is None:
        _step_body(lesson, i, notes=False)
        return
    ans = _answers(lesson)
    revealed = st.session_state.setdefault("_tch_revealed", set())
    rkey = f"{_lesson_key(lesson)}:{i}"
    check = ans.get(i)
    if check is None and rkey not in revealed:
        _html('<div class="tc"><div class="task"><b>Predict before you see it:</b> ' + _escape(q.prompt) +
              f' <span class="thint">({_escape(q.hint)})</span></div>' + th.blocks_html(q.given, img_charts=True) +
              "</div>")
        c = _answer_form(q, f"tch_form_{i}", f"tch_answer_{i}")
        if c is not None:
            ans[i] = c
            st.rerun()
        st.button("Show me the answer", key=f"tch_reveal_{i}", on_click=lambda: revealed.add(rkey),
                  type="tertiary")
        return
    if check is not None:
        (st.success if check.right else st.error)(hl.md_escape(check.message + " " + q.explanation),
                                                  icon=":material/check_circle:" if check.right else
                                                  ":material/cancel:")
    else:
        st.info(hl.md_escape(f"The answer: {q.shown}. {q.explanation}"), icon=":material/visibility:")
    if q.marked:   # the tokens the answer talks about, marked
        _html('<div class="tc tc-marked">' + th.blocks_html(q.marked) + "</div>")
    _step_body(lesson, i, notes=False)

    def again():
        ans.pop(i, None)
        revealed.discard(rkey)
        st.session_state.pop(f"tch_answer_{i}", None)

    st.button("Try this one again", key=f"tch_again_{i}", on_click=again, type="tertiary")


# ------------------------------------------------------------------------------------------ practice
def _practice() -> None:
    ss = st.session_state
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small", key="tch_set_controls"):
        st.segmented_control("Level", list(LEVELS), key="tch_level", required=True,
                             format_func=str.capitalize)
        st.number_input("Seed", 0, MAX_SEED, key="tch_seed", step=1, width=170,
                        help="The same seed, level and number give everyone the same exercises: share the link.")
        st.number_input("Exercises", 1, MAX_SET, key="tch_n", step=1, width=110)
        st.button("New set", icon=":material/casino:", key="tch_new_set",
                  on_click=lambda: ss.update(tch_seed=random.randrange(MAX_SEED + 1), tch_item=0))
    level, seed, n = ss.get("tch_level") or "easy", int(ss.get("tch_seed", 1)), int(ss.get("tch_n", 6))
    ex_set = _exercise_set(seed, level, n)
    store = ss.setdefault("_tch_set_answers", {})
    answers = store.setdefault((seed, level, n), {})
    if not isinstance(ss.get("tch_item"), int) or not 0 <= ss["tch_item"] <= n:
        ss["tch_item"] = 0
    i = ss["tch_item"]
    got = sum(a["points"] for a in answers.values())
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="tch_set_nav"):
        st.button("Previous", icon=":material/arrow_back:", key="tch_item_prev", disabled=i == 0,
                  on_click=lambda: ss.update(tch_item=max(0, ss["tch_item"] - 1)))
        st.selectbox("Exercise", list(range(n + 1)), key="tch_item", label_visibility="collapsed", width=330,
                     format_func=lambda k: "Your score" if k == n else
                     f"{k + 1} / {n} · {_item_title(ex_set.items[k])}" + (" ✓" if k in answers else ""))
        st.button("Next", icon=":material/arrow_forward:", key="tch_item_next", disabled=i >= n,
                  on_click=lambda: ss.update(tch_item=min(n, ss["tch_item"] + 1)))
        st.markdown(f"**Score: {got} of {ex_set.points}**")
    if i == n:
        _score_screen(ex_set, answers)
    else:
        item = ex_set.items[i]
        if isinstance(item, AttackItem):
            _attack_item(item, answers)
        else:
            _numeric_item(item, answers)


@lru_cache(maxsize=32)
def _exercise_set(seed: int, level: str, n: int):
    return generate_set(seed, level, n)


def _item_title(item) -> str:
    return "Spot the gaming attack" if isinstance(item, AttackItem) else item.title


def _texts_html(cand: str | None, refs) -> str:
    out = []
    if cand is not None:
        out.append(f'<div class="tc-lab">Candidate</div><div class="tc-box">{_escape(cand)}</div>')
    for k, r in enumerate(refs):
        out.append(f'<div class="tc-lab">Reference {k + 1}</div><div class="tc-box">{_escape(r)}</div>')
    return "".join(out)


def _numeric_item(item, answers: dict) -> None:
    q = item.question
    _html(f'<div class="tc-title">Exercise {item.index + 1} · {_escape(item.title)}</div>' +
          _texts_html(item.candidate, item.references) +
          f'<div class="tc"><div class="task"><b>{_escape(q.prompt)}</b> <span class="thint">'
          f"({_escape(q.hint)}; {'sacreBLEU' if item.family == 'BLEU' else 'rouge-score'} with its defaults)"
          "</span></div></div>")
    done = answers.get(item.index)
    if done is None:
        c = _answer_form(q, f"tch_set_form_{item.index}", f"tch_set_answer_{item.index}")
        if c is not None:
            answers[item.index] = {"points": int(c.right), "message": c.message}
            st.rerun()
        return
    (st.success if done["points"] else st.error)(hl.md_escape(done["message"] + " " + q.explanation),
                                                 icon=":material/check_circle:" if done["points"] else
                                                 ":material/cancel:")
    step_no = _walk_step_of(item)
    query = {"candidate": item.candidate, "ref": list(item.references)}
    if item.focus_order:
        query["order"] = str(item.focus_order)
    if step_no is not None:
        query["step"] = str(step_no + 1)
    st.link_button("See this pair step by step", _link(query), icon=":material/school:")


def _walk_step_of(item) -> int | None:
    # the lesson the exercise's "step by step" link opens (default settings), shared like every lesson
    lesson = shared_lesson(item.candidate, list(item.references), ms.default_settings(),
                           order=item.focus_order or 0, title="Your own text")
    return next((k for k, s in enumerate(lesson.steps) if s.id == item.step_id), None)


def _attack_item(item: AttackItem, answers: dict) -> None:
    _html(f'<div class="tc-title">Exercise {item.index + 1} · Spot the gaming attack</div>' +
          _texts_html(None, item.references) +
          "".join(f'<div class="tc-lab">Output {"AB"[k]}</div><div class="tc-box">{_escape(t)}</div>'
                  for k, t in enumerate(item.texts)))
    done = answers.get(item.index)
    labels = dict(item.metrics)
    if done is None:
        with st.form(f"tch_atk_form_{item.index}", border=False):
            st.radio("Which output games the metrics?", [0, 1], key=f"tch_atk_pick_{item.index}", index=None,
                     format_func=lambda k: f"Output {'AB'[k]}", horizontal=True)
            st.pills("Which metrics does it fool (score it at least as high as the honest output)?",
                     [m for m, _ in item.metrics], key=f"tch_atk_metrics_{item.index}", selection_mode="multi",
                     format_func=labels.get)
            ok = st.form_submit_button("Check", type="primary")
        if ok:
            pick = st.session_state.get(f"tch_atk_pick_{item.index}")
            mets = st.session_state.get(f"tch_atk_metrics_{item.index}") or []
            if pick is None:
                st.warning("Pick output A or B first.", icon=":material/edit:")
            else:
                a, b = check_attack(item, pick, mets)
                answers[item.index] = {"points": int(a) + int(b), "pick": a, "metrics": b}
                st.rerun()
        return
    msg = (("Right: " if done["pick"] else "No: ") + f"output {'AB'[item.attack]} is the attack "
           f"({item.catalogue} · {item.title}). " + ("The metrics are right too." if done["metrics"] else
                                                    "It fools: " + ", ".join(lab for m, lab in item.metrics
                                                                            if m in item.fooled) + "."))
    (st.success if done["points"] == 2 else st.warning)(hl.md_escape(msg), icon=":material/science:")
    rows = "".join(f"<tr><td>{_escape(labels[m])}</td><td class='n'>{_escape(item.values[m][0])}</td>"
                   f"<td class='n'>{_escape(item.values[m][1])}</td>"
                   f"<td>{'fooled' if m in item.fooled else 'not fooled'}</td></tr>" for m, _ in item.metrics)
    _html('<div class="tc"><table class="tt"><thead><tr><th>metric</th><th>output A</th><th>output B</th>'
          f"<th>the attack</th></tr></thead><tbody>{rows}</tbody></table>"
          f'<p class="tp-key">{_escape(item.lesson)}</p><p class="tp-note">{_escape(item.citation)}</p></div>')


def _score_screen(ex_set, answers: dict) -> None:
    got = sum(a["points"] for a in answers.values())
    _html(f'<div class="tc-title">Your score: {got} of {ex_set.points}</div>')
    rows = []
    for it in ex_set.items:
        a = answers.get(it.index)
        pts = 2 if isinstance(it, AttackItem) else 1
        rows.append(f"<tr><td>{it.index + 1}</td><td>{_escape(_item_title(it))}</td>"
                    f"<td class='n'>{'—' if a is None else a['points']} / {pts}</td></tr>")
    _html('<div class="tc"><table class="tt"><thead><tr><th>#</th><th>exercise</th><th>points</th></tr></thead>'
          f"<tbody>{''.join(rows)}</tbody></table><p class=\"tp-note\">Seed {ex_set.seed}, level {ex_set.level}: "
          "the same link gives everyone the same exercises.</p></div>")


# ------------------------------------------------------------------------------------------------ page
def render() -> None:
    # a projector needs the width: the sidebar (lesson source, settings) starts collapsed on this page
    st.set_page_config(initial_sidebar_state="collapsed")
    _load_from_url()
    ss = st.session_state
    _html(f"<style>{th.TEACH_CSS}</style>" + PAGE_CSS)
    for w in ss.pop("_tch_warnings", []):
        st.warning("Link: " + hl.md_escape(w), icon=":material/link:")
    settings, warns = _sidebar()
    for w in warns:
        st.warning(hl.md_escape(w))
    mode = ss.get("tch_mode") or "walk"
    cand, refs, title, source = _texts()
    lesson, problem = None, None
    if mode != "practice":
        problem = _input_problem(cand, refs)
        if problem is None:
            refs = [r for r in refs if r != ""]
            with st.spinner("Computing BLEU and ROUGE step by step…"):
                lesson = _lesson(cand, refs, settings, title)
    # own texts over what a link carries: no link (said here and in the handouts)
    no_link = _link_chars(cand, refs) if mode != "practice" and ss.get("tch_source") == "text" else None
    if no_link:
        st.warning(hl.md_escape(_no_link_warning(no_link)), icon=":material/link_off:")
    with st.container(horizontal=True, vertical_alignment="center", key="tch_head"):
        st.segmented_control("View", list(MODES), key="tch_mode", format_func=MODES.get, required=True,
                             label_visibility="collapsed")
        if lesson is not None and lesson.steps:
            with st.popover("Handout", icon=":material/download:"):
                _downloads(lesson, settings, source, no_link)
        st.caption(hl.md_escape(f"Teaching: {title}") if mode != "practice" else
                   "Fresh exercises: predict the number, then check it.")
    if mode == "practice":
        _practice()
        _sync_url(_query(settings, mode=mode))
        return
    if problem:
        st.warning(hl.md_escape(problem), icon=":material/edit_note:")
        _sync_url(_query(settings, mode=mode))
        return
    for note in lesson.notes:
        st.error(hl.md_escape(note))
    if not lesson.steps:
        _sync_url(_query(settings, mode=mode))
        return
    i = _nav(lesson, mode)
    _title(lesson, i)
    if mode == "student":
        _student_step(lesson, i)
    else:
        _step_body(lesson, i, notes=bool(ss.get("tch_notes")), fit_window=True)
    _sync_url(_query(settings, mode=mode, step=i))
