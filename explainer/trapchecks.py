"""The classic traps of the metrics, named before they bite: pure functions over the user's texts (and the dialect
that will score them) that return structured warnings. Each family puts together the checks that concern it
(``explainer.family.MetricFamily.traps``: ``bleu/traps.py``, ``rouge/traps.py``, ``chrf/traps.py``); the CLI prints
them on stderr; the pages show them (``explainer.traps.page_traps``). None of them changes a score.

==========================  ============================================================================
code                        what
==========================  ============================================================================
``dropped-words``           the ROUGE dialect's tokenizer removes words (rouge-score keeps only a-z 0-9:
                            Chinese, Japanese, Arabic, Cyrillic, accented words vanish, the score is 0)
``lsum-no-newlines``        ROUGE-Lsum on texts without a newline is ROUGE-L (one sentence per text)
``cjk-unsplit``             CJK text left in long unsplit tokens (13a, intl, none, whitespace tokenizers)
``references-transposed``   reference streams given where each segment's list of references is expected
``references-varying``      a different number of references per segment
``references-swapped``      the candidates look like the references and the references like system output
``candidate-is-reference``  candidates identical to a reference (the same file given twice)
``pretokenized``            candidates that end in " ." (sacreBLEU's "forgot to detokenize" heuristic)
``chrf-variant``            chrF settings other than sacreBLEU's ``CHRF()`` (chrF2, what results tables
                            print as "chrF"): chrF++ under the name chrF, beta other than 2, lowercase,
                            whitespace kept, NLTK's ``chrf_score`` (beta = 3, mean of segments, 0-1), with
                            the score of these texts under both
==========================  ============================================================================

Each check looks at a bounded sample (``SAMPLE`` segments), so it costs a fraction of the scoring it warns about.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

__all__ = ["Trap", "dropped_words", "lsum_without_newlines", "cjk_unsplit", "reference_layout", "swapped_files",
           "pretokenized", "layout_traps", "SAMPLE", "SACREBLEU_DETOK_LINES"]

#: segments looked at by each check
SAMPLE = 500
#: sacreBLEU warns when at least this many candidates end in " ." (BLEU.corpus_score, metrics/bleu.py)
SACREBLEU_DETOK_LINES = 100
#: a token with at least this many CJK characters was not split into words
CJK_RUN = 6

_SENT_END = re.compile(r"(?<=[.!?])[ \t]+(?=\S)")


def split_sentences_per_line(text: str) -> str:
    """One sentence per line, as summarization scripts prepare texts for ROUGE-Lsum: a line break after . ! ?
    followed by a space (the reproduce search splits the same way, ``dialectcmp.space``)."""
    return _SENT_END.sub("\n", text)


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")


@dataclass
class Trap:
    """One warning: a stable ``code``, a ``message`` for the user and the evidence (``detail``: lines, words)."""

    code: str
    message: str
    detail: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


def _ex(items: Sequence[str], k: int = 5) -> str:
    return ", ".join(items[:k]) + (", …" if len(items) > k else "")


def _script(text: str) -> str:
    if _KANA.search(text):
        return "Japanese"
    if _HANGUL.search(text):
        return "Korean"
    if _HAN.search(text):
        return "Chinese"
    counts: dict[str, int] = {}
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "").split(" ")[0]
            if name:
                counts[name] = counts.get(name, 0) + 1
    if not counts:
        return "non-Latin"
    best = max(counts, key=counts.get)
    return "accented Latin" if best == "LATIN" else best.capitalize()


#: per script, what keeps its words (ROUGE dialects and tokenizers; BLEU tokenizers)
_KEEPERS = {
    "Chinese": "the rouge-chinese dialect (jieba words), or tokenizer=unicode (one token per character); "
               "BLEU: tokenize=zh",
    "Japanese": "tokenizer=unicode (one token per kana or kanji), or rouge-chinese's jieba; BLEU: tokenize=ja-mecab",
    "Korean": "tokenizer=unicode, or the pltrdy / rouge-metric dialects (words at spaces); BLEU: tokenize=ko-mecab",
}
_KEEP_OTHER = "tokenizer=unicode (letters of any script), or the pltrdy / rouge-metric dialects (words at spaces)"


# --------------------------------------------------------------------------------------------- ROUGE
def dropped_words(candidates: Sequence[str], references: Sequence[Sequence[str]], dialect: Any) -> list[Trap]:
    """Words the bound ROUGE ``dialect`` removes, per role, with the script and what keeps them."""
    removed: dict[str, list[str]] = {}
    whole: list[str] = []
    seen = 0
    for i, (c, refs) in enumerate(zip(candidates, references)):
        if i >= SAMPLE:
            break
        for role, text in [("candidate", c)] + [("reference", r) for r in refs]:
            if text.isascii():
                continue
            tt = dialect.prepare(text, need_sents=False, full=True, what=role)
            gone = [d["text"] for d in tt.dropped if d.get("kind") == "removed"]
            if gone:
                removed.setdefault(role, []).extend(gone)
                seen += 1
                if not tt.tokens and f"segment {i + 1}" not in whole:
                    whole.append(f"segment {i + 1}")
    if not removed:
        return []
    words = [w for ws in removed.values() for w in ws]
    script = _script("".join(words))
    keep = _KEEPERS.get(script, _KEEP_OTHER)
    name = dialect.tokenizer_name() if hasattr(dialect, "tokenizer_name") else dialect.name
    msg = (f"the {dialect.name} tokenizer ({name}) removed {len(words)} {script} word(s) or character(s) "
           f"({_ex(list(dict.fromkeys(words)))}) from {', '.join(sorted(removed))} text")
    if whole:
        msg += f"; {_ex(whole, 3)} lost every word, so their scores are 0"
    msg += f". What keeps them: {keep}"
    return [Trap("dropped-words", msg, {"script": script, "removed": {k: v[:50] for k, v in removed.items()},
                                        "empty": whole, "keep": keep})]


def lsum_without_newlines(candidates: Sequence[str], references: Sequence[Sequence[str]], types: Sequence[str],
                          splitter: str = "newline") -> list[Trap]:
    """ROUGE-Lsum asked for texts that have no newline: every text is one sentence, so ROUGE-Lsum = ROUGE-L."""
    if "rougeLsum" not in types or not str(splitter).startswith("newline"):
        return []
    texts = [t for c, refs in list(zip(candidates, references))[:SAMPLE] for t in [c, *refs]]
    if any("\n" in t for t in texts):
        return []
    multi = [t for t in texts if "\n" in split_sentences_per_line(t)]
    if not multi:           # one sentence per text: ROUGE-Lsum = ROUGE-L is then the right answer
        return []
    msg = ("ROUGE-Lsum on texts without newlines equals ROUGE-L: rougeLsum splits sentences at newlines only, so each "
           f"text is one sentence, yet {len(multi)} text(s) have several sentences. Put one sentence per line "
           "(rouge-score: split_summaries=True, which needs NLTK's punkt_tab; or split after . ! ? before scoring)")
    return [Trap("lsum-no-newlines", msg, {"texts_with_several_sentences": len(multi),
                                           "example_split": split_sentences_per_line(multi[0])})]


# ---------------------------------------------------------------------------------------------- both
def cjk_unsplit(candidates: Sequence[str], references: Sequence[Sequence[str]], tokenize) -> list[Trap]:
    """Tokens (from ``tokenize(text)``) holding a long run of CJK characters: the tokenizer did not split the text
    into words, so a single different character makes the whole token a miss."""
    long: list[str] = []
    n_texts = 0
    for c, refs in list(zip(candidates, references))[:SAMPLE]:
        for text in [c, *refs]:
            if not _CJK.search(text):
                continue
            n_texts += 1
            for t in tokenize(text):
                if len(_CJK.findall(t)) >= CJK_RUN:
                    long.append(t)
    if not long:
        return []
    script = _script("".join(long))
    keep = {"Chinese": "tokenize=zh (sacreBLEU) or the rouge-chinese dialect",
            "Japanese": "tokenize=ja-mecab (sacreBLEU) or tokenizer=unicode (ROUGE)",
            "Korean": "tokenize=ko-mecab (sacreBLEU)"}.get(script, "tokenize=char or zh")
    eg = _ex([t[:20] for t in long], 3)
    return [Trap("cjk-unsplit", f"{script} text is not split into words by this tokenizer: {len(long)} token(s) of "
                                f"{CJK_RUN}+ characters (e.g. {eg}); one different character makes a whole token a "
                                f"miss. Use {keep}",
                 {"script": script, "tokens": long[:20], "keep": keep})]


def _overlap(a: str, b: str) -> float:
    sa, sb = set(a.lower().split()), set(b.lower().split())
    return len(sa & sb) / max(1, len(sa | sb))


def reference_layout(candidates: Sequence[Any], references: Sequence[Any], *, corpus: bool = True) -> list[Trap]:
    """``references`` should hold, per segment, the list of its references. Warn when it looks like reference
    STREAMS (sacreBLEU's ``corpus_score(hyps, [refs_stream_1, refs_stream_2])`` layout) or, for a corpus, when the
    number of references varies between segments (segments scored one by one may each have their own)."""
    out: list[Trap] = []
    n = len(candidates)
    refs = [r for r in references]
    per = [len(r) if isinstance(r, (list, tuple)) else 1 for r in refs]
    if refs and len(refs) != n and all(isinstance(r, (list, tuple)) and len(r) == n for r in refs):
        out.append(Trap("references-transposed",
                        f"{len(refs)} reference list(s) of {n} texts each for {n} candidates: these look like "
                        "reference streams (sacreBLEU's layout, one list per reference set); here each segment needs "
                        "the list of its own references: transpose them (list(zip(*streams)))",
                        {"candidates": n, "lists": len(refs), "list_lengths": per[:10]}))
        return out
    if n >= 2 and len(refs) == n and all(isinstance(r, (list, tuple)) and len(r) == n for r in refs):
        k = min(n, 50)
        # mean overlap of a candidate with the texts of its own list vs with the texts at its position in every list
        straight = sum(sum(_overlap(candidates[i], x) for x in refs[i]) / n for i in range(k))
        crossed = sum(sum(_overlap(candidates[i], refs[j][i]) for j in range(n)) / n for i in range(k))
        if crossed > 1.5 * straight + 0.05 * k:
            out.append(Trap("references-transposed",
                            f"each candidate is much closer to the texts at its POSITION in every reference list than "
                            f"to its own list (word overlap {crossed / k:.2f} vs {straight / k:.2f}): the lists look "
                            "like reference streams; transpose them (list(zip(*streams)))",
                            {"overlap_as_given": straight / k, "overlap_transposed": crossed / k}))
    counts = sorted(set(per))
    if corpus and len(counts) > 1:
        where = [f"segment {i + 1}: {c}" for i, c in enumerate(per) if c != max(per)][:5]
        out.append(Trap("references-varying",
                        f"segments have {counts[0]} to {counts[-1]} references ({_ex(where)}): sacreBLEU needs the "
                        "same number per stream (missing ones as empty strings, which it skips), and every score's "
                        "reference length and clipping depend on how many references a segment has",
                        {"counts": per[:SAMPLE], "distinct": counts}))
    return out


_SYSTEMISH = (
    ("<unk>", re.compile(r"<unk>|@@ |▁")),
    ("tokenized punctuation", re.compile(r" [.,!?;:]( |$)| n't\b| 's\b")),
    ("a word repeated 3 times", re.compile(r"\b(\w+)( \1){2,}\b")),
)


def _systemish(lines: Sequence[str]) -> tuple[float, list[str]]:
    hits = []
    for i, ln in enumerate(lines):
        for what, rx in _SYSTEMISH:
            if rx.search(ln):
                hits.append(f"line {i + 1} ({what}): {ln[:60]}")
                break
    return (len(hits) / len(lines) if lines else 0.0), hits


def swapped_files(candidates: Sequence[str], references: Sequence[Sequence[str]]) -> list[Trap]:
    """Candidates identical to a reference stream (the same file twice), or references that look like system
    output while the candidates look like human text (the files swapped: precision and recall swap)."""
    out: list[Trap] = []
    cands = list(candidates)[:SAMPLE]
    refs = [list(r) for r in list(references)[:SAMPLE]]
    if len(cands) < 5:          # a file's worth: one segment equal to its reference is a fine example
        return out
    width = max((len(r) for r in refs), default=0)
    for k in range(width):
        stream = [r[k] if k < len(r) else None for r in refs]
        same = sum(1 for c, r in zip(cands, stream) if r is not None and c.strip() and c == r)
        if same and same >= 0.9 * len(cands):
            out.append(Trap("candidate-is-reference",
                            f"{same} of {len(cands)} candidates are identical to reference {k + 1}: the candidate "
                            "file is probably that reference file given twice (every score is perfect)",
                            {"reference": k, "identical": same}))
    first = [r[0] for r in refs if r]
    c_rate, _ = _systemish(cands)
    r_rate, r_hits = _systemish(first)
    if r_rate >= 0.3 and r_rate >= 3 * max(c_rate, 0.02):
        out.append(Trap("references-swapped",
                        f"the references look like system output and the candidates do not ({r_rate:.0%} of "
                        f"reference lines vs {c_rate:.0%} of candidate lines have <unk>, tokenized punctuation or "
                        "repeated words): are the files swapped? Then precision and recall are swapped too "
                        f"(e.g. {_ex(r_hits, 2)})",
                        {"reference_rate": r_rate, "candidate_rate": c_rate, "reference_lines": r_hits[:10]}))
    return out


def pretokenized(candidates: Sequence[str]) -> list[Trap]:
    """sacreBLEU's heuristic (``BLEU.corpus_score``): 100 or more candidates ending in " ." mean "It looks like you
    forgot to detokenize your test data"; the lines that trip it, and whether sacreBLEU itself would say so."""
    lines = [(i + 1, c) for i, c in enumerate(candidates) if c.endswith(" .")]
    if not lines:
        return []
    n = len(lines)
    fires = n >= SACREBLEU_DETOK_LINES
    shown = [f"line {i}: …{c[-40:]}" for i, c in lines[:5]]
    if fires:
        msg = (f"{n} candidate lines end in a tokenized period (' .'): sacreBLEU warns \"It looks like you forgot to "
               "detokenize your test data, which may hurt your score\" (its threshold is 100 lines); sacreBLEU "
               "tokenizes again, so detokenize first")
    elif n >= 3 and n >= 0.3 * len(candidates):
        msg = (f"{n} of {len(candidates)} candidate lines end in a tokenized period (' .'): below sacreBLEU's "
               "100-line threshold, so it says nothing, but the text looks tokenized already; detokenize first")
    else:
        return []
    return [Trap("pretokenized", msg + f" ({_ex(shown, 3)})",
                 {"lines": [i for i, _ in lines[:SAMPLE]], "count": n, "sacrebleu_warns": fires})]


def layout_traps(candidates: Sequence[str], references: Sequence[Sequence[str]], *, corpus: bool = True
                 ) -> list[Trap]:
    """The checks every family shares: the references' layout, then (unless the references are transposed, which
    makes the rest meaningless) swapped files. A family adds its own after these."""
    out = reference_layout(candidates, references, corpus=corpus)
    if any(t.code == "references-transposed" for t in out):
        return out
    return out + swapped_files(candidates, references)
