"""Generated exercise sets: fresh candidate/reference pairs of a chosen difficulty, and "spot the gaming
attack" items from the gaming lab's presets.

A set is a pure function of (seed, level, size): the same link gives a class the same set. The generator
only writes texts; every answer is a question of the walkthrough built over the cores' traces of that text
(so an exercise's answer and explanation are exactly what the Teach page shows for the pair). Attack items
take their verdicts and numbers from :func:`explainer.attacks.presets.evaluate`.

Kinds of generated pair:

* ``clip``: a reference word repeated in the candidate (clipping);
* ``missing4``: every fourth token replaced, so no 4-gram matches (precision per order, smoothing);
* ``short``: the first tokens of the reference only (brevity penalty);
* ``reorder``: the reference's chunks swapped (ROUGE-L's in-order subsequence).

A chrF set (``metric="chrf"`` or ``"chrf++"``: the Teach page's "Lesson of") asks the chrF lesson's questions
(:mod:`explainer.teach.chrf_steps`, sacreBLEU's chrF2 / chrF2++) about the same generated pairs: the clipped
character (or, chrF++, word) n-gram matches of an order, the precision, recall or F-β of an order, the score.
"""
from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

from explainer.teach.model import Question

__all__ = ["LEVELS", "KINDS", "MAX_SET", "MAX_SEED", "Exercise", "AttackItem", "ExerciseSet", "generate_set",
           "attack_items", "check_attack", "attack_preset_ids", "make_pair", "attack_feedback", "item_points",
           "score_text", "ATTACK_CONTEXT", "CHRF_KINDS", "SET_METRICS"]

LEVELS = ("easy", "medium", "hard")
KINDS = ("clip", "missing4", "short", "reorder")
MAX_SET = 20
MAX_SEED = 999_999_999

_SUBJECTS = ("the cat", "a small dog", "the old man", "my sister", "the teacher", "a young girl", "the farmer",
             "our neighbour", "the pilot", "a tired student")
_VERBS = ("sat on", "looked at", "walked past", "painted", "cleaned", "found", "carried", "opened", "repaired",
          "pushed")
_OBJECTS = ("the red mat", "a wooden box", "the kitchen door", "an old bicycle", "the garden gate", "a heavy bag",
            "the blue car", "a broken chair", "the front window", "a paper boat")
_TAILS = ("this morning", "after lunch", "in the rain", "last night", "before school", "on sunday",
          "near the river", "with great care", "at the station", "for an hour")
_FILLERS = ("quickly", "yellow", "seven", "perhaps", "silver", "gently", "twelve", "orange", "slowly", "maybe")

_KIND_TITLES = {"clip": "Repeated words (clipping)", "missing4": "A missing 4-gram", "short": "A short candidate",
                "reorder": "A reordering (ROUGE-L)", "attack": "Spot the gaming attack",
                "chrf-match": "chrF: matched n-grams", "chrf-prf": "chrF: P, R and F of an order",
                "chrf-score": "chrF: the score"}

SET_METRICS = ("bleu-rouge", "chrf", "chrf++")      # the Teach page's "Lesson of"
CHRF_KINDS = ("chrf-match", "chrf-prf", "chrf-score")
# (chrF kind, level) -> (the generated pair's kind, what is asked: a chrF step id, or "precision" / "recall" / "f"
# of the focus order, the character order followed: None = the lesson's own choice, where clipping matters)
_CHRF_PLAN = {
    ("chrf-match", "easy"): ("clip", "chrf-ngrams", None), ("chrf-match", "medium"): ("missing4", "chrf-ngrams", 2),
    ("chrf-match", "hard"): ("clip", "chrf-words", 3),
    ("chrf-prf", "easy"): ("short", "recall", None), ("chrf-prf", "medium"): ("missing4", "precision", 2),
    ("chrf-prf", "hard"): ("clip", "f", 3),
    ("chrf-score", "easy"): ("short", "chrf-average", None),
    ("chrf-score", "medium"): ("missing4", "chrf-average", None),
    ("chrf-score", "hard"): ("clip", "chrf-average", None),
}

# (kind, level) -> (the walkthrough step whose question is asked, the BLEU order followed, references)
_PLAN = {
    ("clip", "easy"): ("bleu-clipping", 1, 1), ("clip", "medium"): ("bleu-precision", 1, 1),
    ("clip", "hard"): ("bleu-precision", 1, 2),
    ("missing4", "easy"): ("bleu-clipping", 4, 1), ("missing4", "medium"): ("bleu-precision", 3, 1),
    ("missing4", "hard"): ("bleu-smoothing", 4, 1),
    ("short", "easy"): ("bleu-bp", None, 1), ("short", "medium"): ("bleu-bp", None, 2),
    ("short", "hard"): ("bleu-score", None, 1),
    ("reorder", "easy"): ("rouge-lcs-table", None, 1), ("reorder", "medium"): ("rouge-l", None, 1),
    ("reorder", "hard"): ("rouge-l", None, 1),
}


@dataclass(frozen=True)
class Exercise:
    index: int
    kind: str
    title: str
    candidate: str
    references: tuple[str, ...]
    step_id: str            # the walkthrough step the question belongs to
    focus_order: int | None
    question: Question

    family: str = "BLEU"


@dataclass(frozen=True)
class AttackItem:
    """Two outputs for the same reference(s), one of them a catalogued attack: which one is it, and which
    metrics does it fool (score it at least as high as the honest output)?"""

    index: int
    preset_id: str
    title: str
    catalogue: str
    references: tuple[str, ...]
    texts: tuple[str, str]              # output A, output B
    attack: int                         # 0 (A) or 1 (B)
    metrics: tuple[tuple[str, str], ...]   # (metric key, label) offered
    fooled: frozenset                   # metric keys the attack fools (ties on a headline metric included)
    values: dict                        # metric key -> (shown A, shown B)
    lesson: str
    citation: str
    kind: str = "attack"
    context: tuple[tuple[str, str], ...] = ()   # (label, text) the item needs besides the references


#: Texts an attack item cannot be solved without: "copy the lead sentence" is only visible beside the article
#: it copies from (the preset's "first source sentence" opens it).
ATTACK_CONTEXT = {
    "copy-lead": (("Source article", "a fire destroyed a warehouse in the port of dover on sunday night. "
                   "firefighters fought the blaze for six hours before it was under control. the owners said the "
                   "damage would cost millions of pounds, and police are investigating the cause."),),
}


@dataclass
class ExerciseSet:
    seed: int
    level: str
    items: list = field(default_factory=list)

    @property
    def points(self) -> int:
        """Maximum score: one point per number, two per attack item (which text, which metrics)."""
        return sum(item_points(i) for i in self.items)


def item_points(item) -> int:
    """The points an item is worth: 1 for a number, 2 for an attack item (which output, which metrics)."""
    return 2 if isinstance(item, AttackItem) else 1


def score_text(ex_set: "ExerciseSet", answers: dict) -> str:
    """The score line: points out of the set's points and exercises done out of the set's exercises (a set of
    6 with one attack item is worth 7 points, which "0 of 7" alone left unexplained)."""
    got = sum(a["points"] for a in answers.values())
    n = len(ex_set.items)
    return (f"Score: {got} of {ex_set.points} points · {len(answers)} of {n} exercise{'s' if n != 1 else ''} "
            "done")


# --------------------------------------------------------------------------------------------- pairs
def _parts(rng: random.Random) -> list[list[str]]:
    """Subject, verb, object and ending of a short sentence, each a list of words."""
    return [x.split() for x in (rng.choice(_SUBJECTS), rng.choice(_VERBS), rng.choice(_OBJECTS), rng.choice(_TAILS))]


def _flat(parts) -> list[str]:
    return [w for p in parts for w in p]


def _other(rng: random.Random, parts: list[list[str]]) -> list[str]:
    """A second reference for the same event: same subject and object, another verb and ending."""
    verbs = [v for v in _VERBS if v.split() != parts[1]]
    tails = [t for t in _TAILS if t.split() != parts[3]]
    return _flat([parts[0], rng.choice(verbs).split(), parts[2], rng.choice(tails).split()])


def make_pair(kind: str, level: str, rng: random.Random) -> tuple[str, list[str]]:
    """A candidate and its references for one exercise kind and level."""
    parts = _parts(rng)
    ref = _flat(parts)
    second = None
    if level == "hard" and kind in ("reorder", "missing4"):
        second = [rng.choice([v for v in _VERBS if v.split() != parts[1]]).split(), rng.choice(_OBJECTS).split()]
        ref = ref + ["and", "then"] + _flat(second)
    if kind == "clip":
        once = [w for w in ref if ref.count(w) == 1 and w not in ("a", "an")]
        w = rng.choice(once)
        i = ref.index(w)
        extra = 2 if level == "easy" else 3
        cand = ref[:i + 1] + [w] * extra + ref[i + 1:]
        if level != "easy":   # also drop a later word, so the precision is not just (c - extra) / c
            later = list(range(i + extra + 1, len(cand)))
            if later:
                j = rng.choice(later)
                cand = cand[:j] + cand[j + 1:]
    elif kind == "missing4":
        fill = [f for f in _FILLERS if f not in ref]
        rng.shuffle(fill)
        cand = list(ref)
        for k, p in enumerate(range(3, len(cand), 4)):   # every window of 4 tokens contains one replaced token
            cand[p] = fill[k % len(fill)]
    elif kind == "short":
        keep = {"easy": 4, "medium": 5, "hard": 5}[level] + rng.randrange(0, 2)
        cand = ref[:keep]
        if level == "hard":
            cand[-2] = rng.choice([f for f in _FILLERS if f not in ref])
    elif kind == "reorder":
        if second is not None:     # the two clauses swapped
            cand = _flat([parts[0], second[0], second[1], ["and", "then"], parts[1], parts[2], parts[3]])
        else:                      # the ending moved to the front: same meaning, another order
            cand = _flat([parts[3], parts[0], parts[1], parts[2]])
    else:
        raise ValueError(f"unknown exercise kind {kind!r}")
    refs = [ref]
    if _PLAN[(kind, level)][2] == 2:
        refs.append(_other(rng, parts))
    return " ".join(cand), [" ".join(r) for r in refs]


def _numeric(index: int, kind: str, level: str, rng: random.Random) -> Exercise:
    from explainer.teach.lesson import build_lesson

    step_id, order, _ = _PLAN[(kind, level)]
    cand, refs = make_pair(kind, level, rng)
    lesson = build_lesson(cand, refs, focus_order=order)
    step = next(s for s in lesson.steps if s.id == step_id)
    if step.question is None:   # cannot happen for generated pairs; a clear error if it ever does
        raise RuntimeError(f"step {step_id} has no question for {cand!r}")
    return Exercise(index, kind, _KIND_TITLES[kind], cand, tuple(refs), step_id, order, step.question,
                    family=step.family)


def _chrf_numeric(index: int, kind: str, level: str, rng: random.Random, metric: str) -> Exercise:
    """A chrF exercise: the chrF lesson's question (or P / R / F of its focus order) about a generated pair."""
    from explainer.chrf import explain_chrf
    from explainer.teach.chrf_steps import chrf_steps, focus_order

    pair_kind, asked, order = _CHRF_PLAN[(kind, level)]
    cand, refs = make_pair(pair_kind, level, rng)
    words = 2 if metric == "chrf++" else 0
    t = explain_chrf(cand, refs, word_order=words).to_dict()
    focus = focus_order(t) if order is None else order - 1
    steps = {s.id: s for s in chrf_steps(t, focus)}
    if asked == "chrf-words" and asked not in steps:
        asked = "chrf-ngrams"          # chrF without word n-grams: the character order's matches
    if asked in steps:
        q, step_id = steps[asked].question, asked
    else:
        q, step_id = _order_question(t, focus, asked), "chrf-prf"
    return Exercise(index, kind, _KIND_TITLES[kind], cand, tuple(refs), step_id, focus + 1, q, family="chrF")


def _order_question(t: dict, i: int, measure: str) -> Question:
    """Precision, recall or F-β of order ``i`` (the trace's numbers; sacreBLEU's for chrF2)."""
    from explainer.teach.answers import question
    from explainer.teach.chrf_steps import _label
    from explainer.teach.model import Table, frac, num

    o = t["combination"]["orders"][i]
    beta = num(t["combination"]["beta"])
    label = _label(o)
    given = (Table(("order", "matched", "cand. n-grams", "ref. n-grams"),
                   ((label, num(o["match"]), num(o["hyp"]), num(o["ref"])),)),)
    if measure == "precision":
        return question(f"chrf-precision-{o['kind']}{o['n']}", f"What is the precision of the {label}?",
                        o["precision"], kind="ratio", shown=frac(o["match"], o["hyp"], o["precision"]) if o["hyp"]
                        else num(o["precision"]), given=given,
                        explanation=f"Precision divides the matches by the candidate's n-grams: P = "
                                    f"{o['precision_note']}.")
    if measure == "recall":
        return question(f"chrf-recall-{o['kind']}{o['n']}", f"What is the recall of the {label}?", o["recall"],
                        kind="ratio", shown=frac(o["match"], o["ref"], o["recall"]) if o["ref"] else num(o["recall"]),
                        given=given, explanation=f"Recall divides the matches by the reference's n-grams: R = "
                                                 f"{o['recall_note']}.")
    return question(f"chrf-f-{o['kind']}{o['n']}", f"What is F{beta} (β = {beta}) of the {label}?", o["f"],
                    kind="ratio", shown=num(o["f"]), given=given,
                    explanation=f"P = {o['precision_note']}, R = {o['recall_note']}; F{beta} = (1 + β²)·P·R / "
                                f"(β²·P + R) = {o['f_note']}.")


# -------------------------------------------------------------------------------------- attack items
def attack_preset_ids() -> list[str]:
    """Gaming-lab presets usable as "spot the attack": catalogued gaming attacks (G…) of one candidate whose
    honest and attacked outputs share their references."""
    from explainer.attacks.presets import PRESETS

    out = []
    for pid, p in PRESETS.items():
        if p.kind != "attack" or not p.catalogue.startswith("G"):
            continue
        honest, attacked = p.variants[0], next((v for v in p.variants[1:] if not v.compare_only), None)
        if attacked is None or honest.is_corpus or attacked.is_corpus:
            continue
        if tuple(honest.references) != tuple(attacked.references):
            continue
        out.append(pid)
    return out


def _attack_item(index: int, pid: str, rng: random.Random) -> AttackItem:
    from explainer.attacks.presets import evaluate
    from explainer.attacks.scoring import format_metric, metric_label

    res = evaluate(pid)
    p = res.preset
    j = res.judged[0]
    honest, attacked = p.variants[0], p.variants[j]
    attack_first = rng.random() < 0.5
    texts = (attacked.candidate, honest.candidate) if attack_first else (honest.candidate, attacked.candidate)
    idx = (j, 0) if attack_first else (0, j)
    metrics = tuple((m, metric_label(m)) for m in p.headline)
    fooled = frozenset(m for m in p.headline if res.shown_verdict(j, m) in ("fooled", "fooled_tie"))
    values = {m: (format_metric(m, res.scores[idx[0]].values[m]), format_metric(m, res.scores[idx[1]].values[m]))
              for m in p.headline}
    return AttackItem(index, pid, p.title, p.catalogue, tuple(honest.references), texts, 0 if attack_first else 1,
                      metrics, fooled, values, p.lesson, p.citation, context=ATTACK_CONTEXT.get(pid, ()))


def attack_items(seed: int, count: int, level: str = "") -> list[AttackItem]:
    rng = random.Random(f"teach-attacks|{seed}|{level}")
    ids = attack_preset_ids()
    rng.shuffle(ids)
    return [_attack_item(i, pid, rng) for i, pid in enumerate(ids[:count])]


def check_attack(item: AttackItem, choice: int | None, metrics) -> tuple[bool, bool]:
    """(picked the attack, named exactly the metrics it fools)."""
    return choice == item.attack, frozenset(metrics or ()) == item.fooled


def attack_feedback(item: AttackItem, choice: int | None, metrics) -> tuple[int, str]:
    """(points, feedback) for an answer: one point for the output, one for exactly the metrics it fools. The
    feedback says what each point was for, and names the fooled metrics not ticked and the ticked ones that
    resisted — never a bare "Right" when half the answer is wrong."""
    picked, named = check_attack(item, choice, metrics)
    ticked = frozenset(metrics or ())
    which = "AB"[item.attack]
    head = (f"Output {which} is the attack, as you said" if picked else
            f"Output {which} is the attack, not output {'AB'[1 - item.attack]}")
    head += f" ({item.catalogue} · {item.title})."
    names = lambda keys: ", ".join(lab for m, lab in item.metrics if m in keys)   # noqa: E731
    if named:
        mets = "The metrics are right too: it fools " + (names(item.fooled) or "none of them") + "."
    else:
        parts = []
        if item.fooled - ticked:
            parts.append("it also fools " + names(item.fooled - ticked) + " (not ticked)")
        if ticked - item.fooled:
            parts.append(names(ticked - item.fooled) + (" resists" if len(ticked - item.fooled) == 1 else
                                                         " resist") + " it (ticked)")
        mets = "The metrics are not right: " + "; ".join(parts) + "."
    points = int(picked) + int(named)
    return points, f"{points} of {item_points(item)} points. {head} {mets}"


# -------------------------------------------------------------------------------------------- the set
def generate_set(seed: int, level: str = "easy", n: int = 6, *, attacks: bool = True,
                 metric: str = "bleu-rouge") -> ExerciseSet:
    """``n`` items (1..MAX_SET) for ``seed`` (0..MAX_SEED) and ``level``: every kind of generated pair in a
    seeded order, and — with ``attacks`` and at least 3 items — one "spot the attack" item per 4 items.
    ``metric``: "bleu-rouge" (BLEU and ROUGE questions), "chrf" or "chrf++" (chrF's, :data:`CHRF_KINDS`)."""
    if metric not in SET_METRICS:
        raise ValueError(f"metric must be one of {', '.join(SET_METRICS)}")
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    if not (isinstance(seed, int) and 0 <= seed <= MAX_SEED):
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED:,}")
    if not (isinstance(n, int) and 1 <= n <= MAX_SET):
        raise ValueError(f"the number of exercises must be 1–{MAX_SET}")
    chrf = metric != "bleu-rouge"
    rng = random.Random(f"teach-set|{seed}|{level}|{n}" + (f"|{metric}" if chrf else ""))
    n_attack = max(1, n // 4) if attacks and n >= 3 else 0
    kinds = list(CHRF_KINDS if chrf else KINDS)
    rng.shuffle(kinds)
    plan = [kinds[i % len(kinds)] for i in range(n - n_attack)]
    for _ in range(n_attack):
        plan.insert(rng.randrange(1, len(plan) + 1), "attack")
    atk = iter(attack_items(seed, n_attack, level))
    items: list = []
    for i, kind in enumerate(plan):
        if kind == "attack":
            a = next(atk)
            items.append(dataclasses.replace(a, index=i))
        elif chrf:
            items.append(_chrf_numeric(i, kind, level, rng, metric))
        else:
            items.append(_numeric(i, kind, level, rng))
    return ExerciseSet(seed, level, items)
