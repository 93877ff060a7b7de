"""The Dialects page: every implementation side by side, where two first disagree, and "which settings give
this number?". The metric picker offers every registered family (``explainer.families.FAMILIES``); the work is
done by ``explainer.dialectcmp`` (core) and each family's view (``explainer.ui.dialects.views``: pure tables,
chart, HTML, and the divergence panel); this module only lays them out and keeps the page's state in its URL.

The comparisons, divergences and searches are functions of the texts (and the claim) only: computed once and
shared by every session (``explainer.ui.compute.cached``), so a class opening the same link computes them once.
The links to the Explain page are the shared settings model's (``explainer.ui.settings``): a row's configuration
on top of the metric settings the user has on the other pages."""
from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from explainer.dialectcmp.cases import BUILTIN_CLAIMS, get_builtin_claim
from explainer.dialectcmp.claim import metric_choices
from explainer.dialectcmp.limits import (
    MAX_CLAIM_CHARS,
    MAX_COMPARE_CHARS,
    MAX_REFS,
    MAX_REPRODUCE_CHARS,
    MAX_REPRODUCE_TEXT_CHARS,
)
from explainer.examples import EXAMPLES, get_example
from explainer.families import FAMILIES
from explainer.ui import compute as shared_compute
from explainer.ui import highlight as hl
from explainer.ui import pagestate as ps
from explainer.ui import settings as ms
from explainer.ui import traps_view
from explainer.ui.dialects import view as dv
from explainer.ui.dialects.link import METRICS, PAGE, TABS, load_from_url, query, set_texts, texts
from explainer.ui.dialects.views import dialects_view
from explainer.ui.progress import Progress

_VERDICT = {"reproduced": st.success, "unusual": st.warning, "truncated": st.warning, "unreproducible": st.error,
            "refused": st.error}
#: how the chance of a rounding coincidence is said (``explainer.dialectcmp.ties.Coincidence.level``)
_COINCIDENCE = {"likely": st.warning, "possible": st.info, "unlikely": st.caption, "unknown": st.caption}


# ------------------------------------------------------------------------------------------------ callbacks
def _set_texts(cand: str, refs) -> None:
    set_texts(cand, refs)
    ps.reset("dl_a", "")      # other texts, other rows: the first two again
    ps.reset("dl_b", "")


def _on_example() -> None:
    ex_id = st.session_state.get("dl_example")
    if ex_id:
        ex = get_example(ex_id)
        _set_texts(ex.candidate, list(ex.references))


def _on_builtin() -> None:
    cid = st.session_state.get("dl_builtin")
    if not cid:
        return
    c = get_builtin_claim(cid)
    ex = get_example(c.example)
    _set_texts(ex.candidate, list(ex.references))
    st.session_state["dl_claim"] = c.claim
    st.session_state["dl_claim_metric"] = c.metric
    st.session_state["_dl_autorun"] = True
    st.session_state["dl_tab"] = TABS[1]        # the answer is on the Reproduce tab: stay there


def _add_ref() -> None:
    n = st.session_state.get("dl_nrefs", 1)
    if n < MAX_REFS:
        st.session_state[f"dl_ref_{n}"] = ""
        st.session_state["dl_nrefs"] = n + 1


def _remove_ref(i: int) -> None:
    ss = st.session_state
    n = ss.get("dl_nrefs", 1)
    if n <= 1:
        ss["dl_ref_0"] = ""
        return
    refs = [ss.get(f"dl_ref_{k}", "") for k in range(n)]
    del refs[i]
    for k, r in enumerate(refs):
        ss[f"dl_ref_{k}"] = r
    ss.pop(f"dl_ref_{n - 1}", None)
    ss["dl_nrefs"] = n - 1


# ------------------------------------------------------------------------------------------------ inputs
def _inputs() -> None:
    st.selectbox("Load a worked example", [""] + [e.id for e in EXAMPLES], key="dl_example", on_change=_on_example,
                 format_func=lambda i: "—" if not i else get_example(i).title)
    st.text_area("Candidate (the text being scored)", key="dl_cand", height=80)
    n = st.session_state.get("dl_nrefs", 1)
    for i in range(n):
        # a horizontal container keeps the button at its natural width (ratio columns squeeze "✕" to "›")
        with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
            st.text_area(f"Reference {i + 1}", key=f"dl_ref_{i}", height=68)
            st.button("✕", key=f"dl_rm_{i}", on_click=_remove_ref, args=(i,), help=f"Remove reference {i + 1}",
                      disabled=n <= 1, width="content")
    st.button("Add reference", icon=":material/add:", key="dl_add", on_click=_add_ref, disabled=n >= MAX_REFS,
              width="content")
    st.caption(f"1–{MAX_REFS} references, multi-line allowed. Limits: {MAX_COMPARE_CHARS:,} characters in all for "
               f"the side-by-side view; {MAX_REPRODUCE_TEXT_CHARS:,} per text and {MAX_REPRODUCE_CHARS:,} in all for "
               "the reproduce search. Your text is not stored on the server; it lives in this page's URL.")


def _labels() -> str:
    labels = [FAMILIES[n].label for n in FAMILIES]
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def _html(body: str) -> None:
    st.html(hl.STYLE + dv.STYLE + body)


# ------------------------------------------------------------------------------------------------ shared work
def _shared(kind: str, cand: str, refs: list[str], fn, *, small: bool = False):
    """``fn()`` computed once per (kind, texts) for every session (the page's settings do not enter: every
    implementation is compared with its own). The results are shared: read them, never change them."""
    return shared_compute.cached(kind, cand, list(refs), ms.default_settings(), fn, small=small)


def comparison(cand: str, refs: list[str], metric: str, types: tuple[str, ...]):
    """The side-by-side rows and the default pairs (each row against the first), for any registered family."""
    from explainer.dialectcmp.comparison import compare

    return _shared(f"dialects:{metric}:{','.join(types)}", cand, refs,
                   lambda: compare(cand, refs, metric=metric, types=types))


def pair(cmp, cand: str, refs: list[str], types: tuple[str, ...], a: str, b: str):
    """The first divergence of rows ``a`` and ``b`` (a default pair's from the comparison; others computed once
    and shared, without changing the shared comparison)."""
    for d in cmp.pairs:
        if _ids(d) == (a, b):
            return d
    return _shared(f"dialects_pair:{cmp.metric}:{','.join(types)}:{a}:{b}", cand, refs,
                   lambda: cmp.divergence(a, b), small=True)


def _ids(d) -> tuple[str, str]:
    return (d["a"], d["b"]) if isinstance(d, dict) else (d.a, d.b)


def _traps(cand: str, refs: list[str], metric: str, types: tuple[str, ...]) -> list[dict]:
    """The classic traps of these texts under the family's reference implementation (the first row: sacreBLEU,
    rouge-score, ...), which the rows then show side by side with the implementations that avoid them."""
    base = dialects_view(metric).trap_settings(ms.default_settings(), types)
    return _shared(f"dialects_traps:{metric}:{','.join(types)}", cand, refs, small=True,
                   fn=lambda: traps_view.settings_traps([cand], [refs], base, families=[metric], corpus=False))


def _link_base() -> ms.MetricSettings:
    """The settings the Explain links keep for what a row does not set: the user's, from the other pages."""
    return ms.stored_settings() or ms.default_settings()


# ------------------------------------------------------------------------------------------------ compare
def _compare(cand: str, refs: list[str]) -> None:
    """The Side-by-side tab: every registered family in the picker; its view draws the table, the chart and the
    first divergence of two rows."""
    ps.choice("dl_metric", METRICS, METRICS[0])
    metric = st.radio("Metric", list(METRICS), key="dl_metric", horizontal=True,
                      format_func=lambda n: FAMILIES[n].label)
    view = dialects_view(metric)
    types = view.controls()
    try:
        cmp = comparison(cand, refs, metric, types)
    except ValueError as e:
        st.error(hl.md_escape(str(e)))
        return
    traps_view.show(_traps(cand, refs, metric, types))
    st.subheader("Every implementation side by side")
    st.caption(view.caption)
    st.dataframe(pd.DataFrame(view.table(cmp, cand, refs, base=_link_base())), hide_index=True, width="stretch",
                 column_config={"explain": st.column_config.LinkColumn("Explain", display_text="open")})
    st.plotly_chart(view.figure(cmp), width="stretch", config={"displayModeBar": False})
    st.subheader("Where do two of them first disagree?")
    picked = _pick_pair(cmp)
    if picked is not None:
        view.show_divergence(cmp, pair(cmp, cand, refs, types, *picked))
    st.download_button("Download the comparison (JSON)", json.dumps(cmp.to_dict(), ensure_ascii=False, indent=1),
                       file_name=f"dialects-{metric}.json", mime="application/json", key="dl_dl_cmp",
                       icon=":material/download:")


def _pick_pair(cmp) -> tuple[str, str] | None:
    """Rows A and B (the first two by default); None, after a note, when the same row is picked twice."""
    ss = st.session_state
    ids = [r.id for r in cmp.rows]
    labels = {r.id: r.label for r in cmp.rows}
    if len(ids) < 2:
        st.info("There is one row only: nothing to compare it with.")
        return None
    a0 = ps.choice("dl_a", ids, ids[0])
    other = next(i for i in ids if i != a0)
    if ss.get("dl_b") == a0:
        ss["dl_b"] = other
    ps.choice("dl_b", ids, other)
    c1, c2 = st.columns(2)
    with c1:
        a = st.selectbox("Row A", ids, key="dl_a", format_func=lambda i: labels.get(i, str(i)))
    with c2:
        b = st.selectbox("Row B", ids, key="dl_b", format_func=lambda i: labels.get(i, str(i)))
    if a == b:
        st.info("Pick two different rows.")
        return None
    return a, b


# ------------------------------------------------------------------------------------------------ reproduce
def _reproduce(cand: str, refs: list[str]) -> None:
    """The Reproduce tab: the claim form, the search (when asked, or on a link / built-in claim), the result; a
    claim with several numbers ("R-1/R-2/R-L 44.2/21.3/41.0") is searched number by number, as the CLI does."""
    ss = st.session_state
    submitted = _claim_form()
    claim = ss.get("dl_claim", "")
    key = (cand, tuple(refs), claim, ss.get("dl_claim_metric", "any"))
    if submitted or ss.pop("_dl_autorun", False):
        if not claim.strip():
            st.warning("Type the number you want to reproduce, e.g. “BLEU = 0.576”.")
            return
        results = _search(cand, refs, claim, ss.get("dl_claim_metric", "any"))
        if results is None:
            return
        ss["_dl_result"] = (key, results)
    stored = ss.get("_dl_result")
    if not stored:
        return
    skey, results = stored
    if skey != key:
        st.info("The texts or the claim changed since the last search: press Search to search again.")
        return
    if len(results) == 1:
        _show_search(results[0][1], cand, refs, claim)
        return
    st.markdown(f"**The claim has {len(results)} numbers: each is searched under its own name.**")
    for k, (text, res) in enumerate(results):
        st.subheader(text)
        if isinstance(res, str):
            st.error(hl.md_escape(res))
        else:
            _show_search(res, cand, refs, text, key=f"_{k}")
    parts = [{"claim": t, "error": r} if isinstance(r, str) else r.to_dict() for t, r in results]
    st.download_button("Download every number's result (JSON)",
                       json.dumps({"claim": claim, "parts": parts}, ensure_ascii=False, indent=1),
                       file_name="reproduce.json", mime="application/json", key="dl_dl_rep_all",
                       icon=":material/download:")


def _claim_form() -> bool:
    """The claim, typed or picked from the built-in ones; True when the form was submitted."""
    st.subheader("Which settings give the number in this paper?")
    st.caption("Type a number you read somewhere (“BLEU = 0.576”, “38.0”, “ROUGE-L 0.41”, “R-1 recall 0.67”, "
               "“7.26e-78”). Every common configuration is searched — each dialect, tokenizer, lowercasing, "
               "smoothing, max order and NLTK weights, 0–1 vs 0–100, rounding vs truncation, all references / the "
               "first / each single one, ROUGE type, P/R/F, stemming, multi-reference rule, Lsum sentence splitting.")
    st.selectbox("Or check a number printed in a textbook for a worked example",
                 [""] + [c.id for c in BUILTIN_CLAIMS], key="dl_builtin", on_change=_on_builtin,
                 format_func=lambda i: "—" if not i else
                 f"{get_builtin_claim(i).claim} — {get_builtin_claim(i).source}")
    with st.form("dl_form", border=False):
        c1, c2, c3 = st.columns([5, 2, 1], vertical_alignment="bottom")
        with c1:
            st.text_input("Claimed number", key="dl_claim", max_chars=MAX_CLAIM_CHARS, placeholder="BLEU = 0.576")
        with c2:
            st.selectbox("It is", metric_choices(), key="dl_claim_metric")
        with c3:
            return st.form_submit_button("Search", type="primary")


def _search(cand: str, refs: list[str], claim: str, claim_metric: str):
    """Each number of the claim searched with a progress bar, computed once for every session: [(the number's
    claim, its Reproduction or the message why it is not searched)]; None after a message when the claim as a
    whole is refused (too long, too many numbers) or its one number is."""
    from explainer.dialectcmp.reproduction import claim_parts, reproduce

    try:
        parts = claim_parts(claim)
    except ValueError as e:
        st.error(hl.md_escape(str(e)))
        return None
    bar = Progress("Searching the configurations…")
    out = []
    for k, part in enumerate(parts):
        def progress(done: int, total: int, k=k, part=part) -> None:
            what = f" for {hl.md_escape(part)}" if len(parts) > 1 else ""
            bar((k + done / max(total, 1)) / len(parts), f"Searching{what}: {done:,} of {total:,} configurations")

        try:
            # a class opening a link with a claim searches once; the others wait for that search
            out.append((part, _shared(f"reproduce:{claim_metric}:{part}", cand, refs,
                                      lambda part=part, progress=progress: reproduce(
                                          cand, refs, part, metric=claim_metric, progress=progress))))
        except ValueError as e:
            if len(parts) == 1:
                st.error(hl.md_escape(str(e)))
                bar.done()
                return None
            out.append((part, str(e)))
    bar.done()
    return out


def _show_search(res, cand: str, refs: list[str], claim: str, *, key: str = "") -> None:
    """The verdict, the implementations that tie, the chance of a coincidence, the built-in claim's note, the
    matches (or the nearest ones), the command, the download."""
    _VERDICT[res.verdict](hl.md_escape(res.headline))
    st.caption(hl.md_escape(res.judgement().sentence))    # the three-way verdict (explainer.dialectcmp.verdict)
    if res.tied:
        st.markdown(f"**{len(res.ties)} implementations give {hl.md_escape(res.claim.shown)}**: a tie — the "
                    "number alone does not say which one the paper used")
        _html(dv.ties_html(res))
    if res.verdict not in ("refused", "unreproducible") and res.coincidence is not None:
        _COINCIDENCE[res.coincidence.level](hl.md_escape(res.coincidence.sentence))
    builtin = next((c for c in BUILTIN_CLAIMS if c.claim == claim and get_example(c.example).candidate == cand
                    and list(get_example(c.example).references) == refs), None)
    if builtin is not None:
        st.info(f"Printed as {hl.md_escape(builtin.claim)} by {hl.md_escape(builtin.source)}. "
                + hl.md_escape(builtin.note), icon=":material/menu_book:")
    st.caption(f"{res.n_configurations:,} configurations scored in {res.seconds:.2f} s.")
    if res.matches:
        st.markdown(f"**Configurations that give {hl.md_escape(res.claim.shown)}**, simplest first; “explain →” "
                    "opens one step by step on the Explain page")
        _html(dv.matches_html(dv.match_rows(res, base=_link_base()), total=res.n_matches))
        with st.expander("Command line for the simplest one"):
            st.code(res.matches[0].to_dict()["command"], language="bash")
    if res.truncated:
        st.markdown(f"**Only when the value is cut (not rounded) to {res.claim.precision_words}**")
        _html(dv.matches_html(dv.match_rows(res, "truncated", base=_link_base())))
    if res.verdict != "reproduced" and res.nearest:
        st.markdown("**The nearest configurations**")
        _html(dv.matches_html(dv.match_rows(res, "nearest", base=_link_base())))
    st.download_button("Download the search result (JSON)", json.dumps(res.to_dict(), ensure_ascii=False, indent=1),
                       file_name="reproduce.json", mime="application/json", key=f"dl_dl_rep{key}",
                       icon=":material/download:")


# ------------------------------------------------------------------------------------------------ page
def render() -> None:
    load_from_url()
    st.title("Dialects")
    st.caption(f"Why do two libraries give different numbers? Every {_labels()} implementation side by side, the "
               "first step at which two of them disagree, and which settings reproduce a number you read somewhere.")
    PAGE.warnings()
    _inputs()
    cand, refs = texts()
    PAGE.write(query())
    note = dv.dropped_references_note(refs)
    refs = [r for r in refs if r != ""]
    if note and refs:
        st.caption(note)        # our words and box numbers only: nothing to escape
    if not cand.strip():
        st.warning("The candidate is empty. Type the text you want to score in the candidate box.")
        return
    if not refs:
        st.warning("There is no reference yet. Type at least one reference text.")
        return
    # the tabs keep their state (key): a rerun that changes what is above them (an example or a built-in claim
    # with another number of references) must not send the user back to the first tab
    tab_c, tab_r = st.tabs(list(TABS), key="dl_tab", on_change="rerun")
    with tab_c:
        _compare(cand, refs)
    with tab_r:
        _reproduce(cand, refs)
