"""The Gaming lab's Attack generators: an attack made from the user's own texts, its text beside theirs, every
family's verdict on it (:class:`explainer.attacks.measures.TextScorer`), what resisted, and sacreBLEU's counts;
and the corpus attack of G3 (padding one sentence lifts the corpus brevity penalty)."""
from __future__ import annotations

import streamlit as st

from explainer.attacks import generators as gen
from explainer.attacks.measures import TextScorer
from explainer.attacks.presets import get_preset
from explainer.attacks.scoring import DEFAULT_METRICS, score, score_corpus
from explainer.attacks.verdicts import Row, build_table
from explainer.ui import highlight as hl
from explainer.ui.lab import view as lv
from explainer.ui.lab.common import (
    box,
    explain_href,
    html,
    persistent_select,
    persistent_text_area,
    show_verdicts,
    user_inputs,
)

__all__ = ["render", "verdict_table"]


def _param_widget(gkey: str, prm):
    key = f"lab_gen_{gkey}_{prm.name}"
    if prm.kind == "int":
        return st.number_input(prm.label, min_value=int(prm.min), max_value=int(prm.max), value=int(prm.default),
                               step=1, key=key)
    if prm.kind == "float":
        return st.slider(prm.label, float(prm.min), float(prm.max), float(prm.default), 0.05, key=key)
    return st.text_input(prm.label, value=str(prm.default), key=key, max_chars=100)


def render() -> None:
    inp = user_inputs()
    if inp is None:
        return
    cand, refs = inp
    keys = list(gen.GENERATORS)
    gkey = persistent_select("Generator", "lab_gen", keys, format_func=lambda k: gen.GENERATORS[k].label)
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


def verdict_table(cand: str, generated: str, refs: list[str], label: str):
    """Every family's verdict on the generated text against the user's candidate."""
    scorer = TextScorer(refs)
    rows = [Row("your candidate", "honest", scorer.score(cand) if cand.split() else {}),
            Row(label, "attack", scorer.score(generated), base=0)]
    for r in rows:
        r.why = dict(scorer.why)
    return build_table("attack", scorer.columns, rows, (1,))


def _generated(gkey: str, spec, cand: str, refs: list[str], params: dict) -> None:
    """The generator's output beside the user's candidate, every family's verdict on it, sacreBLEU's counts."""
    try:
        out = gen.run_generator(gkey, cand, refs, **params)
    except ValueError as exc:
        st.error(f"Could not apply the generator: {hl.md_escape(str(exc))}")
        return
    if not out.changed:      # nothing was generated: no result is shown as if it were an attack
        st.warning(hl.md_escape(out.note))
        return
    st.success(hl.md_escape(out.note))  # notes quote the user's words
    if not out.text.split():
        st.caption("The generated candidate is empty.")
        return
    c1, c2 = st.columns(2)
    with c1:
        html('<div class="lab-label">Your candidate</div>' + box(cand))
        if cand.split():
            st.link_button("Open in Explain ↗", explain_href(lv.explain_query(cand, refs)), key="lab_gen_ex0")
    with c2:
        html(f'<div class="lab-label">{hl.escape_text(spec.label)}</div>' + box(out.text))
        st.link_button("Open in Explain ↗", explain_href(lv.explain_query(out.text, refs)), key="lab_gen_ex1")
    show_verdicts(verdict_table(cand, out.text, refs, "generated"))
    if not cand.split():
        return
    try:
        before, after = score(cand, refs), score(out.text, refs)
    except ValueError as exc:
        st.error(f"Could not score the texts: {hl.md_escape(str(exc))}")
        return
    _counts(gkey, out, before, after)
    with st.expander("The lesson's numbers: BLEU's brevity penalty, ROUGE precision and recall"):
        html(lv.pair_table_html(DEFAULT_METRICS, before.values, after.values, "your candidate", "generated"))


def _counts(gkey: str, out, before, after) -> None:
    same = before.bleu_counts == after.bleu_counts and before.bleu_totals == after.bleu_totals
    counts_before = " · ".join(f"{c}/{t}" for c, t in zip(before.bleu_counts, before.bleu_totals))
    counts_after = " · ".join(f"{c}/{t}" for c, t in zip(after.bleu_counts, after.bleu_totals))
    counts = f"sacreBLEU matches / n-grams: {counts_before} → {counts_after}"
    if gkey == "permute":
        (st.success if same else st.error)(
            ("sacreBLEU's counts are identical: " if same else "Counts differ (this is a bug): ") + counts)
        chunks = out.details.get("chunks", [])
        order = out.details.get("order", [])
        html('<div class="lab-label">Chunks (cut at bigram mismatches) and the new order</div>' +
             "".join(box(f"{i + 1}. {c}") for i, c in enumerate(chunks)) +
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
        raw_c = persistent_text_area("Corpus candidates", "lab_pad_cands", height=110)
    with b:
        raw_r = persistent_text_area("Corpus references", "lab_pad_refs", height=110)
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
    html(box("\n".join(g.text)) + lv.pair_table_html(
        ("bleu", "bleu_bp", "sent_bleu_mean", "rouge1_f"), s0.values, s1.values, "corpus", "padded corpus"))
    st.caption("BLEU here is corpus BLEU (sacreBLEU's corpus score: one brevity penalty for the corpus).")
