"""jieba 0.42.1's segmentation (``jieba.cut(text)``: accurate mode, HMM on), loading its 350,000-word dictionary only
for a text that can reach it.

``jieba.cut`` looks words up only inside blocks of ``re_han_default`` (Han characters U+4E00..U+9FD5 and
``a-zA-Z0-9+#&._%-``); everything else is split at whitespace and passed through. So in a text without a Han
character every dictionary look-up (``get_DAG``, ``calc``, ``FREQ.get(buf)``) is of a key made of those ASCII
characters, and the 55 such keys of the prefix dictionary (``ASCII_FREQ``) with its ``total`` are all that jieba
reads: the real ``jieba.Tokenizer`` runs on them, and cuts exactly as it does with the whole dictionary, without
the ~1 s and ~100 MB of loading it (``tests/test_dialects_new_parity.py`` checks the keys against the loaded
dictionary and the cuts against ``jieba.cut``).
"""
from __future__ import annotations

import re

__all__ = ["jieba_cut", "ASCII_FREQ", "ASCII_TOTAL", "ascii_entries", "needs_dictionary"]

#: the keys of jieba 0.42.1's prefix dictionary made only of the ASCII characters of ``re_han_default`` (a word's
#: count, 0 for a prefix of a longer word)
ASCII_FREQ = {
    "1": 0, "4": 0, "4S": 0, "4s": 0, "A": 0, "AA": 0, "AB": 0, "AT": 0, "AT&": 0, "AT&T": 3, "B": 0, "BB": 0,
    "BP": 0, "C": 0, "C#": 3, "C+": 0, "C++": 3, "CA": 0, "CAL": 0, "CALL": 0, "CD": 0, "D": 0, "E": 0, "F": 0,
    "G": 0, "H": 0, "I": 0, "IC": 0, "IP": 0, "K": 0, "N": 0, "O": 0, "P": 0, "PC": 0, "PH": 0, "Q": 0, "R": 0,
    "RS": 0, "RSS": 0, "S": 0, "SI": 0, "SIM": 0, "T": 0, "U": 0, "V": 0, "VI": 0, "VIS": 0, "VISA": 0, "X": 0,
    "Z": 0, "QQ": 0, "c": 0, "c#": 3, "c+": 0, "c++": 3,
}
#: the dictionary's total count (``Tokenizer.total``: every word probability is divided by it)
ASCII_TOTAL = 60_101_967

_HAN = re.compile("[\u4E00-\u9FD5]")
_ASCII_KEY = re.compile(r"[a-zA-Z0-9+#&._%\-]+\Z")
_FULL = None
_ASCII = None


def ascii_entries(freq: dict) -> dict:
    """The keys of a jieba prefix dictionary that a text without Han characters can look up."""
    return {k: v for k, v in freq.items() if _ASCII_KEY.match(k)}


def needs_dictionary(text: str) -> bool:
    """Whether jieba can look up a key outside ``ASCII_FREQ`` in this text (it has a Han character)."""
    return _HAN.search(text) is not None


def _tokenizer(full: bool):
    global _FULL, _ASCII
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)      # jieba logs a line when it loads its dictionary
    if full:
        if _FULL is None:
            _FULL = jieba.dt
        return _FULL
    if _ASCII is None:
        t = jieba.Tokenizer()
        t.FREQ, t.total, t.initialized = dict(ASCII_FREQ), ASCII_TOTAL, True
        _ASCII = t
    return _ASCII


def jieba_cut(text: str) -> list[str]:
    """``list(jieba.cut(text))`` (jieba 0.42.1, default mode: accurate, HMM on)."""
    return list(_tokenizer(needs_dictionary(text)).cut(text))
