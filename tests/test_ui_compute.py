"""The shared trace cache of the Explain page (explainer.ui.compute): keyed exactly, bounded, one computation
per key even when thirty sessions ask at once, exceptions not cached, nothing written to disk."""
from __future__ import annotations

import builtins
import threading
import time
from dataclasses import dataclass, field

import pytest

from explainer.ui import compute as C
from explainer.ui.settings import MetricSettings, default_settings


@dataclass
class Inputs:
    """Texts and settings of one computation (``bleu_options`` / ``rouge_options`` / ``rouge_types``: changes to
    the default settings)."""

    candidate: str
    refs: list
    bleu_options: dict = field(default_factory=dict)
    rouge_options: dict = field(default_factory=dict)
    rouge_types: tuple | None = None

    def settings(self) -> MetricSettings:
        s = default_settings()
        rouge = s["rouge"].replace(**self.rouge_options)
        if self.rouge_types is not None:
            rouge = rouge.replace(types=tuple(self.rouge_types))
        return s.replace(s["bleu"].replace(**self.bleu_options), rouge)


def state(candidate="the cat sat on the mat", refs=("the cat is on the mat", "there is a cat on the mat"), **kw):
    return Inputs(candidate=candidate, refs=list(refs), **kw)


def traces(s: Inputs, refs):
    return C.traces(s.candidate, list(refs), s.settings())


def test_freeze_tells_apart_what_equality_does_not():
    assert C.freeze(True) != C.freeze(1) != C.freeze(1.0)
    assert C.freeze(True) != C.freeze(1.0)
    assert C.freeze(0.0) != C.freeze(-0.0)
    assert C.freeze([1, 2]) == C.freeze([1, 2]) and C.freeze((1, 2)) != C.freeze([1, 2])
    assert C.freeze({"a": 1, "b": None}) == C.freeze({"b": None, "a": 1})
    hash(C.freeze({"w": (0.25, 0.25), "x": [1.5, None]}))


def test_same_inputs_share_one_result_and_other_inputs_do_not():
    C.shared.clear()
    s = state()
    first = traces(s, s.refs)
    again = traces(state(), list(s.refs))
    assert all(again[k] is first[k] for k in first)  # the very same objects: computed once
    bt, rouge_trace = first["bleu"].trace, first["rouge"].trace
    from explainer.ui.families import ui_family

    fresh = {k: ui_family(k).compute(s.settings()[k], s.candidate, s.refs) for k in first}
    assert bt.score == fresh["bleu"].trace.score
    assert rouge_trace.scores["rougeL"].fmeasure == fresh["rouge"].trace.scores["rougeL"].fmeasure
    assert all(c.error is None and not c.notes for c in first.values())
    # any difference in texts or settings is another entry, for the family whose settings differ
    other_text = traces(state(candidate="the cat sat on a mat"), s.refs)
    other_option = traces(state(rouge_options={"use_stemmer": True}), s.refs)
    other_types = traces(state(rouge_types=("rouge1",)), s.refs)
    fewer_refs = traces(s, s.refs[:1])
    assert len({id(x["rouge"]) for x in (first, other_text, other_option, other_types, fewer_refs)}) == 5
    assert other_option["bleu"] is first["bleu"] and other_option["chrf"] is first["chrf"]   # not recomputed
    assert other_text["bleu"].trace.score != bt.score and "nrefs:1" in fewer_refs["bleu"].trace.signature
    assert set(other_types["rouge"].trace.scores) == {"rouge1"}


def test_option_value_types_are_part_of_the_key():
    """True and 1 are equal in Python; as option values they may mean different things (one may be refused)."""
    cache = C.SharedResults()
    calls = []
    for v in (True, 1, 1.0, 0.0, -0.0):
        s = state(bleu_options={"smooth_value": v})
        key, cost = C.inputs_key(s.candidate, ["x"], s.settings())
        cache.get(key, cost, lambda v=v: calls.append(v) or v)
    assert len(calls) == 5


def test_budget_bounds_the_cache_least_recently_used_first():
    cache = C.SharedResults(budget=100)
    for k in "abcd":
        cache.get(k, 30, lambda k=k: k.upper())
    assert len(cache) == 3 and cache.total_cost == 90  # "a" went first
    assert cache.get("b", 30, lambda: "recomputed") == "B"  # "b" is now the most recent
    cache.get("e", 30, lambda: "E")
    assert cache.get("c", 30, lambda: "recomputed") == "recomputed"  # "c" was the least recent, evicted
    assert cache.total_cost <= 100
    # larger than the whole budget: computed, returned, not kept
    assert cache.get("huge", 101, lambda: "H") == "H"
    assert cache.get("huge", 101, lambda: "again") == "again"
    assert cache.total_cost <= 100


def test_budget_holds_for_real_traces():
    s = state(candidate="word " * 3000, refs=["word " * 3000])
    key, cost = C.inputs_key(s.candidate, s.refs, s.settings())
    assert cost > 30_000
    assert cost * 4 > C.BUDGET_CHARS  # four such texts cannot all stay


def test_exceptions_are_not_cached():
    cache = C.SharedResults()

    def boom():
        raise RuntimeError("bug")

    with pytest.raises(RuntimeError):
        cache.get("k", 1, boom)
    assert cache.get("k", 1, lambda: 42) == 42


def test_thirty_sessions_at_once_compute_once():
    cache = C.SharedResults()
    calls = []
    start = threading.Barrier(30)
    out = []

    def slow():
        calls.append(1)
        time.sleep(0.2)
        return object()

    def session():
        start.wait()
        out.append(cache.get("link", 10, slow))

    threads = [threading.Thread(target=session) for _ in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(calls) == 1 and len(out) == 30 and len({id(x) for x in out}) == 1


def test_a_failing_computation_reaches_every_waiting_session():
    cache = C.SharedResults()
    start = threading.Barrier(5)
    errors = []

    def slow_fail():
        time.sleep(0.2)
        raise ValueError("bad input")

    def session():
        start.wait()
        try:
            cache.get("k", 1, slow_fail)
        except ValueError as e:
            errors.append(str(e))

    threads = [threading.Thread(target=session) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert errors == ["bad input"] * 5


def test_input_errors_are_messages_not_exceptions():
    s = state(rouge_types=())
    got = traces(s, s.refs)
    assert got["rouge"].trace is None and got["rouge"].error == "No ROUGE type is selected."
    got = traces(state(bleu_options={"smooth_method": "nonsense"}), s.refs)
    assert got["bleu"].trace is None and "smooth_method" in got["bleu"].error


def test_nothing_is_written_to_disk(monkeypatch, tmp_path):
    C.shared.clear()
    written = []
    real_open = builtins.open

    def watching_open(file, mode="r", *a, **kw):
        if any(c in mode for c in "wax+"):
            written.append(str(file))
        return real_open(file, mode, *a, **kw)

    monkeypatch.setattr(builtins, "open", watching_open)
    s = state(candidate="a secret sentence typed by a student", refs=["a secret reference"])
    traces(s, s.refs)
    C.cached("stemmed", s.candidate, s.refs, s.settings(), lambda: 1, small=True)
    assert written == []
