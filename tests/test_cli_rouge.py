"""`python -m explainer rouge`: JSONL segments, corpus files, one-line errors with a non-zero exit."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from rouge_score import rouge_scorer

from explainer.cli import main
from explainer.rouge import explain_rouge
from tests.conftest import ROOT, golden


def _run(argv, capsys):
    rc = main(["rouge"] + argv)
    out, err = capsys.readouterr()
    return rc, out, err


def test_jsonl_scores_match_rouge_score(tmp_path, capsys):
    segs = [{"candidate": "the cat is on the mat\nit sat", "references": ["there is a cat on the mat", "a cat sat"]},
            {"candidate": "running dogs", "reference": "the dog runs"}]
    f = tmp_path / "in.jsonl"
    f.write_text("\n".join(json.dumps(s) for s in segs) + "\n", encoding="utf-8")
    rc, out, err = _run(["--jsonl", str(f), "--stem", "--types", "rouge1,rouge2,rougeL,rougeLsum"], capsys)
    assert rc == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 2
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
    want = [scorer.score_multi(segs[0]["references"], segs[0]["candidate"]),
            scorer.score(segs[1]["reference"], segs[1]["candidate"])]
    for got, w in zip(lines, want):
        assert set(got) == {"rouge1", "rouge2", "rougeL", "rougeLsum"}
        for t, s in w.items():
            assert (got[t]["precision"], got[t]["recall"], got[t]["fmeasure"]) == pytest.approx(tuple(s), abs=1e-9)


def test_jsonl_full_trace_and_multi_ref(tmp_path, capsys):
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps({"candidate": "a b c", "references": ["a b", "b c d"]}) + "\n", encoding="utf-8")
    rc, out, _ = _run(["--jsonl", str(f), "--full", "--multi-ref", "pool", "--types", "rouge1,rougeSU4"], capsys)
    assert rc == 0
    d = json.loads(out)
    assert d["kind"] == "rouge" and d["multi_ref"] == "pool" and d["chosen_reference"]["rouge1"] is None
    assert d["pooled"]["rouge1"]["hits"] == 4


@pytest.mark.parametrize("stem", [False, True])
def test_jsonl_corpus_hf_golden(tmp_path, capsys, stem):
    recs = [r for r in golden("rouge/hf_evaluate.jsonl")
            if r["level"] == "corpus" and r["options"]["use_aggregator"] and r["options"]["use_stemmer"] is stem]
    assert len(recs) == 5
    for rec in recs:
        f = tmp_path / "c.jsonl"
        f.write_text("".join(json.dumps({"candidate": c, "references": r}) + "\n"
                             for c, r in zip(rec["candidates"], rec["references"])), encoding="utf-8")
        rc, out, err = _run(["--jsonl", str(f), "--corpus", "--dialect", "hf-evaluate"] + (["--stem"] if stem else []),
                            capsys)
        assert rc == 0, err
        d = json.loads(out)
        for t, v in rec["result"].items():
            assert d["reported"][t] == pytest.approx(v, abs=1e-9)
        assert "MEDIAN" in d["aggregation"]["note"]


def test_corpus_mean_and_option(tmp_path, capsys):
    hyp, ref = tmp_path / "h", tmp_path / "r"
    hyp.write_text("a b\nc d\n", encoding="utf-8")
    ref.write_text("a b\nc e\n", encoding="utf-8")
    rc, out, _ = _run(["--hyp", str(hyp), "--ref", str(ref), "--types", "rouge1", "-o", "aggregate=mean"], capsys)
    assert rc == 0
    d = json.loads(out)
    assert d["aggregate"]["rouge1"]["recall"] == pytest.approx(0.75, abs=1e-9)


@pytest.mark.parametrize("content,argv_extra,msg", [
    ("{bad\n", [], "line 1: invalid JSON"),
    ('{"candidate": "a"}\n', [], "line 1: 'references'"),
    ('{"candidate": 3, "references": ["a"]}\n', [], "'candidate' must be a string"),
    ('{"candidate": "a", "references": ["a"]}\n', ["--types", "rouge10"], "invalid ROUGE type"),
    ('{"candidate": "a", "references": ["a"]}\n', ["--dialect", "nope"], "unknown ROUGE dialect"),
    ('{"candidate": "a", "references": ["a"]}\n', ["-o", "nonsense"], "KEY=VALUE"),
])
def test_jsonl_errors_are_one_line(tmp_path, capsys, content, argv_extra, msg):
    f = tmp_path / "in.jsonl"
    f.write_text(content, encoding="utf-8")
    rc, out, err = _run(["--jsonl", str(f)] + argv_extra, capsys)
    assert rc != 0
    assert msg in err and err.count("\n") == 1 and "Traceback" not in err


def test_file_errors(tmp_path, capsys):
    rc, _, err = _run(["--jsonl", str(tmp_path / "missing.jsonl")], capsys)
    assert rc == 2 and "cannot read" in err
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("café\n".encode("latin-1"))
    ref = tmp_path / "ref.txt"
    ref.write_text("a\nb\n", encoding="utf-8")
    rc, _, err = _run(["--hyp", str(bad), "--ref", str(ref)], capsys)
    assert rc == 2 and "line 1 is not valid UTF-8" in err
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\n", encoding="utf-8")
    rc, _, err = _run(["--hyp", str(hyp), "--ref", str(ref)], capsys)
    assert rc == 2 and "has 1 line but" in err
    rc, _, err = _run(["--hyp", str(hyp)], capsys)
    assert rc == 2 and "--ref" in err


def test_module_entry_point_subprocess():
    p = subprocess.run([sys.executable, "-m", "explainer", "rouge", "--jsonl", "-"], cwd=ROOT,
                       input='{"candidate": "the cat", "references": ["the cat sat"]}\n',
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["rouge1"]["recall"] == pytest.approx(2 / 3, abs=1e-9)


def test_corpus_options_from_the_command_line_are_typed(tmp_path, capsys):
    """`-o seed=7` / `-o use_aggregator=false` arrive as strings; they must mean what they say (a string seed
    crashed NumPy, and the string "false" was truthy, so the aggregator silently stayed on)."""
    import numpy as np
    from rouge_score import scoring

    cands = ["the cat sat on the mat", "a dog ran in the park", "news of the day", "it was a good day"]
    refs = ["the cat is on the mat", "the dog runs in a park", "the news today", "a very good day it was"]
    f = tmp_path / "c.jsonl"
    f.write_text("".join(json.dumps({"candidate": c, "references": [r]}) + "\n" for c, r in zip(cands, refs)),
                 encoding="utf-8")
    base = ["--jsonl", str(f), "--corpus", "--dialect", "hf-evaluate", "--types", "rouge1,rougeL"]
    rc, out, err = _run(base + ["-o", "seed=7"], capsys)
    assert rc == 0, err
    got = json.loads(out)["reported"]
    # the real thing: HF evaluate reseeds NumPy's legacy global RNG, then rouge-score's BootstrapAggregator
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"])
    np.random.seed(7)
    agg = scoring.BootstrapAggregator()
    for c, r in zip(cands, refs):
        agg.add_scores(scorer.score_multi([r], c))
    want = agg.aggregate()
    for t in ("rouge1", "rougeL"):
        assert got[t] == pytest.approx(want[t].mid.fmeasure, abs=1e-12)

    rc, out, err = _run(base + ["-o", "use_aggregator=false"], capsys)
    assert rc == 0, err
    got = json.loads(out)["reported"]
    assert got["rouge1"] == pytest.approx([scorer.score(r, c)["rouge1"].fmeasure for c, r in zip(cands, refs)],
                                          abs=1e-12)

    rc, out, err = _run(base + ["-o", "seed=abc"], capsys)
    assert rc == 2 and "seed expects an integer" in err and err.count("\n") == 1


def test_unexpected_error_is_one_line_not_a_traceback(tmp_path, capsys, monkeypatch):
    import explainer.rouge

    def boom(*a, **k):
        raise TypeError("simulated bug")

    monkeypatch.setattr(explainer.rouge, "score_rouge", boom)
    f = tmp_path / "in.jsonl"
    f.write_text('{"candidate": "a", "references": ["a"]}\n', encoding="utf-8")
    rc, out, err = _run(["--jsonl", str(f)], capsys)
    assert rc == 3 and out == ""
    assert "internal error (TypeError: simulated bug)" in err and err.count("\n") == 1 and "Traceback" not in err


def test_rouge_w_weight_errors_are_user_errors(tmp_path, capsys):
    """rougeW-150 overflowed a double and the CLI reported it as an internal error (exit 3)."""
    f = tmp_path / "in.jsonl"
    text = " ".join(f"w{i}" for i in range(400))
    f.write_text(json.dumps({"candidate": text, "references": [text]}) + "\n", encoding="utf-8")
    rc, out, err = _run(["--jsonl", str(f), "--types", "rougeW-150"], capsys)
    assert rc == 2 and out == "" and "internal error" not in err
    assert "weight 150 is too large" in err and err.count("\n") == 1


def test_textbook_dialect_runs_with_its_default_types(tmp_path, capsys):
    """`--dialect textbook` without --types said the dialect defines only ROUGE-N and ROUGE-L, not rougeLsum."""
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps({"candidate": "a b", "references": ["a b"]}) + "\n", encoding="utf-8")
    rc, out, err = _run(["--jsonl", str(f), "--dialect", "textbook"], capsys)
    assert rc == 0, err
    want = explain_rouge("a b", ["a b"], dialect="textbook", types=["rouge1", "rouge2", "rougeL"])
    assert json.loads(out) == {t: s.to_dict() for t, s in want.scores.items()}
    rc, out, err = _run(["--jsonl", str(f), "--dialect", "textbook", "--corpus"], capsys)
    assert rc == 0, err
    assert json.loads(out)["types"] == ["rouge1", "rouge2", "rougeL"]
    rc, out, err = _run(["--jsonl", str(f)], capsys)
    assert rc == 0 and list(json.loads(out)) == ["rouge1", "rouge2", "rougeL", "rougeLsum"]


@pytest.mark.parametrize("argv_extra,msg", [
    (["--types", "rouge10"], "invalid ROUGE type 'rouge10'"),
    (["--dialect", "nope"], "unknown ROUGE dialect"),
    (["--dialect", "textbook", "--types", "rougeLsum"], "only ROUGE-N and ROUGE-L"),
    (["-o", "bogus=1"], "no option 'bogus'"),
    (["-o", "use_stemmer=maybe"], "expects true/false"),
    (["-o", "seed=4"], "seed of the rouge-score dialect applies only to a corpus"),
    (["--dialect", "rouge155", "--multi-ref", "best-f"], "multi_ref must be one of"),
])
def test_option_errors_concern_no_line_and_come_before_the_input(tmp_path, capsys, argv_extra, msg):
    """Dialect, type and option errors were reported as "line 1: ..." (and only once a line was read): they are
    checked once, before the input is read, and carry no line number."""
    f = tmp_path / "in.jsonl"
    f.write_text('{"candidate": "a", "references": ["a"]}\n', encoding="utf-8")
    for source in (["--jsonl", str(f)], ["--jsonl", str(tmp_path / "missing.jsonl")],
                   ["--hyp", str(tmp_path / "missing.txt"), "--ref", str(tmp_path / "missing.txt")]):
        if "seed=4" in argv_extra and source[0] == "--hyp":
            continue  # a corpus option is fine in corpus mode
        rc, out, err = _run(source + argv_extra, capsys)
        assert rc == 2 and out == ""
        assert msg in err and "line 1" not in err and "cannot read" not in err, err
        assert err.count("\n") == 1


def test_corpus_option_in_corpus_mode_is_fine_and_line_errors_keep_their_line(tmp_path, capsys):
    f = tmp_path / "in.jsonl"
    f.write_text('{"candidate": "a", "references": ["a"]}\n{"candidate": "b"}\n', encoding="utf-8")
    rc, out, err = _run(["--jsonl", str(f), "-o", "seed=4"], capsys)
    assert rc == 2 and "applies only to a corpus" in err
    rc, out, err = _run(["--jsonl", str(f)], capsys)
    assert rc == 2 and "line 2: 'references'" in err
    g = tmp_path / "ok.jsonl"
    g.write_text('{"candidate": "a", "references": ["a"]}\n', encoding="utf-8")
    rc, out, err = _run(["--jsonl", str(g), "--corpus", "-o", "seed=4", "--types", "rouge1"], capsys)
    assert rc == 0, err
    assert json.loads(out)["aggregation"]["seed"] == 4
