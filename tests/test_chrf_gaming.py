"""Which gaming-lab attacks fool chrF: chrF is a column of every preset's one table (issue 32: no longer a
separate grid), with sacreBLEU's chrF2 numbers (computed here with the real package) and the lab's verdict rule,
the same as every other family's."""
from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import CHRF

from explainer.attacks.preset_table import all_summaries, preset_table
from explainer.attacks.presets import PRESETS, get_preset
from explainer.family import verdict


def _chrf(t):
    return next(c for c in t.columns if c.family == "chrf")


@pytest.mark.parametrize("pid", list(PRESETS))
def test_every_preset_is_scored_with_the_librarys_chrf(pid):
    p, t = get_preset(pid), preset_table(pid)
    col = _chrf(t)
    assert col.label == "chrF2"
    for v, row in zip(p.variants, t.rows):
        if v.is_corpus:
            refs = [list(r) for r in v.references]
            if v.aggregate == "sentence_mean":   # the mean of the segments' own chrF2
                want = sum(CHRF().sentence_score(c, r).score for c, r in zip(v.candidate, refs)) / len(refs)
            else:
                streams = [[r[k] for r in refs] for k in range(len(refs[0]))]
                want = CHRF().corpus_score(list(v.candidate), streams).score
        else:
            want = CHRF().sentence_score(v.candidate, list(v.references)).score
        assert row.values[col.key] == pytest.approx(want, abs=1e-9), (pid, v.label)
    if t.kind != "config":
        j = t.judged[0]
        assert t.verdicts[col.key] == verdict(col.measure, t.rows[0].values[col.key], t.rows[j].values[col.key])


def test_what_fools_chrf():
    rows = {r["preset"]: r for r in all_summaries()}
    assert rows["repetition"]["chrF2"] == "resisted"
    assert rows["stopword-stuffing"]["chrF2"] == "fooled"
    assert rows["permutation"]["chrF2"] == "tie"          # the same score: fooled, as BLEU is
    # corpus chrF sums the statistics: averaging sentence chrF is another number
    assert rows["averaging"]["chrF2"] == "changed"
    json.dumps([preset_table(pid).to_dict() for pid in PRESETS])
