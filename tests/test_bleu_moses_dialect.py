"""The `multi-bleu` and `mteval` dialects through the explainer's public API (shared algorithm + policies)
against every golden record of golden/bleu/{multi_bleu,mteval}.jsonl (tests/data).

Both the full-trace path (explain_bleu / explain_bleu_corpus) and the statistics path (score_bleu /
score_bleu_corpus) are checked; every record is counted, none is skipped.
"""
from __future__ import annotations

import math

import pytest

from conftest import golden, seed_vectors
from explainer.bleu import explain_bleu, explain_bleu_corpus, score_bleu, score_bleu_corpus

TOL = 1e-9
EXPECTED_RECORDS = {"bleu/multi_bleu.jsonl": 1287, "bleu/mteval.jsonl": 2145}


def _close(a, b):
    return a is not None and b is not None and math.isclose(a, b, rel_tol=0.0, abs_tol=TOL)


def _options(rec) -> tuple[str, dict]:
    o = rec["options"]
    if o["script"] == "mteval-v13a.pl":
        return "mteval", {"preserve_case": not o["lowercase"], "smoothing": o["smoothing"],
                          "international_tokenization": o["tokenization"] == "international"}
    return "multi-bleu", {"script": o["script"], "lowercase": "-lc" in o["flags"]}


def _run(rec):
    dialect, opts = _options(rec)
    if rec["level"] == "segment":
        tr = explain_bleu(rec["candidate"], rec["references"], dialect=dialect, **opts)
        st = score_bleu(rec["candidate"], rec["references"], dialect=dialect, **opts)
    else:
        tr = explain_bleu_corpus(rec["candidates"], rec["references"], dialect=dialect, **opts)
        st = score_bleu_corpus(rec["candidates"], rec["references"], dialect=dialect, **opts)
    return dialect, tr, st


def _check(rec) -> list:
    dialect, tr, st = _run(rec)
    g = rec["result"]
    errs = []
    # the statistics path and the trace path agree
    if (st.score, st.counts, st.totals) != (tr.score, tr.counts, tr.totals):
        errs.append(("stats path differs from trace path", st.score, tr.score))
    if rec["status"] == "error":
        e = tr.library_error
        if e is None or e.type != rec["error"].split(":")[0]:
            return [("expected a recorded death", e)]
        if f"PerlDie: {e.message}" != rec["error"]:
            errs.append(("death message", e.message, rec["error"]))
        if "the real script dies here because" not in e.explanation:
            errs.append(("explanation", e.explanation))
        if st.library_error is None or st.library_error.type != "PerlDie":
            errs.append(("stats path lost the death", st.library_error))
        return errs
    if tr.library_error is not None:
        return [("unexpected library error", tr.library_error)]
    extra = tr.combination.extra
    fp = g["full_precision"]
    if extra["printed"] != g["printed"]:
        errs.append(("printed", extra["printed"], g["printed"]))
    if (tr.counts, tr.totals) != (g["matches"], g["totals"]):
        errs.append(("counts", tr.counts, tr.totals, g["matches"], g["totals"]))
    if dialect == "multi-bleu":
        if extra["returncode"] != g["returncode"]:
            errs.append(("returncode", extra["returncode"], g["returncode"]))
        if g["returncode"] == 0:
            if (tr.sys_len, tr.ref_len) != (g["hyp_len"], g["ref_len"]):
                errs.append(("lengths", tr.sys_len, tr.ref_len, g["hyp_len"], g["ref_len"]))
            if not (_close(tr.score, fp["score"]) and _close(tr.bp, fp["bp"])
                    and _close(tr.combination.ratio, fp["ratio"])):
                errs.append(("score/bp/ratio", tr.score, tr.bp, fp))
            native = [o.precision_native for o in tr.combination.orders]
            if not all(_close(a, b) for a, b in zip(native, fp["precisions"], strict=True)):
                errs.append(("precisions", native, fp["precisions"]))
        elif tr.score != g["score"]:
            errs.append(("score", tr.score, g["score"]))
    else:
        if not _close(tr.score, fp["score"]):
            errs.append(("score", tr.score, fp["score"]))
        if not all(_close(a, b)
                   for a, b in zip(extra["individual_1to4"], fp["individual_precisions_1to4"], strict=True)):
            errs.append(("individual", extra["individual_1to4"], fp["individual_precisions_1to4"]))
        if not all(_close(a, b) for a, b in zip(extra["cumulative_1to4"], fp["cumulative_bleu_1to4"], strict=True)):
            errs.append(("cumulative", extra["cumulative_1to4"], fp["cumulative_bleu_1to4"]))
        if g["sys_len"] is not None:
            if (tr.sys_len, tr.ref_len) != (g["sys_len"], g["ref_len"]):
                errs.append(("lengths", tr.sys_len, tr.ref_len, g["sys_len"], g["ref_len"]))
            if not (_close(tr.bp, g["bp"]) and _close(extra["bp_log"], fp["bp_log"])):
                errs.append(("bp", tr.bp, g["bp"]))
        # -d 2 segment scores: every segment's own trace carries the line the script prints for it
        if rec["level"] == "segment":
            seg_scores = [extra["segment_score"]]
        else:
            seg_scores = [tr.segment(i).combination.extra["segment_score"] for i in range(tr.n_segments)]
        if not all(_close(a, b) for a, b in zip(seg_scores, fp["segment_scores"], strict=True)):
            errs.append(("segment scores", seg_scores, fp["segment_scores"]))
    return errs


@pytest.mark.parametrize("path", sorted(EXPECTED_RECORDS))
def test_dialect_matches_every_golden_record(path):
    records = golden(path)
    failures = []
    checked = 0
    for rec in records:
        errs = _check(rec)
        checked += 1
        if errs:
            failures.append((rec["case_id"], rec["level"], rec["options"], errs))
    assert not failures, f"{len(failures)} of {checked} records differ; first: {failures[:3]}"
    assert checked == EXPECTED_RECORDS[path]


def test_seed_worked_examples():
    """The Moses results for the course's worked examples (tests/data/seeds/bleu.jsonl.gz, same format)."""
    records = [r for r in seed_vectors("bleu.jsonl") if r["implementation"].startswith("moses_")]
    failures = [(r["case_id"], r["options"], e) for r in records if (e := _check(r))]
    assert not failures, failures[:3]
    assert len(records) == 112  # 42 multi-bleu + 70 mteval


def test_not_expressible_inputs_are_reported_not_raised():
    tr = explain_bleu("a b", [], dialect="mteval")
    assert tr.library_error.type == "NotExpressible" and "cannot even be given" in tr.library_error.explanation
    tr = explain_bleu("a b", [], dialect="multi-bleu")
    assert tr.library_error.type == "NotExpressible"
    tr = explain_bleu("a\nb", ["a b"], dialect="multi-bleu")
    assert tr.library_error.type == "NotExpressible" and "newline" in tr.library_error.message
    tr = explain_bleu_corpus(["a", "b"], [["a"], ["b", "c"]], dialect="multi-bleu")
    assert tr.library_error.type == "NotExpressible" and "varies" in tr.library_error.message
    # mteval reads SGML: a newline is whitespace there, not an error
    assert explain_bleu("a\nb c d", ["a b c d"], dialect="mteval").library_error is None


def test_trace_explains_the_scripts_steps():
    tr = explain_bleu("the the the the the the the", ["The cat is on the mat.", "There is a cat on the mat."],
                      dialect="mteval")
    orders = tr.combination.orders
    assert [o.smoothing for o in orders] == ["none", "nist", "nist", "nist"]
    assert tr.combination.extra["printed"].startswith("BLEU score = ")
    assert tr.signature.startswith("moses:mteval-v13a.pl|nrefs:2|case:lc-ascii|tok:13a|smooth:nist")
    d = tr.to_dict()
    assert d["combination"]["extra"]["command"].startswith("perl mteval-v13a.pl")
    # multi-bleu: punctuation stays attached, the tokens map back to the user's text
    tr = explain_bleu("Hello, world!", ["Hello , world !"], dialect="multi-bleu")
    assert [t.text for t in tr.candidate.tokens] == ["Hello,", "world!"]
    assert [(t.start, t.end) for t in tr.candidate.tokens] == [(0, 6), (7, 13)]
    with pytest.raises(ValueError, match="not reproduced"):
        explain_bleu("a", ["a"], dialect="multi-bleu", script="multi-bleu-detok.perl", lowercase=True)


def test_cli_reports_printed_line_and_deaths():
    import json
    import subprocess
    import sys

    lines = [{"candidate": "It is a guide to action which ensures that the military always obeys the commands "
                           "of the party.",
              "references": ["It is a guide to action that ensures that the military will forever heed Party "
                             "commands.",
                             "It is the guiding principle which guarantees the military forces always being under "
                             "the command of the Party.",
                             "It is the practical guide for the army always to heed the directions of the party."]},
             {"candidate": "", "references": ["the cat sat"]}]
    stdin = "\n".join(json.dumps(x) for x in lines) + "\n"
    expected = {r["case_id"]: r for r in golden("bleu/multi_bleu.jsonl")
                if r["options"] == {"script": "multi-bleu.perl", "flags": []} and r["level"] == "segment"}
    p = subprocess.run([sys.executable, "-m", "explainer", "bleu", "--dialect", "multi-bleu", "--full",
                        "--jsonl", "-"], input=stdin, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert out[0]["combination"]["extra"]["printed"] == expected["military"]["result"]["printed"]
    assert out[1]["library_error"]["type"] == "PerlDie"
    assert "PerlDie: " + out[1]["library_error"]["message"] == expected["empty_cand"]["error"]
    assert "Traceback" not in p.stderr


def test_detok_noncharacter_reference_is_flagged():
    tr = explain_bleu("a b", ["a b\ufdd0"], dialect="multi-bleu", script="multi-bleu-detok.perl")
    assert any("noncharacter" in w.message for w in tr.warnings)
    assert not explain_bleu("a b", ["a b"], dialect="multi-bleu", script="multi-bleu-detok.perl").warnings
