"""chrF's implementations side by side at corpus level (``dialects --metric chrf --corpus`` and the Corpus page's
"Every implementation" for chrF): each row is sacreBLEU's ``CHRF.corpus_score`` or NLTK's ``corpus_chrf``, computed
here, and the first divergence of two rows names the step (and the first segment) where they part."""
from __future__ import annotations

import io
import json
import sys

import pytest
from nltk.translate.chrf_score import corpus_chrf
from sacrebleu.metrics import CHRF

from explainer.cli import main
from explainer.corpus.samples import load_sample
from explainer.dialectcmp.chrf_compare import compare_chrf_corpus

LIBRARY = {"sacrebleu": {}, "sacrebleu:chrf++": {"word_order": 2}, "sacrebleu:eps": {"eps_smoothing": True}}
NLTK = {"nltk": 3.0, "nltk:beta2": 2.0}


def _corpus(n: int = 60, system: int = 1):
    ts = load_sample("news-en")
    return list(ts.systems[system][1][:n]), [list(r) for r in ts.references[:n]]


def _streams(refs):
    return [[rs[j] for rs in refs] for j in range(len(refs[0]))]


@pytest.fixture(scope="module")
def compared():
    hyps, refs = _corpus()
    return hyps, refs, compare_chrf_corpus(hyps, refs, pairs=None)


def test_rows_are_the_libraries_corpus_scores(compared):
    hyps, refs, res = compared
    rows = {r["id"]: r for r in res["rows"]}
    assert set(rows) == set(LIBRARY) | set(NLTK) and res["level"] == "corpus" and res["n_segments"] == len(hyps)
    for rid, opts in LIBRARY.items():
        want = CHRF(**opts).corpus_score(hyps, _streams(refs))
        assert rows[rid]["native_score"] == pytest.approx(want.score, abs=1e-9), rid
        assert rows[rid]["name"] == str(want).split(" = ")[0]
    for rid, beta in NLTK.items():        # NLTK takes one reference per segment: a list is joined, as it does
        assert rows[rid]["native_score"] == pytest.approx(corpus_chrf(refs, hyps, beta=beta), abs=1e-12), rid


def test_first_divergences(compared):
    hyps, refs, res = compared
    first = {p["b"]: p for p in res["pairs"]}
    assert first["sacrebleu:chrf++"]["first_step"] == "orders"
    assert first["sacrebleu:eps"]["first_step"] == "averaging" and first["sacrebleu:eps"]["segment"] is None
    assert first["nltk"]["first_step"] == "references" and first["nltk"]["segment"] == 0
    one = compare_chrf_corpus(hyps, [r[:1] for r in refs], pairs=[("sacrebleu", "nltk:beta2"), ("nltk", "nltk:beta2")])
    # one reference, the same β: the same counts, NLTK's corpus F per order is a mean over segments
    assert one["pairs"][0]["first_step"] == "per-order F" and one["pairs"][0]["segment"] is None
    assert one["pairs"][1]["first_step"] == "beta"


def test_cli_corpus_rows_print_their_numbers(capsys, monkeypatch):
    hyps, refs = _corpus(20, system=0)
    text = "".join(json.dumps({"candidate": h, "references": r}) + "\n" for h, r in zip(hyps, refs))

    def stdin():
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))

    stdin()
    assert main(["dialects", "--metric", "chrf", "--jsonl", "-", "--corpus", "--pair", "nltk:sacrebleu"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["level"] == "corpus" and [(p["a"], p["b"]) for p in d["pairs"]] == [("nltk", "sacrebleu")]
    assert d["rows"][0]["native_score"] == pytest.approx(CHRF().corpus_score(hyps, _streams(refs)).score, abs=1e-9)
    for row in d["rows"]:                 # each row's argv prints its number
        stdin()
        assert main(row["argv"]) == 0
        assert json.loads(capsys.readouterr().out)["native_score"] == row["native_score"]


def test_the_corpus_comparison_is_bounded_before_any_work():
    from explainer.dialectcmp.limits import MAX_CORPUS_SEGMENTS

    with pytest.raises(ValueError, match=f"{MAX_CORPUS_SEGMENTS:,}"):
        compare_chrf_corpus(["a"] * (MAX_CORPUS_SEGMENTS + 1), [["b"]] * (MAX_CORPUS_SEGMENTS + 1))
