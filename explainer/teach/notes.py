"""Speaker notes per step: what to say, and the misconception students (and papers) most often have at that
step. The misconceptions are the recurring confusions users report about BLEU and ROUGE implementations
(zero BLEU on short sentences, tokenisation, reference-length rules, smoothing defaults, which ROUGE-L,
non-Latin text, several references). The step builders add a sentence about the example on screen."""
from __future__ import annotations

__all__ = ["NOTES", "say", "misconception"]

NOTES: dict[str, tuple[str, str]] = {
    "bleu-texts": (
        "BLEU never sees the sentence you typed, only the tokens its tokenizer makes of it. Point at the "
        "punctuation and the case: every token can match or not, and the lengths c and r used later are "
        "counts of these tokens.",
        "“BLEU compares words.” It compares the tokens of one particular tokenizer: the same pair scores very "
        "differently under 13a, intl, char or whitespace splitting, and sacreBLEU is case-sensitive unless told "
        "otherwise. A BLEU number without its signature is not comparable with another one."),
    "bleu-ngrams": (
        "Slide a window of n tokens over the candidate. A text of c tokens has c − n + 1 of them, so a short "
        "candidate may have no 4-gram at all. A repeated n-gram is listed once, with its count.",
        "“A three-word answer can still get a BLEU-4.” It has no 4-grams at all: without smoothing or "
        "sacreBLEU's effective order its BLEU-4 is 0 however good it is — the question users ask most."),
    "bleu-counting": (
        "Look each candidate n-gram up in every reference separately. What matters is the count in each "
        "single reference, not the total over all references: the next step takes the largest of them.",
        "“Counts are added up over the references.” They are not: if two references each contain an n-gram "
        "once, the candidate may still use it only once."),
    "bleu-clipping": (
        "This is Papineni's fix for “the the the the …”: a candidate n-gram counts at most as often as it "
        "occurs in the one reference where it is most frequent. Show which reference justified each count.",
        "“Precision is the share of candidate words that appear in some reference.” Without clipping, "
        "repeating one common word would score perfectly (Papineni's “the the the the the the the” would get "
        "7/7); with clipping it gets at most the largest count in a single reference."),
    "bleu-precision": (
        "Every order gets its own precision: clipped matches over the candidate's n-grams of that order. "
        "Unigrams measure whether the right words are there, the higher orders whether they are in a fluent "
        "order — word order reaches BLEU only through them.",
        "“BLEU measures recall” or “p_n divides by the reference's n-grams.” Every p_n divides by the "
        "candidate's own n-grams; the reference length enters only through the brevity penalty."),
    "bleu-smoothing": (
        "One zero precision makes the geometric mean zero. Smoothing replaces the zero by a small number, "
        "and which number depends on the library and its defaults: sacreBLEU's exp gives 1/(2^k·t), floor "
        "a fixed value, add-k adds k to both counts, NLTK without smoothing substitutes the smallest float "
        "and warns.",
        "“BLEU 0 means the output is bad.” Often it only means one order had no match — typical for short "
        "sentences. Smoothing, effective order and each library's defaults decide the number, so report "
        "them."),
    "bleu-bp": (
        "Precision alone rewards saying little. The brevity penalty exp(1 − r/c) punishes a candidate "
        "shorter than the reference length r; a longer one is not penalised here (its precision already "
        "suffers). With several references r is the length closest to c in sacreBLEU and NLTK.",
        "“BP compares with the average (or the longest) reference.” sacreBLEU and NLTK take the closest "
        "length (a tie goes to the shorter one), Hugging Face evaluate's bleu the shortest: the same "
        "candidate gets different penalties."),
    "bleu-score": (
        "The geometric mean of the precisions, times BP. Because it is a product, every order matters: one "
        "low order pulls the whole score down. sacreBLEU reports it on 0–100, NLTK and Hugging Face on 0–1.",
        "“Corpus BLEU is the average of the sentence BLEUs.” Corpus BLEU adds up the counts of all sentences "
        "first and combines once; the mean of sentence scores is a different number."),
    "gleu-precision": (
        "Google BLEU (GLEU) takes no geometric mean: it adds the shared n-grams of orders 1 to 4 together and "
        "divides once, by the candidate's n-grams (precision) and by the reference's (recall). The score of a "
        "reference is the smaller of the two.",
        "“GLEU is BLEU for sentences.” It is another number: min(precision, recall) of all n-grams together, "
        "with no brevity penalty and no smoothing; a GLEU of 0.4 and a BLEU of 0.4 say different things."),
    "gleu-bp": (
        "Each reference is scored alone and the best one is kept (the first listed on a tie). There is no "
        "brevity penalty: when the candidate is shorter, the reference has more n-grams, recall is the smaller "
        "value and the score drops by itself.",
        "“Several references are pooled, as in BLEU.” GLEU never clips against the largest count over the "
        "references: one reference is kept per sentence."),
    "gleu-score": (
        "The score is one ratio. Over a corpus the shared n-grams and the denominators are summed over the "
        "sentences first, so long sentences weigh more — not the mean of the sentence scores.",
        "“Hugging Face's google_bleu is BLEU.” It is NLTK's corpus GLEU over the 13a tokenizer: report it "
        "under its own name."),
    "rouge-1": (
        "ROUGE has its own tokenizer: rouge-score lowercases and keeps only ASCII letters and digits, so "
        "punctuation disappears. ROUGE-1 counts the words the two texts share, each at most as often as in "
        "the reference: min(candidate count, reference count).",
        "“ROUGE and BLEU see the same tokens.” rouge-score drops punctuation and every non-ASCII character: "
        "an identical Chinese or Hindi pair scores ROUGE 0."),
    "rouge-2": (
        "Bigrams are pairs of adjacent tokens, counted and clipped the same way. ROUGE-2 is the first ROUGE "
        "that notices word order, if only locally.",
        "“A perfect ROUGE-1 means a perfect summary.” The reference's words in any order (word salad) get "
        "ROUGE-1 = 1; ROUGE-2 and ROUGE-L expose it."),
    "rouge-prf": (
        "The same hits give two ratios: precision divides by the candidate's n-grams, recall by the "
        "reference's. F is their harmonic mean. ROUGE was designed as a recall measure for summaries.",
        "“ROUGE is one number.” Every type has P, R and F, and papers report different ones. rouge-score's "
        "score(target, prediction) also takes the reference first: swapping the arguments swaps P and R."),
    "rouge-lcs-table": (
        "Fill the table row by row: when the reference token equals the candidate token, take the diagonal "
        "cell + 1; otherwise the larger of the cell above and the cell to the left. The bottom-right cell is "
        "the length of the longest common subsequence.",
        "“The LCS is the longest common substring.” It is a subsequence: the tokens keep their order but "
        "need not be adjacent — and it is computed exactly, not by greedy matching."),
    "rouge-alignment": (
        "Walk back from the bottom-right cell to find which tokens form the LCS. When several LCSs of the "
        "same length exist, the implementation's tie rule picks one; the length, and so the score, is the "
        "same.",
        "“ROUGE-L rewards every shared word.” Only one in-order chain counts: of two reordered clauses, only "
        "the longer one can be on the LCS."),
    "rouge-l": (
        "ROUGE-L: the LCS length over the candidate's tokens is P, over the reference's tokens R; F as "
        "before. Put it next to ROUGE-1: the difference is what the word order cost.",
        "“ROUGE-L is the same everywhere.” rouge-score's rougeL ignores line breaks, while ROUGE-1.5.5's "
        "ROUGE-L is computed sentence by sentence over the lines: on multi-sentence text the two differ."),
    "rouge-lsum": (
        "ROUGE-Lsum works sentence by sentence (one per line): for every reference sentence, the union of "
        "its LCS matches with each candidate sentence, every token counted at most as often as it occurs. "
        "The order of the sentences no longer matters.",
        "“rougeLsum splits the sentences itself.” rouge-score splits on newlines only: without one sentence "
        "per line, rougeLsum equals rougeL (Hugging Face evaluate passes the text as it is)."),
    "rouge-refs": (
        "With several references rouge-score scores the candidate against each and keeps, per ROUGE type, "
        "the reference with the best F — possibly a different one per type. ROUGE-1.5.5 pools the counts "
        "by default (-f A).",
        "“Several references are averaged.” rouge-score takes the best F, ROUGE-1.5.5 pools the counts or "
        "keeps the best recall; an average is yet another rule, so say which one you used."),
    "bleu-vs-rouge": (
        "Put the two side by side for this example. BLEU asks how much of the candidate is in a reference "
        "(precision over orders 1–4, a penalty for being short); ROUGE asks how much of the reference the "
        "candidate covers (recall, with precision and F beside it). The same text can look good on one and "
        "poor on the other.",
        "“BLEU is for translation, ROUGE for summaries, so they measure different things.” Both count the "
        "same overlapping n-grams; what differs is the ratio (precision vs recall), the orders combined and "
        "how length is handled — choose the one whose blind spots your task can live with."),
}


def say(step_id: str, extra: str = "") -> str:
    base = NOTES[step_id][0]
    return f"{base} {extra}".strip() if extra else base


def misconception(step_id: str) -> str:
    return NOTES[step_id][1]
