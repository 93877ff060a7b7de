"""Every verdict beside every attack (issue 32, defect 1): each preset's one table has a column for every measure of
every registered family, the numbers are the real packages' (sacreBLEU's BLEU, chrF and TER, rouge-score), and the
verdicts use the same words for every family, in each measure's own direction (TER is an error rate)."""
from __future__ import annotations

import pytest
import sacrebleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU, CHRF, TER

from explainer.attacks.measures import TextScorer, columns, lab_dialects
from explainer.attacks.preset_table import headline_key, preset_table, variant_dialects
from explainer.attacks.presets import PRESETS, evaluate, get_preset
from explainer.attacks.verdicts import Row, build_table
from explainer.families import FAMILIES
from explainer.family import Measure, verdict

TOL = 1e-9


def _real_segment(cand: str, refs: list[str], api: str) -> dict[str, float]:
    """What the real packages say, by column key (the variant's BLEU API, rouge-score's best F, sacreBLEU's chrF2
    and TER)."""
    r = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]).score_multi(refs, cand)
    bleu = sacrebleu.sentence_bleu(cand, refs) if api == "sentence_bleu" else BLEU().corpus_score(
        [cand], [[x] for x in refs])
    return {"bleu:score": bleu.score, "chrf:score": CHRF().sentence_score(cand, refs).score,
            "ter:score": TER().sentence_score(cand, refs).score,
            **{f"rouge:{t}": r[t].fmeasure for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")}}


def _real_corpus(cands, refs) -> dict[str, float]:
    streams = [[r[k] for r in refs] for k in range(len(refs[0]))]
    return {"bleu:score": BLEU().corpus_score(list(cands), streams).score,
            "chrf:score": CHRF().corpus_score(list(cands), streams).score,
            "ter:score": TER().corpus_score(list(cands), streams).score}


@pytest.mark.parametrize("pid", list(PRESETS))
def test_every_family_measure_is_a_column(pid):
    """A column per measure of every registered family (a family registered later appears with no edit)."""
    t = preset_table(pid)
    keys = [c.key for c in t.columns]
    for v in get_preset(pid).variants:
        for name, d in variant_dialects(v).items():
            for m in FAMILIES[name].measures(d):
                assert f"{name}:{m.key}" in keys, (pid, name, m.key)
    assert set(t.verdicts) == set(keys)      # and every column has its verdict


@pytest.mark.parametrize("pid", list(PRESETS))
def test_family_columns_are_the_real_packages_numbers(pid):
    p, t = get_preset(pid), preset_table(pid)
    for i, v in enumerate(p.variants):
        if v.bleu.dialect != "sacrebleu" or v.rouge.dialect != "rouge-score" or v.bleu.given.keys() - {"api"} or \
                v.rouge.given:
            continue          # another dialect or option: checked against its library in test_attacks / test_ui_lab
        row = t.rows[i].values
        if v.is_corpus:
            if v.aggregate != "corpus":
                continue
            real = _real_corpus(v.candidate, [list(r) for r in v.references])
        else:
            real = _real_segment(v.candidate, list(v.references), v.bleu.get("api"))
        for key, want in real.items():
            assert row[key] == pytest.approx(want, abs=TOL), (pid, i, key)


@pytest.mark.parametrize("pid", list(PRESETS))
def test_verdicts_are_the_family_rule_and_agree_with_the_lesson(pid):
    p, t = get_preset(pid), preset_table(pid)
    for c in t.columns:
        if t.kind == "config":
            continue
        j = t.judged[0]
        assert t.verdicts[c.key] == verdict(c.measure, t.rows[0].values[c.key], t.rows[j].values[c.key])
    for m, want in p.story.items():          # the lesson's claims, now read from the one table
        assert t.verdicts[headline_key(m)] == want, (pid, m)
    lab = evaluate(pid)                      # and the lab's own lesson numbers agree with it
    for m in p.headline:
        assert t.verdicts[headline_key(m)] == lab.summary(m), (pid, m)


def test_an_error_rate_is_fooled_when_it_goes_down():
    """TER is an error rate: an attack with a lower TER than the honest text fooled it; one with a higher TER did
    not. BLEU the other way round. The same words for both."""
    ter = Measure("score", "TER", 100.0, False, 1)
    bleu = Measure("score", "BLEU", 100.0, True, 1)
    cols = columns(lab_dialects())
    col_ter = next(c for c in cols if not c.measure.higher_is_better)
    rows = [Row("honest", "honest", {col_ter.key: 40.0}), Row("attack", "attack", {col_ter.key: 30.0}, base=0)]
    assert build_table("attack", [col_ter], rows, (1,)).verdicts[col_ter.key] == "fooled"
    rows[1].values[col_ter.key] = 50.0
    assert build_table("attack", [col_ter], rows, (1,)).verdicts[col_ter.key] == "resisted"
    assert verdict(ter, 40, 30) == verdict(bleu, 30, 40) == "fooled"
    assert verdict(ter, 40, 40) == verdict(bleu, 40, 40) == "tie"


def test_g4_tie_has_the_same_words_for_every_family():
    """Issue 32 defect 6: on G4 chrF said "tie" where BLEU said "✗ fooled (same score)". One rule, one word."""
    t = preset_table("permutation")
    ties = {c.label for c in t.columns if t.verdicts[c.key] == "tie"}
    assert {"BLEU", "ROUGE-1", "ROUGE-2"} <= ties and any(c.family == "chrf" and c.label in ties for c in t.columns)
    assert "(same score)" in t.summary().line()


def test_what_resisted_names_the_contrast_metric():
    """The optimizer's ROUGE-1 salad (G7): BLEU, chrF and TER resisted; ROUGE-1 was fooled."""
    line = preset_table("word-salad").summary().line()
    assert line.startswith("**What resisted:**")
    resisted, fooled = line.split(" · ")[0], line.split(" · ")[1]
    assert "TER" in resisted and "chrF2" in resisted and "BLEU" in resisted and "ROUGE-1" in fooled


def test_g7_brevity_penalty_gets_no_verdict():
    """Issue 32 defect 6: G7 marked the brevity penalty "✗ fooled" (the salad is as long as the reference). A part
    of a metric gets a verdict only where it is the lesson's own number (G2, G3, F4, C6)."""
    t = preset_table("word-salad")
    assert "bleu_bp" not in t.verdicts and "bleu_bp" not in [c.key for c in t.columns]
    assert "bleu_bp" in preset_table("brevity").verdicts


def test_g11_is_a_preference_not_a_trick():
    """Issue 32 defect 6: copying the lead sentence is a legitimate extractive summary; the metrics rate it higher,
    they are not "fooled"."""
    t = preset_table("copy-lead")
    assert t.kind == "preference"
    assert "fooled" not in t.summary().line().lower()
    assert "legitimate" in get_preset("copy-lead").lesson


def test_f2_deltas_compare_texts_scored_against_the_same_reference():
    """Issue 32 defect 6: F2's comparison columns showed deltas against a text scored with another reference."""
    t = preset_table("reference-style")
    assert [r.base for r in t.rows] == [None, 0, None, 2]


def test_lesson_wording_fixed():
    """Issue 32 defect 6: G1's reason, G9's citation, C1's corpus-level figure."""
    g1 = get_preset("repetition").lesson
    assert "both references start with" not in g1 and "There" in g1 and "reference 1" in g1
    g9 = get_preset("concatenate-refs").citation
    assert g9.startswith("Papineni") and "not concatenation" in g9
    assert "1.8 BLEU" in get_preset("tokenizer").lesson and "Post (2018)" in get_preset("tokenizer").lesson


def test_text_scorer_scores_every_family_and_says_why_not():
    refs = ["the storm cut power to thousands of homes and closed several major roads"]
    s = TextScorer(refs)
    got = s.score("several major roads were closed and the storm cut power to thousands of homes")
    assert set(got) == {c.key for c in columns(lab_dialects())}
    assert got["chrf:score"] == pytest.approx(CHRF().sentence_score(
        "several major roads were closed and the storm cut power to thousands of homes", refs).score, abs=TOL)
    long = " ".join(("a b c d e f g h i j " * 60).split()[::-1])
    over = TextScorer(["a b c d e f g h i j " * 60], seconds=0.01).score(long)
    assert over["ter:score"] is None


def test_c5_mean_of_sentence_row_is_the_mean_of_each_segments_score():
    """Issue 32 defect 6: C5's "mean of sentence BLEU" column showed the corpus brevity penalty and counts. Its row
    is now each family's per-segment scores averaged (sacreBLEU's sentence BLEU, chrF2 and TER), with no corpus
    part beside it; a family whose corpus score is that mean anyway says "unchanged", not noise as a change."""
    p, t = get_preset("averaging"), preset_table("averaging")
    v = p.variants[1]
    segs = [_real_segment(c, list(r), "sentence_bleu") for c, r in zip(v.candidate, v.references)]
    for key in ("bleu:score", "chrf:score", "ter:score"):
        assert t.rows[1].values[key] == pytest.approx(sum(s[key] for s in segs) / len(segs), abs=TOL), key
    assert not any(c.key.startswith("bleu_") for c in t.columns)          # no corpus BP or counts
    assert t.verdicts["bleu:score"] == "changed"
    assert t.verdicts["rouge:rouge1"] == "unchanged"
    for c in t.columns:      # the same texts: a float32 model's batch-padding noise is not "changed by the setting"
        if c.measure.resolution:
            assert t.verdicts[c.key] == "unchanged", c.key


def test_a_difference_within_a_measures_resolution_is_a_tie():
    noisy = Measure("sts", "STS", 1.0, True, 4, 1e-6)
    assert verdict(noisy, 0.7968788, 0.7968789) == "tie"
    assert verdict(noisy, 0.7968, 0.7969) == "fooled"
    assert verdict(Measure("score", "BLEU"), 50.0, 50.0 + 1e-9) == "fooled"      # an exact score: any difference
