"""Which gaming-lab attacks fool chrF: every preset scored with chrF2, chrF2++ (sacreBLEU's numbers, computed here)
and NLTK's chrF, with the lab's verdict rule."""
from __future__ import annotations

import json

from nltk.translate.chrf_score import sentence_chrf
from sacrebleu.metrics import CHRF

from explainer.attacks.chrf_presets import CHRF_METRICS, evaluate_all, verdict_table
from explainer.attacks.presets import PRESETS, get_preset, verdict


def test_every_preset_is_scored_with_the_libraries_numbers():
    results = evaluate_all()
    assert [r.preset_id for r in results] == list(PRESETS)
    for r in results:
        p = get_preset(r.preset_id)
        for v, s in zip(p.variants, r.scores):
            if v.is_corpus:
                if v.aggregate == "sentence_mean":
                    continue
                streams = [[refs[k] for refs in v.references] for k in range(len(v.references[0]))]
                want = CHRF().corpus_score(list(v.candidate), streams).score
            else:
                want = CHRF().sentence_score(v.candidate, list(v.references)).score
                want_pp = CHRF(word_order=2).sentence_score(v.candidate, list(v.references)).score
                assert abs(s["chrfpp"] - want_pp) <= 1e-9
                if len(v.references) == 1:
                    assert abs(s["chrf_nltk"] - 100 * sentence_chrf(v.references[0], v.candidate)) <= 1e-9
            assert abs(s["chrf"] - want) <= 1e-9
        for i, vd in enumerate(r.verdicts):
            for m in (vd and CHRF_METRICS):
                assert vd[m] == verdict(r.kind, r.scores[0][m], r.scores[i][m])


def test_verdict_table_names_what_fools_chrf():
    rows = {r["preset"]: r for r in verdict_table()}
    assert rows["repetition"]["chrF2 (sacreBLEU)"] == "resisted"
    assert rows["stopword-stuffing"]["chrF2 (sacreBLEU)"] == "fooled"
    # NLTK's corpus chrF is the mean of the sentence scores: averaging them changes nothing
    assert rows["averaging"]["chrF (NLTK, β = 3)"] == "unchanged"
    json.dumps([r.to_dict() for r in evaluate_all()])
