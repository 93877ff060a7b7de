"""The Gaming lab's Metric optimizer: hill climbing on any family's measure, a budget in search steps (the same
seed, moves and steps give the same text on any machine; time only as a safety limit), a progress bar and Stop,
every family's verdict on the result, the result re-scored by the real packages, and the result in the link (the
talk laptop shows what the rehearsal showed)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from explainer.attacks.measures import TextScorer
from explainer.attacks.optimizer import (
    MAX_WORDS,
    MOVES,
    TARGET_ALIASES,
    TARGETS,
    TRACKED,
    OptimizerResult,
    optimize,
)
from explainer.attacks.verdicts import Row, build_table
from explainer.ui import charts
from explainer.ui import highlight as hl
from explainer.ui.display import data_table, large_text
from explainer.ui.lab import charts as lab_charts
from explainer.ui.lab import view as lv
from explainer.ui.lab.common import (
    box,
    explain_href,
    html,
    persistent_select,
    persistent_widget,
    show_verdicts,
    user_inputs,
)
from explainer.ui.lab.link import OPT_BUDGET, OPT_SEED, OPT_STEPS, optimizer_texts
from explainer.ui.pagestate import MAX_URL_TEXT
from explainer.ui.progress import Progress

__all__ = ["render", "repair", "NO_MOVE", "verdict_table", "LEGACY_OF"]

NO_MOVE = ("None of the chosen moves can change this text: delete and replace need at least one word, swap "
           f"needs two, insert needs fewer than {MAX_WORDS} words. Nothing was changed; choose other moves.")
#: a family column -> the lab's fast-path key of the same number (re-checked with the real packages)
LEGACY_OF = {v: k for k, v in TARGET_ALIASES.items()}
LINK_RESULT = "lab_opt_link_result"


def repair() -> None:
    """Run at the start of every script run. ``lab_opt_running`` is True only while a search runs inside a
    script run; if it is still True now, that run was interrupted by a rerun: by the Stop button (then the
    result is "stopped by you"), or by anything else (a slider moved, a section switched), in which case the
    search simply ended there. Either way no search is running any more."""
    ss = st.session_state
    if not ss.get("lab_opt_running"):
        return
    lv.RunRecorder.disown(ss, "lab_opt_owner")   # an interrupted search may still be stepping: stop it
    ss["lab_opt_running"] = False
    res = ss.get("lab_opt_result")
    by_stop = bool(ss.get("lab_opt_stop"))
    ss["lab_opt_stopped"] = by_stop
    if res is not None and not res.stopped:
        res.stopped = "by you" if by_stop else "interrupted (the page reran before the search ended)"


def render() -> None:
    optimizer_texts()
    inp = user_inputs()
    if inp is None:
        return
    cand, refs = inp
    ss = st.session_state
    target, steps, limit, seed, moves = _controls(cand)
    b1, b2 = st.columns([1, 1])
    run = b1.button("Run optimizer", type="primary", key="lab_opt_run", disabled=not moves)
    # Clicking Stop while a search runs makes Streamlit rerun the script, which interrupts the search;
    # repair() (start of the run) marks the result saved by the callback as stopped by you.
    b2.button("Stop search", key="lab_opt_stop")
    sig = (cand, tuple(refs), target, seed, steps, tuple(moves))
    _link_result_for(sig)
    if run and moves and not _run_search(cand, refs, target, steps, limit, seed, moves):
        return
    if run:
        ss["_lab_opt_link_for"] = sig
    res = ss.get("lab_opt_result")
    if res is None:
        if ss.get(LINK_RESULT):
            _show_link_result(cand, refs, target, seed, steps)
        elif ss.get("lab_opt_stopped"):
            st.warning("Stopped before the search had started.")
        else:
            st.info("Press **Run optimizer** to watch a metric being gamed.")
        return
    if (res.source != cand or res.target != target or list(res.moves) != moves
            or list(res.references) != [r for r in refs if r.strip()]):
        st.caption("(Result of the last run, scored against the references it was run with; the inputs, the "
                   "references, the target or the moves changed since.)")
    if res.stopped == "by you":
        st.warning("Stopped by you: showing the best text found so far.")
    elif res.stopped == "no applicable move":
        st.warning(NO_MOVE)
    elif res.stopped == "time limit":
        st.warning(f"Stopped at the time limit ({res.budget_seconds:g} s) after {res.steps} of {res.max_steps} "
                   "steps: another machine may get further. Raise the time limit for a run that repeats.")
    replayed = ss.get("_lab_opt_replay_of")
    if replayed:
        if replayed == res.final:
            st.success("The search repeated: it ended on the same text as the link's.")
        else:
            st.warning("This run ended on another text than the link's (a time limit, or other texts or settings).")
    # the result is shown and re-scored against the references the search used, not the boxes' current text
    _show_result(res, list(res.references))


def _link_result_for(sig: tuple) -> None:
    """The link's result belongs to the settings it came with (or the last run's): another candidate, target,
    seed, number of steps or moves drops it (the link then has no result)."""
    ss = st.session_state
    if not ss.get(LINK_RESULT):
        return
    if ss.get("_lab_opt_link_for") is None:      # just loaded from a link
        ss["_lab_opt_link_for"] = sig
    elif ss["_lab_opt_link_for"] != sig:
        ss[LINK_RESULT] = ""


def _controls(cand: str) -> tuple[str, int, float, int, list[str]]:
    """Target, steps, time limit, seed and moves (each kept across sections and in the link)."""
    c1, c2, c3, c4 = st.columns([3, 3, 2, 2])
    with c1:
        target = persistent_select("Maximise", "lab_opt_target", list(TARGETS), format_func=TARGETS.get,
                                   help="Any measure of any metric family (an error rate such as TER is lowered), "
                                        "or ROUGE-1 recall.")
    with c2:
        lo, hi, default = OPT_STEPS
        steps = persistent_widget(st.slider, "search steps (the budget)", "lab_opt_steps", "lab_opt_steps_v",
                                  default, lo, hi, step=1)
    with c3:
        lo, hi, default, step = OPT_BUDGET
        limit = persistent_widget(st.number_input, "time limit (s)", "lab_opt_budget", "lab_opt_budget_v", default,
                                  lo, hi, step=step, help="A safety net: a run it cuts short says so.")
    with c4:
        slo, shi, sdefault = OPT_SEED
        seed = persistent_widget(st.number_input, "seed", "lab_opt_seed", "lab_opt_seed_v", sdefault, slo, shi,
                                 step=1)
    # its own row, full width: in a quarter of the page the box showed two of the four chosen moves and "+2"
    moves = persistent_widget(st.multiselect, "moves", "lab_opt_moves", "lab_opt_moves_v", list(MOVES),
                              list(MOVES), normalize=lambda v: [m for m in MOVES if m in v])
    moves = [m for m in MOVES if m in moves]  # canonical order (the optimizer uses it too)
    st.caption("Greedy hill climbing: each step tries 60 random insert / delete / swap / replace-with-a-reference-"
               "word edits and keeps the best one if it improves the chosen metric. The same seed, moves and number "
               "of steps give the same search and the same text on any machine (every score is bounded in work, "
               "not time); the link keeps them, and the text the run ended on.")
    n_words = len(cand.split())
    if n_words > MAX_WORDS:
        st.warning(f"Your candidate has {n_words} words; the optimizer works on the first {MAX_WORDS} only, and "
                   f"everything it reports (start text, scores, edits) is about those {MAX_WORDS} words.")
    if not moves:
        st.warning("Choose at least one move.")
    return target, int(steps), float(limit), int(seed), moves


def _run_search(cand, refs, target, steps, limit, seed, moves) -> bool:
    """Run the optimizer with a progress bar; the result goes to the session (also step by step, so Stop keeps
    the best text so far), as a snapshot owned by this run. False when there is nothing more to show in this run
    (a message was shown, or a newer run took over)."""
    ss = st.session_state
    ss["lab_opt_stopped"] = False
    ss["lab_opt_running"] = True
    ss["_lab_opt_replay_of"] = ss.get(LINK_RESULT) if ss.get("lab_opt_result") is None else None
    ss.pop("lab_opt_result", None)  # the start-state callback stores the new run at once
    bar = Progress("searching…")
    recorder = lv.RunRecorder(ss, "lab_opt_result", "lab_opt_owner")

    def cb(res):
        if not recorder.keep(res):
            return False   # a newer script run took over (Stop, or any other widget)
        v = res.trajectory[-1].get(target)
        bar(min(1.0, res.steps / max(steps, 1)), f"step {res.steps} of {steps}: {TARGETS[target]} = "
                                                  f"{'—' if v is None else f'{v:.4f}'} "
                                                  f"({res.evaluations} candidates scored)")

    try:
        res = optimize(cand, refs, target, max_steps=steps, time_limit=limit, seed=seed, moves=moves, callback=cb)
    except ValueError as exc:
        ss["lab_opt_running"] = False
        st.error(hl.md_escape(str(exc)))
        return False
    except Exception as exc:  # noqa: BLE001 - never a traceback on the page
        ss["lab_opt_running"] = False
        st.error("The optimizer failed (a bug; please report it with this page's link): "
                 + hl.md_escape(f"{type(exc).__name__}: {exc}"))
        return False
    if not recorder.keep(res):
        return False
    ss["lab_opt_running"] = False
    ss[LINK_RESULT] = res.final if len(res.final) <= MAX_URL_TEXT else ""
    bar.finish(f"done: {res.stopped}")
    return True


def verdict_table(start: str, final: str, start_values: dict, final_values: dict, columns):
    rows = [Row("start", "honest", start_values), Row("optimised", "attack", final_values, base=0)]
    return build_table("attack", columns, rows, (1,))


def _rescore_check(res: OptimizerResult, table) -> None:
    """Re-score the start (when non-empty) and the final text with the real packages and compare every
    number shown that they compute: the verdict table's BLEU and ROUGE, and the trajectory's values."""
    from explainer.attacks.verify import PACKAGES, compare, real_scores

    def shown(i: int, entry: dict):
        family = {LEGACY_OF[c.key]: table.rows[i].values[c.key] for c in table.columns
                  if c.key in LEGACY_OF and table.rows[i].values.get(c.key) is not None}
        return [family, {m: entry[m] for m in TRACKED}]

    texts = [("optimised text", res.final, shown(1, res.trajectory[-1]))]
    if res.start.split():
        texts.insert(0, ("start text", res.start, shown(0, res.trajectory[0])))
    bad, n = [], 0
    for label, text, values in texts:
        real = real_scores(text, list(res.references))
        for v in values:
            n += sum(1 for m in real if m in v)
            bad += compare(label, v, real)
    which = " and ".join(t[0] for t in texts)
    if not bad:
        st.success(f"Re-scored by {PACKAGES}: identical — all {n} numbers shown for the {which} "
                   "(table, headline and chart) that these packages compute equal what they say (to 1e-9).")
    else:
        st.error(f"Re-scored by {PACKAGES}: {len(bad)} number(s) differ (a bug):")
        data_table(pd.DataFrame([{"text": b.label, "metric": b.metric, "shown": b.shown, "package": b.real,
                                  "difference": b.shown - b.real} for b in bad]), hide_index=True)


def _headline(res: OptimizerResult) -> None:
    t = res.target
    accepted = max(len(res.trajectory) - 1, 0)  # the trajectory holds the start and every accepted move
    a, b = res.start_score, res.final_score
    fmt = lambda v: "—" if v is None else f"{v:.4f}"  # noqa: E731
    st.markdown(f"**{TARGETS[t]}: {fmt(a)} → {fmt(b)}** in {accepted} accepted "
                f"move{'s' if accepted != 1 else ''} over {res.steps} of {res.max_steps} search steps "
                f"(seed {res.seed}; {res.evaluations} candidates scored, {res.elapsed:.2f} s, stopped: "
                f"{hl.md_escape(res.stopped or 'running')}).")
    if res.truncated:
        st.caption(f"The candidate was cut to its first {MAX_WORDS} words (of {res.input_words}) before the "
                   "search; the start text below is that cut text.")


def _texts(start: str, final: str, refs, truncated: bool) -> None:
    c1, c2 = st.columns(2)
    with c1:
        html('<div class="lab-label">Start' + (f" (first {MAX_WORDS} words)" if truncated else "") + "</div>" +
             box(start))
    with c2:
        html('<div class="lab-label">Optimised text</div>' + box(final))
        st.link_button("Open in Explain ↗", explain_href(lv.explain_query(final, refs)), key="lab_opt_ex")


def _show_result(res: OptimizerResult, refs) -> None:
    _headline(res)
    _texts(res.start, res.final, refs, res.truncated)
    scorer = TextScorer(refs)
    cols = scorer.columns
    first, last = res.trajectory[0], res.trajectory[-1]
    table = verdict_table(res.start, res.final, {c.key: first.get(c.key) for c in cols},
                          {c.key: last.get(c.key) for c in cols}, cols)
    show_verdicts(table)
    _rescore_check(res, table)
    u = res.unreadable
    st.markdown(f"**How unreadable is it?** {u['unseen_bigram_share']:.0%} of its adjacent word pairs occur in "
                f"neither a reference nor the start text; {u['immediate_repeats']} immediate repetition(s); "
                f"{u['word_edits_from_start']} word edit(s) from the start ({u['words']} "
                f"word{'s' if u['words'] != 1 else ''}). A crude signal, not a fluency model.")
    st.plotly_chart(charts.readable(lab_charts.trajectory_figure(res), large=large_text()), key="lab_traj_fig",
                    theme=None)
    df = pd.DataFrame(res.trajectory)
    with st.expander("Every accepted step"):
        data_table(df, hide_index=True)
    st.download_button("Download the trajectory (CSV)", df.to_csv(index=False).encode("utf-8"),
                       file_name="optimizer-trajectory.csv", mime="text/csv", key="lab_dl_traj")


def _show_link_result(cand: str, refs, target: str, seed: int, steps: int) -> None:
    """The text a run ended on, as the link carries it: shown and scored now (no search); Run repeats the search,
    which gives the same text for the same seed, moves and steps."""
    final = st.session_state[LINK_RESULT]
    start = " ".join(cand.split()[:MAX_WORDS])
    st.info(f"**The result in this link** (maximising {TARGETS.get(target, target)}, seed {seed}, {steps} steps): "
            "scored now. **Run optimizer** repeats the search: the same seed, moves and steps give the same text.")
    _texts(start, final, refs, len(cand.split()) > MAX_WORDS)
    scorer = TextScorer(refs)
    table = verdict_table(start, final, scorer.score(start), scorer.score(final), scorer.columns)
    show_verdicts(table)
