"""Attack generators: turn any candidate (and its references) into a gamed candidate.

Deterministic: every random choice comes from ``random.Random(seed)``. Each generator returns a
:class:`Generated` with the new text and a one-line note saying what was done (and, when the generator
could not apply, why). Token-level work uses sacreBLEU's own 13a tokenizer where BLEU statistics must be
preserved (:func:`permute_chunks`), and plain whitespace words elsewhere, so the output stays readable.
"""
from __future__ import annotations

import bisect
import itertools
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Sequence

from explainer.attacks.scoring import CORPUS_BLEU, SENTENCE_BLEU, BleuConfig, FastScorer, bleu_tokens, sacrebleu_metric
from explainer.options import OptionSpec, bind_options

__all__ = [
    "Generated", "FUNCTION_WORDS", "repeat_word", "keep_safest", "truncate", "shuffle_words",
    "permute_chunks", "mismatch_sites", "swap_noun_phrases", "insert_negation", "stuff_function_words",
    "concatenate_references", "stitch_references", "pad_corpus", "GENERATORS", "GeneratorSpec", "default_repeat_word",
]

# English function words (closed-class: articles, prepositions, conjunctions, auxiliaries, pronouns).
# Used to pick "cheap" tokens for stuffing and padding; not a tokenizer.
FUNCTION_WORDS = frozenset("""
a an the this that these those some any each every no
of in on at by for with from to into onto over under about after before between through during
and or but nor so yet if than as because while although
is are was were be been being am do does did has have had will would shall should can could may might must
i you he she it we they me him her us them my your his its our their
not there here then
""".split())

DETERMINERS = frozenset("a an the this that these those his her its our their my your some every each".split())
AUXILIARIES = ("is", "are", "was", "were", "will", "would", "can", "could", "should", "shall", "may", "might",
               "must", "has", "have", "had", "does", "do", "did", "am")


@dataclass
class Generated:
    name: str
    text: str | list[str]
    note: str
    changed: bool = True
    details: dict = field(default_factory=dict)


def _words(text: str) -> list[str]:
    return text.split()


def _ref_max_counts(refs_tokens: Sequence[Sequence[str]]) -> Counter:
    """Max count of each token over the references (the clip BLEU uses)."""
    out: Counter = Counter()
    for toks in refs_tokens:
        for t, c in Counter(toks).items():
            out[t] = max(out[t], c)
    return out


def default_repeat_word(references: Sequence[str]) -> str:
    """The word the repetition attack repeats when none is given: the most frequent reference word (case aside:
    "The" and "the" count together, the first to appear on a tie), written as the references write it most often
    — as sacreBLEU's tokenizer sees it, case kept, since sacreBLEU is case-sensitive ("The" when the references
    only have "The"); "" when the references have no word."""
    refs_tok = [bleu_tokens(r) for r in references]
    clip = _ref_max_counts(refs_tok)
    freq = Counter(t for toks in refs_tok for t in toks if any(ch.isalnum() for ch in t))
    if not freq:
        return ""
    low = Counter()
    for t, n in freq.items():
        low[t.lower()] += n
    order = [t.lower() for toks in refs_tok for t in toks]
    group = max(low, key=lambda w: (low[w], -order.index(w)))
    return max((t for t in freq if t.lower() == group), key=lambda t: (clip[t], freq[t]))


def repeat_word(candidate: str, references: Sequence[str], word: str | None = None,
                count: int | None = None) -> Generated:
    """Emit one reference word over and over (Papineni's 'the the the ...')."""
    refs_tok = [bleu_tokens(r) for r in references]
    clip = _ref_max_counts(refs_tok)
    if not word:
        word = default_repeat_word(references)
        if not word:
            return Generated("repeat", candidate, "The references have no word to repeat.", False)
    word = word.strip().split()[0] if word.strip() else "the"
    n = count if count is not None else max(len(_words(candidate)), 7)
    n = max(1, min(int(n), 500))
    c = clip.get(word, 0)
    why = ("its largest count in one reference" if c else
           "it is in no reference as written: sacreBLEU is case-sensitive")
    return Generated("repeat", " ".join([word] * n), f"'{word}' × {n}; BLEU clips it at {c} ({why}).",
                     details={"word": word, "count": n, "clip": c})


def keep_safest(candidate: str, references: Sequence[str]) -> Generated:
    """Keep only the candidate words that match a reference word (within the clip), in order."""
    refs_tok = [bleu_tokens(r) for r in references]
    clip = _ref_max_counts(refs_tok)
    used: Counter = Counter()
    kept = []
    for t in bleu_tokens(candidate):
        if used[t] < clip.get(t, 0):
            used[t] += 1
            kept.append(t)
    if not kept:
        return Generated("safest", candidate, "No candidate word occurs in a reference; nothing is safe.", False)
    return Generated("safest", " ".join(kept),
                     f"Kept {len(kept)} of {_count(len(bleu_tokens(candidate)), 'token')}: only words a reference "
                     "contains.")


def truncate(candidate: str, k: int = 5) -> Generated:
    w = _words(candidate)
    k = max(0, int(k))
    if k >= len(w):
        return Generated("truncate", candidate, f"The candidate has only {_count(len(w), 'word')}; nothing cut.", False)
    return Generated("truncate", " ".join(w[:k]), f"Kept the first {k} of {_count(len(w), 'word')}.")


def shuffle_words(candidate: str, fraction: float = 1.0, seed: int = 0) -> Generated:
    """Shuffle a fraction of the word positions among themselves (1.0 = word salad)."""
    w = _words(candidate)
    rng = random.Random(seed)
    m = int(round(max(0.0, min(1.0, float(fraction))) * len(w)))
    if m < 2:
        return Generated("shuffle", candidate, "Fewer than two words to shuffle.", False)
    pos = sorted(rng.sample(range(len(w)), m))
    vals = [w[i] for i in pos]
    perm = vals[:]
    rng.shuffle(perm)
    if perm == vals and len(set(vals)) > 1:
        perm = perm[1:] + perm[:1]
    out = w[:]
    for i, v in zip(pos, perm):
        out[i] = v
    return Generated("shuffle", " ".join(out), f"Shuffled {m} of {_count(len(w), 'word position')} (seed {seed}).",
                     out != w)


def mismatch_sites(cand_tokens: Sequence[str], ref_bigrams: set) -> list[int]:
    """Indices i such that the bigram (t[i-1], t[i]) occurs in no reference: cut points."""
    return [i for i in range(1, len(cand_tokens)) if (cand_tokens[i - 1], cand_tokens[i]) not in ref_bigrams]


PERMUTE_MAX_WORK = 400_000  # token operations (chain building + re-checking) per call: a deterministic cap
PERMUTE_BUDGET_SECONDS = 2.0  # wall-clock backstop on top of the work cap (a loaded machine)


class _Budget:
    """A search's bounds: ``max_work`` units (deterministic for a seed) and ``seconds`` of wall clock (a backstop on
    a loaded machine). ``capped`` becomes "work" or "time" the first time either is found exhausted, and stays."""

    def __init__(self, max_work: int, seconds: float) -> None:
        self.t0 = time.perf_counter()
        self.max_work, self.seconds = max_work, seconds
        self.work = 0
        self.capped = ""

    def exhausted(self) -> str:
        if not self.capped:
            if self.work >= self.max_work:
                self.capped = "work"
            elif time.perf_counter() - self.t0 >= self.seconds:
                self.capped = "time"
        return self.capped

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def note(self, what: str, tried: str = "") -> str:
        """The sentence a result adds when the search was capped."""
        if not self.capped:
            return ""
        return (f" The search was capped ({'work limit' if self.capped == 'work' else 'time limit'} reached after "
                f"{self.elapsed:.1f} s{tried}), so this is the best {what} found, not the best of all.")


def permute_chunks(candidate: str, references: Sequence[str], seed: int = 0, tries: int = 2000,
                   bleu: BleuConfig = SENTENCE_BLEU, max_valid: int = 200, max_work: int = PERMUTE_MAX_WORK,
                   budget_seconds: float = PERMUTE_BUDGET_SECONDS) -> Generated:
    """Callison-Burch et al. (2006): cut the candidate where a bigram matches no reference and reorder the
    chunks so that no new boundary forms a matching bigram. Every matched n-gram stays inside a chunk and
    every n-gram across a boundary contains an unmatched bigram, so sacreBLEU's counts and totals are
    unchanged. Each accepted permutation is re-checked with sacreBLEU itself; among the valid ones the one
    that garbles the order most (lowest ROUGE-L) is returned.

    Bounded: building and re-checking orders costs about one unit per token; after ``max_work`` units
    (deterministic for a seed) or ``budget_seconds`` (a backstop for a loaded machine) the search stops and
    keeps the best valid order found so far. ``details["capped"]`` then says why."""
    budget = _Budget(max_work, budget_seconds)
    toks = bleu_tokens(candidate, bleu)
    ref_bigrams = {(t[i], t[i + 1]) for t in (bleu_tokens(r, bleu) for r in references) for i in range(len(t) - 1)}
    cuts = mismatch_sites(toks, ref_bigrams)
    bounds = [0] + cuts + [len(toks)]
    chunks = [toks[bounds[i]:bounds[i + 1]] for i in range(len(bounds) - 1)]
    base = {"chunks": [" ".join(c) for c in chunks], "cuts": cuts, "tokens": toks, "capped": ""}
    if len(chunks) < 2:
        return Generated("permute", candidate, "No bigram-mismatch point: every adjacent pair matches a "
                         "reference, so there is nothing to permute.", False, base)
    search = _PermuteSearch(toks, chunks, ref_bigrams, references, bleu, random.Random(seed), budget)
    orders = search.all_orders() if len(chunks) <= 7 else search.chained_orders(tries)
    best, checked, tried = search.best(orders, tries, max_valid)
    base["capped"] = budget.exhausted()
    base["elapsed"] = budget.elapsed
    cap_note = budget.note("order", f", {tried} order(s) tried")
    if best is None:
        how = "every reordering" if len(chunks) <= 7 and not budget.capped else "every reordering tried"
        return Generated("permute", candidate, f"{len(chunks)} chunks, but {how} puts a reference bigram at a new "
                         "boundary (BLEU would change), so none is offered." + cap_note, False, base)
    text, order = best
    base.update(order=order, stats_before=list(search.original), stats_after=list(search.stats(text)))
    return Generated("permute", text, f"Cut at {len(cuts)} bigram-mismatch point(s) into {len(chunks)} chunks "
                     f"and reordered them ({checked} valid orders checked); sacreBLEU's counts are identical."
                     + cap_note, True, base)


class _PermuteSearch:
    """Orders of the chunks of :func:`permute_chunks`, checked against sacreBLEU and ranked by ROUGE-L."""

    def __init__(self, toks, chunks, ref_bigrams, references, bleu: BleuConfig, rng: random.Random,
                 budget: _Budget) -> None:
        self.toks, self.chunks, self.ref_bigrams, self.rng, self.budget = toks, chunks, ref_bigrams, rng, budget
        self.idx = list(range(len(chunks)))
        self.first = [c[0] for c in chunks]
        # sacreBLEU's own reference cache: the references are tokenised once, each order costs its own tokens only
        self.metric = sacrebleu_metric(bleu, references=[[r] for r in references])
        self.original = self.stats(" ".join(toks))
        self.scorer = FastScorer(references)

    def stats(self, text: str):
        return self.metric._extract_corpus_statistics([text], None)[0]

    def all_orders(self):
        """Few chunks: every permutation, in a random order."""
        perms = [list(p) for p in itertools.permutations(self.idx)]
        self.rng.shuffle(perms)
        yield from perms

    def chained_orders(self, tries: int):
        """Many chunks: random permutations almost always put a matching bigram at some boundary, so build
        orders greedily - each next chunk is drawn among those that do not form a reference bigram with the
        current last token (a randomised chain; a dead end abandons that attempt)."""
        for _ in range(min(tries, 300)):
            order, complete = self._chain()
            self.budget.work += len(order)
            if complete:
                yield order
            if self.budget.exhausted():
                return

    def _chain(self) -> tuple[list[int], bool]:
        """One randomised chain. A few random draws find an allowed chunk in O(1); only when they all fail is the
        whole remainder scanned."""
        rng, chunks, first, ref_bigrams = self.rng, self.chunks, self.first, self.ref_bigrams
        remaining = self.idx[:]
        rng.shuffle(remaining)
        order = [remaining.pop()]
        while remaining:
            last_tok = chunks[order[-1]][-1]
            pick = None
            for _ in range(8):
                j = rng.randrange(len(remaining))
                if (last_tok, first[remaining[j]]) not in ref_bigrams:
                    pick = j
                    break
            if pick is None:
                ok = [j for j, c in enumerate(remaining) if (last_tok, first[c]) not in ref_bigrams]
                self.budget.work += len(remaining)
                if not ok:
                    return order, False
                pick = rng.choice(ok)
            c = remaining[pick]
            remaining[pick] = remaining[-1]
            remaining.pop()
            order.append(c)
        return order, True

    def best(self, orders, tries: int, max_valid: int):
        """((text, order) with the lowest ROUGE-L among the valid orders, or None; valid orders checked; tried)."""
        chunks, ref_bigrams, budget = self.chunks, self.ref_bigrams, self.budget
        original_text = " ".join(self.toks)
        n_tok = max(1, len(self.toks))
        best = None
        checked = tried = 0
        for order in orders:
            if budget.exhausted() or tried >= tries:
                break
            tried += 1
            budget.work += len(order)
            if order == self.idx:
                continue
            if any((chunks[a][-1], chunks[b][0]) in ref_bigrams for a, b in zip(order, order[1:])):
                continue
            text = " ".join(" ".join(chunks[i]) for i in order)
            if text == original_text:
                continue
            checked += 1
            if checked > max_valid:
                break
            budget.work += 2 * n_tok  # sacreBLEU re-check + ROUGE-L
            if self.stats(text) != self.original:  # e.g. a tokenizer that does not re-tokenize its own output alike
                continue
            key = (self.scorer.rouge_l_f(text), order)
            if best is None or key < best[0]:
                best = (key, text, order)
        return (None if best is None else (best[1], best[2])), checked, tried


_WORD_RE = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")


# Frequent verbs (past and third-person forms), so that "the dog bit the man" / "the plan raises spending" end the
# noun phrase at the noun. A heuristic: the lab has no part-of-speech tagger (NLTK's needs a data download).
_VERBISH = frozenset("""bit bites bite sat sits sit said says ate eats met meets held holds made makes took takes
gave gives saw sees won wins lost loses cut cuts hit hits left leaves told tells found finds got gets ran runs
went goes came comes raises raise rose rises approves approve shows show showed wants needs includes adds keeps
leads led calls puts sets asks seems means becomes became remains helps uses plans cuts pays paid buys bought
sells sold brings brought builds built starts opens closes faces warns claims hopes expects announces
announced reports reported passes passed votes voted plays played moves moved lives lived works worked""".split())
def _looks_verbal(toks: Sequence[str], j: int) -> bool:
    w = toks[j].lower()
    nxt = toks[j + 1].lower() if j + 1 < len(toks) else ""
    return w in _VERBISH or (w.endswith("ed") and len(w) > 4) or nxt in DETERMINERS


def _noun_phrases(toks: Sequence[str]) -> list[tuple[int, int]]:
    """Heuristic noun phrases: a determiner followed by 1-3 content words; the run stops at a function
    word, punctuation, or (after its first word) a word that looks like a verb: one of a few frequent
    verbs, a word ending in -ed, or a word followed by a determiner. Returns [start, end) spans."""
    out = []
    i = 0
    while i < len(toks):
        if toks[i].lower() in DETERMINERS:
            j = i + 1
            while (j < len(toks) and j - i <= 3 and re.match(r"\w", toks[j])
                   and toks[j].lower() not in FUNCTION_WORDS and not (j > i + 1 and _looks_verbal(toks, j))):
                j += 1
            if j > i + 1:
                out.append((i, j))
                i = j
                continue
        i += 1
    return out


def _sentence_spans(toks: Sequence[str]) -> list[tuple[int, int]]:
    """[start, end) spans of the sentences (a sentence ends after . ! or ?)."""
    out, start = [], 0
    for i, t in enumerate(toks):
        if t in (".", "!", "?"):
            out.append((start, i + 1))
            start = i + 1
    if start < len(toks):
        out.append((start, len(toks)))
    return out


def swap_noun_phrases(candidate: str) -> Generated:
    """Swap the first and the last noun phrase of one sentence ("the dog bit the man" -> "the man bit the dog").

    Heuristic, documented: a noun phrase is a determiner plus up to three following content words (see
    :func:`_noun_phrases`); only noun phrases move, within the first sentence that has two. No word changes case:
    the determiners stay where they are and the words after them swap ('The dog bit the man' -> 'The man bit the
    dog'), so the sentence keeps its capital and both texts have exactly the same words."""
    toks = _WORD_RE.findall(candidate)
    for s0, s1 in _sentence_spans(toks):
        nps = [(a + s0, b + s0) for a, b in _noun_phrases(toks[s0:s1])]
        if len(nps) >= 2:
            break
    else:
        return Generated("swap", candidate, "No sentence has two noun phrases (determiner + word); nothing to swap.",
                         False)
    (a0, a1), (b0, b1) = nps[0], nps[-1]
    a0, b0 = a0 + 1, b0 + 1  # the determiners stay in place
    out = toks[:a0] + toks[b0:b1] + toks[a1:b0] + toks[a0:a1] + toks[b1:]
    first, last = " ".join(toks[nps[0][0]:nps[0][1]]), " ".join(toks[nps[-1][0]:nps[-1][1]])
    return Generated("swap", _detok(out), f"Swapped '{first}' and '{last}' (determiners in place, no word changes "
                                          "case).")


def _detok(toks: Sequence[str]) -> str:
    s = " ".join(toks)
    return re.sub(r"\s+([.,;:!?%)\]])", r"\1", s)


_NOT_AFTER = re.compile(r"\s+not\b", re.IGNORECASE)


def insert_negation(candidate: str) -> Generated:
    """Insert 'not' after the first auxiliary or copula (or remove the 'not' that follows it); without one, prefix
    'It is not true that'. Only that word changes: the rest of the text is kept character for character (a
    retokenised "2, 000" would change BLEU by itself)."""
    words = list(_WORD_RE.finditer(candidate))
    for m in words:
        if m.group().lower() in AUXILIARIES:
            nxt = _NOT_AFTER.match(candidate, m.end())
            if nxt:
                return Generated("negate", candidate[:m.end()] + candidate[nxt.end():],
                                 f"Removed the 'not' after '{m.group()}'.")
            return Generated("negate", candidate[:m.end()] + " not" + candidate[m.end():],
                             f"Inserted 'not' after '{m.group()}'.")
    if not words:
        return Generated("negate", candidate, "Empty candidate.", False)
    m = words[0]
    first = m.group()
    if not (first.isupper() and len(first) > 1):
        first = first[:1].lower() + first[1:]
    lead = candidate[:m.start()]
    return Generated("negate", lead + "It is not true that " + first + candidate[m.end():],
                     "No auxiliary verb found; prefixed 'It is not true that'.")


def _count(n: int, word: str) -> str:
    """"1 reference", "2 references" (never "1 words")."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def stuff_function_words(candidate: str, references: Sequence[str], n: int = 8) -> Generated:
    """Append ``n`` function words, first those the references contain more often than the candidate
    (each one is a clipped match), in reference order, then 'the'."""
    n = max(0, min(int(n), 500))
    refs_tok = [[t.lower() for t in bleu_tokens(r)] for r in references]
    clip = _ref_max_counts(refs_tok)
    have = Counter(t.lower() for t in bleu_tokens(candidate))
    order = []
    for toks in refs_tok:
        for t in toks:
            if t in FUNCTION_WORDS and t not in order:
                order.append(t)
    pool = []
    for t in order:
        pool += [t] * max(0, clip[t] - have[t])
    pool.sort(key=lambda t: (-clip[t], order.index(t)))
    # Most frequent first, so the first stuffed words are the surest matches.
    stuffed = (pool + ["the"] * n)[:n]
    if n == 0:
        return Generated("stuff", candidate, "Nothing appended (n = 0).", False)
    text = (candidate.rstrip() + " " + " ".join(stuffed)).strip()
    return Generated("stuff", text, f"Appended {n} function word(s): {' '.join(stuffed)}.",
                     details={"stuffed": stuffed})


def concatenate_references(references: Sequence[str]) -> Generated:
    refs = [r.strip() for r in references if r.strip()]
    if not refs:
        return Generated("concat", "", "No non-empty reference.", False)
    return Generated("concat", " ".join(refs), f"Joined all {len(refs)} reference(s) into one candidate.")


class _Shifted:
    """``ps[lo:hi]`` of a sorted position list, each item plus ``shift`` (a sized view, no copy)."""

    __slots__ = ("ps", "lo", "hi", "shift")

    def __init__(self, ps, lo, hi, shift):
        self.ps, self.lo, self.hi, self.shift = ps, lo, max(lo, hi), shift

    def __len__(self):
        return self.hi - self.lo

    def __getitem__(self, i):
        if not 0 <= i < self.hi - self.lo:
            raise IndexError(i)
        return self.ps[self.lo + i] + self.shift

    def __iter__(self):
        return (self.ps[i] + self.shift for i in range(self.lo, self.hi))


STITCH_MAX_WORK = 150_000  # words scored per call: a deterministic cap
STITCH_BUDGET_SECONDS = 2.0  # wall-clock backstop on top of the work cap
STITCH_EVALS_PER_STEP = 4000


def stitch_references(references: Sequence[str], min_share: float = 0.2, max_work: int = STITCH_MAX_WORK,
                      budget_seconds: float = STITCH_BUDGET_SECONDS,
                      evals_per_step: int = STITCH_EVALS_PER_STEP) -> Generated:
    """A "Frankenstein" candidate stitched greedily from fragments of any number of references.

    It starts with the head of one reference glued to the tail of another (the first step tries every
    ordered pair and seam), then repeatedly brings in a reference not used yet - cutting the last fragment
    and appending that reference's tail, or cutting the first fragment's head and prepending that
    reference's head - as long as multi-reference sentence BLEU (sacreBLEU: max-count clipping, closest
    length) does not fall; at equal BLEU the extra reference is taken. Every fragment is at least 2 words and at least
    ``min_share`` of the output, so the result really mixes its references; each reference is used once.

    Seams: when a pair has few enough (cut, start) combinations all are scored; otherwise only the "shared"
    seams, where the word next to the cut in the new reference equals the kept word (so the bigram across
    the seam is a reference bigram), thinned evenly to ``evals_per_step`` per step and scored in a fixed
    shuffled order. Bounded like :func:`permute_chunks`:
    ``max_work`` words scored (deterministic) or ``budget_seconds`` (backstop); ``details["capped"]`` says
    why it stopped early."""
    budget = _Budget(max_work, budget_seconds)
    refs = [r.split() for r in references if r.strip()]
    if len(refs) < 2:
        # nothing is generated: a reference itself is no stitch (it scored 100 against itself)
        return Generated("stitch", "", f"Stitching needs at least two non-empty references; "
                         f"{_count(len(refs), 'reference')} given, so nothing was generated.", False,
                         {"capped": "", "evaluations": 0})
    search = _StitchSearch(refs, min_share, budget)
    # step 1: every ordered pair of references (the head of one, the tail of another)
    per_start = max(1, evals_per_step // len(refs))
    best = search.best_of([st for a in range(len(refs)) for st in search.extensions([(a, 0, len(refs[a]))],
                                                                                      per_start)])
    if best is None:
        why = ("The search was capped before any stitch could be scored; nothing is offered." if budget.capped
               else "The references are too short to stitch (each fragment needs 2 words and a fair share of "
                    "the output).")
        return Generated("stitch", "", why, False, {"capped": budget.capped, "evaluations": search.evals})
    frags, current = best
    # further steps: bring in another reference while BLEU does not fall
    while len(frags) < len(refs) and not budget.exhausted():
        nxt = search.best_of(search.extensions(frags, evals_per_step))
        if nxt is None or nxt[1] < current - 1e-9:
            break
        frags, current = nxt
    parts = "; ".join(f"reference {k + 1} words {a + 1}–{b}" for k, a, b in frags)
    elapsed = budget.elapsed
    return Generated("stitch", " ".join(search.words_of(frags)),
                     f"Stitched {len(frags)} fragments from {len(frags)} references ({parts}); {search.evals} "
                     "stitches scored, the best multi-reference BLEU kept." + budget.note("stitch"),
                     details={"fragments": [list(f) for f in frags], "capped": budget.capped,
                              "evaluations": search.evals, "elapsed": elapsed})


def _thinned(cuts, seams_at, budget: int) -> list:
    """[(cut, seams)] with about ``budget`` (cut, seam) combinations spread evenly over the whole grid (never
    materialised: counting the seams per cut is enough to pick them; ``seams_at`` returns ranges or list slices,
    so ``len`` is cheap)."""
    cuts = list(cuts)
    counts = [len(seams_at(c)) for c in cuts]
    total = sum(counts)
    if total <= budget:
        return [(c, list(seams_at(c))) for c, n in zip(cuts, counts) if n]
    cum = list(itertools.accumulate(counts))
    picked: dict = {}
    for j in range(max(1, budget)):
        flat = int((j + 0.5) * total / budget)
        k = bisect.bisect_right(cum, flat)
        offset = flat - (cum[k - 1] if k else 0)
        picked.setdefault(k, []).append(offset)
    out = []
    for k, offsets in sorted(picked.items()):
        seams = seams_at(cuts[k])
        out.append((cuts[k], [seams[o] for o in dict.fromkeys(offsets)]))
    return out


class _StitchSearch:
    """The states of :func:`stitch_references`: lists of fragments ``(reference, start, end)``."""

    def __init__(self, refs: list[list[str]], min_share: float, budget: _Budget) -> None:
        self.refs, self.min_share, self.budget = refs, min_share, budget
        self.scorer = FastScorer([" ".join(r) for r in refs])
        self.occ: list[dict] = [{} for _ in refs]   # per reference: word -> positions
        for k, r in enumerate(refs):
            for i, w in enumerate(r):
                self.occ[k].setdefault(w, []).append(i)
        self.evals = 0

    def words_of(self, frags) -> list[str]:
        return [w for k, a, b in frags for w in self.refs[k][a:b]]

    def admissible(self, frags) -> bool:
        n = sum(b - a for _, a, b in frags)
        return all(b - a >= max(2, self.min_share * n) for _, a, b in frags)

    def extensions(self, frags, budget: int) -> list:
        """Candidate next states, each bringing in one unused reference b: either cut the last fragment at c
        and append b's tail from q, or cut the first fragment's head (start it at q) and prepend b's head up
        to c. Where a pair has too many (cut, start) combinations only the "shared" seams are kept (the
        words on both sides of the seam are a bigram of one reference), at evenly spaced cuts."""
        used = {k for k, _, _ in frags}
        free = [b for b in range(len(self.refs)) if b not in used]
        per = max(1, budget // max(1, 2 * len(free)))
        out = []
        for b in free:
            out += self._appended(frags, b, per)
            if len(frags) > 1:   # the first step: appending to every reference already covers every pair
                out += self._prepended(frags, b, per)
        return out

    def _appended(self, frags, b: int, per: int) -> list:
        """Keep refs[a_last][s_last:c], add refs[b][q:]."""
        refs, occ = self.refs, self.occ
        a_last, s_last, e_last = frags[-1]
        nb = len(refs[b])
        cuts = range(s_last + 2, e_last + 1)
        if len(cuts) * max(0, nb - 1) <= per:
            def seams_at(c):
                return range(0, nb - 1)
        else:
            def seams_at(c):   # q = p + 1 after each occurrence p <= nb - 3 of the kept word
                ps = occ[b].get(refs[a_last][c - 1], ())
                return _Shifted(ps, 0, bisect.bisect_right(ps, nb - 3), 1)
        return [frags[:-1] + [(a_last, s_last, c), (b, q, nb)] for c, qs in _thinned(cuts, seams_at, per) for q in qs]

    def _prepended(self, frags, b: int, per: int) -> list:
        """Add refs[b][:c], keep refs[a_first][q:e_first]."""
        refs, occ = self.refs, self.occ
        a_first, s_first, e_first = frags[0]
        nb = len(refs[b])
        starts = range(s_first, e_first - 1)
        if len(starts) * max(0, nb - 1) <= per:
            def heads_at(q):
                return range(2, nb + 1)
        else:
            def heads_at(q):   # c = p + 1 after each occurrence p >= 1 of the word before the new start
                if q < 1:
                    return ()
                ps = occ[b].get(refs[a_first][q - 1], ())
                return _Shifted(ps, bisect.bisect_left(ps, 1), len(ps), 1)
        return [[(b, 0, c), (a_first, q, e_first)] + frags[1:] for q, cs in _thinned(starts, heads_at, per)
                for c in cs]

    def best_of(self, states):
        """(fragments, BLEU) of the best admissible state, scored in a fixed shuffled order; None if none."""
        random.Random(len(states)).shuffle(states)  # a capped search still samples every pair
        best = None
        for fr in states:
            if self.budget.exhausted():
                break
            if not self.admissible(fr):
                continue
            ws = self.words_of(fr)
            if any(ws == r for r in self.refs):
                continue
            self.budget.work += len(ws)
            self.evals += 1
            sc = self.scorer.bleu(" ".join(ws)).score
            lens = [b - a for _, a, b in fr]
            key = (sc, -(max(lens) - min(lens)), [(-k, -a) for k, a, _ in fr])
            if best is None or key > best[0]:
                best = (key, fr, sc)
        return None if best is None else (best[1], best[2])


def pad_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], segment: int | None = None,
               filler: Sequence[str] | None = None, max_tokens: int = 10_000) -> Generated:
    """Append filler tokens to one segment (default: the last) until the corpus candidate length reaches
    the corpus reference length (sacreBLEU's closest-length rule, recomputed after each token), so the
    single corpus-level brevity penalty becomes 1."""
    if len(candidates) != len(references) or not candidates:
        return Generated("pad", list(candidates), "Need one reference list per candidate.", False)
    metric = sacrebleu_metric(CORPUS_BLEU)
    nref = max(len(r) for r in references)
    streams = [[r[i] if i < len(r) else None for r in references] for i in range(nref)]

    def lens(cands):
        st = metric._extract_corpus_statistics(list(cands), streams)
        return sum(s[0] for s in st), sum(s[1] for s in st)

    seg = len(candidates) - 1 if segment is None else max(0, min(int(segment), len(candidates) - 1))
    if not filler:
        freq = Counter(t.lower() for rs in references for r in rs for t in bleu_tokens(r)
                       if t.lower() in FUNCTION_WORDS)
        filler = [w for w, _ in freq.most_common(3)] or ["the"]
    cands = list(candidates)
    c, r = lens(cands)
    added = []
    cyc = itertools.cycle(filler)
    while c < r and len(added) < max_tokens:
        added.append(next(cyc))
        cands[seg] = (candidates[seg].rstrip() + " " + " ".join(added)).strip()
        c, r = lens(cands)
    if not added:
        return Generated("pad", cands, f"The corpus is already as long as its references ({c} ≥ {r} tokens); "
                         "the brevity penalty is 1.", False)
    return Generated("pad", cands, f"Appended {len(added)} filler token(s) to segment {seg + 1}: corpus length "
                     f"{c} vs reference length {r}.", details={"added": added, "segment": seg})


@dataclass(frozen=True)
class GeneratorSpec:
    key: str
    label: str
    fn: Callable
    needs: str  # which inputs: "cand", "cand+refs", "refs"
    params: tuple[OptionSpec, ...] = ()   # the generator's parameters, with widget labels and bounds
    help: str = ""


def _param(name: str, type_: str, default, label: str, lo: float | None = None, hi: float | None = None) -> OptionSpec:
    """A generator parameter: the shared option spec (a ``text`` parameter takes at most 100 characters)."""
    return OptionSpec(name, type_, default, label=label, min=lo, max=100 if type_ == "text" else hi)


GENERATORS: dict[str, GeneratorSpec] = {g.key: g for g in [
    GeneratorSpec("repeat", "Repeat a word", repeat_word, "cand+refs",
                  (_param("word", "text", "", "word (empty = most frequent reference word)"),
                   _param("count", "int", 7, "how many times", 1, 200)),
                  "Papineni's attack; clipping caps the matches at the word's count in one reference."),
    GeneratorSpec("safest", "Keep only the safest words", keep_safest, "cand+refs", (),
                  "Drops every word no reference contains: precision 1, brevity penalty pays."),
    GeneratorSpec("truncate", "Truncate to k words", truncate, "cand",
                  (_param("k", "int", 5, "k", 0, 500),)),
    GeneratorSpec("shuffle", "Shuffle (word salad)", shuffle_words, "cand",
                  (_param("fraction", "float", 1.0, "fraction of words shuffled", 0.0, 1.0),
                   _param("seed", "int", 0, "seed", 0, 10_000))),
    GeneratorSpec("permute", "Permute chunks at bigram mismatches", permute_chunks, "cand+refs",
                  (_param("seed", "int", 0, "seed", 0, 10_000),),
                  "Callison-Burch et al. 2006: sacreBLEU's counts stay identical."),
    GeneratorSpec("swap", "Swap two noun phrases", swap_noun_phrases, "cand", (),
                  "Heuristic: determiner + up to three content words; first and last are swapped."),
    GeneratorSpec("negate", "Insert a negation", insert_negation, "cand", ()),
    GeneratorSpec("stuff", "Stuff function words", stuff_function_words, "cand+refs",
                  (_param("n", "int", 8, "function words appended", 0, 200),)),
    GeneratorSpec("concat", "Concatenate the references", concatenate_references, "refs", ()),
    GeneratorSpec("stitch", "Stitch fragments of the references", stitch_references, "refs", (),
                  "Greedy: fragments of as many references as keep multi-reference BLEU from falling, seams "
                  "chosen to maximise it."),
]}


def run_generator(key: str, candidate: str, references: Sequence[str], **params) -> Generated:
    """Run generator ``key``; the given parameters are checked against its specs (ValueError with a clear message:
    an unknown name, a value of the wrong type or out of bounds); the others keep the function's defaults."""
    g = GENERATORS[key]
    checked = bind_options(f"the {key} generator", g.params, params)
    params = {k: (None if v is None else checked[k]) for k, v in params.items()}
    if g.needs == "cand":
        return g.fn(candidate, **params)
    if g.needs == "refs":
        return g.fn(references, **params)
    return g.fn(candidate, references, **params)
