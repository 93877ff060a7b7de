"""Built-in claims: numbers printed in textbooks and tutorials for the worked examples
(``explainer.examples``), some right, some wrong. The reproduce view offers them as ready-made questions; the
tests check the verdicts below against the search."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BuiltinClaim", "BUILTIN_CLAIMS", "get_builtin_claim"]


@dataclass(frozen=True)
class BuiltinClaim:
    id: str
    example: str            # id in explainer.examples
    claim: str
    metric: str             # --metric
    source: str             # who printed it, in words
    expected: str           # the verdict: "reproduced", "unreproducible", or "unusual" (only an odd setting)
    note: str               # what the search shows


BUILTIN_CLAIMS: tuple[BuiltinClaim, ...] = (
    BuiltinClaim("lesson_cat_sat", "cat_sat", "BLEU = 0.576", "bleu",
                 "a lesson's bleu_score(...) output, printed as “~0.576”", "unreproducible",
                 "The 4-gram precision is 0/3: unsmoothed BLEU-4 is 0, smoothed values are 0.25–0.49, BLEU-3 is 0.5."),
    BuiltinClaim("lesson_warfarin_r1", "warfarin", "ROUGE-1 0.778", "rouge1",
                 "a lesson's evaluate rouge.compute(...) output", "unreproducible",
                 "rouge-score, HF evaluate and ROUGE-1.5.5 all give ROUGE-1 F 0.667 (3 of 4 and 3 of 5 words)."),
    BuiltinClaim("lesson_warfarin_r2", "warfarin", "ROUGE-2 0.5", "rouge2",
                 "a lesson's evaluate rouge.compute(...) output", "unreproducible",
                 "One shared bigram: ROUGE-2 F is 0.286 everywhere."),
    BuiltinClaim("lesson_warfarin_rl", "warfarin", "ROUGE-L 0.778", "rougeL",
                 "a lesson's evaluate rouge.compute(...) output", "unreproducible",
                 "The LCS has 3 tokens: ROUGE-L F is 0.667."),
    BuiltinClaim("chapter_earnings", "earnings", "ROUGE-L recall 0.67", "rougeL",
                 "a chapter's “LCS of 4 words, ROUGE-L recall 0.67”", "unreproducible",
                 "The LCS has length 2 (`the company`): recall 2/6 = 0.333."),
    BuiltinClaim("chapter_google_r2", "google", "ROUGE-2 about 14 %", "rouge2",
                 "a chapter's “ROUGE-2 about 14 %”", "unreproducible",
                 "The two texts share no bigram: ROUGE-2 is 0 in every implementation."),
    BuiltinClaim("colab_abandon", "abandon_hope", "BLEU: 0.541", "bleu",
                 "a Colab tutorial's calculate_bleu(...) with four references", "reproduced",
                 "Only the first reference gives 0.541; with all four BLEU is 0.78."),
    BuiltinClaim("colab_abandon_r1", "abandon_hope", "ROUGE-1 0.750", "rouge1",
                 "the same Colab tutorial's ROUGE scores (recall = precision = F1)", "reproduced",
                 "0.750 needs whitespace tokens that keep case and punctuation (`Abandon` ≠ `abandon`, `,` is a "
                 "token): 6 of 8 unigrams of reference 1. That is rouge-metric's PyRouge with multi_ref_mode='best' "
                 "and the rouge package (pltrdy) against reference 1. rouge-score's tokenizer gives 1.000; "
                 "ROUGE-1.5.5 pools the references: 0.741."),
    BuiltinClaim("colab_abandon_r2", "abandon_hope", "ROUGE-2 0.571", "rouge2",
                 "the same Colab tutorial's ROUGE scores (recall = precision = F1)", "reproduced",
                 "0.571 = 4/7: with whitespace tokens keeping case and punctuation, 4 of the 7 bigrams match "
                 "reference 1 (rouge-metric with multi_ref_mode='best'; the rouge package against reference 1). "
                 "rouge-score's tokenizer gives 0.667; ROUGE-1.5.5 (pooled) 0.435."),
    BuiltinClaim("colab_abandon_rl", "abandon_hope", "ROUGE-L 0.750", "rougeL",
                 "the same Colab tutorial's ROUGE scores (recall = precision = F1)", "reproduced",
                 "With whitespace tokens keeping case and punctuation the LCS with reference 1 is `hope , ye who "
                 "enter here`, 6 of 8 tokens: the rouge package (pltrdy) against reference 1. rouge-score's "
                 "tokenizer gives 0.857; ROUGE-1.5.5 (pooled) 0.667."),
    BuiltinClaim("chapter_papineni", "papineni_the", "modified unigram precision 0.29", "bleu",
                 "a chapter's “modified precision 2/7 = 0.29”", "reproduced",
                 "2/7 needs lowercasing (the references start with `The`); case-sensitive it is 1/7."),
    BuiltinClaim("chapter_military_bp", "military_party", "BP 0.0131", "bleu",
                 "a chapter's brevity penalty for “the military party”", "reproduced",
                 "0.0131 needs whitespace tokens (16 reference tokens); 13a splits the final period (17 tokens)."),
    BuiltinClaim("notes_bleu1", "cat_mat", "BLEU-1 0.705", "bleu",
                 "study notes' “BLEU-1 ≈ 0.846 × 0.833 ≈ 0.705”", "reproduced",
                 "Unigram BLEU: precision 5/6 times BP 0.846."),
    BuiltinClaim("sacrebleu_cat_sat", "cat_sat", "38.0", "any",
                 "sacreBLEU's default output for the same pair", "reproduced",
                 "sacreBLEU's exp smoothing turns the 0/3 4-gram precision into 1/6."),
)

_BY_ID = {c.id: c for c in BUILTIN_CLAIMS}
assert len(_BY_ID) == len(BUILTIN_CLAIMS), "duplicate built-in claim id"


def get_builtin_claim(claim_id: str) -> BuiltinClaim:
    try:
        return _BY_ID[claim_id]
    except KeyError:
        raise KeyError(f"unknown built-in claim {claim_id!r}; known: {', '.join(_BY_ID)}") from None
