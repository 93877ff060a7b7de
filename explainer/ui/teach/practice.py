"""The Teach page's exercise sets: a seeded set of numeric questions and "spot the gaming attack" items, their
checks and the score."""
from __future__ import annotations

import hashlib
import random
from functools import lru_cache

import streamlit as st

from explainer.teach.exercises import (
    ATTACK_TITLE,
    LEVELS,
    MAX_SEED,
    MAX_SET,
    AttackItem,
    attack_feedback,
    exercise_plan,
    item_points,
    score_text,
)
from explainer.teach.families import DEFAULT_LECTURE, lesson_family
from explainer.teach.results import progress_checksum, progress_holds
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import settings as ms
from explainer.ui.teach.common import answer_form, escape, html, link, shared_lesson
from explainer.ui.teach.link import LINK_PROGRESS, lecture
from explainer.ui.teach.set_results import score_screen

#: the set's values kept while another view is shown (Streamlit forgets a widget's value when it is not drawn)
KEPT = "_tch_practice_kept"
SET_KEYS = {"tch_level": "easy", "tch_seed": 1, "tch_n": 6, "tch_item": 0}


def _keep_values() -> None:
    """The set's widget values back from before another view was shown (not the number input's minimum)."""
    ss = st.session_state
    kept = ss.get(KEPT) or {}
    for k, default in SET_KEYS.items():
        if k not in ss:
            ss[k] = kept.get(k, default)


def _new_set() -> None:
    st.session_state.update(tch_seed=random.randrange(MAX_SEED + 1), tch_item=0)


def practice() -> None:
    ss = st.session_state
    _keep_values()
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small", key="tch_set_controls"):
        st.segmented_control("Level", list(LEVELS), key="tch_level", required=True,
                             format_func=str.capitalize)
        st.number_input("Seed", 0, MAX_SEED, key="tch_seed", step=1, width=170,
                        help="The same seed, level and number give everyone the same exercises: share the link.")
        st.number_input("Exercises", 1, MAX_SET, key="tch_n", step=1, width=110,
                        help="More exercises add items to the same set; the first ones stay as they are.")
        st.button("New set", icon=":material/casino:", key="tch_new_set", on_click=_new_set)
    level, seed, n = ss.get("tch_level") or "easy", int(ss.get("tch_seed", 1)), int(ss.get("tch_n", 6))
    names, options = _lecture()
    plan = _plan(seed, level, n, names, options)
    sid = set_id(plan)
    # a set's answers, by its seed, level and lecture (not its size: a larger set keeps them)
    answers = ss.setdefault("_tch_set_answers", {}).setdefault(sid, {})
    _restore(plan, sid, answers, ss.pop("_tch_done_link", None))
    i = ps.choice("tch_item", range(n + 1), 0)
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="tch_set_nav"):
        st.button("Previous", icon=":material/arrow_back:", key="tch_item_prev", disabled=i == 0,
                  on_click=lambda: ss.update(tch_item=max(0, ps.shown("tch_item", 0) - 1)))
        st.selectbox("Exercise", list(range(n + 1)), key="tch_item", label_visibility="collapsed", width=330,
                     format_func=lambda k: "Your score" if k == n else
                     f"{k + 1} / {n} · {plan.entries[k].title}" + (" ✓" if k in answers else ""))
        st.button("Next", icon=":material/arrow_forward:", key="tch_item_next", disabled=i >= n,
                  on_click=lambda: ss.update(tch_item=min(n, ps.shown("tch_item", 0) + 1)))
        st.markdown(f"**{score_text(plan, answers)}**")
    ss[KEPT] = {k: ss.get(k) for k in SET_KEYS}
    done = progress(answers, n)
    ss[LINK_PROGRESS] = (done, progress_checksum(sid, done) if done else "")
    if i == n:
        score_screen(plan, answers)
        return
    with st.spinner("Making the exercise…"):
        item = plan.item(i)
    if isinstance(item, AttackItem):
        _attack_item(item, answers, sid)
    else:
        _numeric_item(item, answers, sid)


def set_id(plan) -> str:
    """What a set's answers and checksums belong to: its seed, level and lecture (with the options its exercises
    keep)."""
    opts = ";".join(f"{f}:{','.join(f'{k}={v}' for k, v in o)}" for f, o in plan.options if o)
    return f"{plan.seed}|{plan.level}|{','.join(plan.names)}|{opts}"


def _key(sid: str) -> str:
    """A short tag of a set for its widgets' keys: each set's answer boxes (and their tries) are its own."""
    return hashlib.sha256(sid.encode("utf-8")).hexdigest()[:10]


def progress(answers: dict, n: int) -> str:
    """The ``done`` parameter for ``answers`` (exercise index -> {"points": …}) of a set of ``n``."""
    return "".join(str(answers[k]["points"]) if k in answers else "-" for k in range(n)).rstrip("-")


def _restore(plan, sid: str, answers: dict, link: tuple[str, str] | None) -> None:
    """The progress a link carries (``done``: "-" or the points of each exercise; a reload keeps the score) when
    its checksum is this server's for this set; else a warning and the set as it is."""
    if not link:
        return
    done, checksum = link
    if not progress_holds(sid, done, checksum):
        st.warning("The progress in this link does not carry this server's checksum for this set (edited by hand, "
                   "made by another server, or before a restart without a fixed key), so it is not counted; the "
                   "exercises start afresh.", icon=":material/gpp_bad:")
        return
    for k, ch in enumerate(done[:plan.size]):
        if ch == "-" or k in answers:
            continue
        most = item_points(plan.entries[k])
        pts = min(int(ch), most)
        answers[k] = {"points": pts, "message": f"Answered before (kept in the link): {pts} of {most} point"
                                                f"{'s' if most != 1 else ''}."}


def _lecture() -> tuple[tuple[str, ...], tuple]:
    """The lecture's families and, per family, the settings its exercises keep (chrF++'s word n-grams …)."""
    settings, _ = ms.current_settings()
    names = lecture()
    return names, tuple((n, tuple(sorted(lesson_family(n).exercise_options(settings[n].dialect,
                                                                           settings[n].options).items())))
                        for n in names)


@lru_cache(maxsize=64)
def _plan(seed: int, level: str, n: int, names: tuple = DEFAULT_LECTURE, options: tuple = ()):
    return exercise_plan(seed, level, n, families=names, options={k: dict(v) for k, v in options})


def _source(item) -> str:
    return lesson_family(item.metric_family).exercise_source(item.options)


def _item_title(item) -> str:
    return ATTACK_TITLE if isinstance(item, AttackItem) else item.title


def _points_tag(item) -> str:
    k = item_points(item)
    return f' <span class="thint">({k} point{"s" if k != 1 else ""})</span>'


def _texts_html(cand: str | None, refs) -> str:
    out = []
    if cand is not None:
        out.append(f'<div class="tc-lab">Candidate</div><div class="tc-box">{escape(cand)}</div>')
    for k, r in enumerate(refs):
        out.append(f'<div class="tc-lab">Reference {k + 1}</div><div class="tc-box">{escape(r)}</div>')
    return "".join(out)


def _numeric_item(item, answers: dict, sid: str) -> None:
    q = item.question
    html(f'<div class="tc-title">Exercise {item.index + 1} · {escape(item.title)}{_points_tag(item)}</div>' +
          _texts_html(item.candidate, item.references) +
          f'<div class="tc"><div class="task"><b>{escape(q.prompt)}</b> <span class="thint">'
          f"({escape(q.hint)}; {escape(_source(item))})"
          "</span></div></div>")
    done = answers.get(item.index)
    if done is None:
        tag = _key(sid)
        c = answer_form(q, f"tch_set_form_{tag}_{item.index}", f"tch_set_answer_{tag}_{item.index}")
        if c is not None:
            answers[item.index] = {"points": int(c.right), "message": f"{int(c.right)} of 1 point. {c.message}"}
            st.rerun()
        return
    (st.success if done["points"] else st.error)(hl.md_escape(done["message"] + " " + q.explanation),
                                                 icon=":material/check_circle:" if done["points"] else
                                                 ":material/cancel:")
    step_no = _walk_step_of(item)
    # the walkthrough of the item's family alone, with the settings its answer is computed with
    query = {"candidate": item.candidate, "ref": list(item.references), "metric": item.metric_family,
             **_item_settings(item)}
    if item.focus_order:
        query["order"] = str(item.focus_order)
    if step_no is not None:
        query["step"] = str(step_no + 1)
    st.link_button("See this pair step by step", link(query), icon=":material/school:")


def _item_settings(item) -> dict:
    """The link parameters of the settings an exercise's answer is computed with (the defaults, with the options
    its family kept)."""
    base = ms.default_settings()
    choice = base[item.metric_family]
    params = ms.settings_to_params(base.replace(choice.replace(**item.options)))
    default = ms.settings_to_params(base)
    return {k: v for k, v in params.items() if default.get(k) != v}


def _walk_step_of(item) -> int | None:
    # the lesson the exercise's "step by step" link opens (the item's settings), shared like every lesson
    base = ms.default_settings()
    settings = base.replace(base[item.metric_family].replace(**item.options))
    lesson = shared_lesson(item.candidate, list(item.references), settings, names=(item.metric_family,),
                           order=item.focus_order or 0, title="Your own text")
    return next((k for k, s in enumerate(lesson.steps) if s.id == item.step_id), None)


def _attack_item(item: AttackItem, answers: dict, sid: str) -> None:
    html(f'<div class="tc-title">Exercise {item.index + 1} · Spot the gaming attack{_points_tag(item)}</div>' +
          "".join(f'<div class="tc-lab">{escape(lab)}</div><div class="tc-box">{escape(t)}</div>'
                  for lab, t in item.context) +
          _texts_html(None, item.references) +
          "".join(f'<div class="tc-lab">Output {"AB"[k]}</div><div class="tc-box">{escape(t)}</div>'
                  for k, t in enumerate(item.texts)))
    done = answers.get(item.index)
    labels = dict(item.metrics)
    if done is None:
        tag = f"{_key(sid)}_{item.index}"
        with st.form(f"tch_atk_form_{tag}", border=False):
            st.radio("Which output games the metrics?", [0, 1], key=f"tch_atk_pick_{tag}", index=None,
                     format_func=lambda k: f"Output {'AB'[k]}", horizontal=True)
            st.pills("Which metrics does it fool (score it at least as high as the honest output)?",
                     [m for m, _ in item.metrics], key=f"tch_atk_metrics_{tag}", selection_mode="multi",
                     format_func=labels.get)
            ok = st.form_submit_button("Check", type="primary")
        if ok:
            pick = st.session_state.get(f"tch_atk_pick_{tag}")
            mets = st.session_state.get(f"tch_atk_metrics_{tag}") or []
            if pick is None:
                st.warning("Pick output A or B first.", icon=":material/edit:")
            else:
                pts, msg = attack_feedback(item, pick, mets)
                answers[item.index] = {"points": pts, "message": msg}
                st.rerun()
        return
    msg = done["message"]
    (st.success if done["points"] == item_points(item) else st.warning)(hl.md_escape(msg),
                                                                       icon=":material/science:")
    rows = "".join(f"<tr><td>{escape(labels[m])}</td><td class='n'>{escape(item.values[m][0])}</td>"
                   f"<td class='n'>{escape(item.values[m][1])}</td>"
                   f"<td>{'fooled' if m in item.fooled else 'not fooled'}</td></tr>" for m, _ in item.metrics)
    html('<div class="tc"><table class="tt"><thead><tr><th>metric</th><th>output A</th><th>output B</th>'
          f"<th>the attack</th></tr></thead><tbody>{rows}</tbody></table>"
          f'<p class="tp-key">{escape(item.lesson)}</p><p class="tp-note">{escape(item.citation)}</p></div>')
