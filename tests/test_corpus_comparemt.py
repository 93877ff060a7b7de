"""compare-mt's analyses (issue 19): word accuracy by frequency bucket, sentence-score buckets, source-length
buckets; scores from sacreBLEU, computed here; `compare --report --source/--freq-corpus` writes them."""
from __future__ import annotations

import json
from collections import Counter

import numpy as np
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from explainer.cli import main
from explainer.corpus.comparemt import (
    FREQ_CUTOFFS,
    nltk_sentbleu_method2,
    sentbleu_scores,
    sentence_buckets,
    source_length_buckets,
    word_accuracy,
)
from explainer.corpus.report import bleu_report
from explainer.corpus.testset import build_testset
from explainer.ngrams import count_all_ngrams
from tests.corpus_data import make_testset, write_files


def _bucket(f):
    return next((k for k, c in enumerate(FREQ_CUTOFFS) if f < c), len(FREQ_CUTOFFS))


def test_word_accuracy_counts_every_word_once_in_its_frequency_bucket():
    refs, systems = make_testset(150, 2, 2, seed=61)
    ts = build_testset(systems, [("a", refs[0]), ("b", refs[1])])
    rep = bleu_report(ts)
    wa = word_accuracy(rep)
    tok = Tokenizer13a()
    freq = Counter(w for r in refs[0] for w in tok(r).split())
    for srec, (_, lines) in zip(wa["systems"], systems):
        match = np.zeros(len(FREQ_CUTOFFS) + 1, int)
        n_out = np.zeros_like(match)
        n_ref = np.zeros_like(match)
        for h, r in zip(lines, refs[0]):
            hc, rc = Counter(tok(h).split()), Counter(tok(r).split())
            for w, c in hc.items():
                n_out[_bucket(freq[w])] += c
                match[_bucket(freq[w])] += min(c, rc[w])
            for w, c in rc.items():
                n_ref[_bucket(freq[w])] += c
        assert [b["matches"] for b in srec["buckets"]] == match.tolist()
        assert [b["output_words"] for b in srec["buckets"]] == n_out.tolist()
        assert [b["reference_words"] for b in srec["buckets"]] == n_ref.tolist()
        for b in srec["buckets"]:
            p = b["matches"] / b["output_words"] if b["output_words"] else 0.0
            r = b["matches"] / b["reference_words"] if b["reference_words"] else 0.0
            assert b["fmeasure"] == (2 * p * r / (p + r) if p + r else 0.0)
    assert wa["labels"][0] == "<1" and wa["labels"][-1] == ">=1000"
    # frequencies from another corpus: a word unseen there falls in the first bucket
    wa2 = word_accuracy(rep, freq_corpus=["zzzz qqqq"])
    assert wa2["frequencies_from"] == "the given corpus"
    assert wa2["systems"][0]["buckets"][0]["reference_words"] == sum(n_ref)


def test_sentence_buckets_count_compare_mts_sentbleu():
    """compare-mt's ``sentbleu`` (NLTK ``sentence_bleu``, Chen & Cherry method 2) against the first reference;
    tests/test_corpus_comparemt_parity.py checks the same against compare-mt itself."""
    refs, systems = make_testset(120, 2, 2, seed=62)
    rep = bleu_report(build_testset(systems, [("a", refs[0]), ("b", refs[1])]))
    sb = sentence_buckets(rep)
    assert sb["scored_by"].startswith("compare-mt's sentbleu")
    tok = Tokenizer13a()
    m2 = SmoothingFunction().method2
    for srec, (_, lines) in zip(sb["systems"], systems):
        scores = [100 * sentence_bleu([tok(r).split()], tok(h).split(), smoothing_function=m2)
                  for h, r in zip(lines, refs[0])]
        want = [sum(1 for x in scores if next((k for k, c in enumerate(sb["cutoffs"]) if x < c), 9) == k)
                for k in range(10)]
        assert srec["counts"] == want


def _nltk_sentbleu(hyp, ref):
    return sentence_bleu([ref], hyp, smoothing_function=SmoothingFunction().method2)


def test_sentbleu_from_counts_is_nltks_sentence_bleu_to_the_last_bit():
    """The sentence buckets score from counts made once per reference; NLTK's own function, called on the same
    tokens, must give the very same float: short and empty outputs and references (orders with no n-gram), no
    unigram match, repeats clipped, longer and shorter outputs (brevity penalty)."""
    rng = np.random.default_rng(64)
    vocab = [f"w{k}" for k in range(9)]
    pairs = [([], []), ([], ["a"]), (["a"], []), (["a"], ["a"]), (["a", "b"], ["b", "a"]), (["x", "y", "z"], ["a"]),
             (["the"] * 7, ["the", "cat", "the", "mat"]), (["a", "b", "c", "d"], ["a", "b", "c", "d"])]
    for _ in range(3000):
        h = list(rng.choice(vocab, size=int(rng.integers(0, 14))))
        r = list(rng.choice(vocab, size=int(rng.integers(0, 14))))
        pairs.append((h, r))
    for hyp, ref in pairs:
        got = nltk_sentbleu_method2(hyp, count_all_ngrams(ref, 4), len(ref))
        want = _nltk_sentbleu(hyp, ref)
        assert got == want and type(got) is type(want), (hyp, ref, got, want)


def test_sentbleu_scores_equal_nltk_on_a_test_set_with_every_tokenizer():
    refs, systems = make_testset(200, 2, 2, seed=65)
    for tok in ("13a", "intl", "char", "none"):
        rep = bleu_report(build_testset(systems, [("a", refs[0]), ("b", refs[1])]), tokenize=tok)
        d = rep.d
        for j, (_, lines) in enumerate(systems):
            want = [100 * _nltk_sentbleu(d.tokenize(h), d.tokenize(r)) for h, r in zip(lines, refs[0])]
            assert sentbleu_scores(rep, j) == want


def test_source_length_buckets_are_corpus_bleu_of_their_segments(tmp_path, capsys):
    refs, systems = make_testset(200, 1, 2, seed=63)
    rng = np.random.default_rng(1)
    source = [" ".join(["w"] * int(n)) for n in rng.integers(1, 60, size=200)]
    ts = build_testset(systems, [("r", refs[0])]).with_source(source)
    rep = bleu_report(ts)
    buckets = source_length_buckets(rep, ts.source)
    sizes = [b["n_segments"] for b in buckets]
    assert sum(sizes) == 200 and max(sizes) <= 2 * min(sizes)
    for b in buckets:
        ids = [k - 1 for k in b["segments"]]
        for name, lines in systems:
            want = sacrebleu.corpus_bleu([lines[k] for k in ids], [[refs[0][k] for k in ids]]).score
            assert b["scores"][name] == want
    # the CLI writes them into --report
    ref_paths, sys_paths = write_files(tmp_path, refs, systems)
    src = tmp_path / "src.en"
    src.write_text("\n".join(source) + "\n", encoding="utf-8")
    rep_path = tmp_path / "report.json"
    argv = ["compare", "--ref", ref_paths[0]] + sum((["--system", p] for _, p in sys_paths), [])
    rc = main(argv + ["--report", str(rep_path), "--source", str(src)])
    capsys.readouterr()
    assert rc == 0
    got = json.loads(rep_path.read_text(encoding="utf-8"))
    assert [b["n_segments"] for b in got["source_length_buckets"]] == sizes
    assert got["source"] == source and "word_accuracy" in got and "sentence_buckets" in got
