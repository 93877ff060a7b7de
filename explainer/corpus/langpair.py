"""sacreBLEU's language-pair setting (``-l en-zh``) and a warning for CJK text scored without a CJK tokenizer.

``sacrebleu -l SRC-TRG`` gives ``BLEU(trg_lang=TRG)``: with no ``--tokenize`` the tokenizer is
``BLEU._TOKENIZER_MAP[TRG]`` (sacreBLEU's own table: zh -> zh, ja -> ja-mecab, ko -> ko-mecab), else 13a; an
explicit tokenizer wins, and sacreBLEU warns when it is not the one for a zh / ja / ko target. The table is read
from sacreBLEU itself, not copied.

``cjk_warning``: when a test set's references are mostly Chinese, Japanese or Korean characters and the
tokenizer does not split them (13a, intl, none), a whole run of characters is one "word" and BLEU measures
almost nothing; nothing in the score says so, this does.
"""
from __future__ import annotations

import re
from typing import Iterable, NamedTuple

from explainer.errors import ExplainerInputError

__all__ = ["LanguagePair", "parse_language_pair", "tokenizer_for", "cjk_share", "cjk_warning",
           "pair_mismatch_warning", "SPLITS_CJK", "CJK_SHARE"]

#: tokenizers that split CJK text into characters or words (the others keep a run of characters whole)
SPLITS_CJK = frozenset({"zh", "char", "ja-mecab", "ko-mecab", "spm", "flores101", "flores200"})
#: share of the non-space characters that makes a text "CJK" for the warning
CJK_SHARE = 0.3
_CJK = re.compile("[\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
                  "\U00020000-\U0002fa1f]")
_PAIR = re.compile(r"^\s*([A-Za-z]{2,3}(?:[_][A-Za-z0-9]+)?)-([A-Za-z]{2,3}(?:[_][A-Za-z0-9]+)?)\s*$")


class LanguagePair(NamedTuple):
    source: str
    target: str
    tokenizer: str      # what sacreBLEU picks for the target when no tokenizer is given


def _tokenizer_map() -> dict:
    from sacrebleu.metrics.bleu import BLEU

    return dict(BLEU._TOKENIZER_MAP)


def tokenizer_for(target: str) -> str:
    """sacreBLEU's default tokenizer for a target language (``BLEU(trg_lang=target)``)."""
    return _tokenizer_map().get(target, "13a")


def parse_language_pair(text: str) -> LanguagePair:
    """``"en-zh"`` -> LanguagePair("en", "zh", "zh"); a clear message for anything else."""
    m = _PAIR.match(text or "")
    if not m:
        raise ExplainerInputError(f"language pair {text!r}: write it as sacreBLEU's -l does, source-target with "
                                  "language codes, e.g. en-de or en-zh")
    src, trg = m.group(1).lower(), m.group(2).lower()
    return LanguagePair(src, trg, tokenizer_for(trg))


def cjk_share(texts: Iterable[str], limit: int = 200_000) -> float:
    """The share of Chinese / Japanese / Korean characters among the non-space characters of ``texts`` (the
    first ``limit`` characters are enough to tell)."""
    seen = cjk = 0
    for t in texts:
        s = "".join(t.split())
        seen += len(s)
        cjk += len(_CJK.findall(s))
        if seen >= limit:
            break
    return cjk / seen if seen else 0.0


def cjk_warning(texts: Iterable[str], tokenizer: str | None, *, target: str | None = None) -> str | None:
    """A warning when CJK text is scored with a tokenizer that does not split it (None otherwise)."""
    tok = tokenizer or "13a"
    if tok in SPLITS_CJK:
        return None
    share = cjk_share(texts)
    if share < CJK_SHARE:
        return None
    best = tokenizer_for(target) if target else "zh"
    if best == "13a":
        best = "zh"
    return (f"{100 * share:.0f} % of the reference characters are Chinese, Japanese or Korean, and the {tok} "
            "tokenizer does not split them: a whole run of characters counts as one word, so BLEU measures almost "
            f"nothing. Set the language pair (sacreBLEU's -l, e.g. en-zh) or the tokenizer ({best} or char).")


def pair_mismatch_warning(pair: LanguagePair, tokenizer: str | None) -> str | None:
    """sacreBLEU's own warning when an explicit tokenizer is not the one for a zh / ja / ko target."""
    if tokenizer is None or pair.tokenizer == "13a" or tokenizer == pair.tokenizer:
        return None
    return (f"the target language is {pair.target} but the tokenizer is {tokenizer}; sacreBLEU would use "
            f"{pair.tokenizer} for -l {pair.source}-{pair.target}")
