"""ROUGE-1.5.5.pl's text handling without Perl: units, length limits, cleanup, stop words, stemming.

What the script does (docs/dialects-rouge155.md):

1. Units: SPL = each line of the file that is not empty (``chomp`` removes only ``\\n``, so a ``\\r`` line
   is a unit with no tokens); SEE = each ``<a ...>[n]</a> <a href=... id=n>text`` line; ISI = ``<S>``.
   A user's text is treated as an SPL file whose lines are the pieces of ``text.split("\\n")``.
2. Each unit is lower-cased with ``tr/A-Z/a-z/`` (ASCII only). The script reads *bytes*: every byte of a
   non-ASCII character later becomes a space, so ``café`` gives ``caf``.
3. Length limits (``-l`` words / ``-b`` bytes) cut the lower-cased raw units. Two products are built:
   ``readText`` (units joined by a space: ROUGE-N, S/SU and the unigram budgets of L/W) and
   ``readText_LCS`` (a list of units: the LCS sequences). With ``-b`` the LCS list is not cut
   cumulatively (the script never advances its byte counter there) — reproduced, and reported.
4. Cleanup: ``-`` -> `` - ``, every byte outside ``[A-Za-z0-9-]`` -> space, trim, squeeze, split.
5. Per token: dropped if ``-s`` and a SMART stop word (checked on the unstemmed token); dropped unless it
   starts with ``[a-z0-9$]`` (so the lone ``-`` goes); with ``-m`` tokens longer than 3 characters are
   stemmed (``stem.stem_token``).

Tokens keep their character span in the user's original string (``start``/``end``), so the UI can
highlight them; a token cut by ``-b`` keeps its start and a shorter end.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from explainer.rouge.rouge155.stem import stem_token, stopwords

__all__ = ["PerlToken", "PerlText", "read_text", "units_from_string", "perl_split_ws"]

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# After cleanup only [a-z0-9] runs and lone '-' remain; '-' is then dropped by the ^[a-z0-9$] filter, so
# the tokens the script keeps are exactly the maximal runs of ASCII letters/digits of the lower-cased bytes.
_TOKEN_RE = re.compile(r"[A-Za-z0-9]+")
_PERL_WS = re.compile(r"[ \t\n\r\f\x0b]+")  # Perl \s on a byte string (no Unicode rules)


def perl_split_ws(s: str) -> list[str]:
    """Perl ``split(/\\s+/, $s)``: a leading empty field is kept, trailing empty fields are removed."""
    if s == "":
        return []
    parts = _PERL_WS.split(s)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


@dataclass(frozen=True)
class PerlToken:
    surface: str  # the cleaned, lower-cased token as the script saw it (before stemming)
    token: str  # what is counted: the stem with -m, else the surface
    unit: int  # index of the unit (sentence / line) it came from
    start: int | None  # character span in the original text, end exclusive (None: unknown, e.g. files)
    end: int | None

    def to_dict(self) -> dict:
        return {"surface": self.surface, "token": self.token, "unit": self.unit, "start": self.start,
                "end": self.end}


@dataclass
class PerlText:
    """One text as ROUGE-1.5.5 reads it."""

    units: list[str]  # the units as read (original case), after dropping empty lines
    unit_offsets: list[int | None]  # character offset of each unit in the original text
    ngram_tokens: list[PerlToken]  # readText + createNGram: ROUGE-N, S/SU, unigram budgets, P denominators
    lcs_units: list[list[PerlToken]]  # readText_LCS + tokenizeText_LCS: the LCS sequences
    stopwords_removed: list[PerlToken] = field(default_factory=list)
    non_ascii_chars: int = 0  # characters the byte-level cleanup turned into spaces
    truncated: str | None = None  # a note when -l / -b cut the text
    lcs_truncation_differs: bool = False  # the -b bug: LCS units not cut like the n-gram text

    @property
    def tokens(self) -> list[str]:
        return [t.token for t in self.ngram_tokens]

    @property
    def lcs_sequences(self) -> list[list[str]]:
        return [[t.token for t in u] for u in self.lcs_units]

    @property
    def empty(self) -> bool:
        """The script's ``readText: ... -> empty text`` situation (no unit at all)."""
        return not self.units


def units_from_string(text: str) -> tuple[list[str], list[int]]:
    """SPL units of a user string: the pieces of ``text.split("\\n")`` that are not empty, with offsets."""
    units: list[str] = []
    offsets: list[int] = []
    pos = 0
    for piece in text.split("\n"):
        if piece:
            units.append(piece)
            offsets.append(pos)
        pos += len(piece) + 1
    return units, offsets


def _utf8_len(s: str) -> int:
    # Text read from files is decoded with surrogateescape, so each undecodable byte counts as one byte.
    try:
        return len(s.encode("utf-8", "surrogateescape"))
    except UnicodeEncodeError:  # a lone surrogate typed by a user: 3 bytes, as Python would write it
        return len(s.encode("utf-8", "surrogatepass"))


def _cut_bytes(s: str, nbytes: int) -> str:
    """Perl ``substr($s, 0, n)`` on the UTF-8 bytes. A character cut in the middle leaves only bytes
    >= 0x80, which the cleanup turns into spaces, so dropping it entirely gives the same tokens."""
    if nbytes <= 0:
        return ""
    out = []
    used = 0
    for ch in s:
        b = _utf8_len(ch) if ord(ch) > 127 else 1
        if used + b > nbytes:
            break
        out.append(ch)
        used += b
    return "".join(out)


def _limit_ngram(units: list[str], length_limit: int, byte_limit: int) -> list[tuple[int, str]]:
    """``readText``'s limit logic: returns (unit index, kept text) pieces; the pieces are joined by a space."""
    if length_limit == 0 and byte_limit == 0:
        return list(enumerate(units))
    out: list[tuple[int, str]] = []
    used = 0
    if length_limit != 0:
        for i, s in enumerate(units):
            words = perl_split_ws(s)
            if used + len(words) < length_limit:
                out.append((i, s))
                used += len(words)
            else:
                k = length_limit - used
                out.append((i, " ".join(_perl_slice(words, k))))
                break
    else:
        for i, s in enumerate(units):
            n = _utf8_len(s)
            if used + n < byte_limit:
                out.append((i, s))
                used += n
            else:
                out.append((i, _cut_bytes(s, byte_limit - used)))
                break
    return out


def _perl_slice(words: list[str], k: int) -> list[str]:
    """``@words[0..k-1]``; k <= 0 gives an empty list (Perl: ``0..-1`` is empty)."""
    return words[:k] if k > 0 else []


def _limit_lcs(units: list[str], length_limit: int, byte_limit: int) -> list[tuple[int, str]]:
    """``readText_LCS``'s limit logic. With -b the running byte count is never advanced (script bug)."""
    if length_limit == 0 and byte_limit == 0:
        return list(enumerate(units))
    out: list[tuple[int, str]] = []
    if length_limit != 0:
        used = 0
        for i, s in enumerate(units):
            words = perl_split_ws(s)
            if used + len(words) < length_limit:
                used += len(words)
                out.append((i, s))
            else:
                out.append((i, " ".join(_perl_slice(words, length_limit - used))))
                break
    else:
        used = 0  # never incremented in ROUGE-1.5.5.pl (readText_LCS, byte branch)
        for i, s in enumerate(units):
            if used + _utf8_len(s) < byte_limit:
                out.append((i, s))
            else:
                out.append((i, _cut_bytes(s, byte_limit - used)))
                break
    return out


def _tokens_of_piece(piece: str, unit_index: int, original_unit: str, offset: int | None,
                     opts: "TokenOptions", removed: list[PerlToken]) -> list[PerlToken]:
    """Tokens of one (possibly cut) unit. Spans: the i-th token of the piece starts where the i-th
    token of the original unit starts (limits only cut whole words, or the end of the last one)."""
    low = piece.translate(_ASCII_LOWER)
    orig_starts = None
    out: list[PerlToken] = []
    matches = list(_TOKEN_RE.finditer(low))
    if piece != original_unit:
        orig_starts = [m.start() for m in _TOKEN_RE.finditer(original_unit)]
    for i, m in enumerate(matches):
        surface = m.group(0)
        if offset is None:
            start = end = None
        else:
            s0 = m.start() if orig_starts is None else (orig_starts[i] if i < len(orig_starts) else None)
            if s0 is None:
                start = end = None
            else:
                start, end = offset + s0, offset + s0 + len(surface)
        if opts.remove_stopwords and surface in stopwords():
            removed.append(PerlToken(surface, surface, unit_index, start, end))
            continue
        tok = stem_token(surface) if opts.stem else surface
        out.append(PerlToken(surface, tok, unit_index, start, end))
    return out


@dataclass(frozen=True)
class TokenOptions:
    stem: bool = False  # -m
    remove_stopwords: bool = False  # -s
    length_limit: int = 0  # -l
    byte_limit: int = 0  # -b

    def __post_init__(self):
        if self.length_limit and self.byte_limit:
            # The script: "Please specify length limit in words or bytes but not both."
            raise ValueError("ROUGE-1.5.5 takes a word limit (-l) or a byte limit (-b), not both")
        if self.length_limit < 0 or self.byte_limit < 0:
            raise ValueError("length limits must be positive numbers")


def read_text(text: str | None = None, *, units: list[str] | None = None,
              offsets: list[int | None] | None = None, options: TokenOptions = TokenOptions()) -> PerlText:
    """Tokenize one text as ROUGE-1.5.5 does. Give either a user string (SPL semantics: one unit per
    non-empty line) or the ``units`` already read from a file (SEE/SPL readers in rouge155_files)."""
    if units is None:
        units, offsets = units_from_string(text or "")
    if offsets is None:
        offsets = [None] * len(units)
    removed: list[PerlToken] = []
    ngram_pieces = _limit_ngram(units, options.length_limit, options.byte_limit)
    ngram_tokens: list[PerlToken] = []
    for i, piece in ngram_pieces:
        ngram_tokens.extend(_tokens_of_piece(piece, i, units[i], offsets[i], options, removed))
    lcs_pieces = _limit_lcs(units, options.length_limit, options.byte_limit)
    sink: list[PerlToken] = []
    lcs_units = [_tokens_of_piece(piece, i, units[i], offsets[i], options, sink) for i, piece in lcs_pieces]
    non_ascii = sum(1 for u in units for ch in u if ord(ch) > 127)
    truncated = None
    if options.length_limit or options.byte_limit:
        full = [m.group(0) for u in units for m in _TOKEN_RE.finditer(u)]
        kept = [m.group(0) for _, p in ngram_pieces for m in _TOKEN_RE.finditer(p)]
        if kept != full:
            what = f"-l {options.length_limit} (words)" if options.length_limit else f"-b {options.byte_limit} (bytes)"
            cut_word = bool(kept) and len(kept) <= len(full) and kept[-1] != full[len(kept) - 1]
            truncated = (f"cut by {what}: {len(kept)} of {len(full)} tokens kept"
                         + (f" (the last one cut to '{kept[-1]}')" if cut_word else ""))
    differs = [[t.token for t in u] for u in lcs_units]
    flat_lcs = [t for u in differs for t in u]
    return PerlText(
        units=list(units), unit_offsets=list(offsets), ngram_tokens=ngram_tokens, lcs_units=lcs_units,
        stopwords_removed=removed, non_ascii_chars=non_ascii, truncated=truncated,
        lcs_truncation_differs=flat_lcs != [t.token for t in ngram_tokens],
    )
