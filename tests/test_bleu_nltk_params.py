"""NLTK's smoothing parameters at their edges (k = 0, alpha = 0, epsilon = 0, no references) for every method,
against the real NLTK 3.10.4 run here: the explainer gives the same number, or records the exception NLTK
raises (type and full message) as ``library_error`` - it never raises itself. A fuzz-style test draws random
option combinations (weights of any length and sign, extreme parameters) and random texts."""
from __future__ import annotations

import itertools
import json
import math
import random
import warnings

import pytest
from nltk.translate import bleu_score as nb

from explainer.bleu import explain_bleu, explain_bleu_corpus, score_bleu, score_bleu_corpus
from explainer.errors import ExplainerInputError

METHODS = [f"method{i}" for i in range(8)]
PARAMS = [{}, {"k": 0}, {"alpha": 0}, {"epsilon": 0}, {"k": 0, "alpha": 0, "epsilon": 0}]
SEGMENTS = [
    ("a b c d e", []), ("a b c", []), ("a", []), ("", []),                 # no references
    ("a", ["a"]), ("a b", ["a c"]), ("a b c", ["a b c"]), ("a b c d", ["a b c d"]),
    ("the cat sat on", ["the dog sat on"]), ("a b c d e", ["a b c x e"]), ("a b c d e f", ["a b c d e f g"]),
    ("the cat", ["the dog"]), ("x y", ["a b"]), ("", ["a b"]), ("a b", [""]),
]
CORPORA = [
    (["a b c d e", "a b c"], [["a b c d e"], ["a b c"]]),      # the last segment has no 4-grams (method6, l = 0)
    (["a b c d e", "x"], [["a b c d e"], ["x"]]),
    (["the cat sat on the mat", "a b"], [["the cat is on the mat"], ["a c"]]),
    (["a b c d", "a b c d e"], [["a b c d"], []]),                # the last segment has no reference
]


def real_nltk(cands, refs, *, corpus, smoothing, weights=(0.25, 0.25, 0.25, 0.25), auto_reweigh=False, **params):
    """(value, error "Type: message", warning messages) of the real NLTK."""
    fn = getattr(nb.SmoothingFunction(**params), smoothing)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if corpus:
                v = nb.corpus_bleu([[r.split() for r in rs] for rs in refs], [c.split() for c in cands],
                                   weights=weights, smoothing_function=fn, auto_reweigh=auto_reweigh)
            else:
                v = nb.sentence_bleu([r.split() for r in refs], cands.split(), weights=weights,
                                     smoothing_function=fn, auto_reweigh=auto_reweigh)
            err = None
        except Exception as e:  # noqa: BLE001 - whatever NLTK raises is what the trace must record
            v, err = None, f"{type(e).__name__}: {e}"
    return v, err, [str(w.message) for w in caught]


def same_number(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and (math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
                                   if abs(b) > 1e-300 else abs(a - b) < 1e-300)


def check(got, want, key):
    v, err, msgs = want
    if err is not None:
        e = got.library_error
        assert e is not None, (key, err, got.score)
        assert f"{e.type}: {e.message}" == err, (key, e)
        assert e.explanation.startswith("the real library fails here because"), key
        return
    assert got.library_error is None, (key, got.library_error)
    assert same_number(got.score, v), (key, got.score, v)
    assert [w.message for w in got.warnings] == msgs, key


@pytest.mark.parametrize("method", METHODS)
def test_parameter_edges_segments_match_real_nltk(method):
    for params, (cand, refs) in itertools.product(PARAMS, SEGMENTS):
        want = real_nltk(cand, refs, corpus=False, smoothing=method, **params)
        key = (method, params, cand, refs)
        check(explain_bleu(cand, refs, dialect="nltk", smoothing=method, **params), want, key)
        check(score_bleu(cand, refs, dialect="nltk", smoothing=method, **params), want, key)


@pytest.mark.parametrize("method", METHODS)
def test_parameter_edges_corpora_match_real_nltk(method):
    for params, (cands, refs) in itertools.product(PARAMS, CORPORA):
        want = real_nltk(cands, refs, corpus=True, smoothing=method, **params)
        key = (method, params, cands, refs)
        tr = explain_bleu_corpus(cands, refs, dialect="nltk", smoothing=method, **params)
        check(tr, want, key)
        check(score_bleu_corpus(cands, refs, dialect="nltk", smoothing=method, **params), want, key)
        tr.to_dict(full=True)   # every segment's own trace builds too


def test_audit_cases_are_recorded_not_raised():
    """The three crashes the audit found, with NLTK's own messages."""
    tr = explain_bleu("a b c d e", [], dialect="nltk", smoothing="method5")
    assert (tr.library_error.type, tr.library_error.message) == ("KeyError", "('a',)")
    tr = explain_bleu("the cat sat on", ["the dog sat on"], dialect="nltk", smoothing="method4", k=0)
    assert (tr.library_error.type, tr.library_error.message) == ("ZeroDivisionError", "float division by zero")
    tr = explain_bleu("a b c", ["a b c"], dialect="nltk", smoothing="method6", alpha=0)
    assert (tr.library_error.type, tr.library_error.message) == ("ZeroDivisionError", "Fraction(0, 0)")
    assert "α = 0" in tr.library_error.explanation


def _random_weights(rng):
    r = rng.random()
    if r < 0.3:
        # as a tuple (NLTK's default) or as a list, which NLTK's auto_reweigh never treats as the default
        return (0.25, 0.25, 0.25, 0.25) if r < 0.2 else [0.25, 0.25, 0.25, 0.25]
    n = rng.randint(1, 6)
    pool = [0.0, 0.25, 0.5, 1.0, -1.0, 2.0, 1e-300, 1e300, -1e300, 1 / 3]
    return tuple(rng.choice(pool) for _ in range(n))


@pytest.mark.parametrize("cand", ["a", "a b", "a b c", "a b c d"])
def test_auto_reweigh_with_a_weights_list_is_not_applied(cand):
    """NLTK checks `weight == (0.25, 0.25, 0.25, 0.25)`: a list never equals that tuple, so no reweighing."""
    for weights in ((0.25,) * 4, [0.25] * 4):
        want = real_nltk(cand, ["a b c x"], corpus=False, smoothing="method0", weights=weights, auto_reweigh=True)
        got = explain_bleu(cand, ["a b c x"], dialect="nltk", weights=weights, auto_reweigh=True)
        check(got, want, (cand, weights))
        if isinstance(weights, list) and len(cand.split()) < 4:
            assert "a list never equals" in got.combination.extra["auto_reweigh_note"]
            assert not got.combination.extra["auto_reweighed"]


def test_fuzz_option_combinations_never_raise_and_match_real_nltk():
    rng = random.Random(20240611)
    vocab = ["a", "b", "c", "the", "cat", "x"]

    def text():
        return " ".join(rng.choice(vocab) for _ in range(rng.choice([0, 1, 2, 3, 4, 5, 7, 9])))

    extremes = [0, 0.0, 1e-300, 0.1, 1, 5, 1e300]
    for i in range(1500):
        opts = dict(smoothing=rng.choice(METHODS), weights=_random_weights(rng), auto_reweigh=rng.random() < 0.3,
                    epsilon=rng.choice(extremes), alpha=rng.choice(extremes), k=rng.choice(extremes))
        params = {p: opts[p] for p in ("epsilon", "alpha", "k")}
        corpus = rng.random() < 0.3
        if corpus:
            cands = [text() for _ in range(rng.randint(1, 3))]
            refs = [[text() for _ in range(rng.randint(0 if rng.random() < 0.1 else 1, 3))] for _ in cands]
            want = real_nltk(cands, refs, corpus=True, smoothing=opts["smoothing"], weights=opts["weights"],
                             auto_reweigh=opts["auto_reweigh"], **params)
            got = explain_bleu_corpus(cands, refs, dialect="nltk", full=True, **opts)
            got.to_dict(full=True)
        else:
            cand, refs = text(), [text() for _ in range(rng.randint(0 if rng.random() < 0.1 else 1, 3))]
            want = real_nltk(cand, refs, corpus=False, smoothing=opts["smoothing"], weights=opts["weights"],
                             auto_reweigh=opts["auto_reweigh"], **params)
            got = explain_bleu(cand, refs, dialect="nltk", **opts)
            got.to_dict()
        check(got, want, (i, opts, corpus))


def _real_sacrebleu(cand, refs, opts, defaults):
    """(score, counts, totals, error type) of the real sacreBLEU for the sacrebleu dialect's options."""
    from sacrebleu.metrics import BLEU

    o = {**defaults, **opts}
    api = o.pop("api")
    if o["effective_order"] is None:   # the dialect's default: off for corpus_bleu, on for sentence_bleu
        o["effective_order"] = api == "sentence_bleu"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            bleu = BLEU(**o)
            s = (bleu.sentence_score(cand, refs) if api == "sentence_bleu"
                 else bleu.corpus_score([cand], [[r] for r in refs]))
        except Exception as e:  # noqa: BLE001 - the exception is what the trace must record
            return None, None, None, type(e).__name__
    return s.score, list(s.counts), list(s.totals), None


def test_fuzz_every_dialect_option_combination_matches_and_never_raises():
    """Random valid option values (choices, bounds, 0, tiny and huge numbers) for every dialect and random
    texts: explain_bleu returns a trace (with library_error where the library fails), never an exception; the
    statistics path agrees with the trace; the sacrebleu and nltk dialects give the real library's numbers (or
    its exception). Every dialect must run most of its combinations: a loop that refuses everything fails."""
    from explainer.bleu import dialect_names, dialect_options

    rng = random.Random(7)
    alphabet = ["a", "A", "b", " ", "  ", "\t", "&amp;", "&lt;", "<skipped>", "-", ".", "猫", "İ", "\u00a0"]

    def text():
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))

    def value(o):
        t = o["type"]
        if t == "choice":
            return rng.choice(list(o["choices"]))
        if t == "bool":
            return rng.random() < 0.5
        lo = o.get("min")
        hi = o.get("max")
        if t == "int":
            return rng.choice([x for x in (lo, hi, 1, 2, 4) if x is not None and (lo is None or x >= lo)
                               and (hi is None or x <= hi)])
        if t in ("float", "optional_float"):
            pool = [0.0, 1e-300, 0.5, 1.0, 7.0, 1e300] + ([None] if t == "optional_float" else [])
            return rng.choice([x for x in pool if x is None or ((lo is None or x >= lo) and (hi is None or x <= hi))])
        if t == "float_list":
            return _random_weights(rng)
        raise AssertionError(t)

    ran, real_checked = {}, {"sacrebleu": 0, "nltk": 0}
    for dialect in dialect_names():
        specs = dialect_options(dialect)
        defaults = {o["name"]: o["default"] for o in specs}
        ran[dialect] = 0
        for i in range(150):
            opts = {o["name"]: value(o) for o in specs if rng.random() < 0.7}
            try:
                explain_bleu("x", ["x"], dialect=dialect, **opts)
            except ExplainerInputError:
                raise
            except ValueError as e:
                # an invalid combination of options is refused up front, with a message, by both paths
                assert str(e), (dialect, opts)
                with pytest.raises(ValueError):
                    score_bleu("x", ["x"], dialect=dialect, **opts)
                continue
            cand, refs = text(), [text() for _ in range(rng.randint(0, 3))]
            key = (dialect, i, opts, cand, refs)
            tr = explain_bleu(cand, refs, dialect=dialect, **opts)
            json.dumps(tr.to_dict())
            st = score_bleu(cand, refs, dialect=dialect, **opts)
            assert same_number(st.score, tr.score) or st.score == tr.score, key
            assert (list(st.counts), list(st.totals), st.sys_len, st.ref_len) == (
                list(tr.counts), list(tr.totals), tr.sys_len, tr.ref_len), key
            assert (st.library_error is None) == (tr.library_error is None), key
            if tr.library_error is not None:
                assert (st.library_error.type, st.library_error.message) == (
                    tr.library_error.type, tr.library_error.message), key
            if dialect == "sacrebleu":
                score, counts, totals, err = _real_sacrebleu(cand, refs, opts, defaults)
                if err is not None:
                    assert tr.library_error is not None and tr.library_error.type == err, key
                else:
                    assert tr.library_error is None, key
                    assert (same_number(tr.score, score) or tr.score == score) and list(tr.counts) == counts \
                        and list(tr.totals) == totals, (key, tr.score, score)
                real_checked[dialect] += 1
            elif dialect == "nltk":
                o = {**defaults, **opts}
                want = real_nltk(cand, refs, corpus=False, smoothing=o["smoothing"], weights=o["weights"],
                                 auto_reweigh=o["auto_reweigh"], epsilon=o["epsilon"], alpha=o["alpha"], k=o["k"])
                check(tr, want, key)
                real_checked[dialect] += 1
            ran[dialect] += 1
    assert all(n >= 100 for n in ran.values()), ran
    assert real_checked == {"sacrebleu": ran["sacrebleu"], "nltk": ran["nltk"]}
