"""The worked examples are the course examples' own inputs, character for character."""
from __future__ import annotations

import pytest

from explainer.examples import EXAMPLES, example_ids, get_example
from tests.conftest import catalogue_text, seed_vectors
from tests.example_cases import EXAMPLE_CASES


def _seed_inputs() -> dict[str, tuple[str, tuple[str, ...]]]:
    out = {}
    for name in ("bleu.jsonl", "rouge.jsonl"):
        for rec in seed_vectors(name):
            out.setdefault(rec["case_id"], (rec["candidate"], tuple(rec["references"])))
    return out


@pytest.mark.parametrize("example_id", sorted(EXAMPLE_CASES))
def test_seed_example_is_the_seed_input(example_id):
    ex = get_example(example_id)
    case_id = EXAMPLE_CASES[example_id]
    seeds = _seed_inputs()
    assert case_id in seeds, f"{case_id} not among the course vectors"
    cand, refs = seeds[case_id]
    assert ex.candidate == cand
    assert ex.references == refs


def test_every_worked_example_has_its_course_vector():
    # every worked example (kind "seed") is checked against its course vector above
    assert {e.id for e in EXAMPLES if e.kind == "seed"} == set(EXAMPLE_CASES)


def test_issue_examples_are_present():
    # The issue names these worked examples; each must be pickable.
    ids = {EXAMPLE_CASES.get(e.id) for e in EXAMPLES}
    for case in ("s000_the_x7", "s000_military_c1", "s003_abandon_4refs", "s004_cat_is_on", "s000_google",
                 "s000_earnings", "s001_union_lcs"):
        assert case in ids
    assert any(e.kind == "gaming" for e in EXAMPLES)


def test_the_product_carries_no_course_material_ids():
    """The course material's internal ids (``s000_…``, ``S000-A``, "seed 000") stay in the tests."""
    import re

    from tests.conftest import ROOT

    pattern = re.compile(r"\b[sS]\d{3}[_-]\w|\bseeds? \d{3}\b", re.IGNORECASE)
    hits = []
    for path in sorted((ROOT / "explainer").rglob("*.py")) + [ROOT / "app.py", ROOT / "README.md"]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not hits, hits


def test_ids_unique_and_lookup():
    assert len(set(example_ids())) == len(EXAMPLES)
    assert get_example("papineni_the").candidate.split() == ["the"] * 7
    with pytest.raises(KeyError, match="unknown example"):
        get_example("nope")


def test_reference_counts_within_page_limits():
    for e in EXAMPLES:
        assert 1 <= len(e.references) <= 10
        assert e.candidate.strip()


def test_gaming_presets_are_the_catalogue_texts():
    flat = " ".join(catalogue_text().split())  # the catalogue wraps long strings
    def quoted(text: str) -> str:
        return "`" + " ".join(text.replace("\n", "\\n").split()) + "`"

    for e in EXAMPLES:
        if e.kind != "gaming":
            continue
        for text in e.references:
            assert quoted(text) in flat, (e.id, text)
        if e.id == "concat_refs":  # G9: "concatenation of both references"
            assert e.candidate == " ".join(e.references)
        elif e.id == "stopword_stuffing":  # G8: stuffed = base + ` the the the that the will in for the`
            base = "minister promises more money for schools next year"
            assert quoted(base) in flat and "` the the the that the will in for the`" in flat
            assert e.candidate == base + " the the the that the will in for the"
        else:
            assert quoted(e.candidate) in flat, (e.id, e.candidate)
