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
