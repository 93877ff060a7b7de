"""Word pieces: each text as the model reads it, with the character span of every piece in the user's text.

The tokenizer is the model's own ``tokenizer.json`` run by Hugging Face ``tokenizers`` (the Rust WordPiece
tokenizer behind ``transformers``' fast ``BertTokenizer``, which both sentence-transformers and bert-score call):
BERT's normaliser (control characters removed, lowercased, accents stripped, CJK characters split), whitespace
and punctuation pre-tokenisation, WordPiece (``##`` marks a piece that continues a word), ``[CLS]`` before and
``[SEP]`` after. The file's own padding and truncation (to 128) are switched off: the libraries override them
per call, and so do we.

Truncation is the libraries': at most ``max_pieces`` pieces in all (sentence-transformers: ``max_seq_length``
256; bert-score: the tokenizer's ``model_max_length`` 512), so the first ``max_pieces − 2`` pieces of the text are
kept, ``[SEP]`` after them. A word may be cut between its pieces; the trace says where the kept text ends.
bert-score strips the text first (``sent.strip()``), sentence-transformers does not: ``strip`` says which, and the
spans stay in the original text either way.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

__all__ = ["WordPiece", "PieceText", "PieceTokenizer"]


@dataclass(frozen=True)
class WordPiece:
    """One piece. ``start``/``end``: its characters in the original text (end exclusive; None for ``[CLS]`` and
    ``[SEP]``); ``word``: the index of the word it belongs to (None for the added specials)."""

    piece: str
    id: int
    start: int | None
    end: int | None
    word: int | None
    special: bool

    @property
    def continues_word(self) -> bool:
        """The piece continues the word of the piece before it (WordPiece's ``##`` prefix)."""
        return self.piece.startswith("##")

    def to_dict(self) -> dict:
        return {"piece": self.piece, "id": self.id, "start": self.start, "end": self.end, "word": self.word,
                "special": self.special}


@dataclass(frozen=True)
class PieceText:
    """A text as the model reads it: the ids of its pieces (``[CLS]`` … ``[SEP]``, after truncation) and, unless
    it was read for a corpus's numbers only, the pieces themselves; how many pieces the whole text has (without the
    two specials), the limit, and where the kept part ends."""

    text: str
    ids: tuple[int, ...]
    pieces: tuple[WordPiece, ...]
    total_pieces: int
    max_pieces: int
    stripped: bool = False
    kept_chars: int = field(default=0)

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def truncated(self) -> bool:
        return self.total_pieces > self.max_pieces - 2

    @property
    def content(self) -> tuple[WordPiece, ...]:
        """The pieces without ``[CLS]`` and ``[SEP]``."""
        return self.pieces[1:-1]

    @property
    def empty(self) -> bool:
        """Nothing but ``[CLS]`` and ``[SEP]`` (an empty text, or only characters the normaliser removes)."""
        return len(self.ids) == 2

    def words(self) -> list[tuple[str, list[int]]]:
        """Each word of the kept text as it is written, with the indices (into ``pieces``) of its pieces."""
        out: list[tuple[str, list[int]]] = []
        current = None
        for i, p in enumerate(self.pieces):
            if p.special or p.word is None:
                continue
            if p.word != current:
                out.append(("", []))
                current = p.word
            out[-1][1].append(i)
        return [(self.text[self.pieces[ix[0]].start:self.pieces[ix[-1]].end], ix) for _, ix in out]

    def to_dict(self) -> dict:
        return {"text": self.text, "pieces": [p.to_dict() for p in self.pieces], "n_pieces": len(self.ids),
                "total_pieces": self.total_pieces, "max_pieces": self.max_pieces, "truncated": self.truncated,
                "kept_chars": self.kept_chars, "stripped": self.stripped}


class PieceTokenizer:
    """The model's tokenizer without its file's padding and truncation (both are applied per call here). Safe to
    share between threads: it is never reconfigured after construction."""

    def __init__(self, tokenizer_json: str) -> None:
        from tokenizers import Tokenizer

        tok = Tokenizer.from_str(tokenizer_json)
        tok.no_padding()
        tok.no_truncation()
        self._tok = tok
        self.cls_id = tok.token_to_id("[CLS]")
        self.sep_id = tok.token_to_id("[SEP]")

    def encode_texts(self, texts: Sequence[str], max_pieces: int, *, strip: bool = False,
                     spans: bool = True) -> list[PieceText]:
        """Each text's pieces, truncated as the libraries truncate to ``max_pieces`` (``strip``: bert-score's
        ``sent.strip()`` first; ``spans=False``: the ids only, no ``WordPiece`` objects, for a corpus)."""
        if not texts:
            return []
        shown = [t.strip() if strip else t for t in texts]
        encodings = self._tok.encode_batch(shown, add_special_tokens=True)
        return [self._piece_text(t, s, e, max_pieces, strip, spans) for t, s, e in zip(texts, shown, encodings)]

    def count_pieces(self, texts: Sequence[str]) -> list[int]:
        """The number of pieces of each text, without ``[CLS]`` and ``[SEP]`` and before truncation."""
        if not texts:
            return []
        return [len(e.ids) - 2 for e in self._tok.encode_batch(list(texts), add_special_tokens=True)]

    def _piece_text(self, text: str, shown: str, enc, max_pieces: int, strip: bool, spans: bool) -> PieceText:
        shift = len(text) - len(text.lstrip()) if strip else 0  # the spans stay in the original text
        ids, offsets = enc.ids, enc.offsets
        n = len(ids)
        keep = min(n - 1, max_pieces - 1)                        # pieces before [SEP]
        kept_ids = tuple(ids[:keep]) + (ids[n - 1],)
        kept = offsets[keep - 1][1] + shift if keep > 1 else 0
        pieces: tuple = ()
        if spans:
            tokens, words = enc.tokens, enc.word_ids
            pieces = (WordPiece(tokens[0], ids[0], None, None, None, True),) + tuple(
                WordPiece(tokens[i], ids[i], offsets[i][0] + shift, offsets[i][1] + shift, words[i], False)
                for i in range(1, keep)) + (WordPiece(tokens[n - 1], ids[n - 1], None, None, None, True),)
        return PieceText(text, kept_ids, pieces, n - 2, max_pieces, strip and shown != text, kept)
