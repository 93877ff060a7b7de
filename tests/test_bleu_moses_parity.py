"""Generated parity for the Moses dialects against the real sacreBLEU package, where the two provably
compute the same thing (the golden vectors' README, "Consistency checks"; tests/data/README.md).

The Perl scripts cannot run here, so these checks use the configurations in which the scripts and
sacreBLEU coincide:

* ``mteval -c`` with NIST smoothing equals ``BLEU(tokenize='13a')`` (exp smoothing), provided every
  order has candidate n-grams, at least one unigram matches, and the input has no ``&`` and no
  ``<skipped>`` (the SGML round trip differs there).
* ``mteval`` (lowercasing) equals the same with ``lowercase=True`` on ASCII-only text (``tr`` is
  ASCII-only).
* ``multi-bleu`` equals ``BLEU(tokenize='none', smooth_method='none')`` on ASCII whitespace, and with
  ``-lc`` on ASCII-only text.
* ``multi-bleu-detok`` equals ``BLEU(tokenize='13a', smooth_method='none')``.

In each case the counts, totals and lengths must be equal, and the score within 1e-9 on 0-1.
"""
from __future__ import annotations

import random

import pytest
from sacrebleu.metrics.bleu import BLEU

from explainer.bleu import score_bleu, score_bleu_corpus

ASCII_VOCAB = ["the", "The", "THE", "cat", "sat", "on", "mat", "a", "dog", "is", "red", ",", ".", "!", "?",
               "'s", "e-mail", "2023", "3.5", "(x)", "\"q\"", "<b>", "a/b", "x-1"]
UNI_VOCAB = ASCII_VOCAB + ["über", "Straße", "café", "ÄRGER", "—", "“quoted”", "naïve"]
N_CASES = 500  # per comparison; 5 comparisons


def _text(rng: random.Random, vocab, n: int, *, nbsp: bool) -> str:
    words = [rng.choice(vocab) for _ in range(n)]
    out = ""
    for i, w in enumerate(words):
        if i:
            r = rng.random()
            out += "\u00a0" if nbsp and r < 0.05 else ("" if r < 0.25 and w in ",.!?" else ("  " if r < 0.3 else " "))
        out += w
    if rng.random() < 0.1:
        out = " " + out + "\t"
    return out


def _cases(seed: int, vocab, *, nbsp: bool = False, min_len: int = 1):
    rng = random.Random(seed)
    cases = []
    while len(cases) < N_CASES:
        sub = rng.sample(vocab, rng.randint(3, min(10, len(vocab))))
        ref0 = [rng.choice(sub) for _ in range(rng.randint(min_len, 12))]
        refs = []
        for _ in range(rng.randint(1, 4)):
            refs.append(_text(rng, sub, rng.randint(min_len, 12), nbsp=nbsp))
        kind = rng.random()
        if kind < 0.5:  # a perturbed reference: many matches
            toks = refs[0].split()
            for _ in range(rng.randint(0, 3)):
                if toks and rng.random() < 0.5:
                    toks.pop(rng.randrange(len(toks)))
                else:
                    toks.insert(rng.randrange(len(toks) + 1), rng.choice(sub))
            cand = " ".join(toks) or rng.choice(sub)
        else:
            cand = _text(rng, sub, max(min_len, len(ref0) + rng.randint(-3, 3)), nbsp=nbsp)
        cases.append((cand, refs))
    return cases


def _streams(refs):
    return [[r] for r in refs]


def _sb(cand, refs, **kw):
    return BLEU(**kw).corpus_score([cand], _streams(refs))


def _assert_same(ours, theirs, *, what):
    assert ours.library_error is None, (what, ours.library_error)
    assert (ours.counts, ours.totals) == (theirs.counts, theirs.totals), what
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len), what
    assert abs(ours.bleu - theirs.score / 100) <= 1e-9, (what, ours.bleu, theirs.score)


@pytest.mark.parametrize("lowercase", [False, True])
def test_mteval_equals_sacrebleu_13a_exp(lowercase):
    vocab = ASCII_VOCAB if lowercase else UNI_VOCAB
    checked = 0
    for cand, refs in _cases(11 + lowercase, vocab, nbsp=True, min_len=4):
        theirs = _sb(cand, refs, tokenize="13a", lowercase=lowercase)
        if theirs.totals[3] == 0 or theirs.counts[0] == 0:
            continue  # sacreBLEU stops at an order without n-grams / returns 0 early; mteval does not
        ours = score_bleu(cand, refs, dialect="mteval", preserve_case=not lowercase)
        _assert_same(ours, theirs, what=(cand, refs))
        checked += 1
    assert checked >= 0.8 * N_CASES


@pytest.mark.parametrize("lowercase", [False, True])
def test_multibleu_equals_sacrebleu_none_tokenizer(lowercase):
    vocab = ASCII_VOCAB if lowercase else UNI_VOCAB
    checked = zero = 0
    for cand, refs in _cases(21 + lowercase, vocab):
        theirs = _sb(cand, refs, tokenize="none", smooth_method="none", lowercase=lowercase)
        ours = score_bleu(cand, refs, dialect="multi-bleu", lowercase=lowercase)
        _assert_same(ours, theirs, what=(cand, refs))
        checked += 1
        zero += ours.bleu == 0
    assert checked == N_CASES and 0 < zero < N_CASES


def test_multibleu_detok_equals_sacrebleu_13a_no_smoothing():
    vocab = UNI_VOCAB + ["&amp;", "&quot;x&quot;", "<skipped>", "&lt;"]
    for cand, refs in _cases(31, vocab, nbsp=True):
        theirs = _sb(cand, refs, tokenize="13a", smooth_method="none")
        ours = score_bleu(cand, refs, dialect="multi-bleu", script="multi-bleu-detok.perl")
        if theirs.sys_len == 0 and theirs.ref_len > 0:  # e.g. the candidate is only "<skipped>"
            assert ours.library_error is not None and ours.library_error.type == "PerlDie"
            continue
        _assert_same(ours, theirs, what=(cand, refs))


def test_corpus_parity():
    """Corpora of 20 segments with 2 references each: the summed statistics agree as well."""
    cases = _cases(41, UNI_VOCAB, min_len=4)
    for start in range(0, 400, 20):
        chunk = cases[start:start + 20]
        cands = [c for c, _ in chunk]
        refs = [(r + r)[:2] for _, r in chunk]
        streams = [[rs[k] for rs in refs] for k in range(2)]
        theirs = BLEU(tokenize="none", smooth_method="none").corpus_score(cands, streams)
        _assert_same(score_bleu_corpus(cands, refs, dialect="multi-bleu"), theirs, what=start)
        theirs = BLEU(tokenize="13a").corpus_score(cands, streams)
        if theirs.totals[3] and theirs.counts[0]:
            _assert_same(score_bleu_corpus(cands, refs, dialect="mteval", preserve_case=True), theirs, what=start)
