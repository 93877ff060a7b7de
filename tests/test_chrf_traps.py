"""chrF's classic traps (explainer.traps, issue 23): settings other than sacreBLEU's CHRF() — chrF++ under the name
chrF, β other than 2, lowercase, whitespace kept, NLTK's chrf_score (β = 3, mean of segments, 0-1) — named with the
score of the texts under both, each number the library's own (computed here with sacreBLEU and NLTK); the generic
reference traps hold for chrF too; the Explain and Corpus pages show them, escaped."""
from __future__ import annotations

import pytest
from nltk.translate.chrf_score import corpus_chrf, sentence_chrf
from sacrebleu.metrics import CHRF
from streamlit.testing.v1 import AppTest

from explainer.traps import page_traps
from explainer.ui import highlight as hl
from explainer.ui import traps_view
from explainer.ui.settings import MetricSettings, choice_for
from tests.conftest import ROOT
from tests.ui_driver import BrowserLikeApp

HYPS = ["The Council approved the Budget on Monday.", "Prices rose by 3 percent in March, the office said.",
        "He said that the new law will come into force next year.", "THE TEAM WON THE MATCH.",
        "Rain is expected in the north tomorrow."]
REFS_A = ["The council approved the budget on Monday.", "Prices went up 3% in March, according to the office.",
          "The new law takes effect next year, he said.", "The team won the match.",
          "Rain is forecast for the north tomorrow."]
REFS_B = ["On Monday the council passed the budget.", "In March prices rose three percent, the office said.",
          "He said the new law would apply from next year.", "The team has won the game.",
          "Tomorrow rain is expected in northern areas."]
REFS = [[a, b] for a, b in zip(REFS_A, REFS_B)]
PREFIX = "Before you read the numbers: "


def _variant(traps):
    found = [t for t in traps if t["code"] == "chrf-variant"]
    assert len(found) <= 1
    return found[0] if found else None


def test_chrf2_itself_is_no_trap():
    assert _variant(page_traps("chrf", HYPS, REFS, "sacrebleu")) is None


@pytest.mark.parametrize("options", [{"word_order": 2}, {"beta": 1.0}, {"beta": 3.0}, {"lowercase": True},
                                     {"whitespace": True}, {"char_order": 4}, {"eps_smoothing": True}])
def test_sacrebleu_settings_other_than_chrf2_give_both_scores(options):
    t = _variant(page_traps("chrf", HYPS, REFS, "sacrebleu", **options))
    m = CHRF(**options)
    ours = m.corpus_score(HYPS, [REFS_A, REFS_B])
    chrf2 = CHRF().corpus_score(HYPS, [REFS_A, REFS_B])
    assert t is not None
    assert abs(t["detail"]["score"] - ours.score) < 1e-9 and abs(t["detail"]["chrf2"] - chrf2.score) < 1e-9
    assert ours.score != chrf2.score                      # the trap is real on these texts
    assert f"{ours.score:.2f}" in t["message"] and f"{chrf2.score:.2f}" in t["message"]
    # sacreBLEU's name prints β as given (chrF1.0 for 1.0); its command line gives an int β (chrF1), as the page
    named = CHRF(**{k: int(v) if k == "beta" else v for k, v in options.items()})
    name = named.corpus_score(HYPS, [REFS_A, REFS_B]).name
    assert t["detail"]["metric"] == name and name in t["message"]
    assert t["detail"]["signature"] == m.get_signature().format() and t["detail"]["signature"] in t["message"]
    for k in options:
        assert any(d.startswith(f"{k} = ") for d in t["detail"]["differences"])


def test_chrfpp_reported_as_chrf_and_one_segment():
    t = _variant(page_traps("chrf", HYPS[:1], REFS[:1], "sacrebleu", corpus=False, word_order=2))
    assert "chrF2++" in t["message"] and "these texts" in t["message"]
    assert abs(t["detail"]["score"] - CHRF(word_order=2).sentence_score(HYPS[0], REFS[0]).score) < 1e-9
    assert abs(t["detail"]["chrf2"] - CHRF().sentence_score(HYPS[0], REFS[0]).score) < 1e-9


def test_nltk_chrf_score_is_not_chrf2():
    refs = [[r] for r in REFS_A]                     # NLTK takes one reference
    t = _variant(page_traps("chrf", HYPS, refs, "nltk"))
    assert abs(t["detail"]["score"] - corpus_chrf(REFS_A, HYPS)) < 1e-9
    assert abs(t["detail"]["chrf2"] - CHRF().corpus_score(HYPS, [REFS_A]).score) < 1e-9
    assert t["detail"]["scale"] == 1.0 and "beta = 3" in t["message"] and "on 0–1" in t["message"]
    one = _variant(page_traps("chrf", HYPS[:1], refs[:1], "nltk", corpus=False))
    assert abs(one["detail"]["score"] - sentence_chrf(REFS_A[0], HYPS[0])) < 1e-9
    # with β = 2 NLTK is still not sacreBLEU (whitespace, averaging): still named, still different
    b2 = _variant(page_traps("chrf", HYPS, refs, "nltk", beta=2.0))
    assert abs(b2["detail"]["score"] - corpus_chrf(REFS_A, HYPS, beta=2.0)) < 1e-9
    assert abs(100 * b2["detail"]["score"] - b2["detail"]["chrf2"]) > 1e-6


def test_reference_traps_hold_for_chrf():
    codes = [t["code"] for t in page_traps("chrf", HYPS, [[a] for a in HYPS], "sacrebleu")]
    assert "candidate-is-reference" in codes
    streams = [REFS_A, REFS_B]                        # sacreBLEU's layout given as per-segment lists
    assert [t["code"] for t in page_traps("chrf", HYPS, streams, "sacrebleu")] == ["references-transposed"]
    varying = [[a, b] if k % 2 else [a] for k, (a, b) in enumerate(zip(REFS_A, REFS_B))]
    assert "references-varying" in [t["code"] for t in page_traps("chrf", HYPS, varying, "sacrebleu")]


def _shown(at) -> list[str]:
    return [w.value for w in at.warning if w.value.startswith(PREFIX)]


def _expected(traps) -> list[str]:
    return [PREFIX + hl.md_escape(t["message"][:1].upper() + t["message"][1:]) for t in traps]


def test_explain_page_names_chrfpp_settings():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["candidate"] = HYPS[0]
    at.query_params["ref"] = REFS_A[0]
    at.query_params["chrf_sacrebleu_word_order"] = "2"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    settings = MetricSettings().replace(choice_for("chrf", "sacrebleu", {"word_order": 2}))
    want = traps_view.settings_traps([HYPS[0]], [[REFS_A[0]]], settings, families=["chrf"], corpus=False)
    assert [t["code"] for t in want] == ["chrf-variant"]
    assert set(_expected(want)) <= set(_shown(at))


def test_corpus_page_names_nltk_per_system():
    app = BrowserLikeApp({"sample": "news-en", "metric": "chrf", "chrf_dialect": "nltk"}, page="corpus")
    assert not app.exceptions
    shown = _shown(app.at)
    ts = app.at.session_state["_cp_traps"][1]
    assert ts and all(t["code"] == "chrf-variant" for t in ts)
    assert shown == _expected(ts)
    assert len(shown) >= 2 and all("NLTK" in w for w in shown)


def test_cli_chrf_names_the_variant_on_stderr(tmp_path, capsys, monkeypatch):
    import json

    from explainer.cli import main

    h, r = tmp_path / "h.txt", tmp_path / "r.txt"
    h.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    r.write_text("\n".join(REFS_A) + "\n", encoding="utf-8")
    for argv, named in ((["--word-order", "2"], True), ([], False)):
        rc = main(["chrf", "--hyp", str(h), "--ref", str(r), *argv])
        out, err = capsys.readouterr()
        score = CHRF(word_order=2 if argv else 0).corpus_score(HYPS, [REFS_A]).score
        assert rc == 0 and abs(json.loads(out)["score"] - score) < 1e-9
        assert ("chrF2++" in err and f"{score:.2f}" in err) if named else err == ""
