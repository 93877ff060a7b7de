"""Issue 32's defects of the Gaming lab's core: generators (5), wording (6), bounded sweeps (2) and Mathur et
al.'s outlier demonstration, each checked against the reference it names (sacreBLEU, scipy)."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import sacrebleu
from scipy.stats import pearsonr

from explainer.attacks import generators as G
from explainer.attacks import outliers as ol
from explainer.attacks.measures import TextScorer
from explainer.attacks.sweeps import plan_repetitions, plan_shuffle, run_sweep, sweep_repetitions

NEWS = ("The company, which runs 2,000 low-cost stores across the country, is expanding into three new markets "
        "this year.")


# ------------------------------------------------------------------------------------------- generators (5)
def test_stitch_with_one_reference_generates_nothing():
    """It warned "needs at least two non-empty references" and still showed the reference itself as the result
    (BLEU 100.0, +97.0)."""
    g = G.stitch_references(["a fire destroyed a warehouse in the port on sunday night"])
    assert not g.changed and g.text == "" and "1 reference given" in g.note
    g = G.run_generator("stitch", "my candidate", ["a fire destroyed a warehouse", "   "])
    assert not g.changed and g.text == ""


def test_negation_changes_only_the_negation():
    """It retokenised unrelated words ("2,000 low-cost" -> "2, 000 low - cost", 36 -> 41 tokens), so the delta
    was not the effect of "not"."""
    g = G.insert_negation(NEWS)
    assert g.changed and "2,000 low-cost" in g.text
    assert g.text.replace(" not", "", 1) == NEWS
    tok = sacrebleu.metrics.bleu._get_tokenizer("13a")()
    assert len(tok(g.text).split()) == len(tok(NEWS).split()) + 1
    back = G.insert_negation(g.text)          # and removing it gives the text back, character for character
    assert back.text == NEWS
    plain = G.insert_negation("Prices of 2,000 low-cost items rose.")   # no auxiliary: only the prefix is new
    assert plain.text == "It is not true that prices of 2,000 low-cost items rose."


def test_repeat_a_word_keeps_the_case_sacrebleu_matches():
    """It lowercased its default word: 'the' × 7 against a reference that starts with "The" (case-sensitive
    sacreBLEU never finds it: "BLEU clips it at 0")."""
    refs = ["The Minister said so. The end."]
    g = G.repeat_word("a b c", refs)
    assert g.details["word"] == "The" and g.details["clip"] == 2
    counts = sacrebleu.sentence_bleu(g.text, refs).counts
    assert counts[0] == 2                     # sacreBLEU itself matches two of them
    g1 = G.repeat_word("a b c", ["The cat is on the mat.", "There is a cat on the mat."])
    assert g1.details["word"] == "the" and g1.details["clip"] == 1   # Papineni's word, as sacreBLEU counts it


def test_notes_count_in_words():
    """"1 words"."""
    assert "1 word;" in G.truncate("one", 5).note
    assert "2 words" in G.truncate("one two", 5).note


# -------------------------------------------------------------------------------------------------- sweeps (2)
def test_repetitions_sweep():
    """A knob for the number of repeated words (the workaround's x axis said "candidate length")."""
    refs = ["The cat is on the mat.", "There is a cat on the mat."]
    sw = sweep_repetitions("", refs, max_n=8)
    assert sw.x == list(range(1, 9)) and "repeated" in sw.knob_label
    for n, text, bleu in zip(sw.x, sw.texts, sw.values["bleu:score"]):
        assert text.split() == ["the"] * n
        assert bleu == pytest.approx(sacrebleu.sentence_bleu(text, refs).score, abs=1e-9)
    assert plan_repetitions("", refs, word="mat").texts[2] == ("mat mat mat",)


def test_a_sweep_on_5000_characters_shows_progress_and_stops_within_half_a_second():
    """A 4,797-character candidate with 50 shuffles per point froze the page for 22.7 s with no progress and no
    Stop. The run reports its progress between any two scores and stops there: Stop pressed while it runs ends it
    within 0.5 s (here: a flag set from another thread, checked by the progress callback as the page's is)."""
    words = ("officials said the storm knocked out power for thousands of homes on friday night and shut many "
             "major roads across the north of the country while rescue teams worked through the weekend").split()
    cand = " ".join(words * 40)[:5000]
    refs = [" ".join(words * 38)[:4800]]
    plan = plan_shuffle(cand, refs, trials=50)
    assert len(cand) == 5000 and plan.units == 11 * 50
    TextScorer(refs).score(words[0])     # a family's model loads once per process (the semantic one): not timed
    stop, seen, stopped_at = threading.Event(), [], []

    class Stopped(Exception):
        pass

    def tick(done, total):
        seen.append((done, total))
        if stop.is_set():
            stopped_at.append(time.perf_counter())
            raise Stopped

    threading.Timer(2.0, stop.set).start()
    t_set = time.perf_counter() + 2.0
    with pytest.raises(Stopped):
        run_sweep(plan, tick=tick)
    assert seen and seen[-1][1] == plan.units and len(seen) > 3          # progress was reported as it ran
    print(f"stopped {stopped_at[0] - t_set:.3f} s after Stop; {len(seen)} ticks")
    assert stopped_at[0] - t_set <= 0.5, stopped_at[0] - t_set


def test_a_sweep_keeps_its_points_and_continues_after_its_time_limit():
    refs = ["the cat sat on the mat"]
    plan = plan_repetitions("", refs, max_n=6)
    ticks = iter(range(10_000))
    part = run_sweep(plan, time_limit=3.5, clock=lambda: next(ticks) * 1.0)   # a clock that moves 1 s per read
    assert part.stopped == "time limit" and 0 < part.done < len(plan.x)
    rest = run_sweep(plan, start=part, time_limit=float("inf"))
    assert rest.complete and rest.x == list(plan.x)
    assert rest.values == run_sweep(plan, time_limit=float("inf")).values


# ------------------------------------------------------------------------------------ Mathur et al. 2020
def _mad_outliers(h):
    """Mathur et al.'s own rule (their outliers/outliers.py), with numpy."""
    h = np.asarray(h)
    med = np.median(h)
    return abs(h - med) / (np.median(abs(h - med)) * 1.4826) > 2.5


@pytest.mark.parametrize("lp", ol.pairs())
def test_correlations_are_scipys(lp):
    for metric in ol.METRICS:
        c = ol.correlation(lp, metric)
        h = [s.human for s in c.systems]
        x = [s.scores[metric] for s in c.systems]
        assert c.r_all == pytest.approx(pearsonr(x, h)[0], abs=1e-12)
        flagged = _mad_outliers(h)
        assert list(c.outliers) == [s.name for s, f in zip(c.systems, flagged) if f]
        keep = [i for i, f in enumerate(flagged) if not f]
        assert c.r_kept == pytest.approx(pearsonr([x[i] for i in keep], [h[i] for i in keep])[0], abs=1e-12)


def test_one_outlier_changes_the_correlation():
    """The default demonstration: WMT19 German→Czech, one system (CAiRE) flagged by the paper's rule; without it
    BLEU's Pearson r with the human scores falls by more than 0.1."""
    c = ol.correlation()
    assert c.lp == "de-cs" and c.outliers == ("CAiRE.6949",) and len(c.systems) == 11
    assert c.r_all - c.r_kept > 0.1
    x = [s.scores["sacrebleu_bleu"] for s in c.systems]
    h = [s.human for s in c.systems]
    i = [s.name for s in c.systems].index("CAiRE.6949")
    assert c.leave_one_out["CAiRE.6949"] == pytest.approx(pearsonr(x[:i] + x[i + 1:], h[:i] + h[i + 1:])[0],
                                                          abs=1e-12)
    assert ol.correlation("de-cs", left_out=[]).r_kept == pytest.approx(c.r_all, abs=1e-15)


def test_the_bundled_table_is_what_its_readme_says():
    from pathlib import Path

    lines = ol.DATA.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "lp\tsystem\thuman_z\tsacrebleu_bleu\tsacrebleu_chrf" and len(lines) == 226
    assert len(ol.pairs()) == 18
    readme = (Path(ol.DATA).parent / "README.md").read_text(encoding="utf-8")
    assert "225 systems" in readme and "1d50a33968ea414823ee61b3ef633f2e3afc478c" in readme and "Licence" in readme
