"""Gaming lab core: every preset's numbers against the real sacreBLEU / rouge-score packages (computed here,
never typed in), the lessons' verdicts, generator invariants, sweeps and the scoring fast path."""
from __future__ import annotations

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from rouge_score import rouge_scorer
from sacrebleu.metrics.bleu import BLEU, _get_tokenizer

from explainer.attacks import generators as G
from explainer.attacks.presets import PRESETS, evaluate, get_preset
from explainer.attacks.scoring import BleuConfig, FastScorer, score
from explainer.attacks.sweeps import sweep_length, sweep_references, sweep_shuffle, sweep_stuffing
from tests.conftest import golden

TOL = 1e-9
TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _ref_bleu(cand, refs, o: BleuConfig):
    """sacreBLEU itself, for the variant's options (given in the sacrebleu dialect's vocabulary)."""
    assert o.dialect == "sacrebleu"
    kw = {k: v for k, v in o.given.items() if k in ("tokenize", "lowercase", "smooth_method", "smooth_value")}
    if o.given.get("api") == "sentence_bleu":
        return sacrebleu.sentence_bleu(cand, list(refs), **kw)
    return BLEU(**kw).corpus_score([cand], [[r] for r in refs])


def _shortest_rule(cand, refs):
    """HF evaluate / TF-NMT rule from sacreBLEU's own statistics: shortest reference, no smoothing."""
    b = BLEU()
    s = b.corpus_score([cand], [[r] for r in refs])
    shortest = min(len(b._preprocess_segment(r).split()) for r in refs)
    return BLEU.compute_bleu(s.counts, s.totals, s.sys_len, shortest, smooth_method="none")


def _ref_rouge(cand, refs, stem=False):
    sc = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    return sc.score_multi(list(refs), cand) if len(refs) > 1 else sc.score(refs[0], cand)


CASES = [(pid, i) for pid, p in PRESETS.items() for i in range(len(p.variants))]


@pytest.mark.parametrize("pid,i", CASES, ids=[f"{p}-{i}" for p, i in CASES])
def test_preset_numbers_match_real_packages(pid, i):
    p = get_preset(pid)
    v = p.variants[i]
    got = evaluate(pid).scores[i]
    if v.is_corpus:
        cands, refs = list(v.candidate), [list(r) for r in v.references]
        nref = max(len(r) for r in refs)
        streams = [[r[k] if k < len(r) else None for r in refs] for k in range(nref)]
        assert v.bleu.dialect == "sacrebleu" and "api" not in v.bleu.given   # corpus_bleu, the dialect's default
        kw = {k: x for k, x in v.bleu.given.items() if k in ("tokenize", "lowercase", "smooth_method")}
        ref = BLEU(**kw).corpus_score(cands, streams)
        sent = [sacrebleu.sentence_bleu(c, r, **kw).score for c, r in zip(cands, refs)]
        expected_bleu = sum(sent) / len(sent) if v.aggregate == "sentence_mean" else ref.score
        assert got["bleu"] == pytest.approx(expected_bleu, abs=TOL)
        assert got["sent_bleu_mean"] == pytest.approx(sum(sent) / len(sent), abs=TOL)
        assert got["bleu_bp"] == pytest.approx(ref.bp, abs=TOL)
        assert got.bleu_counts == list(ref.counts) and got.bleu_totals == list(ref.totals)
        assert (got.sys_len, got.ref_len) == (ref.sys_len, ref.ref_len)
        per = [_ref_rouge(c, r) for c, r in zip(cands, refs)]
        for t in TYPES:
            assert got[f"{t}_f"] == pytest.approx(sum(x[t].fmeasure for x in per) / len(per), abs=TOL)
        return
    refs = list(v.references)
    if v.bleu.dialect == "nltk":
        _check_nltk_variant(v, got)
    else:
        ref = (_shortest_rule(v.candidate, refs) if v.bleu.dialect == "hf-evaluate"
               else _ref_bleu(v.candidate, refs, v.bleu))
        assert got["bleu"] == pytest.approx(ref.score, abs=TOL)
        assert got["bleu_bp"] == pytest.approx(ref.bp, abs=TOL)
        assert got.bleu_counts == list(ref.counts) and got.bleu_totals == list(ref.totals)
    if v.rouge.dialect == "rouge155":  # ROUGE-1.5.5.pl cannot run here: see test_c9_* (golden-tested dialect)
        _check_rouge155_variant(v, got)
    elif v.rouge.get("tokenizer") == "rouge-score":  # "unicode" is the explainer's opt-in fix, no library's
        assert v.rouge.dialect == "rouge-score"
        rr = _ref_rouge(v.candidate, refs, v.rouge.get("use_stemmer"))
        for t in TYPES:
            assert got[f"{t}_p"] == pytest.approx(rr[t].precision, abs=TOL)
            assert got[f"{t}_r"] == pytest.approx(rr[t].recall, abs=TOL)
            assert got[f"{t}_f"] == pytest.approx(rr[t].fmeasure, abs=TOL)
    if v.bleu.dialect == "nltk":
        return
    # the "plain precision" of G1: sacreBLEU's own tokens, repeats counted, no clipping
    # (Hugging Face evaluate's bleu tokenizes with its copy of sacreBLEU's 13a, case kept)
    sacre = v.bleu.dialect == "sacrebleu"
    tok = _get_tokenizer(v.bleu.get("tokenize") if sacre else "13a")()
    low = (lambda x: x.lower()) if sacre and v.bleu.get("lowercase") else (lambda x: x)
    hyp = tok(low(v.candidate)).split()
    vocab = {t for r in refs for t in tok(low(r)).split()}
    assert got["unclipped_p1"] == pytest.approx(sum(t in vocab for t in hyp) / len(hyp), abs=TOL)


def _nltk_real(v):
    """The real NLTK call the variant stands for: token lists, or the plain strings themselves."""
    from nltk.translate import bleu_score as nb

    refs = list(v.references)
    if v.bleu.nltk_input == "string":
        hyp, rs = v.candidate, refs  # NLTK iterates the strings: characters
    else:
        hyp, rs = v.candidate.split(), [r.split() for r in refs]
    score = nb.sentence_bleu(rs, hyp, weights=list(v.bleu.get("weights")))
    p1 = nb.modified_precision(rs, hyp, 1)
    bp = nb.brevity_penalty(nb.closest_ref_length(rs, len(hyp)), len(hyp))
    return score, p1, bp, hyp, rs


def _check_nltk_variant(v, got):
    score, p1, bp, hyp, rs = _nltk_real(v)
    assert got["bleu"] == pytest.approx(100 * score, abs=TOL)  # NLTK's 0-1, shown x100 like every lab BLEU
    assert got["bleu_bp"] == pytest.approx(bp, abs=TOL)
    assert (got.bleu_counts[0], got.bleu_totals[0]) == (p1.numerator, p1.denominator)
    vocab = {t for r in rs for t in r}
    assert got["unclipped_p1"] == pytest.approx(sum(t in vocab for t in hyp) / len(hyp), abs=TOL)


def _check_rouge155_variant(v, got):
    """Through the explainer's rouge155 dialect (golden-tested against ROUGE-1.5.5.pl in test_rouge155*)."""
    from explainer.rouge import score_rouge

    ref = score_rouge(v.candidate, list(v.references), dialect="rouge155", types=TYPES,
                      use_stemmer=v.rouge.get("use_stemmer"), multi_ref=v.rouge.get("multi_ref"))
    for t in TYPES:
        assert (got[f"{t}_p"], got[f"{t}_r"], got[f"{t}_f"]) == pytest.approx(
            (ref[t].precision, ref[t].recall, ref[t].fmeasure), abs=TOL)


@pytest.mark.parametrize("pid", list(PRESETS))
def test_preset_lesson_matches_computed_verdicts(pid):
    p = get_preset(pid)
    r = evaluate(pid)
    assert set(p.headline) <= set(r.metrics) and set(p.story) <= set(p.headline)
    for m, expected in p.story.items():
        assert r.summary(m) == expected, f"{pid}: {m} is {r.summary(m)}, lesson says {expected}"
    assert p.lesson and p.citation and len(p.variants) >= 2


@pytest.mark.parametrize("pid", [pid for pid, p in PRESETS.items() if p.kind == "attack"])
def test_attack_verdicts_follow_the_real_numbers(pid):
    """fooled = the worse text scores higher, tie = the same (e.g. both at a brevity penalty of 1), resisted =
    lower, all from the real packages' numbers; comparison-only variants get no verdict."""
    p = get_preset(pid)
    r = evaluate(pid)
    for i, v in enumerate(p.variants):
        if i == 0 or v.compare_only:
            assert r.verdicts[i] == {}
            continue
        if v.is_corpus:
            continue  # corpus numbers are compared one by one in test_preset_numbers_match_real_packages
        real = {}
        for k, var in ((0, p.variants[0]), (i, v)):
            b = _ref_bleu(var.candidate, list(var.references), var.bleu)
            rr = _ref_rouge(var.candidate, list(var.references))
            real[k] = {"bleu": b.score, "bleu_bp": b.bp, **{f"{t}_{x}": getattr(rr[t], name)
                       for t in ("rouge1", "rouge2", "rougeL") for x, name in (("p", "precision"),
                                                                             ("r", "recall"), ("f", "fmeasure"))}}
        for m in r.metrics:
            if m not in real[0]:
                continue
            a, b = real[0][m], real[i][m]
            expected = "tie" if abs(a - b) <= TOL else ("fooled" if b > a else "resisted")
            assert r.verdicts[i][m] == expected, (pid, i, m, a, b)
    assert r.judged and all(not p.variants[i].compare_only for i in r.judged)


@pytest.mark.parametrize("pid", [pid for pid, p in PRESETS.items() if p.kind == "config"])
def test_configuration_traps_change_only_the_setting(pid):
    """A configuration trap scores the SAME text under different settings (its verdict is "changed by the
    setting"); C7 used to change the text between variants (French, then Chinese). Newlines are the only
    difference allowed (C8: rougeLsum's sentence split is a formatting setting)."""
    p = get_preset(pid)
    norm = lambda x: " ".join(x.split()) if isinstance(x, str) else tuple(norm(y) for y in x)
    first = p.variants[0]
    for v in p.variants[1:]:
        assert norm(v.candidate) == norm(first.candidate), (pid, v.label)
        assert norm(v.references) == norm(first.references), (pid, v.label)
        assert (v.bleu, v.rouge, v.aggregate, v.candidate, v.references) != (
            first.bleu, first.rouge, first.aggregate, first.candidate, first.references), (pid, v.label)


def _catalogue_section(cid: str) -> str:
    from tests.conftest import catalogue_text

    doc = catalogue_text()
    start = doc.index(f"### {cid}.")
    end = doc.find("\n### ", start + 1)
    end = len(doc) if end < 0 else end   # the last entry runs to the end
    return " ".join(doc[start:end].split())


def test_c7_presets_reproduce_the_catalogue():
    """Identical Chinese scores 0 on every rouge-score type but 100 BLEU; the French unaccented spelling
    gets the catalogue's P/R/F (read from the catalogue, checked with the real packages)."""
    import re as _re

    text = _catalogue_section("C7")
    zh = get_preset("non-latin").variants[0]
    rr = _ref_rouge(zh.candidate, list(zh.references))
    assert "score 0.00 on every ROUGE type" in text and zh.candidate in text
    assert all(rr[t].fmeasure == 0 for t in TYPES)
    assert sacrebleu.sentence_bleu(zh.candidate, list(zh.references)).score == pytest.approx(100, abs=TOL)
    r = evaluate("non-latin")
    assert r.scores[0]["rouge1_f"] == 0 and r.scores[1]["rouge1_f"] == pytest.approx(1.0, abs=1e-9)
    assert r.scores[0]["bleu"] == r.scores[1]["bleu"]
    fr = get_preset("accents").variants[0]
    m = _re.search(r"`(Le cafe etait tres bon)` scores ROUGE-1 P ([\d.]+), R ([\d.]+), F ([\d.]+)", text)
    assert m and m.group(1) == fr.candidate and fr.references == ("Le café était très bon",)
    real = _ref_rouge(fr.candidate, list(fr.references))["rouge1"]
    got = evaluate("accents").scores[0]
    for want, real_v, key in zip(m.groups()[1:], (real.precision, real.recall, real.fmeasure),
                                 ("rouge1_p", "rouge1_r", "rouge1_f")):
        assert f"{real_v:.2f}" == want and got[key] == pytest.approx(real_v, abs=TOL)


def test_every_catalogue_entry_is_in_the_lab():
    """Every ID of the catalogue's quick-reference table is a preset or a lesson card (F2, C9, C10 used to be
    catalogue-only; C11, C12 and G12 have no input to score and are lesson cards)."""
    import re as _re

    from explainer.attacks.presets import ENTRIES, LESSON_CARDS
    from tests.conftest import catalogue_text

    doc = catalogue_text()
    ids = _re.findall(r"^\| ([GFC]\d+) \|", doc, flags=_re.M)
    assert len(ids) >= 28 and len(set(ids)) == len(ids)
    have = {p.catalogue for p in PRESETS.values()} | {c.catalogue for c in LESSON_CARDS.values()}
    assert set(ids) <= have, sorted(set(ids) - have)
    for cid in ("F2", "C9", "C10"):  # demonstrable: real presets with numbers
        assert any(p.catalogue == cid for p in PRESETS.values()), cid
    assert {c.catalogue for c in LESSON_CARDS.values()} == {"G12", "C11", "C12"}
    for c in LESSON_CARDS.values():
        assert c.lesson and c.citation and c.why_no_numbers
    assert len(ENTRIES) == len(PRESETS) + len(LESSON_CARDS) and not set(PRESETS) & set(LESSON_CARDS)
    with pytest.raises(ValueError):
        get_preset("nope")


def test_f2_reference_style_flips_the_ranking():
    """Against the literal reference the MT-like translation wins; against the paraphrased reference the
    natural one wins (real sacreBLEU and rouge-score)."""
    p = get_preset("reference-style")
    nat_lit, lit_lit, nat_par, lit_par = p.variants
    assert nat_lit.candidate == nat_par.candidate and lit_lit.candidate == lit_par.candidate
    assert nat_lit.references == lit_lit.references != nat_par.references == lit_par.references
    b = lambda v: sacrebleu.sentence_bleu(v.candidate, list(v.references)).score
    r1 = lambda v: _ref_rouge(v.candidate, list(v.references))["rouge1"].fmeasure
    assert b(lit_lit) > b(nat_lit) and b(nat_par) > b(lit_par)
    assert r1(lit_lit) > r1(nat_lit) and r1(nat_par) > r1(lit_par)
    r = evaluate("reference-style")
    assert r.judged == [1] and r.verdicts[2] == r.verdicts[3] == {}


def test_c9_best_f_vs_rouge155_pool_and_best_recall():
    """rouge-score's score_multi keeps the best-F reference (real package); ROUGE-1.5.5 -f A pools hits and
    sizes over the references and -f B keeps the best-recall reference (the explainer's golden-tested
    rouge155 dialect, cross-checked here from rouge-score's own per-reference counts, 5-decimal rounding)."""
    from collections import Counter

    from rouge_score import tokenizers

    p = get_preset("rouge-implementations")
    r = evaluate("rouge-implementations")
    v = p.variants[0]
    cand, refs = v.candidate, list(v.references)
    best_f = rouge_scorer.RougeScorer(["rouge1"]).score_multi(refs, cand)["rouge1"]
    assert r.scores[0]["rouge1_f"] == pytest.approx(best_f.fmeasure, abs=TOL)
    tok = tokenizers.DefaultTokenizer(False)
    c = Counter(tok.tokenize(cand))
    hits = [sum((c & Counter(tok.tokenize(x))).values()) for x in refs]
    sizes = [len(tok.tokenize(x)) for x in refs]
    rp = lambda x: round(x + 1e-12, 5)
    pool_r, pool_p = rp(sum(hits) / sum(sizes)), rp(sum(hits) / (len(refs) * sum(c.values())))
    assert (r.scores[1]["rouge1_r"], r.scores[1]["rouge1_p"]) == pytest.approx((pool_r, pool_p), abs=1e-9)
    k = max(range(len(refs)), key=lambda i: (rp(hits[i] / sizes[i]), -i))
    assert r.scores[2]["rouge1_r"] == pytest.approx(rp(hits[k] / sizes[k]), abs=1e-9)
    # three rules, three different ROUGE-1 F for the same output; the -f B reference is not the best-F one
    f = [s["rouge1_f"] for s in r.scores]
    assert len({round(x, 5) for x in f}) == 3
    per_ref_f = [rouge_scorer.RougeScorer(["rouge1"]).score(x, cand)["rouge1"].fmeasure for x in refs]
    assert max(range(len(refs)), key=lambda i: per_ref_f[i]) != k


def test_c10_strings_are_read_as_characters_as_the_catalogue_says():
    """The preset reproduces NLTK on token lists and on plain strings, and both numbers are the
    catalogue's (read from the catalogue, recomputed with the real NLTK)."""
    import re as _re

    text = _catalogue_section("C10")
    m = _re.search(r"sentence_bleu\(\['(.+?)'\], '(.+?)', weights=\[1\.\]\)", text)
    assert m
    p = get_preset("nltk-strings")
    tokens, strings = p.variants
    assert (tokens.references[0], tokens.candidate) == m.groups() == (strings.references[0], strings.candidate)
    chars = float(_re.search(r"scores characters: ([\d.]+)", text).group(1))
    words = float(_re.search(r"tokenised call gives ([\d.]+)", text).group(1))
    s_tok, s_str = _nltk_real(tokens)[0], _nltk_real(strings)[0]
    assert f"{s_str:.3f}" == f"{chars:.3f}" and f"{s_tok:.3f}" == f"{words:.3f}"
    r = evaluate("nltk-strings")
    assert r.scores[0]["bleu"] == pytest.approx(100 * s_tok, abs=TOL)
    assert r.scores[1]["bleu"] == pytest.approx(100 * s_str, abs=TOL)
    assert r.scores[0]["rouge1_f"] == r.scores[1]["rouge1_f"]  # ROUGE does not see the NLTK call


def test_nltk_character_view_is_one_token_per_character():
    from explainer.attacks.scoring import nltk_characters

    for text in ("a b", "x␣ y", "tab\there\nnl", "", "  "):
        toks = nltk_characters(text).split()
        assert len(toks) == len(text)
        # distinct characters stay distinct tokens (so every n-gram count equals NLTK's on the raw string)
        assert len(set(toks)) == len(set(text))


def test_hf_evaluate_config_is_hf_evaluate_bleu_on_golden_records():
    """The hf-evaluate dialect used by the C6 preset (shortest reference) reproduces Hugging Face evaluate's bleu
    on every golden default-option segment record (evaluate cannot run here)."""
    n = 0
    for rec in golden("bleu/hf_evaluate.jsonl"):
        o = rec["options"]
        if rec["level"] != "segment" or rec["status"] != "ok" or o.get("max_order") != 4 or o.get("smooth"):
            continue
        if not rec["references"] or not rec["candidate"]:
            continue
        got = score(rec["candidate"], rec["references"], BleuConfig("hf-evaluate"))
        assert got["bleu"] / 100 == pytest.approx(rec["result"]["bleu"], abs=TOL), rec["case_id"]
        n += 1
    assert n >= 100


# ---------------------------------------------------------------- generators

VOCAB = "the a cat dog sat on mat quick brown fox jumped over lazy red big of and is was".split()
sentences = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=14).map(" ".join)


def _stats(cand, refs):
    s = sacrebleu.sentence_bleu(cand, refs)
    return list(s.counts), list(s.totals), s.sys_len, s.ref_len, s.score


def test_permutation_keeps_sacrebleu_counts_on_catalogue_example():
    ref = ["the quick brown fox jumped over the lazy dog"]
    g = G.permute_chunks("the quick brown fox leaped above the lazy dog", ref)
    assert g.changed and g.text != "the quick brown fox leaped above the lazy dog"
    assert _stats(g.text, ref) == _stats("the quick brown fox leaped above the lazy dog", ref)
    honest = _ref_rouge("the quick brown fox leaped above the lazy dog", ref)
    assert _ref_rouge(g.text, ref)["rougeL"].fmeasure < honest["rougeL"].fmeasure


@settings(max_examples=150)
@given(cand=sentences, refs=st.lists(sentences, min_size=1, max_size=3), seed=st.integers(0, 50))
def test_permutation_never_changes_sacrebleu_counts(cand, refs, seed):
    g = G.permute_chunks(cand, refs, seed=seed)
    if g.changed:
        assert _stats(g.text, refs) == _stats(cand, refs)
        assert sorted(g.text.split()) == sorted(cand.split())


LONG_CAND = ("a b c d e f g h i j " * 500)[:4997]  # valid lab input (< 5,000 chars): 2,499 one-token chunks
FOX_REFS = ["the quick brown fox jumped over the lazy dog", "a fast brown fox jumped over a lazy dog"]


def test_permutation_is_bounded_on_a_long_input_and_keeps_the_invariant():
    """2,499 chunks took ~90-110 s before the work cap; now the search stops at the cap, says so, and the
    order it offers still has sacreBLEU's counts (checked by the real package)."""
    import time

    t0 = time.perf_counter()
    g = G.permute_chunks(LONG_CAND, FOX_REFS)
    elapsed = time.perf_counter() - t0
    assert elapsed < G.PERMUTE_BUDGET_SECONDS + 1.0
    assert g.details["capped"] in ("work", "time") and "search was capped" in g.note
    assert g.changed and _stats(g.text, FOX_REFS) == _stats(LONG_CAND, FOX_REFS)
    assert sorted(g.text.split()) == sorted(LONG_CAND.split())
    # a tiny time budget stops it too, still with a valid (or no) result
    t0 = time.perf_counter()
    g = G.permute_chunks(LONG_CAND, FOX_REFS, budget_seconds=0.05, max_work=10 ** 12)
    assert time.perf_counter() - t0 < 1.0 and g.details["capped"] == "time"
    assert not g.changed or _stats(g.text, FOX_REFS) == _stats(LONG_CAND, FOX_REFS)
    # the work cap is deterministic for a seed (no clock involved when the budget is generous)
    a = G.permute_chunks(LONG_CAND, FOX_REFS, seed=3, max_work=60_000, budget_seconds=600)
    b = G.permute_chunks(LONG_CAND, FOX_REFS, seed=3, max_work=60_000, budget_seconds=600)
    assert a.text == b.text and a.details["capped"] == "work"
    # a short input is not capped
    assert G.permute_chunks("the quick brown fox leaped above the lazy dog", FOX_REFS).details["capped"] == ""


@settings(max_examples=150)
@given(refs=st.lists(sentences, min_size=1, max_size=3), count=st.integers(1, 30), pick=st.integers(0, 100))
def test_repetition_never_exceeds_the_clip(refs, count, pick):
    words = sorted({w for r in refs for w in r.split()})
    word = words[pick % len(words)]
    g = G.repeat_word("x", refs, word=word, count=count)
    clip = max(r.split().count(word) for r in refs)
    s = sacrebleu.sentence_bleu(g.text, refs)
    assert s.counts[0] == min(count, clip) == min(count, g.details["clip"])
    assert s.totals[0] == count


@settings(max_examples=100)
@given(refs=st.lists(sentences, min_size=1, max_size=4))
def test_concatenation_reaches_rouge_recall_one(refs):
    g = G.concatenate_references(refs)
    r = _ref_rouge(g.text, refs)
    for t in ("rouge1", "rouge2", "rougeL"):
        assert r[t].recall == pytest.approx(1.0, abs=TOL) or not any(len(x.split()) > 1 for x in refs) and t == "rouge2"


def _check_fragments(g, refs):
    words = [r.split() for r in refs]
    frags = g.details["fragments"]
    assert g.text.split() == [w for k, a, b in frags for w in words[k][a:b]]
    ks = [k for k, _, _ in frags]
    assert len(set(ks)) == len(ks) >= 2  # each reference at most once, at least two mixed
    n = len(g.text.split())
    assert all(b - a >= max(2, 0.2 * n) for _, a, b in frags)
    return ks


def test_concatenation_and_stitching_on_catalogue_refs():
    refs = list(get_preset("stitched-refs").variants[0].references)
    g = G.stitch_references(refs)
    assert g.changed and not g.details["capped"]
    _check_fragments(g, refs)
    stitched = sacrebleu.sentence_bleu(g.text, refs).score
    # the seam search maximises BLEU, so it is at least as good as the catalogue's hand-made hybrid
    assert stitched >= sacrebleu.sentence_bleu(get_preset("stitched-refs").variants[1].candidate, refs).score - TOL
    assert stitched > sacrebleu.sentence_bleu(refs[0], [refs[1]]).score


def test_stitching_uses_fragments_of_three_references():
    """The old search glued the head of one reference to the tail of another, so at most two were used."""
    refs = ["the storm cut power to thousands of homes on friday",
            "thousands of homes were flooded and several major roads closed",
            "several major roads closed until monday morning police said"]
    g = G.stitch_references(refs)
    assert g.changed and not g.details["capped"]
    assert sorted(_check_fragments(g, refs)) == [0, 1, 2]
    stitched = sacrebleu.sentence_bleu(g.text, refs).score
    for pair in ([0, 1], [0, 2], [1, 2]):  # at least as good as stitching any two of them
        two = G.stitch_references([refs[i] for i in pair])
        assert stitched >= sacrebleu.sentence_bleu(two.text, refs).score - TOL
    assert g.text not in refs and stitched > max(sacrebleu.sentence_bleu(refs[i], [refs[j]]).score
                                                 for i in range(3) for j in range(3) if i != j)


def test_stitching_ten_long_references_is_bounded():
    import time

    refs = [" ".join(f"w{(i * 7 + k) % 50} x{k % 13}" for k in range(600)) for i in range(10)]
    assert all(len(r) < 5000 for r in refs)
    # the work this process did (CPU time), not the wall clock: on a loaded machine (load 11) the wall clock of
    # the same bounded search passed 1 s while this process waited for a core; a search that ignored its cap
    # would spend many CPU seconds here (it took 6-11 s before the cap)
    t0 = time.process_time()
    g = G.stitch_references(refs)
    assert time.process_time() - t0 < G.STITCH_BUDGET_SECONDS + 1.0  # was ~6-11 s
    assert g.changed and g.details["capped"] in ("work", "time") and "search was capped" in g.note
    _check_fragments(g, refs)
    t0 = time.process_time()
    g = G.stitch_references(refs, budget_seconds=0.05, max_work=10 ** 12)
    assert time.process_time() - t0 < 1.0 and g.details["capped"] == "time"


def test_pad_corpus_lifts_corpus_bp_to_one():
    v = get_preset("corpus-bp").variants[0]
    cands, refs = list(v.candidate), [list(r) for r in v.references]
    g = G.pad_corpus(cands, refs)
    before = sacrebleu.corpus_bleu(cands, [[r[0] for r in refs]])
    after = sacrebleu.corpus_bleu(g.text, [[r[0] for r in refs]])
    assert before.bp < 1 and after.bp == 1.0 and after.score > before.score
    assert g.text[0] == cands[0] and g.text[1].startswith(cands[1])


def test_keep_safest_has_perfect_precision():
    refs = ["The cat is on the mat.", "There is a cat on the mat."]
    g = G.keep_safest("A big cat sat happily on the red mat .", refs)
    s = sacrebleu.sentence_bleu(g.text, refs)
    assert s.counts[0] == s.totals[0] > 0


def test_stuffing_adds_clipped_matches_first():
    ref = ["the minister said that the government will increase the budget for schools in the next year"]
    base = "minister promises more money for schools next year"
    g = G.stuff_function_words(base, ref, 6)
    r0, r1 = _ref_rouge(base, ref)["rouge1"], _ref_rouge(g.text, ref)["rouge1"]
    # every stuffed word is a reference function word still unmatched: recall rises by exactly 6 / |ref|
    assert r1.recall - r0.recall == pytest.approx(6 / len(ref[0].split()), abs=TOL)


def test_text_generators_examples_and_determinism():
    assert G.swap_noun_phrases("The dog bit the man.").text == "The man bit the dog."
    assert (G.insert_negation("the new drug is safe for young children").text
            == "the new drug is not safe for young children")
    assert G.insert_negation("Birds fly south.").text.startswith("It is not true that")
    assert G.truncate("a b c d e f", 3).text == "a b c"
    a = G.shuffle_words("one two three four five six seven", 1.0, seed=3)
    b = G.shuffle_words("one two three four five six seven", 1.0, seed=3)
    assert a.text == b.text and a.changed
    assert sorted(a.text.split()) == sorted("one two three four five six seven".split())
    assert not G.swap_noun_phrases("hello world").changed


# ---------------------------------------------------------------- scoring fast path and sweeps

@settings(max_examples=120)
@given(cand=sentences, refs=st.lists(sentences, min_size=1, max_size=3))
def test_fast_scorer_equals_real_packages(cand, refs):
    fast = FastScorer(refs).values(cand)
    s = sacrebleu.sentence_bleu(cand, refs)
    assert fast["bleu"] == pytest.approx(s.score, abs=TOL) and fast["bleu_bp"] == pytest.approx(s.bp, abs=TOL)
    rr = _ref_rouge(cand, refs)
    for t in ("rouge1", "rouge2", "rougeL"):
        assert fast[f"{t}_p"] == pytest.approx(rr[t].precision, abs=TOL)
        assert fast[f"{t}_r"] == pytest.approx(rr[t].recall, abs=TOL)
        assert fast[f"{t}_f"] == pytest.approx(rr[t].fmeasure, abs=TOL)
    assert FastScorer(refs).rouge_l_f(cand) == pytest.approx(rr["rougeL"].fmeasure, abs=TOL)


def test_length_sweep_truncates_and_pads():
    cand = "a fire destroyed a port warehouse on sunday"
    refs = ["a fire destroyed a warehouse in the port on sunday night"]
    sw = sweep_length(cand, refs)
    i = sw.x.index(len(cand.split()))
    assert sw.texts[i] == cand
    assert sw.values["bleu:score"][i] == pytest.approx(sacrebleu.sentence_bleu(cand, refs).score, abs=TOL)
    bp = sw.values["bleu_bp"]
    assert all(b2 >= b1 - TOL for b1, b2 in zip(bp, bp[1:])) and bp[-1] == 1.0
    # precision falls and recall rises as padding is added: the P/R curves cross
    p, r = sw.values["rouge1_p"], sw.values["rouge1_r"]
    assert p[0] > r[0] and p[-1] < r[-1]
    for j in (0, len(sw.x) - 1):
        rr = _ref_rouge(sw.texts[j], refs)["rouge1"]
        assert (p[j], r[j]) == pytest.approx((rr.precision, rr.recall), abs=TOL)


def test_other_sweeps():
    cand = "police arrested two men after a robbery at a bank in the city centre on friday"
    refs = [cand, "two men were arrested by police after a bank robbery on friday"]
    sh = sweep_shuffle(cand, refs, steps=4, trials=3)
    assert sh.x == [0, 0.25, 0.5, 0.75, 1.0]
    assert sh.values["rouge:rouge1"][0] == pytest.approx(1.0, abs=1e-9)
    assert sh.values["rouge:rouge1"][-1] == pytest.approx(1.0, abs=1e-9)
    assert sh.values["rouge:rouge2"][-1] < sh.values["rouge:rouge2"][0]
    stf = sweep_stuffing("men arrested after robbery", refs, 5)
    assert stf.x == list(range(6)) and stf.texts[0] == "men arrested after robbery"
    nr = sweep_references("two men were arrested after a robbery", refs)
    assert nr.x == [1, 2]
    real = sacrebleu.sentence_bleu("two men were arrested after a robbery", refs).score
    assert nr.values["bleu:score"][1] == pytest.approx(real, abs=TOL)
    with pytest.raises(ValueError):
        sweep_length("", refs)
    with pytest.raises(ValueError):
        sweep_length("x", ["  "])


def test_docs_preset_table_is_current():
    from explainer.attacks.presets import markdown_table
    from tests.conftest import ROOT

    doc = (ROOT / "docs" / "gaming-lab.md").read_text(encoding="utf-8")
    start, end = doc.index("<!-- presets-table:start -->"), doc.index("<!-- presets-table:end -->")
    assert doc[start:end].split("\n", 1)[1].strip() == markdown_table().strip(), \
        "docs/gaming-lab.md is stale: paste the output of `python -m explainer.attacks.presets`"


def test_length_sweep_precision_recall_crossing_is_between_the_points():
    from explainer.ui.lab.charts import pr_crossing, sweep_figure

    sw = sweep_length("a fire destroyed a port warehouse on sunday",
                      ["a fire destroyed a warehouse in the port on sunday night"])
    x, y = pr_crossing(sw)
    i = next(k for k in range(1, len(sw.x)) if sw.x[k] >= x)
    p, r = sw.values["rouge1_p"], sw.values["rouge1_r"]
    assert (p[i - 1] - r[i - 1]) * (p[i] - r[i]) <= 0 and sw.x[i - 1] <= x <= sw.x[i]
    fig = sweep_figure(sw)
    assert any(a.text == "ROUGE-1 P = R" for a in fig.layout.annotations)


_any_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)


@settings(max_examples=60)
@given(cand=_any_text, refs=st.lists(_any_text, min_size=1, max_size=3), seed=st.integers(0, 5))
def test_generators_never_crash_on_odd_unicode(cand, refs, seed):
    """Any text (control characters, RTL marks, CJK, emoji, empty): every generator returns a Generated with a
    note, and its output can be scored (or is empty)."""
    from explainer.attacks.generators import GENERATORS, run_generator

    for key, spec in GENERATORS.items():
        params = {p.name: p.default for p in spec.params}
        if "seed" in params:
            params["seed"] = seed
        g = run_generator(key, cand, refs, **params)
        assert isinstance(g.text, str) and g.note
        good_refs = [r for r in refs if r.strip()]
        if g.text.strip() and good_refs:
            s = score(g.text, good_refs)
            # sacreBLEU gives 100.00000000000004 for "0" vs "0"
            assert 0 <= s["bleu"] <= 100 + 1e-9 and 0 <= s["rouge1_f"] <= 1
