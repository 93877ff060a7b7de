"""chrF / chrF++ parity: the explainer's dialects against sacreBLEU 2.6's ``CHRF`` and NLTK's ``chrf_score``, computed
here, on the texts of the golden BLEU cases (1-5 references each), the bundled sample corpora and random
configurations of every option."""
from __future__ import annotations

import random

import pytest
from nltk.translate.chrf_score import corpus_chrf, sentence_chrf
from sacrebleu.metrics import CHRF

from conftest import golden
from explainer.chrf import explain_chrf, explain_chrf_corpus, score_chrf, score_chrf_corpus

TOL = 1e-9


def _cases() -> list[tuple[str, list[str]]]:
    seen, out = set(), []
    for r in golden("bleu/sacrebleu.jsonl"):
        if r["level"] != "segment" or not r["references"]:
            continue
        key = (r["candidate"], tuple(r["references"]))
        if key not in seen:
            seen.add(key)
            out.append((r["candidate"], list(r["references"])))
    return out


CASES = _cases()
CONFIGS = [
    {},
    {"word_order": 2},
    {"lowercase": True},
    {"whitespace": True},
    {"eps_smoothing": True},
    {"word_order": 2, "eps_smoothing": True, "lowercase": True, "whitespace": True},
    {"char_order": 4, "beta": 1},
    {"char_order": 1, "word_order": 1, "beta": 3},
]


def random_configs(k: int, seed: int = 11) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for _ in range(k):
        out.append({"char_order": rng.randint(1, 8), "word_order": rng.choice([0, 0, 1, 2, 3]),
                    "beta": rng.choice([0, 1, 2, 3, 0.5, 1.7]), "lowercase": rng.random() < 0.5,
                    "whitespace": rng.random() < 0.5, "eps_smoothing": rng.random() < 0.5})
    return out


def _sacre(opts: dict) -> CHRF:
    o = dict(opts)
    return CHRF(**o)


def _check_segment(h, refs, opts):
    m = _sacre(opts)
    want = m.sentence_score(h, refs)
    want_stats = m._extract_corpus_statistics([h], [[r] for r in refs])[0]
    st = score_chrf(h, refs, **opts)
    assert st.stats == want_stats, (h, refs, opts)
    assert abs(st.score - want.score) <= TOL, (h, refs, opts, st.score, want.score)
    assert st.name == want.name
    tr = explain_chrf(h, refs, **opts)
    assert tr.stats == want_stats
    assert abs(tr.score - want.score) <= TOL
    assert tr.signature == m.get_signature().format()
    return tr


@pytest.mark.parametrize("opts", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_sentence_parity_every_golden_case(opts):
    assert len(CASES) > 400
    for h, refs in CASES:
        _check_segment(h, refs, opts)


def test_sentence_parity_random_configs():
    rng = random.Random(3)
    for opts in random_configs(40):
        for h, refs in rng.sample(CASES, 25):
            _check_segment(h, refs, opts)




def _corpus(sample_id: str):
    from explainer.corpus.samples import HERE, SAMPLES

    s = SAMPLES[sample_id]
    d = HERE / sample_id
    read = lambda f: (d / f).read_text(encoding="utf-8").rstrip("\n").split("\n")   # noqa: E731
    streams = [read(f) for f in s.references]
    systems = {f: read(f) for f in s.systems}
    return systems, streams


@pytest.mark.parametrize("sample", ["news-en", "news-zh"])
@pytest.mark.parametrize("opts", [{}, {"word_order": 2}, {"eps_smoothing": True, "lowercase": True},
                                  {"whitespace": True, "word_order": 2, "beta": 1}])
def test_corpus_parity_samples(sample, opts):
    systems, streams = _corpus(sample)
    per_seg = [list(x) for x in zip(*streams)]
    for j, (name, hyps) in enumerate(systems.items()):
        m = _sacre(opts)
        # corpus_score is these two calls
        want_stats = m._extract_corpus_statistics(hyps, streams)
        want = m._aggregate_and_compute(want_stats)
        st = score_chrf_corpus(hyps, per_seg, **opts)
        assert st.segment_stats == want_stats
        assert abs(st.score - want.score) <= TOL, (name, st.score, want.score)
        assert st.signature == m.get_signature().format()
        if j == 0:
            # one reference stream: the same again; and the full trace
            one = score_chrf_corpus(hyps, [[r[0]] for r in per_seg], **opts)
            assert abs(one.score - _sacre(opts).corpus_score(hyps, streams[:1]).score) <= TOL
            tr = explain_chrf_corpus(hyps, per_seg, full=True, **opts)
            assert abs(tr.score - want.score) <= TOL and tr.segment_stats == want_stats


def test_corpus_parity_golden_corpora():
    n = 0
    for r in golden("bleu/sacrebleu.jsonl"):
        if r["level"] != "corpus" or not r["candidates"]:
            continue
        hyps, refs = r["candidates"], r["references"]
        if any(not rs or any(x is None for x in rs) for rs in refs):
            continue
        K = {len(rs) for rs in refs}
        if len(K) != 1:
            continue
        streams = [[rs[k] for rs in refs] for k in range(K.pop())]
        for opts in ({}, {"word_order": 2, "eps_smoothing": True}):
            want = _sacre(opts).corpus_score(hyps, streams)
            assert abs(score_chrf_corpus(hyps, refs, **opts).score - want.score) <= TOL
        n += 1
    assert n >= 10


# ------------------------------------------------------------------------------------------------ NLTK
NLTK_CONFIGS = [{}, {"beta": 2.0}, {"ignore_whitespace": False}, {"min_len": 2, "max_len": 3},
                {"min_len": 1, "max_len": 1, "beta": 0.5}]


def _nltk_kwargs(o: dict) -> dict:
    return {k: v for k, v in o.items()}


@pytest.mark.parametrize("opts", NLTK_CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_nltk_sentence_parity(opts):
    for h, refs in CASES:
        ref_arg = refs[0] if len(refs) == 1 else refs      # NLTK joins a list of references into one text
        want = sentence_chrf(ref_arg, h, **_nltk_kwargs(opts))
        st = score_chrf(h, refs, dialect="nltk", **opts)
        assert abs(st.score - want) <= TOL, (h, refs, st.score, want)
        tr = explain_chrf(h, refs, dialect="nltk", **opts)
        assert abs(tr.score - want) <= TOL
        if len(refs) > 1:
            assert any("joined" in w.message for w in st.warnings)


@pytest.mark.parametrize("opts", NLTK_CONFIGS[:3])
def test_nltk_corpus_parity(opts):
    systems, streams = _corpus("news-en")
    for hyps in systems.values():
        want = corpus_chrf(streams[0], hyps, **_nltk_kwargs(opts))
        st = score_chrf_corpus(hyps, [[r] for r in streams[0]], dialect="nltk", **opts)
        assert abs(st.score - want) <= TOL


def test_random_texts_with_odd_characters():
    """Random strings over a small alphabet with punctuation, whitespace of several kinds, capitals and
    characters whose lowercase is longer (İ): every option against sacreBLEU and NLTK."""
    rng = random.Random(5)
    alphabet = list("abcAB .,!?()'\"-") + ["\t", "\u00a0", "İ", "ß", "\u3000", "é"]

    def text():
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))

    for opts in random_configs(30, seed=9):
        for _ in range(15):
            h = text()
            refs = [text() for _ in range(rng.randint(1, 3))]
            _check_segment(h, refs, opts)
    for _ in range(200):
        h, r = text(), text()
        assert abs(score_chrf(h, [r], dialect="nltk").score - sentence_chrf(r, h)) <= TOL
