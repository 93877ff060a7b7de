"""sacreBLEU 2.6 ``TER`` (``TER(...).corpus_score`` / ``sentence_score``).

The tokenizer is sacreBLEU's own (``TER._preprocess_segment``: ``TercomTokenizer`` after ``rstrip``). sacreBLEU
tokenizes a *reference* twice (``Metric._cache_references`` preprocesses it, then ``TER._extract_reference_info``
preprocesses the result again); with ``normalized`` the second pass can change it ("2023's's" → "2023's 's",
"&amp;quot;" → '"'), so the references here go through the same two calls. The edits of
one pair its own ``lib_ter.translation_edit_rate`` (the trace: the same search recorded, ``explainer/ter/shifts.py``),
the score its own ``TER._compute_score_from_stats``, the corpus sums its own ``sum_of_lists`` and the signature its
own ``TERSignature``. Reference: ``sacrebleu/metrics/ter.py``, ``lib_ter.py``, ``tokenizers/tokenizer_ter.py``.
"""
from __future__ import annotations

from typing import Sequence

import sacrebleu
from sacrebleu.metrics.lib_ter import translation_edit_rate
from sacrebleu.metrics.ter import TER
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
from sacrebleu.utils import sum_of_lists

from explainer.options import OptionSpec
from explainer.search_space import point
from explainer.ter import shifts
from explainer.ter.dialects import LibraryError, LibraryWarning, TerCombination, TerDialect, g
from explainer.text import has_no_space_script

__all__ = ["SacreTerDialect"]

#: ``_normalize_general_and_western``'s literal replacements, in its order (after lowercasing)
_NORMALIZED_REPLACEMENTS = (("\n-", ""), ("\n", " "), ("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"),
                            ("&gt;", ">"))
#: ``_remove_punct``'s characters, and ``_remove_asian_punct``'s
_PUNCT = r"[\.,\?:;!\"\(\)]"
_ASIAN_PUNCT = TercomTokenizer.ASIAN_PUNCT[1:-1] + "|" + TercomTokenizer.FULL_WIDTH_PUNCT[1:-1]


class SacreTerDialect(TerDialect):
    name = "sacrebleu"
    label = "sacreBLEU"
    implementation = f"sacrebleu {sacrebleu.__version__}"
    description = ("sacreBLEU's TER (a reimplementation of Tercom): shifts found greedily, then a word edit "
                   "distance with a beam; the reference with the fewest edits per segment, the mean reference "
                   "length; statistics summed over the corpus; score 100 · edits / reference length.")
    short_label = "sacreBLEU"
    rank = 0
    sacrebleu_significance = True
    cli_flags = {f: f for f in ("normalized", "no_punct", "asian_support", "case_sensitive")}
    OPTIONS = (
        OptionSpec("normalized", "bool", False,
                   "Tercom's normalization: punctuation split off, entities (&quot; &amp; &lt; &gt;) decoded, line "
                   "breaks joined (CJK characters split with asian_support)"),
        OptionSpec("no_punct", "bool", False, "remove the punctuation . , ? : ; ! \" ( ) (and CJK punctuation "
                                              "with asian_support)"),
        OptionSpec("asian_support", "bool", False,
                   "CJK text: only with normalized (characters split) or no_punct (CJK punctuation removed)"),
        OptionSpec("case_sensitive", "bool", False, "keep the case (sacreBLEU's TER lowercases by default)"),
    )

    @classmethod
    def search_configs(cls, context):
        """Every combination of the four switches (asian_support only where it acts: with normalized or no_punct;
        it costs less for text in a script written without spaces): sacreBLEU's defaults first, Tercom's -N
        (normalized) and case kept next."""
        asian_cost = 0.5 if context.no_space_script else 2.0
        out = []
        for norm in (False, True):
            for punct in (False, True):
                for asian in ((False, True) if norm or punct else (False,)):
                    for case in (False, True):
                        opts = {k: True for k, on in (("normalized", norm), ("no_punct", punct),
                                                      ("asian_support", asian), ("case_sensitive", case)) if on}
                        out.append(point(opts, 1.0 * norm + 1.5 * punct + asian_cost * asian + 1.0 * case,
                                         "normalized=True (Tercom -N)" if norm else "",
                                         "no_punct=True (punctuation removed)" if punct else "",
                                         "asian_support=True" if asian else "",
                                         "case_sensitive=True (case kept)" if case else ""))
        return sorted(out, key=lambda p: p.cost)

    @classmethod
    def comparison_rows(cls, texts=()) -> list[dict]:
        """sacreBLEU's defaults, then each switch people turn on (asian_support with normalized for text in a
        script written without spaces)."""
        rows = [{"options": {}, "id": cls.name, "label": "sacreBLEU TER", "note": cls.description},
                {"options": {"normalized": True}, "id": f"{cls.name}:normalized", "label": "sacreBLEU TER, normalized",
                 "note": "Tercom's normalization (-N): punctuation split off, entities decoded"},
                {"options": {"case_sensitive": True}, "id": f"{cls.name}:case", "label": "sacreBLEU TER, case kept",
                 "note": "case_sensitive=True: upper and lower case are different words"},
                {"options": {"no_punct": True}, "id": f"{cls.name}:no_punct", "label": "sacreBLEU TER, no punctuation",
                 "note": "no_punct=True: . , ? : ; ! \" ( ) removed"}]
        if has_no_space_script(texts):
            rows.append({"options": {"normalized": True, "asian_support": True}, "id": f"{cls.name}:asian",
                         "label": "sacreBLEU TER, normalized, asian support",
                         "note": "CJK characters split one by one (normalized with asian_support)"})
        return rows

    def _setup(self) -> None:
        o = self.options
        self._ter = TER(normalized=o["normalized"], no_punct=o["no_punct"], asian_support=o["asian_support"],
                        case_sensitive=o["case_sensitive"])

    @property
    def library_metric(self) -> TER:
        """sacreBLEU's own TER object with these options (the parity tests and the resampling use it)."""
        return self._ter

    # ---- texts (TER._preprocess_segment)
    def tokenize(self, text: str) -> str:
        return self._ter._preprocess_segment(text)

    def reference_words(self, text: str) -> list[str]:
        """``_cache_references`` then ``_extract_reference_info``: the tokenizer applied twice."""
        return self._ter._extract_reference_info([self._ter._preprocess_segment(text)])["ref_words"][0]

    def tokenize_passes(self, text: str, reference: bool = False) -> list[str]:
        first = self.tokenize(text)
        return [first, " ".join(self._ter._extract_reference_info([first])["ref_words"][0])] if reference else [first]

    def view_rules(self) -> dict:
        o = self.options
        removed = None
        if o["no_punct"]:
            removed = _PUNCT + ("|" + _ASIAN_PUNCT if o["asian_support"] else "")
        return {"lowercase": not o["case_sensitive"],
                "replacements": _NORMALIZED_REPLACEMENTS if o["normalized"] else (), "removed": removed}

    def preprocess_changes(self, text: str, passes: list[str]) -> list[dict]:
        o = self.options
        out = []
        if not o["case_sensitive"] and text.lower() != text:
            out.append({"step": "lowercase", "detail": "str.lower() applied (case_sensitive is off)"})
        if o["normalized"]:
            out.append({"step": "normalized", "detail": "punctuation split off words, &quot; &amp; &lt; &gt; "
                        "decoded, line breaks joined" + ("; CJK characters split one by one"
                                                         if o["asian_support"] else "")})
        if o["no_punct"]:
            out.append({"step": "no_punct", "detail": "punctuation . , ? : ; ! \" ( ) removed"
                        + (" and CJK punctuation" if o["asian_support"] else "")})
        if len(passes) > 1 and passes[0] != passes[-1]:
            out.append({"step": "tokenized twice", "detail": "sacreBLEU tokenizes a reference twice "
                        f"(_cache_references, then _extract_reference_info): the first pass gives {passes[0]!r}, "
                        f"the second {passes[-1]!r}"})
        return out

    # ---- edits
    def edits(self, words_h, words_r) -> tuple[int, int]:
        return translation_edit_rate(words_h, words_r)

    def explain_pair(self, words_h, words_r, budget=None, index: int = 0):
        return shifts.search(words_h, words_r, index, budget)

    def sum_stats(self, segment_stats) -> list:
        return list(sum_of_lists(list(segment_stats)))

    def combine(self, stats: Sequence[float]) -> TerCombination:
        """``TER._compute_score_from_stats``, with its three cases in words."""
        res = self._ter._compute_score_from_stats(stats)
        edits, length = stats[0], stats[1]
        if length > 0:
            rule = "ratio"
            formula = f"TER = 100 · {g(edits)} / {g(length)} = {g(res.score)}"
            expl = "the edits divided by the (average) reference length"
        elif edits > 0:
            rule = "empty-reference"
            formula = f"TER = 100 (reference length 0, {g(edits)} edits)"
            expl = "the reference is empty and the hypothesis is not: sacreBLEU scores 1.0, i.e. 100"
        else:
            rule = "empty"
            formula = "TER = 0 (reference and hypothesis both empty)"
            expl = "nothing to edit and nothing to compare with: sacreBLEU scores 0"
        ter = edits / length if length > 0 else (1.0 if edits > 0 else 0.0)
        return TerCombination(edits, length, res.score, ter, rule, formula, expl)

    # ---- signature and library behaviour
    def signature(self, nrefs) -> str:
        o = self.options
        m = TER(normalized=o["normalized"], no_punct=o["no_punct"], asian_support=o["asian_support"],
                case_sensitive=o["case_sensitive"])
        m.num_refs = -1 if nrefs == "var" else nrefs
        return m.get_signature().format()

    def check_inputs(self, candidates, references, *, corpus):
        warns: list[LibraryWarning] = []
        o = self.options
        if o["asian_support"] and not (o["normalized"] or o["no_punct"]):
            warns.append(LibraryWarning("explainer", "asian_support changes nothing without normalized or "
                                                     "no_punct (sacreBLEU's tokenizer applies it only there); it is "
                                                     "still in the signature (asian:yes)"))
        err = None
        if corpus and not candidates:
            err = LibraryError("IndexError", "list index out of range",
                               "the real library fails here because there is no candidate")
        return warns, err
