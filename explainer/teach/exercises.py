"""Generated exercise sets: fresh candidate/reference pairs of a chosen difficulty, and "spot the gaming
attack" items from the gaming lab's presets.

A set is a pure function of (seed, level, the lecture's families): the same link gives a class the same set, and a
larger number of items extends it without reshuffling the first ones (each item is drawn from its own seeded
generator; the kinds cycle through a seeded order). The generator only writes texts; every answer is a question
of the walkthrough of the item's family (:mod:`explainer.teach.families`: its ``exercise`` hook) built over the
core's trace of that text, so an exercise's answer and explanation are exactly what the Teach page shows for the
pair. Attack items take their verdicts and numbers from :func:`explainer.attacks.presets.evaluate`.

The pairs and the :class:`Exercise` of one are in :mod:`explainer.teach.pairs` (its kinds: ``clip``, ``missing4``,
``short``, ``reorder``).

Each family asks its own questions about them (BLEU: clipping, precision, brevity penalty; ROUGE: the LCS; chrF:
clipped character n-grams, P / R / F of an order, the score; TER: the edit distance, the score).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping, Sequence

from explainer.teach.families import lesson_family, lesson_names, read_lecture
from explainer.teach.pairs import KINDS, Exercise, make_pair

__all__ = ["LEVELS", "KINDS", "MAX_SET", "MAX_SEED", "Exercise", "AttackItem", "ExerciseSet", "generate_set",
           "attack_items", "attack_item", "check_attack", "attack_preset_ids", "make_pair", "attack_feedback",
           "item_points", "score_text", "ATTACK_CONTEXT", "set_plan", "make_item", "item_title",
           "lecture_of", "ATTACK_TITLE", "ExercisePlan", "PlanEntry", "exercise_plan"]

LEVELS = ("easy", "medium", "hard")
MAX_SET = 20
MAX_SEED = 999_999_999

ATTACK_TITLE = "Spot the gaming attack"
#: a set's plan reserves every fourth item, from the third on, for "spot the attack" (so extending a set never moves
#: the items before)
ATTACK_EVERY, ATTACK_AT = 4, 2


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

    @property
    def size(self) -> int:
        return len(self.items)


def item_points(item) -> int:
    """The points an item is worth: 1 for a number, 2 for an attack item (which output, which metrics)."""
    return 2 if isinstance(item, AttackItem) or getattr(item, "kind", None) == "attack" else 1


def score_text(ex_set, answers: dict) -> str:
    """The score line: points out of the set's points and exercises done out of the set's exercises (a set of
    6 with one attack item is worth 7 points, which "0 of 7" alone left unexplained). ``ex_set``: an
    :class:`ExerciseSet` or an :class:`ExercisePlan`."""
    got = sum(a["points"] for a in answers.values())
    n = ex_set.size
    return (f"Score: {got} of {ex_set.points} points · {len(answers)} of {n} exercise{'s' if n != 1 else ''} "
            "done")


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


def _attack_ids(seed: int, level: str) -> list[str]:
    ids = attack_preset_ids()
    random.Random(f"teach-attacks|{seed}|{level}").shuffle(ids)
    return ids


def attack_item(seed: int, level: str, k: int, index: int) -> AttackItem:
    """The ``k``-th "spot the attack" item of a set (at place ``index``): a function of (seed, level, k) only."""
    ids = _attack_ids(seed, level)
    return _attack_item(index, ids[k % len(ids)], random.Random(f"teach-attack|{seed}|{level}|{k}"))


def attack_items(seed: int, count: int, level: str = "") -> list[AttackItem]:
    return [attack_item(seed, level, k, k) for k in range(count)]


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
def lecture_of(metric: str | None = None, families: Sequence[str] | None = None,
               options: Mapping[str, Mapping[str, Any]] | None = None) -> tuple[tuple[str, ...], dict]:
    """The families a set asks about and the options of each (``metric``: a lesson value of a link, e.g.
    ``chrf++``; ``families``: names; neither: the default lecture). ValueError for a family without a lesson."""
    names, implied, bad = read_lecture(metric if families is None else ",".join(families))
    if bad:
        raise ValueError(f"metric must be one of: {', '.join(lesson_names())} (or a comma-separated list of them)")
    opts = {n: {**implied.get(n, {}), **dict((options or {}).get(n, {}))} for n in names}
    return names, opts


def _check(seed: int, level: str, n: int) -> None:
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    if not (isinstance(seed, int) and 0 <= seed <= MAX_SEED):
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED:,}")
    if not (isinstance(n, int) and 1 <= n <= MAX_SET):
        raise ValueError(f"the number of exercises must be 1–{MAX_SET}")


def set_plan(seed: int, level: str, n: int, names: Sequence[str], *, attacks: bool = True
             ) -> list[tuple[str | None, str]]:
    """(family, kind) of each of the ``n`` items (family None: a "spot the attack" item): every fourth item from
    the third on is an attack (with ``attacks``), the others cycle through the families' kinds in a seeded order
    (reshuffled per cycle). Item ``i``'s entry does not depend on ``n``."""
    kinds = [(f, k) for f in names for k in lesson_family(f).exercise_kinds]
    plan: list[tuple[str | None, str]] = []
    j = 0
    for i in range(n):
        if attacks and i % ATTACK_EVERY == ATTACK_AT:
            plan.append((None, "attack"))
            continue
        cycle, pos = divmod(j, len(kinds))
        order = list(kinds)
        random.Random(f"teach-kinds|{seed}|{level}|{','.join(names)}|{cycle}").shuffle(order)
        plan.append(order[pos])
        j += 1
    return plan


def item_title(entry: tuple[str | None, str]) -> str:
    family, kind = entry
    return ATTACK_TITLE if family is None else lesson_family(family).kind_titles[kind]


def make_item(seed: int, level: str, index: int, plan: Sequence[tuple[str | None, str]],
              options: Mapping[str, Mapping[str, Any]]):
    """Item ``index`` of a set with this ``plan``, drawn from its own seeded generator (so the other items need not
    be made: the page makes the one shown)."""
    family, kind = plan[index]
    if family is None:
        k = sum(1 for f, _ in plan[:index] if f is None)
        return attack_item(seed, level, k, index)
    rng = random.Random(f"teach-item|{seed}|{level}|{index}|{family}|{kind}")
    return lesson_family(family).exercise(index, kind, level, rng, options.get(family, {}))


@dataclass(frozen=True)
class PlanEntry:
    """What item ``index`` of a set is, before it is made: its family (None: a "spot the attack" item) and kind."""

    index: int
    family: str | None
    kind: str

    @property
    def title(self) -> str:
        return item_title((self.family, self.kind))


@dataclass(frozen=True)
class ExercisePlan:
    """A set as the page shows it: every item's title and points known at once, an item made only when it is
    shown (:meth:`item`: the answer box of the item on screen does not wait for the others)."""

    seed: int
    level: str
    names: tuple[str, ...]
    options: tuple              # ((family, ((option, value), …)), …): hashable
    entries: tuple[PlanEntry, ...]

    @property
    def size(self) -> int:
        return len(self.entries)

    @property
    def points(self) -> int:
        return sum(item_points(e) for e in self.entries)

    def item(self, i: int):
        return _made_item(self.seed, self.level, i, tuple((e.family, e.kind) for e in self.entries[:i + 1]),
                          self.options)


@lru_cache(maxsize=256)
def _made_item(seed: int, level: str, i: int, plan: tuple, options: tuple):
    return make_item(seed, level, i, plan, {k: dict(v) for k, v in options})


def exercise_plan(seed: int, level: str = "easy", n: int = 6, *, families: Sequence[str] | None = None,
                  options: Mapping[str, Mapping[str, Any]] | None = None, metric: str | None = None,
                  attacks: bool = True) -> ExercisePlan:
    """The plan of the set :func:`generate_set` makes with the same arguments (same items, made on demand)."""
    names, opts = lecture_of(metric, families, options)
    _check(seed, level, n)
    plan = set_plan(seed, level, n, names, attacks=attacks)
    frozen = tuple((k, tuple(sorted(v.items()))) for k, v in opts.items())
    return ExercisePlan(seed, level, names, frozen, tuple(PlanEntry(i, f, k) for i, (f, k) in enumerate(plan)))


def generate_set(seed: int, level: str = "easy", n: int = 6, *, attacks: bool = True, metric: str | None = None,
                 families: Sequence[str] | None = None,
                 options: Mapping[str, Mapping[str, Any]] | None = None) -> ExerciseSet:
    """``n`` items (1..MAX_SET) for ``seed`` (0..MAX_SEED) and ``level``: the kinds of the lecture's families in a
    seeded order and — with ``attacks`` — one "spot the attack" item per 4 items (:func:`set_plan`). ``metric``: a
    link's lesson value ("bleu-rouge", "chrf", "chrf++", "bleu,ter" …) or ``families`` (names), with
    ``options`` per family; neither: BLEU and ROUGE."""
    names, opts = lecture_of(metric, families, options)
    _check(seed, level, n)
    plan = set_plan(seed, level, n, names, attacks=attacks)
    return ExerciseSet(seed, level, [make_item(seed, level, i, plan, opts) for i in range(n)])
