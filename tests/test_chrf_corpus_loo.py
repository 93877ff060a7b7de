"""The Corpus page under chrF: the segments that pull the corpus score and the mean of segment scores apart
(leave-one-out, as the BLEU view's chart). Leaving a segment out, the corpus score read off the report's summed
per-segment statistics is sacreBLEU's ``CHRF(...).corpus_score`` on the corpus without that segment, and the mean is
that of the other segments' ``sentence_score`` (computed here with sacreBLEU, on a small corpus with two
references); the page draws the chart under chrF. NLTK's dialect averages per segment (corpus = mean): no chart."""
from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import CHRF

from explainer.corpus.chrf_report import chrf_report
from explainer.corpus.samples import load_sample
from explainer.corpus.testset import TestSet
from tests.ui_driver import BrowserLikeApp

HYPS = ["The cat sat on the mat.", "A dog!", "It rained all day long in the north of the country, said the office.",
        "Hello world", "xyz", "The quick brown fox jumps over the lazy dog near the river bank."]
REFS_A = ["The cat is sitting on the mat.", "The dog barked.", "It rained the whole day in the north, the office said.",
          "Hello, world!", "Nothing matches here at all.", "A quick brown fox jumped over a lazy dog by the river."]
REFS_B = ["A cat sat on a mat.", "A dog.", "Rain fell all day in the country's north, according to the office.",
          "hello world", "abc", "The fast brown fox leaps over the lazy dog near the riverbank."]


@pytest.mark.parametrize("options", [{}, {"word_order": 2}, {"word_order": 2, "eps_smoothing": True},
                                     {"lowercase": True, "whitespace": True}])
def test_leave_one_out_is_corpus_score_without_the_segment(options):
    ts = TestSet([[a, b] for a, b in zip(REFS_A, REFS_B)], [("sys", HYPS)])
    rep = chrf_report(ts, **options)
    cvm = rep.corpus_vs_mean(0, top=len(HYPS))
    m = CHRF(**options)
    sent = [m.sentence_score(h, [a, b]).score for h, a, b in zip(HYPS, REFS_A, REFS_B)]
    corpus = m.corpus_score(HYPS, [REFS_A, REFS_B]).score
    assert abs(cvm["corpus"] - corpus) < 1e-9
    assert abs(cvm["mean_of_sentences"] - sum(sent) / len(sent)) < 1e-9
    rows = {r["segment"]: r for r in cvm["pulling_apart"]}
    assert sorted(rows) == list(range(1, len(HYPS) + 1))
    for k in range(len(HYPS)):
        keep = [j for j in range(len(HYPS)) if j != k]
        without = m.corpus_score([HYPS[j] for j in keep], [[REFS_A[j] for j in keep], [REFS_B[j] for j in keep]])
        mean_without = sum(sent[j] for j in keep) / len(keep)
        r = rows[k + 1]
        assert abs(r["corpus_without"] - without.score) < 1e-9, (k, options)
        assert abs(r["mean_without"] - mean_without) < 1e-9
        assert abs(r["influence"] - ((corpus - sum(sent) / len(sent)) - (without.score - mean_without))) < 1e-9
        assert abs(r["sentence_score"] - sent[k]) < 1e-9
    # largest influence first
    inf = [abs(r["influence"]) for r in cvm["pulling_apart"]]
    assert inf == sorted(inf, reverse=True)


def test_nltk_dialect_has_no_leave_one_out():
    ts = TestSet([[a, b] for a, b in zip(REFS_A, REFS_B)], [("sys", HYPS)])
    assert "pulling_apart" not in chrf_report(ts, dialect="nltk").corpus_vs_mean(0)


def test_the_page_draws_the_chart_under_chrf():
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf"}, page="corpus")
    app.at.session_state["cp_sec_corpus_vs_mean"] = True      # the section drawn while it is open
    app.run()
    assert not app.exceptions
    specs = [json.loads(c.proto.spec) for c in app.at.get("plotly_chart")]
    bars = [s for s in specs if "pull corpus and mean apart" in json.dumps(s.get("layout", {}).get("title", ""))]
    assert len(bars) == 1
    ts = load_sample("news-en")
    name = app.at.selectbox(key="cp_system").value
    rep = chrf_report(ts)
    cvm = rep.corpus_vs_mean(list(ts.names).index(name))
    got = bars[0]["data"][0]["customdata"][::-1]
    assert [c[0] for c in got] == [r["segment"] for r in cvm["pulling_apart"]]
    assert [c[3] for c in got] == pytest.approx([r["corpus_without"] for r in cvm["pulling_apart"]], abs=1e-9)
