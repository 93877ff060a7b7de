"""The Gaming lab's Presets section: every catalogue entry, its texts, one table with every metric family's verdict
and the lesson's own numbers, what resisted in one line, the lesson, links to Explain and Teach, and a "present"
mode for a projector (:mod:`explainer.ui.lab.present`)."""
from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from explainer.attacks.preset_table import preset_table
from explainer.attacks.presets import ENTRIES, LESSON_CARDS, evaluate, get_preset
from explainer.ui import charts
from explainer.ui import highlight as hl
from explainer.ui.display import data_table, large_text
from explainer.ui.lab import view as lv
from explainer.ui.lab.common import LESSON_ICON, base_url, box, explain_href, html, page_href, show_verdicts
from explainer.ui.lab.link import DEFAULT_PRESET

__all__ = ["render", "to_optimizer", "variant_texts_html", "teach_link"]

KIND_WORDS = {"attack": "Attack: does each metric notice the worse text?",
              "preference": "Two legitimate texts: which one does each metric prefer?",
              "config": "Configuration trap: the same text, different settings"}


def to_optimizer(candidate: str, refs: list[str]) -> None:
    ss = st.session_state
    ss["lab_section"] = "optimizer"
    ss["lab_cand"], ss["lab_refs"] = candidate, "\n".join(refs)
    ss["lab_opt_target"] = "rouge:rouge1"
    ss.pop("lab_opt_result", None)


def _to_section(section: str) -> None:
    st.session_state["lab_section"] = section


def _present(on: bool) -> None:
    st.session_state["lab_view"] = "present" if on else ""


def _lesson_card(pid: str) -> None:
    c = LESSON_CARDS[pid]
    st.subheader(f"{c.catalogue} · {c.title}")
    if c.demo:
        st.caption("A lesson with a demonstration on published results (no text of yours is scored).")
    else:
        st.caption("Lesson card — no numbers: nothing here is scored.")
    st.info(f"**Lesson.** {c.lesson}", icon=LESSON_ICON)
    if c.demo:
        from explainer.ui.lab import outliers_section

        outliers_section.render()
    else:
        st.markdown(f"**Why no numbers?** {c.why_no_numbers}")
    if c.section:
        st.button(f"Open the {lv.SECTIONS[c.section]}", key="lab_card_section", on_click=_to_section,
                  args=(c.section,))
    st.caption(f"Source: {c.citation}")
    link = "?" + urlencode({"lab": "presets", "preset": pid})
    st.markdown(f"Permalink to this card: `{base_url() or ''}{link}`")


def variant_texts_html(p) -> str:
    """The preset's texts, compact: one line each (its label and role, then the text), the shared references
    once at the top; a variant with references of its own shows them under its text."""
    shared = len({v.references for v in p.variants}) == 1 and not p.variants[0].is_corpus
    one_text = shared and len({v.candidate for v in p.variants}) == 1     # a configuration trap's one text
    cells = []
    if shared:
        refs = p.variants[0].references
        label = "Reference" + ("s" if len(refs) > 1 else "")
        cells.append(f'<div class="lab-tl">{label}</div><div>{"".join(box(r) for r in refs)}</div>')
    if one_text:
        cells.append(f'<div class="lab-tl">Candidate <small>(every setting)</small></div>'
                     f'<div>{box(p.variants[0].candidate)}</div>')
    for i, v in enumerate(p.variants):
        role = _role(p, i)
        tag = f" <small>({hl.escape_text(role)})</small>" if role.lower() not in v.label.lower() else ""
        if one_text:
            body = f'<div class="lab-opts">{hl.escape_text(v.options_text())}</div>'
        elif v.is_corpus:
            body = "".join(box(f"segment {k + 1}: {c}   ←   reference: " + " | ".join(r))
                           for k, (c, r) in enumerate(zip(v.candidate, v.references)))
        else:
            body = box(v.candidate)
            if not shared:
                body += "".join(f'<div class="lab-against">against: {hl.escape_text(r)}</div>' for r in v.references)
        if p.kind == "config" and not one_text:
            body += f'<div class="lab-opts">{hl.escape_text(v.options_text())}</div>'
        if v.note:
            body += f'<div class="lab-against">{hl.escape_text(v.note)}</div>'
        cells.append(f'<div class="lab-tl">{hl.escape_text(v.label)}{tag}</div><div>{body}</div>')
    return f'<div class="lab-texts">{"".join(cells)}</div>'


def _role(p, i: int) -> str:
    v = p.variants[i]
    if v.compare_only:
        return "comparison only, no verdict"
    if i == 0:
        return "honest" if p.kind == "attack" else "baseline"
    return ("alternative" if p.legitimate else "attack") if p.kind == "attack" else "setting"


def teach_link(p, res) -> str | None:
    q = lv.teach_query(p, res.judged[0] if res.judged else 0)
    return None if q is None else page_href("teach", q)


def render() -> None:
    st.selectbox("Preset", list(ENTRIES), key="lab_preset", format_func=lv.preset_label,
                 label_visibility="collapsed",
                 help="Every entry of the gaming catalogue: attacks, failure cases and "
                      "configuration traps as presets; advice-only entries as lesson cards.")
    pid = st.session_state.get("lab_preset") or DEFAULT_PRESET
    if pid in LESSON_CARDS:
        _lesson_card(pid)
        return
    p = get_preset(pid)
    res, table = evaluate(pid), preset_table(pid)
    html(f'<div class="lab-head"><span class="lab-title">{hl.escape_text(p.catalogue + " · " + p.title)}</span> '
         f'<span class="lab-kind">{hl.escape_text(KIND_WORDS[p.judgement])}</span></div>' + variant_texts_html(p))
    show_verdicts(table, caption=_scale_caption(table))
    st.info(f"**Lesson.** {p.lesson}", icon=LESSON_ICON)
    _actions(p, res)
    _explain_links(p)
    with st.expander("The lesson's numbers: BLEU's matches and brevity penalty, ROUGE precision and recall"):
        html(lv.details_html(res))
        _preset_bp_charts(pid, p, res)
    st.caption(f"Source: {p.citation}")
    link = "?" + urlencode({"lab": "presets", "preset": pid})
    st.markdown(f"Permalink to this preset: `{base_url() or ''}{link}`")
    st.download_button("Download this preset's numbers (JSON)", lv.preset_json(res, table).encode("utf-8"),
                       file_name=f"gaming-lab-{pid}.json", mime="application/json", key="lab_dl_preset")
    with st.expander("Every preset at a glance: which metric each attack fools"):
        from explainer.attacks.preset_table import all_summaries

        if st.button("Score every preset with every metric (a few seconds)", key="lab_all_presets"):
            data_table(list(all_summaries()), hide_index=True, width="stretch")


def _scale_caption(table) -> str:
    parts = [f"{c.label} 0–{c.measure.scale:g}" for c in table.columns if not c.lesson]
    return ("Each metric on its own scale (" + ", ".join(parts) + "); ↓ an error rate: lower is better. "
            "Deltas: against the first text scored with the same references.")


def _actions(p, res) -> None:
    c1, c2, c3 = st.columns(3)
    with c1:
        st.button("Present this preset (projector)", key="lab_present_on", on_click=_present, args=(True,),
                  icon=":material/slideshow:", help="The two texts and every metric's verdict at projector size.")
    with c2:
        href = teach_link(p, res)
        if href:
            st.link_button("Teach this preset ↗", href, icon=":material/school:",
                           help="The attacked text as a lesson in the Teach room (new tab).")
    with c3:
        if p.catalogue in ("G8", "G7", "G11"):
            st.button("G12 — let the optimizer game ROUGE-1", key="lab_to_opt", on_click=to_optimizer,
                      args=(p.variants[0].candidate, list(p.variants[0].references)))


def _explain_links(p) -> None:
    links = [(v, label, query) for v in p.variants for label, query in lv.variant_links(v)]
    # a row that wraps: long labels ("Natural translation · paraphrased references") never cut at 1024 px
    row = st.container(horizontal=True, gap="small")
    for v, label, query in links:
        with row:
            st.link_button(f"{v.label}{' · ' + label if label else ''} in Explain ↗", explain_href(query),
                           help="The full step-by-step trace of this text on the Explain page (new tab).")


def _preset_bp_charts(pid: str, p, res) -> None:
    """The Explain page's brevity-penalty chart, one per side, on one x scale: where each candidate sits on
    exp(1 - r/c)."""
    if "bleu_bp" not in p.headline:
        return
    shown = list(zip(p.variants, res.scores))[:2]
    hi = max(max(s.sys_len, s.ref_len) for _, s in shown) * 1.5 + 1
    bcols = st.columns(len(shown))
    for k, (col, (v, s)) in enumerate(zip(bcols, shown)):
        with col:
            fig = charts.bp_curve_figure(s.sys_len, s.ref_len, s.values["bleu_bp"], rule=_ref_length_rule(v.bleu))
            fig.update_layout(title=dict(text=f"Brevity penalty:<br>{charts.plotly_escape(v.label)}"),
                              margin=dict(t=90))
            fig.update_xaxes(range=[0, hi])
            st.plotly_chart(charts.readable(fig, large=large_text()), key=f"lab_bp_{pid}_{k}")


def _ref_length_rule(bleu) -> str:
    """The dialect's own reference-length rule ("closest", "shortest", ...) for the brevity-penalty chart."""
    return bleu.dialect_object().choose_ref_length(1, [1]).rule
