"""rouge155 dialect vs ROUGE-1.5.5.pl: every record of golden/rouge/rouge155.jsonl.

Expected numbers are the Perl script's printed output stored in the golden file (the script cannot run here).
R/P/F are compared as the script prints them (``%.5f``); -t 2 counts exactly, ROUGE-W counts to rel 1e-12;
bootstrap averages and intervals exactly (Perl's drand48 is reproduced).
"""
from __future__ import annotations

import math

import pytest

from explainer.errors import ExplainerInputError
from explainer.rouge import explain_rouge, explain_rouge_corpus, get_dialect, score_rouge
from explainer.rouge.rouge155 import (
    WLCS_DEATH,
    Rouge155Options,
    evaluate,
    evaluate_corpus,
    parse_flags,
)
from tests.conftest import golden, seed_vectors

PERL_TO_TYPE = {"ROUGE-1": "rouge1", "ROUGE-2": "rouge2", "ROUGE-3": "rouge3", "ROUGE-4": "rouge4",
                "ROUGE-L": "rougeLsum", "ROUGE-W-1.2": "rougeW-1.2", "ROUGE-S4": "rougeS4", "ROUGE-SU4": "rougeSU4"}
ALL_TYPES = list(PERL_TO_TYPE.values()) + ["rougeL"]


def _p5(x: float) -> str:
    return "%.5f" % x


def _same_printed(got: float, want: float, what: str) -> None:
    assert _p5(got) == _p5(want), f"{what}: {got!r} prints {_p5(got)}, ROUGE-1.5.5 printed {_p5(want)}"


def _same_counts(name: str, got: tuple, want: dict, what: str) -> None:
    exp = (want["model_count"], want["peer_count"], want["hit_count"])
    if name.startswith("ROUGE-W"):
        for g, e, k in zip(got, exp, ("model", "peer", "hit")):
            assert math.isclose(g, e, rel_tol=1e-12, abs_tol=1e-300), f"{what} {name} {k}_count {g!r} != {e!r}"
    else:
        assert tuple(got) == exp, f"{what} {name} counts {got} != {exp}"


def _segment_records():
    return [r for r in golden("rouge/rouge155.jsonl") if r["level"] == "segment"]


def _dialect_options(flags: list[str]) -> dict:
    o = parse_flags(flags)
    return {"use_stemmer": o.stem, "remove_stopwords": o.remove_stopwords,
            "multi_ref": "pool" if o.mode == "A" else "best-recall"}


def _check_segment_record(rec) -> tuple[int, int, int]:
    """One Perl segment record at engine level: scores as printed, -t 2 counts, one-line layout, death.
    Returns (R/P/F values, count triples, one-line metrics) checked."""
    n_values = n_counts = n_oneline = 0
    opts = parse_flags(rec["options"]["flags"])
    what = f"{rec['case_id']} {' '.join(rec['options']['flags'])}"
    ev = evaluate(rec["candidate"], rec["references"], opts, detail=False)
    res = rec["result"]
    if rec["status"] == "error":
        assert rec["error"] == f"PerlDie: {WLCS_DEATH}"
        assert ev.died == WLCS_DEATH, what
        assert "the real script dies here because" in " ".join(ev.notes)
        # the script printed ROUGE-N and ROUGE-L before dying, and nothing after
        assert list(ev.metrics) == [k for k in res if k.startswith("ROUGE-")], what
    else:
        assert ev.died is None, what
        assert list(ev.metrics) == opts.metric_names()
    for name, want in res.items():
        if not name.startswith("ROUGE-"):
            continue
        m = ev.metrics[name]
        for k in "RPF":
            _same_printed(getattr(m, k), want[k], f"{what} {name} {k}")
            n_values += 1
    for name, want in res["counts"].items():
        m = ev.metrics[name]
        _same_counts(name, (m.model_count, m.peer_count, m.hit_count), want, what)
        n_counts += 1
    ol = res["one_line_layout"]
    ev1 = evaluate(rec["candidate"].replace("\n", " "), [r.replace("\n", " ") for r in rec["references"]], opts,
                   detail=False)
    for name, want in ol.items():
        if name == "counts":
            continue
        m = ev1.metrics[name]
        for k in "RPF":
            _same_printed(getattr(m, k), want[k], f"{what} one-line {name} {k}")
        n_oneline += 1
    for name, want in ol["counts"].items():
        m = ev1.metrics[name]
        _same_counts(name, (m.model_count, m.peer_count, m.hit_count), want, what + " one-line")
    return n_values, n_counts, n_oneline


def test_every_segment_record_engine():
    """Every segment record (ok and error), engine level: scores, -t 2 counts, one-line layout, deaths."""
    n_ok = n_err = n_values = n_counts = n_oneline = 0
    sample_cases = set()
    for rec in _segment_records():
        if rec["case_id"].startswith(("duc2002_", "sl2003_")):
            sample_cases.add(rec["case_id"])
        a, b, c = _check_segment_record(rec)
        n_values, n_counts, n_oneline = n_values + a, n_counts + b, n_oneline + c
        if rec["status"] == "error":
            n_err += 1
        else:
            n_ok += 1
    # every segment record of the file is in the dialect's scope
    assert (n_ok, n_err) == (2277, 135)
    # ... including every case of golden/cases/rouge_sample_cases.jsonl (real DUC2002 / SL2003 summaries)
    assert sample_cases == {c["id"] for c in golden("cases/rouge_sample_cases.jsonl")} and len(sample_cases) == 109
    assert n_values > 55_000 and n_counts > 18_000 and n_oneline >= 4_000


def test_seed_vectors_perl_records():
    """The course examples' ROUGE-1.5.5 vectors (tests/data/seeds/rouge.jsonl.gz), including ROUGE-S*/SU*
    (-2 -1), which the golden file does not have."""
    recs = [r for r in seed_vectors("rouge.jsonl") if r["implementation"] == "rouge155"]
    n_star = 0
    for rec in recs:
        _check_segment_record(rec)
        n_star += "ROUGE-S*" in rec["result"]
    assert len(recs) == 50 and n_star == 1


def test_every_segment_record_through_the_public_api():
    """The same records through score_rouge(dialect="rouge155") (the CLI / UI path), types mapped to the
    core's names: ROUGE-L (summary level) = rougeLsum, one-line ROUGE-L = rougeL."""
    n = 0
    for rec in _segment_records():
        flags = rec["options"]["flags"]
        types = [PERL_TO_TYPE[k] for k in rec["result"] if k in PERL_TO_TYPE]
        if rec["status"] == "ok":
            types = [t for t in ALL_TYPES if t != "rougeW-1.2" or "-w" in flags]
        else:
            types = types + ["rougeW-1.2", "rougeL"]
        got = score_rouge(rec["candidate"], rec["references"], dialect="rouge155", types=types,
                          **_dialect_options(flags))
        what = f"{rec['case_id']} {' '.join(flags)}"
        for name, want in rec["result"].items():
            if name not in PERL_TO_TYPE:
                continue
            s = got[PERL_TO_TYPE[name]]
            _same_printed(s.recall, want["R"], what + " " + name)
            _same_printed(s.precision, want["P"], what + " " + name)
            _same_printed(s.fmeasure, want["F"], what + " " + name)
            _same_counts(name, s.counts, rec["result"]["counts"][name], what)
        ol = rec["result"]["one_line_layout"]["ROUGE-L"]
        _same_printed(got["rougeL"].recall, ol["R"], what + " rougeL")
        _same_printed(got["rougeL"].precision, ol["P"], what + " rougeL")
        if rec["status"] == "error":
            assert got["rougeW-1.2"].died == WLCS_DEATH, what
        n += 1
    assert n == 2277 + 135


def test_full_traces_match_golden_and_record_the_steps():
    """explain_rouge (full traces) on the worked-example and edge cases: same numbers, and the recorded
    steps add up to them (n-gram overlaps, union-LCS clipping, ROUGE-W runs)."""
    n = 0
    chosen = [r for i, r in enumerate(_segment_records())
              if not r["case_id"].startswith(("rouge_syn_", "duc2002_", "sl2003_")) or i % 7 == 0]
    for rec in chosen:
        flags = rec["options"]["flags"]
        tr = explain_rouge(rec["candidate"], rec["references"], dialect="rouge155",
                           types=ALL_TYPES if "-w" in flags else [t for t in ALL_TYPES if t != "rougeW-1.2"],
                           **_dialect_options(flags))
        d = tr.to_dict()
        assert d["dialect"] == "rouge155"
        what = f"{rec['case_id']} {' '.join(flags)}"
        for name, want in rec["result"].items():
            if name not in PERL_TO_TYPE:
                continue
            sc = d["scores"][PERL_TO_TYPE[name]]
            _same_printed(sc["recall"], want["R"], what + " " + name)
            _same_printed(sc["fmeasure"], want["F"], what + " " + name)
        for pr in tr.per_reference:
            r1 = pr["rouge1"]
            assert r1.hits == sum(row["overlap"] for row in r1.detail["ngrams"])
            ls = pr["rougeLsum"]
            assert ls.hits == sum(s["hits"] for s in ls.detail["per_ref_sentence"])
            assert ls.hits <= r1.hits  # the budgets keep ROUGE-L hits <= unigram hits
            if "rougeW-1.2" in pr and not getattr(pr["rougeW-1.2"].score, "died", None):
                w = pr["rougeW-1.2"]
                runs = [x for s in w.detail["per_ref_sentence"] for x in s["runs"]]
                assert math.isclose(w.hits, sum(x ** 1.2 for x in runs), rel_tol=1e-12)
        if rec["status"] == "error":
            assert d["reported"]["rougeW-1.2"]["died"] == rec["error"]
            assert "dies here because" in d["reported"]["rougeW-1.2"]["why"]
        n += 1
    assert n == len(chosen) and n > 400


def _corpus_records():
    return [r for r in golden("rouge/rouge155.jsonl") if r["level"] == "corpus"]


def test_every_corpus_record_bootstrap_averages_exact():
    """The Average_X lines (bootstrap means, Perl drand48 with srand(i)), their 95% intervals, the pooled
    -t 2 counts and the per-evaluation lines of all 25 corpus records (5 corpora x 5 option sets)."""
    n = n_avg = 0
    for rec in _corpus_records():
        opts = parse_flags(rec["options"]["flags"])
        cr = evaluate_corpus(rec["candidates"], rec["references"], opts)
        res = rec["result"]
        what = f"{rec['case_id']} {' '.join(rec['options']['flags'])}"
        assert cr.died is None
        assert set(res["averages"]) == set(opts.metric_names())
        for name, want in res["averages"].items():
            b = cr.averages[name]
            for k, key in enumerate("RPF"):
                _same_printed(b.average[k], want[key]["value"], f"{what} {name} Average_{key}")
                _same_printed(b.ci_low[k], want[key]["ci_low"], f"{what} {name} CI low {key}")
                _same_printed(b.ci_high[k], want[key]["ci_high"], f"{what} {name} CI high {key}")
                n_avg += 1
        assert cr.counts == res["corpus_counts(-t 2)"], what
        for i, pe in res["per_eval"].items():
            ev = cr.evaluations[f"{i}.X"]
            for name, want in pe.items():
                m = ev.metrics[name]
                if opts.counting == 0:
                    for k in "RPF":
                        _same_printed(getattr(m, k), want[k], f"{what} eval {i} {name}")
                else:  # -t 1 prints the raw counts per evaluation
                    _same_counts(name, (m.model_count, m.peer_count, m.hit_count),
                                 {"model_count": want["R"], "peer_count": want["P"], "hit_count": want["F"]}, what)
        n += 1
    assert n == 25 and n_avg == 25 * 8 * 3


def test_corpus_records_through_explain_rouge_corpus():
    n = 0
    for rec in _corpus_records():
        flags = rec["options"]["flags"]
        opts = _dialect_options(flags)
        if "-t" in flags:
            opts["counting"] = flags[flags.index("-t") + 1]
        tr = explain_rouge_corpus(rec["candidates"], rec["references"], dialect="rouge155",
                                  types=list(PERL_TO_TYPE.values()), **opts)
        for name, want in rec["result"]["averages"].items():
            t = PERL_TO_TYPE[name]
            mid = tr.aggregate[t]["mid"]
            _same_printed(mid.recall, want["R"]["value"], f"{rec['case_id']} {t}")
            _same_printed(mid.precision, want["P"]["value"], f"{rec['case_id']} {t}")
            _same_printed(mid.fmeasure, want["F"]["value"], f"{rec['case_id']} {t}")
            _same_printed(tr.aggregate[t]["low"].fmeasure, want["F"]["ci_low"], f"{rec['case_id']} {t}")
            assert tr.reported[t]["counts(-t 2)"] == rec["result"]["corpus_counts(-t 2)"][name]
        assert "MEAN of the resample means" in tr.aggregation["note"]
        n += 1
    assert n == 25


def test_corpus_dies_like_the_script_when_a_reference_is_empty():
    cands = ["the cat sat", "a dog ran"]
    refs = [["the cat sat on the mat"], [""]]
    cr = evaluate_corpus(cands, refs, Rouge155Options())
    assert cr.died == WLCS_DEATH
    assert list(cr.averages) == ["ROUGE-1", "ROUGE-2", "ROUGE-3", "ROUGE-4", "ROUGE-L"]
    tr = explain_rouge_corpus(cands, refs, dialect="rouge155", types=["rouge1", "rougeLsum", "rougeW-1.2", "rougeSU4"])
    assert tr.reported["rougeW-1.2"]["died"] == f"PerlDie: {WLCS_DEATH}"
    assert tr.reported["rougeSU4"]["printed"] is None
    assert "Average_R" in tr.reported["rouge1"]
    # without ROUGE-W nothing dies
    ok = explain_rouge_corpus(cands, refs, dialect="rouge155", types=["rouge1", "rougeSU4"])
    assert "Average_F" in ok.reported["rougeSU4"]


def test_segment_death_is_reported_not_raised():
    tr = explain_rouge("the cat sat", [""], dialect="rouge155", types=["rouge1", "rougeLsum", "rougeW-1.2", "rougeS4"])
    rep = tr.reported
    assert rep["rouge1"]["R"] == 0.0
    assert rep["rougeW-1.2"]["died"] == f"PerlDie: {WLCS_DEATH}"
    assert rep["rougeS4"]["printed"] is None
    assert "the real script dies here because" in tr.pooled["rougeW-1.2"]["died_why"]
    # the placeholder 0s never travel without the explanation (CLI output, JSON downloads)
    assert tr.to_dict()["scores"]["rougeW-1.2"]["died"].startswith(f"PerlDie: {WLCS_DEATH}")
    assert "died" not in tr.to_dict()["scores"]["rouge1"]
    # -s can empty a reference too: all its words are stop words
    tr2 = explain_rouge("the cat sat", ["it is what it is"], dialect="rouge155", types=["rougeW-1.2"],
                        remove_stopwords=True)
    assert tr2.scores["rougeW-1.2"].died == WLCS_DEATH
    assert "stop" in tr2.pooled["rougeW-1.2"]["died_why"]


def test_options_are_validated_with_clear_messages():
    with pytest.raises(ValueError, match="between 0 and 1"):
        explain_rouge("a b", ["a b"], dialect="rouge155", alpha=1.5)
    with pytest.raises(ValueError, match="words or bytes but not both"):
        explain_rouge("a b", ["a b"], dialect="rouge155", length_limit=3, byte_limit=10)
    with pytest.raises(ValueError, match="multi_ref"):
        explain_rouge("a b", ["a b"], dialect="rouge155", multi_ref="best-f")
    with pytest.raises(ExplainerInputError):
        explain_rouge("a b", [], dialect="rouge155")
    with pytest.raises(ValueError, match="bad value"):
        parse_flags(["-n", "x"])
    with pytest.raises(ValueError, match="Basic Elements"):
        parse_flags(["-3", "HM"])
    with pytest.raises(ValueError, match="greater than 0"):
        parse_flags(["-w", "0"])


def test_alpha_changes_f_from_the_rounded_p_and_r():
    """-p alpha: F = P·R/((1-α)P + αR) on the printed P and R (α→1 gives P, α→0 gives R)."""
    cand, ref = "the cat is on the mat", "there is a cat on the mat"
    for a in (0.0, 0.2, 0.5, 0.8, 1.0):
        s = score_rouge(cand, [ref], dialect="rouge155", types=["rouge2"], alpha=a)["rouge2"]
        p, r = s.precision, s.recall
        want = p * r / ((1 - a) * p + a * r)
        assert s.fmeasure == float("%.5f" % want)
    s1 = score_rouge(cand, [ref], dialect="rouge155", types=["rouge2"], alpha=1.0)["rouge2"]
    assert s1.fmeasure == s1.precision


def test_signature_gives_the_equivalent_command():
    tr = explain_rouge("a b", ["a b"], dialect="rouge155", types=["rouge1", "rouge2", "rougeW-1.2", "rougeSU4"],
                       use_stemmer=True, multi_ref="best-recall")
    assert tr.signature == "rouge155|ROUGE-1.5.5.pl -n 2 -w 1.2 -2 4 -u -m -f B -a -z SPL"
    assert get_dialect("rouge155").name == "rouge155"


def test_seed_abandon_pooled_vs_best_recall():
    """Printed by ROUGE-1.5.5: pooled F 0.43479 (from rounded P/R) vs 0.43478 exact."""
    recs = {(r["case_id"], tuple(r["options"]["flags"])): r for r in _segment_records()}
    rec = recs[("seed_abandon_multi_ref", ("-n", "4", "-w", "1.2", "-2", "4", "-U", "-f", "A"))]
    s = score_rouge(rec["candidate"], rec["references"], dialect="rouge155", types=["rouge2"])["rouge2"]
    assert _p5(s.fmeasure) == _p5(rec["result"]["ROUGE-2"]["F"]) == "0.43479"
    exact = 2 * (10 / 24) * (10 / 22) / (10 / 24 + 10 / 22)
    assert _p5(exact) == "0.43478"  # what a port without the script's rounding order prints
