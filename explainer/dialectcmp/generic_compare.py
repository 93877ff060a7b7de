"""The side by side of a family without its own comparison (TER; any family registered later), from its registries
alone: a row per dialect and per notable option combination the dialect declares (``comparison_rows``), each
row's numbers from ``fam.scores`` (one segment) or ``fam.corpus`` (a corpus), and the difference of two rows named
by option ("normalized: off (A), on (B)") or by implementation.

A row's numbers are what ``python -m explainer <family>`` prints with the row's ``argv``.
"""
from __future__ import annotations

import math
from typing import Sequence

from explainer.dialectcmp.configs import Config
from explainer.dialectcmp.divergence import Divergence
from explainer.dialectcmp.limits import segment_scores
from explainer.dialectcmp.rows import Row
from explainer.options import format_value

__all__ = ["row_configs", "compare", "compare_corpus", "divergence", "GENERIC_STEPS"]

#: the steps a generic comparison names: another implementation, another option, or none (the same numbers)
GENERIC_STEPS = ("implementation", "options")


def row_configs(fam, texts: Sequence[str]) -> list[Config]:
    """Each dialect's ``comparison_rows`` for these texts, the most standard implementation first (``rank``)."""
    classes = sorted((fam.dialects.dialect_class(n) for n in fam.dialect_names()), key=lambda c: c.rank)
    return [Config.make(fam.name, cls.name, r["options"], id=r["id"], label=r["label"], note=r["note"])
            for cls in classes for r in cls.comparison_rows(list(texts))]


def _row(fam, config: Config, scores: dict, signature: str, level: str) -> Row:
    d = config.bound()
    measures = fam.measures(d)
    main = measures[0]
    data = {"id": config.id, "label": config.label, "dialect": config.dialect, "given": config.opts,
            "options": dict(d.options), "scores": scores, "score": scores.get(main.key),
            "measure": main.key, "measures": {m.key: m.label for m in measures}, "scale": main.scale,
            "higher_is_better": main.higher_is_better, "signature": signature,
            "argv": config.argv() + (["--corpus"] if level == "corpus" and config.argv() else [])}
    return Row(config, None, data)


def compare(fam, candidate: str, references: Sequence[str], *, configs=None, pairs=None):
    """One segment: each row's scores (``fam.scores``) and the difference of each pair."""
    from explainer.dialectcmp.side_by_side import build

    refs = list(references)
    configs = configs if configs is not None else row_configs(fam, [candidate] + refs)

    def make(c: Config) -> Row:
        d = c.bound()
        return _row(fam, c, dict(segment_scores(fam, d, candidate, refs)), fam.signature(d, len(refs)), "segment")

    return build("segment", fam.name, candidate, refs, configs, make, pairs, differ=divergence)


def compare_corpus(fam, candidates, references, *, configs=None, pairs=None, progress=None):
    """A corpus: each row's corpus scores (``fam.corpus``) and the difference of each pair."""
    from explainer.dialectcmp.side_by_side import build

    texts = list(candidates) + [r for rs in references for r in rs]
    configs = configs if configs is not None else row_configs(fam, texts)

    def make(c: Config) -> Row:
        cs = fam.corpus(c.bound(), candidates, references)
        return _row(fam, c, {k: float(m.score) for k, m in cs.measures.items()}, cs.signature, "corpus")

    return build("corpus", fam.name, list(candidates), [list(r) for r in references], configs, make, pairs, progress,
                 differ=divergence)


def _same(x, y) -> bool:
    if x is None or y is None:
        return x is y
    return math.isclose(float(x), float(y), rel_tol=1e-9, abs_tol=1e-12)


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return format_value(v) if not isinstance(v, str) else v


def _scores_words(a: Row, b: Row) -> str:
    labels = a.data["measures"]
    return "; ".join(f"{labels.get(k, k)} {_fmt(a.data['scores'].get(k))} vs {_fmt(b.data['scores'].get(k))}"
                     for k in labels)


def divergence(cmp, a: str, b: str) -> Divergence:
    """The difference of two rows, by what sets them apart: another implementation, or the options that differ
    (each named with both values); none when every number is the same (the options that differ then change
    nothing on these texts, and the sentence says so)."""
    ra, rb = cmp.row(a), cmp.row(b)
    la, lb = ra.label, rb.label
    same = all(_same(ra.data["scores"].get(k), rb.data["scores"].get(k)) for k in ra.data["measures"])
    opts_a, opts_b = ra.data["options"], rb.data["options"]
    differ = [k for k in dict.fromkeys(list(opts_a) + list(opts_b)) if opts_a.get(k) != opts_b.get(k)]
    option_words = ", ".join(f"{k}: {_fmt(opts_a.get(k))} ({la}) vs {_fmt(opts_b.get(k))} ({lb})" for k in differ)
    if ra.config.dialect != rb.config.dialect:
        step, why = "implementation", f"{la} and {lb} are different implementations"
        if differ:
            why += f", with other options ({option_words})"
    elif differ:
        step, why = "options", f"the options differ: {option_words}"
    else:
        step, why = None, "the same implementation with the same options"
    cells = [{"kind": "option", "name": k, "a": opts_a.get(k), "b": opts_b.get(k)} for k in differ]
    if same:
        tail = "; every number is the same here" + (" (the difference changes nothing on these texts)" if step else "")
        return Divergence(a, b, None, why + tail + f" ({_scores_words(ra, rb)})", cells)
    cells += [{"kind": "score", "field": k} for k in ra.data["measures"]
              if not _same(ra.data["scores"].get(k), rb.data["scores"].get(k))]
    return Divergence(a, b, step or "options", f"{why}: {_scores_words(ra, rb)}", cells)
