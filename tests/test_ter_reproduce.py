"""`reproduce` searches TER claims (issue 29): a claim naming TER is read as TER, a TER computed by the REAL
sacreBLEU with drawn options is found with those options and references, one segment and a corpus, and each
match's command prints its value; TER's options are its search space."""
from __future__ import annotations

import io
import json
import math
import random
import sys
from pathlib import Path

import pytest
from sacrebleu.metrics import TER

from explainer.cli import main
from explainer.dialectcmp.claim import parse_claim
from explainer.dialectcmp.corpus_reproduction import reproduce_corpus
from explainer.dialectcmp.reproduction import reproduce
from explainer.errors import ExplainerInputError

CAND = "The Cat sat on the mat , quickly ."
REFS = ["the cat is sitting on the mat.", "A cat sat on a mat quickly!"]
SAMPLE = Path(__file__).resolve().parent.parent / "explainer" / "corpus" / "samples" / "news-en"


def _cli(argv, stdin: str, capsys, monkeypatch) -> dict:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((stdin + "\n").encode()), encoding="utf-8"))
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out.splitlines()[0])


def test_a_claim_naming_ter_is_read_as_ter():
    for text in ("TER 45.2", "TER = 45.20", "translation edit rate 45.2", "HTER: 45.2"):
        c = parse_claim(text)
        assert c.family == "ter" and c.measures == ("score",), text
    assert parse_claim("45.2", metric="ter").family == "ter"
    assert parse_claim("TER 104.5").value > 100        # an error rate exceeds 100 with more edits than words
    with pytest.raises(ExplainerInputError, match="--metric is bleu"):
        parse_claim("TER 45.2", metric="bleu")
    with pytest.raises(ExplainerInputError, match="both TER and BLEU|both BLEU and TER"):
        parse_claim("BLEU TER 45.2")


def test_a_real_ter_is_found_with_its_options_and_its_command_prints_it(capsys, monkeypatch):
    rng = random.Random(29)
    keys = ("normalized", "no_punct", "asian_support", "case_sensitive")
    for _ in range(6):
        opts = {k: True for k in keys if rng.random() < 0.4}
        subset = rng.choice([(0, 1), (0,), (1,)])
        value = TER(**opts).sentence_score(CAND, [REFS[k] for k in subset]).score
        res = reproduce(CAND, REFS, f"TER {value:.2f}", max_matches=None)
        assert res.claim.family == "ter" and res.verdict in ("reproduced", "unusual"), res.message
        assert all(m.config.family == "ter" for m in res.matches + res.nearest)
        hits = [m for m in res.matches if tuple(m.references) == subset and math.isclose(m.value, value)]
        assert hits, (opts, subset, [(m.description, m.value) for m in res.matches[:5]])
        # the simplest configuration with this value (the drawn one, or one that gives the same number on these
        # texts) is sacreBLEU's TER with its options, and its command prints it
        m = hits[0]
        assert TER(**m.config.opts).sentence_score(CAND, [REFS[k] for k in subset]).score == m.value
        assert _cli(m.argv, m.stdin, capsys, monkeypatch)["score"] == m.value


def test_a_corpus_ter_is_found_from_the_files(tmp_path, capsys):
    n = 60
    hyps = (SAMPLE / "baseline.txt").read_text(encoding="utf-8").splitlines()[:n]
    streams = [(SAMPLE / f"ref.{k}.txt").read_text(encoding="utf-8").splitlines()[:n] for k in (1, 2)]
    refs = [list(x) for x in zip(*streams)]
    value = TER(case_sensitive=True).corpus_score(hyps, streams).score
    paths = []
    for name, lines in (("hyp.txt", hyps), ("r1.txt", streams[0]), ("r2.txt", streams[1])):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(tmp_path / name))
    res = reproduce_corpus(hyps, refs, f"TER {value:.2f}", paths=(paths[0], paths[1:]))
    hit = next(m for m in res.matches if m.config.opts == {"case_sensitive": True} and m.references == [0, 1])
    assert math.isclose(hit.value, value, rel_tol=1e-12)
    assert main(hit.argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[hit.value_path[0]] == hit.value


def test_reproduce_command_with_metric_ter(capsys):
    value = TER().sentence_score(CAND, REFS).score
    rc = main(["reproduce", "--candidate", CAND, "--ref", REFS[0], "--ref", REFS[1], "--claim", f"{value:.1f}",
               "--metric", "ter"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["verdict"] == "reproduced" and d["matches"][0]["dialect"] == "sacrebleu"
    assert d["parsed"]["family"] == "ter"
