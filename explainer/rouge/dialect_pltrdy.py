"""The ``rouge`` package 1.0.1 (pltrdy, ``from rouge import Rouge``) and ``rouge-chinese`` 1.0.3 over ``jieba``
0.42.1 (``Rouge().get_scores(" ".join(jieba.cut(c)), " ".join(jieba.cut(r)))``, the recipe of the Chinese LLM
fine-tuning scripts). rouge-chinese is a fork of the rouge package; both are reproduced here.

What they do (rouge/rouge.py, rouge/rouge_score.py; rouge_chinese/ the same files):

* sentences: pltrdy splits the text at EVERY ``.`` (``hyp.split(".")``: decimals and abbreviations too), keeps the
  pieces that are not empty, and collapses whitespace in each (``" ".join(piece.split())``); rouge-chinese splits
  after ``。！？?``, ``......``, ``……`` (and closing quotes) and at newlines (``cut_sent``);
* tokens: each sentence ``.split(" ")``, no lowercasing, punctuation other than the split points stays attached
  ("cat," is not "cat"); a piece of only spaces (``". "`` at the end of a text) becomes a sentence ``""`` whose one
  token is the empty string;
* ROUGE-N over the words of all sentences (n-grams cross sentence boundaries), counted as SETS by default
  (``exclusive=True``): a repeated n-gram counts once, on both sides; ``exclusive=False`` counts lists (clipped);
* ROUGE-L: pltrdy's is summary level: for each reference sentence, the LCS with each candidate sentence,
  reconstructed as a list of WORDS (``_recon_lcs``; on a tie it drops a candidate word) and united as a set of
  words over all reference sentences; hits = number of distinct words in that union, m and n = distinct words of
  the reference and candidate. rouge-chinese's ROUGE-L is one LCS over all tokens (lists, lengths with repeats);
* F = 2 · (P·R / (P + R + 1e-8)): never exactly the harmonic mean (1e-8 in the denominator);
* an empty candidate / reference (no sentence left) raises ``ValueError("Hypothesis is empty.")`` /
  ``("Reference is empty.")``; several references are not supported (one reference per candidate: with several,
  the explainer keeps the best F, as a loop over the references would); a corpus is the mean of P, R and F
  (``get_scores(..., avg=True)``).

See docs/dialects-packages.md.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from explainer.options import OptionSpec
from explainer.rouge import lcs as lcs_mod
from explainer.rouge import limits
from explainer.rouge.aggregate import mean_scores
from explainer.rouge.dialects import RougeDialect, multi_ref_option
from explainer.rouge.jieba_words import jieba_cut
from explainer.rouge.ngrams import ngram_counts, ngram_table
from explainer.rouge.tokenize import Sentence, TokenizedText, Tokenizer
from explainer.rouge.trace import TypeResult
from explainer.search_space import point
from explainer.text import Token

__all__ = ["PltrdyDialect", "RougeChineseDialect", "pltrdy_f", "recon_lcs_words", "recon_lcs_pairs", "RECURSION_STEPS"]

_EXCLUSIVE = OptionSpec("exclusive", "bool", True,
                        "Rouge(exclusive=True) (the default): n-grams and words counted as SETS (a repeated n-gram "
                        "counts once); false: as lists, clipped", label="count distinct n-grams (sets)")


def pltrdy_f(p: float, r: float) -> float:
    """``f_r_p_rouge_n`` / ``rouge_l_summary_level``: ``2.0 * ((p * r) / (p + r + 1e-8))``."""
    return 2.0 * ((p * r) / (p + r + 1e-8))


def recon_lcs_words(x: list[str], y: list[str]) -> list[tuple[str, int, int]]:
    """``_recon_lcs(x, y)`` of the rouge package: the LCS of ``x`` (reference words) and ``y`` (candidate words)
    read back from the end: equal words go diagonal; else up (drop a reference word) when
    ``table[i-1, j] > table[i, j-1]``, otherwise left (drop a candidate word). Returns (word, i, j) in order
    (0-based positions in x and y); ``recon_lcs_words.last_steps``: the read-back's steps."""
    pairs, steps = recon_lcs_pairs(x, y)
    recon_lcs_words.last_steps = steps       # the package's _recon recurses once per step
    return [(x[i], i, j) for i, j in pairs]


def recon_lcs_pairs(x: Sequence[str], y: Sequence[str]) -> tuple[list[tuple[int, int]], int]:
    """``_recon_lcs``'s (i, j) pairs, from the bit-parallel table (``lcs.backtrack`` with the package's tie rule:
    a candidate word is dropped on ties), and the number of read-back steps. After the first pair (i0, j0) every
    table value left is 0, so the read-back only moves left: ``steps = (n - i0) + m - L``."""
    n, m = len(x), len(y)
    if not n or not m:
        return [], 0
    pairs = lcs_mod.lcs_pairs(x, y, drop_candidate_on_ties=True)
    return pairs, (n - (pairs[0][0] if pairs else n)) + m - len(pairs)


#: the package's ``_recon`` recurses once per read-back step; beyond about this many steps (Python's default limit
#: of 1,000 frames, less the ~10 frames above it) the real package raises RecursionError
RECURSION_STEPS = 990


def _memo_recon():
    """``recon_lcs_pairs`` remembered per (reference sentence, candidate sentence) for one call."""
    memo: dict = {}

    def recon(rs: tuple, cs: tuple):
        got = memo.get((rs, cs))
        if got is None:
            got = memo[(rs, cs)] = recon_lcs_pairs(rs, cs)
        return got

    return recon


class _SplitTokenizer(Tokenizer):
    """Only for the dropped-words report of the trace (the tokens are the dialect's own)."""

    def __init__(self, name: str, drops_what: str) -> None:
        self.name = name
        self.drops_what = drops_what


def _locate(text: str, tokens: list[str]) -> list[Token]:
    """Each token found verbatim in ``text``, left to right (the tokens are substrings of it); "" has no span."""
    out, pos = [], 0
    for t in tokens:
        j = text.find(t, pos) if t else -1
        if j < 0:
            out.append(Token(t, None, None))
            continue
        out.append(Token(t, j, j + len(t)))
        pos = j + len(t)
    return out


class PltrdyDialect(RougeDialect):
    name = "pltrdy"
    label = "rouge 1.0.1 (pltrdy, from rouge import Rouge)"
    implementation = "rouge 1.0.1"
    description = ("The rouge package: sentences split at every '.', words split on spaces (case and punctuation "
                   "kept), n-grams counted as sets, summary-level ROUGE-L over distinct words, "
                   "F = 2·PR/(P+R+1e-8); one reference per candidate.")
    native_kinds = frozenset({"N", "L"})
    supported_kinds = frozenset({"N", "L"})
    default_types = ("rouge1", "rouge2", "rougeL")
    #: the highest ROUGE-N the package defines (rouge-1 .. rouge-5)
    max_n = 5
    #: get_scores pairs each candidate with ONE reference: several are the explainer's best-F loop, not the package
    multi_reference = False
    f_epsilon = 1e-8
    short_label = "rouge (pltrdy)"
    rank = 6
    search_multi_ref = (("best-f", 0.0, ""),)
    #: the package's metric names
    METRIC_NAMES = {"rougeL": "rouge-l", **{f"rouge{n}": f"rouge-{n}" for n in range(1, 6)}}
    OPTIONS = (_EXCLUSIVE, multi_ref_option("best-f", ("best-f",)))
    splitter_label = "every '.' (rouge 1.0.1: text.split('.'), empty pieces dropped, whitespace collapsed)"
    _report = _SplitTokenizer("rouge (pltrdy)", "splits sentences at '.' and words at spaces")

    def _setup(self) -> None:
        super()._setup()
        self.exclusive = bool(self.options["exclusive"])

    # ---- the work of the summary-level ROUGE-L -----------------------------------------------------------
    #: ROUGE-L is summary level here: one LCS per (reference sentence, candidate sentence)
    summary_kinds = frozenset({"L"})

    def summary_work(self, cand: TokenizedText, preps) -> tuple[int, int]:
        """ROUGE-L reads back one LCS per pair of DISTINCT sentences (equal pairs are read once): at most
        ``LSUM_MAX_PAIRS`` such pairs and ``LSUM_MAX_CELLS`` table cells per call, over all references, checked
        before any scoring. Returns every pair's (sentence pairs, cells): the trace records each pair."""
        if not any(t.kind == "L" for t in self.types):
            return 0, 0
        c_sents = cand.sentence_tokens or []
        c_distinct = {tuple(s) for s in c_sents}
        c_tokens, c_distinct_tokens = sum(map(len, c_sents)), sum(map(len, c_distinct))
        pairs = cells = distinct_pairs = distinct_cells = 0
        for p in preps:
            r_sents = p.sentence_tokens or []
            r_distinct = {tuple(s) for s in r_sents}
            pairs += len(r_sents) * len(c_sents)
            cells += sum(map(len, r_sents)) * c_tokens
            distinct_pairs += len(r_distinct) * len(c_distinct)
            distinct_cells += sum(map(len, r_distinct)) * c_distinct_tokens
        max_pairs, max_cells = limits.LSUM_MAX_PAIRS, limits.LSUM_MAX_CELLS
        over = ((f"{distinct_pairs:,} pairs of distinct sentences, over the explainer's limit of {max_pairs:,}"
                 " (explainer.rouge.limits.LSUM_MAX_PAIRS)") if distinct_pairs > max_pairs else
                (f"{distinct_cells:,} table cells, over the explainer's limit of {max_cells:,} "
                 "(explainer.rouge.limits.LSUM_MAX_CELLS)") if distinct_cells > max_cells else None)
        if over:
            why = (f"{self.short_label}'s ROUGE-L compares every reference sentence with every candidate sentence "
                   f"(sentences end at every '.'): {over}")
            raise limits.SummaryWorkTooLarge(f"{why}. Shorten the texts, use fewer references, or leave rougeL out.",
                                      ("rougeL",), {"rougeL": why})
        return pairs, cells

    @classmethod
    def f_rule(cls, options: dict) -> str:
        return "F = 2·(P·R / (P + R + 1e-8)), never exactly F1"

    @classmethod
    def search_configs(cls, context):
        """Its default and the one switch people change; one segment only (the corpus search covers the
        implementations papers report corpus ROUGE with: rouge-score, HF evaluate, ROUGE-1.5.5, the textbook)."""
        if context.corpus:
            return []
        return [point({}, 0.5), point({"exclusive": False}, 1.5, "Rouge(exclusive=False)")]

    @classmethod
    def comparison_rows(cls, texts=()) -> list[dict]:
        return [{"options": {}, "id": cls.name, "label": cls.label, "note": cls.row_note}]

    @classmethod
    def rouge_l_words(cls, options: dict) -> dict:
        """``rouge_l_summary_level``: the union of the LCS words of every (reference sentence, candidate sentence)."""
        ex = options.get("exclusive", True)
        what = "distinct words" if ex else "words"
        return {"key": ("The rouge package's ROUGE-L is summary level: each reference sentence's LCS with every "
                        "candidate sentence, read back as words, all united "
                        + ("as a set (a word counts once)" if ex else "as a list (a word counts each time it is found)")
                        + f". The hits are the {what} of that union, not the length of one LCS, and P and R divide by "
                          f"the candidate's and the reference's {what}."),
                "hits": "union of LCS words", "cand": f"candidate {what}", "ref": f"reference {what}", "note": ""}

    row_note = "from rouge import Rouge: sentences at '.', words at spaces, n-grams as sets, F with 1e-8"

    def check_types(self, types):
        for rtype in types:
            if rtype.kind not in self.supported_kinds or (rtype.kind == "N" and rtype.n > self.max_n):
                raise ValueError(f"the {self.name} dialect defines rouge1..rouge5 and rougeL only "
                                 f"(the package's rouge-1..rouge-5, rouge-l), not {rtype.name}")
        return []

    # ---- tokens ----------------------------------------------------------------------------------
    @property
    def splitter(self) -> str:
        return self.splitter_label

    def tokenizer_name(self) -> str:
        return "str.split(' ') of each sentence (case and punctuation kept)"

    def stemmer_name(self):
        return None

    def segmented(self, text: str) -> str:
        """The text the package is given (rouge-chinese: after jieba)."""
        return text

    def raw_sentences(self, text: str) -> list[str]:
        return text.split(".")

    def sentences_of(self, text: str) -> list[str]:
        """``[" ".join(_.split()) for _ in <split>(text) if len(_) > 0]``, as get_scores builds them."""
        return [" ".join(p.split()) for p in self.raw_sentences(self.segmented(text)) if len(p) > 0]

    def prepare(self, text: str, *, need_sents: bool, full: bool, what: str = "text") -> TokenizedText:
        sents = self.sentences_of(text)
        sent_tokens = [s.split(" ") for s in sents]
        tokens = [t for st in sent_tokens for t in st]
        if not full:
            tt = TokenizedText(text, tokens)
        else:
            spans = _locate(text, tokens)
            tt = TokenizedText(text, tokens, list(tokens), spans, located=True)
            self._report.find_dropped(tt, what)
            notes = [tt.message] if tt.message else []
            if not sents:
                which = "Hypothesis" if what == "candidate" else "Reference"
                notes.append(f"the real package raises ValueError(\"{which} is empty.\") on this {what}: no "
                             f"sentence is left after splitting it; the explainer scores it 0")
            elif "" in tokens:
                notes.append(f"this {what} has {tokens.count('')} empty token(s): a piece of only spaces between "
                             "sentence ends (e.g. after the last '.') is kept as a sentence \"\", and \"\".split(' ') "
                             "is ['']; the empty string is then a word like any other")
            tt.message = "; ".join(notes) or None
        starts = _locate(text, tokens) if full else None
        objs, k = [], 0
        for i, (s, st) in enumerate(zip(sents, sent_tokens)):
            a = b = 0
            if starts is not None:
                located = [sp for sp in starts[k:k + len(st)] if sp.start is not None]
                if located:
                    a, b = located[0].start, located[-1].end
            objs.append(Sentence(i, s, a, b))
            k += len(st)
        # the sentences are always read (ROUGE-L needs them); the trace shows them when a summary-level type is asked
        tt.sentences, tt.sentence_tokens = (objs if need_sents else None), sent_tokens
        return tt

    # ---- scoring ---------------------------------------------------------------------------------
    def fmeasure(self, p: float, r: float) -> float:
        return pltrdy_f(p, r)

    def _score_n(self, rtype, c, r, full):
        n = rtype.n
        cc, rc = ngram_counts(c, n), ngram_counts(r, n)
        if self.exclusive:
            hits = sum(1 for g in cc if g in rc)
            rtot, ctot = len(rc), len(cc)
        else:
            hits = sum(min(v, rc[g]) for g, v in cc.items() if g in rc)
            rtot, ctot = sum(rc.values()), sum(cc.values())
        detail = None
        if full:
            rows = ngram_table(r, c, n)
            if self.exclusive:
                for row in rows:
                    row["overlap"] = 1 if row["overlap"] else 0
            detail = {"n": n, "ngrams": rows, "counting": (
                "sets (exclusive=True): each distinct n-gram counts once on each side; hits = distinct n-grams "
                "in both" if self.exclusive else "lists (exclusive=False): clipped counts")}
        return hits, rtot, ctot, detail

    def _score_l(self, c, r, full):
        raise AssertionError("score_type handles rougeL")  # pragma: no cover

    def score_type(self, rtype, cand: TokenizedText, ref: TokenizedText, *, full: bool) -> TypeResult:
        empty = not cand.sentence_tokens or not ref.sentence_tokens     # the package raises ValueError here
        if rtype.kind == "L":
            hits, rtot, ctot, detail = self._lcs(cand, ref, full)
            p, r = (0.0, 0.0) if empty else (hits / ctot, hits / rtot)
            res = TypeResult(rtype.name, hits, rtot, ctot, self._score(p, r), detail)
        else:
            res = super().score_type(rtype, cand, ref, full=full)
        if empty:
            res.score = self._zero()
            if full:
                msg = ("Collections must contain at least 1 sentence." if rtype.kind == "L"
                       else "Hypothesis is empty." if not cand.sentence_tokens else "Reference is empty.")
                res.detail["library_error"] = f"ValueError: {msg}"
        return res

    def _zero(self):
        from explainer.rouge.scoring import Score

        return Score(0.0, 0.0, 0.0)

    def _score(self, p, r):
        from explainer.rouge.scoring import Score

        return Score(p, r, pltrdy_f(p, r))

    def _flat_lcs(self, cand: TokenizedText, ref: TokenizedText) -> dict:
        """The LCS of all reference and candidate words with its table (``lcs_length``, ``pairs``, ``table``, …)."""
        from explainer.rouge.dialects import LCS_TIE_RULE

        r, c = ref.tokens, cand.tokens
        res = lcs_mod.lcs(r, c)
        return {"lcs_length": res.length, "pairs": [list(p) for p in res.pairs], "ref_indices": res.ref_indices,
                "cand_indices": res.cand_indices, "table": lcs_mod.table_form(res, len(r), len(c)),
                "alternative_lcs_exists": lcs_mod.alternative_exists(r, c, res), "tie_rule": LCS_TIE_RULE}

    def _lcs(self, cand: TokenizedText, ref: TokenizedText, full: bool):
        """``rouge_l_summary_level``: the union of LCS words over every (reference sentence, candidate sentence).
        Equal sentence pairs have the same LCS: each distinct pair is read back once, and counted as often as it
        occurs."""
        ex = self.exclusive
        m = len(set(ref.tokens)) if ex else len(ref.tokens)
        n = len(set(cand.tokens)) if ex else len(cand.tokens)
        recon = _memo_recon()
        r_count = Counter(tuple(s) for s in ref.sentence_tokens)
        c_count = Counter(tuple(s) for s in cand.sentence_tokens)
        words: set = set()
        listed = deepest = 0
        for rs, kr in r_count.items():
            for cs, kc in c_count.items():
                pairs, steps = recon(rs, cs)
                deepest = max(deepest, steps)
                if ex:
                    words |= {rs[i] for i, _ in pairs}
                else:
                    listed += len(pairs) * kr * kc
        hits = len(words) if ex else listed
        if not full:
            return hits, m, n, None
        # the LCS of all words (the keys every ROUGE-L trace has, for the table and the alignment), then the
        # package's own counting: the union of the LCS words per sentence pair
        detail = dict(self._flat_lcs(cand, ref))
        detail.update(self._per_pair(cand, ref, recon))
        detail.update({"ref_words": m, "cand_words": n, "hits": hits,
                       "rule": ("hits = distinct words in the union of the LCS words of every (reference sentence, "
                                "candidate sentence) pair; m, n = distinct words" if ex else
                                "hits = sum of the LCS lengths of every (reference sentence, candidate sentence) "
                                "pair; m, n = words"),
                       "package_tie_rule": "rouge _recon_lcs: diagonal on equal words; else up (drop a reference "
                                           "word) when table[i-1][j] > table[i][j-1], otherwise left (drop a "
                                           "candidate word)",
                       "recursion_steps": deepest})
        if deepest >= RECURSION_STEPS:
            detail["library_error"] = (
                f"RecursionError: the package reads each LCS back recursively, one call per step; the longest "
                f"read-back here takes {deepest} steps, beyond Python's default limit of 1,000 frames, so the "
                "real package fails on this pair (the explainer computes the value it would return)")
        return hits, m, n, detail

    def _per_pair(self, cand: TokenizedText, ref: TokenizedText, recon) -> dict:
        """The trace's record of every sentence pair in order (``per_ref_sentence``) and the union as the package
        builds it (a list when ``exclusive=False``). The engine keeps it to ``SUMMARY_TRACE_MAX_PAIRS`` pairs
        (``summary_work``; above, the scores only)."""
        ex = self.exclusive
        union: set | list = set() if ex else []
        steps = []
        for ri, rs in enumerate(ref.sentence_tokens):
            prev = len(union)
            per = []
            for ci, cs in enumerate(cand.sentence_tokens):
                pairs, _ = recon(tuple(rs), tuple(cs))
                lcs_words = [rs[i] for i, _ in pairs]
                if ex:
                    union |= set(lcs_words)
                else:
                    union.extend(lcs_words)
                per.append({"cand_sentence": ci, "lcs": lcs_words, "pairs": [[i, j] for i, j in pairs]})
            steps.append({"ref_sentence": ri, "lcs_per_cand_sentence": per, "new_words": len(union) - prev})
        return {"union": sorted(union) if ex else list(union), "per_ref_sentence": steps}

    # ---- what the package returns ------------------------------------------------------------------
    def reported(self, scores):
        return {self.METRIC_NAMES.get(t, t): {"r": s.recall, "p": s.precision, "f": s.fmeasure}
                for t, s in scores.items()}

    def call_snippet(self, n_refs):
        if n_refs != 1:
            return None
        metrics = [self.METRIC_NAMES[t] for t in self.type_names]
        args = [] if metrics == ["rouge-1", "rouge-2", "rouge-l"] else [f"metrics={metrics!r}"]
        if not self.exclusive:
            args.append("exclusive=False")
        return (f"{self.import_line}\nscores = Rouge({', '.join(args)}).get_scores({self.wrap('candidate')}, "
                f"{self.wrap('reference')})[0]  # candidate FIRST")

    import_line = "from rouge import Rouge  # pip install rouge==1.0.1"

    def wrap(self, name: str) -> str:
        return name

    def aggregate(self, per_type):
        agg = mean_scores(per_type)
        return agg, {"method": "mean", "note": "get_scores(hyps, refs, avg=True): the mean of P, of R and of F"}, \
            {self.METRIC_NAMES.get(t, t): {"r": s.recall, "p": s.precision, "f": s.fmeasure} for t, s in agg.items()}


# ------------------------------------------------------------------------------------------- rouge-chinese
_CUT = (
    (re.compile(r"([。！？\?])([^”’])"), r"\1\n\2"),
    (re.compile(r"(\.{6})([^”’])"), r"\1\n\2"),
    (re.compile(r"(\…{2})([^”’])"), r"\1\n\2"),
    (re.compile(r"([。！？\?][”’])([^，。！？\?])"), r"\1\n\2"),
)


def cut_sent(para: str) -> list[str]:
    """rouge-chinese's ``Rouge.cut_sent``: a line break after 。！？? (not before a closing quote), after six dots,
    after two ellipses, after an end mark and its closing quote; then ``rstrip`` and ``split("\\n")``."""
    for pat, rep in _CUT:
        para = pat.sub(rep, para)
    return para.rstrip().split("\n")


class RougeChineseDialect(PltrdyDialect):
    name = "rouge-chinese"
    label = "rouge-chinese 1.0.3 over jieba 0.42.1"
    implementation = "rouge-chinese 1.0.3, jieba 0.42.1"
    description = ("The Chinese fine-tuning scripts' recipe: jieba word segmentation, rouge-chinese's get_scores "
                   "(a fork of the rouge package: sentences cut after 。！？, n-grams as sets, ROUGE-L one LCS over "
                   "all words, F = 2·PR/(P+R+1e-8)).")
    OPTIONS = (OptionSpec("jieba", "bool", True, "segment with jieba first (\" \".join(jieba.cut(text))); false: "
                          "the text is already split into words by spaces", label="jieba segmentation"),
               _EXCLUSIVE, multi_ref_option("best-f", ("best-f",)))
    splitter_label = "after 。！？? and ellipses, and at newlines (rouge-chinese cut_sent)"
    summary_kinds = RougeDialect.summary_kinds       # its ROUGE-L is one LCS over all words
    summary_work = RougeDialect.summary_work
    short_label = "rouge-chinese + jieba"
    row_note = "rouge-chinese over jieba words, as the Chinese fine-tuning scripts score"
    _report = _SplitTokenizer("rouge-chinese", "splits words at spaces (after jieba)")
    import_line = "import jieba\nfrom rouge_chinese import Rouge  # pip install rouge-chinese==1.0.3 jieba==0.42.1"

    @classmethod
    def search_configs(cls, context):
        """Its default, for text in a script written without spaces (what jieba segments); one segment only."""
        return [point({}, 0.5)] if context.no_space_script and not context.corpus else []

    @classmethod
    def rouge_l_words(cls, options: dict) -> dict:
        return {"key": ("rouge-chinese's ROUGE-L is ONE LCS of all the candidate's and all the reference's words (the "
                        "sentences play no part, unlike the rouge package it forks); P and R divide by the numbers of "
                        "words, repeats included."),
                "hits": "LCS", "cand": "candidate words", "ref": "reference words", "note": ""}

    def wrap(self, name: str) -> str:
        return f"' '.join(jieba.cut({name}))" if self.options["jieba"] else name

    def tokenizer_name(self) -> str:
        return ("jieba.cut (accurate mode, HMM), then str.split(' ')" if self.options["jieba"]
                else "str.split(' ') of each sentence")

    def segmented(self, text: str) -> str:
        return " ".join(jieba_cut(text)) if self.options["jieba"] else text

    def raw_sentences(self, text: str) -> list[str]:
        return cut_sent(text)

    def _lcs(self, cand: TokenizedText, ref: TokenizedText, full: bool):
        """rouge-chinese's ``rouge_l_summary_level``: ONE LCS of all reference words and all candidate words (lists:
        repeats count), m and n = numbers of words; the sentences play no part."""
        r, c = ref.tokens, cand.tokens
        if not full:
            return lcs_mod.lcs_length(r, c), len(r), len(c), None
        detail = dict(self._flat_lcs(cand, ref),
                      rule="rouge-chinese 1.0.3: one LCS over all words (not summary level, unlike the rouge package "
                           "it forks), m and n = words with repeats")
        return detail["lcs_length"], len(r), len(c), detail
