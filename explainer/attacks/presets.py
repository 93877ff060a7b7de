"""Gaming-lab presets: every attack and failure case of the gaming catalogue as data (docs/gaming-lab.md lists them).

A preset is a list of *variants* (candidate(s) + references + scoring options). Nothing numeric is stored:
:func:`evaluate` scores every variant with the real implementations (see ``scoring.py``), computes deltas
against the first variant and a verdict per metric:

* ``kind="attack"``: variant 0 is the honest (better) output, the others are worse outputs (garbled,
  wrong, gamed). A metric is **fooled** when the worse output scores higher than the honest one,
  **tie** when both score the same (to ``EPS``: the metric cannot tell them apart - for a metric at its
  ceiling, such as a brevity penalty of 1 for two long enough texts, it simply has nothing to say; for a
  headline metric of the lesson the page shows the tie as *fooled*, see ``PresetResult.shown_verdict``), and
  **resisted** when it scores lower. A variant marked ``compare_only`` is shown for comparison (e.g. a
  human reference scored against another) and gets no verdict.
* ``kind="config"``: the *same* text scored under different settings (tokenizer, case, smoothing, API,
  reference-length rule, ROUGE tokenizer, newlines). A metric is **changed** or **unchanged** by the
  setting.

``story`` records, per headline metric, the verdict the lesson claims; tests assert that the computed
verdict agrees, so a lesson can never contradict its own numbers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from explainer.attacks.scoring import (
    CORPUS_BLEU,
    DEFAULT_METRICS,
    ROUGE_SCORE,
    SENTENCE_BLEU,
    BleuConfig,
    RougeConfig,
    Scores,
    score,
    score_corpus,
)

__all__ = ["Variant", "Preset", "PresetResult", "PRESETS", "get_preset", "evaluate", "verdict", "EPS",
           "LessonCard", "LESSON_CARDS", "ENTRIES"]

# Two scores closer than this are "equal" (floating-point noise only; every score is deterministic).
EPS = 1e-9


@dataclass(frozen=True)
class Variant:
    label: str
    candidate: str | tuple[str, ...]  # a tuple is a corpus (one candidate per segment)
    references: tuple  # tuple[str] for one candidate; tuple[tuple[str]] for a corpus
    bleu: BleuConfig = SENTENCE_BLEU  # corpus variants: CORPUS_BLEU (see _cv)
    rouge: RougeConfig = ROUGE_SCORE
    aggregate: str = "corpus"  # corpus variants only: "corpus" BLEU or "sentence_mean" (average of sentence BLEU)
    note: str = ""
    compare_only: bool = False  # shown for comparison only: no verdict, not part of the preset's summary

    @property
    def is_corpus(self) -> bool:
        return isinstance(self.candidate, tuple)

    def score(self) -> Scores:
        if self.is_corpus:
            s = score_corpus(list(self.candidate), [list(r) for r in self.references], self.bleu, self.rouge)
            if self.aggregate == "sentence_mean":
                s.values["bleu"] = s.values["sent_bleu_mean"]
            return s
        return score(self.candidate, list(self.references), self.bleu, self.rouge)

    def options_text(self) -> str:
        return f"BLEU {self.bleu.describe()}; ROUGE {self.rouge.describe()}" + (
            f"; BLEU = {'mean of sentence BLEU' if self.aggregate == 'sentence_mean' else 'corpus BLEU'}"
            if self.is_corpus else "")


@dataclass(frozen=True)
class Preset:
    id: str
    title: str
    catalogue: str  # catalogue id (G1, F3, C6, ...), as docs/gaming-lab.md lists them
    kind: str  # "attack" | "config"
    variants: tuple[Variant, ...]
    headline: tuple[str, ...]  # the metrics that matter for this lesson
    story: dict  # headline metric -> expected verdict for every non-baseline variant
    lesson: str
    citation: str
    metrics: tuple[str, ...] = DEFAULT_METRICS
    # the second text is a legitimate alternative (an extractive summary), not a trick: the verdicts say which text
    # each metric rates higher, not that it was fooled
    legitimate: bool = False

    @property
    def judgement(self) -> str:
        """How the lab judges the metrics on this preset: "attack", "preference" or "config"."""
        return "preference" if self.legitimate else self.kind


@dataclass
class PresetResult:
    preset: Preset
    scores: list[Scores]
    metrics: tuple[str, ...]
    deltas: list[dict[str, float]]  # per variant (0 for the baseline)
    verdicts: list[dict[str, str]]  # per variant; {} for the baseline

    def fooled(self, i: int = 1) -> list[str]:
        return [m for m, v in self.verdicts[i].items() if v in ("fooled", "changed")]

    def resisted(self, i: int = 1) -> list[str]:
        return [m for m, v in self.verdicts[i].items() if v in ("resisted", "unchanged")]

    @property
    def judged(self) -> list[int]:
        """Indices of the variants that get a verdict (not the baseline, not comparison-only ones)."""
        return [i for i, v in enumerate(self.preset.variants) if i > 0 and not v.compare_only]

    def shown_verdict(self, i: int, metric: str) -> str:
        """The verdict as the page shows it. In an attack, a *headline* metric that gives the worse text the
        same score as the honest one has failed to notice the attack (the catalogue's "identical BLEU, garbled
        text"): that tie is shown as ``fooled_tie``. A tie of any other metric (e.g. a brevity penalty of 1
        for both) stays a neutral ``tie``."""
        v = self.verdicts[i][metric]
        if v == "tie" and self.preset.kind == "attack" and metric in self.preset.headline:
            return "fooled_tie"
        return v

    def shown_summary(self, metric: str) -> str:
        """``summary`` as the page shows it: an attack's headline tie is ``fooled_tie`` (see shown_verdict)."""
        if self.preset.kind == "attack":
            return self.shown_verdict(self.judged[0], metric)
        return self.summary(metric)

    def summary(self, metric: str) -> str:
        """The preset-level verdict for one metric: for an attack, the verdict on the main attack (the first
        judged variant); for a configuration trap, "changed" if any setting changes the number."""
        if self.preset.kind == "attack":
            return self.verdicts[self.judged[0]][metric]
        return "changed" if any(self.verdicts[i][metric] == "changed" for i in self.judged) else "unchanged"


#: how a shown verdict reads in words (the page's badges add a symbol and a colour to these)
VERDICT_WORDS = {"fooled_tie": "fooled (same score)"}


def verdict(kind: str, base: float, other: float) -> str:
    same = math.isclose(other, base, rel_tol=0, abs_tol=EPS)
    if kind == "attack":
        return "tie" if same else ("fooled" if other > base else "resisted")
    return "unchanged" if same else "changed"


def _v(label, cand, refs, note="", **kw) -> Variant:
    refs = tuple(refs) if not isinstance(refs, str) else (refs,)
    return Variant(label, cand, refs, note=note, **kw)


def _cv(label, cands, refs, note="", bleu: BleuConfig = CORPUS_BLEU, **kw) -> Variant:
    return Variant(label, tuple(cands), tuple(tuple(r) for r in refs), bleu=bleu, note=note, **kw)


R_G1 = ("The cat is on the mat.", "There is a cat on the mat.")
R_G9 = ("a fire destroyed a warehouse in the port on sunday night",
        "fire crews fought a blaze at a dockside warehouse overnight")
R_G10 = ("the president met the prime minister in paris on tuesday to discuss trade",
         "on tuesday the french leader held talks with britain's premier about commerce")
G3_REFS = (("the committee approved the new budget on monday after a long debate",),
           ("heavy rain is expected across the north of the country this weekend",))
G3_HONEST = ("the committee approved the budget on monday", "heavy rain is expected in the north this weekend")
G7_REF = "police arrested two men after a robbery at a bank in the city centre on friday"
# The catalogue's salad: the reference's words in reverse order (with "on" moved to the end).
G7_SALAD = "friday centre city the in bank a at robbery a after men two arrested police on"
C1_CAND = "The U.S. economy grew 3.2% in Q3, beating forecasts."
C1_REF = "The US economy grew by 3.2 % in the third quarter , beating forecasts ."
C6_CAND = "the minister announced a new package of funding for rural schools today"
C6_REFS = ("the minister announced funding for schools",
           "today the education minister announced a large new package of funding for rural schools")
C7_ZH = "北京是中国的首都"
C7_FR = "Le café était très bon"
C7_FR_PLAIN = "Le cafe etait tres bon"
C8_REF = "the storm cut power to homes.\nschools were closed on monday."
C9_CAND = "a fire destroyed a port warehouse on sunday"
# a full reference and a headline-like one: best F, best recall and the pooled score pick differently
C9_REFS = ("a fire destroyed a warehouse in the port on sunday night", "fire destroyed a warehouse")
C10_CAND = "The fast brown fox leaped over the dog"
C10_REF = "The quick brown fox jumped over the lazy dog"
C10_BLEU = BleuConfig("nltk", weights=(1.0,))
# the explainer's opt-in tokenizer for any script (no library's default)
UNICODE_ROUGE = RougeConfig("rouge-score", tokenizer="unicode")
F2_REF_LITERAL = "we cannot accept this proposal in its current form"
F2_REF_NATURAL = "as it stands , the proposal is unacceptable to us"
F2_NATURAL = "the proposal , as it stands , is not acceptable to us"
F2_LITERAL = "we can not accept this proposal in its present form"
C8_CAND = "schools were closed on monday. the storm cut power to homes."

PAPINENI = "Papineni, Roukos, Ward & Zhu 2002, BLEU (ACL) — https://aclanthology.org/P02-1040/"
LIN = "Lin 2004, ROUGE (ACL workshop) — https://aclanthology.org/W04-1013/"

_P = [
    Preset("repetition", "Papineni repetition", "G1", "attack",
           (_v("Honest", "A cat sits on the mat.", R_G1),
            _v("Repeat 'the'", "the the the the the the the", R_G1)),
           ("unclipped_p1", "bleu", "rouge1_p"),
           {"unclipped_p1": "fooled", "bleu": "resisted", "rouge1_p": "resisted"},
           "Plain precision would give 'the ×7' a perfect 7/7; clipping each word at its largest count in "
           "one reference (BLEU) or at the reference count (ROUGE) defeats the trick — and case-sensitive "
           "sacreBLEU clips at 1, not the paper's 2: the capital 'The' that opens reference 1 is another word to "
           "it (reference 2, 'There is a cat on the mat.', has one 'the').",
           PAPINENI + " §2.1 (modified n-gram precision)",
           metrics=DEFAULT_METRICS + ("unclipped_p1",)),
    Preset("brevity", "Safe and short", "G2", "attack",
           (_v("Honest", "The cat is sitting on a mat in the kitchen .",
               "The cat is sitting on the mat in the kitchen ."),
            _v("Only safe words", "the mat", "The cat is sitting on the mat in the kitchen .")),
           ("rouge1_p", "bleu_bp", "bleu", "rouge1_r"),
           {"rouge1_p": "fooled", "bleu_bp": "resisted", "bleu": "resisted", "rouge1_r": "resisted"},
           "Saying only the words you are sure of keeps precision perfect; BLEU's brevity penalty "
           "exp(1 − r/c) and ROUGE recall are what punish it — never report precision alone.",
           PAPINENI + " §2.2 (sentence brevity penalty)"),
    Preset("corpus-bp", "Corpus brevity penalty paid with filler", "G3", "attack",
           (_cv("Honest corpus", G3_HONEST, G3_REFS, aggregate="corpus"),
            _cv("Filler on segment 2", (G3_HONEST[0], G3_HONEST[1] + " of the the a of the the of"), G3_REFS,
                aggregate="corpus")),
           ("bleu", "bleu_bp", "sent_bleu_mean"),
           {"bleu": "fooled", "bleu_bp": "fooled", "sent_bleu_mean": "resisted"},
           "Corpus BLEU computes one brevity penalty from summed lengths, so cheap filler tokens on any "
           "sentence lift the whole corpus' score even though the padded sentence itself got worse.",
           PAPINENI + " §2.2.2 (corpus-level brevity penalty); constructed example",
           metrics=("bleu", "bleu_bp", "sent_bleu_mean", "rouge1_f", "rougeL_f")),
    Preset("permutation", "BLEU-invariant chunk permutation", "G4", "attack",
           (_v("Original hypothesis", "the quick brown fox leaped above the lazy dog",
               "the quick brown fox jumped over the lazy dog"),
            _v("Chunks permuted", "the lazy dog above the quick brown fox leaped",
               "the quick brown fox jumped over the lazy dog")),
           ("bleu", "rouge1_f", "rouge2_f", "rougeL_f"),
           {"bleu": "tie", "rouge1_f": "tie", "rouge2_f": "tie", "rougeL_f": "resisted"},
           "Cutting where a bigram does not match the reference and reordering the chunks loses no matched "
           "n-gram, so BLEU (and ROUGE-1/2) cannot tell the garbled order apart; only ROUGE-L's in-order "
           "subsequence notices.",
           "Callison-Burch, Osborne & Koehn 2006, Re-evaluating the Role of BLEU in MT Research (EACL) §3 — "
           "https://aclanthology.org/E06-1032/"),
    Preset("role-swap", "Dog bites man", "G5", "attack",
           (_v("Honest", "The man bit the dog.", "The man bit the dog."),
            _v("Roles swapped", "The dog bit the man.", "The man bit the dog.")),
           ("rouge1_f", "bleu", "rougeL_f"),
           {"rouge1_f": "tie", "bleu": "resisted", "rougeL_f": "resisted"},
           "Swapping who did what keeps every word, so bag-of-words ROUGE-1 stays perfect; BLEU and ROUGE-L "
           "lose only the n-grams that span the swap — on longer sentences the loss is small.",
           PAPINENI + " (position-independent matching); " + LIN),
    Preset("negation", "Negation", "G6", "attack",
           (_v("Honest paraphrase", "the new medicine is safe for young children",
               "the new drug is safe for young children"),
            _v("Claim reversed", "the new drug is not safe for young children",
               "the new drug is safe for young children")),
           ("bleu", "rouge1_f", "rougeL_f"),
           {"bleu": "fooled", "rouge1_f": "fooled", "rougeL_f": "fooled"},
           "One inserted 'not' reverses the claim yet costs fewer n-grams than a harmless synonym, so every "
           "n-gram metric ranks the false sentence above the correct paraphrase.",
           "Sai, Dixit, Sheth, Mohan & Khapra 2021, Perturbation CheckLists for Evaluating NLG Evaluation "
           "Metrics (EMNLP) — https://aclanthology.org/2021.emnlp-main.575/"),
    Preset("word-salad", "Word salad", "G7", "attack",
           (_v("Honest", "police arrested two men after a bank robbery in the city centre on friday", G7_REF),
            _v("Reference words reversed", G7_SALAD, G7_REF)),
           ("rouge1_f", "rouge2_f", "rougeL_f", "bleu"),
           {"rouge1_f": "fooled", "rouge2_f": "resisted", "rougeL_f": "resisted", "bleu": "resisted"},
           "The reference's words in reverse order get a perfect ROUGE-1; never report ROUGE-1 alone — "
           "bigrams, the LCS and BLEU's geometric mean over orders 1–4 are what expose the salad.",
           LIN + "; Mu & Lim 2022, Universal Evasion Attacks on Summarization Scoring (BlackboxNLP) — "
           "https://aclanthology.org/2022.blackboxnlp-1.9/"),
    Preset("stopword-stuffing", "Stopword stuffing", "G8", "attack",
           (_v("Honest", "minister promises more money for schools next year",
               "the minister said that the government will increase the budget for schools in the next year"),
            _v("Function words appended",
               "minister promises more money for schools next year the the the that the will in for the",
               "the minister said that the government will increase the budget for schools in the next year")),
           ("rouge1_f", "rouge1_r", "bleu", "rougeL_f"),
           {"rouge1_f": "fooled", "rouge1_r": "fooled", "bleu": "fooled", "rougeL_f": "resisted"},
           "Appending 'the the that will in for' matches reference function words up to the clip: ROUGE-1 "
           "recall and F jump and BLEU's brevity penalty disappears, although nothing was said.",
           "ROUGE-1.5.5 stopword switch -s; rouge-score README (no stopword removal); Sai et al. 2021 (EMNLP)"),
    Preset("concatenate-refs", "Concatenate the references", "G9", "attack",
           (_v("Honest", "a fire destroyed a port warehouse on sunday", R_G9),
            _v("All references joined", " ".join(R_G9), R_G9)),
           ("bleu", "rouge1_r", "rouge1_f"),
           {"bleu": "fooled", "rouge1_r": "fooled", "rouge1_f": "resisted"},
           "With several references BLEU clips each n-gram against the reference where it is most frequent, "
           "so pasting all references together is almost all matches; ROUGE recall reaches 1 while F drops.",
           PAPINENI + " §2.1 (each n-gram clipped at its largest count in any one reference; the closest "
           "reference length); on ROUGE F1 against length, not concatenation: Sun, Shapira, Dagan & Nenkova 2019, "
           "How to Compare Summarizers without Target Length? (NeuralGen) — https://aclanthology.org/W19-2303/"),
    Preset("stitched-refs", "Frankenstein (stitched references)", "G10", "attack",
           (_v("Honest translation",
               "the president met the british prime minister in paris on tuesday to talk about trade", R_G10),
            _v("Ref 1 head + ref 2 tail",
               "the president met the prime minister in paris on tuesday the french leader held talks with "
               "britain's premier about commerce", R_G10),
            _v("Human ref 1 scored against ref 2 only", R_G10[0], (R_G10[1],), compare_only=True,
               note="for comparison: a perfect human translation scored against the other human reference")),
           ("bleu", "rouge1_f"),
           {"bleu": "fooled", "rouge1_f": "resisted"},
           "Multi-reference BLEU clips by the maximum count over references and uses the closest length, so "
           "a hybrid of two references scores near 100 while each human reference scores single digits "
           "against the other; rouge-score picks one best reference and gains less.",
           PAPINENI + " (max-count clipping); Freitag, Grangier & Caswell 2020, BLEU might be Guilty but "
           "References are not Innocent (EMNLP) — arXiv:2004.06063"),
    Preset("copy-lead", "Copy the lead sentence", "G11", "attack",
           (_v("Written summary", "a warehouse fire at dover port on sunday caused millions of pounds of damage",
               "a fire destroyed a warehouse in the port on sunday night causing millions in damage"),
            _v("First source sentence", "a fire destroyed a warehouse in the port of dover on sunday night",
               "a fire destroyed a warehouse in the port on sunday night causing millions in damage")),
           ("rouge1_f", "rouge2_f", "rougeL_f", "bleu"),
           {"rouge1_f": "fooled", "rouge2_f": "fooled", "rougeL_f": "fooled", "bleu": "fooled"},
           "News references reuse the article's first sentence, so copying it — a legitimate extractive summary, "
           "not a trick — is rated above an honest written summary by every overlap metric: they reward the "
           "source's wording, and lead baselines are famously hard to beat on ROUGE.",
           "See, Liu & Manning 2017 (ACL) — https://aclanthology.org/P17-1099/; Kryściński et al. 2019 "
           "(EMNLP) — https://aclanthology.org/D19-1051/", legitimate=True),
    Preset("paraphrase", "Paraphrase punished", "F1", "attack",
           (_v("Valid paraphrase", "Nobody was bothered by this.", "This did not bother anybody."),
            _v("Opposite meaning, reference words", "This did bother everybody.", "This did not bother anybody.")),
           ("bleu", "rouge1_f", "rouge2_f"),
           {"bleu": "fooled", "rouge1_f": "fooled", "rouge2_f": "fooled"},
           "A correct paraphrase shares almost no n-grams with the reference, so it scores below a sentence "
           "that reuses the reference's words to say the opposite.",
           "Bawden, Zhang, Yankovskaya, Tättar & Post 2020 (Findings of EMNLP) — arXiv:2004.14989"),
    Preset("reference-style", "Reference style (translationese) bias", "F2", "attack",
           (_v("Natural translation · literal reference", F2_NATURAL, (F2_REF_LITERAL,)),
            _v("Literal, MT-like translation · literal reference", F2_LITERAL, (F2_REF_LITERAL,)),
            _v("Natural translation · paraphrased reference", F2_NATURAL, (F2_REF_NATURAL,), compare_only=True,
               note="the same two translations against a natural, paraphrased reference"),
            _v("Literal translation · paraphrased reference", F2_LITERAL, (F2_REF_NATURAL,), compare_only=True)),
           ("bleu", "rouge1_f"),
           {"bleu": "fooled", "rouge1_f": "fooled"},
           "Against a literal, translationese reference the MT-like translation beats the natural one people "
           "prefer; against a paraphrased reference the ranking flips — the reference's style, not the "
           "quality, decides who wins.",
           "Freitag, Grangier & Caswell 2020, BLEU might be Guilty but References are not Innocent (EMNLP) — "
           "arXiv:2004.06063; Freitag, Foster, Grangier & Cherry 2020, Human-Paraphrased References Improve "
           "Neural Machine Translation (WMT) — https://aclanthology.org/2020.wmt-1.140/; constructed example"),
    Preset("clause-reorder", "Clause reordering", "F3", "attack",
           (_v("Valid reordering", "several major roads were closed and the storm cut power to thousands of homes",
               "the storm cut power to thousands of homes and closed several major roads"),
            _v("Reference order, wrong verb",
               "the storm cut power to thousands of homes and opened several major roads",
               "the storm cut power to thousands of homes and closed several major roads")),
           ("rouge1_f", "rougeL_f", "bleu"),
           {"rouge1_f": "resisted", "rougeL_f": "fooled", "bleu": "fooled"},
           "Putting the second clause first is perfectly fine English, but ROUGE-L's single in-order "
           "subsequence can follow only one clause and BLEU loses the n-grams at the seams — both prefer a "
           "sentence in reference order that gets the facts wrong; only ROUGE-1 does not.",
           "Callison-Burch, Osborne & Koehn 2006 (EACL) — https://aclanthology.org/E06-1032/"),
    Preset("truncation", "Truncated output", "F4", "attack",
           (_v("Full (one word missing)",
               "the council voted to close the old library and open a new learning centre next spring",
               "the council voted to close the old library and open a new digital learning centre next spring"),
            _v("Cut after 8 words", "the council voted to close the old library",
               "the council voted to close the old library and open a new digital learning centre next spring")),
           ("rouge1_p", "bleu", "rouge1_r", "bleu_bp"),
           {"rouge1_p": "tie", "bleu": "resisted", "rouge1_r": "resisted", "bleu_bp": "resisted"},
           "A truncated output keeps precision at 1.00 at every order; only recall and BLEU's brevity "
           "penalty see the missing half — and ROUGE-1.5.5's -l/-b length caps hide anything past the cap.",
           "ROUGE-1.5.5 options -l / -b; " + LIN),
    # ---- configuration traps: the same text, different numbers ----
    Preset("tokenizer", "Tokenizer roulette", "C1", "config",
           (_v("13a (sacreBLEU default)", C1_CAND, (C1_REF,)),
            _v("none (whitespace)", C1_CAND, (C1_REF,), bleu=SENTENCE_BLEU.with_options(tokenize="none")),
            _v("intl", C1_CAND, (C1_REF,), bleu=SENTENCE_BLEU.with_options(tokenize="intl")),
            _v("char", C1_CAND, (C1_REF,), bleu=SENTENCE_BLEU.with_options(tokenize="char"))),
           ("bleu", "rouge1_f"),
           {"bleu": "changed", "rouge1_f": "unchanged"},
           "BLEU is a parameterised metric: the same pair scores anywhere from single digits to ~58 "
           "depending on the tokenizer, so a BLEU without its signature is not comparable. On whole test sets "
           "the spread is smaller but real: Post (2018) measured differences of up to 1.8 BLEU between commonly "
           "used configurations at corpus level.",
           "Post 2018, A Call for Clarity in Reporting BLEU Scores (WMT) — https://aclanthology.org/W18-6319/"),
    Preset("case", "Case", "C2", "config",
           (_v("case-sensitive (default)", "THE CAT SAT ON THE MAT", ("the cat sat on the mat",)),
            _v("lowercase=True", "THE CAT SAT ON THE MAT", ("the cat sat on the mat",),
               bleu=SENTENCE_BLEU.with_options(lowercase=True))),
           ("bleu", "rouge1_f"),
           {"bleu": "changed", "rouge1_f": "unchanged"},
           "sacreBLEU is case-sensitive by default (0 vs 100 for the same words); rouge-score always "
           "lowercases, so ROUGE never sees the difference.",
           "sacreBLEU documentation (--lowercase); rouge-score tokenizer"),
    Preset("smoothing", "Smoothing roulette", "C3", "config",
           tuple(_v(f"smooth_method={m}" + (" (default)" if m == "exp" else ""), "the cat is on a mat",
                    ("the cat sat on the mat",), bleu=CORPUS_BLEU.with_options(smooth_method=m))
                 for m in ("exp", "none", "floor", "add-k")),
           ("bleu",),
           {"bleu": "changed"},
           "With no matching 3-gram, sentence-level BLEU is whatever the smoothing makes of a zero: the same "
           "pair scores 0, 10.3, 19.3 or 32.5.",
           "Chen & Cherry 2014, A Systematic Comparison of Smoothing Techniques for Sentence-Level BLEU "
           "(WMT) — https://aclanthology.org/W14-3346/"),
    Preset("sentence-vs-corpus", "Corpus API on a short string", "C4", "config",
           (_v("sentence_bleu (effective order)", "Zhongjian Plaza", ("Zhongjian Plaza",)),
            _v("corpus_bleu (no effective order)", "Zhongjian Plaza", ("Zhongjian Plaza",),
               bleu=CORPUS_BLEU)),
           ("bleu",),
           {"bleu": "changed"},
           "A two-word output has no 3- or 4-grams, so corpus BLEU is 0 even for a perfect match; "
           "sentence_bleu's effective order skips the empty orders and gives 100.",
           "sacrebleu issue #278 — https://github.com/mjpost/sacrebleu/issues/278"),
    Preset("averaging", "Averaging sentence BLEU", "C5", "config",
           (_cv("corpus BLEU",
                ("the committee approved the new budget on monday after a long debate", "rain"),
                (("the committee approved the new budget on monday after a long debate",),
                 ("heavy rain is expected this weekend",))),
            _cv("mean of sentence BLEU",
                ("the committee approved the new budget on monday after a long debate", "rain"),
                (("the committee approved the new budget on monday after a long debate",),
                 ("heavy rain is expected this weekend",)), aggregate="sentence_mean")),
           ("bleu",),
           {"bleu": "changed"},
           "BLEU is not an average: corpus BLEU sums the n-gram statistics first, so the mean of sentence "
           "BLEUs is a different number (here more than 17 points apart).",
           "nlg-eval issue #10 — https://github.com/Maluuba/nlg-eval/issues/10",
           metrics=("bleu", "bleu_bp", "rouge1_f")),
    Preset("ref-length", "Which reference length?", "C6", "config",
           (_v("closest (sacreBLEU, NLTK)", C6_CAND, C6_REFS),
            _v("shortest (HF evaluate bleu / TF-NMT)", C6_CAND, C6_REFS,
               bleu=BleuConfig("hf-evaluate"))),
           ("bleu", "bleu_bp"),
           {"bleu": "changed", "bleu_bp": "changed"},
           "Identical n-gram counts, different brevity penalty: sacreBLEU uses the reference length closest "
           "to the candidate, Hugging Face evaluate's bleu the shortest one.",
           "evaluate issue #558 — https://github.com/huggingface/evaluate/issues/558; tensorflow/nmt bleu.py"),
    Preset("non-latin", "Non-Latin text in rouge-score", "C7", "config",
           (_v("rouge-score default tokenizer", C7_ZH, (C7_ZH,)),
            _v("unicode tokenizer (opt-in)", C7_ZH, (C7_ZH,), rouge=UNICODE_ROUGE,
               note="the explainer's opt-in unicode word tokenizer instead of rouge-score's ASCII-only default")),
           ("rouge1_f", "bleu"),
           {"rouge1_f": "changed", "bleu": "unchanged"},
           "The same identical Chinese pair: rouge-score's default tokenizer keeps only ASCII letters and digits, "
           "so it sees no tokens and every ROUGE is 0, while BLEU (sacreBLEU's 13a) says 100; with a tokenizer "
           "that fits the script ROUGE agrees. Pass a tokenizer that fits the language.",
           "evaluate issue #256 — https://github.com/huggingface/evaluate/issues/256; google/adk-python issue "
           "#3111"),
    Preset("accents", "Accented text in rouge-score", "C7", "config",
           (_v("rouge-score default tokenizer", C7_FR_PLAIN, (C7_FR,)),
            _v("unicode tokenizer (opt-in)", C7_FR_PLAIN, (C7_FR,), rouge=UNICODE_ROUGE,
               note="the explainer's opt-in unicode word tokenizer instead of rouge-score's ASCII-only default")),
           ("rouge1_r", "rouge1_f", "bleu"),
           {"rouge1_r": "changed", "rouge1_f": "changed", "bleu": "unchanged"},
           "The same French pair (unaccented spelling vs the accented reference): rouge-score's default tokenizer "
           "cuts the reference 'Le café était très bon' into 'le caf tait tr s bon', so recall is counted "
           "over word fragments; a tokenizer that keeps accented letters counts whole words and gives a "
           "different number for the same texts.",
           "evaluate issue #256 — https://github.com/huggingface/evaluate/issues/256",
           metrics=("rouge1_p", "rouge1_r", "rouge1_f", "rouge2_f", "rougeL_f", "bleu")),
    Preset("lsum-newlines", "ROUGE-Lsum needs newlines", "C8", "config",
           (_v("reference split by newline", C8_CAND, (C8_REF,)),
            _v("reference on one line", C8_CAND, (C8_REF.replace("\n", " "),))),
           ("rougeLsum_f", "rougeL_f"),
           {"rougeLsum_f": "changed", "rougeL_f": "unchanged"},
           "rougeLsum treats each line as a sentence and ignores sentence order: with the newline the "
           "swapped sentences score 1.0, without it the same texts score as plain ROUGE-L.",
           "rouge-score README (two flavours of ROUGE-L); google-research issue #168 — "
           "https://github.com/google-research/google-research/issues/168",
           metrics=("rougeLsum_f", "rougeL_f", "rouge1_f", "bleu")),
    Preset("rouge-implementations", "ROUGE implementations and multi-reference rules", "C9", "config",
           (_v("rouge-score score_multi (best F per type)", C9_CAND, C9_REFS),
            _v("ROUGE-1.5.5 -f A (pool the references)", C9_CAND, C9_REFS,
               rouge=RougeConfig("rouge155", multi_ref="pool"),
               note="the explainer's ROUGE-1.5.5.pl dialect (golden-tested; the Perl script cannot run here)"),
            _v("ROUGE-1.5.5 -f B (best recall)", C9_CAND, C9_REFS,
               rouge=RougeConfig("rouge155", multi_ref="best-recall"))),
           ("rouge1_f", "rouge2_f", "rougeL_f"),
           {"rouge1_f": "changed", "rouge2_f": "changed", "rougeL_f": "changed"},
           "With several references, rouge-score keeps the best-F reference for each ROUGE type, while "
           "ROUGE-1.5.5 pools them by default (-f A) or keeps the best-recall one (-f B, here the short "
           "headline): the same output gets three ROUGE numbers, so a ROUGE score needs its implementation "
           "and multi-reference rule.",
           "google-research issue #168 — https://github.com/google-research/google-research/issues/168; "
           "datasets issue #617 — https://github.com/huggingface/datasets/issues/617; ROUGE-1.5.5 -f A/B",
           metrics=("rouge1_p", "rouge1_r", "rouge1_f", "rouge2_f", "rougeL_f", "rougeLsum_f", "bleu")),
    Preset("nltk-strings", "NLTK: strings instead of token lists", "C10", "config",
           (_v("token lists (hyp.split(), [ref.split()])", C10_CAND, (C10_REF,), bleu=C10_BLEU,
               note="nltk.translate.bleu_score.sentence_bleu, weights=[1.]; NLTK's 0–1 score shown ×100"),
            _v("plain strings (read as characters)", C10_CAND, (C10_REF,),
               bleu=C10_BLEU.with_options(nltk_input="string"),
               note="the same call with the strings themselves: NLTK iterates them character by character")),
           ("bleu",),
           {"bleu": "changed"},
           "NLTK's sentence_bleu expects token lists; given plain strings it silently counts characters "
           "(spaces included) and returns a different, meaningless number — with no warning.",
           "rasbt/MachineLearning-QandAI-book issue #6 — "
           "https://github.com/rasbt/MachineLearning-QandAI-book/issues/6; NLTK 3.10.4 bleu_score",
           metrics=("bleu", "bleu_bp", "rouge1_f", "rougeL_f")),
]

PRESETS: dict[str, Preset] = {p.id: p for p in _P}


@dataclass(frozen=True)
class LessonCard:
    """A catalogue entry with nothing to score: advice about reporting (C11, C12), or an entry that is a
    whole lab section (G12 = the Metric optimizer). Shown as a card with its lesson and citation, clearly
    labelled as having no numbers, so every catalogue entry appears in the lab."""

    id: str
    title: str
    catalogue: str
    lesson: str
    citation: str
    why_no_numbers: str
    section: str = ""  # a lab section that demonstrates it, if any
    demo: str = ""     # a demonstration on published data the card shows (explainer.attacks.outliers: "outliers")


LESSON_CARDS: dict[str, LessonCard] = {c.id: c for c in [
    LessonCard("optimise-the-metric", "Optimise the metric directly", "G12",
               "Training or searching against BLEU/ROUGE (RL rewards, hill climbing) raises the number while "
               "the text degrades: RL-only summaries were judged less readable, ROUGE-L rewards made outputs "
               "repetitive, and fixed non-summaries top ROUGE tables — learned metrics such as BLEURT are "
               "gameable too.",
               "Paulus, Xiong & Socher 2018 (ICLR) — arXiv:1705.04304; Li, Lei, Qin & Wang 2019 (EMNLP) — "
               "arXiv:1909.00141; Mu & Lim 2022 (BlackboxNLP) — https://aclanthology.org/2022.blackboxnlp-1.9/; "
               "Yan et al. 2023 (ACL) — https://aclanthology.org/2023.acl-long.297/; Schluter 2017 (EACL) — "
               "https://aclanthology.org/E17-2007/",
               "This entry is a whole section: the Metric optimizer climbs BLEU or ROUGE on your own text, "
               "re-scored by the real packages.", section="optimizer"),
    LessonCard("small-differences", "Reading small BLEU gaps as real", "C11",
               "Small BLEU improvements frequently do not correspond to improvements people can see, and "
               "metric–human correlations are inflated by outlier systems (below: WMT19's own systems, one left "
               "out); pair every BLEU delta with a significance test (paired bootstrap resampling, Koehn 2004 — "
               "sacreBLEU's --paired-bs).",
               "Mathur, Baldwin & Cohn 2020, Tangled up in BLEU (ACL) — "
               "https://aclanthology.org/2020.acl-main.448/; Koehn 2004, Statistical Significance Tests for "
               "Machine Translation Evaluation (EMNLP) — https://aclanthology.org/W04-3250/",
               "Advice about reading and reporting results: the catalogue gives no input to score; the "
               "demonstration uses WMT19's published system scores.", demo="outliers"),
    LessonCard("many-valid-outputs", "Tasks with many valid outputs", "C12",
               "Overlap metrics assume the references cover the good outputs. Where many different outputs "
               "are valid, as in dialogue, BLEU, METEOR and ROUGE correlate very weakly with human judgments "
               "(Twitter) or not at all (Ubuntu dialogues).",
               "Liu, Lowe, Serban, Noseworthy, Charlin & Pineau 2016, How NOT To Evaluate Your Dialogue "
               "System (EMNLP) — https://aclanthology.org/D16-1230/",
               "Advice about when not to use overlap metrics: the catalogue gives no input to score."),
]}


def get_preset(pid: str) -> Preset:
    try:
        return PRESETS[pid]
    except KeyError:
        raise ValueError(f"unknown preset {pid!r}; choose one of: {', '.join(PRESETS)}") from None


def _catalogue_order(cid: str) -> tuple:
    return ("GFC".index(cid[0]), int(cid[1:]))


# Everything the preset picker offers, in catalogue order (G, F, C): presets and lesson cards.
ENTRIES: tuple[str, ...] = tuple(sorted(list(PRESETS) + list(LESSON_CARDS), key=lambda i: _catalogue_order(
    PRESETS[i].catalogue if i in PRESETS else LESSON_CARDS[i].catalogue)))


@lru_cache(maxsize=None)
def evaluate(pid: str) -> PresetResult:
    p = get_preset(pid)
    scores = [v.score() for v in p.variants]
    metrics = tuple(dict.fromkeys(p.headline + p.metrics))
    base = scores[0]
    deltas, verdicts = [], []
    for i, s in enumerate(scores):
        deltas.append({m: s.values[m] - base.values[m] for m in metrics})
        judged = i > 0 and not p.variants[i].compare_only
        verdicts.append({m: verdict(p.kind, base.values[m], s.values[m]) for m in metrics} if judged else {})
    return PresetResult(p, scores, metrics, deltas, verdicts)


def markdown_table() -> str:
    """The preset list with its computed headline numbers (docs/gaming-lab.md embeds this output; a test
    checks that the docs are current). Run ``python -m explainer.attacks.presets`` to regenerate."""
    from explainer.attacks.scoring import format_metric, metric_label

    lines = ["| id (permalink) | catalogue | preset | headline: " + "baseline → other(s) | verdicts |",
             "| --- | --- | --- | --- | --- |"]
    for pid, p in PRESETS.items():
        r = evaluate(pid)
        nums = "; ".join(metric_label(m) + " " + " → ".join(format_metric(m, s.values[m]) for s in r.scores)
                         for m in p.headline)
        verdicts = ", ".join(f"{metric_label(m)} {VERDICT_WORDS.get(r.shown_summary(m), r.shown_summary(m))}"
                             for m in p.headline)
        lines.append(f"| `{pid}` | {p.catalogue} | {p.title} | {nums} | {verdicts} |")
    for cid, c in LESSON_CARDS.items():
        lines.append(f"| `{cid}` | {c.catalogue} | {c.title} | lesson card: no numbers | — |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
