"""Issue 33, defect 4: when several implementations print the claimed number, `reproduce` says so and lists them
all, the original script first (REALSumm's ROUGE: ROUGE-1.5.5 -m ties with rouge-score); and it says how likely a
rounding coincidence is at the claim's precision (the claim's interval against the spread of the values searched,
docs/dialects-compare.md), one segment and a corpus, in the result's JSON and message."""
from __future__ import annotations

import json
import math
from pathlib import Path

from nltk.translate.chrf_score import sentence_chrf
from rouge_score import rouge_scorer
from sacrebleu.metrics import CHRF

from explainer.cli import main
from explainer.dialectcmp.chrf_space import chrf_space
from explainer.dialectcmp.corpus_reproduction import reproduce_corpus
from explainer.dialectcmp.reproduction import reference_subsets, reproduce

CAND = "The storms closed the schools across the northern counties on Monday."
REFS = ["Storms closing schools across northern counties on Monday."]
SAMPLE = Path(__file__).resolve().parent.parent / "explainer" / "corpus" / "samples" / "news-en"


def _stemmed_rouge1() -> float:
    return rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True).score(REFS[0], CAND)["rouge1"].fmeasure


def test_a_tie_names_every_implementation_the_original_script_first():
    f = _stemmed_rouge1()
    res = reproduce(CAND, REFS, f"R-1 {100 * f:.2f}")
    assert res.verdict == "reproduced" and res.tied
    dialects = [m.config.dialect for m in res.ties]
    # before: the headline named rouge-score only, although ROUGE-1.5.5 -m (the source) gives the same number
    assert dialects[0] == "rouge155" and res.ties[0].config.opts == {"use_stemmer": True}
    assert "rouge-score" in dialects and len(set(dialects)) == len(dialects)
    assert all(m.shown == f"{100 * f:.2f}" for m in res.ties)
    assert f"{len(res.ties)} implementations give it: ROUGE-1.5.5 rouge1 F, -m" in res.message
    assert "(the original script)" in res.message and "rouge-score rouge1 F, use_stemmer=True" in res.message
    d = res.to_dict()
    assert [t["dialect"] for t in d["ties"]] == dialects and d["ties"][0]["original"] is True


def test_one_implementation_is_no_tie():
    res = reproduce(CAND, REFS, "BLEU 0.001", metric="bleu")
    assert not res.tied and "implementations give it" not in res.message


def _chrf_values_on_the_claims_scale(claim_value: float) -> list[float]:
    """Every chrF configuration the search tries, scored by the REAL libraries (sacreBLEU's CHRF, NLTK's
    sentence_chrf), each on the claim's scale (as printed, or ÷100 / ×100: whichever is nearer the claim)."""
    out = []
    for sc in chrf_space():
        for subset, _, _ in reference_subsets(len(REFS)):
            refs = [REFS[k] for k in subset]
            if sc.dialect == "sacrebleu":
                v = CHRF(**sc.config.opts).sentence_score(CAND, refs).score
                forms = (v, v / 100)
            else:
                v = sentence_chrf(" ".join(refs), CAND, **sc.config.opts)
                forms = (v, v * 100)
            out.append(min(forms, key=lambda x: abs(x - claim_value)))
    return out


def test_the_chance_of_a_coincidence_follows_the_rule():
    v = CHRF().sentence_score(CAND, REFS).score
    two, one = (reproduce(CAND, REFS, f"chrF {v:.{k}f}") for k in (2, 1))
    c2, c1 = two.coincidence, one.coincidence
    # the rule, recomputed from the real libraries' values: the claim's interval over the 5th-95th percentile range
    vals = sorted({float(f"{x:.12g}") for x in _chrf_values_on_the_claims_scale(float(f"{v:.2f}"))})
    n = len(vals)
    spread = vals[round(0.95 * (n - 1))] - vals[round(0.05 * (n - 1))]
    assert c2.n_values == n and math.isclose(c2.spread, spread, rel_tol=1e-9)
    assert math.isclose(c2.p_one, 0.01 / spread, rel_tol=1e-9) and math.isclose(c2.expected, n * c2.p_one)
    assert math.isclose(c1.p_one, 10 * c2.p_one, rel_tol=1e-6)      # one decimal fewer: ten times as likely
    assert "At 2 decimals the claim stands for an interval 0.01 wide" in two.message
    assert c2.sentence in two.message and two.to_dict()["coincidence"]["p_one"] == c2.p_one


def test_the_level_grows_as_the_precision_falls():
    v = CHRF().sentence_score(CAND, REFS).score
    assert reproduce(CAND, REFS, f"chrF {v:.4f}").coincidence.level == "unlikely"
    bare = reproduce(CAND, REFS, f"{round(v)}")        # a whole number, searched in BLEU and ROUGE
    assert bare.coincidence.level in ("likely", "possible")
    assert "rounding coincidence" in bare.coincidence.sentence


def test_a_corpus_tie_and_coincidence(tmp_path, capsys):
    n = 40
    hyps = (SAMPLE / "baseline.txt").read_text(encoding="utf-8").splitlines()[:n]
    refs = (SAMPLE / "ref.1.txt").read_text(encoding="utf-8").splitlines()[:n]
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)
    mean = sum(scorer.score(r, h)["rouge1"].fmeasure for h, r in zip(hyps, refs)) / n
    claim = f"ROUGE-1 {round(100 * mean)}"     # ROUGE-1.5.5's Average and rouge-score's mean print the same
    res = reproduce_corpus(hyps, [[r] for r in refs], claim)
    assert res.tied and res.ties[0].config.dialect == "rouge155"
    assert {"rouge155", "rouge-score"} <= {m.config.dialect for m in res.ties}
    assert res.coincidence is not None and res.coincidence.n_values > 10
    for name, lines in (("h.txt", hyps), ("r.txt", refs)):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    rc = main(["reproduce", "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"), "--claim", claim])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["ties"][0]["dialect"] == "rouge155" and d["coincidence"]["level"] in (
        "likely", "possible", "unlikely")
