"""Gaming lab: pure view helpers (no Streamlit) - the lesson's numbers as escaped HTML, links to the Explain and
Teach pages for any candidate or preset, the preset's JSON, and the recorder of a long run's snapshots."""
from __future__ import annotations

import html
import json
from typing import Sequence
from urllib.parse import urlencode

from explainer.attacks.presets import EPS, LESSON_CARDS, PRESETS, PresetResult, Variant
from explainer.attacks.scoring import (
    ROUGE_SCORE,
    SENTENCE_BLEU,
    BleuConfig,
    RougeConfig,
    bleu_input,
    format_metric,
    metric_label,
    sentence_config,
)
from explainer.ui.highlight import escape_text

__all__ = ["explain_query", "explain_href", "page_href", "variant_links", "details_html", "delta_text",
           "pair_table_html", "preset_json", "LAB_CSS", "LAB_LARGE_CSS", "LAB_PAGE_CSS", "SECTIONS", "preset_label",
           "RunRecorder", "teach_query"]

SECTIONS = {"presets": "Presets", "generators": "Attack generators", "sweeps": "Sweeps",
            "optimizer": "Metric optimizer"}

# "Large text (projector)": the verdict table's numbers larger (25 px with the page's 20 px root), the counts row
# at the table's size; the lab's sidebar holds only the page list and this toggle, so it keeps its own width (the
# other pages widen it for their settings: 440 px of a 1280 px projector)
LAB_LARGE_CSS = """<style>
table.lab-verdicts td[data-col]{font-size:1.25rem}
table.lab-table td.lab-counts{font-size:1rem}
[data-testid="stSidebar"][data-collapsed="false"]{min-width:0}
</style>"""

# the page's chrome kept short, so that a preset's verdict table starts above the fold of a 1280x720 projector
LAB_PAGE_CSS = """<style>
[data-testid="stMainBlockContainer"]{padding-top:3.2rem;padding-left:2rem;padding-right:2rem}
[data-testid="stMainBlockContainer"] h1{padding-top:0;font-size:2.25rem}
</style>"""

LAB_CSS = """
<style>
.lab-box{border:1px solid rgba(128,128,128,.45);border-radius:6px;padding:.4em .7em;margin:.15em 0 .45em 0;
 font-size:1.05rem;line-height:1.45;white-space:pre-wrap;word-break:break-word}
.lab-label{font-weight:600;font-size:1.02rem;margin-top:.2em}
.lab-scroll{overflow-x:auto;max-width:100%;scrollbar-width:auto;
 scrollbar-color:rgba(128,128,128,.85) rgba(128,128,128,.18);padding-bottom:.2rem}
.lab-opts{font-family:monospace;font-size:max(14px,.875rem);opacity:.85;overflow-wrap:anywhere}
.lab-head{margin:.1em 0 .2em 0}
.lab-head .lab-title{font-size:1.5rem;font-weight:600;margin-right:.6em}
.lab-head .lab-kind{opacity:.75;font-size:max(14px,.95rem)}
.lab-texts{display:grid;grid-template-columns:minmax(7em,13em) minmax(0,1fr);gap:.15rem .8rem;align-items:center;
 margin-bottom:.3rem}
.lab-texts .lab-tl{font-weight:600;font-size:max(14px,.95rem);line-height:1.25}
.lab-texts .lab-box{margin:0;padding:.2em .6em;line-height:1.35}
.lab-against{font-size:max(14px,.85rem);opacity:.8;margin:.05em 0 .2em .2em}
table.lab-table{border-collapse:collapse;width:100%;font-size:1rem;margin:.4em 0 .6em 0}
table.lab-table th,table.lab-table td{border-bottom:1px solid rgba(128,128,128,.35);padding:.35em .6em;
 text-align:right;vertical-align:top}
table.lab-table td.lab-counts{font-size:.9rem}
table.lab-table th:first-child,table.lab-table td:first-child{text-align:left;white-space:nowrap}
table.lab-table tr.head td{font-weight:600}
.lab-verdict{display:inline-block;white-space:nowrap;padding:.05em .45em;border-radius:4px;color:#fff;
 font-weight:600;font-size:.9rem}
.lab-delta-up{color:#D55E00;font-weight:600}
.lab-delta-down{color:#0072B2;font-weight:600}
table.lab-verdicts th{text-align:center;vertical-align:bottom;white-space:nowrap}
table.lab-verdicts th:first-child{text-align:left}
table.lab-verdicts th.lab-fam{border-bottom:2px solid rgba(128,128,128,.5)}
table.lab-verdicts td small{display:block;font-size:max(14px,.8rem)}
table.lab-verdicts tr.lab-verdict-row td{border-top:2px solid rgba(128,128,128,.5);text-align:center}
table.lab-verdicts .lab-verdict{white-space:normal;font-size:max(14px,.85rem);padding:.05em .3em;line-height:1.25}
table.lab-verdicts .lab-why{display:block;font-weight:400;font-size:max(14px,.8rem)}
table.lab-verdicts td.lab-rowlabel{white-space:normal;min-width:7em;max-width:16em}
table.lab-verdicts th,table.lab-verdicts td{padding:.3em .22em}
table.lab-verdicts tr.lab-verdict-row td:first-child{text-align:left}
table.lab-verdicts thead tr+tr th:first-child{white-space:nowrap;text-align:center}
table.lab-verdicts th.lab-lesson,table.lab-verdicts thead tr+tr th.lab-lesson:first-child{white-space:normal;
 max-width:9em;font-size:max(14px,.9rem);line-height:1.2}
@media (max-width:1300px){
 table.lab-table th,table.lab-table td{padding:.3em .35em}
 table.lab-table th:first-child,table.lab-table td:first-child{white-space:normal}
 .lab-verdict{white-space:normal}
}
</style>
"""


def preset_label(pid: str) -> str:
    if pid in LESSON_CARDS:
        c = LESSON_CARDS[pid]
        what = "lesson with a demonstration" if c.demo else "lesson card, no numbers"
        return f"{c.catalogue} · {c.title} ({what})"
    p = PRESETS[pid]
    return f"{p.catalogue} · {p.title}"


def explain_query(candidate: str, references: Sequence[str], bleu: BleuConfig = SENTENCE_BLEU,
                  rouge: RougeConfig = ROUGE_SCORE) -> str:
    """Query string of an Explain-page permalink showing this candidate with the same dialects and options
    (built with the Explain page's own permalink schema, so it round-trips through its parser)."""
    # NLTK with plain strings counts characters: the link carries the text as NLTK sees it, one token per
    # character (configs.nltk_characters), so the Explain page shows the same number.
    candidate = bleu_input(candidate, bleu)
    references = [bleu_input(x, bleu) for x in references]
    from explainer.ui.settings import MetricSettings, explain_link_params

    settings = MetricSettings().replace(_link_choice("bleu", bleu), _link_choice("rouge", rouge))
    return urlencode(explain_link_params(candidate, list(references), settings), doseq=True)


def _link_choice(family: str, config):
    """The configuration as a link's choice: the dialect's defaults with the configuration's options."""
    from explainer.ui.families import ui_family
    from explainer.ui.settings import choice_for

    known = {s.name for s in ui_family(family).option_specs(config.dialect)}
    unknown = set(config.given) - known
    if unknown:   # an option a link cannot carry (e.g. corpus-only): the Explain page would show another number
        raise ValueError(f"an Explain link cannot carry option(s) {', '.join(sorted(unknown))} of {config.dialect}")
    return choice_for(family, config.dialect, config.given)


def page_href(page_url: str, path: str, query: str) -> str:
    """Link to the app's page at ``path`` ("" for the Explain page, the app's default page at its root) from this
    page's URL (``http://host:8501/gaming_lab``, maybe with a trailing "/" or under a path prefix); without a URL,
    a relative link."""
    base = (page_url or "").split("?", 1)[0].split("#", 1)[0].rstrip("/")
    if "://" not in base:
        return f"./{path}?{query}"
    scheme, rest = base.split("://", 1)
    host, _, here = rest.partition("/")
    parent = here.rsplit("/", 1)[0] if "/" in here else ""  # drop the page's own path segment
    return f"{scheme}://{host}/" + (parent + "/" if parent else "") + path + "?" + query


def explain_href(page_url: str, query: str) -> str:
    """Link to the Explain page from the lab page's URL (see :func:`page_href`)."""
    return page_href(page_url, "", query)


def teach_query(p, variant: int) -> str | None:
    """The Teach page's link that makes a lesson of a preset's variant (its texts and settings), or None when the
    preset is not one text (a corpus preset is not one lesson)."""
    if any(v.is_corpus for v in p.variants):
        return None
    return urlencode({"preset": p.id, "variant": variant + 1})


def variant_links(v: Variant) -> list[tuple[str, str]]:
    """(label, query) for each Explain link of a variant: one, or one per segment of a corpus variant."""
    if v.is_corpus:
        sentence = sentence_config(v.bleu)
        return [(f"segment {i + 1}", explain_query(c, list(refs), sentence, v.rouge))
                for i, (c, refs) in enumerate(zip(v.candidate, v.references))]
    return [("", explain_query(v.candidate, list(v.references), v.bleu, v.rouge))]


def _delta_text(metric: str, delta: float) -> str:
    """A delta in the metric's decimals; a change too small for them says so ("+<0.01", never "−0.00")."""
    if abs(delta) <= EPS:
        return "±0"
    shown = format_metric(metric, abs(delta))
    sign = "+" if delta > 0 else "−"
    if float(shown) == 0:
        return sign + "<" + ("0.1" if "." in shown and len(shown.split(".")[1]) == 1 else "0.01")
    return sign + shown


delta_text = _delta_text


def _delta_html(metric: str, delta: float) -> str:
    cls = "lab-delta-up" if delta > EPS else ("lab-delta-down" if delta < -EPS else "")
    return f'<span class="{cls}">{html.escape(delta_text(metric, delta))}</span>'


def _bases(res: PresetResult) -> list[int | None]:
    """Each variant's base for its deltas: the first earlier variant with the same references (none for the first
    and for a variant whose references are its own: a delta across references says nothing about the texts)."""
    vs = res.preset.variants
    return [None] + [next((j for j in range(i) if vs[j].references == vs[i].references), None)
                     for i in range(1, len(vs))]


def _per_segment_only(v: Variant, metric: str) -> bool:
    """A mean of sentence BLEU has no one brevity penalty, n-gram count or length: each segment has its own."""
    return v.is_corpus and v.aggregate == "sentence_mean" and metric in ("bleu_bp",)


def details_html(res: PresetResult) -> str:
    """The lesson's numbers: metric rows x variant columns, each variant's delta against its base (the first
    variant with the same references), and BLEU's matches per order; no verdicts (the verdict table has them)."""
    p = res.preset
    bases = _bases(res)
    head = ["<th>metric</th>"]
    for i, v in enumerate(p.variants):
        head.append(f"<th>{escape_text(v.label)}</th>" + ("<th>Δ</th>" if bases[i] is not None else ""))
    rows = []
    for m in res.metrics:
        cells = [f"<td>{html.escape(metric_label(m))}</td>"]
        for i, (v, s) in enumerate(zip(p.variants, res.scores)):
            na = _per_segment_only(v, m)
            shown = "—" if na else format_metric(m, s.values[m])
            cells.append(f'<td data-metric="{html.escape(m)}" data-variant="{i}">{shown}</td>')
            if bases[i] is not None:
                d = "" if na or _per_segment_only(p.variants[bases[i]], m) else _delta_html(
                    m, s.values[m] - res.scores[bases[i]].values[m])
                cells.append(f'<td data-delta="{html.escape(m)}" data-variant="{i}">{d}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    counts = ["<td>BLEU matches / n-grams (1–4)</td>"]
    for i, (v, s) in enumerate(zip(p.variants, res.scores)):
        per_seg = v.is_corpus and v.aggregate == "sentence_mean"
        counts.append('<td class="lab-counts">' + ("— (each segment has its own)" if per_seg else html.escape(
            " · ".join(f"{c}/{t}" for c, t in zip(s.bleu_counts, s.bleu_totals)))) + "</td>")
        if bases[i] is not None:
            b = res.scores[bases[i]]
            same = not per_seg and s.bleu_counts == b.bleu_counts and s.bleu_totals == b.bleu_totals
            counts.append(f"<td>{'identical' if same else ''}</td>")
    rows.append("<tr>" + "".join(counts) + "</tr>")
    return (f'<div class="lab-scroll"><table class="lab-table"><thead><tr>{"".join(head)}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def pair_table_html(metrics: Sequence[str], before: dict, after: dict, before_label: str = "original",
                    after_label: str = "attack") -> str:
    """Two columns and the delta, for generator and optimizer results (values from scoring.Scores)."""
    rows = []
    for m in metrics:
        d = after[m] - before[m]
        rows.append(f"<tr><td>{html.escape(metric_label(m))}</td><td>{format_metric(m, before[m])}</td>"
                    f"<td>{format_metric(m, after[m])}</td><td>{_delta_html(m, d)}</td></tr>")
    return (f'<table class="lab-table"><thead><tr><th>metric</th><th>{escape_text(before_label)}</th>'
            f'<th>{escape_text(after_label)}</th><th>Δ</th></tr></thead><tbody>{"".join(rows)}</tbody></table>')


def preset_json(res: PresetResult, table=None) -> str:
    """The preset's numbers as JSON: the lesson's (per variant) and, with ``table``, every family's verdicts."""
    p = res.preset
    out = {"id": p.id, "catalogue": p.catalogue, "title": p.title, "kind": p.kind, "lesson": p.lesson,
           "citation": p.citation, "headline": list(p.headline), "variants": []}
    for i, (v, s) in enumerate(zip(p.variants, res.scores)):
        out["variants"].append({
            "label": v.label, "candidate": v.candidate if isinstance(v.candidate, str) else list(v.candidate),
            "references": [r if isinstance(r, str) else list(r) for r in v.references],
            "options": v.options_text(), "signature": s.signature,
            "metrics": {m: s.values[m] for m in res.metrics},
            "bleu_counts": s.bleu_counts, "bleu_totals": s.bleu_totals,
            "deltas": res.deltas[i], "verdicts": res.verdicts[i]})
    if table is not None:
        out["every_metric"] = table.to_dict()
    return json.dumps(out, ensure_ascii=False, indent=2)


class RunRecorder:
    """Keeps, in ``store[key]``, a snapshot of the optimizer run that owns ``store[owner_key]``.

    Streamlit's fast reruns start the next script run in a NEW thread while the interrupted one goes on until
    its next Streamlit call, so a search can still be stepping after the page that shows its result has begun
    to draw. Storing the live result object let the two runs share it: the page showed a headline from one
    step and a text from the next, and the re-score check reported differences. So the callback stores a
    snapshot, and only while its run still owns the slot; a new script run takes the slot away
    (``disown``), and the old search then stops at its next callback without touching the store."""

    def __init__(self, store, key: str, owner_key: str) -> None:
        self.store, self.key, self.owner_key = store, key, owner_key
        self.token = object()
        store[owner_key] = self.token

    def owns(self) -> bool:
        return self.store.get(self.owner_key) is self.token

    def keep(self, result) -> bool:
        """Store a snapshot of ``result``; False (= stop the search) when another run owns the slot."""
        if not self.owns():
            return False
        self.store[self.key] = result.snapshot()
        return True

    @staticmethod
    def disown(store, owner_key: str) -> None:
        store.pop(owner_key, None)
