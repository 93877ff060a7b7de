"""Every row of the side-by-side table equals the real implementation: the installed sacrebleu, NLTK and
rouge-score packages, the golden vectors recorded from HF evaluate, the Moses scripts and ROUGE-1.5.5, and the
course chapter's own code; and equals what `python -m explainer bleu|rouge` prints with the row's argv."""
from __future__ import annotations

import io
import json
import math
import sys

import pytest
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from nltk.translate.gleu_score import sentence_gleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

from explainer.cli import main
from explainer.dialectcmp.comparison import compare
from tests.conftest import golden

TOL = 1e-9


def close(a, b, what=""):
    assert math.isclose(float(a), float(b), rel_tol=TOL, abs_tol=TOL), f"{what}: {a!r} != {b!r}"


def _index(recs, key=lambda r: json.dumps(r["options"], sort_keys=True)):
    out: dict = {}
    for r in recs:
        if r["level"] == "segment":
            out[(r["case_id"], key(r))] = r
    return out


def _cases(stride: int):
    """Every seed/demo case and every stride-th synthetic one, from the golden BLEU cases."""
    recs = [r for r in golden("bleu/sacrebleu.jsonl") if r["level"] == "segment" and r["options"] == {}
            and r["api"] == "BLEU(**options).corpus_score" and r["status"] == "ok" and r["references"]]
    return [r for i, r in enumerate(recs) if not r["case_id"].startswith("bleu_syn") or i % stride == 0]


@pytest.fixture(scope="module")
def bleu_golden():
    return {
        "sacrebleu": _index([r for r in golden("bleu/sacrebleu.jsonl") if r["api"] == "BLEU(**options).corpus_score"]),
        "nltk": _index(golden("bleu/nltk.jsonl"), key=lambda r: r["options"]["smoothing_function"]
                       if r["options"]["weights"] == [0.25] * 4 and not r["options"]["auto_reweigh"] else None),
        "hf": _index(golden("bleu/hf_evaluate.jsonl"),
                     key=lambda r: (r["options"]["max_order"], r["options"]["smooth"])),
        "mb": _index(golden("bleu/multi_bleu.jsonl"),
                     key=lambda r: (r["options"]["script"], tuple(r["options"]["flags"]))),
        "mt": _index(golden("bleu/mteval.jsonl"), key=lambda r: tuple(r["options"]["flags"])),
    }


def test_bleu_rows_equal_golden_vectors_and_live_libraries(bleu_golden):
    n = {"sacrebleu": 0, "tok": 0, "nltk": 0, "hf": 0, "mb": 0, "mt": 0, "gleu": 0}
    for case in _cases(stride=9):
        cid, cand, refs = case["case_id"], case["candidate"], case["references"]
        cmp = compare(cand, refs, metric="bleu")
        rows = {r.id: r.data for r in cmp.rows}
        # sacreBLEU with its default and each tokenizer row: golden record and the live package
        for rid, row in rows.items():
            if row["dialect"] != "sacrebleu":
                continue
            opts = {"tokenize": rid.split(":")[1]} if ":" in rid else {}
            rec = bleu_golden["sacrebleu"].get((cid, json.dumps(opts, sort_keys=True)))
            if rec is not None and rec["status"] == "ok":
                res = rec["result"]
                close(row["score"], res["score"], f"{cid} {rid}")
                assert row["counts"] == res["counts"] and row["totals"] == res["totals"], (cid, rid)
                assert (row["sys_len"], row["ref_len"]) == (res["sys_len"], res["ref_len"]), (cid, rid)
                n["sacrebleu" if not opts else "tok"] += 1
            live = BLEU(**opts).corpus_score([cand], [[r] for r in refs])
            close(row["score"], live.score, f"{cid} {rid} live")
            assert row["counts"] == live.counts and row["totals"] == live.totals, (cid, rid)
            close(row["bp"], live.bp, f"{cid} {rid} bp")
        # NLTK method0 / method1: golden and live
        for m in ("method0", "method1"):
            row = rows[f"nltk:{m}"]
            rec = bleu_golden["nltk"].get((cid, m))
            if rec is not None and rec["status"] == "ok":
                close(row["score"], rec["result"]["score"], f"{cid} nltk {m}")
                n["nltk"] += 1
            live = sentence_bleu([r.split() for r in refs], cand.split(),
                                 smoothing_function=getattr(SmoothingFunction(), m))
            close(row["score"], live, f"{cid} nltk {m} live")
        rec = bleu_golden["hf"].get((cid, (4, False)))
        if rec is not None:
            row = rows["hf-evaluate"]
            if rec["status"] == "ok":
                res = rec["result"]
                close(row["score"], res["bleu"], f"{cid} hf")
                assert row["sys_len"] == res["translation_length"] and row["ref_len"] == res["reference_length"]
                assert row["counts"] == res["derived_matches_by_order"], cid
                n["hf"] += 1
            else:
                assert row["library_error"] and rec["error"].startswith(row["library_error"]["type"]), cid
        rec = bleu_golden["mb"].get((cid, ("multi-bleu.perl", ())))
        if rec is not None and rec["status"] == "ok" and rec["result"].get("full_precision"):
            row = rows["multi-bleu"]
            close(row["score"], rec["result"]["full_precision"]["score"], f"{cid} multi-bleu")
            assert row["counts"] == rec["result"]["matches"] and row["totals"] == rec["result"]["totals"], cid
            n["mb"] += 1
        rec = bleu_golden["mt"].get((cid, ()))
        if rec is not None and rec["status"] == "ok":
            row = rows["mteval"]
            close(row["score"], rec["result"]["full_precision"]["score"], f"{cid} mteval")
            assert row["counts"] == rec["result"]["matches"] and row["totals"] == rec["result"]["totals"], cid
            n["mt"] += 1
        # Google BLEU: NLTK's GLEU, live, over the tokens of HF's 13a copy (sacreBLEU's class on the raw line)
        tok = Tokenizer13a()
        live = sentence_gleu([tok(r).split() for r in refs], tok(cand).split())
        assert rows["google-bleu"]["score"] == live, cid
        n["gleu"] += 1
    # the comparison covered every implementation on many cases
    assert n["sacrebleu"] >= 50 and n["tok"] >= 20 and n["nltk"] >= 80 and n["hf"] >= 40 and n["gleu"] >= 40, n
    assert n["mb"] >= 40 and n["mt"] >= 40, n


def _chapter_bleu_cases():
    """(candidate, references, the chapter's bleu_score) triples from the chapter's recorded calls (tests/data)."""
    from tests.conftest import data_path, load_jsonl

    for r in load_jsonl(str(data_path("seeds/chapter_calls.jsonl.gz"))):
        refs = r["args"][1] if r["fn"] == "bleu_score" else None
        if refs and len(refs) <= 10 and r["kwargs"] in ({}, {"max_n": 4}) and "result" in r:
            yield r["args"][0], refs, r["result"]["bleu"]


def test_textbook_row_equals_the_chapters_code():
    n = 0
    for cand, refs, want in _chapter_bleu_cases():
        row = compare(cand, refs, metric="bleu").row("textbook").data
        close(row["score"], want, f"{cand!r} {refs!r}")
        n += 1
        if n >= 150:
            break
    assert n >= 20


def _rouge_cases(stride: int):
    recs = [r for r in golden("rouge/rouge_score.jsonl") if r["level"] == "segment"
            and not r["options"]["use_stemmer"]]
    return [r for i, r in enumerate(recs) if not r["case_id"].startswith("rouge_syn") or i % stride == 0]


def test_rouge_rows_equal_golden_vectors_and_live_rouge_score():
    rs_stem = _index(golden("rouge/rouge_score.jsonl"), key=lambda r: r["options"]["use_stemmer"])
    hf = _index(golden("rouge/hf_evaluate.jsonl"), key=lambda r: r["options"]["use_stemmer"])
    perl = _index(golden("rouge/rouge155.jsonl"), key=lambda r: " ".join(r["options"]["flags"]))
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    perl_name = {"rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rougeLsum": "ROUGE-L"}
    n = {"rs": 0, "stem": 0, "hf": 0, "A": 0, "B": 0}
    scorers = {s: rouge_scorer.RougeScorer(types, use_stemmer=s) for s in (False, True)}
    for case in _rouge_cases(stride=7):
        cid, cand, refs = case["case_id"], case["candidate"], case["references"]
        rows = {r.id: r.data for r in compare(cand, refs, metric="rouge", types=types).rows}
        for rid, stem in (("rouge-score", False), ("rouge-score:stem", True)):
            rec = rs_stem.get((cid, stem))
            live = scorers[stem].score_multi(refs, cand)
            for t in types:
                for k in ("precision", "recall", "fmeasure"):
                    close(rows[rid]["scores"][t][k], getattr(live[t], k), f"{cid} {rid} {t} {k} live")
                    if rec is not None:
                        close(rows[rid]["scores"][t][k], rec["result"]["scores"][t][k], f"{cid} {rid} {t} {k}")
            n["stem" if stem else "rs"] += rec is not None
        rec = hf.get((cid, False))
        if rec is not None and rec["status"] == "ok":
            for t in types:
                close(rows["hf-evaluate"]["scores"][t]["fmeasure"], rec["result"][t], f"{cid} hf {t}")
            n["hf"] += 1
        for f in ("A", "B"):
            rec = perl.get((cid, f"-n 4 -w 1.2 -2 4 -U -f {f}"))
            if rec is None or rec["status"] != "ok":
                continue
            row = rows[f"rouge155:{f}"]
            for t, pn in perl_name.items():
                want = rec["result"][pn]
                got = row["scores"][t]
                close(got["recall"], want["R"], f"{cid} -f {f} {t} R")
                close(got["precision"], want["P"], f"{cid} -f {f} {t} P")
                close(got["fmeasure"], want["F"], f"{cid} -f {f} {t} F")
            n[f] += 1
    assert n["rs"] >= 40 and n["stem"] >= 40 and n["hf"] >= 40 and n["A"] >= 40 and n["B"] >= 15, n


def _run_cli(argv, stdin: str, capsys, monkeypatch) -> dict:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((stdin + "\n").encode()), encoding="utf-8"))
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


CLI_CASES = [
    ("The cat sat on the mat.", ["The cat is on the mat.", "There is a cat on the mat."]),
    ("北京是中国的首都。", ["北京是中国首都。"]),
    ("the military party",
     ["It is a guide to action that ensures that the military will forever heed Party commands."]),
    ("w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", ["w1 w2 w3 w4 w5"]),
    ("", ["a b c"]),
]


@pytest.mark.parametrize("cand,refs", CLI_CASES)
def test_every_row_equals_the_cli_with_its_argv(cand, refs, capsys, monkeypatch):
    stdin = json.dumps({"candidate": cand, "references": refs}, ensure_ascii=False)
    for metric in ("bleu", "rouge"):
        cmp = compare(cand, refs, metric=metric)
        for row in cmp.rows:
            d = row.data
            printed = _run_cli(d["argv"], stdin, capsys, monkeypatch)
            if metric == "bleu":
                for key in ("score", "bleu", "counts", "totals", "precisions", "bp", "sys_len", "ref_len", "ratio",
                            "signature", "options", "library_error"):
                    assert printed[key] == d[key], (row.id, key)
            else:
                assert printed == d["scores"], row.id
                h = d["scores"][d["type"]]
                assert d["score"] == d["fmeasure"] == h["fmeasure"]


def test_relevant_tokenizers():
    ids = [r.id for r in compare("The U.S. economy grew 3.2% in Q3.", ["The US economy grew by 3.2 % ."]).rows]
    assert ids[:3] == ["sacrebleu", "sacrebleu:intl", "sacrebleu:none"]
    assert "sacrebleu:zh" not in ids and "sacrebleu:char" not in ids    # English text: no zh / char rows
    ids = [r.id for r in compare("北京是中国的首都", ["北京是中国的首都"]).rows]
    assert "sacrebleu:zh" in ids and "sacrebleu:char" in ids
    assert "sacrebleu:ja-mecab" not in ids and "sacrebleu:ko-mecab" not in ids   # Chinese: no MeCab rows
    ids = [r.id for r in compare("the cat sat", ["the cat sat"]).rows]
    assert ids == ["sacrebleu", "nltk:method0", "nltk:method1", "hf-evaluate", "multi-bleu", "mteval", "textbook",
                   "torchmetrics", "torchmetrics-sacrebleu", "google-bleu"]


def test_rouge_rows_carry_the_counts_and_lengths_each_score_comes_from():
    """Per type, the row says what the reported P, R and F are computed from (the kept reference's overlap, the
    candidate and reference totals, or the pooled sums) and how many tokens each text has: checked against
    rouge-score's own tokenizer and scores."""
    from rouge_score import tokenize as rs_tokenize

    cand = "The cat sat on the mat, purring."
    refs = ["the cat is on the mat", "A cat sat on a mat and purred loudly."]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    rows = {r.id: r.data for r in compare(cand, refs, metric="rouge", types=types).rows}
    live = rouge_scorer.RougeScorer(types).score_multi(refs, cand)
    row = rows["rouge-score"]
    c_len = len(rs_tokenize.tokenize(cand, None))
    assert row["cand_len"] == c_len and row["ref_lens"] == [len(rs_tokenize.tokenize(r, None)) for r in refs]
    for t in types:
        k = row["counts"][t]
        ref = row["chosen_reference"][t]
        assert k["reference"] == ref
        close(k["hits"] / k["cand_total"], live[t].precision, t)
        close(k["hits"] / k["ref_total"], live[t].recall, t)
        n = 2 if t == "rouge2" else 1
        assert k["cand_total"] == c_len - n + 1 and k["ref_total"] == row["ref_lens"][ref] - n + 1
    pooled = rows["rouge155:A"]["counts"]["rouge1"]
    assert pooled["reference"] == "pooled" and pooled["cand_total"] == 2 * rows["rouge155:A"]["cand_len"]
    close(round(pooled["hits"] / pooled["ref_total"], 5), rows["rouge155:A"]["scores"]["rouge1"]["recall"])


def test_rouge_table_shows_counts_and_lengths_per_type():
    from explainer.ui.dialects.view import table_rows

    cmp = compare("The cat sat on the mat", ["the cat is on the mat"], metric="rouge",
                  types=("rouge1", "rouge2", "rougeL", "rougeLsum"))
    recs = {r["implementation"]: r for r in table_rows(cmp)}
    rs = recs["rouge-score"]
    assert rs["rouge1 hits / cand / ref"] == "5 / 6 / 6" and rs["rouge2 hits / cand / ref"] == "3 / 5 / 5"
    assert rs["rougeL hits / cand / ref"] == "5 / 6 / 6"
    assert rs["tokens: candidate / references"] == "6 / 6"
    tb = recs["Textbook"]
    assert tb["rouge1 hits / cand / ref"] == "5 / 6 / 6" and tb["rougeLsum hits / cand / ref"] == "n/a"


def test_multi_bleu_with_no_reference_tokens_reports_what_the_script_prints():
    """ref_len = 0: multi-bleu.perl prints the literal 'BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)'
    and exits 1, whatever the candidate: every golden record of that kind (each script and -lc), the row and the
    statistics equal what it printed, hyp_len = 0 included."""
    from explainer.bleu import score_bleu
    from explainer.bleu.report import stats_dict

    recs = [r for r in golden("bleu/multi_bleu.jsonl") if r["level"] == "segment" and r["status"] == "ok"
            and r["result"]["returncode"] == 1]
    assert len({r["case_id"] for r in recs}) >= 12 and len(recs) >= 36
    with_tokens = 0
    for r in recs:
        res = r["result"]
        opts = {}
        if r["options"]["script"] != "multi-bleu.perl":
            opts["script"] = r["options"]["script"]
        if "-lc" in r["options"]["flags"]:
            opts["lowercase"] = True
        st = stats_dict(score_bleu(r["candidate"], r["references"], dialect="multi-bleu", **opts))
        rows = [x.data for x in compare(r["candidate"], r["references"], metric="bleu").rows
                if x.id == "multi-bleu"] if not opts else []
        for got in [st] + rows:
            assert got["sys_len"] == res["hyp_len"] == 0 and got["ref_len"] == res["ref_len"] == 0, r["case_id"]
            assert got["ratio"] == res["ratio"] and got["bp"] == res["bp"] and got["score"] == res["score"]
            assert [100 * p for p in got["precisions"]] == res["full_precision"]["precisions"], r["case_id"]
            assert got["counts"] == res["matches"] and got["totals"] == res["totals"], r["case_id"]
        with_tokens += res["totals"][0] > 0
    assert with_tokens >= 21      # the 7 cases whose candidate has tokens (x 3 flag sets): hyp_len printed 0


def test_rouge_table_says_where_rouge155_dies():
    from explainer.ui.dialects.view import table_rows

    cmp = compare("a b c", ["a b", ""], metric="rouge", types=("rougeW-1.2", "rouge1"))
    recs = {r["implementation"]: r for r in table_rows(cmp)}
    perl = recs["ROUGE-1.5.5 -f A"]
    assert perl["rougeW-1.2 F"] == "dies" and perl["rougeW-1.2 hits / cand / ref"] == "dies"
    assert cmp.row("rouge155:A").data["counts"]["rougeW-1.2"]["died"].startswith("Illegal division by zero")
    assert recs["rouge-score"]["rougeW-1.2 F"] == "0.7551"      # rouge-score keeps reference 1 (best F)
    from explainer.ui.dialects.view import scores_figure

    labels = dict(zip(scores_figure(cmp).data[0].y, scores_figure(cmp).data[0].text))
    assert labels["ROUGE-1.5.5 -f A"] == "dies" and labels["rouge-score"] == "0.75509"
