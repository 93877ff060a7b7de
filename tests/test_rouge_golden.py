"""Every record of golden/rouge/rouge_score.jsonl and golden/rouge/hf_evaluate.jsonl, reproduced."""
from __future__ import annotations

import math

import pytest

from explainer.rouge import explain_rouge, explain_rouge_corpus, score_rouge
from tests.conftest import golden

TOL = 1e-9
RS_TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum"]
HF_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _close(a, b, what):
    assert math.isclose(a, b, rel_tol=0, abs_tol=TOL), f"{what}: {a!r} != {b!r}"


def _check_scores(got, want, what):
    for t, s in want.items():
        for k in ("precision", "recall", "fmeasure"):
            _close(got[t][k], s[k], f"{what} {t} {k}")


def test_rouge_score_golden_all_records():
    recs = golden("rouge/rouge_score.jsonl")
    n_checked = n_lcs = n_union = n_multi = 0
    for rec in recs:
        assert rec["status"] == "ok"
        opts = rec["options"]
        assert opts["rouge_types"] == RS_TYPES and opts["tokenizer"] == "default" and not opts["split_summaries"]
        stem = opts["use_stemmer"]
        what = f"{rec['case_id']} stem={stem}"
        tr = explain_rouge(rec["candidate"], rec["references"], types=RS_TYPES, use_stemmer=stem)
        d = tr.to_dict()
        res = rec["result"]
        _check_scores(d["scores"], res["scores"], what)
        fast = score_rouge(rec["candidate"], rec["references"], types=RS_TYPES, use_stemmer=stem)
        for t in RS_TYPES:
            assert tuple(fast[t]) == tuple(tr.scores[t]), f"{what}: fast path differs for {t}"
        if "per_reference" in res:
            n_multi += 1
            for k, pr in enumerate(res["per_reference"]):
                _check_scores(d["per_reference"][k], pr, f"{what} ref {k}")
            assert d["chosen_reference"] == res["chosen_reference_index"], what
        if "tokens" in res:
            cand_forms = [t["stem"] if stem else t["text"] for t in d["candidate"]["tokens"]]
            assert cand_forms == res["tokens"]["candidate"], what
            for k, ref_toks in enumerate(res["tokens"]["references"]):
                assert [t["stem"] if stem else t["text"] for t in d["references"][k]["tokens"]] == ref_toks, what
        if "rougeL_lcs_ref_indices" in res:
            for k, idx in enumerate(res["rougeL_lcs_ref_indices"]):
                assert d["per_reference"][k]["rougeL"]["detail"]["ref_indices"] == idx, what
                n_lcs += 1
        if "rougeLsum_union_lcs" in res:
            u = res["rougeLsum_union_lcs"]
            assert [s["tokens"] for s in d["candidate"]["sentences"]] == u["candidate_sentence_tokens"], what
            for k, per_sent in enumerate(u["per_reference"]):
                det = d["per_reference"][k]["rougeLsum"]["detail"]
                if not per_sent:
                    continue
                got = det["per_ref_sentence"]
                # rouge-score skips the union when either side has no tokens at all
                if det["ref_tokens"] == 0 or det["cand_tokens"] == 0:
                    continue
                assert len(got) == len(per_sent), what
                for g, w in zip(got, per_sent):
                    assert g["tokens"] == w["ref_sentence_tokens"], what
                    assert ([c["ref_indices"] for c in g["lcs_per_cand_sentence"]]
                            == w["lcs_ref_indices_per_candidate_sentence"]), what
                    assert g["union"] == w["union"], what
                    n_union += 1
        n_checked += 1
    assert n_checked == 1086
    assert n_multi == 648 and n_lcs > 1000 and n_union > 500, (n_multi, n_lcs, n_union)


def test_hf_evaluate_golden_segments():
    recs = [r for r in golden("rouge/hf_evaluate.jsonl") if r["level"] == "segment"]
    for rec in recs:
        o = rec["options"]
        assert o["use_aggregator"] is False and o["rouge_types"] is None
        refs = rec["references"]
        if o["references_form"] == "list of str":
            assert len(refs) == 1
        tr = explain_rouge(rec["candidate"], refs, dialect="hf-evaluate", types=HF_TYPES, use_stemmer=o["use_stemmer"])
        rep = tr.to_dict()["reported"]
        assert set(rep) == set(rec["result"])
        for t, f in rec["result"].items():
            _close(rep[t], f, f"{rec['case_id']} {t}")
    assert len(recs) == 1086


@pytest.mark.parametrize("use_aggregator", [False, True])
def test_hf_evaluate_golden_corpora(use_aggregator):
    recs = [r for r in golden("rouge/hf_evaluate.jsonl") if r["level"] == "corpus"
            and r["options"]["use_aggregator"] is use_aggregator]
    assert len(recs) == 10
    for rec in recs:
        o = rec["options"]
        kw = {"use_aggregator": use_aggregator}
        if use_aggregator:
            kw["seed"] = o["load_seed"]
        ct = explain_rouge_corpus(rec["candidates"], rec["references"], dialect="hf-evaluate", types=HF_TYPES,
                                  use_stemmer=o["use_stemmer"], **kw)
        rep = ct.to_dict()["reported"]
        for t, want in rec["result"].items():
            if use_aggregator:
                _close(rep[t], want, f"{rec['case_id']} {t}")
            else:
                assert len(rep[t]) == len(want)
                for a, b in zip(rep[t], want):
                    _close(a, b, f"{rec['case_id']} {t}")
        if use_aggregator:
            assert "median" in ct.aggregation["note"].lower()


def test_shared_algorithms_match_rouge155_counts_on_ascii_cases():
    """The shared union-LCS, weighted-LCS and skip-bigram algorithms, fed rouge-score tokens (identical to
    ROUGE-1.5.5's on ASCII text), reproduce ROUGE-1.5.5's raw -t 2 hit counts (pooled over references, -f A)."""
    recs = golden("rouge/rouge155.jsonl")
    flags = ["-n", "4", "-w", "1.2", "-2", "4", "-U", "-f", "A"]
    n = 0
    for r in recs:
        if r["level"] != "segment" or r["status"] != "ok" or r["options"]["flags"] != flags:
            continue
        if not all(t.isascii() for t in [r["candidate"]] + r["references"]):
            continue
        tr = explain_rouge(r["candidate"], r["references"], multi_ref="pool",
                           types=["rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4"])
        c = r["result"]["counts"]
        for ours, theirs in [("rougeLsum", "ROUGE-L"), ("rougeW-1.2", "ROUGE-W-1.2"), ("rougeS4", "ROUGE-S4"),
                             ("rougeSU4", "ROUGE-SU4")]:
            hits = sum(p[ours].hits for p in tr.per_reference)
            assert math.isclose(hits, c[theirs]["hit_count"], rel_tol=1e-12, abs_tol=1e-12), (r["case_id"], ours)
            if ours in ("rougeS4", "rougeSU4", "rougeLsum"):
                where = (r["case_id"], ours)
                assert sum(p[ours].ref_total for p in tr.per_reference) == c[theirs]["model_count"], where
                assert sum(p[ours].cand_total for p in tr.per_reference) == c[theirs]["peer_count"], where
        n += 1
    assert n == 343


_PERL_TYPES = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-3": "rouge3", "ROUGE-4": "rouge4",
               "ROUGE-L": "rougeLsum", "ROUGE-W-1.2": "rougeW-1.2", "ROUGE-S4": "rougeS4", "ROUGE-SU4": "rougeSU4"}


def _p5(x: float) -> str:
    return "%.5f" % x


@pytest.mark.parametrize("mode,policy", [("A", "pool"), ("B", "best-recall")])
@pytest.mark.parametrize("dialect", ["rouge-score", "hf-evaluate"])
def test_multi_ref_policies_match_rouge155_on_ascii_golden(mode, policy, dialect):
    """multi_ref="pool" / "best-recall" in the core dialects are ROUGE-1.5.5's -f A / -f B: every golden record with
    at least two references and ASCII text (where rouge-score's tokens are the script's), unstemmed: R and P print
    as the script printed them (5 decimals) for N, the summary-level L (rougeLsum), W-1.2 (pooled / chosen as the
    script does), S4 and SU4, and the one-line ROUGE-L (rougeL); F recomputed the script's way (from the rounded P
    and R) is its printed F. The chosen reference of -f B is checked through P and R of every type."""
    flags = ["-n", "4", "-w", "1.2", "-2", "4", "-U", "-f", mode]
    n = 0
    for rec in golden("rouge/rouge155.jsonl"):
        if rec["level"] != "segment" or rec["status"] != "ok" or rec["options"]["flags"] != flags:
            continue
        if len(rec["references"]) < 2 or not all(t.isascii() for t in [rec["candidate"]] + rec["references"]):
            continue
        types = list(_PERL_TYPES.values()) + ["rougeL"]
        got = score_rouge(rec["candidate"], rec["references"], dialect=dialect, types=types, multi_ref=policy)
        tr = explain_rouge(rec["candidate"], rec["references"], dialect=dialect, types=types, multi_ref=policy)
        want = dict(rec["result"])
        want["one-line ROUGE-L"] = rec["result"]["one_line_layout"]["ROUGE-L"]
        for perl, t in list(_PERL_TYPES.items()) + [("one-line ROUGE-L", "rougeL")]:
            w = want[perl]
            what = f"{rec['case_id']} -f {mode} {perl}"
            for s in (got[t], tr.scores[t]):
                assert _p5(s.recall) == _p5(w["R"]), f"{what} R {s.recall!r} vs printed {w['R']}"
                assert _p5(s.precision) == _p5(w["P"]), f"{what} P {s.precision!r} vs printed {w['P']}"
                p, r = float(_p5(s.precision)), float(_p5(s.recall))
                assert _p5(2 * p * r / (p + r) if p + r > 0 else 0.0) == _p5(w["F"]), what
            # the counts behind the numbers are the script's -t 2 counts: pooled (-f A), or the chosen reference's
            # (-f B: so the same reference was kept); ROUGE-W's denominators are the weighted ones the script uses
            c = (rec["result"]["one_line_layout"] if perl == "one-line ROUGE-L" else rec["result"])["counts"][
                "ROUGE-L" if perl == "one-line ROUGE-L" else perl]
            if mode == "A":
                assert tr.chosen_reference[t] is None, what
                pool = tr.pooled[t]
                ours = (pool["ref_total"], pool["cand_total"], pool["hits"])
            else:
                x = tr.per_reference[tr.chosen_reference[t]][t]
                ours = ((x.ref_total ** 1.2, x.cand_total ** 1.2, x.hits) if t.startswith("rougeW")
                        else (x.ref_total, x.cand_total, x.hits))
            want_c = (c["model_count"], c["peer_count"], c["hit_count"])
            if t.startswith("rougeW"):
                assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(ours, want_c)), (what, ours, want_c)
            else:
                assert ours == want_c, (what, ours, want_c)
        n += 1
    assert n == 189
