"""Trace contents: spans, tokenizers, tables, W/S/SU details, call snippets, corpus plumbing."""
from __future__ import annotations

import json
import random

import pytest
from rouge_score import rouge_scorer
from rouge_score.rouge_scorer import _lcs_table

from explainer.rouge import explain_rouge, explain_rouge_corpus, score_rouge
from explainer.rouge import lcs as lcs_mod

ALL = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]


def test_trace_is_pure_json_for_every_type():
    tr = explain_rouge("The cat sat.\nThe dog ran!", ["the cat sat on the mat\nA dog ran", "cats sit"], types=ALL,
                       use_stemmer=True)
    s = json.dumps(tr.to_dict(), allow_nan=False)
    back = json.loads(s)
    assert back["types"] == ALL and set(back["scores"]) == set(ALL)
    assert back["per_reference"][0]["rougeSU4"]["detail"]["su_last_token_counted"] is False
    w = back["per_reference"][0]["rougeW-1.2"]["detail"]
    assert w["per_ref_sentence"][0]["lcs_per_cand_sentence"][0]["table"][0][0] == 0.0
    assert all(r == sorted(r) for r in [w["per_ref_sentence"][0]["marked"]])


def test_spans_point_into_the_original_text():
    text = "  Dr. Smith's U.S.-led plan, 3.30 p.m.\tTODAY İstanbul"
    tr = explain_rouge(text, ["dr smith"], use_stemmer=False)
    toks = tr.to_dict()["candidate"]["tokens"]
    assert [t["text"] for t in toks] == rouge_scorer.RougeScorer(["rouge1"])._tokenizer.tokenize(text)
    for t in toks:
        assert text[t["start"]:t["end"]].lower().replace("i̇", "i") == t["text"]


def test_stems_recorded():
    tr = explain_rouge("the children were running quickly", ["a child runs"], use_stemmer=True)
    toks = tr.to_dict()["candidate"]["tokens"]
    tok = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=True)._tokenizer
    assert [t["stem"] for t in toks] == tok.tokenize("the children were running quickly")
    assert any(t["stem"] != t["text"] for t in toks)
    assert "Porter" in tr.stemmer


def test_unicode_tokenizer():
    tr = explain_rouge("Привет, мир! 中文 Running", ["привет мир"], tokenizer="unicode", use_stemmer=True)
    c = tr.to_dict()["candidate"]
    assert [t["text"] for t in c["tokens"]] == ["привет", "мир", "中", "文", "running"]
    assert [t["stem"] for t in c["tokens"]][-1] == "run"
    assert tr.scores["rouge1"].recall == 1.0
    assert "not any library's default" in tr.tokenizer
    assert c["dropped"] == []


def test_textbook_tokens_keep_punctuation():
    tr = explain_rouge("The cat sat on the mat.", ["the mat"], dialect="textbook", types=["rouge1"])
    c = tr.to_dict()["candidate"]
    assert [t["text"] for t in c["tokens"]] == "The cat sat on the mat.".lower().split()
    assert c["tokens"][-1]["start"] == 19 and c["tokens"][-1]["end"] == 23


def test_sampled_table_values_are_exact():
    rng = random.Random(3)
    a = [rng.choice("abcdefgh") for _ in range(450)]
    b = [rng.choice("abcdefgh") for _ in range(430)]
    res = lcs_mod.lcs(a, b)
    tf = lcs_mod.table_form(res, len(a), len(b))
    assert tf["kind"] == "sampled" and tf["row_index"][0] == 0 and tf["row_index"][-1] == 450
    t = _lcs_table(a, b)
    for ri, row in zip(tf["row_index"], tf["values"]):
        assert row == [t[ri][c] for c in tf["col_index"]]


def test_alternative_flag_both_code_paths(monkeypatch):
    rng = random.Random(5)
    cases = [([rng.choice("abc") for _ in range(rng.randint(1, 40))],
              [rng.choice("abc") for _ in range(rng.randint(1, 40))])
             for _ in range(150)]
    want = [lcs_mod.alternative_exists(a, b, lcs_mod.lcs(a, b)) for a, b in cases]
    monkeypatch.setattr(lcs_mod, "SMALL_PAIR_CELLS", 0)
    got_np = [lcs_mod.alternative_exists(a, b, lcs_mod.lcs(a, b)) for a, b in cases]
    monkeypatch.setattr(lcs_mod, "CHOSEN_MATRIX_MAX_CELLS", 0)
    got = [lcs_mod.alternative_exists(a, b, lcs_mod.lcs(a, b)) for a, b in cases]
    assert got == got_np == want and any(want) and not all(want)


def test_alternative_flag_blocks_skip_rows_without_a_match(monkeypatch):
    """Long pairs go through the NumPy blocks (growing from 16 rows; rows whose token is not in the candidate are
    skipped): the same answers as the popcount path, on pairs with and without another LCS."""
    rng = random.Random(9)
    cases = [(["the", "dog"] * 300, ["the", "cat"] * 300), (["the", "dog"] * 300, ["dog", "the"] * 300)]
    for _ in range(6):
        a = [rng.choice("abcxyz") for _ in range(rng.randint(250, 700))]
        cases.append((a, [rng.choice("abcq") for _ in range(rng.randint(250, 700))]))
        cases.append((a, [t for t in a if t != "x"] + ["z"]))
    got = [lcs_mod.alternative_exists(a, b, lcs_mod.lcs(a, b)) for a, b in cases]
    monkeypatch.setattr(lcs_mod, "SMALL_PAIR_CELLS", 10**9)
    want = [lcs_mod.alternative_exists(a, b, lcs_mod.lcs(a, b)) for a, b in cases]
    assert got == want and any(want) and not all(want)


@pytest.mark.parametrize("refs", [["the cat sat on the mat"], ["the cat sat on the mat", "a cat was sitting\nhere"]])
@pytest.mark.parametrize("stem", [False, True])
def test_call_snippet_reproduces_the_numbers(refs, stem):
    cand = "the cats sat\non a mat"
    tr = explain_rouge(cand, refs, use_stemmer=stem)
    ns = {"candidate": cand, "reference": refs[0], "references": refs}
    exec(tr.call, ns)
    for t, s in ns["scores"].items():
        assert tuple(s) == pytest.approx(tuple(tr.scores[t]), abs=1e-12)
    assert explain_rouge(cand, refs, types=["rougeW-1.2"]).call is None


def test_corpus_progress_traces_and_mean():
    seen = []
    ct = explain_rouge_corpus(["a b", "c d e"], [["a b"], ["c e", "d e"]], types=["rouge1", "rougeL"], traces=True,
                              aggregate="mean", progress=lambda i, n: seen.append((i, n)))
    assert seen == [(1, 2), (2, 2)]
    assert len(ct.items) == 2 and ct.items[1].chosen_reference["rouge1"] in (0, 1)
    want = [score_rouge("a b", ["a b"], types=["rouge1"])["rouge1"],
            score_rouge("c d e", ["c e", "d e"], types=["rouge1"])["rouge1"]]
    assert ct.aggregate["rouge1"].fmeasure == pytest.approx((want[0].fmeasure + want[1].fmeasure) / 2, abs=1e-9)
    json.dumps(ct.to_dict(), allow_nan=False)


def test_split_summaries_without_punkt_is_a_clear_error():
    try:
        import nltk

        nltk.data.find("tokenizers/punkt_tab")
        pytest.skip("punkt_tab is installed here")
    except LookupError:
        pass
    with pytest.raises(ValueError, match="punkt_tab"):
        explain_rouge("a. b.", ["a. b."], types=["rougeLsum"], split_summaries=True)


def test_lsum_tie_rule_matters_on_golden_case():
    from tests.conftest import golden

    rec = next(r for r in golden("rouge/rouge_score.jsonl")
               if r["case_id"] == "lcs_tiebreak_union" and not r["options"]["use_stemmer"])
    tr = explain_rouge(rec["candidate"], rec["references"], types=["rougeLsum"])
    d = tr.per_reference[0]["rougeLsum"].detail
    assert d["hits"] / d["ref_tokens"] == pytest.approx(rec["result"]["scores"]["rougeLsum"]["recall"], abs=1e-9)
    assert d["tie_rule_changes_hits"] and d["hits_with_other_tie_rule"] < d["hits"]
    assert any(c["alternative_lcs_exists"] for c in d["per_ref_sentence"][0]["lcs_per_cand_sentence"])


def test_huge_w_and_s_star_are_refused_clearly():
    from explainer.errors import ExplainerInputError

    a = " ".join(f"w{i}" for i in range(7000))
    with pytest.raises(ExplainerInputError, match="rougeS4"):
        explain_rouge(a, [a], types=["rougeS*"])
    with pytest.raises(ExplainerInputError, match="weighted-LCS"):
        score_rouge(a, [a], types=["rougeW-1.2"])
    assert score_rouge(a, [a], types=["rougeS4", "rougeL"])["rougeS4"].fmeasure == 1.0


def test_checkpointed_rows_give_the_same_alignment(monkeypatch):
    rng = random.Random(8)
    cases = [([rng.choice("abcdef") for _ in range(rng.randint(0, 120))],
              [rng.choice("abcdef") for _ in range(rng.randint(0, 120))]) for _ in range(60)]

    def run():
        out = []
        for a, b in cases:
            r = lcs_mod.lcs(a, b)
            out.append((r.length, r.pairs, lcs_mod.table_form(r, len(a), len(b), max_cells=0, sample=17)["values"],
                        lcs_mod.alternative_exists(a, b, r) if r.length else None))
        return out

    want = run()
    monkeypatch.setattr(lcs_mod, "ROWS_KEEP_ALL_MAX_BYTES", 0)
    assert lcs_mod.BitRows(["a"] * 50, ["a"] * 50)._all is None
    assert run() == want


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_texts = st.text(alphabet=st.sampled_from(list("aZ9 .,-\n\tßİKéñ中文ीहि😀\u0301'")), max_size=40)


@settings(max_examples=200)
@given(_texts)
def test_spans_property_rouge_score(text):
    tr = explain_rouge(text, ["a"], types=["rouge1"])
    c = tr.to_dict()["candidate"]
    real = rouge_scorer.RougeScorer(["rouge1"])._tokenizer.tokenize(text)
    assert [t["text"] for t in c["tokens"]] == real
    last = 0
    for t in c["tokens"]:
        assert t["start"] is not None and last <= t["start"] < t["end"] <= len(text)
        assert t["text"] in text[t["start"]:t["end"]].lower()
        last = t["end"]
    json.dumps(tr.to_dict(), allow_nan=False)


@settings(max_examples=200)
@given(_texts)
def test_spans_property_unicode(text):
    tr = explain_rouge(text, ["a"], types=["rouge1"], tokenizer="unicode")
    for t in tr.to_dict()["candidate"]["tokens"]:
        assert text[t["start"]:t["end"]].lower() == t["text"]


# ---- every dialect's trace follows docs/trace-schema-rouge.md ----------------------------------------------------

import re  # noqa: E402

from tests.conftest import ROOT  # noqa: E402

_DOCS = {p: (ROOT / "docs" / p).read_text(encoding="utf-8") for p in ("trace-schema-rouge.md", "dialects-rouge155.md")}
_TOP = {"kind", "dialect", "dialect_label", "signature", "call", "options", "types", "tokenizer", "stemmer", "scores",
        "reported", "multi_ref", "multi_ref_note", "chosen_reference", "pooled", "per_reference", "candidate",
        "references", "notes"}
_TEXTVIEW = {"role", "index", "text", "tokens", "stemmed", "dropped", "n_words", "message"}
_SENTENCE = {"index", "text", "start", "end", "tokens", "token_start"}
_TYPERESULT = {"type", "hits", "ref_total", "cand_total", "precision", "recall", "fmeasure", "detail"}
_SKIP = {"max_gap", "skip_bigrams", "skip_bigrams_truncated", "bigram_hits", "ref_bigrams", "cand_bigrams"}
_DETAIL = {
    "N": {"n", "ngrams"},
    "L": {"lcs_length", "pairs", "ref_indices", "cand_indices", "table", "alternative_lcs_exists", "tie_rule"},
    "Lsum": {"splitter", "ref_tokens", "cand_tokens", "hits", "ref_budget", "cand_budget", "hits_with_other_tie_rule",
             "tie_rule_changes_hits", "per_ref_sentence"},
    "W": {"weight", "hits", "ref_weight", "cand_tokens", "per_ref_sentence", "f", "f_inverse", "formula"},
    "S": _SKIP,
    "SU": _SKIP | {"unigrams", "unigram_hits", "ref_unigrams", "cand_unigrams", "su_last_token_counted"},
}
_NGRAM_ROW = {"ngram", "cand_count", "ref_count", "overlap", "cand_positions", "ref_positions"}
_TABLE = {"kind", "rows", "cols", "row_index", "col_index", "values"}
_LSUM_SENT = {"ref_sentence", "tokens", "lcs_per_cand_sentence", "union", "clipping", "hits", "clipped"}
_LSUM_PAIR = {"cand_sentence", "lcs_length", "ref_indices", "cand_indices", "alternative_lcs_exists"}
_CLIPPING = {"ref_index", "token", "cand_budget_before", "ref_budget_before", "counted"}
_W_SENT = {"ref_sentence", "marked", "counted", "runs", "run_weights", "dropped_open_run", "lcs_per_cand_sentence"}
_W_PAIR = {"cand_sentence", "wlcs", "pairs"}
_GRAM_ROW = {"gram", "cand_count", "ref_count", "overlap"}
_R155_DETAIL = {"perl_metric", "counts", "rounding", "selection_score"}
_DIED_DETAIL = {"perl_metric", "died", "died_why"}

_TRACE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum", "rougeW-1.2", "rougeS4", "rougeSU4", "rougeS*", "rougeSU*"]
# several sentences, repeats that the budgets clip, a reference whose union run stays open at a sentence end
# (rouge155: one without tokens, which makes the script die with -w), an empty candidate
_TRACE_CASES = [
    ("The cats sat.\nThe dog ran!\nthe the cat", ["the cat sat on the mat\nA dog ran", "cats sit\nthe cat the"]),
    ("b b b b\na b a b", ["a b a a\nb a", "a b"]),
    ("", ["a b"]),
    ("the cat sat", ["", "!!! ..."]),
]


def _documented(keys, dialect: str) -> set:
    docs = _DOCS["trace-schema-rouge.md"] + (_DOCS["dialects-rouge155.md"] if dialect == "rouge155" else "")
    return {k for k in keys if not re.search(rf"(?<![\w-]){re.escape(k)}(?![\w-])", docs)}


def _conforms(d: dict, required: set, where: str, dialect: str, *, optional: set = frozenset()) -> None:
    assert isinstance(d, dict), where
    missing = required - set(d)
    assert not missing, f"{dialect} {where}: documented keys missing: {sorted(missing)}"
    undocumented = _documented(set(d) - required - optional, dialect)
    assert not undocumented, f"{dialect} {where}: keys not in the docs: {sorted(undocumented)}"


def _dialect_traces():
    from explainer.rouge import DIALECTS, get_dialect, parse_type

    for name in sorted(DIALECTS):
        d = get_dialect(name)
        types = [t for t in _TRACE_TYPES if parse_type(t).kind in d.supported_kinds]
        policies = [o for o in next(o for o in d.OPTIONS if o.name == "multi_ref").choices]
        for cand, refs in _TRACE_CASES:
            for policy in policies:
                yield name, types, explain_rouge(cand, refs, dialect=name, types=types, multi_ref=policy)


def test_every_dialect_trace_has_the_documented_keys():
    """docs/trace-schema-rouge.md (and, for rouge155, docs/dialects-rouge155.md) is the contract: every key it lists is
    in every dialect's to_dict() for every type, and every key a trace carries is documented. (rouge155's rougeLsum
    lacked the tie-rule keys and its `clipped` was a list of ints, which crashed the Explain page's table.)"""
    from explainer.rouge import parse_type

    seen = set()
    for name, types, tr in _dialect_traces():
        d = json.loads(json.dumps(tr.to_dict(), allow_nan=False))
        _conforms(d, _TOP, "top level", name)
        assert d["types"] == types and set(d["scores"]) == set(types)
        for t, pool in d["pooled"].items():
            if name == "rouge155" and "died" in pool:  # the script's death is explained here, whatever the policy
                _conforms(pool, {"died", "died_why"}, f"pooled[{t}]", name)
                continue
            assert d["multi_ref"] == "pool" and d["chosen_reference"][t] is None
            _conforms(pool, {"hits", "ref_total", "cand_total", "references"}, f"pooled[{t}]", name,
                      optional={"rule"})
            assert ("rule" in pool) == (name == "rouge155" or t.startswith("rougeW"))
        for view in [d["candidate"]] + d["references"]:
            _conforms(view, _TEXTVIEW, "TextView", name, optional={"sentences"})
            assert ("sentences" in view) == ("rougeLsum" in types)  # only when a summary-level type was asked
            for s in view.get("sentences", []):
                _conforms(s, _SENTENCE, "TextView.sentences[]", name)
            for t in view["tokens"]:
                _conforms(t, {"text", "start", "end"}, "TextView.tokens[]", name, optional={"stem"})
        for k, per in enumerate(d["per_reference"]):
            assert set(per) == set(types)
            for t, res in per.items():
                kind = parse_type(t).kind
                where = f"per_reference[{k}][{t}]"
                _conforms(res, _TYPERESULT, where, name)
                det = res["detail"]
                if name == "rouge155" and "died" in det:
                    assert kind == "W" and set(det) == _DIED_DETAIL, det
                    seen.add((name, "died"))
                    continue
                _conforms(det, _DETAIL[kind] | (_R155_DETAIL if name == "rouge155" else set()), where + ".detail",
                          name, optional={"note"} if kind == "Lsum" else set())
                seen.add((name, kind))
                if kind == "N":
                    for row in det["ngrams"]:
                        _conforms(row, _NGRAM_ROW, where + ".ngrams[]", name)
                elif kind == "L":
                    _conforms(det["table"], _TABLE, where + ".table", name)
                elif kind == "Lsum":
                    assert ("note" in det) == (not det["per_ref_sentence"] and (det["ref_tokens"] == 0
                                                                               or det["cand_tokens"] == 0)) or \
                        name == "rouge155"
                    for s in det["per_ref_sentence"]:
                        _conforms(s, _LSUM_SENT, where + ".per_ref_sentence[]", name)
                        for p in s["lcs_per_cand_sentence"]:
                            _conforms(p, _LSUM_PAIR, where + ".lcs_per_cand_sentence[]", name)
                        for c in s["clipping"]:
                            _conforms(c, _CLIPPING, where + ".clipping[]", name)
                        for c in s["clipped"]:
                            _conforms(c, {"ref_index", "token"}, where + ".clipped[]", name)
                            assert c["token"] == s["tokens"][c["ref_index"]]
                            seen.add((name, "clipped"))
                    assert det["tie_rule_changes_hits"] == (det["hits_with_other_tie_rule"] != det["hits"])
                elif kind == "W":
                    for s in det["per_ref_sentence"]:
                        _conforms(s, _W_SENT, where + ".per_ref_sentence[]", name)
                        assert len(s["counted"]) == sum(s["runs"]) + s["dropped_open_run"]
                        seen.add((name, "open run")) if s["dropped_open_run"] else None
                        for p in s["lcs_per_cand_sentence"]:
                            _conforms(p, _W_PAIR, where + ".lcs_per_cand_sentence[]", name,
                                      optional={"table", "run_table"})
                            assert ("table" in p) == ("run_table" in p)
                            if "table" in p:
                                seen.add((name, "W table"))
                                assert p["table"][-1][-1] == p["wlcs"]
                                assert len(p["run_table"]) == len(p["table"])
                else:
                    for row in det["skip_bigrams"] + det.get("unigrams", []):
                        _conforms(row, _GRAM_ROW, where + ".skip_bigrams[]", name)
    for name in ("rouge-score", "hf-evaluate", "rouge155"):
        assert {(name, k) for k in ("N", "L", "Lsum", "W", "S", "SU", "clipped", "open run", "W table")} <= seen, name
    assert {("textbook", "N"), ("textbook", "L"), ("rouge155", "died")} <= seen


def test_ui_helpers_run_on_every_dialect_trace():
    """Every helper of explainer/ui/rouge_view.py on every dialect's traces (the Explain page calls them with
    whatever dialect is chosen): `lsum_rows(explain_rouge('the cat', ['the cat\\nthe cat'], dialect='rouge155',
    types=['rougeLsum']), 0)` raised AttributeError."""
    from explainer.ui import rouge_view as rv

    tr = explain_rouge("the cat", ["the cat\nthe cat"], dialect="rouge155", types=["rougeLsum"])
    rows = rv.lsum_rows(tr, 0)
    assert [r["clipped by budget"] for r in rows] == ["—", "the, cat"]
    n = 0
    for _name, types, tr in _dialect_traces():
        assert [r["type"] for r in rv.prf_rows(tr)] == types
        assert len(rv.winner_rows(tr)) == len(types)
        assert rv.headline_types()
        for t in types:
            assert isinstance(rv.type_label(t), str)
        for k in range(len(tr.references)):
            for t in types:
                res = rv.result(tr, t, k)
                assert res is not None and isinstance(rv.detail(tr, t, k), dict)
                rows = rv.overlap_rows(tr, t, k)
                if t in ("rouge1", "rouge2"):
                    assert sum(r["overlap (min)"] for r in rows) == res.hits
                for side in ("candidate", "reference"):
                    rv.ngram_marks(tr, t, k, side=side)
                    rv.lcs_marks(tr, k, t, side=side)
            assert len(rv.lcs_alignment_rows(tr, k)) == tr.per_reference[k]["rougeL"].detail["lcs_length"]
            if "rougeLsum" in types:
                rows = rv.lsum_rows(tr, k)
                det = tr.per_reference[k]["rougeLsum"].detail
                assert sum(r["hits counted"] for r in rows) == det["hits"]
                assert [r["clipped by budget"] for r in rows] == [
                    ", ".join(s["tokens"][c["ref_index"]] for c in s["clipped"]) or "—"
                    for s in det["per_ref_sentence"]]
            rv.token_spans(tr.references[k])
        n += 1
    assert n >= 4 * 6


def test_every_dialect_corpus_trace_has_the_documented_keys():
    """The corpus trace's keys (notes, aggregation) are documented, and `mid` is described as the dialect computes it:
    a median for rouge-score / hf-evaluate, the mean of the resample means for rouge155."""
    from explainer.rouge import DIALECTS, explain_rouge_corpus

    top = {"kind", "dialect", "signature", "options", "types", "aggregation", "aggregate", "reported", "item_scores",
           "chosen_reference", "notes"}
    doc = _DOCS["trace-schema-rouge.md"]
    corpus_doc = doc[doc.index("## Corpus"):]
    for name in sorted(DIALECTS):
        for traces in (False, True):
            ct = explain_rouge_corpus(["the cat sat", "a dog"], [["the cat sat on the mat", "cats"], ["the dog"]],
                                      dialect=name, types=["rouge1", "rougeL"], traces=traces)
            d = json.loads(json.dumps(ct.to_dict(), allow_nan=False))
            _conforms(d, top, "corpus top level", name, optional={"items"})
            assert ("items" in d) == traces
            _conforms(d["aggregation"], {"method", "note"}, "corpus aggregation", name)
            assert not _documented(set(d["aggregation"]), name) and all(k in corpus_doc for k in d["aggregation"])
            if "mid" in json.dumps(d["aggregate"]):
                kind = "mean" if name == "rouge155" else "median"
                assert kind.upper() in d["aggregation"]["note"]
                assert "rouge155: the **mean**" in corpus_doc and "**median**" in corpus_doc
