"""Which record of the course examples' test vectors (tests/data/seeds/*.jsonl.gz, field ``case_id``) holds each
worked example of :mod:`explainer.examples`. The ids are the course material's own; they stay in the tests (the
product does not carry them)."""
from __future__ import annotations

EXAMPLE_CASES: dict[str, str] = {
    "papineni_the": "s000_the_x7",
    "military_c1": "s000_military_c1",
    "military_c2": "s000_military_c2",
    "military_party": "s000_short_military_party",
    "party": "s000_exercise1_party",
    "abandon_hope": "s003_abandon_4refs",
    "cat_mat": "s004_cat_is_on",
    "cat_sat": "s002_cat_sat",
    "google": "s000_google",
    "earnings": "s000_earnings",
    "quick_brown": "s000_quick_brown",
    "union_lcs": "s001_union_lcs",
    "warfarin": "s002_warfarin",
    "dog_bit_man": "s000_dog_bit_man",
    "stem_took": "s004_stem_took",
    "medication": "s002_medication",
    "feline": "s002_feline",
    "identical": "s001_identical",
    "dup_cat": "s004_dup_cat",
    "mix_and_match": "s004_mix_and_match",
    "cat_sat_there": "s004_cat_sat_vs_there",
}
