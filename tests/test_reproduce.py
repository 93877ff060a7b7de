"""`reproduce`: claims made by running the REAL libraries with randomly drawn configurations are found; every
reported value is what `python -m explainer` prints with the match's argv; the course material's wrong claims
are unreproducible; claims are parsed and bounded."""
from __future__ import annotations

import io
import json
import math
import random
import sys
import warnings

import pytest
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

from explainer.bleu.dialect_nltk import NLTK_WEIGHTS
from explainer.cli import main
from explainer.dialectcmp.cases import BUILTIN_CLAIMS
from explainer.dialectcmp.claim import parse_claim
from explainer.dialectcmp.reproduction import reference_subsets, reproduce
from explainer.dialectcmp.space import split_sentences_per_line
from explainer.errors import ExplainerInputError
from explainer.examples import get_example

VOCAB = ["the", "The", "cat", "cats", "sat", "on", "mat", "a", "dog", "ran", "is", "mat.", ",", ".", "quickly",
         "running", "runs", "Party", "party", "café", "e-mail", "2023."]


def _texts(rng: random.Random) -> tuple[str, list[str]]:
    refs = []
    for _ in range(rng.randint(1, 4)):
        refs.append(" ".join(rng.choice(VOCAB) for _ in range(rng.randint(3, 12))))
    base = rng.choice(refs).split()
    for _ in range(rng.randint(0, 3)):      # a perturbed reference: most n-gram orders match something
        op = rng.random()
        if op < 0.4 and base:
            base[rng.randrange(len(base))] = rng.choice(VOCAB)
        elif op < 0.7 and len(base) > 1:
            del base[rng.randrange(len(base))]
        else:
            base.insert(rng.randrange(len(base) + 1), rng.choice(VOCAB))
    return " ".join(base) or "the", refs


def _real_claim(rng: random.Random, cand: str, refs: list[str]):
    """(claim text, --metric, family, dialects that may explain it, reference subset, metric, measure, value)
    from a real library run with a randomly drawn configuration."""
    subset = rng.choice(reference_subsets(len(refs)))[0]
    sub = [refs[k] for k in subset]
    lib = rng.choice(["sacrebleu", "nltk", "rouge-score"])
    if lib == "sacrebleu":
        opts = {"tokenize": rng.choice(["13a", "intl", "none", "char"]), "lowercase": rng.random() < 0.5,
                "smooth_method": rng.choice(["exp", "none", "floor", "add-k"]),
                "max_ngram_order": rng.randint(1, 4), "effective_order": rng.random() < 0.5}
        value = BLEU(**opts).corpus_score([cand], [[r] for r in sub]).score
        scale = rng.choice([1.0, 0.01])                     # a paper prints 37.99 or 0.3799
        return (f"BLEU = {value * scale:.{rng.randint(1, 3)}f}", "bleu", {"sacrebleu"}, subset, "bleu", "score",
                value, opts)
    if lib == "nltk":
        weights = rng.choice(NLTK_WEIGHTS)[0]
        method = rng.choice([f"method{i}" for i in range(8)])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = sentence_bleu([r.split() for r in sub], cand.split(), weights=weights,
                                      smoothing_function=getattr(SmoothingFunction(), method))
            except (ArithmeticError, AssertionError, IndexError, ValueError):
                return None     # NLTK fails on this draw (method6 with < 3 orders, ...): no number to claim
        return (f"{float(value):.{rng.randint(2, 4)}f}", "bleu", {"nltk"}, subset, "bleu", "score", float(value),
                {"weights": weights, "smoothing": method})
    t = rng.choice(["rouge1", "rouge2", "rougeL", "rougeLsum"])
    stem = rng.random() < 0.5
    scorer = rouge_scorer.RougeScorer([t], use_stemmer=stem)
    s = scorer.score_multi(sub, cand)[t]
    measure = rng.choice(["precision", "recall", "fmeasure"])
    word = {"precision": "precision", "recall": "recall", "fmeasure": "F1"}[measure]
    value = getattr(s, measure)
    if rng.random() < 0.5:
        text = f"{t} {word} {value:.{rng.randint(2, 4)}f}"
    else:
        text = f"{t} {word} {100 * value:.{rng.randint(1, 2)}f}"
    return text, t, {"rouge-score", "hf-evaluate"}, subset, t, measure, value, {"use_stemmer": stem}


def test_reproduce_finds_the_generating_configuration_of_real_library_claims():
    rng = random.Random(20261125)
    found = {"sacrebleu": 0, "nltk": 0, "rouge-score": 0}
    trial = 0
    while trial < 60:
        cand, refs = _texts(rng)
        drawn = _real_claim(rng, cand, refs)
        if drawn is None:
            continue
        trial += 1
        claim, metric, dialects, subset, m_metric, measure, value, opts = drawn
        res = reproduce(cand, refs, claim, metric=metric, max_matches=None)
        hits = [m for m in res.matches if m.config.dialect in dialects and tuple(m.references) == subset
                and m.metric == m_metric and m.measure == measure
                and math.isclose(m.value, value, rel_tol=1e-9, abs_tol=1e-12)]
        assert hits, (f"trial {trial}: {claim!r} from {dialects} {opts} on refs {subset} not found for {cand!r} / "
                      f"{refs!r}; matches: {[(m.description, m.value) for m in res.matches[:5]]}")
        assert res.verdict in ("reproduced", "unusual")
        found["rouge-score" if "rouge-score" in dialects else next(iter(dialects))] += 1
    assert min(found.values()) >= 10, found


def _cli(argv, stdin: str, capsys, monkeypatch) -> dict:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((stdin + "\n").encode()), encoding="utf-8"))
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


def _printed(out: dict, metric: str, measure: str) -> float:
    if metric == "bleu":
        if measure == "score":
            return out["score"]
        if measure == "bp":
            return out["bp"]
        return out["precisions"][int(measure[1]) - 1]
    return out[metric][measure]


def _check_against_cli(res, capsys, monkeypatch, limit: int = 40) -> int:
    claim = res.claim
    n = 0
    for m in (res.matches + res.truncated + res.nearest)[:limit]:
        out = _cli(m.argv, m.stdin, capsys, monkeypatch)
        got = _printed(out, m.metric, m.measure)
        assert got == m.value, (m.description, m.argv, got, m.value)
        stdin = json.loads(m.stdin)
        split = split_sentences_per_line if m.lsum_split else (lambda t: t)
        assert stdin["references"] == [split(res.references[k]) for k in m.references]
        assert stdin["candidate"] == split(res.candidate)
        x = {"as printed": m.value, "x100": m.value * 100, "/100": m.value / 100}[m.form]
        if m in res.matches:
            assert claim.format(x) == claim.shown, (m.description, x)
        elif m in res.truncated:
            assert claim.truncates_to(x) and not claim.rounds_to(x)
        n += 1
    return n


def test_every_reported_value_is_what_the_cli_prints_with_its_argv(capsys, monkeypatch):
    rng = random.Random(7)
    checked = 0
    for _ in range(12):
        cand, refs = _texts(rng)
        claim = _real_claim(rng, cand, refs) or ("0.5", "any")
        res = reproduce(cand, refs, claim[0], metric=claim[1])
        checked += _check_against_cli(res, capsys, monkeypatch, limit=15)
    for c in BUILTIN_CLAIMS:
        e = get_example(c.example)
        res = reproduce(e.candidate, list(e.references), c.claim, metric=c.metric)
        checked += _check_against_cli(res, capsys, monkeypatch, limit=10)
    assert checked >= 150


def test_lsum_sentence_splitting_is_searched_and_its_stdin_is_split(capsys, monkeypatch):
    cand = "schools were closed on monday. the storm cut power to homes."
    refs = ["the storm cut power to homes. schools were closed on monday."]
    from rouge_score import rouge_scorer as rs

    split = rs.RougeScorer(["rougeLsum"]).score(refs[0].replace(". ", ".\n"), cand.replace(". ", ".\n"))["rougeLsum"]
    res = reproduce(cand, refs, f"ROUGE-Lsum F {split.fmeasure:.3f}", max_matches=None)
    hit = [m for m in res.matches if m.lsum_split and m.config.dialect == "rouge-score"]
    assert hit and "one sentence per line (for ROUGE-Lsum)" in hit[0].settings
    assert "\\n" in hit[0].stdin
    _check_against_cli(res, capsys, monkeypatch)


@pytest.mark.parametrize("case", BUILTIN_CLAIMS, ids=[c.id for c in BUILTIN_CLAIMS])
def test_builtin_claims(case):
    e = get_example(case.example)
    res = reproduce(e.candidate, list(e.references), case.claim, metric=case.metric)
    assert res.verdict == case.expected, (case.id, res.message)
    if case.expected == "unreproducible":
        assert not res.matches and not res.truncated and res.nearest
        assert "cannot be reproduced" in res.message
    elif case.expected == "unusual":
        assert res.matches and all(m.unusual for m in res.matches) and "only an unusual setting" in res.message
    else:
        assert res.matches and not res.matches[0].unusual


@pytest.mark.parametrize("claim,metric", [("ROUGE-1 0.750", "rouge1"), ("ROUGE-2 0.571", "rouge2"),
                                          ("ROUGE-L 0.750", "rougeL")])
def test_the_colab_rouge_numbers_need_case_keeping_whitespace_tokens_against_reference_1(claim, metric):
    """Case- and punctuation-keeping whitespace tokens against reference 1: the defaults of rouge-metric's PyRouge
    (with multi_ref_mode='best', which keeps reference 1) and of the rouge package (pltrdy, one reference), and
    rouge-score with the opt-in whitespace tokenizer (unusual)."""
    from explainer.rouge import explain_rouge

    e = get_example("abandon_hope")
    res = reproduce(e.candidate, list(e.references), claim, metric=metric, max_matches=None)
    first = res.matches[0]
    assert res.verdict == "reproduced" and first.measure == "fmeasure"
    if metric == "rougeL":      # PyRouge's own ROUGE-L is summary level (rougeLsum here): not searched for ROUGE-L
        assert first.config.dialect == "pltrdy" and first.references == [0]
    else:
        assert first.config.dialect == "rouge-metric" and first.config.opts == {"multi_ref": "best-recall"}
        assert first.argv[-2:] == ["--multi-ref", "best-recall"]
        tr = explain_rouge(e.candidate, list(e.references), dialect="rouge-metric", multi_ref="best-recall",
                           types=[metric])
        assert tr.chosen_reference[metric] == 0
    assert any(m.config.dialect == "pltrdy" and m.references == [0] for m in res.matches)
    ws = [m for m in res.matches if m.config.dialect == "rouge-score" and m.config.opts == {"tokenizer": "whitespace"}]
    assert ws and all(m.unusual for m in ws) and "whitespace tokens keeping case and punctuation" in ws[0].description
    assert ws[0].argv[-2:] == ["--tokenizer", "whitespace"]
    assert all(m.cost >= first.cost for m in res.matches)


def test_the_first_reference_alone_explains_the_colab_number():
    e = get_example("abandon_hope")
    res = reproduce(e.candidate, list(e.references), "BLEU: 0.541")
    assert all(m.references == [0] for m in res.matches)
    assert {m.config.dialect for m in res.matches} >= {"sacrebleu", "nltk", "hf-evaluate"}
    assert "the first reference only" in res.matches[0].settings


def test_nearest_when_nothing_matches():
    e = get_example("cat_sat")
    res = reproduce(e.candidate, list(e.references), "BLEU = 0.576")
    assert res.verdict == "unreproducible" and len(res.nearest) == 5
    dists = [m.distance for m in res.nearest]
    assert dists == sorted(dists) and dists[0] > 0.0005


def test_claim_parsing():
    c = parse_claim("R-1 recall 0.67")
    assert (c.family, c.rouge_types, c.measures, c.decimals, c.shown) == ("rouge", ("rouge1",), ("recall",), 2, "0.67")
    c = parse_claim("BLEU-2: 27.30")
    assert (c.family, c.bleu_order, c.decimals) == ("bleu", 2, 2)
    assert parse_claim("ROUGE-L 0.41").rouge_types == ("rougeL",)
    assert parse_claim("38.0").family is None
    assert parse_claim("about 14 %").percent
    assert parse_claim("BP 0.0131").measures == ("bp",)
    assert parse_claim("modified precision 2/7 = 0.29").shown == "0.29"
    assert parse_claim("0,576").shown == "0.576"
    assert parse_claim("0.5", metric="rougeLsum").rouge_types == ("rougeLsum",)
    c = parse_claim("0.576")
    assert c.rounds_to(0.5764999) and c.rounds_to(0.5755) and not c.rounds_to(0.5766)
    assert c.truncates_to(0.5769) and not c.truncates_to(0.5771)


def test_scientific_notation_is_read_with_its_significant_digits():
    c = parse_claim("NLTK BLEU 7.26e-78")
    assert (c.family, c.significant, c.shown, c.precision_words) == ("bleu", 3, "7.26e-78", "3 significant digits")
    assert c.value == __import__("decimal").Decimal("7.26e-78") and c.decimals == 80
    assert c.rounds_to(7.262123179505913e-78) and not c.rounds_to(7.27e-78) and not c.rounds_to(7.26e-77)
    assert c.truncates_to(7.2699e-78) and not c.truncates_to(7.2599e-78) and not c.truncates_to(0.0)
    c = parse_claim("1e-3")
    assert (float(c.value), c.significant, c.shown) == (0.001, 1, "1e-03")
    assert c.rounds_to(0.00104) and not c.rounds_to(0.0016)
    c = parse_claim("BLEU = 2.5E-1")
    assert (float(c.value), c.significant) == (0.25, 2)
    assert parse_claim("BLEU = 0.576.").shown == "0.576"     # the sentence's full stop


@pytest.mark.parametrize("text,msg", [
    ("0x10", "'0x10' is a hexadecimal number"),
    ("BLEU 0x1A", "'0x1a' is a hexadecimal number"),
    ("1e5", "1e5 cannot be a BLEU or ROUGE value"),
    ("BLEU 1.2.3", "'1.2.3' is not a decimal number"),
    ("1e-400", "smaller than any number"),
    ("1.2345678901234e-5", "14 significant digits"),
])
def test_odd_numbers_are_refused_with_a_clear_message(text, msg):
    with pytest.raises(ExplainerInputError, match=__import__("re").escape(msg)):
        parse_claim(text)


def test_a_claim_in_scientific_notation_is_reproduced_by_nltk_method0():
    # NLTK's sentence_bleu without smoothing on the lesson's pair, as it prints it (7.262123179505913e-78)
    e = get_example("cat_sat")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        real = sentence_bleu([r.split() for r in e.references], e.candidate.split())
    claim = f"BLEU = {real:.2e}"
    assert claim == "BLEU = 7.26e-78"
    res = reproduce(e.candidate, list(e.references), claim, max_matches=None)
    assert res.verdict == "reproduced", res.message
    first = res.matches[0]
    assert first.config.dialect == "nltk" and first.config.opts == {} and first.shown == "7.26e-78"
    assert math.isclose(first.value, real, rel_tol=1e-9)


@pytest.mark.parametrize("text,metric,msg", [
    ("", "any", "empty"), ("BLEU", "any", "no number"), ("1 2", "any", "several numbers"),
    ("BLEU 250", "any", "cannot be a BLEU or ROUGE value"), ("x" * 300, "any", "at most 200"),
    ("ROUGE-L 0.4", "bleu", "--metric is bleu"), ("ROUGE-1 0.4", "rougeL", "--metric is rougeL"),
    ("BLEU and ROUGE-1 0.5", "any", "both BLEU and ROUGE"), ("0.5", "meteor", "metric must be one of"),
])
def test_bad_claims(text, metric, msg):
    with pytest.raises(ExplainerInputError, match=msg):
        parse_claim(text, metric)


def test_inputs_are_bounded_before_the_search():
    from explainer.dialectcmp.limits import MAX_REPRODUCE_TEXT_CHARS

    with pytest.raises(ExplainerInputError, match="2,000 per text"):
        reproduce("a " * MAX_REPRODUCE_TEXT_CHARS, ["a"], "0.5")
    with pytest.raises(ExplainerInputError, match="at most 10"):
        reproduce("a", ["a"] * 11, "0.5")
    with pytest.raises(ExplainerInputError, match="at least one reference"):
        reproduce("a", [], "0.5")


def test_progress_is_reported():
    seen = []
    e = get_example("military_c1")
    reproduce(e.candidate, list(e.references), "0.5", progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1][0] == seen[-1][1] and all(d <= t for d, t in seen)


def test_unusual_settings_are_flagged_and_ranked_last():
    e = get_example("military_party")
    res = reproduce(e.candidate, list(e.references), "0.0131")
    costs = [m.cost for m in res.matches]
    assert costs == sorted(costs)
    assert res.matches[0].config.dialect == "textbook" and res.matches[0].config.opts == {"max_n": 1}
