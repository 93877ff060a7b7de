"""The Explain page: widgets, state <-> URL, and the rendering of BLEU and ROUGE traces.

The page computes nothing: it calls ``explain_bleu`` / ``explain_rouge`` and shows their traces through the
pure helpers (highlight, charts, bleu_view, rouge_view, diagnosis). User text reaches HTML only through
``highlight.escape_text`` / ``render_marked_text`` and markdown only through ``md_escape``.
"""
from __future__ import annotations

import io
import json
import time
from typing import Any

import pandas as pd
import streamlit as st

from explainer.examples import EXAMPLES, get_example
from explainer.bleu.algorithm import MAX_TRACE_CHARS
from explainer.text import MAX_INPUT_CHARS
from explainer.ui import bleu_view as bv
from explainer.ui import charts, diagnosis, highlight as hl
from explainer.ui import compute as shared_compute
from explainer.ui import first_view
from explainer.ui import rouge_view as rv
from explainer.ui.permalink import (MAX_REFS, ExplainState, OptionSpec, apply_settings, parse_params,
                                   reset_settings, texts_fit_url, to_params)
from explainer.ui.schema import (ROUGE_TYPE_CHOICES, DEFAULT_ROUGE_TYPES, bleu_schema, dialect_description,
                                 dialect_label, rouge_schema)

DEFAULT_EXAMPLE = "cat_mat"
HIGHLIGHT_MAX_CHARS = 20_000     # highlight at most this much of each text
TABLE_MAX_ROWS = 5_000           # n-gram table rows shown (the CSV has all)
# Tables without row selection are lazy (lazy=True): beyond 1,000 rows Streamlit sends the rows in view and
# fetches more on scroll, instead of the whole table (the n-gram table needs its rows for row selection).
HEADLINE = ("BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-Lsum")


# --------------------------------------------------------------------------------------- state helpers
def _bkey(dialect: str, name: str) -> str:
    return f"bleu_opt:{dialect}:{name}"


def _rkey(dialect: str, name: str) -> str:
    return f"rouge_opt:{dialect}:{name}"


_TRI = {None: "library default", True: "on", False: "off"}
_TRI_BACK = {v: k for k, v in _TRI.items()}


def _to_widget(spec: OptionSpec, value: Any) -> Any:
    if spec.kind == "tristate":
        return _TRI.get(value, "library default")
    if spec.kind == "float_list":
        # repr: the shortest text that reads back as the same float (f"{v:g}" would turn 1/3 into 0.333333)
        return ", ".join(repr(float(v)) for v in (value or ()))
    if spec.kind == "int" and value is not None:
        return int(value)
    if spec.kind == "float" and value is not None:
        return float(value)
    return value


def _from_widget(spec: OptionSpec, raw: Any) -> tuple[Any, str | None]:
    if spec.kind == "tristate":
        return _TRI_BACK.get(raw, spec.default), None
    if spec.kind == "float_list":
        try:
            vals = tuple(float(x) for x in str(raw).replace(",", " ").split())
            if not vals:
                raise ValueError
            return vals, None
        except ValueError:
            return spec.default, f"{spec.label}: “{raw}” is not a list of numbers; using the default."
    return raw, None


def _apply_state(state: ExplainState) -> None:
    """Write a state into the widgets' session keys (before the widgets are created)."""
    ss = st.session_state
    ss["candidate"] = state.candidate
    refs = state.refs[:MAX_REFS] or [""]
    ss["n_refs"] = len(refs)
    for i in range(MAX_REFS):
        ss[f"ref_{i}"] = refs[i] if i < len(refs) else ""
    ss["bleu_dialect"] = state.bleu_dialect
    for spec in bleu_schema().specs(state.bleu_dialect):
        ss[_bkey(state.bleu_dialect, spec.name)] = _to_widget(spec, state.bleu_options.get(spec.name, spec.default))
    ss["rouge_dialect"] = state.rouge_dialect
    ss["rouge_types"] = list(state.rouge_types)
    for spec in rouge_schema().specs(state.rouge_dialect):
        ss[_rkey(state.rouge_dialect, spec.name)] = _to_widget(spec, state.rouge_options.get(spec.name, spec.default))
    ss["example"] = state.example or ""
    ss["ngram"] = state.ngram or ""
    ss["colour"] = state.colour
    if state.rouge_ref:
        ss["rouge_ref"] = state.rouge_ref
    else:
        ss.pop("rouge_ref", None)


def _default_state() -> ExplainState:
    ex = get_example(DEFAULT_EXAMPLE)
    b, r = bleu_schema(), rouge_schema()
    return ExplainState(candidate=ex.candidate, refs=list(ex.references), bleu_dialect=b.default_dialect,
                        bleu_options=b.defaults(b.default_dialect), rouge_dialect=r.default_dialect,
                        rouge_types=DEFAULT_ROUGE_TYPES(), rouge_options=r.defaults(r.default_dialect),
                        example=DEFAULT_EXAMPLE)


def _load_from_url() -> None:
    """The URL (if any) defines the state on the first run of a session, and whenever it changes from what
    the page itself last wrote (a link followed inside the app). Otherwise the widgets keep their values;
    after a visit to another page (Streamlit drops the widgets' keys) the last state is put back."""
    ss = st.session_state
    params = {k: st.query_params.get_all(k) for k in st.query_params.keys()}
    mine = {"candidate", "ref", "example", "rouge_types"} | {bleu_schema().dialect_param, rouge_schema().dialect_param}
    if ss.get("_loaded"):
        foreign = not (set(params) & mine)  # e.g. another page's parameters after switching pages
        if not params or foreign or params == ss.get("_last_params"):
            if "_last_state" in ss and ("candidate" not in ss or foreign):
                _apply_state(ss["_last_state"])
            return
    default = _default_state()
    extra: list[str] = []
    if params.get("example") and params["example"][-1] not in {e.id for e in EXAMPLES}:
        extra.append(f"“example={params['example'][-1][:40]}” is not a known example; it is ignored.")
        params = {k: v for k, v in params.items() if k != "example"}
    ex = get_example(params["example"][-1]) if params.get("example") else None
    if "candidate" not in params and "ref" not in params and ex is not None:
        default.candidate, default.refs = ex.candidate, list(ex.references)
    state, warnings = parse_params(params, bleu_schema(), rouge_schema(), rouge_type_choices=ROUGE_TYPE_CHOICES,
                                   default_rouge_types=DEFAULT_ROUGE_TYPES(), default=default)
    if ex is not None and ex.settings:
        # the example's own settings (as the picker applies them); parameters stated in the link win
        warnings += apply_settings(state, ex.settings, bleu_schema(), rouge_schema(), skip=set(params))
    if params and "candidate" not in params and "ref" not in params and not params.get("example"):
        # a link with settings only: keep the default texts but not the default example's name
        state.example = ""
    _apply_state(state)
    st.session_state["_url_warnings"] = extra + warnings
    st.session_state["_loaded"] = True


def _read_options(schema, dialect: str, key, warns: list[str]) -> dict[str, Any]:
    """The option values of one dialect from its widgets (bad free-text input: default + a warning)."""
    out = {}
    for spec in schema.specs(dialect):
        v, w = _from_widget(spec, st.session_state.get(key(dialect, spec.name), _to_widget(spec, spec.default)))
        out[spec.name] = v
        if w:
            warns.append(w)
    return out


def _current_state() -> tuple[ExplainState, list[str]]:
    ss = st.session_state
    warns: list[str] = []
    n = ss.get("n_refs", 1)
    refs = [ss.get(f"ref_{i}", "") for i in range(n)]
    bd = ss.get("bleu_dialect") or bleu_schema().default_dialect
    bopts = _read_options(bleu_schema(), bd, _bkey, warns)
    rd = ss.get("rouge_dialect") or rouge_schema().default_dialect
    ropts = _read_options(rouge_schema(), rd, _rkey, warns)
    types = tuple(ss.get("rouge_types") or ())
    state = ExplainState(candidate=ss.get("candidate", ""), refs=refs, bleu_dialect=bd, bleu_options=bopts,
                         rouge_dialect=rd, rouge_types=types, rouge_options=ropts, example=ss.get("example") or "",
                         ngram=ss.get("ngram") or "", colour=ss.get("colour") or "order",
                         rouge_ref=ss.get("rouge_ref") or 0)
    return state, warns


def _sync_url(state: ExplainState) -> None:
    want = to_params(state, bleu_schema(), rouge_schema())
    have = {k: st.query_params.get_all(k) for k in st.query_params.keys()}
    norm = {k: (v if isinstance(v, list) else [v]) for k, v in want.items()}
    if norm != have:
        st.query_params.from_dict(want)
    st.session_state["_last_params"] = norm
    st.session_state["_last_state"] = state


# ------------------------------------------------------------------------------------------- callbacks
def _on_example() -> None:
    ex_id = st.session_state.get("example")
    if not ex_id:
        return
    ex = get_example(ex_id)
    state, _ = _current_state()
    prev = getattr(st.session_state.get("_last_state"), "example", "")
    if prev and prev != ex.id and prev in {e.id for e in EXAMPLES}:
        # undo what the previous example set (stemming on for "stem_took"), so the picker gives the same
        # numbers as the example's link; the user's own choices stay
        reset_settings(state, set(get_example(prev).settings) - set(ex.settings), bleu_schema(), rouge_schema())
    state.candidate, state.refs, state.example, state.ngram = ex.candidate, list(ex.references), ex.id, ""
    apply_settings(state, ex.settings, bleu_schema(), rouge_schema())  # permalink-style overrides, e.g. stem=1
    _apply_state(state)


def _add_ref() -> None:
    n = st.session_state.get("n_refs", 1)
    if n < MAX_REFS:
        st.session_state[f"ref_{n}"] = ""
        st.session_state["n_refs"] = n + 1


def _remove_ref(i: int) -> None:
    n = st.session_state.get("n_refs", 1)
    if n <= 1:
        st.session_state["ref_0"] = ""
        return
    vals = [st.session_state.get(f"ref_{j}", "") for j in range(n)]
    del vals[i]
    for j in range(MAX_REFS):
        st.session_state[f"ref_{j}"] = vals[j] if j < len(vals) else ""
    st.session_state["n_refs"] = n - 1


def _on_ngram_row() -> None:
    """A row clicked in the n-gram table selects that n-gram (same effect as the picker)."""
    sel = st.session_state.get("ngram_table")
    rows = getattr(getattr(sel, "selection", None), "rows", None) if sel is not None else None
    if rows is None and isinstance(sel, dict):
        rows = sel.get("selection", {}).get("rows")
    table = st.session_state.get("_ngram_texts") or []
    if rows and 0 <= rows[0] < len(table):
        st.session_state["ngram"] = table[rows[0]]


def _on_text_change() -> None:
    st.session_state["example"] = ""
    st.session_state["ngram"] = ""
    st.session_state.pop("rouge_ref", None)


# --------------------------------------------------------------------------------------------- widgets
def _option_widget(spec: OptionSpec, key: str) -> None:
    label, help_ = spec.label or spec.name, spec.help or None
    if key not in st.session_state:
        st.session_state[key] = _to_widget(spec, spec.default)
    if spec.kind == "bool":
        st.checkbox(label, key=key, help=help_)
    elif spec.kind == "tristate":
        st.selectbox(label, list(_TRI.values()), key=key, help=help_)
    elif spec.kind == "choice":
        st.selectbox(label, list(spec.choices), key=key, help=help_)
    elif spec.kind == "int":
        st.number_input(label, min_value=int(spec.min) if spec.min is not None else None,
                        max_value=int(spec.max) if spec.max is not None else None, step=1, key=key, help=help_)
    elif spec.kind in ("float", "optional_float"):
        st.number_input(label, min_value=float(spec.min) if spec.min is not None else None,
                        max_value=float(spec.max) if spec.max is not None else None, step=0.1, format="%g",
                        key=key, help=(help_ or "") + (" Empty = the library's default." if spec.kind ==
                                                          "optional_float" else ""))
    elif spec.kind == "float_list":
        st.text_input(label, key=key, help=(help_ or "") + " Numbers separated by commas.")


def _sidebar() -> None:
    sb = st.sidebar
    with sb:
        st.header("Example")
        ids = [""] + [e.id for e in EXAMPLES]
        titles = {e.id: e.title for e in EXAMPLES}
        if st.session_state.get("example") not in titles:
            st.session_state["example"] = ""
        st.selectbox("Load a worked example", ids, key="example", on_change=_on_example,
                     format_func=lambda i: titles.get(i, "— your own text —"),
                     help="Worked examples of the course material and gaming presets. Loading one replaces "
                          "the texts.")
        st.header("BLEU settings")
        b = bleu_schema()
        st.selectbox("BLEU dialect", list(b.dialects), key="bleu_dialect",
                     format_func=lambda n: dialect_label("bleu", n))
        bd = st.session_state["bleu_dialect"]
        st.caption(dialect_description("bleu", bd))
        for spec in b.specs(bd):
            _option_widget(spec, _bkey(bd, spec.name))
        st.header("ROUGE settings")
        r = rouge_schema()
        st.selectbox("ROUGE dialect", list(r.dialects), key="rouge_dialect",
                     format_func=lambda n: dialect_label("rouge", n))
        rd = st.session_state["rouge_dialect"]
        st.caption(dialect_description("rouge", rd))
        if "rouge_types" not in st.session_state:
            st.session_state["rouge_types"] = list(DEFAULT_ROUGE_TYPES())
        st.multiselect("ROUGE types", list(ROUGE_TYPE_CHOICES), key="rouge_types",
                       help="W = weighted LCS, S = skip-bigrams (max gap 4 or unlimited *), SU = S + unigrams.")
        for spec in r.specs(rd):
            _option_widget(spec, _rkey(rd, spec.name))


def _inputs() -> None:
    st.text_area("Candidate (the text being scored)", key="candidate", height=90, on_change=_on_text_change,
                 help="ROUGE-Lsum reads one sentence per line.")
    n = st.session_state.get("n_refs", 1)
    # Horizontal containers: the buttons keep their natural width (ratio columns squeezed "✕" to "›" and
    # "Add reference" to "Add …" at 1024 px), the text boxes take the rest.
    for i in range(n):
        with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
            st.text_area(f"Reference {i + 1}", key=f"ref_{i}", height=80, on_change=_on_text_change)
            st.button("✕", key=f"rm_ref_{i}", on_click=_remove_ref, args=(i,), help=f"Remove reference {i + 1}",
                      disabled=n <= 1, width="content")
    st.button("Add reference", icon=":material/add:", key="add_ref", on_click=_add_ref, disabled=n >= MAX_REFS,
              width="content")
    st.caption(f"1–{MAX_REFS} references, multi-line allowed. Limits: {MAX_INPUT_CHARS:,} characters per text, {MAX_TRACE_CHARS:,} in all for the BLEU trace; "
               f"highlighting shows the first {HIGHLIGHT_MAX_CHARS:,} characters; the LCS table is drawn "
               f"at most {charts.HEATMAP_MAX}×{charts.HEATMAP_MAX} (downsampled beyond). Your text is not "
               "stored on the server; it lives in this page's URL.")


# ------------------------------------------------------------------------------------------ rendering
TABS_KEY = "xp_tab"  # the open tab: "BLEU" or "ROUGE"


def _lazy_expander(label: str, key: str):
    """An expander whose content the caller builds only while it is open (``.open``; opening it reruns the
    page): a closed expander's tables and charts are neither computed nor sent to the browser."""
    return st.expander(label, key=key, on_change="rerun")


def _html(body: str) -> None:
    st.html(hl.STYLE + body)


def _fmt_bleu(trace) -> str:
    return bv.headline(trace.score, trace.scale)


def _fmt_rouge(x: float) -> str:
    return f"{x:.5f}"


# The five headline numbers wrap onto a second row when the page is narrow (a 1024 px projector with the
# sidebar open leaves ~540 px), instead of five squeezed columns cutting them to "78.…"; below 1100 px the
# numbers are also set a little smaller.
HEADLINE_CSS = """<style>
.st-key-xp_headline [data-testid="stMetric"]{min-width:7.6rem}
.st-key-xp_headline [data-testid="stMetricValue"]{white-space:nowrap}
@media (max-width:1100px){.st-key-xp_headline [data-testid="stMetricValue"]{font-size:1.8rem}}
</style>"""


def _headline(bt, rt, rtypes) -> None:
    st.html(HEADLINE_CSS)
    row = st.container(horizontal=True, gap="medium", key="xp_headline")
    cols = [row] * 5
    with cols[0]:
        if bt is not None and bt.library_error is not None:
            e = bt.library_error
            st.metric("BLEU", "fails", help=f"The real {bt.implementation} raises {e.type} on this input: "
                                            f"{e.explanation}. (The trace continues with {bt.score!r}.)")
        elif bt is not None:
            st.metric("BLEU", _fmt_bleu(bt), help=f"{bt.dialect}, native scale 0–{int(bt.scale)}; exact value "
                                                  f"{bt.score!r}")
        else:
            st.metric("BLEU", "—")
    for col, (label, t) in zip(cols[1:], rv.headline_types()):
        with col:
            if rt is not None and t in rt.scores:
                s = rt.scores[t]
                st.metric(label, _fmt_rouge(s.fmeasure),
                          help=f"F-measure ({rt.dialect}, 0–1). P {s.precision!r}, R {s.recall!r}, F {s.fmeasure!r}")
            else:
                st.metric(label, "—", help="not selected in the ROUGE types (sidebar)" if rt is not None else None)
    sig = []
    if bt is not None:
        sig.append(f"BLEU signature: {bt.signature}")
    if rt is not None:
        sig.append(f"ROUGE signature: {rt.signature}")
    if sig and not first_view.pending():  # not in a browser's first run: the code box's script is 1.5 MB
        st.code("\n".join(sig), language=None, wrap_lines=True)


def _findings(findings) -> None:
    # Material icons: Debian's Chromium has no colour-emoji font, so emoji icons render as empty boxes.
    icon = {"error": ":material/error:", "warning": ":material/warning:", "info": ":material/info:"}
    for f in findings:
        body = f"**{hl.md_escape(f.title)}** — {hl.md_escape(f.text)}"
        {"error": st.error, "warning": st.warning}.get(f.level, st.info)(body, icon=icon[f.level])


def _ngram_column_config(df) -> dict:
    cc = st.column_config
    out = {}
    for col in df.columns:
        if col in bv.NGRAM_COLUMNS:
            label, help_, width = bv.NGRAM_COLUMNS[col]
        elif col.startswith("ref "):
            label, help_, width = col, f"how often reference {col[4:]} has it", bv.REF_COLUMN_WIDTH
        else:
            continue
        kind = cc.TextColumn if col in ("n-gram", "justified by", "count per reference") else cc.NumberColumn
        out[col] = kind(label, help=help_, width=width)
    return out


def _bleu_section(bt) -> None:
    st.subheader(f"BLEU step by step — {bt.implementation}")
    ngram_sel = st.session_state.get("ngram")
    # Step 1: tokens
    st.markdown("#### Step 1 · Tokens, highlighted in your text")
    if st.session_state.get("colour") not in ("order", "reference"):
        st.session_state["colour"] = "order"
    by = st.radio("Colour matched tokens by", ["order", "reference"], key="colour", horizontal=True,
                  format_func=lambda v: "n-gram order" if v == "order" else "the reference that justified them")
    _html(hl.legend_html(len(bt.ngrams)) if by == "order" else hl.legend_refs_html(len(bt.references)))
    parts = [f"<p><b>Candidate</b> — {len(bt.candidate.tokens)} tokens ({hl.escape_text(bt.tokenizer)})</p>",
             hl.render_marked_text(bt.candidate.text, bv.candidate_marks(bt, ngram_sel, by=by),
                                   max_chars=HIGHLIGHT_MAX_CHARS, aria_label="candidate")]
    for k, ref in enumerate(bt.references):
        parts.append(f"<p><b>Reference {k + 1}</b> — {len(ref.tokens)} tokens</p>")
        parts.append(hl.render_marked_text(ref.text, bv.reference_marks(bt, k, ngram_sel, by=by),
                                           max_chars=HIGHLIGHT_MAX_CHARS, aria_label=f"reference {k + 1}"))
    _html("".join(parts))
    more = _lazy_expander("Tokens exactly as the dialect scores them", "xp_more_tokens")
    with more:
        if more.open:
            rows = [{"text": "candidate", "tokens": bv.tokens_line(bt.candidate.tokens),
                     "preprocessing": "; ".join(f"{c['step']}: {c['detail']}" for c in bt.candidate.changes) or "—"}]
            for k, ref in enumerate(bt.references):
                rows.append({"text": f"reference {k + 1}", "tokens": bv.tokens_line(ref.tokens),
                             "preprocessing": "; ".join(f"{c['step']}: {c['detail']}" for c in ref.changes) or "—"})
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    # Step 2: n-grams
    st.markdown("#### Step 2 · Clipped n-gram counts")
    st.caption("Each candidate n-gram counts at most as often as it occurs in the single reference where it is "
               "most frequent (the ‘max/ref’ column); the rest is clipped away. " + bt.totals_rule)
    choices = bv.ngram_choices(bt)
    if ngram_sel not in choices:
        if ngram_sel:
            st.warning(hl.md_escape(f"The n-gram “{ngram_sel[:80]}” (from the link or an earlier choice) is not "
                                    "among this candidate's n-grams with these settings, so nothing is outlined."),
                       icon=":material/link:")
        st.session_state["ngram"] = ""
    st.selectbox("Where did this n-gram match? (outlined in the texts above)", [""] + choices, key="ngram",
                 format_func=lambda g: g if g else "— pick an n-gram —")
    if st.session_state.get("ngram"):
        occ = bv.ngram_occurrences(bt, st.session_state["ngram"])
        if occ:
            where = "; ".join(f"reference {k + 1}: {c}× at token {', '.join(str(p + 1) for p in pos) or '—'}"
                              for k, (c, pos) in enumerate(zip(occ["ref_counts"], occ["ref_positions"])))
            st.markdown(hl.md_escape(f"‘{st.session_state['ngram']}’: {occ['cand_count']}× in the candidate "
                                     f"(token {', '.join(str(p + 1) for p in occ['cand_positions'])}); {where}. "
                                     f"Counted {occ['clipped']}×.")) 
    rows = bv.ngram_display_rows(bt)
    st.session_state["_ngram_texts"] = [r["n-gram"] for r in rows[:TABLE_MAX_ROWS]]
    df = pd.DataFrame(rows)
    if len(df) > TABLE_MAX_ROWS:
        st.caption(f"Showing the first {TABLE_MAX_ROWS:,} of {len(df):,} n-grams; the CSV download has all.")
        df = df.head(TABLE_MAX_ROWS)
    st.dataframe(df, hide_index=True, width="stretch", height=min(38 * (len(df) + 1), 420), key="ngram_table",
                 on_select=_on_ngram_row, selection_mode="single-row", column_config=_ngram_column_config(df))
    st.caption("Click a row to outline that n-gram in the texts above (or pick it in the list). Hover a column "
               "header for its meaning.")
    orders = bv.order_rows(bt)
    st.plotly_chart(charts.bleu_counts_figure(orders), key="bleu_counts", config={"displaylogo": False},
                    alt="Clipped matches of candidate n-grams per order: " + "; ".join(
                        f"{o['n']}-grams {o['matches']:g} of {o['totals']:g}, precision "
                        f"{bv.fmt(o['precision_raw'])} before and {bv.fmt(o['precision'])} after smoothing"
                        for o in orders))
    st.latex(r"\quad ".join(bv.precision_latex(o) for o in bt.combination.orders[:4]) or r"\text{—}")
    if len(bt.combination.orders) > 4:
        st.latex(r"\quad ".join(bv.precision_latex(o) for o in bt.combination.orders[4:]))
    more = _lazy_expander("Smoothing and zero handling, order by order", "xp_more_smoothing")
    with more:
        if more.open:
            st.dataframe(pd.DataFrame([{"order": o["n"], "matches": o["matches"], "totals": o["totals"],
                                        "before": o["precision_raw"], "after": o["precision"],
                                        "smoothing": o["smoothing"], "formula": o["formula"], "why": o["reason"],
                                        "in the mean": o["included"], "weight": o["weight"]} for o in orders]),
                         hide_index=True, width="stretch")
    # Step 3: reference length + BP
    st.markdown("#### Step 3 · Reference length and brevity penalty")
    rl = bt.ref_length
    st.markdown(hl.md_escape(f"Candidate length c = {bt.combination.c}. Rule: {rl.rule} ({rl.tie_break}). "
                             f"{rl.explanation}. Chosen r = {rl.r}."))
    st.dataframe(pd.DataFrame(bv.ref_length_rows(bt)), hide_index=True)
    st.latex(bv.bp_latex(bt))
    st.plotly_chart(charts.bp_curve_figure(bt.combination.c, bt.combination.r, bt.combination.bp, rule=rl.rule),
                    alt=f"Brevity penalty curve exp(1 - r/c) for r = {bt.combination.r}; this candidate: c = "
                        f"{bt.combination.c}, BP = {bt.combination.bp:.4f}",
                    key="bp_curve", config={"displaylogo": False})
    st.caption(hl.md_escape(f"Branch of the BP formula taken: {bt.combination.bp_branch}. {bt.combination.bp_formula}"))
    # Step 4: the formula
    st.markdown("#### Step 4 · The score")
    st.latex(bv.formula_latex(bt))
    if bt.combination.early_exit:
        st.info(hl.md_escape(bt.combination.early_exit))


def _rouge_section(rt, ref_count: int) -> None:
    st.subheader(f"ROUGE step by step — {rt.dialect_label}")
    st.caption(hl.md_escape(f"Tokenizer: {rt.tokenizer}. Stemmer: {rt.stemmer or 'off'}. Several references: "
                            f"{rt.multi_ref_note}"))
    st.plotly_chart(charts.rouge_prf_figure(rv.prf_rows(rt)), key="rouge_prf", config={"displaylogo": False},
                    alt="ROUGE precision, recall and F-measure: " + "; ".join(
                        f"{r['label']} P {r['precision']:.4f} R {r['recall']:.4f} F {r['fmeasure']:.4f}"
                        for r in rv.prf_rows(rt)))
    st.dataframe(pd.DataFrame([{"type": r["label"], "precision": r["precision"], "recall": r["recall"],
                                "F-measure": r["fmeasure"]} for r in rv.prf_rows(rt)]), hide_index=True)
    if ref_count > 1:
        st.markdown("##### Which reference won")
        st.dataframe(pd.DataFrame(rv.winner_rows(rt)), hide_index=True, width="stretch")
        pooled = rv.pooled_rows(rt)
        if pooled:
            st.markdown("##### Pooled over the references: how the headline numbers are made")
            st.dataframe(pd.DataFrame([{k: v for k, v in r.items() if k != "rule"} for r in pooled]),
                         hide_index=True, width="stretch")
            st.caption(hl.md_escape(pooled[0]["rule"] + ". The details below are against one reference at a "
                                    "time; their hits and sizes, summed over the references, give this table."))
    k = 0
    if ref_count > 1:
        if st.session_state.get("rouge_ref") is None or not 0 <= st.session_state["rouge_ref"] < ref_count:
            # start with the reference ROUGE-1 kept (or the first one when counts were pooled)
            first = rt.types[0] if rt.types else None
            st.session_state["rouge_ref"] = rt.chosen_reference.get(first) or 0
        k = st.selectbox("Show the details against reference", list(range(ref_count)), key="rouge_ref",
                         format_func=lambda i: f"reference {i + 1}" + (
                             " (kept for " + ", ".join(rv.type_label(t) for t, c in rt.chosen_reference.items()
                                                        if c == i) + ")"
                             if any(c == i for c in rt.chosen_reference.values()) else ""))
        if k is None or k >= ref_count:
            k = 0
    ntypes = [t for t in rt.types if t.startswith("rouge") and t[5:].isdigit()]
    for t in ntypes:
        res = rv.result(rt, t, k)
        if res is None:
            continue
        st.markdown(f"##### {rv.type_label(t)} — overlap {res.hits:g} of {res.ref_total:g} reference and "
                    f"{res.cand_total:g} candidate n-grams")
        _html("<p><b>Candidate</b></p>" +
              hl.render_marked_text(rt.candidate.tokenized.text, rv.ngram_marks(rt, t, k),
                                    max_chars=HIGHLIGHT_MAX_CHARS, aria_label=f"candidate {t}") +
              f"<p><b>Reference {k + 1}</b></p>" +
              hl.render_marked_text(rt.references[k].tokenized.text, rv.ngram_marks(rt, t, k, side="reference"),
                                    max_chars=HIGHLIGHT_MAX_CHARS, aria_label=f"reference {k + 1} {t}"))
        rows = rv.overlap_rows(rt, t, k)
        if rows:
            st.dataframe(pd.DataFrame(rows).head(TABLE_MAX_ROWS), hide_index=True, width="stretch",
                         height=min(38 * (len(rows) + 1), 320), lazy=True)
        st.latex(rf"P = \frac{{{res.hits:g}}}{{{res.cand_total:g}}} = {res.score.precision:.5f},\quad "
                 rf"R = \frac{{{res.hits:g}}}{{{res.ref_total:g}}} = {res.score.recall:.5f},\quad "
                 rf"F = {res.score.fmeasure:.5f}")
    if "rougeL" in rt.types:
        res = rv.result(rt, "rougeL", k)
        d = rv.detail(rt, "rougeL", k)
        if res is not None and d.get("table"):
            st.markdown(f"##### ROUGE-L — longest common subsequence {d.get('lcs_length', res.hits):g} tokens")
            fig, note = charts.lcs_heatmap_figure(d["table"], rt.references[k].tokenized.tokens,
                                                  rt.candidate.tokenized.tokens, d.get("pairs", []))
            st.plotly_chart(fig, key="lcs_heatmap", config={"displaylogo": False},
                            alt=f"LCS dynamic-programming table; the longest common subsequence has "
                                f"{d.get('lcs_length', res.hits):g} tokens")
            if note:
                st.caption(note)
            afig, anote = charts.alignment_figure(rt.candidate.tokenized.tokens, rt.references[k].tokenized.tokens,
                                                  d.get("pairs", []))
            st.plotly_chart(afig, key="lcs_alignment", config={"displaylogo": False},
                            alt="Alignment of candidate and reference tokens along the LCS")
            if anote:
                st.caption(anote)
            if d.get("alternative_lcs_exists"):
                st.caption("Another LCS of the same length exists; the backtrace picks this one "
                           f"({d.get('tie_rule', '')}).")
            _html("<p><b>Candidate</b> — tokens in the LCS are marked</p>" +
                  hl.render_marked_text(rt.candidate.tokenized.text, rv.lcs_marks(rt, k),
                                        max_chars=HIGHLIGHT_MAX_CHARS, aria_label="candidate LCS") +
                  f"<p><b>Reference {k + 1}</b></p>" +
                  hl.render_marked_text(rt.references[k].tokenized.text, rv.lcs_marks(rt, k, side="reference"),
                                        max_chars=HIGHLIGHT_MAX_CHARS, aria_label="reference LCS"))
            rows = rv.lcs_alignment_rows(rt, k)
            if rows:
                st.dataframe(pd.DataFrame(rows), hide_index=True, height=min(38 * (len(rows) + 1), 320), lazy=True)
    if "rougeLsum" in rt.types:
        rows = rv.lsum_rows(rt, k)
        if rows:
            st.markdown("##### ROUGE-Lsum — union LCS per reference sentence (one sentence per line)")
            col = st.column_config.Column
            # explicit widths: with automatic ones the last columns ran off a 1400 px page
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config={
                "reference sentence": col("ref sent.", width=60, help="reference sentence number"),
                "tokens": col(width=170), "LCS with each candidate sentence": col(width=270),
                "union of hits": col(width=150),
                "hits counted": col("hits", width=50, help="union positions counted within the unigram budgets"),
                "clipped by budget": col("clipped", width=90,
                                         help="union positions not counted: their token's budget was used up")})
    for t in rt.types:
        if t.startswith("rougeW") or t.startswith("rougeS"):
            res = rv.result(rt, t, k)
            if res is None:
                continue
            more = _lazy_expander(f"{rv.type_label(t)} details", f"xp_more_{t}")
            with more:
                if not more.open:
                    continue
                st.markdown(hl.md_escape(f"hits {res.hits:g}, reference total {res.ref_total:g}, candidate total "
                                         f"{res.cand_total:g}: P {res.score.precision:.5f}, R {res.score.recall:.5f}, "
                                         f"F {res.score.fmeasure:.5f}"))
                d = res.detail or {}
                if "formula" in d:
                    st.caption(d["formula"])
                grams = d.get("skip_bigrams")
                if grams:
                    st.dataframe(pd.DataFrame([{"skip-bigram": " … ".join(g["gram"]), "candidate": g["cand_count"],
                                                "reference": g["ref_count"], "overlap": g["overlap"]}
                                               for g in grams]).head(TABLE_MAX_ROWS), hide_index=True, lazy=True)
                if t.startswith("rougeW"):
                    _wlcs_details(rt, t, k, d)


WLCS_TABLES_SHOWN = 3


def _wlcs_details(rt, t: str, k: int, d: dict) -> None:
    """ROUGE-W: f(k) and its inverse, the runs of consecutive hits per reference sentence, and the weighted-LCS
    tables of the sentence pairs (the first few)."""
    if d.get("f"):
        st.caption(hl.md_escape(f"{d['f']}; {d.get('f_inverse', '')}"))
    rows = rv.wlcs_rows(rt, t, k)
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        if any(r["open run dropped at the sentence end"] for r in rows):
            st.caption("A run of consecutive hits still open at the end of a sentence is not added by the "
                       "weighted-LCS code (rouge-score and ROUGE-1.5.5 alike), so it does not count towards the "
                       "hits.")
    tables = rv.wlcs_tables(rt, t, k)
    cs, rs = rt.candidate.sentence_tokens, rt.references[k].sentence_tokens
    for x in tables[:WLCS_TABLES_SHOWN]:
        rtoks = rs[x["ref_sentence"]] if rs and x["ref_sentence"] < len(rs) else []
        ctoks = cs[x["cand_sentence"]] if cs and x["cand_sentence"] < len(cs) else []
        tab = x["table"]
        fig, note = charts.lcs_heatmap_figure(
            {"row_index": list(range(len(tab))), "col_index": list(range(len(tab[0]))), "values": tab,
             "rows": len(tab) - 1, "cols": len(tab[0]) - 1}, rtoks, ctoks, x["pairs"],
            title=f"Weighted LCS: reference sentence {x['ref_sentence'] + 1} × candidate sentence "
                  f"{x['cand_sentence'] + 1}", value_name="weighted LCS so far", value_format=".2f")
        st.plotly_chart(fig, key=f"wlcs_{t}_{x['ref_sentence']}_{x['cand_sentence']}",
                        config={"displaylogo": False},
                        alt=f"weighted LCS table, reference sentence {x['ref_sentence'] + 1} and candidate sentence "
                            f"{x['cand_sentence'] + 1}: weighted LCS {x['wlcs']:.4f}")
        if note:
            st.caption(note)
    if len(tables) > WLCS_TABLES_SHOWN:
        st.caption(f"{len(tables) - WLCS_TABLES_SHOWN} more sentence pairs have a table; the trace (JSON "
                   "download) holds them all.")


def trace_json(bt, rt) -> str:
    """The "Trace (JSON)" download: both traces' ``to_dict()``."""
    payload = {"bleu": bt.to_dict() if bt is not None else None, "rouge": rt.to_dict() if rt is not None else None}
    return json.dumps(payload, ensure_ascii=False, indent=1)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(v):
    """A spreadsheet would run a text cell starting with = + - @ (or tab / CR) as a formula (CSV injection):
    such user n-grams get a leading single quote, as OWASP advises. Numbers are written as they are."""
    return "'" + v if isinstance(v, str) and v.startswith(_FORMULA_START) else v


def ngram_csv(bt) -> str:
    """The "n-gram table (CSV)" download: every row of the BLEU n-gram table (the page may show fewer)."""
    buf = io.StringIO()
    pd.DataFrame([{k: _csv_cell(v) for k, v in row.items()} for row in bv.ngram_rows(bt)]).to_csv(buf, index=False)
    return buf.getvalue()


def _downloads(bt, rt) -> None:
    st.markdown("#### Downloads")
    cols = st.columns(3)
    # Deferred: the files are built only when a button is clicked, so a rerun does not serialise traces.
    with cols[0]:
        st.download_button("Trace (JSON)", lambda: trace_json(bt, rt), file_name="trace.json",
                           mime="application/json", key="dl_json", on_click="ignore")
    with cols[1]:
        if bt is not None:
            st.download_button("BLEU n-gram table (CSV)", lambda: ngram_csv(bt), file_name="bleu_ngrams.csv",
                               mime="text/csv", key="dl_csv", on_click="ignore")


# ------------------------------------------------------------------------------------------------ page
def compute(state: ExplainState, refs: list[str]):
    """Both traces (or an error message per family). The only place the page calls the cores; computed once
    per (texts, settings) and shared by every session (explainer.ui.compute)."""
    return shared_compute.traces(state, refs)


def _alternatives(bt, state: ExplainState, refs: list[str]) -> dict[str, float]:
    """Sentence vs corpus semantics: when an order has no match, what sacreBLEU's other entry point gives
    (computed by the core's fast path, for the diagnosis)."""
    if bt.dialect != "sacrebleu" or "api" not in state.bleu_options:
        return {}
    if not any(o.matches == 0 for o in bt.combination.orders):
        return {}
    from explainer.bleu import score_bleu

    other = "sentence_bleu" if state.bleu_options.get("api") == "corpus_bleu" else "corpus_bleu"
    try:
        s = score_bleu(state.candidate, refs, dialect="sacrebleu",
                       **{**state.bleu_options, "api": other, "effective_order": None})
    except ValueError:
        return {}
    label = ("sacrebleu.sentence_bleu (effective order on by default)" if other == "sentence_bleu"
             else "BLEU().corpus_score (effective order off)")
    return {label: s.score}


def _stemmed_scores(rt, state: ExplainState, refs: list[str]) -> dict | None:
    """With stemming off (in a dialect that has the option): the scores the core gives with it on, so the
    diagnosis mentions stemming only when it would change a number."""
    if state.rouge_options.get("use_stemmer") is not False or not rt.scores:
        return None
    from explainer.rouge import score_rouge

    try:
        return score_rouge(state.candidate, refs, dialect=state.rouge_dialect, types=tuple(rt.scores),
                           **{**state.rouge_options, "use_stemmer": True})
    except ValueError:
        return None


def _diagnose(bt, rt, state: ExplainState, refs: list[str]) -> list:
    """The findings of both traces (a function of the inputs only: the page shares them like the traces)."""
    tok_spec = next((sp for sp in bleu_schema().specs(state.bleu_dialect) if sp.name == "tokenize"), None)
    return (diagnosis.diagnose_bleu(bt, alternatives=_alternatives(bt, state, refs),
                                    tokenizers=tok_spec.choices if tok_spec else ())
            if bt is not None else []) + \
           (diagnosis.diagnose_rouge(rt, stemmed=_stemmed_scores(rt, state, refs)) if rt is not None else [])


def render() -> None:
    t0 = time.perf_counter()
    _load_from_url()
    st.title("BLEU & ROUGE, step by step")
    st.caption("One candidate, several references: every step of BLEU and ROUGE, computed as the real "
               "implementations do. Pick a worked example in the sidebar or type your own text.")
    # A browser's first view has two runs: the link's warnings are shown in both (dropped after the second).
    for w in first_view.once("_url_warnings"):
        st.warning("Link: " + hl.md_escape(w), icon=":material/link:")
    if not first_view.pending():  # a browser's first run: the settings' widgets follow with the sections
        _sidebar()
    _inputs()
    state, warns = _current_state()
    for w in warns:
        st.warning(hl.md_escape(w))
    _sync_url(state)
    if not texts_fit_url(state):
        st.info("The texts are too long for a link; the link keeps only the settings.", icon=":material/link:")
    suspicious = hl.suspicious_chars([state.candidate] + state.refs)
    if suspicious:
        st.info("Invisible or direction-changing characters in the texts (shown as U+XXXX badges below): "
                + hl.md_escape(", ".join(suspicious[:8])), icon=":material/visibility:")
    too_long = [n for n, t in [("the candidate", state.candidate)] + [(f"reference {i + 1}", r)
                for i, r in enumerate(state.refs)] if len(t) > MAX_INPUT_CHARS]
    if too_long:
        st.error(f"{', '.join(too_long).capitalize()} {'is' if len(too_long) == 1 else 'are'} longer than the limit of "
                 f"{MAX_INPUT_CHARS:,} characters. Shorten the text to see the explanation; your text stays in "
                 "the box.")
        return
    # An empty box is "no reference"; a reference of only spaces or control characters is real input (some
    # libraries fail on it, e.g. HF evaluate on a form feed), so it is scored as given.
    refs = [r for r in state.refs if r != ""]
    blank = [i + 1 for i, r in enumerate(state.refs) if r == ""]
    spaces = [i + 1 for i, r in enumerate(state.refs) if r != "" and not r.strip()]
    if not state.candidate.strip():
        st.warning("The candidate is empty. Type the text you want to score in the candidate box.")
        return
    if not refs:
        st.warning("There is no reference yet. Type at least one reference text (what the candidate is compared "
                   "with).")
        return
    if blank:
        st.caption(f"Empty reference box(es) {', '.join(map(str, blank))} are ignored.")
    if spaces and len(spaces) == len(refs):
        st.warning("No reference has any visible text, so nothing can match: every score is 0, or the real "
                   "library fails (see below). Type a reference text to compare with.")
    elif spaces:
        st.info(f"Reference(s) {', '.join(map(str, spaces))} contain only spaces or invisible characters; they are "
                "scored as given (they have no tokens).", icon=":material/space_bar:")
    with st.spinner("Computing BLEU and ROUGE step by step…"):
        bt, rt, errors = compute(state, refs)
    for fam, msg in errors.items():
        st.error(f"{fam}: " + hl.md_escape(msg))
    _headline(bt, rt, state.rouge_types)
    findings = shared_compute.cached("findings", state, refs, lambda: _diagnose(bt, rt, state, refs), small=True)
    serious = any(f.level in ("error", "warning") for f in findings)
    with st.expander("Why is this score zero / low?", expanded=serious):
        if findings:
            _findings(findings)
        else:
            st.success("Nothing unusual: every order has matches and no penalty applies.")
    if first_view.details_later():  # a browser's first view: the headline now, the sections right after
        return
    first_view.after_first_views()  # a class opening a link at once: everyone's headline first
    # Only the open tab's content is built and sent (switching tabs reruns the page).
    tab_b, tab_r = st.tabs(["BLEU", "ROUGE"], key=TABS_KEY, on_change="rerun")
    with tab_b:
        if not tab_b.open:
            pass
        elif bt is not None:
            _bleu_section(bt)
        else:
            st.info("BLEU could not be computed; see the message above.")
    with tab_r:
        if not tab_r.open:
            pass
        elif rt is not None:
            _rouge_section(rt, len(refs))
        else:
            st.info("ROUGE could not be computed; see the message above.")
    _downloads(bt, rt)
    st.session_state["_render_seconds"] = time.perf_counter() - t0
