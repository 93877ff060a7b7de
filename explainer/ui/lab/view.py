"""Gaming lab: pure view helpers (no Streamlit) - comparison tables as escaped HTML, Explain-page
permalinks for any candidate, and the lab's own permalink parameters."""
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

__all__ = ["explain_query", "explain_href", "variant_links", "comparison_html", "verdict_badge", "delta_text",
           "pair_table_html", "preset_json", "LAB_CSS", "LAB_LARGE_CSS", "SECTIONS", "preset_label"]

SECTIONS = {"presets": "Presets", "generators": "Attack generators", "sweeps": "Sweeps",
            "optimizer": "Metric optimizer"}

VERDICT_STYLE = {  # colour-blind safe (Okabe-Ito) + a symbol and the word itself
    "fooled": ("#D55E00", "✗ fooled"),
    "fooled_tie": ("#D55E00", "✗ fooled (same score)"),
    "resisted": ("#009E73", "✓ resisted"),
    "tie": ("#6E6E6E", "= tie / n/a"),
    "changed": ("#E69F00", "≠ changed"),
    "unchanged": ("#0072B2", "= unchanged"),
}

# "Large text (projector)": the headline metrics' scores (BLEU, ROUGE F) as large as a headline (28 px with the
# page's 20 px root), the counts row at the table's size
LAB_LARGE_CSS = """<style>
table.lab-table tr.head td[data-metric]{font-size:1.4rem}
table.lab-table td.lab-counts{font-size:1rem}
</style>"""

LAB_CSS = """
<style>
.lab-box{border:1px solid rgba(128,128,128,.45);border-radius:6px;padding:.55em .8em;margin:.2em 0 .6em 0;
 font-size:1.05rem;line-height:1.5;white-space:pre-wrap;word-break:break-word}
.lab-label{font-weight:600;font-size:1.02rem;margin-top:.3em}
.lab-scroll{overflow-x:auto;max-width:100%;scrollbar-width:auto;
 scrollbar-color:rgba(128,128,128,.85) rgba(128,128,128,.18);padding-bottom:.2rem}
.lab-opts{font-family:monospace;font-size:max(14px,.875rem);opacity:.85;overflow-wrap:anywhere}
table.lab-table{border-collapse:collapse;width:100%;font-size:1rem;margin:.4em 0 1em 0}
table.lab-table th,table.lab-table td{border-bottom:1px solid rgba(128,128,128,.35);padding:.35em .6em;
 text-align:right;vertical-align:top}
table.lab-table td.lab-counts{font-size:.9rem}
table.lab-table th:first-child,table.lab-table td:first-child{text-align:left;white-space:nowrap}
table.lab-table tr.head td{font-weight:600}
.lab-verdict{display:inline-block;white-space:nowrap;padding:.05em .45em;border-radius:4px;color:#fff;
 font-weight:600;font-size:.9rem}
.lab-delta-up{color:#D55E00;font-weight:600}
.lab-delta-down{color:#0072B2;font-weight:600}
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
        return f"{c.catalogue} · {c.title} (lesson card, no numbers)"
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


def explain_href(page_url: str, query: str) -> str:
    """Link to the Explain page (the app's default page, at the app root) from the lab page's URL
    (``http://host:8501/gaming_lab``, maybe with a trailing "/" or under a path prefix); without a URL, a
    relative link."""
    base = (page_url or "").split("?", 1)[0].split("#", 1)[0].rstrip("/")
    if "://" not in base:
        return "./?" + query
    scheme, rest = base.split("://", 1)
    host, _, path = rest.partition("/")
    parent = path.rsplit("/", 1)[0] if "/" in path else ""  # drop the page's own path segment
    return f"{scheme}://{host}/" + (parent + "/" if parent else "") + "?" + query


def variant_links(v: Variant) -> list[tuple[str, str]]:
    """(label, query) for each Explain link of a variant: one, or one per segment of a corpus variant."""
    if v.is_corpus:
        sentence = sentence_config(v.bleu)
        return [(f"segment {i + 1}", explain_query(c, list(refs), sentence, v.rouge))
                for i, (c, refs) in enumerate(zip(v.candidate, v.references))]
    return [("", explain_query(v.candidate, list(v.references), v.bleu, v.rouge))]


VERDICT_HELP = {
    "fooled": "the worse text scores higher than the honest one",
    "fooled_tie": "the worse text scores exactly as high as the honest one: the metric cannot tell them apart, "
                  "so the attack went unnoticed",
    "resisted": "the worse text scores lower than the honest one",
    "tie": "both texts score the same: the metric cannot tell them apart (at a ceiling such as a brevity "
           "penalty of 1 it simply has nothing to say)",
    "changed": "the setting changes the number",
    "unchanged": "the setting does not change the number",
}


def verdict_badge(verdict: str) -> str:
    colour, text = VERDICT_STYLE.get(verdict, ("#666666", verdict))
    tip = VERDICT_HELP.get(verdict, "")
    return (f'<span class="lab-verdict" style="background:{colour}" title="{html.escape(tip, quote=True)}">'
            f'{html.escape(text)}</span>')


def delta_text(metric: str, delta: float) -> str:
    if abs(delta) <= EPS:
        return "±0"
    return ("+" if delta > 0 else "−") + format_metric(metric, abs(delta))


def _delta_html(metric: str, delta: float) -> str:
    cls = "lab-delta-up" if delta > EPS else ("lab-delta-down" if delta < -EPS else "")
    return f'<span class="{cls}">{html.escape(delta_text(metric, delta))}</span>'


def comparison_html(res: PresetResult) -> str:
    """Metric rows x variant columns; each non-baseline variant with its delta and, for attacks, the
    verdict (configuration traps need no verdict column: a non-zero delta *is* the change; comparison-only
    variants get none either)."""
    p = res.preset
    judged = set(res.judged) if p.kind == "attack" else set()
    head = ["<th>metric</th>"]
    for i, v in enumerate(p.variants):
        head.append(f"<th>{escape_text(v.label)}" + (" <small>(comparison, no verdict)</small>" if v.compare_only
                                                      else "") + "</th>")
        if i > 0:
            head.append("<th>Δ</th>" + ("<th>verdict</th>" if i in judged else ""))
    rows = []
    for m in res.metrics:
        strong = m in p.headline
        cells = [f"<td>{'<b>' if strong else ''}{html.escape(metric_label(m))}{'</b>' if strong else ''}</td>"]
        for i, s in enumerate(res.scores):
            cells.append(f'<td data-metric="{html.escape(m)}" data-variant="{i}">{format_metric(m, s.values[m])}</td>')
            if i > 0:
                cells.append(f'<td data-delta="{html.escape(m)}" data-variant="{i}">'
                             f'{_delta_html(m, res.deltas[i][m])}</td>')
                if i in judged:
                    cells.append(f'<td data-verdict="{html.escape(m)}" data-variant="{i}">'
                                 f'{verdict_badge(res.shown_verdict(i, m))}</td>')
        rows.append(f'<tr class="{"head" if strong else ""}">' + "".join(cells) + "</tr>")
    counts = ["<td>BLEU matches / n-grams (1–4)</td>"]
    for i, s in enumerate(res.scores):
        counts.append('<td class="lab-counts">' + html.escape(" · ".join(
            f"{c}/{t}" for c, t in zip(s.bleu_counts, s.bleu_totals))) + "</td>")
        if i > 0:
            same = s.bleu_counts == res.scores[0].bleu_counts and s.bleu_totals == res.scores[0].bleu_totals
            counts.append(f"<td>{'identical' if same else ''}</td>" + ("<td></td>" if i in judged else ""))
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


def preset_json(res: PresetResult) -> str:
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
