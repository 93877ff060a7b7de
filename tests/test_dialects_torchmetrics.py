"""torchmetrics 1.9 BLEUScore, SacreBLEUScore and ROUGEScore against golden vectors recorded from the real package
(tests/data/torchmetrics.jsonl.gz, scripts/record_torchmetrics.py: torch is too heavy for the test requirements).

torchmetrics computes in float32 tensors. Counts, totals and lengths are integers and exact; ROUGE values of one
item are Python floats rounded once to float32 and agree bit for bit. Two steps cannot be repeated bit for bit
outside torch: its vectorised float32 log / exp (SLEEF; they differ from NumPy's and from correctly rounded values in
the last bit for about half of all inputs) and its float32 mean over many items (its reduction order). There the
explainer's BLEU is within ONE float32 unit in the last place of the recorded one, a corpus mean of ROUGE within two
(the tests say how many records are bit-exact and check the bound on every record)."""
from __future__ import annotations

import numpy as np
import pytest

import explainer.bleu as bleu
from explainer.rouge import explain_rouge_corpus
from tests.conftest import DATA, load_jsonl


def _records(metric: str):
    return [r for r in load_jsonl(str(DATA / "torchmetrics.jsonl.gz")) if r["metric"] == metric]


def _ulps(got: float, want: float) -> float:
    g, w = np.float32(got), np.float32(want)
    if g == w:
        return 0.0
    return float(abs(g - w) / np.spacing(max(abs(w), np.float32(1e-30))))


@pytest.mark.parametrize("metric,dialect", [("BLEUScore", "torchmetrics"),
                                            ("SacreBLEUScore", "torchmetrics-sacrebleu")])
def test_bleu_scores_within_one_float32_ulp(metric, dialect):
    recs = _records(metric)
    exact = 0
    for r in recs:
        assert r["status"] == "ok"
        got = bleu.score_bleu_corpus(r["preds"], r["target"], dialect=dialect, **r["options"]).score
        u = _ulps(got, r["values"]["score"])
        assert u <= 1.0, (r["case"], r["options"], got, r["values"]["score"])
        exact += u == 0
        if r["values"]["score"] == 0.0:
            assert got == 0.0
    assert len(recs) == (22 * 3 if metric == "BLEUScore" else 22 * 6)
    assert exact >= 0.6 * len(recs)


def test_torchmetrics_sacrebleu_has_no_exp_smoothing():
    """Where sacreBLEU smooths an order without matches, SacreBLEUScore returns 0 (recorded)."""
    zero = [x for x in _records("SacreBLEUScore") if not x["options"] and x["values"]["score"] == 0.0
            and x["case"] != "empty_pred"]
    smoothed = [x for x in zero if bleu.score_bleu_corpus(x["preds"], x["target"], dialect="sacrebleu").score > 0]
    assert smoothed
    for x in smoothed:
        assert bleu.score_bleu_corpus(x["preds"], x["target"], dialect="torchmetrics-sacrebleu").score == 0.0


def test_bleu_tie_goes_to_the_first_listed_reference():
    [r] = [x for x in _records("BLEUScore") if x["case"] == "tie_lengths" and not x["options"]]
    tr = bleu.explain_bleu_corpus(r["preds"], r["target"], dialect="torchmetrics")
    assert tr.to_dict()["combination"]["r"] == 4


def _rouge_opts(o: dict) -> dict:
    return {"use_stemmer": o.get("use_stemmer", False), "multi_ref": "avg" if o.get("accumulate") == "avg"
            else "best-f"}


def test_rouge_score_single_items_bit_exact_and_corpus_means_within_one_ulp():
    recs = [r for r in _records("ROUGEScore") if r["status"] == "ok"]
    n = exact = 0
    for r in recs:
        o = r["options"]
        ct = explain_rouge_corpus(r["preds"], r["target"], dialect="torchmetrics", types=o["rouge_keys"],
                                  **_rouge_opts(o))
        for t, s in ct.aggregate.items():
            for k in ("fmeasure", "precision", "recall"):
                want = r["values"][f"{t}_{k}"]
                got = getattr(s, k)
                if len(r["preds"]) == 1:
                    assert got == want, (r["case"], o, t, k)
                else:
                    # two float32 means in a row (over the references, then over the items): two roundings
                    assert _ulps(got, want) <= 2.0, (r["case"], o, t, k, got, want)
                n += 1
                exact += got == want
    assert len(recs) == 22 * 3 and n == 22 * 3 * 9 and exact >= n - 30


def test_rouge_lsum_is_refused_as_torchmetrics_downloads_punkt():
    [r] = [x for x in _records("ROUGEScore") if x["options"]["rouge_keys"] == ["rougeLsum"]][:1]
    assert r["status"] == "error" and "punkt" in r["error"]
    with pytest.raises(ValueError, match="punkt"):
        explain_rouge_corpus(r["preds"], r["target"], dialect="torchmetrics", types=["rougeLsum"])
