"""TER parity: the explainer's TER dialect against sacreBLEU 2.6's ``TER``, computed here — every option combination
(2^4) on the texts of the golden BLEU cases (1-5 references each), 1, 2 and 4 references, empty and odd texts, CJK
with asian_support, random texts (hypothesis), the bundled sample corpora (a real-sized test set: 300 segments, 2
references, 3 systems) and the golden corpora. Statistics exact, scores to 1e-9 (in fact equal)."""
from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER

from conftest import golden
from explainer.ter import explain_ter, explain_ter_corpus, score_ter, score_ter_corpus

TOL = 1e-9
OPTION_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_OPTIONS = [dict(zip(OPTION_NAMES, v)) for v in itertools.product([False, True], repeat=4)]


def _cases() -> list[tuple[str, list[str]]]:
    seen, out = set(), []
    for r in golden("bleu/sacrebleu.jsonl"):
        if r["level"] != "segment" or not r["references"] or any(x is None for x in r["references"]):
            continue
        key = (r["candidate"], tuple(r["references"]))
        if key not in seen:
            seen.add(key)
            out.append((r["candidate"], list(r["references"])))
    return out


CASES = _cases()


def _ids(o: dict) -> str:
    return ",".join(k for k, v in o.items() if v) or "default"


def check_segment(h: str, refs: list[str], opts: dict, *, trace: bool = True):
    m = TER(**opts)
    want = m.sentence_score(h, refs)
    want_stats = m._extract_corpus_statistics([h], [[r] for r in refs])[0]
    st = score_ter(h, refs, **opts)
    assert st.stats == want_stats, (h, refs, opts)
    assert abs(st.score - want.score) <= TOL and st.score == want.score, (h, refs, opts)
    assert int(st.num_edits) == want.num_edits and st.ref_length == want.ref_length
    assert st.signature == m.get_signature().format()
    if not trace:
        return st
    tr = explain_ter(h, refs, **opts)
    assert tr.stats == want_stats, (h, refs, opts)
    assert tr.score == want.score and tr.signature == st.signature
    assert [p.num_edits for p in tr.per_reference] == st.reference_edits[0]
    assert tr.chosen_reference == st.chosen_references[0]
    return tr


def test_the_cases_are_many():
    assert len(CASES) > 400
    assert {len(r) for _, r in CASES} >= {1, 2, 3, 4, 5}


@pytest.mark.parametrize("opts", ALL_OPTIONS, ids=_ids)
def test_sentence_parity_every_option_combination(opts):
    rng = random.Random(hash(_ids(opts)) % 1000)
    for h, refs in rng.sample(CASES, 120):
        check_segment(h, refs, opts)


def test_sentence_parity_every_golden_case():
    for h, refs in CASES:
        check_segment(h, refs, {})


def test_several_references_fewest_edits_and_the_mean_length():
    h = "the quick brown fox jumps over the lazy dog"
    refs = ["a quick brown fox jumped over a lazy dog", "the lazy dog was jumped over by the quick brown fox",
            "the quick brown fox jumps over the lazy dog today", "quick fox"]
    for k in (1, 2, 4):
        tr = check_segment(h, refs[:k], {})
        lengths = [len(r.split()) for r in refs[:k]]
        assert tr.ref_length == sum(lengths) / k
        edits = [p.num_edits for p in tr.per_reference]
        assert tr.num_edits == min(edits) and tr.chosen_reference == edits.index(min(edits))
    # a tie keeps the first reference
    tr = check_segment("a b c", ["a b d", "a b e"], {})
    assert tr.chosen_reference == 0 and [p.num_edits for p in tr.per_reference] == [1, 1]


@pytest.mark.parametrize("h,refs", [
    ("", ["the cat"]), ("the cat", [""]), ("", [""]), ("", ["", "a b"]), ("a b c", ["", "a b c"]),
    ("   ", ["\t"]), ("...!!", ["?"]), ("( ) , .", ["\"hello\""]), ("İstanbul'da ÇAY", ["istanbul'da çay"]),
    ("ΟΔΟΣ καλή", ["οδος καλη"]), ("Straße &amp; Co.", ["strasse & co ."]), ("l'homme's dog's", ["l'homme 's dog"]),
    ("3.5% of 1,000-2", ["3.5 % of 1,000 - 2"]), ("a\n-b c\nd", ["ab c d"]), ("&quot;hi&quot; &lt;b&gt;", ['"hi" <b>']),
    ("今天天气很好。", ["今天 天气 很 好 。"]), ("東京タワーはきれいです、ね！", ["東京 タワー は きれい です ね"]),
    ("ｈｅｌｌｏ，ｗｏｒｌｄ！", ["hello , world !"]), ("a\u200bb c", ["ab c"]), ("x " * 60, ["x " * 3]),
])
def test_edge_cases_every_option(h, refs):
    for opts in ALL_OPTIONS:
        check_segment(h, refs, opts)


def test_empty_texts_follow_compute_score_from_stats():
    assert score_ter("a b", [""]).score == TER().sentence_score("a b", [""]).score == 100.0
    assert score_ter("", [""]).score == 0.0
    assert score_ter("a b c", ["", ""]).stats == [3, 0.0]
    tr = explain_ter("a b", [""])
    assert tr.combination.rule == "empty-reference" and tr.kept.stop == "empty-reference"
    assert [e.op for e in tr.kept.alignment] == ["deletion", "deletion"]


WORDS = st.sampled_from("the cat sat on a mat . , dog ran The Cat ( ) ! ? &amp; 's 今天 好 。 ， 3.5 -".split())


@settings(max_examples=150, deadline=None)
@given(h=st.lists(WORDS, max_size=14), refs=st.lists(st.lists(WORDS, max_size=14), min_size=1, max_size=4),
       opts=st.sampled_from(ALL_OPTIONS), sep=st.sampled_from([" ", "", "  ", "\n"]))
def test_random_texts(h, refs, opts, sep):
    check_segment(sep.join(h), [sep.join(r) for r in refs], opts)


def _sample(sample_id: str):
    from explainer.corpus.samples import HERE, SAMPLES

    s = SAMPLES[sample_id]
    d = HERE / sample_id
    read = lambda f: (d / f).read_text(encoding="utf-8").rstrip("\n").split("\n")   # noqa: E731
    return {f: read(f) for f in s.systems}, [read(f) for f in s.references]


@pytest.mark.parametrize("sample,opts,n", [("news-en", {}, 300),
                                           ("news-en", {"normalized": True, "case_sensitive": True}, 300),
                                           ("news-zh", {"normalized": True, "asian_support": True}, 80),
                                           ("news-zh", {"no_punct": True, "asian_support": True}, 200)])
def test_corpus_parity_samples(sample, opts, n):
    """The bundled corpora (news-zh with CJK characters split: its first 80 segments, the shift search being
    slow on characters)."""
    systems, streams = _sample(sample)
    streams = [s[:n] for s in streams]
    systems = {k: v[:n] for k, v in systems.items()}
    per_seg = [list(x) for x in zip(*streams)]
    assert len(per_seg) == n
    for j, (name, hyps) in enumerate(systems.items()):
        m = TER(**opts)
        want_stats = m._extract_corpus_statistics(hyps, streams)
        want = m._aggregate_and_compute(want_stats)
        st = score_ter_corpus(hyps, per_seg, **opts)
        assert st.segment_stats == want_stats, name
        assert st.score == want.score and int(st.num_edits) == want.num_edits and st.ref_length == want.ref_length
        assert st.signature == m.get_signature().format()
        if j == 0:
            one = score_ter_corpus(hyps, [[r[0]] for r in per_seg], **opts)
            assert one.score == TER(**opts).corpus_score(hyps, streams[:1]).score
            tr = explain_ter_corpus(hyps, per_seg, full=True, **opts)
            assert tr.score == want.score and tr.segment_stats == want_stats
            assert tr.segment_scores()[:20] == [TER(**opts).sentence_score(h, r).score
                                                for h, r in zip(hyps[:20], per_seg[:20])]


def test_corpus_parity_golden_corpora():
    n = 0
    for r in golden("bleu/sacrebleu.jsonl"):
        if r["level"] != "corpus" or not r["candidates"]:
            continue
        hyps, refs = r["candidates"], r["references"]
        if any(not rs or any(x is None for x in rs) for rs in refs):
            continue
        K = {len(rs) for rs in refs}
        if len(K) != 1:
            continue
        streams = [[rs[k] for rs in refs] for k in range(K.pop())]
        opts = {"normalized": True, "no_punct": True, "case_sensitive": True} if n % 2 else {}
        want = TER(**opts).corpus_score(hyps, streams)
        got = score_ter_corpus(hyps, refs, **opts)
        assert got.score == want.score and got.ref_length == want.ref_length
        assert explain_ter_corpus(hyps, refs, full=True, **opts).score == want.score
        n += 1
    assert n >= 10


def test_variable_number_of_references_is_var_in_the_signature():
    hyps = ["a b c", "d e f"]
    refs = [["a b c", "a c b"], ["d f e"]]
    st = score_ter_corpus(hyps, refs)
    want = TER().corpus_score(hyps, [["a b c", "d f e"], ["a c b", None]])
    assert st.score == want.score and "nrefs:var" in st.signature
