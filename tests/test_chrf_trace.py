"""The chrF trace: per order every candidate n-gram with its counts (checked against sacreBLEU's own extraction
helpers), clipped matches that add up to the library's statistics, spans in the user's text, the recall misses,
the averaging, the registry and the stated limits."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from sacrebleu.metrics import CHRF
from sacrebleu.metrics.helpers import extract_all_char_ngrams, extract_word_ngrams

from explainer.chrf import (
    DIALECTS,
    MAX_TRACE_CHARS,
    explain_chrf,
    explain_chrf_corpus,
    get_dialect,
    score_chrf,
    score_chrf_corpus,
)
from explainer.errors import ExplainerInputError, TraceTooLarge

H = "The cat sat on the mat (again)."
R = ["The cat is on the mat.", "A cat was sitting on the mat!"]


@pytest.mark.parametrize("opts", [{}, {"word_order": 2, "lowercase": True}, {"whitespace": True}])
def test_every_candidate_ngram_with_counts_per_reference(opts):
    tr = explain_chrf(H, R, **opts)
    m = CHRF(**opts)
    hyp = m._preprocess_segment(H)
    want_h = extract_all_char_ngrams(hyp, m.char_order, m.whitespace)
    want_r = [extract_all_char_ngrams(m._preprocess_segment(r), m.char_order, m.whitespace) for r in R]
    if m.word_order:
        hw = m._remove_punctuation(hyp)
        want_h += [extract_word_ngrams(hw, n) for n in range(1, m.word_order + 1)]
        for k, r in enumerate(R):
            rw = m._remove_punctuation(m._preprocess_segment(r))
            want_r[k] += [extract_word_ngrams(rw, n) for n in range(1, m.word_order + 1)]
    assert len(tr.orders) == len(want_h)
    for i, o in enumerate(tr.orders):
        assert Counter(dict(zip(o.ngrams, o.counts))) == want_h[i]
        for k in range(len(R)):
            assert o.ref_counts[k] == [want_r[k][i][g] for g in o.ngrams]
            assert o.matched[k] == [min(c, want_r[k][i][g]) for g, c in zip(o.ngrams, o.counts)]
            # the clipped matches add up to the library's match statistic against that reference
            assert sum(o.matched[k]) == o.ref_stats[k][2] == tr.reference_stats[k][3 * i + 2]
    assert tr.stats == tr.reference_stats[tr.chosen_reference]


def test_the_best_reference_is_kept_and_its_score_is_the_segment_score():
    tr = explain_chrf(H, R, word_order=2)
    m = CHRF(word_order=2)
    for k, r in enumerate(R):
        assert abs(tr.reference_scores[k] - m.sentence_score(H, [r]).score) <= 1e-9
    assert tr.chosen_reference == max(range(len(R)), key=lambda k: (tr.reference_scores[k], -k))
    assert tr.score == max(tr.reference_scores)


def test_a_tie_keeps_the_first_reference():
    tr = explain_chrf("a b c", ["a b d", "a b d"])
    assert tr.chosen_reference == 0


def test_averaging_effective_order_and_eps():
    # a 2-character candidate has no 3..6-grams: sacreBLEU averages P and R over the orders it has
    tr = explain_chrf("ab", ["abc"])
    c = tr.combination
    assert c.averaging == "effective-order" and c.effective_order == 2
    assert [o.included for o in c.orders] == [True, True, False, False, False, False]
    assert abs(c.avg_precision - sum(o.precision for o in c.orders[:2]) / 2) <= 1e-15
    assert abs(tr.score - CHRF().sentence_score("ab", ["abc"]).score) <= 1e-9
    e = explain_chrf("ab", ["abc"], eps_smoothing=True).combination
    assert e.averaging == "mean-f" and all(o.included for o in e.orders)
    assert abs(e.f_sum - sum(o.f for o in e.orders)) <= 1e-15
    assert abs(e.score - CHRF(eps_smoothing=True).sentence_score("ab", ["abc"]).score) <= 1e-9


def test_sacrebleu_reports_no_candidate_ngrams_for_an_order_without_reference_ngrams():
    tr = explain_chrf("abcdefg", ["abc"])
    o4 = tr.combination.orders[3]
    assert (o4.hyp, o4.ref, o4.match) == (0, 0, 0)       # the candidate has 4 four-grams; sacreBLEU records 0
    assert tr.orders[3].counts and sum(tr.orders[3].counts) == 4
    assert tr.stats == CHRF()._extract_corpus_statistics(["abcdefg"], [["abc"]])[0]


def test_spans_point_into_the_users_text():
    text = "İs  THE cat\there?"
    tr = explain_chrf(text, ["is the cat here"], word_order=2, lowercase=True)
    for i, o in enumerate(tr.orders):
        spans = tr.spans(i)
        assert spans is not None
        for g in o.ngrams:
            assert len(spans[g]) == o.counts[o.ngrams.index(g)]
            for a, b in spans[g]:
                piece = text[a:b]
                if o.kind == "char":
                    assert "".join(piece.lower().split()) == g or piece.lower() != piece
                else:
                    assert "".join(piece.lower().split()) == g.replace(" ", "") or len(piece.lower()) != len(piece)


def test_missed_reference_ngrams_explain_the_recall():
    tr = explain_chrf(H, R)
    for i, o in enumerate(tr.combination.orders):
        missed = tr.missed(i)
        assert o.ref - sum(c - m for _, c, m in missed) == o.match
    d = tr.to_dict()
    json.dumps(d)
    assert d["order_traces"][0]["missed"] == tr.missed(0)
    assert d["score"] == tr.combination.score100


def test_nltk_trace_and_several_references_joined():
    tr = explain_chrf(H, R, dialect="nltk")
    assert len(tr.references) == 1 and tr.references[0].text == " ".join(R)
    assert any("joined" in w.message for w in tr.warnings)
    assert tr.combination.scale == 1.0 and 0 <= tr.score <= 1


def test_corpus_trace_segments_and_full():
    hyps = [H, "A dog.", "x"]
    refs = [R, ["A dog!", "The dog."], ["y"]]
    ct = explain_chrf_corpus(hyps, refs, word_order=2)
    full = explain_chrf_corpus(hyps, refs, word_order=2, full=True)
    st = score_chrf_corpus(hyps, refs, word_order=2)
    assert ct.score == full.score == st.score
    assert full.segment_stats == st.segment_stats and full.chosen_references == st.chosen_references
    assert ct.segment(1).stats == st.segment_stats[1]
    d = full.to_dict(full=True)
    assert len(d["segments"]) == 3
    json.dumps(d)


def test_registry_and_options():
    assert list(DIALECTS) == ["sacrebleu", "nltk"]
    assert get_dialect("sacrebleu", word_order=2) is get_dialect("sacrebleu", word_order=2)
    with pytest.raises(ValueError, match="has no option"):
        get_dialect("sacrebleu", max_len=3)
    with pytest.raises(ValueError, match="min_len <= max_len"):
        get_dialect("nltk", min_len=4, max_len=2)
    with pytest.raises(ValueError, match="char_order must be between"):
        get_dialect("sacrebleu", char_order=0)


def test_bad_input_is_refused_with_a_message():
    with pytest.raises(ExplainerInputError, match="at least one reference"):
        score_chrf("a", [])
    with pytest.raises(ExplainerInputError, match="single string"):
        score_chrf("a", "b")
    with pytest.raises(ExplainerInputError, match="segment 2 has no reference"):
        score_chrf_corpus(["a", "b"], [["a"], []])
    with pytest.raises(TraceTooLarge, match="MAX_TRACE_CHARS"):
        explain_chrf("a" * MAX_TRACE_CHARS, ["b"])


def test_random_texts_trace_equals_statistics():
    rng = random.Random(2)
    for _ in range(100):
        words = ["a", "ab", "b.", "(c", "C", "dd!", "é"]
        h = " ".join(rng.choice(words) for _ in range(rng.randint(0, 8)))
        refs = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 8))) for _ in range(rng.randint(1, 3))]
        opts = {"word_order": rng.choice([0, 2]), "lowercase": rng.random() < 0.5, "whitespace": rng.random() < 0.5}
        assert explain_chrf(h, refs, **opts).stats == score_chrf(h, refs, **opts).stats


def test_view_models_are_the_traces_numbers():
    from explainer.chrf import view

    tr = explain_chrf(H, R, word_order=2)
    rows = view.order_rows(tr)
    assert [r["f"] for r in rows] == [o.f for o in tr.combination.orders]
    assert rows[6]["order"] == "word 1-grams"
    ng = view.ngram_rows(tr, 0)
    assert sum(r["matched"] for r in ng) == tr.stats[2]
    hl = view.highlights(tr, 2)
    assert sum(h["matched"] for h in hl) == tr.stats[3 * 2 + 2]
    assert all(H[h["start"]:h["end"]].replace(" ", "") == h["ngram"] for h in hl)
    k = tr.chosen_reference
    rh = view.highlights(tr, 2, k)
    assert sum(h["matched"] for h in rh) == tr.stats[3 * 2 + 2]
    assert all(R[k][h["start"]:h["end"]].replace(" ", "") == h["ngram"] for h in rh)
    chart = view.prf_chart(tr)
    assert chart["precision"] == [o.precision for o in tr.combination.orders]
    assert view.averaging_steps(tr)[-1]["value"] == tr.score
    assert [r["kept"] for r in view.reference_rows(tr)].count(True) == 1
    sbs = view.side_by_side(H, R)
    assert [r["name"] for r in sbs] == ["chrF2", "chrF2++", "chrF2", "chrF", "chrF"]
    assert [r["id"] for r in sbs][:2] == ["sacrebleu", "sacrebleu:chrf++"]
    assert sbs[0]["score"] == score_chrf(H, R).score
    json.dumps(sbs)


def test_registry_is_lazy_and_dialects_are_read_only():
    """Naming the chrF dialects imports none; scoring with sacreBLEU's imports neither NLTK nor NumPy; a bound
    dialect's options cannot change."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys\nimport explainer.chrf as c\nassert c.dialect_names() == ['sacrebleu', 'nltk']\n"
            "assert 'explainer.chrf.dialect_sacrebleu' not in sys.modules\nc.score_chrf('a b', ['a c'])\n"
            "assert 'nltk' not in sys.modules and 'numpy' not in sys.modules\nprint('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1], capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr
    d = get_dialect("sacrebleu", word_order=2)
    with pytest.raises(TypeError):
        d.options["word_order"] = 0
    assert d.describe()["corpus_rule"] == "sum" and get_dialect("nltk").describe()["scale"] == 1.0


def test_every_chrf_dialects_capabilities_are_well_formed():
    """As tests/test_dialect_value.py checks BLEU's and ROUGE's: the capabilities name the dialect's own options,
    and a Config row gives the bound dialect."""
    from explainer.chrf.dialects import FLAGS
    from explainer.dialectcmp.configs import Config

    for name in DIALECTS:
        cls = DIALECTS[name]
        own = {o.name for o in cls.OPTIONS}
        assert cls.short_label and isinstance(cls.rank, int), name
        assert set(cls.cli_flags) <= set(FLAGS) and set(cls.cli_flags.values()) <= own, name
        assert set(cls.negated_flags) <= set(cls.cli_flags) and set(cls.counting_options) <= own, name
        assert cls.cli_argv({})[:5] == ["chrf", "--jsonl", "-", "--dialect", name]
        d = get_dialect(name)
        assert d.counting_key()[0] == name and d == get_dialect(name) and hash(d) == hash(get_dialect(name))
        assert Config.make("chrf", name, {"beta": 1.0}).bound() == get_dialect(name, beta=1.0)


def test_explain_view_holds_the_traces_numbers():
    from explainer.chrf import view

    tr = explain_chrf(H, R, word_order=2)
    v = view.explain_view(tr)
    assert v.score == tr.score and v.headline.startswith("chrF2++ = ") and v.focus == 1
    assert v.focus_label == "character 2-grams" and len(v.ngrams) == len(tr.orders[1].ngrams)
    assert sum(m["matched"] for m in v.candidate_marks) == tr.stats[3 * 1 + 2]
    nl = view.explain_view(explain_chrf(H, R[:1], dialect="nltk"), focus=0)
    assert nl.headline == f"chrF = {nl.score:.6f}" and nl.focus_label == "character 1-grams"
    with pytest.raises(ValueError, match="out of range"):
        view.explain_view(tr, focus=99)
