"""Readable on a projector (issue 10, defect 9): no chart text under 14 px, no label in the highlighted texts
under 14 px, and a "large text" toggle that scales the page and the charts (and survives a page switch)."""
from __future__ import annotations

import re

import pytest

from explainer.bleu import explain_bleu
from explainer.examples import get_example
from explainer.rouge import explain_rouge
from explainer.ui import bleu_view as bv
from explainer.ui import charts, highlight
from explainer.ui import rouge_view as rv
from explainer.ui.display import LARGE_TEXT_CSS
from explainer.ui.lab import charts as lab_charts
from explainer.ui.lab import view as lab_view
from tests.ui_driver import BrowserLikeApp


def _figures():
    ex = get_example("abandon_hope")
    bt = explain_bleu(ex.candidate, list(ex.references))
    rouge_trace = explain_rouge(ex.candidate, list(ex.references),
                                types=("rouge1", "rougeL", "rougeLsum", "rougeW-1.2"))
    d = rv.detail(rouge_trace, "rougeL", 0)
    yield "bleu_counts", charts.bleu_counts_figure(bv.order_rows(bt))
    yield "bp_curve", charts.bp_curve_figure(5, 7, 0.67, rule="closest")
    yield "rouge_prf", charts.rouge_prf_figure(rv.prf_rows(rouge_trace))
    cand_toks, ref_toks = rouge_trace.candidate.tokenized.tokens, rouge_trace.references[0].tokenized.tokens
    yield "lcs_heatmap", charts.lcs_heatmap_figure(d["table"], ref_toks, cand_toks, d["pairs"])[0]
    yield "alignment", charts.alignment_figure(cand_toks, ref_toks, d["pairs"])[0]
    from explainer.attacks.optimizer import optimize
    from explainer.attacks.sweeps import sweep_length

    sw = sweep_length("the cat sat", ["the cat sat on the mat"], max_len=8, pad_text="the mat")
    yield "sweep", lab_charts.sweep_figure(sw)
    res = optimize("the cat sat", ["the cat sat on the mat"], "bleu", budget_seconds=0.2, seed=1)
    yield "trajectory", lab_charts.trajectory_figure(res)


def _font_sizes(node, path=""):
    """Every explicit font size in a figure's JSON, with where it is."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("font", "textfont", "tickfont", "insidetextfont", "outsidetextfont") and isinstance(v, dict) \
                    and v.get("size") is not None:
                yield f"{path}.{k}", v["size"]
            yield from _font_sizes(v, f"{path}.{k}")
    elif isinstance(node, list):
        for v in node:
            yield from _font_sizes(v, path)


@pytest.mark.parametrize("name,fig", list(_figures()), ids=lambda x: x if isinstance(x, str) else "")
def test_chart_text_is_at_least_14px_and_large_text_scales_it(name, fig):
    normal = charts.readable(fig).to_plotly_json()
    sizes = list(_font_sizes(normal))
    assert sizes, name
    small = [(p, s) for p, s in sizes if s < charts.MIN_FONT]
    assert not small, (name, small)
    lay = normal["layout"]
    for ax in [k for k in lay if k.startswith(("xaxis", "yaxis"))]:
        assert lay[ax]["tickfont"]["size"] >= charts.MIN_FONT, (name, ax)  # set explicitly, not a theme default
    big = dict(_font_sizes(charts.readable(fig, large=True).to_plotly_json()))
    assert big[".layout.font"] == pytest.approx(dict(sizes)[".layout.font"] * charts.LARGE_TEXT_SCALE)


@pytest.mark.parametrize("large", [False, True])
@pytest.mark.parametrize("name,fig", list(_figures()), ids=lambda x: x if isinstance(x, str) else "")
def test_readable_figure_is_what_plotly_validates(name, fig, large):
    """readable() builds its copy without validating it again (issue 34: ~20 ms per chart): the figure Streamlit
    sends is the same as the validated one, and Plotly finds nothing to refuse in it."""
    import json

    import plotly.graph_objects as go
    import plotly.io

    fast = charts.readable(fig, large=large)
    checked = go.Figure(fast.to_plotly_json())          # validates every property (raises on a bad one)
    as_sent = [json.loads(plotly.io.to_json(f.to_dict(), validate=False)) for f in (fast, checked)]
    assert as_sent[0] == as_sent[1], name


def _css_font_sizes(css: str) -> list[str]:
    return re.findall(r"font-size:\s*([^;}]+)", css)


@pytest.mark.parametrize("css", [highlight.STYLE, lab_view.LAB_CSS], ids=["highlight", "lab"])
def test_no_css_text_under_14px(css):
    for value in _css_font_sizes(css):
        value = value.strip()
        if value.startswith("max(14px"):
            continue
        m = re.fullmatch(r"([\d.]+)(rem|px)", value)
        assert m, value  # em sizes must be floored with max(14px, …)
        px = float(m.group(1)) * (16 if m.group(2) == "rem" else 1)
        assert px >= 14, value


def test_large_text_toggle_scales_the_page_and_survives_a_page_switch():
    app = BrowserLikeApp()
    assert not any(LARGE_TEXT_CSS in h.proto.body for h in app.at.get("html"))  # off by default
    app.set("toggle", "large_text", True)
    assert any(LARGE_TEXT_CSS in h.proto.body for h in app.at.get("html"))
    app.at.switch_page("explainer/ui/pages/gaming_lab.py")
    app.run()
    assert not app.exceptions
    assert app.at.toggle(key="large_text").value is True
    assert any(LARGE_TEXT_CSS in h.proto.body for h in app.at.get("html"))
