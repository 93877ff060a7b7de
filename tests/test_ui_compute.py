"""The shared trace cache of the Explain page (explainer.ui.compute): keyed exactly, bounded, one computation
per key even when thirty sessions ask at once, exceptions not cached, nothing written to disk."""
from __future__ import annotations

import builtins
import threading
import time
from dataclasses import dataclass, field

import pytest

from explainer.ui import compute as C
from explainer.ui.schema import DEFAULT_ROUGE_TYPES, bleu_schema, rouge_schema
from explainer.ui.settings import MetricSettings


@dataclass
class Inputs:
    """Texts and settings of one computation."""

    candidate: str
    refs: list
    bleu_dialect: str
    bleu_options: dict
    rouge_dialect: str
    rouge_types: tuple
    rouge_options: dict = field(default_factory=dict)

    def settings(self) -> MetricSettings:
        return MetricSettings(self.bleu_dialect, self.bleu_options, self.rouge_dialect, self.rouge_types,
                              self.rouge_options)


def state(candidate="the cat sat on the mat", refs=("the cat is on the mat", "there is a cat on the mat"), **kw):
    b, r = bleu_schema(), rouge_schema()
    s = Inputs(candidate=candidate, refs=list(refs), bleu_dialect=b.default_dialect,
               bleu_options=b.defaults(b.default_dialect), rouge_dialect=r.default_dialect,
               rouge_types=DEFAULT_ROUGE_TYPES(), rouge_options=r.defaults(r.default_dialect))
    for k, v in kw.items():
        setattr(s, k, v)
    return s


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
    assert again is first  # the very same objects: computed once
    bt, rouge_trace, errors = first
    fresh = C.compute_traces(s.candidate, s.refs, s.settings())
    assert bt.score == fresh[0].score and rouge_trace.scores["rougeL"].fmeasure == fresh[1].scores["rougeL"].fmeasure
    assert errors == fresh[2] == {}
    # any difference in texts or settings is another entry
    other_text = traces(state(candidate="the cat sat on a mat"), s.refs)
    other_option = traces(state(rouge_options={**s.rouge_options, "use_stemmer": True}), s.refs)
    other_types = traces(state(rouge_types=("rouge1",)), s.refs)
    fewer_refs = traces(s, s.refs[:1])
    assert len({id(x) for x in (first, other_text, other_option, other_types, fewer_refs)}) == 5
    assert other_text[0].score != bt.score and "nrefs:1" in fewer_refs[0].signature
    assert set(other_types[1].scores) == {"rouge1"}


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
    bt, rouge_trace, errors = traces(s, s.refs)
    assert rouge_trace is None and errors == {"ROUGE": "No ROUGE type is selected."}
    bt, rouge_trace, errors = traces(state(bleu_options={"smooth_method": "nonsense"}), s.refs)
    assert bt is None and "BLEU" in errors


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
