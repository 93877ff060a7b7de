"""The Corpus page's permalink (explainer.ui.corpus.link), without Streamlit: what the page writes reads back as the
same view; every value a stranger can type is bounded and refused with a sentence."""
from __future__ import annotations

import pytest

from explainer.corpus.samples import SAMPLES, load_sample
from explainer.corpus.significance import MAX_RESAMPLES
from explainer.families import FAMILIES
from explainer.ui import settings as ms
from explainer.ui.corpus import link as cl

MAX_CELLS = 20_000_000


def info(sid):
    ts = load_sample(sid)
    return list(ts.names), ts.n_segments


def parse(params):
    return cl.parse_link({k: [v] if isinstance(v, str) else v for k, v in params.items()}, samples=SAMPLES,
                         sample_info=info, max_n=MAX_RESAMPLES, max_cells=MAX_CELLS)


@pytest.mark.parametrize("view", [
    dict(sample="news-en", metric="bleu", baseline="new-model", system="small-model", seg=42, seg_system="baseline",
         test="ar", n=500),
    dict(sample="news-zh", metric="bleu", baseline="system-a", system="system-b", seg=200, test="bs", n=1000),
    dict(sample="news-en", metric="rouge", baseline="baseline", system="new-model", seg=1, measure="rougeL",
         agg={"seed": 7, "aggregate": "mean"}),
    dict(metric="rouge", measure="rouge2"),
    dict(sample="news-en", metric="ter", also=["bleu", "chrf"], analysis="Largest deltas", seg=7),
    dict(metric="chrf", also=["ter"]),
])
def test_what_the_page_writes_reads_back(view):
    s = ms.default_settings()
    settings = s.replace(s["bleu"].replace(lowercase=True, tokenize="intl"))
    params = cl.link_params(settings=settings, **view)
    link = parse(params)
    assert link.warnings == []
    assert link.settings == settings
    for k, v in view.items():
        if k == "seg_system" or (k == "n" and v == cl.DEFAULT_N[view["test"]]):
            continue
        assert getattr(link, k) == v, k
    assert link.seg_system == view.get("seg_system")


def test_a_link_without_a_sample_names_no_system_or_segment():
    params = cl.link_params(settings=ms.default_settings(), metric="bleu", baseline="mine", system="theirs", seg=3,
                            test="ar", n=5)
    assert not {"sample", "baseline", "system", "seg", "test", "n"} & set(params)
    assert params["metric"] == "bleu" and params["bleu_dialect"] == "sacrebleu"


def test_rouge155_float_and_int_aggregation_options_round_trip():
    settings = ms.default_settings().replace(ms.settings_from_params({"rouge_dialect": "rouge155"})[0]["rouge"])
    params = cl.link_params(settings=settings, metric="rouge", agg={"confidence": 90.0, "resamples": 200,
                                                                    "counting": "0"})
    assert params["agg_confidence"] == "90.0" and params["agg_resamples"] == "200" and "agg_counting" not in params
    link = parse(params)
    assert link.agg == {"confidence": 90.0, "resamples": 200} and link.warnings == []


@pytest.mark.parametrize("params,needle", [
    ({"sample": "news-en", "seg": "301"}, "“seg=301” is not a segment of this sample (1–300)"),
    ({"sample": "news-en", "seg": "-1"}, "“seg=-1” is not a segment"),
    ({"sample": "news-en", "seg": "4" * 10}, "is not a segment"),
    ({"sample": "news-en", "seg": "٣"}, "is not a segment"),                 # a digit, but not an ASCII one
    ({"seg": "3"}, "“seg=…” needs a sample in the link"),
    ({"baseline": "baseline"}, "“baseline=…” needs a sample in the link"),
    ({"sample": "news-en", "n": "0"}, "“n=0” is not a number of resamples the page runs (1–10,000)"),
    # AR trials: bounded by the page's draws per test (20,000,000 / 300 segments)
    ({"sample": "news-en", "test": "ar", "n": "100000"}, "(1–66,666); using 10,000"),
    ({"sample": "nope"}, "The link asks for the sample “nope”, which does not exist"),
    ({"metric": "BLEU!"}, "“metric=BLEU!” is not " + ", ".join(FAMILIES.names()[:-1]) + " or " +
     FAMILIES.names()[-1]),
    ({"also": "chrf,nosuch"}, "“also”: nosuch is not one of " + ", ".join(FAMILIES) + "; ignored."),
    ({"metric": "rouge", "agg_seed": "-3"}, "“agg_seed=-3” is not a value of seed"),
    ({"metric": "rouge", "agg_seed": "1" * 200},
     "“agg_seed=1111111111111111111111111111111111111111…” has more than 18 digits"),
    ({"metric": "rouge", "agg_nothing": "1"}, "“agg_nothing” is not a corpus option of rouge-score"),
    ({"agg_seed": "7"}, "“agg_seed” is not a corpus option of sacrebleu"),
    ({"metric": "rouge", "rouge_types": "rouge1", "rouge_type": "rougeL"},
     "“rouge_type=rougeL” is not one of the link's ROUGE measures (rouge1)"),
    ({"metric": "rouge", "rouge_types": "rouge1", "measure": "rougeL"},
     "“measure=rougeL” is not one of the link's ROUGE measures (rouge1)"),
    ({"metric": "rouge", "rouge_dialect": "rouge155", "agg_confidence": "inf"},
     "“agg_confidence=inf” is not a value of confidence"),
    ({"candidate": "some text", "ref": "x"}, "“candidate”, “ref” mean nothing on this page; they were dropped"),
])
def test_bad_values_are_refused_with_a_sentence(params, needle):
    link = parse(params)
    assert any(needle in w for w in link.warnings), link.warnings


def test_every_value_is_bounded_before_it_is_used():
    huge = "7" * 100_000
    link = parse({k: huge for k in cl.PAGE_PARAMS})
    assert all(getattr(link, k) is None for k in ("sample", "metric", "baseline", "system", "seg", "test", "n",
                                                  "measure", "analysis"))
    assert sum("100,000 characters) is too long" in w for w in link.warnings) == len(cl.PAGE_PARAMS)
    assert max(len(w) for w in link.warnings) < 200
    link = parse({f"p{k}": "x" for k in range(5000)})
    assert len(link.warnings) == 1 and "and 4,995 more" in link.warnings[0]
