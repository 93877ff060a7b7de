"""BLEU's traps (``explainer.trapchecks``): besides the references' layout and swapped files, candidates that look
tokenized (sacreBLEU's "forgot to detokenize" heuristic) and CJK text the dialect's tokenizer leaves unsplit."""
from __future__ import annotations

from typing import Any, Sequence

from explainer.trapchecks import Trap, cjk_unsplit, layout_traps, pretokenized

__all__ = ["bleu_traps"]


def bleu_traps(candidates: Sequence[str], references: Sequence[Sequence[str]], dialect: Any, *,
               corpus: bool = True) -> list[Trap]:
    """Every trap for BLEU over a bound dialect (``explainer.bleu.get_dialect``); ``corpus=False``: the segments are
    scored one by one."""
    out = layout_traps(candidates, references, corpus=corpus)
    if any(t.code == "references-transposed" for t in out):
        return out
    out += pretokenized(candidates)
    out += cjk_unsplit(candidates, references, dialect.tokenize)
    return out
