"""The Gaming lab page: presets, attack generators on the user's input, sweeps and the metric optimizer.

Layout over :mod:`explainer.attacks` (all numbers) and :mod:`explainer.ui.lab.view` / ``charts`` (escaped HTML,
figures). The page's state is declared once in :mod:`explainer.ui.lab.link` (the pagestate engine reads and
writes its link).
"""
from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from explainer.attacks import generators as gen
from explainer.attacks.optimizer import MAX_WORDS, MOVES, TARGETS, optimize
from explainer.attacks.presets import ENTRIES, LESSON_CARDS, evaluate, get_preset
from explainer.attacks.scoring import DEFAULT_METRICS, metric_label, score, score_corpus
from explainer.attacks.sweeps import DEFAULT_PAD, SWEEPS
from explainer.ui import charts
from explainer.ui import highlight as hl
from explainer.ui.display import data_table, large_text, render_display_toggle
from explainer.ui.lab import charts as lab_charts
from explainer.ui.lab import chrf_panel
from explainer.ui.lab import view as lv
from explainer.ui.lab.link import (
    DEFAULT_PRESET,
    OPT_BUDGET,
    OPT_SEED,
    PAGE,
    load_from_url,
    optimizer_texts,
    query,
    refs_list,
)
from explainer.ui.progress import Progress

MAX_LAB_CHARS = 5_000  # the lab re-scores texts hundreds of times; keep inputs paragraph-sized
GEN_METRICS = DEFAULT_METRICS
# A Material icon, as on the Explain page: an emoji such as 💡 is a missing glyph in Debian's Chromium
# (no emoji font installed).
LESSON_ICON = ":material/lightbulb:"


def _html(body: str) -> None:
    st.html(lv.LAB_CSS + body)


def _box(text: str) -> str:
    return f'<div class="lab-box">{hl.escape_text(text)}</div>'


# ------------------------------------------------------------------------------------------------ links
def _base_url() -> str:
    try:
        url = st.context.url or ""
    except Exception:  # noqa: BLE001 - older/embedded contexts
        url = ""
    return url.split("?")[0]


def _explain_href(query: str) -> str:
    """Link to the Explain page (the app's default page, at the app root)."""
    return lv.explain_href(_base_url(), query)


def _carry_explain_texts() -> None:
    """The texts last shown on the Explain page become the lab's candidate and references whenever they changed
    since the lab last took them (typed there, or an example picked), so the lab attacks what the user was
    looking at. The Explain page's untouched default example is not carried, nor texts when the lab's own link
    stated some."""
    from explainer.examples import get_example
    from explainer.ui.explain.link import DEFAULT_EXAMPLE, LAST

    ss = st.session_state
    last = ss.get(LAST)
    if last is None:
        return
    last_cand, last_refs = last["texts"]
    refs = tuple(r.replace("\n", " ") for r in last_refs if r.strip())
    texts = (last_cand, refs)
    if not last_cand.strip() or not refs or ss.get("_lab_explain_texts") == texts:
        return
    ss["_lab_explain_texts"] = texts
    default = get_example(DEFAULT_EXAMPLE)
    if ss.pop("_lab_link_texts", False) or (last_cand, list(last_refs)) == (default.candidate,
                                                                             list(default.references)):
        return
    ss["lab_cand"], ss["lab_refs"] = texts[0], "\n".join(refs)
    ss["_lab_carried"] = texts


# -------------------------------------------------------------------------------------------------- inputs
def _persistent_select(label: str, store: str, options: list, **kw):
    """A selectbox whose choice survives section switches (same trick as the text areas)."""
    ss = st.session_state
    box = store + "_box"
    if ss.get(store) not in options:
        ss[store] = options[0]
    ss[box] = ss[store]
    st.selectbox(label, options, key=box, on_change=lambda: ss.__setitem__(store, ss[box]), **kw)
    return ss[store]


def _persistent_text_area(label: str, store: str, **kw) -> str:
    """A text area whose text survives section switches: Streamlit forgets the state of widgets that are
    not drawn in a run, so the text lives under ``store`` and the widget (key ``store + '_box'``) is
    re-filled from it before it is drawn and copies edits back through its callback."""
    ss = st.session_state
    box = store + "_box"
    ss[box] = ss.get(store, "")
    st.text_area(label, key=box, on_change=lambda: ss.__setitem__(store, ss[box]), **kw)
    return ss[store]


def _user_inputs() -> tuple[str, list[str]] | None:
    """The user's candidate and references (one per line); None (with a message) when unusable."""
    c1, c2 = st.columns(2)
    with c1:
        cand = _persistent_text_area("Candidate", "lab_cand", height=110,
                                     help="The text to attack. Sweeps, generators and the optimizer all start from it.")
    with c2:
        refs = refs_list(_persistent_text_area("References (one per line)", "lab_refs", height=110,
                                                help="Each non-empty line is one reference."))
    if st.session_state.get("_lab_carried") == (cand, tuple(refs)):
        st.caption("The candidate and references you had on the Explain page.")
    too_long = [name for name, t in [("The candidate", cand)] + [(f"Reference {i + 1}", r) for i, r in enumerate(refs)]
                if len(t) > MAX_LAB_CHARS]
    if too_long:
        st.warning(f"{too_long[0]} is longer than {MAX_LAB_CHARS:,} characters. The lab re-scores its texts "
                   "hundreds of times, so it works on paragraph-sized inputs; use the Explain page for long "
                   "texts, or shorten this one (your text is kept above).")
        return None
    if not refs:
        st.warning("Add at least one reference (one per line) to score anything.")
        return None
    if len(refs) > 10:
        st.warning(f"{len(refs)} references given; the lab uses the first 10.")
        refs = refs[:10]
    return cand, refs


# ------------------------------------------------------------------------------------------------ presets
def _to_optimizer(candidate: str, refs: list[str]) -> None:
    ss = st.session_state
    ss["lab_section"] = "optimizer"
    ss["lab_cand"], ss["lab_refs"] = candidate, "\n".join(refs)
    ss["lab_opt_target"] = "rouge1_f"
    ss.pop("lab_opt_result", None)


def _to_section(section: str) -> None:
    st.session_state["lab_section"] = section


def _lesson_card(pid: str) -> None:
    c = LESSON_CARDS[pid]
    st.subheader(f"{c.catalogue} · {c.title}")
    st.caption("Lesson card — no numbers: nothing here is scored.")
    st.info(f"**Lesson.** {c.lesson}", icon=LESSON_ICON)
    st.markdown(f"**Why no numbers?** {c.why_no_numbers}")
    if c.section:
        st.button(f"Open the {lv.SECTIONS[c.section]}", key="lab_card_section", on_click=_to_section,
                  args=(c.section,))
    st.caption(f"Source: {c.citation}")
    link = "?" + urlencode({"lab": "presets", "preset": pid})
    st.markdown(f"Permalink to this card: `{_base_url() or ''}{link}`")


def _presets() -> None:
    st.selectbox("Preset", list(ENTRIES), key="lab_preset", format_func=lv.preset_label,
                 help="Every entry of the gaming catalogue: attacks, failure cases and "
                      "configuration traps as presets; advice-only entries as lesson cards.")
    pid = st.session_state.get("lab_preset") or DEFAULT_PRESET
    if pid in LESSON_CARDS:
        _lesson_card(pid)
        return
    p = get_preset(pid)
    res = evaluate(pid)
    kind = "Attack: the second text is worse, does the metric notice?" if p.kind == "attack" else \
        "Configuration trap: the same text, different settings"
    st.subheader(f"{p.catalogue} · {p.title}")
    st.caption(kind)
    _preset_variants(p)
    _html(lv.comparison_html(res))
    _preset_bp_charts(pid, p, res)
    _preset_summary(p, res)
    chrf_panel.render(pid)
    st.info(f"**Lesson.** {p.lesson}", icon=LESSON_ICON)
    if p.catalogue in ("G8", "G7", "G11"):
        st.button("G12 — optimise the metric directly: let the optimizer game ROUGE-1 F on this example",
                  key="lab_to_opt", on_click=_to_optimizer, args=(p.variants[0].candidate,
                                                                   list(p.variants[0].references)))
    st.caption(f"Source: {p.citation}")
    link = "?" + urlencode({"lab": "presets", "preset": pid})
    st.markdown(f"Permalink to this preset: `{_base_url() or ''}{link}`")
    st.download_button("Download this preset's numbers (JSON)", lv.preset_json(res).encode("utf-8"),
                       file_name=f"gaming-lab-{pid}.json", mime="application/json", key="lab_dl_preset")


def _variant_role(p, i: int, v) -> str:
    if v.compare_only:
        return "comparison only, no verdict"
    if i == 0:
        return "honest" if p.kind == "attack" else "baseline"
    return "attack" if p.kind == "attack" else "setting"


def _preset_variants(p) -> None:
    """The preset's texts side by side (the shared references once, above them), each with its Explain link."""
    shared_refs = len({v.references for v in p.variants}) == 1 and not p.variants[0].is_corpus
    if shared_refs:
        refs = p.variants[0].references
        _html('<div class="lab-label">Reference' + ("s" if len(refs) > 1 else "") + "</div>" +
              "".join(_box(r) for r in refs))
    cols = st.columns(len(p.variants))
    for i, (col, v) in enumerate(zip(cols, p.variants)):
        with col:
            role = _variant_role(p, i, v)   # not repeated when the label says it ("Honest (honest)")
            tag = f" <small>({role})</small>" if role.lower() not in v.label.lower() else ""
            body = f'<div class="lab-label">{hl.escape_text(v.label)}{tag}</div>'
            if v.is_corpus:
                body += "".join(_box(f"segment {k + 1}: {c}") for k, c in enumerate(v.candidate))
                body += '<div class="lab-label">References</div>' + "".join(
                    _box(f"segment {k + 1}: " + " | ".join(r)) for k, r in enumerate(v.references))
            else:
                body += _box(v.candidate)
                if not shared_refs:
                    body += '<div class="lab-label">Reference(s)</div>' + "".join(_box(r) for r in v.references)
            if p.kind == "config":
                body += f'<div class="lab-opts">{hl.escape_text(v.options_text())}</div>'
            if v.note:
                body += f"<div><small>{hl.escape_text(v.note)}</small></div>"
            _html(body)
            for label, query in lv.variant_links(v):
                # three or four columns on a narrow page: a short label, so that it is not cut to "Open in Expl…"
                text = f"Open {label + ' ' if label else ''}in Explain ↗" if len(p.variants) <= 2 else \
                    f"{label + ' ' if label else ''}Explain ↗"
                st.link_button(text, _explain_href(query),
                               help="The full step-by-step trace of this text on the Explain page (new tab).")


def _preset_bp_charts(pid: str, p, res) -> None:
    """The Explain page's own brevity-penalty chart, one per side: where each candidate sits on exp(1 - r/c)."""
    if "bleu_bp" not in p.headline:
        return
    bcols = st.columns(min(len(p.variants), 2))
    for k, (col, v, s) in enumerate(zip(bcols, p.variants, res.scores)):
        with col:
            fig = charts.bp_curve_figure(s.sys_len, s.ref_len, s.values["bleu_bp"],
                                         rule=_ref_length_rule(v.bleu))
            fig.update_layout(title=dict(text=f"Brevity penalty: {charts.plotly_escape(v.label)}"))
            st.plotly_chart(charts.readable(fig, large=large_text()), key=f"lab_bp_{pid}_{k}")


def _ref_length_rule(bleu) -> str:
    """The dialect's own reference-length rule ("closest", "shortest", ...) for the brevity-penalty chart."""
    return bleu.dialect_object().choose_ref_length(1, [1]).rule


def _preset_summary(p, res) -> None:
    """Which headline metrics were fooled / resisted (attacks), or changed / unchanged (configuration traps)."""
    if p.kind == "attack":
        fooled = [metric_label(m) + (" (same score)" if res.shown_summary(m) == "fooled_tie" else "")
                  for m in p.headline if res.shown_summary(m) in ("fooled", "fooled_tie")]
        resisted = [metric_label(m) for m in p.headline if res.shown_summary(m) == "resisted"]
        st.markdown(" · ".join(x for x in [f"**Fooled:** {', '.join(fooled)}" if fooled else "",
                                           f"**Resisted:** {', '.join(resisted)}" if resisted else ""] if x))
        st.caption("A metric is *fooled* when it scores the worse text higher than the honest one, or exactly "
                   "as high (*same score*: it cannot tell them apart, so the attack goes unnoticed); "
                   "*resisted* when it scores the worse text lower. Other rows can tie at a ceiling (a brevity "
                   "penalty of 1 for both): *tie / n/a*, nothing to say. Comparison columns get no verdict.")
    else:
        changed = [metric_label(m) for m in p.headline if res.summary(m) == "changed"]
        same = [metric_label(m) for m in p.headline if res.summary(m) == "unchanged"]
        st.markdown(" · ".join(x for x in [f"**Changed by the setting:** {', '.join(changed)}" if changed else "",
                                           f"**Unchanged:** {', '.join(same)}" if same else ""] if x))


# --------------------------------------------------------------------------------------------- generators
def _param_widget(gkey: str, prm: gen.Param):
    key = f"lab_gen_{gkey}_{prm.name}"
    if prm.kind == "int":
        return st.number_input(prm.label, min_value=int(prm.min), max_value=int(prm.max), value=int(prm.default),
                               step=1, key=key)
    if prm.kind == "float":
        return st.slider(prm.label, float(prm.min), float(prm.max), float(prm.default), 0.05, key=key)
    return st.text_input(prm.label, value=str(prm.default), key=key, max_chars=100)


def _generators() -> None:
    inp = _user_inputs()
    if inp is None:
        return
    cand, refs = inp
    keys = list(gen.GENERATORS)
    gkey = _persistent_select("Generator", "lab_gen", keys, format_func=lambda k: gen.GENERATORS[k].label)
    spec = gen.GENERATORS[gkey]
    if spec.help:
        st.caption(spec.help)
    params = {}
    if spec.params:
        pcols = st.columns(len(spec.params))
        for col, prm in zip(pcols, spec.params):
            with col:
                params[prm.name] = _param_widget(gkey, prm)
    if spec.needs != "refs" and not cand.split():
        st.warning("The candidate is empty; type one above.")
    else:
        _generated(gkey, spec, cand, refs, params)
    with st.expander("Corpus attack: pad one sentence to lift the corpus brevity penalty (G3)"):
        _corpus_padding()


def _generated(gkey: str, spec, cand: str, refs: list[str], params: dict) -> None:
    """The generator's output beside the user's candidate, both scored, with their Explain links."""
    try:
        out = gen.run_generator(gkey, cand, refs, **params)
        before = score(cand, refs) if cand.split() else None
        after = score(out.text, refs) if out.text.split() else None
    except ValueError as exc:
        st.error(f"Could not apply the generator: {hl.md_escape(str(exc))}")
        return
    (st.success if out.changed else st.warning)(hl.md_escape(out.note))  # notes quote the user's words
    c1, c2 = st.columns(2)
    with c1:
        _html('<div class="lab-label">Your candidate</div>' + _box(cand))
        st.link_button("Open in Explain ↗", _explain_href(lv.explain_query(cand, refs)), key="lab_gen_ex0")
    with c2:
        _html(f'<div class="lab-label">{hl.escape_text(spec.label)}</div>' + _box(out.text))
        st.link_button("Open in Explain ↗", _explain_href(lv.explain_query(out.text, refs)), key="lab_gen_ex1")
    if before is None or after is None:
        if after is None:
            st.caption("The generated candidate is empty.")
        return
    _html(lv.pair_table_html(GEN_METRICS, before.values, after.values, "your candidate", "generated"))
    same = before.bleu_counts == after.bleu_counts and before.bleu_totals == after.bleu_totals
    counts_before = " · ".join(f"{c}/{t}" for c, t in zip(before.bleu_counts, before.bleu_totals))
    counts_after = " · ".join(f"{c}/{t}" for c, t in zip(after.bleu_counts, after.bleu_totals))
    counts = f"sacreBLEU matches / n-grams: {counts_before} → {counts_after}"
    if gkey == "permute" and out.changed:
        (st.success if same else st.error)(
            ("sacreBLEU's counts are identical: " if same else "Counts differ (this is a bug): ") + counts)
        chunks = out.details.get("chunks", [])
        order = out.details.get("order", [])
        _html('<div class="lab-label">Chunks (cut at bigram mismatches) and the new order</div>' +
              "".join(_box(f"{i + 1}. {c}") for i, c in enumerate(chunks)) +
              f"<div>new order: {hl.escape_text(' → '.join(str(i + 1) for i in order))}</div>")
    else:
        st.caption(counts)


def _corpus_padding() -> None:
    """G3: pad one sentence of a corpus to lift the corpus brevity penalty."""
    st.caption("One candidate per line, and the reference of each line in the same order.")
    v = get_preset("corpus-bp").variants[0]
    st.session_state.setdefault("lab_pad_cands", "\n".join(v.candidate))
    st.session_state.setdefault("lab_pad_refs", "\n".join(r[0] for r in v.references))
    a, b = st.columns(2)
    with a:
        raw_c = _persistent_text_area("Corpus candidates", "lab_pad_cands", height=110)
    with b:
        raw_r = _persistent_text_area("Corpus references", "lab_pad_refs", height=110)
    cands = [c.strip() for c in raw_c.splitlines() if c.strip()]
    crefs = [r.strip() for r in raw_r.splitlines() if r.strip()]
    if not cands or len(cands) != len(crefs):
        st.warning(f"{len(cands)} candidate line(s) but {len(crefs)} reference line(s): they must match "
                   "one to one (and not be empty).")
        return
    g = gen.pad_corpus(cands, [[r] for r in crefs])
    s0 = score_corpus(cands, [[r] for r in crefs])
    s1 = score_corpus(g.text, [[r] for r in crefs])
    (st.success if g.changed else st.info)(hl.md_escape(g.note))
    _html(_box("\n".join(g.text)) + lv.pair_table_html(
        ("bleu", "bleu_bp", "sent_bleu_mean", "rouge1_f"), s0.values, s1.values, "corpus", "padded corpus"))
    st.caption("BLEU here is corpus BLEU (sacreBLEU's corpus score: one brevity penalty for the corpus).")


# ------------------------------------------------------------------------------------------------- sweeps
G9_SOURCE = [
    "a fire destroyed a warehouse in the port of dover on sunday night",
    "firefighters battled the blaze for six hours before bringing it under control",
    "the damage is estimated at several million pounds according to the owners",
    "nobody was injured and the cause of the fire is still being investigated",
    "police said the road to the port would remain closed until tuesday",
    "local residents were told to keep their windows shut because of the smoke",
]
G9_REF = "a fire destroyed a warehouse in the port on sunday night causing millions in damage"


def _load_g9() -> None:
    ss = st.session_state
    ss["lab_cand"] = G9_SOURCE[0]
    ss["lab_refs"] = G9_REF
    ss["lab_sw_pad"] = " ".join(G9_SOURCE[1:])
    ss["lab_sw_len"] = sum(len(x.split()) for x in G9_SOURCE)


def _sweeps() -> None:
    inp = _user_inputs()
    if inp is None:
        return
    cand, refs = inp
    knob = _persistent_select("Knob", "lab_sweep", list(SWEEPS), format_func=lambda k: SWEEPS[k][0])
    if knob == "length":
        st.button("Load the catalogue's verbosity example (G9: lead sentence, padded with the rest of the article)",
                  key="lab_sw_g9", on_click=_load_g9)
    try:
        if knob == "length":
            c1, c2 = st.columns([1, 2])
            with c1:
                n = max(2, len(cand.split()))
                st.session_state.setdefault("lab_sw_len",
                                            min(2000, max(2 * n, 2 * max(len(r.split()) for r in refs))))
                max_len = st.number_input("longest length (words)", 2, 2000, key="lab_sw_len")
            with c2:
                st.session_state.setdefault("lab_sw_pad", DEFAULT_PAD)
                pad = st.text_input("padding words (cycled)", key="lab_sw_pad", max_chars=2000,
                                    help="Paste more source text here to reproduce the catalogue's verbosity sweep.")
            sw = SWEEPS[knob][1](cand, refs, max_len=int(max_len), pad_text=pad)
        elif knob == "shuffle":
            c1, c2 = st.columns(2)
            with c1:
                trials = st.number_input("shuffles averaged per point", 1, 50, 5, key="lab_sw_trials")
            with c2:
                seed = st.number_input("seed", 0, 10_000, 0, key="lab_sw_seed")
            sw = SWEEPS[knob][1](cand, refs, trials=int(trials), seed=int(seed))
        elif knob == "stuffing":
            mx = st.number_input("up to n function words", 1, 200, 20, key="lab_sw_n")
            sw = SWEEPS[knob][1](cand, refs, max_n=int(mx))
        else:
            sw = SWEEPS[knob][1](cand, refs)
    except ValueError as exc:
        st.warning(hl.md_escape(str(exc)))
        return
    if sw.note:
        st.caption(hl.md_escape(sw.note))
    st.plotly_chart(charts.readable(lab_charts.sweep_figure(sw), large=large_text()), key="lab_sweep_fig")
    df = pd.DataFrame(sw.rows())
    with st.expander("The numbers behind the chart"):
        data_table(df, hide_index=True)
    st.download_button("Download the sweep (CSV)", df.to_csv(index=False).encode("utf-8"),
                       file_name=f"sweep-{knob}.csv", mime="text/csv", key="lab_dl_sweep")


# ---------------------------------------------------------------------------------------------- optimizer
def _persistent_widget(widget, label: str, key: str, store: str, default, *args, normalize=lambda v: v, **kw):
    """A widget whose value survives section switches and is restored from the URL: the value lives under
    ``store``; the widget (``key``) is re-filled from it before it is drawn and copies edits back (through
    ``normalize``)."""
    ss = st.session_state
    ss.setdefault(store, default)
    ss[key] = ss[store]
    return widget(label, *args, key=key, on_change=lambda: ss.__setitem__(store, normalize(ss[key])), **kw)


def _repair_optimizer_state() -> None:
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


NO_MOVE = ("None of the chosen moves can change this text: delete and replace need at least one word, swap "
           f"needs two, insert needs fewer than {MAX_WORDS} words. Nothing was changed; choose other moves.")


def _optimizer() -> None:
    optimizer_texts()
    inp = _user_inputs()
    if inp is None:
        return
    cand, refs = inp
    ss = st.session_state
    target, budget, seed, moves = _optimizer_controls(cand)
    b1, b2 = st.columns([1, 1])
    run = b1.button("Run optimizer", type="primary", key="lab_opt_run", disabled=not moves)
    # Clicking Stop while a search runs makes Streamlit rerun the script, which interrupts the search;
    # _repair_optimizer_state (start of the run) marks the result saved by the callback as stopped by you.
    b2.button("Stop search", key="lab_opt_stop")
    if run and moves and not _run_search(cand, refs, target, budget, seed, moves):
        return
    res = ss.get("lab_opt_result")
    if res is None:
        if ss.get("lab_opt_stopped"):
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
    # the result is shown and re-scored against the references the search used, not the boxes' current text
    _show_optimizer_result(res, list(res.references))


def _optimizer_controls(cand: str) -> tuple[str, float, int, list[str]]:
    """Target, time budget, seed and moves (each kept across sections and in the link)."""
    c1, c2, c3 = st.columns(3)
    with c1:
        target = _persistent_select("Maximise", "lab_opt_target", list(TARGETS), format_func=TARGETS.get)
    with c2:
        lo, hi, default, step = OPT_BUDGET
        budget = _persistent_widget(st.slider, "time budget (s)", "lab_opt_budget", "lab_opt_budget_v", default,
                                    lo, hi, step=step)
    with c3:
        slo, shi, sdefault = OPT_SEED
        seed = _persistent_widget(st.number_input, "seed", "lab_opt_seed", "lab_opt_seed_v", sdefault, slo, shi,
                                  step=1)
    # its own row, full width: in a quarter of the page the box showed two of the four chosen moves and "+2"
    moves = _persistent_widget(st.multiselect, "moves", "lab_opt_moves", "lab_opt_moves_v", list(MOVES),
                               list(MOVES), normalize=lambda v: [m for m in MOVES if m in v])
    moves = [m for m in MOVES if m in moves]  # canonical order (the optimizer uses it too)
    st.caption("Greedy hill climbing: each step tries random insert / delete / swap / replace-with-a-reference-"
               "word edits and keeps the best one if it raises the chosen metric. Scored with the stats-only fast "
               "path (sacreBLEU's reference cache, rouge-score's own functions); the result is re-scored by the "
               "real sacreBLEU and rouge-score packages. Same seed and same set of moves, same search; seed, "
               "budget and moves are in the page's link.")
    n_words = len(cand.split())
    if n_words > MAX_WORDS:
        st.warning(f"Your candidate has {n_words} words; the optimizer works on the first {MAX_WORDS} only, and "
                   f"everything it reports (start text, scores, edits) is about those {MAX_WORDS} words.")
    if not moves:
        st.warning("Choose at least one move.")
    return target, budget, int(seed), moves


def _run_search(cand: str, refs: list[str], target: str, budget: float, seed: int, moves: list[str]) -> bool:
    """Run the optimizer with a progress bar; the result goes to the session (also step by step, so Stop keeps
    the best text so far), as a snapshot owned by this run. False when there is nothing more to show in this run
    (a message was shown, or a newer run took over)."""
    ss = st.session_state
    ss["lab_opt_stopped"] = False
    ss["lab_opt_running"] = True
    ss.pop("lab_opt_result", None)  # the start-state callback stores the new run at once
    bar = Progress("searching…")
    recorder = lv.RunRecorder(ss, "lab_opt_result", "lab_opt_owner")

    def cb(res):
        if not recorder.keep(res):
            return False   # a newer script run took over (Stop, or any other widget)
        frac = min(1.0, res.elapsed / max(budget, 1e-9))
        bar(frac, f"step {res.steps}: {TARGETS[target]} = {res.trajectory[-1][target]:.4f} "
                  f"({res.evaluations} candidates scored)")

    try:
        res = optimize(cand, refs, target, budget_seconds=float(budget), seed=int(seed), moves=moves, callback=cb)
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
    bar.finish(f"done: {res.stopped}")
    return True


def _rescore_check(res, refs, full0, full1) -> None:
    """Re-score the start (when non-empty) and the final text with the real packages and compare every
    number shown: the table (explainer path) and the headline / trajectory values (fast path)."""
    from explainer.attacks.optimizer import TRACKED
    from explainer.attacks.verify import PACKAGES, compare, real_scores

    def shown(full, entry):  # the table's metrics and the trajectory's (headline, chart, CSV)
        return [{m: full.values[m] for m in GEN_METRICS}, {m: entry[m] for m in TRACKED}]

    texts = [("optimised text", res.final, shown(full1, res.trajectory[-1]))]
    if res.start.split():
        texts.insert(0, ("start text", res.start, shown(full0, res.trajectory[0])))
    bad, n = [], 0
    for label, text, shown in texts:
        real = real_scores(text, refs)
        for values in shown:
            n += sum(1 for m in real if m in values)
            bad += compare(label, values, real)
    which = " and ".join(t[0] for t in texts)
    if not bad:
        st.success(f"Re-scored by {PACKAGES}: identical — all {n} numbers shown for the {which} "
                   "(table, headline and chart) equal what the packages say (to 1e-9).")
    else:
        st.error(f"Re-scored by {PACKAGES}: {len(bad)} number(s) differ (a bug):")
        data_table(pd.DataFrame([{"text": b.label, "metric": b.metric, "shown": b.shown, "package": b.real,
                                    "difference": b.shown - b.real} for b in bad]), hide_index=True)


def _show_optimizer_result(res, refs) -> None:
    t = res.target
    accepted = max(len(res.trajectory) - 1, 0)  # the trajectory holds the start and every accepted move
    st.markdown(f"**{TARGETS[t]}: {res.start_score:.4f} → {res.final_score:.4f}** in {accepted} accepted "
                f"move{'s' if accepted != 1 else ''} over {res.steps} search steps "
                f"({res.evaluations} candidates scored, {res.elapsed:.2f} s, stopped: "
                f"{hl.md_escape(res.stopped or 'running')}).")
    if res.truncated:
        st.caption(f"The candidate was cut to its first {MAX_WORDS} words (of {res.input_words}) before the "
                   "search; the start text below is that cut text.")
    c1, c2 = st.columns(2)
    with c1:
        _html('<div class="lab-label">Start' + (f" (first {MAX_WORDS} words)" if res.truncated else "") +
              "</div>" + _box(res.start))
    with c2:
        _html('<div class="lab-label">Optimised text</div>' + _box(res.final))
        st.link_button("Open in Explain ↗", _explain_href(lv.explain_query(res.final, refs)), key="lab_opt_ex")
    try:
        full0, full1 = score(res.start, refs), score(res.final, refs)
    except ValueError as exc:
        st.error(f"Could not score the result: {hl.md_escape(str(exc))}")
        return
    _html(lv.pair_table_html(GEN_METRICS, full0.values, full1.values, "start", "optimised"))
    _rescore_check(res, refs, full0, full1)
    u = res.unreadable
    st.markdown(f"**How unreadable is it?** {u['unseen_bigram_share']:.0%} of its adjacent word pairs occur in "
                f"neither a reference nor the start text; {u['immediate_repeats']} immediate repetition(s); "
                f"{u['word_edits_from_start']} word edit(s) from the start ({u['words']} words). "
                "A crude signal, not a fluency model.")
    st.plotly_chart(charts.readable(lab_charts.trajectory_figure(res), large=large_text()), key="lab_traj_fig")
    df = pd.DataFrame(res.trajectory)
    with st.expander("Every accepted step"):
        data_table(df, hide_index=True)
    st.download_button("Download the trajectory (CSV)", df.to_csv(index=False).encode("utf-8"),
                       file_name="optimizer-trajectory.csv", mime="text/csv", key="lab_dl_traj")


# ------------------------------------------------------------------------------------------------- render
def render() -> None:
    load_from_url()
    _carry_explain_texts()
    _repair_optimizer_state()
    if render_display_toggle():
        st.html(lv.LAB_LARGE_CSS)
    st.title("Gaming lab: how BLEU, ROUGE and chrF are fooled")
    PAGE.warnings()
    ss = st.session_state
    if ss.get("lab_section") not in lv.SECTIONS:  # back from another page: Streamlit dropped the widget's value
        ss["lab_section"] = ss.get("_lab_section_v") or "presets"
    st.segmented_control("Section", list(lv.SECTIONS), key="lab_section", format_func=lv.SECTIONS.get,
                         required=True, label_visibility="collapsed")
    section = ss.get("lab_section") or "presets"
    ss["_lab_section_v"] = section
    if section == "presets":
        _presets()
    elif section == "generators":
        _generators()
    elif section == "sweeps":
        _sweeps()
    else:
        _optimizer()
    PAGE.write(query())
