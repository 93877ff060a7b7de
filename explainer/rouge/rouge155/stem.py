"""ROUGE-1.5.5's ``-m`` stemming: the WordNet-2.0 exception list first, then ROUGE's own Porter variant.

Why not NLTK: ROUGE-1.5.5 ships Martin Porter's reference *Perl* stemmer with two step-2 additions
(``bli -> ble``, ``logi -> log``) and a step 4 that Chin-Yew Lin changed in 2004: the general suffix rule,
then ``-ment``, then ``-ent`` / ``-(s|t)ion`` are tried *one after the other*, so several suffixes can go
(``agreement -> agreem``, ``professional -> profess``). No mode of NLTK's ``PorterStemmer`` does that
(``ORIGINAL_ALGORITHM`` gives ``agreement``/``profession``; ``NLTK_EXTENSIONS`` also keeps ``they``/``news``);
``tests/test_rouge155_text.py`` shows words where each NLTK mode differs. So the variant is implemented
here, with the very regular expressions of the Perl (Python's ``re`` has the same leftmost-match,
ordered-alternation semantics for them), and checked against ROUGE-1.5.5's own ``-m`` outputs in the
golden files. See docs/dialects-rouge155.md.

``morph_stem`` is the script's ``MorphStem``: exception DB lookup, else ``stem``. The script only calls it
for tokens longer than 3 characters (``stem_token`` applies that rule).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

__all__ = ["porter_stem", "morph_stem", "stem_token", "exceptions", "stopwords", "DATA_DIR"]

DATA_DIR = Path(__file__).resolve().parent / "data"
EXCEPTIONS_FILE = DATA_DIR / "rouge155-wordnet-exceptions.tsv"
STOPWORDS_FILE = DATA_DIR / "rouge155-smart-common-words.txt"


@lru_cache(maxsize=1)
def exceptions() -> dict[str, str]:
    """The 5,930 keys of ROUGE-1.5.5's ``WordNet-2.0.exc.db`` (exception -> lemma)."""
    out: dict[str, str] = {}
    with EXCEPTIONS_FILE.open(encoding="ascii") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            key, lemma = line.split("\t")
            out[key] = lemma
    return out


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    """The 598 words of ``smart_common_words.txt`` (Perl: ``chomp`` each line into a hash key)."""
    with STOPWORDS_FILE.open(encoding="ascii") as f:
        return frozenset(line.rstrip("\n") for line in f)


# --- ROUGE-1.5.5.pl's Porter stemmer (sub stem / sub initialise) ---------------------------------------
_c = "[^aeiou]"  # consonant (note: 'y' and the upper-case 'Y' of an initial y count as consonants here)
_v = "[aeiouy]"  # vowel
_C = _c + "[^aeiouy]*"  # consonant sequence
_V = _v + "[aeiou]*"  # vowel sequence
_MGR0 = re.compile("^(" + _C + ")?" + _V + _C)  # [C]VC...      m > 0
_MEQ1 = re.compile("^(" + _C + ")?" + _V + _C + "(" + _V + ")?$")  # [C]VC[V]  m = 1
_MGR1 = re.compile("^(" + _C + ")?" + _V + _C + _V + _C)  # [C]VCVC...  m > 1
_VOWEL_IN_STEM = re.compile("^(" + _C + ")?" + _v)
_CVC = re.compile("^" + _C + _v + "[^aeiouwxy]$")

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble",
    "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate",
    "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al",
    "iviti": "ive", "biliti": "ble", "logi": "log",
}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
# Alternation order exactly as in the Perl source (it matters only for equal start positions).
_STEP2_RE = re.compile(
    "(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness"
    "|ousness|aliti|iviti|biliti|logi)$"
)
_STEP3_RE = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")
_1A_SSES_IES = re.compile("(ss|i)es$")
_1A_S = re.compile("([^s])s$")
_1B_EED = re.compile("eed$")
_1B_ED_ING = re.compile("(ed|ing)$")
_1B_AT_BL_IZ = re.compile("(at|bl|iz)$")
_1B_DOUBLE = re.compile(r"([^aeiouylsz])\1$")
_Y_END = re.compile("y$")
_MENT = re.compile("ment$")
_ENT = re.compile("ent$")
_SION_TION = re.compile("(s|t)(ion)$")
_E_END = re.compile("e$")
_LL_END = re.compile("ll$")


def porter_stem(w: str) -> str:
    """ROUGE-1.5.5.pl ``sub stem``, statement by statement. ``$``` (the pre-match) is ``w[:m.start()]``."""
    if len(w) < 3:
        return w
    firstch = w[0]
    if firstch == "y":  # map initial y to Y so the patterns never treat it as a vowel
        w = "Y" + w[1:]
    for step in (_step1a, _step1b, _step1c, _step2, _step3, _step4, _step5):
        w = step(w)
    if firstch == "y":  # turn initial Y back to y (Perl lcfirst)
        w = w[:1].lower() + w[1:]
    return w


def _step1a(w: str) -> str:
    """sses -> ss, ies -> i, s -> (dropped after a non-s)."""
    m = _1A_SSES_IES.search(w) or _1A_S.search(w)
    return w[: m.start()] + m.group(1) if m else w


def _step1b(w: str) -> str:
    """eed -> ee (m > 0); ed / ing dropped after a vowel, then at/bl/iz + e, undouble, or CVC + e."""
    m = _1B_EED.search(w)
    if m:
        return w[:-1] if _MGR0.search(w[: m.start()]) else w
    m = _1B_ED_ING.search(w)
    if not m or not _VOWEL_IN_STEM.search(w[: m.start()]):
        return w
    w = w[: m.start()]
    if _1B_AT_BL_IZ.search(w):
        return w + "e"
    if _1B_DOUBLE.search(w):
        return w[:-1]
    if _CVC.search(w):
        return w + "e"
    return w


def _step1c(w: str) -> str:
    """y -> i after a vowel."""
    m = _Y_END.search(w)
    if m and _VOWEL_IN_STEM.search(w[: m.start()]):
        return w[: m.start()] + "i"
    return w


def _step2(w: str) -> str:
    m = _STEP2_RE.search(w)
    if m and _MGR0.search(w[: m.start()]):
        return w[: m.start()] + _STEP2[m.group(1)]
    return w


def _step3(w: str) -> str:
    m = _STEP3_RE.search(w)
    if m and _MGR0.search(w[: m.start()]):
        return w[: m.start()] + _STEP3[m.group(1)]
    return w


def _step4(w: str) -> str:
    """As modified by CYL on 2004-02-14: three rules tried in sequence, each on the result of the last."""
    m = _STEP4_RE.search(w)
    if m and _MGR1.search(w[: m.start()]):
        w = w[: m.start()]
    m = _MENT.search(w)
    if m and _MGR1.search(w[: m.start()]):
        w = w[: m.start()]
    m = _ENT.search(w)
    if m:
        if _MGR1.search(w[: m.start()]):
            w = w[: m.start()]
        return w
    m = _SION_TION.search(w)
    if m:
        stem = w[: m.start()] + m.group(1)
        if _MGR1.search(stem):
            w = stem
    return w


def _step5(w: str) -> str:
    """e dropped (m > 1, or m = 1 and not CVC); ll -> l (m > 1)."""
    m = _E_END.search(w)
    if m:
        stem = w[: m.start()]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if _LL_END.search(w) and _MGR1.search(w):
        w = w[:-1]
    return w


def morph_stem(token: str) -> str:
    """``sub MorphStem``: the exception DB (keyed on the ASCII-lowercased token) first, else Porter."""
    low = token.translate(_ASCII_LOWER)
    exc = exceptions().get(low)
    if exc is not None:
        return exc
    return porter_stem(low)


def stem_token(token: str) -> str:
    """What ``-m`` does to one token: tokens of length > 3 go through ``MorphStem``, others stay."""
    return _stem_cached(token) if len(token) > 3 else token


@lru_cache(maxsize=65536)
def _stem_cached(token: str) -> str:
    return morph_stem(token)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
