"""Tokenizers for ROUGE, each returning the exact tokens of the implementation it names, plus spans.

* ``rouge-score``: the rouge-score package's own ``rouge_score.tokenize.tokenize`` (what
  ``tokenizers.DefaultTokenizer`` calls), with NLTK's ``PorterStemmer()`` as rouge-score creates it. The only
  change is a per-word memo around the real stemmer's ``stem`` (same output, called once per distinct word).
* ``unicode``: opt-in, NOT any library's default: runs of letters/marks/digits of any script (each CJK
  ideograph or kana alone), lowercased with ``str.lower``; optional Porter stemming of ASCII words only.
* ``whitespace-lower``: ``text.lower().split()``, the tokenizer of the textbook's from-scratch code.
* ``whitespace``: opt-in, ``text.split()`` (case and punctuation kept), as hand-written ROUGE code often does.

A tokenizer's ``full`` result also locates every token in the original text, lists the user's words the
tokenizer removed (rouge-score drops every non-ASCII character), and gives a loud message when that happens.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import regex

from explainer.text import Token, align_spans

__all__ = [
    "TokenizedText", "Sentence", "Tokenizer", "TOKENIZERS", "get_tokenizer", "split_sentences",
    "memo_porter", "SENTENCE_SPLITTERS",
]

_WORD_RE = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}]|[\p{L}\p{M}\p{N}--[\p{Han}\p{Hiragana}\p{Katakana}]]+",
                         flags=regex.V1)
_ASCII_WORD_RE = regex.compile(r"[a-z]+\Z")
_ASCII_ALNUM_RE = regex.compile(r"[A-Za-z0-9]+")
_RS_TOKEN_RE = regex.compile(r"[a-z0-9]+")


class _MemoStemmer:
    """NLTK's PorterStemmer() (NLTK_EXTENSIONS mode, as rouge-score constructs it), memoised per word."""

    def __init__(self):
        from nltk.stem import porter

        self._stemmer = porter.PorterStemmer()
        self._cache: dict[str, str] = {}
        self.name = "NLTK PorterStemmer() (NLTK_EXTENSIONS), words longer than 3 characters"

    def stem(self, word: str) -> str:
        s = self._cache.get(word)
        if s is None:
            if len(self._cache) > 500_000:
                self._cache.clear()
            s = self._cache[word] = self._stemmer.stem(word)
        return s


_MEMO: _MemoStemmer | None = None


def memo_porter() -> _MemoStemmer:
    global _MEMO
    if _MEMO is None:
        _MEMO = _MemoStemmer()
    return _MEMO


@dataclass
class Sentence:
    index: int
    text: str
    start: int
    end: int

    def to_dict(self) -> dict:
        return {"index": self.index, "text": self.text, "start": self.start, "end": self.end}


@dataclass
class TokenizedText:
    """A text as one ROUGE dialect scores it: its tokens (and, for summary-level types, its sentences). A text
    prepared for a trace (``located``) also has the surface tokens with their spans and the words the tokenizer
    removed; the fast path leaves those empty."""

    text: str
    tokens: list[str]                      # the tokens the algorithms compare (stems when stemming is on)
    surface: list[str] = field(default_factory=list)   # the same tokens before stemming
    spans: list[Token] = field(default_factory=list)   # surface tokens located in ``text``
    stemmed: bool = False
    dropped: list[dict] = field(default_factory=list)  # words of the text the tokenizer removed (or cut)
    n_words: int = 0                       # words in the text (letters/digits of any script)
    message: str | None = None             # loud note when words were removed
    sentences: list | None = None          # Sentence list, when a summary-level type is computed
    sentence_tokens: list | None = None    # list[list[str]]: the tokens of each sentence
    located: bool = False                  # surface, spans, dropped, n_words and message were computed
    extra: dict = field(default_factory=dict)   # a dialect's own reading of the text (rouge155: its PerlText)

    def to_dict(self) -> dict:
        toks = []
        for i, (s, t) in enumerate(zip(self.surface, self.tokens)):
            sp = self.spans[i] if i < len(self.spans) else Token(s, None, None)
            d = {"text": s, "start": sp.start, "end": sp.end}
            if self.stemmed:
                d["stem"] = t
            toks.append(d)
        return {"text": self.text, "tokens": toks, "stemmed": self.stemmed, "dropped": self.dropped,
                "n_words": self.n_words, "message": self.message}


class Tokenizer:
    name = "base"
    label = ""
    library_default = True
    drops_what = ""

    def fast(self, text: str, stem: bool) -> list[str]:
        raise NotImplementedError

    def surface_with_spans(self, text: str) -> tuple[list[str], list[Token]]:
        raise NotImplementedError

    def full(self, text: str, stem: bool, *, what: str = "text", tokens: list[str] | None = None) -> TokenizedText:
        """Tokens (the real tokenizer's output; pass ``tokens`` when already computed), their spans and the
        words the tokenizer removed."""
        if tokens is None:
            tokens = self.fast(text, stem)
        surface, spans = self.surface_with_spans(text)
        if len(surface) != len(tokens):  # cannot happen with the shipped tokenizers; keep the real tokens
            surface = list(tokens)
            spans = [Token(t, None, None) for t in tokens]
        tt = TokenizedText(text, tokens, surface, spans, stemmed=stem, located=True)
        self.find_dropped(tt, what)
        return tt

    def stemmer_name(self, stem: bool) -> str | None:
        return memo_porter().name if stem else None

    # True when no token can span a newline, so a text's tokens are the concatenation of its lines' tokens
    newline_safe = True
    # True when, on pure-ASCII text, every letter/digit ends up in a token (so nothing can be dropped)
    ascii_complete = True

    def find_dropped(self, tt: TokenizedText, what: str) -> None:
        if self.ascii_complete and tt.text.isascii():
            tt.n_words = len(_ASCII_ALNUM_RE.findall(tt.text))
            return
        covered = bytearray(len(tt.text) + 1)
        for sp in tt.spans:
            if sp.start is not None:
                for k in range(sp.start, sp.end):
                    covered[k] = 1
        words = list(_WORD_RE.finditer(tt.text))
        tt.n_words = len(words)
        removed, cut = [], []
        for m in words:
            s, e = m.span()
            c = sum(covered[s:e])
            if c == 0:
                removed.append({"text": m.group(), "start": s, "end": e, "kind": "removed"})
            elif c < e - s:
                lost = "".join(ch for k, ch in enumerate(m.group()) if not covered[s + k])
                kept = [t.text for t in tt.spans if t.start is not None and s <= t.start < e]
                cut.append({"text": m.group(), "start": s, "end": e, "kind": "cut", "lost": lost, "kept": kept})
        tt.dropped = removed + cut
        tt.dropped.sort(key=lambda d: d["start"])
        if not words:
            return
        if removed and len(removed) == len(words):
            script = _script_of("".join(d["text"] for d in removed))
            tt.message = (f"all {len(words)} words of this {what}{f' ({script} script)' if script else ''} "
                          f"were removed by the {self.name} tokenizer "
                          f"(it {self.drops_what}), so it has no tokens and every score involving it is 0")
        elif removed or cut:
            parts = []
            if removed:
                ex = ", ".join(d["text"] for d in removed[:5])
                more = ", …" if len(removed) > 5 else ""
                parts.append(f"{len(removed)} of {len(words)} words were removed ({ex}{more})")
            if cut:
                ex = ", ".join(f"{d['text']} → {' '.join(d['kept'])}" for d in cut[:5])
                parts.append(f"{len(cut)} words lost characters ({ex}{', …' if len(cut) > 5 else ''})")
            tt.message = f"the {self.name} tokenizer {self.drops_what}: " + "; ".join(parts)


def _script_of(chars: str) -> str | None:
    """The most frequent script among letters, from Unicode character names (e.g. 'Devanagari', 'CJK')."""
    import unicodedata

    counts: dict[str, int] = {}
    for ch in chars:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            if name:
                w = name.split()[0]
                counts[w] = counts.get(w, 0) + 1
    if not counts:
        return None
    best = max(counts, key=counts.get)
    return best if best in ("CJK",) else best.capitalize()


class RougeScoreTokenizer(Tokenizer):
    name = "rouge-score"
    label = "rouge-score DefaultTokenizer (lowercase, keep only a-z and 0-9)"
    drops_what = "keeps only ASCII letters a-z and digits 0-9"

    def __init__(self):
        from rouge_score import tokenize as rs_tokenize

        self._tokenize = rs_tokenize.tokenize

    def fast(self, text: str, stem: bool) -> list[str]:
        return self._tokenize(text, memo_porter() if stem else None)

    def surface_with_spans(self, text):
        surface = self._tokenize(text, None)
        # rouge-score's tokens are exactly the maximal [a-z0-9] runs of text.lower(); locate them there and map
        # back (lowercasing keeps one character per character unless the length changes, e.g. 'İ').
        low = text.lower()
        ms = list(_RS_TOKEN_RE.finditer(low))
        if len(low) == len(text) and [m.group() for m in ms] == surface:
            return surface, [Token(m.group(), m.start(), m.end()) for m in ms]
        return surface, align_spans(text, surface, casefold=True, unescape=False)


class UnicodeTokenizer(Tokenizer):
    name = "unicode"
    label = "Unicode words (opt-in; not any library's default): letters/marks/digits of any script, lowercased"
    library_default = False
    drops_what = "keeps letters, marks and digits of any script"

    def fast(self, text: str, stem: bool) -> list[str]:
        toks = [m.group().lower() for m in _WORD_RE.finditer(text)]
        if stem:
            st = memo_porter()
            toks = [st.stem(t) if len(t) > 3 and _ASCII_WORD_RE.match(t) else t for t in toks]
        return toks

    def surface_with_spans(self, text):
        ms = list(_WORD_RE.finditer(text))
        surface = [m.group().lower() for m in ms]
        return surface, [Token(s, m.start(), m.end()) for s, m in zip(surface, ms)]

    def stemmer_name(self, stem):
        return (memo_porter().name + ", ASCII words only") if stem else None


class WhitespaceLowerTokenizer(Tokenizer):
    name = "whitespace-lower"
    label = "text.lower().split() (the textbook's; punctuation stays attached)"
    drops_what = "splits on whitespace only"

    def fast(self, text: str, stem: bool) -> list[str]:
        toks = text.lower().split()
        if stem:
            st = memo_porter()
            toks = [st.stem(t) if len(t) > 3 else t for t in toks]
        return toks

    def surface_with_spans(self, text):
        surface = text.lower().split()
        return surface, align_spans(text, surface, casefold=True, unescape=False)


class WhitespaceTokenizer(Tokenizer):
    """``text.split()``: case and punctuation kept, as hand-written ROUGE code often tokenizes (and what a
    ``RougeScorer(tokenizer=...)`` object with ``tokenize = str.split`` does); with stemming, NLTK's Porter
    stemmer on tokens longer than 3 characters (which lowercases the words it stems)."""

    name = "whitespace"
    label = "text.split() (opt-in; not any library's default): case and punctuation kept"
    library_default = False
    drops_what = "splits on whitespace only"

    def fast(self, text: str, stem: bool) -> list[str]:
        toks = text.split()
        if stem:
            st = memo_porter()
            toks = [st.stem(t) if len(t) > 3 else t for t in toks]
        return toks

    def surface_with_spans(self, text):
        surface = text.split()
        spans, pos = [], 0
        for t in surface:           # each token is a substring of the text, in order
            j = text.find(t, pos)
            spans.append(Token(t, j, j + len(t)))
            pos = j + len(t)
        return surface, spans

    def stemmer_name(self, stem):
        return (memo_porter().name + "; it lowercases the words it stems") if stem else None


TOKENIZERS: dict[str, Tokenizer] = {}


def get_tokenizer(name: str) -> Tokenizer:
    if not TOKENIZERS:
        for cls in (RougeScoreTokenizer, UnicodeTokenizer, WhitespaceLowerTokenizer, WhitespaceTokenizer):
            TOKENIZERS[cls.name] = cls()
    try:
        return TOKENIZERS[name]
    except KeyError:
        raise ValueError(f"unknown ROUGE tokenizer {name!r}; choose one of {', '.join(TOKENIZERS)}") from None


def _split_newline(text: str) -> list[Sentence]:
    """rouge-score's default: ``text.split("\\n")``, empty strings dropped (a line of spaces is kept)."""
    out, pos = [], 0
    for piece in text.split("\n"):
        if len(piece):
            out.append(Sentence(len(out), piece, pos, pos + len(piece)))
        pos += len(piece) + 1
    return out


def _split_nltk(text: str) -> list[Sentence]:
    """rouge-score's ``split_summaries=True``: ``nltk.sent_tokenize`` (needs NLTK's punkt_tab data)."""
    import nltk

    try:
        sents = nltk.sent_tokenize(text)
    except LookupError:
        raise ValueError("split_summaries needs NLTK's 'punkt_tab' data, which is not installed here; "
                         "use the default newline splitting") from None
    out, pos = [], 0
    for s in sents:
        if not len(s):
            continue
        j = text.find(s, pos)
        start = j if j >= 0 else pos
        out.append(Sentence(len(out), s, start, start + len(s)))
        pos = start + len(s) if j >= 0 else pos
    return out


SENTENCE_SPLITTERS: dict[str, Callable[[str], list[Sentence]]] = {
    "newline": _split_newline,
    "nltk": _split_nltk,
}


def split_sentences(text: str, how: str = "newline") -> list[Sentence]:
    try:
        fn = SENTENCE_SPLITTERS[how]
    except KeyError:
        raise ValueError(f"unknown sentence splitter {how!r}; choose one of {', '.join(SENTENCE_SPLITTERS)}") from None
    return fn(text)
