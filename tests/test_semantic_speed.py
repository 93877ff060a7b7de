"""How the semantic model's work is spread and saved, without changing a number: BLAS on one thread while any
caller is inside (and restored by the last), large runs cut into chunks on the worker threads (each text's vectors
back in its place), GELU without a branch (the same bits as choosing per sign), and the references kept between
corpus calls (the next system runs only its own texts; the store's bound and who it pushes out)."""
from __future__ import annotations

import threading

import numpy as np
import pytest
from threadpoolctl import threadpool_info

import explainer.semantic as sem
from explainer.semantic import embed as emb
from explainer.semantic import gelu
from explainer.semantic.bert import BertEncoder
from explainer.semantic.cores import one_blas_thread
from explainer.semantic.family import SEMANTIC
from explainer.semantic.refstore import REFERENCE_STORE, ReferenceStore

WORDS = ("the cat sat on the mat while a dog barked at the mailman and it rained all day over the old town hall "
         "where the meeting started at five").split()


def _texts(n: int, first: int = 0) -> list[str]:
    """``n`` texts of different lengths (3 to 3 + n words)."""
    return [" ".join(WORDS[(i + k) % len(WORDS)] for k in range(3 + i)) for i in range(first, first + n)]


def _blas_threads() -> int:
    return next(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")


def test_one_blas_thread_while_any_caller_is_inside_and_the_last_restores():
    before = _blas_threads()
    inside, leave = threading.Event(), threading.Event()
    seen = []

    def other():
        with one_blas_thread():
            inside.set()
            leave.wait(10)
            seen.append(_blas_threads())

    t = threading.Thread(target=other)
    with one_blas_thread():
        t.start()
        inside.wait(10)
        assert _blas_threads() == 1
    leave.set()                     # the other caller is still inside after this one left
    t.join(10)
    assert seen == [1]
    assert _blas_threads() == before


def test_a_large_run_on_the_workers_gives_each_text_its_own_vectors(monkeypatch):
    monkeypatch.setattr(emb, "CHUNK_PIECES", 60)
    monkeypatch.setattr(emb, "SMALL_RUN_PIECES", 100)
    model = sem.load_model()
    seqs = [t.ids for t in sem.get_dialect("sts").read(model, _texts(30), spans=False)]
    run = emb._Run(model, seqs)
    assert len(run.parts) > 5 and all(not isinstance(p, list) for _, p in run.parts)    # chunks on the workers
    assert sorted(i for idx, _ in run.parts for i in idx) == list(range(len(seqs)))
    together = run.result()
    for s, h in zip(seqs, together):
        alone = model.encoder.encode([s])[0]
        assert h.shape == alone.shape and not h.flags.writeable
        assert np.abs(h - alone).max() < 1e-4                   # float32 noise of another batch, not another text


def test_gelu_without_a_branch_is_bitwise_the_value_chosen_per_sign():
    x = np.concatenate([np.linspace(-12, 12, 100_001, dtype=np.float32),
                        np.random.default_rng(5).standard_normal(50_000).astype(np.float32) * 3])
    got = gelu.gelu_(x.copy())
    # the two branches as written in the module's docstring: ½x·erfc(z) for x < 0, x − ½x·erfc(z) otherwise
    z = np.abs(x) * gelu._SQRT1_2
    t = np.reciprocal(z * gelu._HALF + gelu._ONE)
    p = t * gelu._C[9] + gelu._C[8]
    for c in gelu._C[7:0:-1]:
        p = p * t + c
    p = p * t + gelu._C[0]
    half = np.exp(p - z * z) * t * x * gelu._HALF
    assert np.array_equal(got, np.where(x < 0, half, x - half))


def _count_pieces(monkeypatch) -> list[int]:
    counted: list[int] = []
    real = BertEncoder.encode

    def encode(self, sequences):
        counted.append(sum(map(len, sequences)))
        return real(self, sequences)

    monkeypatch.setattr(BertEncoder, "encode", encode)
    return counted


def test_the_corpus_path_keeps_the_references_for_the_next_system(monkeypatch):
    REFERENCE_STORE.clear()
    model = sem.load_model()
    refs = [[a, b] for a, b in zip(_texts(12), _texts(12, first=20))]
    sys_a, sys_b = _texts(12, first=40), _texts(12, first=60)
    d = SEMANTIC.bind("bertscore")
    read = sem.get_dialect("bertscore").read
    pieces = lambda texts: sum(len(t.ids) for t in read(model, texts, spans=False))     # noqa: E731
    counted = _count_pieces(monkeypatch)
    first = SEMANTIC.corpus(d, sys_a, refs)
    assert sum(counted) == pieces(sys_a) + pieces([r for rs in refs for r in rs])
    counted.clear()
    second = SEMANTIC.corpus(d, sys_b, refs)
    assert sum(counted) == pieces(sys_b)                  # only its own texts through the model
    counted.clear()
    sts = SEMANTIC.corpus(SEMANTIC.bind("sts"), sys_a, refs)
    assert sum(counted) == pieces(sys_a)                  # STS reads these texts as BERTScore does
    monkeypatch.undo()
    fresh = sem.score_semantic_systems({"A": sys_a, "B": sys_b}, refs)
    for name, got in (("A", first), ("B", second)):
        assert np.allclose(got.measures["f1"].segment_scores, fresh[name]["bertscore"].segment_values["f1"],
                           atol=1e-6, rtol=0)
    assert np.allclose(sts.measures["sts"].segment_scores, fresh["A"]["sts"].segment_values["sts"], atol=1e-6,
                       rtol=0)


def test_the_api_calls_leave_the_store_alone():
    REFERENCE_STORE.clear()
    sem.score_semantic_corpus(_texts(3), [[t] for t in _texts(3, first=5)])
    assert len(REFERENCE_STORE) == 0


def _vec(n: int) -> np.ndarray:
    return np.zeros((n, 4), np.float32)


def test_the_store_is_bounded_and_pushes_out_other_calls_entries_first():
    s = ReferenceStore(max_pieces=10)
    old = {("m", b"1"), ("m", b"2")}
    for k in old:
        s.put(k, _vec(4), frozenset(old))
    assert s.pieces == 8 and len(s) == 2
    call = frozenset({("m", b"3"), ("m", b"4"), ("m", b"5")})
    s.claim(call)
    s.put(("m", b"3"), _vec(4), call)                       # pushes out one of the older call's entries
    assert s.pieces == 8 and len(s) == 2 and s.get(("m", b"3")) is not None
    s.put(("m", b"4"), _vec(4), call)                       # pushes out the other
    assert s.get(("m", b"1")) is None and s.get(("m", b"2")) is None
    s.put(("m", b"5"), _vec(4), call)                       # would push out this call's own: not kept
    assert s.get(("m", b"5")) is None and s.get(("m", b"3")) is not None and s.pieces == 8
    s.put(("m", b"6"), _vec(11), frozenset())               # larger than the whole store
    assert s.get(("m", b"6")) is None
    kept = s.get(("m", b"3"))
    assert not kept.flags.writeable


def test_a_call_claims_its_entries_so_that_others_go_first():
    s = ReferenceStore(max_pieces=8)
    s.put(("m", b"a"), _vec(4), frozenset())
    s.put(("m", b"b"), _vec(4), frozenset())
    call = frozenset({("m", b"a"), ("m", b"c")})
    s.claim(call)                                           # a: the running call's, now the most recent
    s.put(("m", b"c"), _vec(4), call)
    assert s.get(("m", b"a")) is not None and s.get(("m", b"b")) is None


@pytest.mark.parametrize("stop_after", [1])
def test_a_stream_left_early_gives_back_the_blas_setting(stop_after):
    model = sem.load_model()
    before = _blas_threads()
    seqs = [t.ids for t in sem.get_dialect("sts").read(model, _texts(80), spans=False)]
    stream = emb.embed_stream(model, [[s] for s in seqs])
    for _ in range(stop_after):
        next(stream)
    assert _blas_threads() == 1
    stream.close()
    assert _blas_threads() == before
