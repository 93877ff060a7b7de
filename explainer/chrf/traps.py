"""chrF's traps (``explainer.trapchecks``): chrF needs no tokenizer (no CJK or detokenization trap); β weighs recall,
so swapped files change the score too; and settings other than sacreBLEU's ``CHRF()`` are named with the score they
give beside chrF2's."""
from __future__ import annotations

from typing import Any, Sequence

from explainer.trapchecks import SAMPLE, Trap, layout_traps

__all__ = ["chrf_traps", "chrf_variant"]


def _chrf_differences(d: Any, default: Any) -> list[str]:
    """How the bound chrF dialect ``d`` differs from sacreBLEU's ``CHRF()`` (``default``): its options that are not
    the library defaults, or another implementation's description."""
    if type(d) is not type(default):
        return [d.description.rstrip(".")]
    return [f"{o.name} = {d.options[o.name]!r} where CHRF() has {o.default!r}" for o in d.OPTIONS
            if d.options.get(o.name, o.default) != o.default]


def _chrf_value(score: float, scale: float) -> str:
    return f"{score:.2f}" if scale >= 100 else f"{score:.4f} (on 0–1)"


def chrf_variant(candidates: Sequence[str], references: Sequence[Sequence[str]], dialect: Any) -> list[Trap]:
    """Settings other than sacreBLEU's ``CHRF()``: the score they give these texts (the first ``SAMPLE`` segments)
    next to chrF2's, so that neither is reported or compared as the other."""
    from explainer.chrf import DEFAULT_DIALECT, get_dialect
    from explainer.chrf.algorithm import score_corpus

    default = get_dialect(DEFAULT_DIALECT)
    diffs = _chrf_differences(dialect, default)
    if not diffs or not candidates:
        return []
    cands, refs = list(candidates)[:SAMPLE], [list(r) for r in list(references)[:SAMPLE]]
    ours, base = score_corpus(dialect, cands, refs), score_corpus(default, cands, refs)
    if ours.library_error is not None or base.library_error is not None:
        return []
    where = ("these texts" if len(cands) == 1 else f"these {len(cands):,} segments" if len(cands) == len(candidates)
             else f"the first {len(cands):,} segments")
    msg = (f"these chrF settings are {dialect.metric_name} of {dialect.label}, not the chrF2 of sacreBLEU's CHRF() "
           f"that results tables print as “chrF” ({'; '.join(diffs)}): on {where} they give "
           f"{_chrf_value(ours.score, dialect.scale)} where chrF2 gives {_chrf_value(base.score, default.scale)}. "
           f"Report the name and the signature ({dialect.metric_name}: {ours.signature}); compare only scores of the "
           "same settings")
    return [Trap("chrf-variant", msg, {"metric": dialect.metric_name, "score": ours.score, "scale": dialect.scale,
                                       "chrf2": base.score, "differences": diffs, "segments": len(cands),
                                       "signature": ours.signature})]


def chrf_traps(candidates: Sequence[str], references: Sequence[Sequence[str]], dialect: Any, *,
               corpus: bool = True) -> list[Trap]:
    """Every trap for chrF over a bound dialect (``explainer.chrf.get_dialect``)."""
    out = layout_traps(candidates, references, corpus=corpus)
    if any(t.code == "references-transposed" for t in out):
        return out
    return out + chrf_variant(candidates, references, dialect)
