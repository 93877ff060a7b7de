"""The ready-made lecture demo: three steps a lecturer runs from one click, each with its one-line lesson.

1. Repetition fools plain precision: "the" seven times has unigram precision 7/7; BLEU's clipping stops it.
2. Word salad keeps ROUGE-1: the reference's words in reverse order get ROUGE-1 F = 1; ROUGE-2, ROUGE-L and
   BLEU expose it.
3. The optimizer climbs into word salad: maximising ROUGE-1 F from the optimizer's default start
   (:data:`explainer.attacks.optimizer.DEFAULT_START`) ends on a text with every reference word and few of its
   word pairs.

Plain data: every number comes from the gaming lab's scoring (:func:`explainer.attacks.presets.evaluate`, the
optimizer's re-scored trajectory), formatted as the lab formats it. The page renders a step as the lesson of its
candidate and references with the lesson line on top, and links to the lab view that shows it live.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

__all__ = ["DemoStep", "demo_sequence", "DEMO_IDS"]

DEMO_IDS = ("repetition", "word-salad", "optimizer")


@dataclass(frozen=True)
class DemoStep:
    id: str
    title: str
    lesson: str                              # the one-line lesson, with this step's numbers
    candidate: str                           # the gamed text
    references: tuple[str, ...]
    honest: str                              # the honest text it is compared with
    numbers: tuple[tuple[str, str, str], ...]   # (metric label, honest, gamed) as the lab shows them
    lab_query: dict                          # the gaming lab's link that shows this step live


def _preset_step(pid: str, title: str, metrics: tuple[str, ...], line) -> DemoStep:
    from explainer.attacks.presets import evaluate
    from explainer.attacks.scoring import format_metric, metric_label

    res = evaluate(pid)
    j = res.judged[0]
    honest, gamed = res.preset.variants[0], res.preset.variants[j]
    h, g = res.scores[0].values, res.scores[j].values
    nums = tuple((metric_label(m), format_metric(m, h[m]), format_metric(m, g[m])) for m in metrics)
    return DemoStep(pid, title, line(h, g, format_metric), gamed.candidate, tuple(gamed.references),
                    honest.candidate, nums, {"lab": "presets", "preset": pid})


def _optimizer_step(budget_seconds: float) -> DemoStep:
    from explainer.attacks import optimizer as opt
    from explainer.attacks.scoring import format_metric, metric_label

    res = opt.default_run(budget_seconds=budget_seconds)
    first, last = res.trajectory[0], res.trajectory[-1]
    metrics = ("rouge1_f", "rouge2_f", "rougeL_f", "bleu")
    nums = tuple((metric_label(m), format_metric(m, first[m]), format_metric(m, last[m])) for m in metrics)
    t = opt.TARGETS[res.target]
    a, b = format_metric(res.target, first[res.target]), format_metric(res.target, last[res.target])
    line = (f"Maximising {t} from a list of keywords, the optimizer climbs from {a} to {b} in {res.steps} "
            f"steps — into word salad: ROUGE-2 F "
            f"{format_metric('rouge2_f', last['rouge2_f'])}, BLEU {format_metric('bleu', last['bleu'])}. A metric "
            "you optimise stops measuring quality.")
    return DemoStep("optimizer", "The optimizer climbs into word salad", line, res.final, tuple(res.references),
                    res.start, nums, {"lab": "optimizer", "target": res.target, "seed": str(res.seed),
                                      "budget": f"{budget_seconds:g}", "candidate": res.start,
                                      "ref": list(res.references)})


def _repetition_line(h: dict, g: dict, f) -> str:
    return (f"'the' seven times has plain unigram precision {f('unclipped_p1', g['unclipped_p1'])}; BLEU clips "
            f"each word at its count in a reference (ROUGE-1 P {f('rouge1_p', g['rouge1_p'])}, BLEU "
            f"{f('bleu', g['bleu'])}): without clipping, repetition would win.")


def _salad_line(h: dict, g: dict, f) -> str:
    return (f"The reference's words in reverse order keep ROUGE-1 F = {f('rouge1_f', g['rouge1_f'])} (the honest "
            f"summary: {f('rouge1_f', h['rouge1_f'])}); ROUGE-2 F {f('rouge2_f', g['rouge2_f'])}, ROUGE-L F "
            f"{f('rougeL_f', g['rougeL_f'])} and BLEU {f('bleu', g['bleu'])} expose it — never report ROUGE-1 "
            "alone.")


@lru_cache(maxsize=4)
def demo_sequence(budget_seconds: float = 3.0) -> tuple[DemoStep, ...]:
    """The three demo steps, in the lecture's order (the optimizer's run is deterministic for its seed: it
    ends at a local optimum well within the budget)."""
    return (
        _preset_step("repetition", "Repetition fools plain precision", ("unclipped_p1", "rouge1_p", "bleu"),
                     _repetition_line),
        _preset_step("word-salad", "Word salad keeps ROUGE-1", ("rouge1_f", "rouge2_f", "rougeL_f", "bleu"),
                     _salad_line),
        _optimizer_step(budget_seconds),
    )
