"""Worked examples (from the textbook and the classic papers) and a few gaming presets, as plain data.

Used by the Explain page's example picker, by tests and by anyone who wants a known input. The texts are
copied exactly from the textbook's test vectors and from the gaming catalogue (docs/gaming-lab.md); the
tests check that, with their own map from example to test vector. ``settings`` are permalink-style overrides
(the link parameter names of :mod:`explainer.ui.settings`) that make the example show its point, e.g. ``lowercase``
for the Papineni example whose claimed 2/7 needs lowercasing. ``claims``: the numbers the textbook prints for
the example; the Explain page and the Teach page show each beside what the implementations give with the settings
on the page (several printed numbers are wrong), each read from its family's trace
(:func:`explainer.families.claim_value`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["Example", "Claim", "EXAMPLES", "get_example", "example_ids", "CLAIM_METRICS", "CLAIM_COUNTS",
           "claim_field", "format_claim_value"]

#: what a claim can be about, and how it is named on the page
CLAIM_METRICS = {
    "bleu": "BLEU (0–1)", "bleu_p1": "unigram precision p₁", "bleu_bp": "brevity penalty",
    "rouge1_p": "ROUGE-1 precision", "rouge1_r": "ROUGE-1 recall", "rouge1_f": "ROUGE-1 F",
    "rouge2_r": "ROUGE-2 recall", "rouge2_f": "ROUGE-2 F", "rougeL_r": "ROUGE-L recall", "rougeL_f": "ROUGE-L F",
    "lcs": "LCS length (tokens)", "lsum_hits": "union LCS hits (ROUGE-Lsum)",
    "rouge1_hits": "ROUGE-1 overlap (unigram hits)",
}


@dataclass(frozen=True)
class Claim:
    """A number the textbook prints for an example: ``printed`` as the text writes it, ``value`` as a number,
    ``tol`` how far from it a true value still agrees (half a unit of the last printed digit). ``relation``
    ``"="``: the text says the number is ``value``; ``"<"``: it says the number stays below ``value`` (e.g. "a
    score of 1 is unattainable"), which a true value agrees with when it is below ``value − tol``."""

    metric: str
    printed: str
    value: float
    tol: float
    relation: str = "="

    def __post_init__(self):
        if self.metric not in CLAIM_METRICS:
            raise ValueError(f"unknown claim metric {self.metric!r}")
        if self.relation not in ("=", "<"):
            raise ValueError(f"unknown claim relation {self.relation!r}")

    def agrees(self, true_value: float) -> bool:
        """Whether the number an implementation gives agrees with what the text prints."""
        if self.relation == "<":
            return true_value < self.value - self.tol
        return math.isclose(true_value, self.value, abs_tol=self.tol + 1e-12)


#: claims that are counts (shown whole), and the ROUGE type each counts in
CLAIM_COUNTS = {"lcs": "rougeL", "lsum_hits": "rougeLsum", "rouge1_hits": "rouge1"}


def format_claim_value(metric: str, x: float) -> str:
    """A claim's true value as the pages show it: counts whole, others with 5 decimals (tiny ones in
    scientific notation)."""
    if metric in CLAIM_COUNTS:
        return f"{x:g}"
    return f"{x:.5f}" if abs(x) >= 1e-4 or x == 0 else f"{x:.3g}"


def claim_field(o: Any, name: str) -> Any:
    """A field of a trace object or of its ``to_dict()`` (the same names)."""
    return o[name] if isinstance(o, Mapping) else getattr(o, name)


@dataclass(frozen=True)
class Example:
    id: str
    title: str
    candidate: str
    references: tuple[str, ...]
    source: str  # where it comes from, in words (and the gaming catalogue id, e.g. G1)
    note: str  # one or two sentences: what to look at
    kind: str = "seed"  # "seed" (worked example) or "gaming" (attack / trap preset)
    settings: Mapping[str, str] = field(default_factory=dict)
    claims: tuple[Claim, ...] = ()


_MILITARY_REFS = (
    "It is a guide to action that ensures that the military will forever heed Party commands.",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party.",
    "It is the practical guide for the army always to heed the directions of the party.",
)
_ABANDON_REFS = (
    "All hope abandon , ye who enter here",
    "All hope abandon , ye who enter in !",
    "Leave every hope, ye that enter",
    "Leave all hope , ye that enter",
)

EXAMPLES: tuple[Example, ...] = (
    # --- worked examples of the textbook -------------------------------------------------------------
    Example(
        "papineni_the", "Papineni: “the the the the the the the”",
        "the the the the the the the",
        ("The cat is on the mat.", "There is a cat on the mat."),
        "Papineni et al. (2002), in the textbook · gaming catalogue G1",
        "Clipping: 'the' counts at most as often as in one reference. The claimed 2/7 needs lowercasing "
        "(case-sensitive it is 1/7); toggle 'lowercase' to see both.",
        claims=(Claim("bleu_p1", "2/7 = 0.29", 2 / 7, 0.005),)),
    Example(
        "military_c1", "Military example, candidate 1 (good)",
        "It is a guide to action which ensures that the military always obeys the commands of the party.",
        _MILITARY_REFS, "Papineni et al. (2002), in the textbook",
        "Three references; each n-gram is clipped by its largest count in any single reference."),
    Example(
        "military_c2", "Military example, candidate 2 (poor)",
        "It is to ensure the troops forever hearing the activity guidebook that party direct.",
        _MILITARY_REFS, "Papineni et al. (2002), in the textbook",
        "Decent unigram precision, but it collapses at higher orders (no 3- or 4-gram matches)."),
    Example(
        "military_party", "“the military party” (brevity penalty)",
        "the military party", (_MILITARY_REFS[0],), "textbook",
        "Three words against a 17-token reference: the brevity penalty is tiny, and the candidate has no 4-gram.",
        claims=(Claim("bleu_bp", "≈ 0.0131", 0.0131, 0.00005),
                Claim("bleu_p1", "1.00", 1.0, 0.005),
                Claim("bleu", "0.0131 (“adjusted score”)", 0.0131, 0.00005),)),
    Example(
        "party", "Exercise 1: “party”",
        "party", ("The military follows party commands",), "textbook, exercise 1",
        "One word: BP = exp(1 − 5/1) and no 2-, 3- or 4-grams at all. Compare with effective order on."),
    Example(
        "abandon_hope", "“Abandon all hope” (four references)",
        "Abandon all hope , ye who enter here", _ABANDON_REFS, "textbook",
        "Four references: BLEU clips against all of them; ROUGE keeps the best reference per type.",
        claims=(Claim("bleu", "0.541", 0.541, 0.0005),
                Claim("rouge1_f", "0.750", 0.75, 0.0005),
                Claim("rouge2_f", "0.571", 0.571, 0.0005),
                Claim("rougeL_f", "0.750", 0.75, 0.0005),)),
    Example(
        "cat_mat", "cat/mat: “the cat is on the mat”",
        "the cat is on the mat", ("there is a cat on the mat",), "textbook",
        "ROUGE-1 recall 5/7, precision 5/6; BLEU-1 ≈ 0.705 with max order 1.",
        claims=(Claim("rouge1_r", "5/7 ≈ 0.714", 5 / 7, 0.0005),
                Claim("rouge1_p", "5/6 ≈ 0.833", 5 / 6, 0.0005),
                Claim("rouge1_f", "≈ 0.769", 0.769, 0.0005),)),
    Example(
        "cat_sat", "cat/mat: “the cat sat on the mat”",
        "the cat sat on the mat", ("the cat is on the mat",), "textbook",
        "No 4-gram matches (0/3): the score depends entirely on smoothing.",
        claims=(Claim("bleu", "≈ 0.576", 0.576, 0.0005),)),
    Example(
        "google", "Google example (ROUGE)",
        "Google revealed AI search capabilities.", ("Google announced new AI features for search.",),
        "textbook", "ROUGE-1 recall 3/7; no shared bigram, so ROUGE-2 is 0 (the claimed 14 % does not hold).",
        claims=(Claim("rouge1_r", "about 43 %", 0.43, 0.005),
                Claim("rouge2_r", "about 14 %", 0.14, 0.005),)),
    Example(
        "earnings", "Earnings example (ROUGE-L)",
        "Strong earnings were announced by the company", ("The company announced strong quarterly earnings",),
        "textbook", "The LCS has length 2, not 4: ROUGE-L recall is 2/6, not 0.67.",
        claims=(Claim("lcs", "4 words", 4, 0),
                Claim("rougeL_r", "0.67", 0.67, 0.005),)),
    Example(
        "quick_brown", "“The brown quick fox” (LCS = 3)",
        "The brown quick fox", ("The quick brown fox",), "textbook",
        "Two LCSs of length 3 exist; the backtrace picks one of them.",
        claims=(Claim("lcs", "3", 3, 0),)),
    Example(
        "union_lcs", "Union LCS (ROUGE-Lsum, two candidate sentences)",
        "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5", ("w1 w2 w3 w4 w5",), "Lin (2004), summary-level LCS",
        "One sentence per line: the union of the per-sentence LCS hits is {w1, w2, w3, w5} = 4.",
        claims=(Claim("lsum_hits", "4", 4, 0),)),
    Example(
        "warfarin", "Warfarin (ROUGE)",
        "The patient takes Warfarin.", ("The patient is prescribed Warfarin.",), "textbook",
        "rouge-score gives ROUGE-1 F 0.667 and ROUGE-2 F 0.286, not the claimed 0.778 / 0.5.",
        claims=(Claim("rouge1_f", "0.778", 0.778, 0.0005),
                Claim("rouge2_f", "0.5", 0.5, 0.05),
                Claim("rougeL_f", "0.778", 0.778, 0.0005),)),
    Example(
        "medication", "“The medication reduces clotting.” (no shared word)",
        "The medication reduces clotting.", ("Warfarin prevents blood clots.",), "textbook",
        "No word is shared, but the 13a tokenizer splits off the full stop, which both texts end with: one shared "
        "unigram. Unsmoothed BLEU is 0; smoothed BLEU (sacreBLEU's default) is not. Switch smoothing to none.",
        claims=(Claim("bleu", "0 (“no shared n-grams”)", 0.0, 0.0),)),
    Example(
        "feline", "“The feline rested on the rug” (synonyms)",
        "The feline rested on the rug", ("The cat sat on the mat",), "textbook",
        "Synonyms do not match: only ‘The’, ‘on’, ‘the’ and the bigram ‘on the’ are shared. With no 3- or 4-gram "
        "match, unsmoothed BLEU-4 is 0, but smoothed BLEU is not.",
        claims=(Claim("bleu", "0.0 (“BLEU-4”)", 0.0, 0.05),)),
    Example(
        "identical", "Identical texts: “the cat sat on the mat”",
        "the cat sat on the mat", ("the cat sat on the mat",), "textbook",
        "A candidate equal to its reference gets the maximum: BLEU 1 (100 on sacreBLEU's scale) is attainable "
        "once the text has a 4-gram.",
        claims=(Claim("bleu", "below 1 (“a score of 1 is unattainable”)", 1.0, 1e-9, "<"),)),
    Example(
        "dup_cat", "Duplicates: “cat cat cat” against “cat cat”",
        "cat cat cat", ("cat cat",), "textbook",
        "The overlap is min(3, 2) = 2: the third ‘cat’ adds nothing to the overlap but lowers precision.",
        claims=(Claim("rouge1_hits", "min(3, 2) = 2", 2, 0),)),
    Example(
        "mix_and_match", "Mix and match: “the the cat” against two references",
        "the the cat", ("the cat", "the the dog"), "textbook",
        "BLEU clips each word by the reference where it is most frequent (‘the’ twice from the second, ‘cat’ "
        "from the first): unigram precision 1. ROUGE keeps one best reference per type.",
        claims=(Claim("bleu_p1", "1.0", 1.0, 0.05),
                Claim("rouge1_p", "0.667 (best pairwise)", 0.667, 0.0005),)),
    Example(
        "cat_sat_there", "“the cat sat on the mat” against “there is a cat on the mat”",
        "the cat sat on the mat", ("there is a cat on the mat",), "textbook",
        "The textbook runs ROUGE on this pair without printing the numbers: ROUGE-1, ROUGE-2 and ROUGE-L side "
        "by side (stemming changes nothing here)."),
    Example(
        "dog_bit_man", "“The dog bit the man” (role swap)",
        "The dog bit the man", ("The man bit the dog",), "textbook · gaming catalogue G5",
        "Same words, opposite meaning: ROUGE-1 is perfect, ROUGE-2 and ROUGE-L are not."),
    Example(
        "stem_took", "Stemming: “cats taking took taken”",
        "cats taking took taken", ("cat take take take",), "textbook",
        "Porter stemming maps cats→cat and taking→take, but leaves took and taken alone. Toggle 'stem'.",
        settings={"stem": "1"}),
    # --- gaming presets (the gaming catalogue, docs/gaming-lab.md) ------------------------------------------
    Example(
        "safe_short", "Gaming: safe and short",
        "the mat", ("The cat is sitting on the mat in the kitchen .",), "G2",
        "Perfect precision, tiny recall: BLEU's brevity penalty and ROUGE recall catch it.", kind="gaming"),
    Example(
        "permutation", "Gaming: permutation at bigram mismatches",
        "the lazy dog above the quick brown fox leaped", ("the quick brown fox jumped over the lazy dog",),
        "G4", "Chunks reordered at mismatch points: BLEU is unchanged, ROUGE-L drops.", kind="gaming"),
    Example(
        "negation", "Gaming: negation slipped in",
        "the new drug is not safe for young children", ("the new drug is safe for young children",),
        "G6", "One inserted 'not' reverses the meaning; the n-gram scores stay high.", kind="gaming"),
    Example(
        "concat_refs", "Gaming: concatenate the references",
        "a fire destroyed a warehouse in the port on sunday night "
        "fire crews fought a blaze at a dockside warehouse overnight",
        ("a fire destroyed a warehouse in the port on sunday night",
         "fire crews fought a blaze at a dockside warehouse overnight"),
        "G9", "Every n-gram is clipped by the reference where it is most frequent, so gluing the "
        "references together scores far above an honest output.", kind="gaming"),
    Example(
        "word_salad", "Gaming: word salad",
        "friday centre city the in bank a at robbery a after men two arrested police on",
        ("police arrested two men after a robbery at a bank in the city centre on friday",),
        "G7", "The reference's words, scrambled: ROUGE-1 is perfect, ROUGE-2 is 0, and BLEU's higher orders "
        "collapse.", kind="gaming"),
    Example(
        "stopword_stuffing", "Gaming: stopword stuffing",
        "minister promises more money for schools next year the the the that the will in for the",
        ("the minister said that the government will increase the budget for schools in the next year",),
        "G8", "Function words appended to a short summary raise ROUGE-1 recall and remove BLEU's brevity "
        "penalty.", kind="gaming"),
    Example(
        "frankenstein", "Gaming: stitch two references (Frankenstein)",
        "the president met the prime minister in paris on tuesday the french leader held talks with "
        "britain's premier about commerce",
        ("the president met the prime minister in paris on tuesday to discuss trade",
         "on tuesday the french leader held talks with britain's premier about commerce"),
        "G10", "BLEU clips each n-gram by the reference where it is most frequent, so half of one reference "
        "glued to half of the other scores almost 100; ROUGE keeps one best reference.", kind="gaming"),
    Example(
        "shortest_vs_closest", "Trap: which reference length (closest vs shortest)",
        "the minister announced a new package of funding for rural schools today",
        ("the minister announced funding for schools",
         "today the education minister announced a large new package of funding for rural schools"),
        "C6", "Same n-gram counts, different brevity penalty: sacreBLEU uses the closest reference length, "
        "HF evaluate the shortest. Switch the BLEU dialect.", kind="gaming"),
    Example(
        "tokenizer_roulette", "Trap: tokenizer roulette",
        "The U.S. economy grew 3.2% in Q3, beating forecasts.",
        ("The US economy grew by 3.2 % in the third quarter , beating forecasts .",),
        "C1", "A pre-tokenized reference: 13a, none and char tokenizers give very different BLEU.", kind="gaming"),
    Example(
        "lsum_newlines", "Trap: ROUGE-Lsum needs one sentence per line",
        "schools were closed on monday. the storm cut power to homes.",
        ("the storm cut power to homes.\nschools were closed on monday.",),
        "C8", "The reference has one sentence per line, the candidate is one line with the sentences swapped: "
        "ROUGE-L drops, ROUGE-Lsum does not.", kind="gaming"),
    Example(
        "smoothing_roulette", "Trap: smoothing roulette",
        "the cat is on a mat", ("the cat sat on the mat",), "C3",
        "No 3-gram match: none / floor / exp / add-k smoothing give four different scores.", kind="gaming"),
    Example(
        "non_latin", "Trap: non-Latin text in ROUGE",
        "北京是中国的首都", ("北京是中国的首都",), "C7",
        "Identical texts, yet rouge-score's tokenizer drops every non-ASCII character: ROUGE 0.", kind="gaming"),
)

_BY_ID = {e.id: e for e in EXAMPLES}
assert len(_BY_ID) == len(EXAMPLES), "duplicate example id"


def get_example(example_id: str) -> Example:
    try:
        return _BY_ID[example_id]
    except KeyError:
        raise KeyError(f"unknown example {example_id!r}; known: {', '.join(_BY_ID)}") from None


def example_ids() -> list[str]:
    return [e.id for e in EXAMPLES]
