"""A bounded metric optimizer: greedy hill climbing over word edits that maximises one metric against the
references - the toy version of "optimise the metric directly" (Paulus et al. 2018; Schluter 2017).

* The objective (:data:`TARGETS`): any measure of any registered metric family (``bleu:score``, ``rouge:rouge1``,
  ``chrf:score``, ``ter:score``, …), scored through the family with the lab's dialect
  (:mod:`explainer.attacks.measures`), in the measure's own direction (TER is an error rate: the climb lowers it);
  or ROUGE-1 recall, a part of ROUGE (rouge-score's own functions). Links of earlier versions name the target by
  the lab's metric key (``rouge1_f``): :data:`TARGET_ALIASES`.
* Moves: insert a reference word, delete a word, swap two words, replace a word by a reference word.
* Each step scores ``neighbours`` random moves (``random.Random(seed)``) and takes the best one if it improves the
  objective; after ``patience`` steps without improvement it scans the whole neighbourhood in a fixed order and
  either takes the best improving move or stops at a true local optimum.
* **The budget is counted in steps** (``max_steps``): the same seed, moves and steps give the same search and the
  same text on any machine. Every score is bounded in work (``bounded_scores``), not in time. A time limit
  (``time_limit``) is only a safety net, checked before every unit of work (one neighbour, or recording an accepted
  move): a run it stops says ``stopped == "time limit"`` and is a prefix of the full run.
* ``callback(result_so_far) -> bool | None`` runs once with the start state and then after each step;
  returning False stops the search.
* The moves are used in the canonical order of :data:`MOVES` whatever order they are given in, so a seed
  determines the search for a *set* of moves.
* Only the first :data:`MAX_WORDS` words are optimised: ``start`` is that (whitespace-normalised) text, and
  ``input_words`` says how many words the input had, so a caller can say that it was cut.
* When none of the chosen moves can change the text (delete / replace on an empty text, swap on fewer than
  two words, insert at :data:`MAX_WORDS` words) the search stops with ``stopped == "no applicable move"``.
* Every accepted text is scored by every family (``trajectory``: column keys) and by the lab's BLEU / ROUGE fast
  path (:data:`TRACKED`, sacreBLEU's and rouge-score's own code), which a page re-checks with the real packages.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from explainer.attacks.measures import LAB_SECONDS, TextScorer, columns, lab_dialects
from explainer.attacks.scoring import METRICS, FastScorer, family_measure

__all__ = ["OptimizerResult", "optimize", "TARGETS", "TARGET_ALIASES", "canonical_target", "unreadability",
           "MOVES", "MAX_WORDS", "applicable_moves", "DEFAULT_START", "DEFAULT_REFERENCES", "DEFAULT_TARGET",
           "DEFAULT_STEPS", "TIME_LIMIT", "default_run", "is_word_salad", "target_better", "TRACKED"]

#: the lab's fast-path numbers every accepted text carries (sacreBLEU's sentence BLEU and rouge-score's P / R / F)
TRACKED = ("bleu", "bleu_bp", "rouge1_f", "rouge2_f", "rougeL_f", "rouge1_p", "rouge1_r")
#: the parts of a metric the optimizer can climb besides the families' measures (rouge-score's own functions)
COMPONENT_TARGETS = ("rouge1_r",)
MOVES = ("insert", "delete", "swap", "replace")
MAX_WORDS = 200
DEFAULT_STEPS = 100
TIME_LIMIT = 60.0


def _targets() -> dict[str, str]:
    cols = columns(lab_dialects())
    out = {c.key: c.label + ("" if c.measure.higher_is_better else " (lower is better)") for c in cols}
    out.update({k: METRICS[k].label.replace(" R", " recall") for k in COMPONENT_TARGETS})
    return out


#: objective -> its label (every family's measures, then ROUGE-1 recall)
TARGETS: dict[str, str] = _targets()
#: a lab metric key of earlier links -> the family measure it is (``rouge1_f`` -> ``rouge:rouge1``)
TARGET_ALIASES: dict[str, str] = {m: f"{fm[0]}:{fm[1]}" for m in METRICS if (fm := family_measure(m))}


def canonical_target(target: str) -> str:
    return TARGET_ALIASES.get(target, target)


def target_better(target: str) -> bool:
    """True when a higher value of the objective is better (False for an error rate such as TER)."""
    t = canonical_target(target)
    col = next((c for c in columns(lab_dialects()) if c.key == t), None)
    return True if col is None else col.measure.higher_is_better


# The default start: what a live demo runs. From a fluent near-copy of a reference the climb simply rebuilds the
# reference (the lab's fox sentence went 43.2 → 100 BLEU), which teaches nothing. From a list of the story's
# keywords, maximising ROUGE-1 F fills in the reference's missing words wherever they raise the unigram overlap:
# ROUGE-1 F reaches 1 on a text whose word pairs are mostly in no reference — word salad (see is_word_salad).
DEFAULT_REFERENCES = ("police arrested two men after a robbery at a bank in the city centre on friday",)
DEFAULT_START = "friday police robbery bank men city"
DEFAULT_TARGET = "rouge:rouge1"


@dataclass
class OptimizerResult:
    start: str
    target: str
    seed: int
    budget_seconds: float                  # the time limit (a safety net; the budget is ``max_steps``)
    trajectory: list[dict] = field(default_factory=list)  # step, move, text, every column and TRACKED, elapsed
    evaluations: int = 0
    steps: int = 0
    elapsed: float = 0.0
    max_unit_seconds: float = 0.0
    stopped: str = ""  # "steps" | "time limit" | "local optimum" | "callback" | "no applicable move"
    max_steps: int = DEFAULT_STEPS
    higher_is_better: bool = True
    unreadable: dict = field(default_factory=dict)
    source: str = ""  # the candidate as given (``start`` is its first MAX_WORDS words, whitespace-normalised)
    input_words: int = 0  # words in ``source``
    moves: tuple = ()  # the moves used, in canonical order
    references: tuple = ()  # the (non-empty) references the search scored against

    @property
    def truncated(self) -> bool:
        return self.input_words > MAX_WORDS

    def snapshot(self) -> "OptimizerResult":
        """A copy that the running search no longer changes (the trajectory's entries are never changed after
        they are appended, so copying the list is enough)."""
        return replace(self, trajectory=list(self.trajectory), unreadable=dict(self.unreadable))

    @property
    def final(self) -> str:
        return self.trajectory[-1]["text"]

    @property
    def final_score(self) -> float:
        return self.trajectory[-1][self.target]

    @property
    def start_score(self) -> float:
        return self.trajectory[0][self.target]


def _levenshtein(a: Sequence[str], b: Sequence[str]) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def unreadability(start: Sequence[str], words: Sequence[str], references: Sequence[str]) -> dict:
    """Crude, documented disfluency signals (no language model): the share of adjacent word pairs found
    in neither a reference nor the starting text, immediate repetitions, and word edits from the start."""
    seen = set()
    for text in list(references) + [" ".join(start)]:
        w = text.lower().split()
        seen.update(zip(w, w[1:]))
    low = [w.lower() for w in words]
    pairs = list(zip(low, low[1:]))
    unseen = sum(1 for p in pairs if p not in seen)
    return {"unseen_bigram_share": unseen / len(pairs) if pairs else 0.0,
            "immediate_repeats": sum(1 for a, b in pairs if a == b),
            "word_edits_from_start": _levenshtein(list(start), list(words)),
            "words": len(words)}


def _apply(words: list[str], move: tuple) -> list[str]:
    kind = move[0]
    w = words[:]
    if kind == "insert":
        w.insert(move[1], move[2])
    elif kind == "delete":
        del w[move[1]]
    elif kind == "swap":
        i, j = move[1], move[2]
        w[i], w[j] = w[j], w[i]
    else:
        w[move[1]] = move[2]
    return w


def _describe(words: list[str], move: tuple) -> str:
    kind = move[0]
    if kind == "insert":
        return f"insert '{move[2]}' at {move[1] + 1}"
    if kind == "delete":
        return f"delete '{words[move[1]]}' (word {move[1] + 1})"
    if kind == "swap":
        return f"swap '{words[move[1]]}' ↔ '{words[move[2]]}'"
    return f"replace '{words[move[1]]}' → '{move[2]}'"


def _all_moves(words: list[str], vocab: list[str], moves: Sequence[str]):
    """Every move, in a fixed order (used to confirm a local optimum)."""
    n = len(words)
    if "delete" in moves:
        for i in range(n):
            yield ("delete", i)
    if "swap" in moves:
        for i in range(n):
            for j in range(i + 1, n):
                if words[i] != words[j]:
                    yield ("swap", i, j)
    if "replace" in moves:
        for i in range(n):
            for w in vocab:
                if w != words[i]:
                    yield ("replace", i, w)
    if "insert" in moves and n < MAX_WORDS:
        for i in range(n + 1):
            for w in vocab:
                yield ("insert", i, w)


def applicable_moves(n_words: int, moves: Sequence[str]) -> list[str]:
    """The moves that can change a text of ``n_words`` words (in the given order)."""
    return [m for m in moves if (m == "insert" and n_words < MAX_WORDS) or (m in ("delete", "replace") and n_words >= 1)
            or (m == "swap" and n_words >= 2)]


def _random_move(rng: random.Random, words: list[str], vocab: list[str], moves: Sequence[str]):
    n = len(words)
    options = applicable_moves(n, moves)
    if not options:  # callers check first; never call rng.choice([])
        raise ValueError("no applicable move")
    kind = rng.choice(options)
    if kind == "insert":
        return ("insert", rng.randint(0, n), rng.choice(vocab))
    if kind == "delete":
        return ("delete", rng.randrange(n))
    if kind == "swap":
        i, j = rng.sample(range(n), 2)
        return ("swap", min(i, j), max(i, j))
    return ("replace", rng.randrange(n), rng.choice(vocab))


def optimize(candidate: str, references: Sequence[str], target: str = "bleu:score", *, max_steps: int = DEFAULT_STEPS,
             time_limit: float | None = None, budget_seconds: float | None = None, seed: int = 0,
             neighbours: int = 60, patience: int = 15, moves: Sequence[str] = MOVES, callback: Callable | None = None,
             seconds_per_score: float = LAB_SECONDS) -> OptimizerResult:
    """Hill-climb ``candidate`` towards a better ``target`` score against ``references`` for at most ``max_steps``
    steps (see the module notes). ``budget_seconds``: the time limit's name in earlier versions."""
    t0 = time.perf_counter()
    target = canonical_target(target)
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; choose one of {', '.join(TARGETS)}")
    refs = [r for r in references if r.strip()]
    if not refs:
        raise ValueError("Give at least one non-empty reference.")
    limit = time_limit if time_limit is not None else budget_seconds if budget_seconds is not None else TIME_LIMIT
    # Canonical order: the same set of moves with the same seed gives the same search.
    chosen = set(moves)
    moves = tuple(m for m in MOVES if m in chosen) or MOVES
    climb = _Climb(candidate, refs, target, moves, t0, float(limit), seed, callback, seconds_per_score)
    climb.res.max_steps = int(max_steps)
    return climb.run(int(max_steps), neighbours, patience)


class _Climb:
    """One run of :func:`optimize`: the current words, the result being recorded, and the time limit, checked
    before every unit of work (one neighbour evaluation, or recording an accepted move)."""

    def __init__(self, candidate: str, refs: list[str], target: str, moves: tuple, t0: float, limit: float,
                 seed: int, callback: Callable | None, seconds: float) -> None:
        self.t0, self.limit, self.target, self.moves, self.callback = t0, limit, target, moves, callback
        self.scorer = FastScorer(refs)
        self.families = TextScorer(refs, seconds=seconds)
        self.objective = self._objective(target)
        self.refs = refs
        self.vocab = sorted({w for r in refs for w in r.split()})
        self.rng = random.Random(seed)
        all_words = candidate.split()
        self.words = all_words[:MAX_WORDS]
        self.res = OptimizerResult(" ".join(self.words), target, seed, limit, source=candidate,
                                   input_words=len(all_words), moves=moves, references=tuple(refs),
                                   higher_is_better=target_better(target))
        self.last = t0

    def _objective(self, target: str) -> Callable[[str], float | None]:
        """text -> the objective as a number to maximise (an error rate negated), None when not computed."""
        if target in COMPONENT_TARGETS:
            return lambda text: self.scorer.values(text)[target]
        family, key = target.split(":", 1)
        sign = 1.0 if target_better(target) else -1.0

        def value(text: str) -> float | None:
            try:
                v = self.families.family_scores(family, text)
            except ValueError:
                return None
            return None if v is None or v.get(key) is None else sign * v[key]

        return value

    # ---- the time limit
    def over_budget(self) -> bool:
        return time.perf_counter() - self.t0 >= self.limit

    def unit_done(self) -> None:
        now = time.perf_counter()
        self.res.max_unit_seconds = max(self.res.max_unit_seconds, now - self.last)
        self.last = now

    def stop(self, why: str) -> OptimizerResult:
        self.res.stopped = why
        self.res.elapsed = time.perf_counter() - self.t0
        return self.res

    # ---- steps
    def record(self, move_text: str, step: int) -> float:
        ws = self.words
        text = " ".join(ws)
        v = self.scorer.values(text)
        entry = {"step": step, "move": move_text, "text": text, **{m: v[m] for m in TRACKED}}
        entry.update(self.families.score(text))
        entry["elapsed"] = time.perf_counter() - self.t0
        self.res.trajectory.append(entry)
        self.res.unreadable = unreadability(self.res.start.split(), ws, self.refs)
        got = self.objective(text)
        return float("-inf") if got is None else got

    def scan(self, move_iter):
        """Score moves one unit at a time: (best (score, move, words) or None, cut short by the time limit)."""
        best = None
        for mv in move_iter:  # lazy: a cut-short scan draws no further random moves
            if self.over_budget():
                return best, True
            cand_words = _apply(self.words, mv)
            s = self.objective(" ".join(cand_words))
            self.res.evaluations += 1
            if s is not None and (best is None or s > best[0]):
                best = (s, mv, cand_words)
            self.unit_done()
        return best, False

    def ask_callback(self) -> bool:
        """Run the callback (if any) with the result so far; False when it asks to stop."""
        if self.callback is None:
            return True
        self.res.elapsed = time.perf_counter() - self.t0
        return self.callback(self.res) is not False

    def run(self, max_steps: int, neighbours: int, patience: int) -> OptimizerResult:
        res = self.res
        current = self.record("start", 0)
        if not self.ask_callback():   # lets a UI show (and keep) the start state before the first step ends
            res.max_unit_seconds = time.perf_counter() - self.t0
            return self.stop("callback")
        self.last = time.perf_counter()
        res.max_unit_seconds = self.last - self.t0
        fails = 0
        while True:
            why = self.cannot_step(max_steps)
            if why:
                return self.stop(why)
            best, cut = self.scan(_random_move(self.rng, self.words, self.vocab, self.moves)
                                  for _ in range(neighbours))
            if cut:  # discard the partial step: keeps time-limited runs a prefix of the full run
                return self.stop("time limit")
            res.steps += 1
            suffix = ""
            if best is None or best[0] <= current + 1e-12:
                fails += 1
                if fails < patience:
                    best = None
                else:
                    # Before giving up, scan the whole neighbourhood in a fixed order: either it holds an
                    # improving move (take the best) or the text is a true local optimum for these moves.
                    best, cut = self.scan(_all_moves(self.words, self.vocab, self.moves))
                    if cut:
                        return self.stop("time limit")
                    if best is None or best[0] <= current + 1e-12:
                        return self.stop("local optimum")
                    suffix = " (full scan)"
            if best is not None:
                if self.over_budget():
                    return self.stop("time limit")
                desc = _describe(self.words, best[1]) + suffix
                self.words = best[2]
                current = self.record(desc, res.steps)
                fails = 0
                self.unit_done()
            if self.callback is not None:
                go_on = self.ask_callback()
                self.unit_done()
                if not go_on:
                    return self.stop("callback")

    def cannot_step(self, max_steps: int) -> str:
        if self.res.steps >= max_steps:
            return "steps"
        if self.over_budget():
            return "time limit"
        if not applicable_moves(len(self.words), self.moves):
            return "no applicable move"
        return ""


def default_run(budget_seconds: float = TIME_LIMIT, seed: int = 0, max_steps: int = DEFAULT_STEPS) -> OptimizerResult:
    """The optimizer from its default start (:data:`DEFAULT_START` against :data:`DEFAULT_REFERENCES`,
    maximising :data:`DEFAULT_TARGET`); ``budget_seconds``: the time limit (a safety net)."""
    return optimize(DEFAULT_START, DEFAULT_REFERENCES, DEFAULT_TARGET, time_limit=budget_seconds, seed=seed,
                    max_steps=max_steps)


def is_word_salad(res: OptimizerResult) -> bool:
    """The stated criterion: the final text has (almost) every reference word — ROUGE-1 F ≥ 0.9 — but not
    their order: ROUGE-2 F ≤ 0.3 and at least half of its adjacent word pairs occur in no reference and not in
    the start text (``unreadable["unseen_bigram_share"]``)."""
    last = res.trajectory[-1]
    return (last["rouge1_f"] >= 0.9 and last["rouge2_f"] <= 0.3
            and res.unreadable.get("unseen_bigram_share", 0.0) >= 0.5)
