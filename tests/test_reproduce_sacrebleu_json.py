"""Issue 33, item 8: sacreBLEU's own JSON output (``sacrebleu … -f json``, as WMT publishes its official numbers)
is readable as the claim of ``reproduce``: the file or its text, one metric or several, one system or several."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from explainer.cli import main
from explainer.dialectcmp.sacrebleu_json import claim_from_sacrebleu_json
from explainer.errors import ExplainerInputError
from tests.corpus_data import make_testset, write_files


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    refs, systems = make_testset(120, 1, 2, seed=33)
    tmp = tmp_path_factory.mktemp("sbjson")
    ref_paths, sys_paths = write_files(tmp, refs, systems)
    return tmp, ref_paths, [p for _, p in sys_paths]


def _sacrebleu_json(ref_paths, hyps, *metrics) -> str:
    return subprocess.run([sys.executable, "-m", "sacrebleu", *ref_paths, "-i", *hyps, "-m", *metrics, "-f", "json"],
                          capture_output=True, text=True, check=True, env={**os.environ, "SACREBLEU_SEED": "12345"}
                          ).stdout


def _reproduce(argv, capsys):
    try:
        rc = main(["reproduce"] + argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def test_sacrebleus_json_file_is_the_claim(files, capsys):
    tmp, ref_paths, hyps = files
    out = _sacrebleu_json(ref_paths, hyps[:1], "bleu", "chrf")
    (tmp / "scores.json").write_text(out, encoding="utf-8")
    want = [f"{x['name']} {x['score']}" for x in json.loads(out)]
    for claim in (str(tmp / "scores.json"), out):
        rc, got, err = _reproduce(["--hyp", hyps[0], "--ref", ref_paths[0], "--claim", claim], capsys)
        assert rc == 0, err
        res = json.loads(got)
        assert res["claim"] == " / ".join(want)
        assert [p["verdict"] for p in res["parts"]] == ["reproduced", "reproduced"]


def test_one_metric_and_several_systems(files):
    tmp, ref_paths, hyps = files
    one = _sacrebleu_json(ref_paths, hyps[:1], "bleu")
    assert claim_from_sacrebleu_json(one) == f"BLEU {json.loads(one)['score']}"
    many = _sacrebleu_json(ref_paths, hyps, "bleu", "chrf")
    rows = json.loads(many)
    got = claim_from_sacrebleu_json(many, system=hyps[1])
    assert got == f"BLEU {rows[1]['BLEU']} / chrF2 {rows[1]['chrF2']}"
    with pytest.raises(ExplainerInputError, match="several systems"):
        claim_from_sacrebleu_json(many)
    for bad in ("{", "[]", '{"name": "BLEU"}', '[{"name": "BLEU", "score": "abc"}]'):
        with pytest.raises(ExplainerInputError):
            claim_from_sacrebleu_json(bad)
