"""How the Moses scripts read and tokenize text: Perl's lowercasing, whitespace and UTF-8 reading, around
sacreBLEU's tokenizer classes where the Perl is the same code (``Tokenizer13a`` is a port of mteval's
``tokenization``, ``TokenizerV14International`` of ``tokenization_international``).
"""
from __future__ import annotations

import re
import unicodedata
from typing import Callable

from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

__all__ = ["ascii_lower", "perl_lc", "PERL_UNI_WS", "multibleu_tokenize", "is_noncharacter", "strict_utf8_read",
           "detok_tokenize", "sgml_escape", "mteval_tokenize"]

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """``tr/[A-Z]/[a-z]/`` (mteval) and ``lc`` on undecoded bytes (multi-bleu -lc): only A-Z change."""
    return text.translate(_ASCII_LOWER)


def perl_lc(text: str) -> str:
    """Perl ``lc`` on a decoded string: full Unicode lowercase mapping, but no context rules.

    Python's ``str.lower`` applies the Final_Sigma rule (a word-final 'Σ' becomes 'ς'); Perl always gives
    'σ'. Lowercasing character by character gives Perl's result."""
    low = text.lower()
    if "Σ" in text:
        low = "".join(ch.lower() for ch in text)
    return low


# multi-bleu.perl never decodes its input, so Perl's ``split`` sees bytes and ``\s`` is ASCII whitespace
# only (UTF-8 multi-byte characters never contain these bytes, so splitting the decoded text is the same).
_PERL_BYTE_WS = re.compile(r"[ \t\n\r\f\v]+")
# On decoded strings Perl's \s is Unicode White_Space; Python's str.split also splits on \x1c-\x1f.
PERL_UNI_WS = re.compile("[\t\n\x0b\f\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")
_PY_ONLY_WS = "\x1c\x1d\x1e\x1f"


def _perl_split_bytes(text: str) -> list[str]:
    """Perl ``split`` / ``split(' ', $s)`` on a byte string: leading whitespace skipped, no empty fields."""
    return [t for t in _PERL_BYTE_WS.split(text) if t]


def _with_perl_whitespace(tokenizer: Callable[[str], str], text: str, *, unassigned: bool = False) -> str:
    """Run a sacreBLEU tokenizer whose last step is ``' '.join(line.split())`` as Perl would run the same
    rules ending in ``s/\\s+/ /g``: Python also splits on \\x1c-\\x1f, Perl does not. Those characters are
    swapped for unused private-use characters (which every rule treats alike: not digits, punctuation,
    symbols or whitespace) and swapped back.

    ``unassigned``: also swap the characters that Unicode 14 (perl 5.36's version, and Python 3.11's
    ``unicodedata``) leaves unassigned. The ``regex`` module behind sacreBLEU's intl tokenizer has newer
    tables in which some of them are punctuation or symbols (e.g. U+1FA77, Unicode 15); for perl 5.36 they
    are none of \\p{P}, \\p{S}, \\p{N}, \\p{Z}."""
    odd = [ch for ch in _PY_ONLY_WS if ch in text]
    if unassigned:
        odd += sorted({ch for ch in text if ord(ch) > 0x7F and unicodedata.category(ch) == "Cn"})
    if not odd:
        return tokenizer(text)
    stand_ins: list[str] = []
    cp = 0xF0000
    while len(stand_ins) < len(odd):
        ch = chr(cp)
        if ch not in text:
            stand_ins.append(ch)
        cp += 1
    there, back = str.maketrans("".join(odd), "".join(stand_ins)), str.maketrans("".join(stand_ins), "".join(odd))
    return tokenizer(text.translate(there)).translate(back)


_TOK13A = Tokenizer13a()
_TOKINTL = TokenizerV14International()


def multibleu_tokenize(text: str, *, lowercase: bool = False) -> list[str]:
    """multi-bleu.perl: ``$_ = lc if -lc`` on undecoded bytes (ASCII only), then Perl ``split``."""
    if lowercase:
        text = ascii_lower(text)
    return _perl_split_bytes(text)


def is_noncharacter(ch: str) -> bool:
    cp = ord(ch)
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def strict_utf8_read(text: str) -> str:
    """What Perl's ``:encoding(UTF-8)`` layer (multi-bleu-detok.perl's reference files) makes of a line:
    Unicode noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF) are replaced by the literal text of their
    bytes, e.g. U+FDD0 -> ``\\xEF\\xB7\\x90`` (checked with perl 5.36). The hypothesis (STDIN, lax
    ``:utf8``) keeps them."""
    if not any(is_noncharacter(ch) for ch in text):
        return text
    return "".join("".join(f"\\x{b:02X}" for b in ch.encode("utf-8")) if is_noncharacter(ch) else ch
                   for ch in text)


def detok_tokenize(text: str, *, lowercase: bool = False, role: str = "candidate") -> list[str]:
    """multi-bleu-detok.perl: UTF-8 decoded; mteval's 13a ``tokenization`` (no lowercasing inside).
    With -lc the hypothesis is ``lc``-ed *before* tokenizing and each reference *after* (so a reference's
    ``<SKIPPED>`` is not removed while a hypothesis's is). References are read through the strict
    ``:encoding(UTF-8)`` layer (``strict_utf8_read``)."""
    if role != "candidate":
        text = strict_utf8_read(text)
    if lowercase and role == "candidate":
        text = perl_lc(text)
    out = _with_perl_whitespace(_TOK13A, text)
    if lowercase and role != "candidate":
        out = perl_lc(out)
    return out.split(" ") if out else []


def sgml_escape(text: str) -> str:
    """How the text is written into the SGML files (the golden vectors' writer): & < > " escaped."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def mteval_tokenize(text: str, *, preserve_case: bool = False, international: bool = False) -> list[str]:
    """mteval-v13a.pl on one segment, from the text the user typed to the tokens it scores.

    1. The text is written into the SGML file with & < > " escaped (``sgml_escape``).
    2. Reading a ``<doc>``, the script turns every run of whitespace (Perl ``\\s``) into one space.
    3. ``tokenization`` (13a): remove ``<skipped>``, decode the four entities once, lowercase A-Z with
       ``tr`` unless ``-c``, split punctuation. ``tr`` touches only letters and the punctuation rules never
       look at letters, so lowercasing the tokenizer's output gives the same tokens.
       ``--international-tokenization``: also ``&apos;``; Unicode ``lc`` unless ``-c``; the v14 rules.
    """
    s = PERL_UNI_WS.sub(" ", sgml_escape(text))
    if not international:
        out = _with_perl_whitespace(_TOK13A, s)
        if not preserve_case:
            out = ascii_lower(out)
    else:
        # \p{Hyphen}\p{Zl} and \p{Zl} cannot occur any more: U+2028 is \s and became a space in step 2.
        s = s.replace("<skipped>", "")
        s = (s.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
             .replace("&apos;", "'"))
        if not preserve_case:
            s = perl_lc(s)
        out = _with_perl_whitespace(_TOKINTL, s, unassigned=True)
    return out.split(" ") if out else []

