"""The Corpus page's segment table sends a page of rows at a time (issue 18: the 2,037 rows of a WMT test set made
every click slow): the pages hold every row once, the sort applies to all rows before they are cut into pages,
previous / next walk the sorted order, and a filter from an analysis starts again at the first page. Expected
values from sacreBLEU's own sentence scores."""
from __future__ import annotations

import math

from sacrebleu.metrics import BLEU

from explainer.corpus import load_sample
from tests.test_ui_corpus import load_sample_page, ok


def segment_table(at):
    return next(df.value for df in at.dataframe if "reference 1" in df.value.columns and "segment" in
                df.value.columns)


def test_pages_hold_every_row_once_and_the_sort_is_over_all_rows():
    at = load_sample_page()
    ts = load_sample("news-en")
    S = ts.n_segments
    pages = at.number_input(key="cp_table_page")
    assert pages.max == math.ceil(S / 100) and len(segment_table(at)) == 100
    seen = []
    for p in range(1, int(pages.max) + 1):
        at.number_input(key="cp_table_page").set_value(p).run()
        seen += segment_table(ok(at))["segment"].tolist()
    assert seen == list(range(1, S + 1))

    # sorted by the system's Δ, largest first: page 1 holds the 100 largest of every segment's Δ
    base, name = at.session_state["cp_baseline"], at.session_state["cp_system"]
    bleu = BLEU()

    def sent(system: str, k: int) -> float:
        return bleu.corpus_score([ts.system(system)[k]], [[r] for r in ts.references[k]]).score

    want = {k + 1: sent(name, k) - sent(base, k) for k in range(S)}
    at.selectbox(key="cp_sort").set_value(f"{name} | Δ").run()
    at.toggle(key="cp_sort_desc").set_value(True).run()
    ok(at)
    assert at.number_input(key="cp_table_page").value == 1
    first = segment_table(at)
    shown = first[f"{name} | Δ"].tolist()
    assert shown == sorted(shown, reverse=True)
    for seg, d in zip(first["segment"].tolist(), shown):
        assert math.isclose(d, want[seg], abs_tol=1e-9)
    rest = [d for seg, d in want.items() if seg not in set(first["segment"].tolist())]
    assert min(shown) >= max(rest) - 1e-9

    # previous / next walk the sorted order, across pages
    order = first["segment"].tolist()
    at.number_input(key="cp_seg_input").set_value(order[0]).run()
    at.button(key="cp_next").click().run()
    assert ok(at).session_state["cp_seg"] == order[1]


def test_a_filter_starts_again_at_the_first_page():
    at = load_sample_page()
    at.session_state["cp_sec_corpus_vs_mean"] = True      # its reasons' buttons list segments
    at.number_input(key="cp_table_page").set_value(3).run()
    btn = next(b for b in at.button if b.key and b.key.startswith("cp_reason_"))
    btn.click().run()
    ok(at)
    ids = at.session_state["cp_filter_ids"][1]
    page = at.number_input(key="cp_table_page") if len(ids) > 100 else None
    assert page is None or page.value == 1
    assert segment_table(at)["segment"].tolist() == sorted(ids)[:100]
