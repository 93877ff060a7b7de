"""Google BLEU (GLEU): the ``google-bleu`` dialect against NLTK's ``nltk.translate.gleu_score`` run here.

Hugging Face ``evaluate``'s "google_bleu" script cannot run in the tests (it is fetched from the Hub) and no
golden vectors of it were recorded. Its ``_compute`` is ``gleu_score.corpus_gleu`` over the tokens of its
``Tokenizer13a`` (metrics/google_bleu/google_bleu.py @a7dd338; the tokenizer file is the same rules as
metrics/bleu's). The recorded HF "bleu" golden vectors hold the tokens that tokenizer gives for 374 texts: NLTK's
GLEU over exactly those tokens is HF google_bleu's number, and the dialect must give it from the raw text."""
from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter

import pytest
from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
from nltk.util import everygrams

import explainer.bleu as bleu
from explainer.cli import main
from explainer.dialectcmp.configs import stdin_line
from tests.conftest import golden
from tests.dialects_samples import EN_SUMMARIES, JA_NEWS, ZH_NEWS

D = "google-bleu"


def _hf_token_records():
    return [r for r in golden("bleu/hf_evaluate.jsonl")
            if r["level"] == "segment" and "tokens" in (r.get("result") or {})]


def test_hf_tokens_and_nltk_gleu_over_them():
    """HF google_bleu = NLTK corpus_gleu over HF's 13a tokens: the dialect reads the same tokens from the raw text
    and gives NLTK's number, sentence by sentence and over the whole set as one corpus."""
    recs = _hf_token_records()
    assert len(recs) == 374
    cands, refs, hyp_toks, ref_toks = [], [], [], []
    for r in recs:
        toks = r["result"]["tokens"]
        tr = bleu.explain_bleu(r["candidate"], r["references"], dialect=D)
        assert tr.candidate.token_texts == toks["candidate"], r["case_id"]
        assert [x.token_texts for x in tr.references] == toks["references"], r["case_id"]
        want = sentence_gleu(toks["references"], toks["candidate"])
        assert tr.score == want, r["case_id"]
        assert bleu.score_bleu(r["candidate"], r["references"], dialect=D).score == want, r["case_id"]
        cands.append(r["candidate"])
        refs.append(r["references"])
        hyp_toks.append(toks["candidate"])
        ref_toks.append(toks["references"])
    want = corpus_gleu(ref_toks, hyp_toks)
    assert bleu.score_bleu_corpus(cands, refs, dialect=D).score == want
    assert bleu.explain_bleu_corpus(cands, refs, dialect=D).score == want


def _random_text(rng: random.Random, vocab: list[str]) -> str:
    return " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 14)))


@pytest.mark.parametrize("min_len,max_len", [(1, 4), (1, 1), (2, 4), (1, 6), (3, 2), (2, 5)])
def test_random_segments_and_corpora_against_nltk(min_len, max_len):
    """Small vocabularies (repeated n-grams, ties between references, empty texts), 1-4 references."""
    rng = random.Random(f"gleu-{min_len}-{max_len}")
    opts = dict(tokenize="split", min_len=min_len, max_len=max_len)
    for _ in range(20):
        vocab = [f"w{i}" for i in range(rng.randint(2, 6))]
        cands = [_random_text(rng, vocab) for _ in range(rng.randint(1, 6))]
        refs = [[_random_text(rng, vocab) for _ in range(rng.randint(1, 4))] for _ in cands]
        hyp_t, ref_t = [c.split() for c in cands], [[r.split() for r in rs] for rs in refs]
        for c, rs, ht, rt in zip(cands, refs, hyp_t, ref_t):
            want = sentence_gleu(rt, ht, min_len=min_len, max_len=max_len)
            assert bleu.score_bleu(c, rs, dialect=D, **opts).score == want, (c, rs)
            assert bleu.explain_bleu(c, rs, dialect=D, **opts).score == want, (c, rs)
        want = corpus_gleu(ref_t, hyp_t, min_len=min_len, max_len=max_len)
        assert bleu.score_bleu_corpus(cands, refs, dialect=D, **opts).score == want
        full = bleu.explain_bleu_corpus(cands, refs, dialect=D, full=True, **opts)
        assert full.score == want
        assert full.segment_stats == bleu.score_bleu_corpus(cands, refs, dialect=D, **opts).segment_stats


@pytest.mark.parametrize("tokenize", ["13a", "split"])
def test_real_text_japanese_chinese_and_english_summaries(tokenize):
    """Japanese and Chinese news (13a does not split them: whole clauses are tokens) and English multi-sentence
    summaries with several references, as sentences and as one corpus."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = (lambda s: Tokenizer13a()(s).split()) if tokenize == "13a" else str.split
    pairs = [(c, [r]) for c, r in JA_NEWS + ZH_NEWS] + [(c, list(rs)) for c, rs in EN_SUMMARIES]
    for c, rs in pairs:
        want = sentence_gleu([tok(r) for r in rs], tok(c))
        assert bleu.score_bleu(c, rs, dialect=D, tokenize=tokenize).score == want
    cands, refs = [p[0] for p in pairs], [p[1] for p in pairs]
    want = corpus_gleu([[tok(r) for r in rs] for rs in refs], [tok(c) for c in cands])
    assert bleu.score_bleu_corpus(cands, refs, dialect=D, tokenize=tokenize).score == want


def _nltk_per_reference(hyp: list[str], refs: list[list[str]]) -> list[tuple[int, int]]:
    """(tp, n_all) of every reference, as corpus_gleu computes them."""
    h = Counter(everygrams(hyp, 1, 4))
    out = []
    for r in refs:
        rc = Counter(everygrams(r, 1, 4))
        out.append((sum((rc & h).values()), max(sum(h.values()), sum(rc.values()))))
    return out


def test_trace_shows_each_reference_and_keeps_the_best():
    c, rs = EN_SUMMARIES[0][0], list(EN_SUMMARIES[0][1])
    tr = bleu.explain_bleu(c, rs, dialect=D)
    pick = tr.reference_pick
    want = _nltk_per_reference(tr.candidate.token_texts, [r.token_texts for r in tr.references])
    assert [(row["tp"], row["n_all"]) for row in pick.rows] == want
    ratios = [tp / n for tp, n in want]
    assert pick.index == ratios.index(max(ratios))
    assert [row["kept"] for row in pick.rows] == [k == pick.index for k in range(len(rs))]
    kept = pick.rows[pick.index]
    # every order's n-grams are clipped against the kept reference alone and add up to its tp
    assert sum(o.matches for o in tr.ngrams) == kept["tp"] == sum(tr.counts)
    for o in tr.ngrams:
        assert o.matches == sum(e.clipped for e in o.entries)
        assert all(e.clipped == min(e.cand_count, e.ref_counts[pick.index]) for e in o.entries)
    assert sum(tr.totals) == kept["n_all"]
    assert tr.ref_length.r == len(tr.references[pick.index].token_texts)
    assert tr.combination.extra["ratio"]["formula"].startswith(f"Σtp / Σn_all = {kept['tp']} / {kept['n_all']}")
    d = tr.to_dict()
    json.dumps(d)
    assert d["reference_pick"]["index"] == pick.index


def test_first_listed_reference_wins_a_tie():
    """Two references with the same tp / n_all (3/10 and 9/30) but different n_all: NLTK's max() keeps the first,
    and the corpus sums its n_all, so the order of the references changes the corpus score."""
    c = "a b c d"
    rs = ["a b x y", "a b c x b c d y z"]
    per = _nltk_per_reference(c.split(), [r.split() for r in rs])
    assert per[0] != per[1] and per[0][0] / per[0][1] == per[1][0] / per[1][1]
    scores = []
    for order in (rs, rs[::-1]):
        tr = bleu.explain_bleu(c, order, dialect=D, tokenize="split")
        assert tr.reference_pick.index == 0 and tr.ref_length.tie
        cands, refs = [c, "a b"], [order, ["a b c"]]
        want = corpus_gleu([[r.split() for r in x] for x in refs], [x.split() for x in cands])
        scores.append(bleu.score_bleu_corpus(cands, refs, dialect=D, tokenize="split").score)
        assert scores[-1] == want
    assert scores[0] != scores[1]


def test_empty_corpus_fails_as_hf_does_and_no_reference_adds_nothing():
    st = bleu.score_bleu_corpus([], [], dialect=D)
    assert st.library_error is not None and st.library_error.type == "IndexError"
    cands, refs = ["the cat", "a dog"], [["the cat"], []]
    want = corpus_gleu([[["the", "cat"]], []], [["the", "cat"], ["a", "dog"]])
    assert bleu.score_bleu_corpus(cands, refs, dialect=D).score == want


def test_cli_prints_the_usual_fields(capsys, monkeypatch):
    c, rs = EN_SUMMARIES[1][0], list(EN_SUMMARIES[1][1])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((stdin_line(c, rs) + "\n").encode()),
                                                       encoding="utf-8"))
    assert main(["bleu", "--jsonl", "-", "--dialect", D, "--max-order", "3"]) == 0
    got = json.loads(capsys.readouterr().out)
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    assert got["score"] == sentence_gleu([tok(r).split() for r in rs], tok(c).split(), max_len=3)
    assert {"score", "bleu", "counts", "totals", "precisions", "bp", "sys_len", "ref_len", "signature"} <= set(got)
    assert "google_bleu" in got["signature"] and "max_len:3" in got["signature"]


def test_dialects_page_has_a_google_bleu_row(capsys):
    from explainer.dialectcmp.rows import bleu_row_configs

    c, rs = EN_SUMMARIES[0][0], list(EN_SUMMARIES[0][1])
    assert D in [x.id for x in bleu_row_configs([c, *rs])]
    argv = ["dialects", "--metric", "bleu", "--candidate", c, "--pair", f"hf-evaluate:{D}"]
    for r in rs:
        argv += ["--ref", r]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    rows = {row["id"]: row for row in out["rows"]}
    assert rows[D]["score"] == bleu.score_bleu(c, rs, dialect=D).score
    [pair] = [p for p in out["pairs"] if (p["a"], p["b"]) == ("hf-evaluate", D)]
    assert pair["first_step"] == "counts"
    k = bleu.explain_bleu(c, rs, dialect=D).reference_pick.index
    assert f"clips each n-gram against reference {k + 1} alone" in pair["why"]


def test_explain_page_shows_each_reference_and_the_kept_one():
    """The Explain page with google-bleu: the headline is NLTK's GLEU over HF's 13a tokens, Step 3 is the
    per-reference table (precision, recall, their minimum, the one kept) and the formula is Σtp / Σn_all."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from explainer.examples import get_example
    from tests.test_ui_app import fmt_bleu, metrics, new_app

    ex = get_example("abandon_hope")
    at = new_app({"example": ex.id})
    at.selectbox(key="bleu_dialect").set_value(D).run()
    assert not at.exception, [e.value for e in at.exception]
    tok = Tokenizer13a()
    want = sentence_gleu([tok(r).split() for r in ex.references], tok(ex.candidate).split())
    assert metrics(at)["BLEU"] == fmt_bleu(want, 1)
    assert any("Each reference's precision and recall" in m.value for m in at.markdown)
    tr = bleu.explain_bleu(ex.candidate, list(ex.references), dialect=D)
    tables = [df.value for df in at.dataframe if "kept" in df.value.columns]
    assert tables and list(tables[0]["kept"]).count("✔ kept") == 1
    assert list(tables[0]["shared n-grams (tp)"]) == [row["tp"] for row in tr.reference_pick.rows]
    assert any(r"\text{GLEU}" in x.value for x in at.latex)


def test_corpus_report_with_two_systems_and_two_reference_streams():
    """The Corpus page's core (each reference prepared once for both systems) gives NLTK's corpus GLEU per system,
    and its compare-mt n-gram table runs on it."""
    from explainer.corpus.ngram_diff import ngram_differences
    from explainer.corpus.report import bleu_report
    from explainer.corpus.testset import TestSet

    rng = random.Random("gleu-corpus")
    vocab = [f"w{i}" for i in range(5)]
    refs = [[_random_text(rng, vocab) for _ in range(2)] for _ in range(30)]
    systems = [(name, [_random_text(rng, vocab) for _ in refs]) for name in ("a", "b")]
    rep = bleu_report(TestSet(refs, systems), dialect=D, tokenize="split")
    for (name, lines), s in zip(systems, rep.systems):
        want = corpus_gleu([[r.split() for r in rs] for rs in refs], [x.split() for x in lines])
        assert s.trace.score == want, name
    assert ngram_differences(rep, 1)["system"] == "b"


def test_reproduce_finds_a_google_bleu_number_reported_as_bleu(capsys, monkeypatch):
    """A google_bleu number reported as "BLEU" (one segment with several references, and a corpus) is found by
    reproduce as Google BLEU, and the match's command prints it."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from explainer.dialectcmp.corpus_reproduction import reproduce_corpus
    from explainer.dialectcmp.reproduction import reproduce

    tok = Tokenizer13a()
    c, rs = EN_SUMMARIES[2][0], list(EN_SUMMARIES[2][1])
    g = sentence_gleu([tok(r).split() for r in rs], tok(c).split())
    res = reproduce(c, rs, f"BLEU = {g:.4f}", max_matches=None)
    hits = [m for m in res.matches if m.config.dialect == D]
    assert hits and hits[0].config.opts == {}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((hits[0].stdin + "\n").encode()), encoding="utf-8"))
    assert main(hits[0].argv) == 0
    assert json.loads(capsys.readouterr().out)["score"] == g
    cands = [x[0] for x in EN_SUMMARIES]
    refs = [[x[1][0]] for x in EN_SUMMARIES]
    g = corpus_gleu([[tok(r[0]).split()] for r in refs], [tok(x).split() for x in cands])
    res = reproduce_corpus(cands, refs, f"BLEU {g:.4f}", max_matches=None)
    assert any(m.config.dialect == D for m in res.matches)


def test_corpus_page_scores_and_works_out_google_bleu():
    """The Corpus page with google-bleu: NLTK's corpus GLEU in the scores table, and the worked-out section (a
    corpus trace has no per-reference table: its formula is the ratio's; this crashed before)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ROOT

    refs = [x[1][0] for x in EN_SUMMARIES]
    hyps = [x[0] for x in EN_SUMMARIES]
    at = AppTest.from_file(str(ROOT / "explainer" / "ui" / "pages" / "corpus.py"), default_timeout=120)
    at.query_params["bleu_dialect"] = D
    at.run()
    at.radio(key="cp_source").set_value("Paste").run()
    at.text_area(key="cp_paste_ref_0").set_value("\n".join(r.replace("\n", " ") for r in refs))
    at.text_area(key="cp_paste_sys_0").set_value("\n".join(h.replace("\n", " ") for h in hyps))
    at.text_area(key="cp_paste_sys_1").set_value("\n".join(r.replace("\n", " ") for r in refs))
    at.button(key="cp_load_paste").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="bleu_dialect").value == D
    tok = Tokenizer13a()
    want = corpus_gleu([[tok(r.replace("\n", " ")).split()] for r in refs],
                       [tok(h.replace("\n", " ")).split() for h in hyps])
    [table] = [df.value for df in at.dataframe if "BLEU" in df.value.columns and "system" in df.value.columns]
    assert table["BLEU"][0] == want
    assert any(r"\text{GLEU}" in x.value for x in at.latex)


def test_teach_lesson_walks_through_gleu_with_nltks_numbers():
    """The Teach lesson under google-bleu: clipping against the kept reference, each reference's precision and
    recall (NLTK's tp and n_all), the kept reference, Σtp / Σn_all as the score (NLTK's GLEU) — under the step ids
    exercises and claims look for — and the handout prints GLEU's formulas, not BLEU's."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from explainer.teach import build_lesson
    from explainer.teach.model import Result, Table
    from explainer.ui.teach.teach_markdown import handout_markdown

    tok = Tokenizer13a()
    c, rs = next((x[0], list(x[1])) for x in EN_SUMMARIES if len(x[1]) > 1)
    L = build_lesson(c, rs, bleu_dialect=D)
    # a step too long for one projector screen continues as "<id>~2", "<id>~3" (explainer/teach/paging.py)
    steps = {s.id: s for s in L.steps if s.family == "BLEU" and "~" not in s.id}
    assert list(steps) == ["bleu-texts", "bleu-ngrams", "bleu-counting", "bleu-clipping", "bleu-precision", "bleu-bp",
                           "bleu-score"]

    def blocks(step_id: str) -> list:
        return [b for s in L.steps if s.id.split("~")[0] == step_id for b in s.blocks]

    want = sentence_gleu([tok(r).split() for r in rs], tok(c).split())
    [res] = [b for b in blocks("bleu-score") if isinstance(b, Result)]
    assert res.value == want and steps["bleu-score"].question.answer == want
    per = _nltk_per_reference(tok(c).split(), [tok(r).split() for r in rs])
    rows = [row for b in blocks("bleu-precision") if isinstance(b, Table) for row in b.rows]
    assert [(row[1], max(row[2], row[3])) for row in rows] == per
    best = max(range(len(per)), key=lambda k: per[k][0] / per[k][1])
    assert steps["bleu-bp"].question.answer == best + 1
    assert "in reference" in blocks("bleu-clipping")[0].text
    md = handout_markdown(L)
    assert r"\mathrm{GLEU}" in md and r"\mathrm{BP} = \begin{cases}" not in md
