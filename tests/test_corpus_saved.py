"""Save and restore a comparison (issue 19): one JSON file with the test set, names, settings, view and test
results; bounded like uploads, every bad file one clear message."""
from __future__ import annotations

import json

import numpy as np
import pytest

from explainer.corpus.report import bleu_report
from explainer.corpus.saved import KIND, MAX_SAVED_TESTS, Saved, dump_saved, load_saved
from explainer.corpus.significance import PairedResult, paired_test
from explainer.corpus.testset import TestSetError, build_testset
from tests.corpus_data import make_testset


def _saved(n=60, tests=True):
    refs, systems = make_testset(n, 2, 3, seed=31)
    ts = build_testset(systems, [(f"ref.{k}", r) for k, r in zip("AB", refs)])
    out = []
    if tests:
        rep = bleu_report(ts)
        res = paired_test([(s.name, rep.statistic(j)) for j, s in enumerate(rep.systems)], test="bs", n_samples=200)
        d = res.to_dict(with_samples=True)
        d.update(metric="bleu", baseline=rep.names[0], seconds=0.1)
        out.append(d)
    return Saved(ts, "three systems", {"tokenize": "zh"}, {"cp_metric": "BLEU", "cp_seg": 7}, out), out


def test_round_trip_keeps_everything():
    saved, tests = _saved()
    text = dump_saved(saved)
    back = load_saved(text.encode("utf-8"), max_bytes=10_000_000)
    assert back.testset.references == saved.testset.references
    assert back.testset.systems == saved.testset.systems
    assert back.testset.ref_names == ["ref.A", "ref.B"]
    assert back.settings == {"tokenize": "zh"} and back.view == {"cp_metric": "BLEU", "cp_seg": 7}
    assert back.label == "three systems"
    res = PairedResult.from_dict(back.tests[0])
    again = res.to_dict(with_samples=True)
    for k in ("test", "n_samples", "seed"):
        assert again[k] == tests[0][k]
    for a, b in zip(again["systems"], tests[0]["systems"]):
        assert a == {k: v for k, v in b.items()}
    assert isinstance(res.systems[1].resampled, np.ndarray)


def _bad(obj):
    return json.dumps(obj).encode()


@pytest.mark.parametrize("data,needle", [
    (b"\xff\xfe", "not UTF-8"),
    (b"{", "is not JSON"),
    (_bad({"kind": "something"}), "not a comparison saved by this page"),
    (_bad({"kind": KIND, "version": 9}), "version 9"),
    (_bad({"kind": KIND, "version": 1, "references": [["r"]], "systems": [{"name": "A", "lines": ["a", "b"]}]}),
     "has 2 lines, the references have 1"),
    (_bad({"kind": KIND, "version": 1, "references": [["r"] * 5], "systems": []}), "1 to 4 references"),
    (_bad({"kind": KIND, "version": 1, "references": [["r"]] * 3, "systems": [{"name": "A", "lines": ["a"] * 3}]}),
     "3 segments, over the limit of 2"),
    (_bad({"kind": KIND, "version": 1, "references": [["r"]], "systems": [{"name": "A", "lines": ["a"]}],
           "tests": [{"test": "bs", "systems": [{"name": "A", "resampled": ["x"]}]}]}), "not a list of at most"),
    (_bad({"kind": KIND, "version": 1, "references": [["r"]], "systems": [{"name": "A", "lines": ["a"]}],
           "tests": [{"test": "bs", "systems": []}] * (MAX_SAVED_TESTS + 1)}), "at most 8 results"),
    (_bad({"kind": KIND, "version": 1, "references": [["r"]], "systems": [{"name": "A", "lines": ["a"]}],
           "settings": {"x": [1]}}), "not a plain value"),
])
def test_bad_files_are_one_clear_message(data, needle):
    with pytest.raises(TestSetError, match="saved file") as e:
        load_saved(data, max_bytes=1_000_000, max_segments=2)
    assert needle in str(e.value)


def test_size_is_checked_before_parsing():
    saved, _ = _saved(tests=False)
    data = dump_saved(saved).encode()
    with pytest.raises(TestSetError, match="over the limit of 0 MB"):
        load_saved(data, max_bytes=len(data) - 1)


# ------------------------------------------------------------------------ a crafted view (issue 34, item 4)
CRAFTED_VIEWS = [
    ({"cp_seg": "abc"}, "“seg=abc” is not a segment of this sample (1–60); showing segment 1."),
    ({"cp_seg": float("nan")}, "“seg=nan” is not a segment of this sample (1–60)"),
    ({"cp_seg": float("inf")}, "“seg=inf” is not a segment of this sample (1–60)"),
    ({"cp_test_n_bs": "abc"}, "“n=abc” is not a number of resamples the page runs (1–10,000); using 1,000."),
    ({"cp_test_n_ar": float("nan")}, "“n=nan” is not a number of trials the page runs (1–100,000); using 10,000."),
    ({"cp_test": "zz"}, "“test=zz” is not bs (paired bootstrap) or ar (approximate randomization); using bs."),
]


def _crafted(saved: Saved, view: dict) -> bytes:
    """A saved file with ``view`` written in (NaN and Infinity as Python's json writes them: the page's own
    files never hold them, a crafted one may)."""
    obj = json.loads(dump_saved(saved))
    obj["view"] = {**obj["view"], **view}
    return json.dumps(obj).encode()


@pytest.mark.parametrize("view,message", CRAFTED_VIEWS)
def test_a_saved_view_is_read_through_the_links_fields(view, message):
    """The view of a saved file is bounded and checked as a link's values are, with the link's messages."""
    from explainer.ui.corpus.common import PAGE_MAX_RESAMPLES, PAGE_MAX_TEST_CELLS
    from explainer.ui.corpus.link import read_saved_view

    back = load_saved(_crafted(Saved(_saved(tests=False)[0].testset, view={"cp_metric": "BLEU"}), view),
                      max_bytes=10_000_000)
    out, warns = read_saved_view(back.view, names=list(back.testset.names), n_segments=back.testset.n_segments,
                                 max_n=PAGE_MAX_RESAMPLES, max_cells=PAGE_MAX_TEST_CELLS)
    assert len(warns) == 1 and message in warns[0], warns
    assert out == {"cp_metric": "bleu"}   # the bad value not restored ("BLEU": the family)


def test_a_good_saved_view_restores_every_value():
    from explainer.ui.corpus.common import PAGE_MAX_RESAMPLES, PAGE_MAX_TEST_CELLS
    from explainer.ui.corpus.link import SAVED_VIEW_KEYS, read_saved_view

    saved, _ = _saved(tests=False)
    names = list(saved.testset.names)
    view = {"cp_metric": "ROUGE", "cp_baseline": names[1], "cp_system": names[2], "cp_view_sys": names[0],
            "cp_seg": 60, "cp_test": "ar", "cp_test_n_bs": 300, "cp_test_n_ar": 2000.0, "cp_rouge_type": "rougeL",
            "cp_differ_view": "Segments", "cp_langpair": "en-de"}
    out, warns = read_saved_view(view, names=names, n_segments=60, max_n=PAGE_MAX_RESAMPLES,
                                 max_cells=PAGE_MAX_TEST_CELLS)
    # a file of an earlier version: its metric's label and ROUGE type are read as the family and the measure
    now = {**{k: v for k, v in view.items() if k != "cp_rouge_type"}, "cp_metric": "rouge", "cp_measure": "rougeL"}
    assert warns == [] and out == {**now, "cp_test_n_ar": 2000}
    assert set(now) <= set(SAVED_VIEW_KEYS)
    again, warns = read_saved_view(now, names=names, n_segments=60, max_n=PAGE_MAX_RESAMPLES,
                                   max_cells=PAGE_MAX_TEST_CELLS)
    assert warns == [] and again == out


@pytest.mark.parametrize("view,message", CRAFTED_VIEWS)
def test_a_crafted_saved_file_gives_a_message_on_the_page(view, message):
    """A crafted view crashed the page ('This app has encountered an error' until reload): int('abc') in the
    segment view, a TypeError and a KeyError in the paired test."""
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT

    saved, _ = _saved(tests=False)
    names = list(saved.testset.names)
    data = _crafted(Saved(saved.testset, "crafted", {}, {"cp_metric": "BLEU", "cp_baseline": names[0],
                                                         "cp_system": names[1]}), view)
    at = AppTest.from_file(str(ROOT / "explainer" / "ui" / "pages" / "corpus.py"), default_timeout=120)
    at.run()
    at.radio(key="cp_source").set_value("Saved comparison").run()
    at.file_uploader(key="cp_up_saved").set_value(("crafted.json", data, "application/json"))
    at.run()
    at.button(key="cp_load_saved").click().run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(e.value.replace("\\", "") for e in [*at.warning, *at.info, *at.success, *at.error])
    assert message in shown, shown
    assert at.session_state["cp_seg"] == 1 if "cp_seg" in view else True
