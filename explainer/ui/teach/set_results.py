"""The exercise set's last screen: the score per exercise, the student's results as a file for a course's LMS (CSV
or JSON, with the keyed checksum of :mod:`explainer.teach.results`), and the teacher's check of such a file."""
from __future__ import annotations

import datetime

import streamlit as st

from explainer.teach.exercises import item_points, score_text
from explainer.teach.results import (
    MAX_NAME_CHARS,
    MAX_RESULTS_CHARS,
    ResultRow,
    key_source,
    read_results,
    results_csv,
    results_json,
    results_record,
    verify_results,
)
from explainer.ui import highlight as hl
from explainer.ui.teach.common import escape, html


def _rows(plan, answers: dict) -> list[ResultRow]:
    return [ResultRow(e.index + 1, e.title, None if e.index not in answers else answers[e.index]["points"],
                      item_points(e)) for e in plan.entries]


def score_screen(plan, answers: dict) -> None:
    html(f'<div class="tc-title">{escape(score_text(plan, answers))}</div>')
    rows = "".join(f"<tr><td>{r.number}</td><td>{escape(r.exercise)}</td>"
                   f"<td class='n'>{'—' if r.points is None else r.points} / {r.of}</td></tr>" for r in _rows(plan,
                                                                                                             answers))
    html('<div class="tc"><table class="tt"><thead><tr><th>#</th><th>exercise</th><th>points</th></tr></thead>'
         f"<tbody>{rows}</tbody></table><p class=\"tp-note\">Seed {plan.seed}, level {plan.level}: the same link "
         "gives everyone the same exercises.</p></div>")
    _export(plan, answers)
    _verify()


def _export(plan, answers: dict) -> None:
    """The student's results as CSV and JSON (one row per exercise, the checksum in every row)."""
    st.text_input("Your name (in the results file)", key="tch_result_name", max_chars=MAX_NAME_CHARS,
                  help="The file is made in your browser's download; it is not stored on the server.")
    made = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()

    def record():
        return results_record(name=st.session_state.get("tch_result_name") or "", seed=plan.seed, level=plan.level,
                              lesson=",".join(plan.names), rows=_rows(plan, answers), made=made)

    stem = f"teach-results-seed{plan.seed}-{plan.level}"
    with st.container(horizontal=True, key="tch_results_dl"):
        st.download_button("Results (CSV)", lambda: results_csv(record()), file_name=stem + ".csv",
                           mime="text/csv", key="tch_results_csv", on_click="ignore", icon=":material/table:")
        st.download_button("Results (JSON)", lambda: results_json(record()), file_name=stem + ".json",
                           mime="application/json", key="tch_results_json", on_click="ignore",
                           icon=":material/data_object:")
    st.caption("Each file carries a checksum made with this server's key: a score changed in the file (or in the "
               "link) no longer checks out. The teacher checks a file below.")


def _verify() -> None:
    with st.expander("For the teacher: check a student's results file"):
        st.caption(f"The checksum is made with {key_source()}. A file made by another server, or by this one "
                   "before a restart without a fixed key, does not check out.")
        up = st.file_uploader("Results file (CSV or JSON)", type=["csv", "json"], key="tch_results_check",
                              max_upload_size=1)
        if up is None:
            return
        raw = up.getvalue()[:MAX_RESULTS_CHARS + 1]
        try:
            record = read_results(raw.decode("utf-8", errors="replace"))
        except ValueError as e:
            st.error(hl.md_escape(str(e)), icon=":material/error:")
            return
        who = record.get("name") or "no name"
        head = (f"{who}: {record.get('points')} of {record.get('of')} points (seed {record.get('seed')}, level "
                f"{record.get('level')}, {len(record.get('exercises') or [])} exercises, made {record.get('made')})")
        if verify_results(record):
            st.success(hl.md_escape(f"Checks out — {head}."), icon=":material/verified:")
        else:
            st.error(hl.md_escape(f"Does not check out: the file was changed, or made with another key — {head}."),
                     icon=":material/gpp_bad:")
