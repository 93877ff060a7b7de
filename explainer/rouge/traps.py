"""ROUGE's traps (``explainer.trapchecks``): besides the references' layout and swapped files, words the dialect's
tokenizer drops, ROUGE-Lsum on texts without newlines, and CJK text left unsplit."""
from __future__ import annotations

from typing import Any, Sequence

from explainer.trapchecks import Trap, cjk_unsplit, dropped_words, layout_traps, lsum_without_newlines

__all__ = ["rouge_traps"]


def rouge_traps(candidates: Sequence[str], references: Sequence[Sequence[str]], dialect: Any, *,
                corpus: bool = True) -> list[Trap]:
    """Every trap for ROUGE over a bound dialect (``explainer.rouge.engine.bind_dialect``); ``corpus=False``: the
    segments are scored one by one."""
    out = layout_traps(candidates, references, corpus=corpus)
    if any(t.code == "references-transposed" for t in out):
        return out
    out += dropped_words(candidates, references, dialect)
    out += lsum_without_newlines(candidates, references, dialect.type_names, dialect.splitter)

    def surface(text: str) -> list[str]:
        return dialect.prepare(text, need_sents=False, full=False).tokens

    out += cjk_unsplit(candidates, references, surface)
    return out
