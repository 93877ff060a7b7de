"""Which gaming-lab attacks fool chrF and which do not: every preset of ``explainer.attacks.presets`` scored with
sacreBLEU's chrF2 and chrF2++ (and NLTK's chrF), with the lab's own verdict rule (``presets.verdict``): for an
attack, "fooled" when the gamed text scores higher than the honest one, "tie" when the same, "resisted" when lower;
for a configuration trap, "changed" / "unchanged". Plain data for the Gaming lab page; every number is the
explainer's chrF, which equals sacreBLEU's / NLTK's (tests/test_chrf_parity.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["CHRF_METRICS", "ChrfPresetResult", "evaluate_chrf", "evaluate_all", "verdict_table"]

#: metric key -> (label, dialect, options)
CHRF_METRICS: dict[str, tuple[str, str, dict]] = {
    "chrf": ("chrF2 (sacreBLEU)", "sacrebleu", {}),
    "chrfpp": ("chrF2++ (sacreBLEU)", "sacrebleu", {"word_order": 2}),
    "chrf_nltk": ("chrF (NLTK, β = 3)", "nltk", {}),
}


@dataclass
class ChrfPresetResult:
    preset_id: str
    title: str
    kind: str                                   # "attack" | "config"
    labels: list[str]                           # the variants
    scores: list[dict[str, float]]              # per variant: metric -> score on 0-100
    verdicts: list[dict[str, str]] = field(default_factory=list)   # per variant ({} for the baseline)

    def summary(self, metric: str) -> str:
        """The preset's verdict for one metric, as the lab summarises BLEU's (the first judged variant of an
        attack; "changed" if any variant of a configuration trap changes the number)."""
        judged = [i for i, v in enumerate(self.verdicts) if v]
        if not judged:
            return "n/a"
        if self.kind == "attack":
            return self.verdicts[judged[0]][metric]
        return "changed" if any(self.verdicts[i][metric] == "changed" for i in judged) else "unchanged"

    def to_dict(self) -> dict:
        return {"preset": self.preset_id, "title": self.title, "kind": self.kind, "labels": self.labels,
                "scores": self.scores, "verdicts": self.verdicts,
                "summary": {m: self.summary(m) for m in CHRF_METRICS}}


def _score(variant, dialect: str, opts: dict) -> float:
    from explainer.chrf import score_chrf, score_chrf_corpus

    if variant.is_corpus:
        refs = [list(r) for r in variant.references]
        if variant.aggregate == "sentence_mean":
            vals = [score_chrf(c, r, dialect=dialect, **opts).score100 for c, r in zip(variant.candidate, refs)]
            return sum(vals) / len(vals)
        return score_chrf_corpus(list(variant.candidate), refs, dialect=dialect, **opts).score100
    return score_chrf(variant.candidate, list(variant.references), dialect=dialect, **opts).score100


def evaluate_chrf(preset_id: str) -> ChrfPresetResult:
    """Every variant of one preset under every chrF metric, and the lab's verdicts."""
    from explainer.attacks.presets import get_preset, verdict

    p = get_preset(preset_id)
    scores = [{m: _score(v, d, o) for m, (_, d, o) in CHRF_METRICS.items()} for v in p.variants]
    verdicts = []
    for i, (v, s) in enumerate(zip(p.variants, scores)):
        judged = i > 0 and not v.compare_only
        verdicts.append({m: verdict(p.kind, scores[0][m], s[m]) for m in CHRF_METRICS} if judged else {})
    return ChrfPresetResult(p.id, p.title, p.kind, [v.label for v in p.variants], scores, verdicts)


def evaluate_all() -> list[ChrfPresetResult]:
    from explainer.attacks.presets import PRESETS

    return [evaluate_chrf(pid) for pid in PRESETS]


def verdict_table() -> list[dict]:
    """One row per preset: its id, title, kind and the chrF verdicts (for a table on the lab page)."""
    return [{"preset": r.preset_id, "title": r.title, "kind": r.kind,
             **{CHRF_METRICS[m][0]: r.summary(m) for m in CHRF_METRICS}} for r in evaluate_all()]
