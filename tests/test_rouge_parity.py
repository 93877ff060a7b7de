"""Parity with the real rouge-score package on generated cases (run here, not typed-in numbers)."""
from __future__ import annotations

import random
import re
from collections import OrderedDict

import pytest
from rouge_score import rouge_scorer
from rouge_score.rouge_scorer import _backtrack_norec, _lcs_table

from explainer.rouge import explain_rouge, score_rouge
from explainer.rouge import lcs as lcs_mod

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]
VOCAB = ("the The cat cats sat sitting on mat mats dog dogs running runs ran were was said news new "
         "children child they better best took café naïve über U.S. , . - generously reported quickly").split()


def _text(rng: random.Random, vocab) -> str:
    lines = []
    for _ in range(rng.randint(1, 4)):
        words = [rng.choice(vocab) for _ in range(rng.randint(0, 12))]
        if words and rng.random() < 0.3:  # repeats
            k = rng.randrange(len(words))
            words[k:k] = words[k:k + 3]
        lines.append(" ".join(words))
    sep = rng.choice(["\n", "\n", "\n\n", "\r\n", " \n"])
    t = sep.join(lines)
    if rng.random() < 0.1:
        t = " " + t + "\n"
    return t


def _cases(seed: int, n: int):
    rng = random.Random(seed)
    for _ in range(n):
        vocab = rng.sample(VOCAB, rng.randint(3, 12))
        refs = [_text(rng, vocab) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.4:  # perturbed reference as candidate
            base = rng.choice(refs).split(" ")
            for _ in range(rng.randint(0, 3)):
                if base:
                    base[rng.randrange(len(base))] = rng.choice(vocab)
            cand = " ".join(base)
        else:
            cand = _text(rng, vocab)
        yield cand, refs


def _expected(scorer, cand, refs):
    if len(refs) == 1:
        per = [scorer.score(refs[0], cand)]
        return per[0], per, {t: 0 for t in TYPES}
    per = [scorer.score(r, cand) for r in refs]
    best = scorer.score_multi(refs, cand)
    import numpy as np

    chosen = {t: int(np.argmax([p[t].fmeasure for p in per])) for t in TYPES}
    return best, per, chosen


@pytest.mark.parametrize("stem", [False, True])
def test_parity_with_rouge_score_generated(stem):
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    n = 0
    for cand, refs in _cases(1234 + stem, 1100):
        want, per, chosen = _expected(scorer, cand, refs)
        fast = score_rouge(cand, refs, types=TYPES, use_stemmer=stem)
        for t in TYPES:
            assert tuple(fast[t]) == pytest.approx(tuple(want[t]), abs=1e-9, rel=0), (cand, refs, t)
        if n % 4 == 0:  # full traces on a quarter of the cases (they also record tables)
            tr = explain_rouge(cand, refs, types=TYPES, use_stemmer=stem)
            for t in TYPES:
                assert tuple(tr.scores[t]) == pytest.approx(tuple(want[t]), abs=1e-9, rel=0)
                assert tr.chosen_reference[t] == chosen[t]
                for k, p in enumerate(per):
                    assert tuple(tr.per_reference[k][t].score) == pytest.approx(tuple(p[t]), abs=1e-9, rel=0)
            # LCS indices: rouge-score's own table + backtrace on its own tokens
            tok = scorer._tokenizer
            ct = tok.tokenize(cand)
            for k, r in enumerate(refs):
                ref_toks = tok.tokenize(r)
                want_idx = _backtrack_norec(_lcs_table(ref_toks, ct), ref_toks, ct) if ref_toks and ct else []
                assert tr.per_reference[k]["rougeL"].detail["ref_indices"] == want_idx
        n += 1
    assert n == 1100


def test_lcs_backtrace_matches_rouge_score_on_random_sequences():
    rng = random.Random(7)
    for _ in range(3000):
        a = [rng.choice("abcde") for _ in range(rng.randint(0, 25))]
        b = [rng.choice("abcde") for _ in range(rng.randint(0, 25))]
        res = lcs_mod.lcs(a, b)
        if a and b:
            t = _lcs_table(a, b)
            assert res.length == t[-1][-1] == lcs_mod.lcs_length(a, b)
            assert res.ref_indices == _backtrack_norec(t, a, b)
            assert lcs_mod.table_form(res, len(a), len(b))["values"] == t
        else:
            assert res.length == 0 and res.pairs == []


def _all_lcs_pair_sets(a, b):
    """Brute force: every distinct set of index pairs forming an LCS (small inputs only)."""
    from functools import lru_cache

    @lru_cache(None)
    def best(i, j):
        if i == len(a) or j == len(b):
            return 0
        if a[i] == b[j]:
            return 1 + best(i + 1, j + 1)
        return max(best(i + 1, j), best(i, j + 1))

    @lru_cache(None)
    def sets(i, j):
        if best(i, j) == 0:
            return frozenset([frozenset()])
        out = set()
        for ii in range(i, len(a)):
            for jj in range(j, len(b)):
                if a[ii] == b[jj] and 1 + best(ii + 1, jj + 1) == best(i, j):
                    for s in sets(ii + 1, jj + 1):
                        out.add(frozenset({(ii, jj)}) | s)
        return frozenset(out)

    return sets(0, 0)


@pytest.mark.parametrize("small_cells", [40_000, 0])
def test_alternative_lcs_flag_matches_brute_force(monkeypatch, small_cells):
    monkeypatch.setattr(lcs_mod, "SMALL_PAIR_CELLS", small_cells)  # popcount path and NumPy path
    rng = random.Random(11)
    for _ in range(400):
        a = [rng.choice("abc") for _ in range(rng.randint(1, 7))]
        b = [rng.choice("abc") for _ in range(rng.randint(1, 7))]
        res = lcs_mod.lcs(a, b)
        n_sets = len(_all_lcs_pair_sets(tuple(a), tuple(b))) if res.length else 1
        assert lcs_mod.alternative_exists(a, b, res) == (n_sets > 1), (a, b)


def test_fast_tokens_equal_real_tokenizer():
    """The fast path joins per-line tokens; check that equals tokenizing the whole text with rouge-score."""
    from explainer.rouge import get_dialect

    for stem in (False, True):
        d = get_dialect("rouge-score", use_stemmer=stem, tokenizer="rouge-score")
        tok = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=stem)._tokenizer
        for cand, refs in _cases(99, 300):
            for text in [cand] + refs:
                p = d.prepare(text, need_sents=True, full=False)
                assert p.tokens == tok.tokenize(text)


_SPLIT_VOCAB = ("the The cat cats sat on mat . dog ran ! news ? Mr. Dr. Smith U.S. said \"Yes.\" it's café , - "
                "running quickly 3.5 e.g. ...").split()


def _punkt_stub(text: str, language: str = "english") -> list[str]:
    """Stands in for nltk.sent_tokenize (punkt_tab cannot be downloaded here): split after . ! ? followed by white
    space (newlines included) unless the word is a known abbreviation; sentences are stripped substrings, as punkt's."""
    out, start = [], 0
    t = text
    for m in re.finditer(r"[.!?]+[\"')\]]*(?=\s)", t):
        word = t[:m.end()].split()[-1] if t[:m.end()].split() else ""
        if word in ("Mr.", "Dr.", "e.g.", "U.S."):
            continue
        piece = t[start:m.end()].strip()
        if piece:
            out.append(piece)
        start = m.end()
    piece = t[start:].strip()
    if piece:
        out.append(piece)
    return out


@pytest.mark.parametrize("stem", [False, True])
def test_split_summaries_parity_with_rouge_score(monkeypatch, stem):
    """rougeLsum with split_summaries=True: the same sentence splitter (a stub for nltk.sent_tokenize, patched where
    both rouge-score and the explainer look it up) gives the real package's numbers on ~500 generated cases per
    stemming setting, 1-3 references (score / score_multi), fast path and full traces; the trace's sentences are
    the splitter's, located in the text."""
    import nltk

    from explainer.rouge import DIALECTS

    monkeypatch.setattr(nltk, "sent_tokenize", _punkt_stub)
    # bound dialects cache the references they prepared: the dialects made with the stub stay in this test
    monkeypatch.setattr(DIALECTS, "_instances", OrderedDict())
    scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem, split_summaries=True)
    rng = random.Random(2024 + stem)
    n = n_multi_sent = 0
    for i in range(500):
        def text():
            words = [rng.choice(_SPLIT_VOCAB) for _ in range(rng.randint(0, 30))]
            return "".join(w + rng.choice([" ", " ", " ", "\n", "  ", "\t"]) for w in words).rstrip(" ")
        cand = text()
        refs = [text() for _ in range(rng.randint(1, 3))]
        want, per, chosen = _expected(scorer, cand, refs)
        got = score_rouge(cand, refs, types=TYPES, use_stemmer=stem, split_summaries=True)
        for t in TYPES:
            assert tuple(got[t]) == pytest.approx(tuple(want[t]), abs=1e-9, rel=0), (cand, refs, t)
        if i % 4 == 0:
            tr = explain_rouge(cand, refs, types=TYPES, use_stemmer=stem, split_summaries=True)
            for t in TYPES:
                assert tuple(tr.scores[t]) == pytest.approx(tuple(want[t]), abs=1e-9, rel=0), (cand, refs, t)
                assert tr.chosen_reference[t] == chosen[t]
                for k, p in enumerate(per):
                    assert tuple(tr.per_reference[k][t].score) == pytest.approx(tuple(p[t]), abs=1e-9, rel=0)
            for view, src in [(tr.candidate, cand)] + list(zip(tr.references, refs)):
                assert [s.text for s in view.sentences] == _punkt_stub(src)
                for s in view.sentences:
                    assert src[s.start:s.end] == s.text
                n_multi_sent += len(view.sentences) > 1
            assert tr.per_reference[0]["rougeLsum"].detail["splitter"] == "nltk"
        n += 1
    assert n == 500 and n_multi_sent > 100
