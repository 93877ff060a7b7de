"""The same texts under another setting: the numbers the diagnosis compares with. Pure functions over traces.

Each reads the texts and options a trace records and asks the core's fast path (``score_bleu`` /
``score_rouge``) for the score with one setting changed; None / {} when it does not apply or the core refuses.
"""
from __future__ import annotations

from typing import Sequence

__all__ = ["bleu_other_entry_point", "bleu_with_tokenizers", "rouge_with_stemming", "SPACELESS_TOKENIZERS"]

#: tokenizers for text without spaces, in the order the diagnosis suggests them
SPACELESS_TOKENIZERS = ("zh", "ja-mecab", "ko-mecab", "char")


def _texts(trace) -> tuple[str, list[str]]:
    return trace.candidate.text, [r.text for r in trace.references]


def bleu_other_entry_point(trace) -> dict[str, float]:
    """sacreBLEU's sentence vs corpus semantics: when an order has no match, the score of its other entry point
    ({description in the page's words: score}); {} for other dialects or when every order matches."""
    if not any(o.matches == 0 for o in trace.combination.orders):
        return {}
    from explainer.bleu import get_dialect, score_bleu

    cand, refs = _texts(trace)
    try:
        other = get_dialect(trace.dialect, **(trace.options or {})).other_entry_point()
        if other is None:
            return {}
        label, dialect = other
        s = score_bleu(cand, refs, dialect=dialect)
    except ValueError:
        return {}
    return {label: s.score}


def bleu_with_tokenizers(trace, tokenizers: Sequence[str] = SPACELESS_TOKENIZERS) -> dict[str, float]:
    """BLEU with each of ``tokenizers`` the dialect offers instead of its current one ({tokenizer: score})."""
    from explainer.bleu import dialect_options, score_bleu

    opts = trace.options or {}
    if "tokenize" not in opts:
        return {}
    spec = next((d for d in dialect_options(trace.dialect) if d.get("name") == "tokenize"), None)
    offered = set((spec or {}).get("choices") or ())
    cand, refs = _texts(trace)
    out = {}
    for tok in tokenizers:
        if tok not in offered or tok == opts.get("tokenize"):
            continue
        try:
            out[tok] = score_bleu(cand, refs, dialect=trace.dialect, **{**opts, "tokenize": tok}).score
        except (ValueError, ImportError, RuntimeError):  # e.g. a MeCab tokenizer whose package is not installed
            continue
    return out


def rouge_with_stemming(trace, types: Sequence[str] | None = None) -> dict | None:
    """With stemming off (in a dialect that has the option): the scores with it on ({type: Score}), so the
    diagnosis mentions stemming only when it would change a number. None when it does not apply. ``types``: only
    these of the trace's types (a page's work budget); default: all."""
    opts = trace.options or {}
    types = tuple(t for t in trace.scores if types is None or t in types)
    if opts.get("use_stemmer") is not False or not types:
        return None
    from explainer.rouge import score_rouge

    cand = trace.candidate.tokenized.text
    refs = [r.tokenized.text for r in trace.references]
    try:
        return score_rouge(cand, refs, dialect=trace.dialect, types=types,
                           **{**opts, "use_stemmer": True})
    except ValueError:
        return None
