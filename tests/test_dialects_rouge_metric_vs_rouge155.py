"""rouge-metric 1.0.1 says PyRouge equals ROUGE-1.5.5 on single documents. Where that holds and where it does not,
against the golden ROUGE-1.5.5 records (tests/data/golden/rouge/rouge155.jsonl.gz, flags -n 4 -w 1.2 -2 4 -U, no
-m, no -s). The rouge-metric dialect itself is checked against PyRouge in test_dialects_new_parity.py.

* holds: on ROUGE-1.5.5's own tokens (its lowercasing and punctuation removal done first), -f A (PyRouge's
  multi_ref_mode='average'): every count of every type of every record (ROUGE-1..4, summary-level ROUGE-L, ROUGE-W-1.2,
  ROUGE-S4, ROUGE-SU4);
* holds: -f B (multi_ref_mode='best') for ROUGE-N, L, S, SU;
* does not hold: -f B for ROUGE-W: PyRouge keeps the reference with the highest hits / f(Σ f(|r|)), ROUGE-1.5.5 the
  one with the highest f^-1 of the single-weighted ratio, so they keep different references;
* does not hold: raw text (PyRouge does not lowercase and keeps punctuation attached);
* does not hold: a corpus (PyRouge computes F from the mean P and mean R; ROUGE-1.5.5 averages F).
"""
from __future__ import annotations

from explainer.rouge import explain_rouge_corpus, score_rouge
from explainer.rouge.engine import bind_dialect
from explainer.rouge.registry import get_dialect
from tests.conftest import golden
from tests.dialects_samples import EN_SUMMARIES

TYPES = {"rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rouge3": "ROUGE-3", "rouge4": "ROUGE-4", "rougeLsum": "ROUGE-L",
         "rougeW-1.2": "ROUGE-W-1.2", "rougeS4": "ROUGE-S4", "rougeSU4": "ROUGE-SU4"}
FLAGS = ["-n", "4", "-w", "1.2", "-2", "4", "-U", "-f"]


def _perl_lines(text: str) -> str:
    """The text as ROUGE-1.5.5 reads it (the rouge155 dialect, golden-tested), one line per unit, tokens spaced."""
    tt = get_dialect("rouge155", ["rouge1"]).prepare(text, need_sents=True, full=False)
    return "\n".join(" ".join(s) for s in tt.sentence_tokens)


def _records(mode: str):
    for rec in golden("rouge/rouge155.jsonl"):
        if rec["level"] == "segment" and rec["status"] == "ok" and rec["options"]["flags"] == FLAGS + [mode]:
            yield rec


def _per_reference(d, rec):
    cp = d.prepare(_perl_lines(rec["candidate"]), need_sents=True, full=False)
    rps = [d.prepare(_perl_lines(r), need_sents=True, full=False) for r in rec["references"]]
    return {rt.name: (rt, [d.score_type(rt, cp, rp, full=False) for rp in rps]) for rt in d.types}


def _same_counts(x, want) -> bool:
    return (abs(x[0] - want["hit_count"]) < 1e-9 and abs(x[1] - want["model_count"]) < 1e-9
            and abs(x[2] - want["peer_count"]) < 1e-9)


def test_pooled_counts_equal_rouge155_f_A_on_its_tokens():
    d = bind_dialect("rouge-metric", list(TYPES))
    n = 0
    for rec in _records("A"):
        for t, (_rt, res) in _per_reference(d, rec).items():
            got = (sum(x.hits for x in res), sum(x.ref_total for x in res), sum(x.cand_total for x in res))
            assert _same_counts(got, rec["result"]["counts"][TYPES[t]]), (rec["case_id"], t)
        n += 1
    assert n == 525


def test_best_reference_equals_rouge155_f_B_except_rouge_w():
    d = bind_dialect("rouge-metric", list(TYPES), multi_ref="best-recall")
    n = differ_w = 0
    for rec in _records("B"):
        for t, (rt, res) in _per_reference(d, rec).items():
            _, k, _ = d.combine(rt, res)
            x = res[k]
            same = _same_counts((x.hits, x.ref_total, x.cand_total), rec["result"]["counts"][TYPES[t]])
            if t == "rougeW-1.2":
                differ_w += not same
            else:
                assert same, (rec["case_id"], t)
        n += 1
    assert n == 313
    assert differ_w == 30       # a reference chosen by a different rule: the numbers differ


def test_raw_text_differs_case_and_punctuation():
    c, r = "The cat sat.", "the cat sat"
    pm = score_rouge(c, [r], dialect="rouge-metric", types="rouge1")["rouge1"]
    perl = score_rouge(c, [r], dialect="rouge155", types="rouge1")["rouge1"]
    assert perl.fmeasure == 1.0 and pm.recall < 1.0      # "The" != "the", "sat." != "sat"


def test_corpus_f_is_f_of_the_means_not_the_mean_of_f():
    hyps = [c for c, _ in EN_SUMMARIES]
    refs = [list(r) for _, r in EN_SUMMARIES]
    ct = explain_rouge_corpus(hyps, refs, dialect="rouge-metric", types="rouge1")
    mean_f = sum(s["rouge1"].fmeasure for s in ct.item_scores) / len(hyps)
    assert abs(ct.aggregate["rouge1"].fmeasure - mean_f) > 1e-6
