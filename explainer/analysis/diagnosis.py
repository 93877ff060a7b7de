"""“Why is this score zero / low?” — plain-language findings read off the traces. Pure: no Streamlit.

Each finding names the step that costs the points, with the trace's own numbers, in the words of the page (no
function names of the libraries). The cause comes first — words with no counterpart (synonyms, number formats),
orders the candidate is too short to have, the brevity penalty, case, tokenization, Unicode — and the mechanics
(what smoothing does with a zero) after it. Texts in findings are plain text; the page escapes them.
"""
from __future__ import annotations

import math
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from explainer.analysis.bleu_terms import smoothing_in_use, value_in_log

__all__ = ["Finding", "diagnose_bleu", "diagnose_rouge", "has_spaceless_text", "NUMBER_WORDS"]


@dataclass(frozen=True)
class Finding:
    level: str   # "error" (the score is 0 / the library fails), "warning" (costs a lot), "info"
    title: str
    text: str
    code: str    # stable id for tests: no_ngrams, zero_matches, bp, case, punct, no_spaces, unmatched_words, ...


# ------------------------------------------------------------------------------------------------- wording
def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _quote(tokens: Sequence[str], limit: int = 6) -> str:
    shown = [f"‘{t}’" for t in tokens[:limit]]
    more = f" and {len(tokens) - limit} more" if len(tokens) > limit else ""
    return ", ".join(shown) + more


def _plural(k: int, word: str, plural: str | None = None) -> str:
    """``1 token``, ``2 tokens``."""
    return f"{k} {word if k == 1 else (plural or word + 's')}"


def _orders_list(ns: Sequence[int]) -> str:
    """[2, 3, 4] -> '2-, 3- or 4-grams'; [4] -> '4-grams'."""
    if len(ns) == 1:
        return f"{ns[0]}-grams"
    return ", ".join(f"{n}-" for n in ns[:-1]) + f" or {ns[-1]}-grams"


def _num(x: float) -> str:
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return "infinite"
    return f"{x:.4g}"


def _score_words(trace) -> str:
    """BLEU's value as the sentence states it: 'is 0', 'is 1.2e-78 — practically 0', 'is 29.06'."""
    s = trace.score
    if s == 0:
        return "is 0"
    if not math.isfinite(s):
        return "is infinite"
    if abs(s) < (1e-4 if trace.scale == 100 else 1e-6):
        return f"is {s:.3g} — practically 0"
    return f"is {_num(s)}"


# -------------------------------------------------------------------------------------------- word lists
#: number words and their digits (English), for "five" vs "5"
NUMBER_WORDS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
NUMBER_WORDS.update({"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80",
                     "ninety": "90", "hundred": "100", "thousand": "1000", "million": "1000000", "first": "1",
                     "second": "2", "third": "3"})
_PUNCT = set(".,;:!?\"'()[]{}-–—…«»“”‘’/")


def _is_word(t: str) -> bool:
    return any(ch.isalnum() for ch in t)


def _number_pairs(cand: Sequence[str], refs: Sequence[str]) -> list[tuple[str, str]]:
    """(candidate token, reference token) pairs that write the same number differently ('five' / '5')."""
    ref_set = set(refs)
    out = []
    for t in dict.fromkeys(cand):
        if t in ref_set:
            continue
        low = t.lower()
        digit = NUMBER_WORDS.get(low)
        for r in ref_set:
            rl = r.lower()
            if (digit is not None and rl == digit) or (NUMBER_WORDS.get(rl) is not None and NUMBER_WORDS[rl] == low):
                out.append((t, r))
                break
    return out


def _unmatched_words_finding(cand: Sequence[str], refs: Sequence[Sequence[str]], matched: set[str],
                             metric: str, *, lowercase: bool = False) -> Finding | None:
    """The cause of most low scores on a paraphrase: candidate words with no exact counterpart in any reference.
    ``matched``: the candidate tokens the metric counted at least once."""
    norm = (lambda t: t.lower()) if lowercase else (lambda t: t)
    ref_all = [t for r in refs for t in r]
    ref_set = {norm(t) for t in ref_all}
    lost = [t for t in dict.fromkeys(cand) if _is_word(t) and t not in matched and norm(t) not in ref_set]
    if not lost:
        return None
    cand_set = {norm(t) for t in cand}
    theirs = [t for t in dict.fromkeys(ref_all) if _is_word(t) and norm(t) not in cand_set]
    share = len([t for t in cand if _is_word(t) and t not in matched]) / max(1, len([t for t in cand if _is_word(t)]))
    numbers = _number_pairs(lost, theirs)
    txt = (f"{_quote(lost)} in the candidate {'has' if len(lost) == 1 else 'have'} no exact counterpart in any "
           "reference" + (f"; the references have {_quote(theirs)} instead" if theirs else "") + ". "
           f"{metric} counts only identical words: a synonym (another word for the same thing) or another way of "
           "writing a number earns nothing")
    if numbers:
        txt += " — here " + ", ".join(f"‘{a}’ vs ‘{b}’" for a, b in numbers[:3])
    txt += ". No setting changes this; only a reference that uses the candidate's words would."
    level = "warning" if share >= 0.25 else "info"
    return Finding(level, "Words with no counterpart in the references", txt, "unmatched_words")


def _nfc_pairs(cand: Sequence[str], refs: Sequence[Sequence[str]]) -> list[tuple[str, int, str]]:
    """Candidate tokens that match no reference token as typed, but do after Unicode NFC normalisation:
    (candidate token, reference index, reference token)."""
    ref_sets = [set(r) for r in refs]
    by_nfc: list[dict[str, str]] = [{unicodedata.normalize("NFC", t): t for t in r} for r in refs]
    out, seen = [], set()
    for t in cand:
        if t in seen or any(t in r for r in ref_sets):
            continue
        key = unicodedata.normalize("NFC", t)
        for k, m in enumerate(by_nfc):
            if key in m and m[key] != t:
                out.append((t, k, m[key]))
                seen.add(t)
                break
    return out


def _is_cjk(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return any(w in name for w in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI"))


# --------------------------------------------------------------------------------------------------- BLEU
@dataclass(frozen=True)
class _Bleu:
    """What every BLEU check reads: the trace and its tokens."""

    trace: object
    cand: list[str]
    refs: list[list[str]]

    @property
    def comb(self):
        return self.trace.combination

    @property
    def opts(self) -> dict:
        return self.trace.options or {}


def _library_failure(b: _Bleu) -> list[Finding]:
    e = b.trace.library_error
    if e is None:
        return []
    return [Finding("error", f"The real library fails here ({e.type})", f"{e.explanation}. Message: {e.message}",
                    "library_error")]


def _empty_texts(b: _Bleu) -> list[Finding]:
    if not b.cand:
        return [Finding("error", "The candidate has no tokens",
                        "After tokenization the candidate is empty, so there is nothing to match: BLEU is 0 "
                        "(or the library fails, see above).", "empty_candidate")]
    if b.refs and all(len(x) == 0 for x in b.refs):
        return [Finding("error", "Every reference is empty", "The references have no tokens after tokenization, "
                        "so no n-gram can match.", "empty_refs")]
    return []


def _unmatched_words(b: _Bleu) -> list[Finding]:
    if not b.trace.ngrams or not any(b.refs):
        return []
    matched = {e.text for e in b.trace.ngrams[0].entries if e.clipped > 0}
    f = _unmatched_words_finding(b.cand, b.refs, matched, "BLEU", lowercase=bool(b.opts.get("lowercase")))
    return [f] if f else []


def _early_return(b: _Bleu) -> list[Finding]:
    """The library returns without the rest of the formula. Said from the trace's facts, not the library's code."""
    comb = b.comb
    if not comb.early_exit or b.trace.library_error is not None:
        return []
    if all(o.matches == 0 for o in comb.orders):
        why = "no n-gram of any order occurs in a reference"
    elif any(o.precision_raw == 0 for o in comb.orders):
        zero = [o.n for o in comb.orders if o.precision_raw == 0]
        why = (f"the precision of {_orders_list(zero)} is 0 and this dialect does not smooth it, so the geometric "
               "mean is 0")
    else:
        why = "there is nothing to score"
    return [Finding("error", "The library returns early",
                    f"BLEU {_score_words(b.trace)}: {why}; the library stops there and does not compute the rest "
                    "of the formula.", "early_exit")]


def _missing_orders(b: _Bleu) -> list[Finding]:
    """Orders the candidate is too short to have (no n-gram at all)."""
    comb, c = b.comb, b.comb.c
    missing = [o for o in comb.orders if (o.totals == 0 or o.precision_raw is None) and o.n > max(1, c)]
    if not missing:
        return []
    ns = [o.n for o in missing]
    ps = ", ".join(f"p{n}" for n in ns)
    txt = (f"The candidate has {_plural(c, 'token')}, so it has no {_orders_list(ns)} at all "
           f"({ps} {'is' if len(ns) == 1 else 'are'} 0/0). ")
    if all(not o.included for o in missing):
        txt += (f"This dialect leaves {'order' if len(ns) == 1 else 'orders'} {', '.join(map(str, ns))} out of the "
                "average (effective order), so only the orders the candidate has count.")
    else:
        vals = {value_in_log(b.trace, o.n) for o in missing if o.included}
        if vals == {1.0}:
            effect = "each missing order counts as precision 1 (it changes nothing)"
        elif vals and all(v is not None and v > 0 for v in vals):
            effect = f"each missing order enters it as {_num(min(vals))}"
        else:
            effect = "each missing order enters it as 0"
        txt += (f"This dialect still averages over all {len(comb.orders)} orders, and {effect}: BLEU "
                f"{_score_words(b.trace)}.")
        if "effective_order" in b.opts and not b.opts.get("effective_order"):
            txt += " Turning on effective order (the default of sacreBLEU's sentence-level API) would average only " \
                   "the orders the candidate has."
    return [Finding("warning", f"No {_orders_list(ns)} in a {c}-token candidate", txt.strip(), "no_ngrams")]


def _zero_effect(b: _Bleu, o) -> tuple[str, bool]:
    """What a 0 precision of order o does, in words; and whether it makes BLEU (practically) 0."""
    x = value_in_log(b.trace, o.n)
    smoothing = smoothing_in_use(b.trace)
    if x is not None and x > 0 and math.isfinite(x):
        who = f"Smoothing ({smoothing})" if smoothing and o.smoothing not in ("none", "") else \
            (f"This dialect ({o.smoothing})" if o.smoothing not in ("none", "") else "This dialect")
        tiny = x < 1e-6
        return (f"{who} replaces the 0 by {_num(x)}" + (f", so BLEU {_score_words(b.trace)}." if tiny else
                                                         " before the logs are taken.")), tiny
    if not o.included:
        return "This order is left out of the average.", False
    if smoothing:
        return (f"Smoothing ({smoothing}) is on but leaves this order at 0 "
                f"({_why_unsmoothed(b, o, smoothing)}), so the geometric mean — and BLEU — {_score_words(b.trace)}."
                ), True
    return f"No smoothing is set, so the geometric mean — and BLEU — {_score_words(b.trace)}.", True


def _why_unsmoothed(b: _Bleu, o, smoothing: str) -> str:
    if b.comb.early_exit and all(x.matches == 0 for x in b.comb.orders):
        return "with no match at any order the library returns 0 before smoothing"
    if smoothing == "add-k" and o.n == 1:
        return "add-k changes only the orders from 2 up"
    if smoothing == "floor" and not (b.opts.get("smooth_value") or 0):
        return "the floor value is 0"
    return "it does not apply to this order"


def _zero_matches(b: _Bleu) -> list[Finding]:
    out = []
    for o in b.comb.orders:
        if o.totals == 0 or o.precision_raw is None or o.matches != 0:
            continue
        tot = int(o.totals)
        head = (f"The only candidate {o.n}-gram occurs in no reference (0/1). " if tot == 1 else
                f"None of the {tot} candidate {o.n}-grams occurs in any reference (0/{tot}). ")
        effect, fatal = _zero_effect(b, o)
        out.append(Finding("error" if fatal else "warning", f"No {o.n}-gram matches", head + effect, "zero_matches"))
    return out


def _brevity(b: _Bleu) -> list[Finding]:
    comb = b.comb
    c, r = comb.c, comb.r
    if not (c > 0 and r > 0 and comb.bp < 1):
        return []
    return [Finding("warning" if comb.bp < 0.9 else "info", "Brevity penalty",
                    f"The candidate has {_plural(c, 'token')}, the chosen reference length is r = {r} "
                    f"({b.trace.ref_length.explanation}). BP = exp(1 − {r}/{c}) = {comb.bp:.4f}: the score is "
                    f"multiplied by {comb.bp:.4f} (−{_pct(1 - comb.bp)}).", "bp")]


def _min_of_precision_and_recall(b: _Bleu) -> list[Finding]:
    """GLEU: the kept reference, its precision and recall over all n-grams together, and which is the score."""
    pick = b.trace.reference_pick
    if pick.index is None:
        return [Finding("warning", "Nothing to count", pick.explanation, "gleu_nothing")]
    row = pick.rows[pick.index]
    p, r = row["precision"] or 0.0, row["recall"] or 0.0
    low = "recall" if r < p else "precision"
    why = ("the references have more n-grams than the candidate: a short candidate loses here, as BLEU's brevity "
           "penalty would make it" if low == "recall" else "the candidate has more n-grams than the reference")
    more = (f" Of {len(pick.rows)} references, reference {pick.index + 1} scores best and is the one counted."
            if len(pick.rows) > 1 else "")
    return [Finding("info", "Score = the smaller of precision and recall",
                    f"{row['tp']} n-grams (all orders together) are shared with reference {pick.index + 1}: "
                    f"precision {row['tp']}/{row['tpfp']} = {_num(p)}, recall {row['tp']}/{row['tpfn']} = {_num(r)}. "
                    f"The score is the {low} ({why}).{more}", "gleu_min")]


def _clipped_repetition(b: _Bleu) -> list[Finding]:
    """Candidate words used more often than any single reference has them."""
    if not b.trace.ngrams:
        return []
    rep = [e for e in b.trace.ngrams[0].entries if e.max_ref_count > 0 and e.cand_count > e.clipped]
    if not rep:
        return []
    lost = sum(e.cand_count - e.clipped for e in rep)
    worst = max(rep, key=lambda e: e.cand_count - e.clipped)
    return [Finding("warning" if lost * 4 >= max(1, b.comb.c) else "info", "Repeated words are clipped",
                    f"{_plural(lost, 'candidate word occurrence')} {'does' if lost == 1 else 'do'} not count: e.g. "
                    f"‘{worst.text}’ appears {worst.cand_count}× in the candidate but at most {worst.max_ref_count}× "
                    "in any single reference (modified precision).", "clipped")]


def _case(b: _Bleu) -> list[Finding]:
    """Unigrams that would be counted more often if case were ignored (read off the n-gram table)."""
    if b.opts.get("lowercase", False) or not b.refs or not b.trace.ngrams:
        return []
    ref_lc = [Counter(t.lower() for t in x) for x in b.refs]
    case_only = [e.text for e in b.trace.ngrams[0].entries
                 if e.cand_count > e.clipped and max(c[e.text.lower()] for c in ref_lc) > e.max_ref_count]
    if not case_only:
        return []
    them = "it" if len(case_only) == 1 else "them"
    return [Finding("info", "Case differences", f"{_quote(case_only)} would match more often if case were ignored "
                    f"(the references spell {them} with other capitals). This dialect is case-sensitive here"
                    + ("; turn on lowercase to compare case-insensitively." if "lowercase" in b.opts else "."),
                    "case")]


def _punctuation(b: _Bleu) -> list[Finding]:
    """Punctuation glued to words (whitespace tokenizers)."""
    ref_set = {t for x in b.refs for t in x}
    glued = sorted({t for t in b.cand if t not in ref_set and len(t) > 1 and not t[-1].isalnum()
                    and t.rstrip(".,;:!?\"')]") in ref_set})
    glued += sorted({t for t in b.cand if t not in ref_set and len(t) > 1 and not t[0].isalnum()
                     and t.lstrip("\"'([") in ref_set and t not in glued})
    if not glued:
        return []
    one = len(glued) == 1
    return [Finding("info", "Punctuation attached to words",
                    f"{_quote(glued)} {'carries' if one else 'carry'} punctuation that the reference does not have at "
                    f"that place; the tokenizer ({b.trace.tokenizer}) keeps {'it' if one else 'them'} as one token, "
                    f"so {'it does' if one else 'they do'} not match. A tokenizer that splits punctuation (13a) would.",
                    "punct")]


def _spaceless(tokens: Sequence[str]) -> list[str]:
    return [t for t in tokens if len(t) >= 4 and sum(_is_cjk(ch) for ch in t) >= 2]


def has_spaceless_text(trace) -> bool:
    """Whether the candidate has a long token of Chinese, Japanese, Korean or Thai text (one without spaces):
    then the page asks :func:`explainer.analysis.counterfactuals.bleu_with_tokenizers` for the other scores."""
    return bool(_spaceless([t.text for t in trace.candidate.tokens]))


def _no_spaces(b: _Bleu, tokenizers: Sequence[str], other_scores: dict[str, float]) -> list[Finding]:
    """Text without spaces (Chinese, Japanese, Thai) read as one token."""
    long_cjk = _spaceless(b.cand)
    if not long_cjk:
        return []
    import re

    joined = "".join(long_cjk)
    fits = ["zh", "char"]                   # MeCab's tokenizers only for the language they are made for
    if re.search(r"[\u3040-\u30ff]", joined):
        fits.insert(1, "ja-mecab")
    if re.search(r"[\uac00-\ud7af]", joined):
        fits.insert(1, "ko-mecab")
    offered = [t for t in fits if t in tokenizers]
    if offered:
        hint = f"For Chinese, Japanese or Thai choose the {' or '.join(offered)} tokenizer in the sidebar."
        shown = {t: v for t, v in other_scores.items() if t in offered}
        if shown:
            hint += " With it, BLEU would be " + "; ".join(f"{v:.4g} ({t})" for t, v in shown.items()) + "."
    else:
        hint = "This dialect has no tokenizer for such text; the sacreBLEU dialect's zh or char tokenizer splits it."
    one = len(long_cjk) == 1
    return [Finding("warning", "Text without spaces", f"{_quote(long_cjk, 3)} "
                    f"{'is one token' if one else 'are single tokens'} for this tokenizer because "
                    f"{'it contains' if one else 'they contain'} no spaces. " + hint, "no_spaces")]


def _unicode(b: _Bleu) -> list[Finding]:
    nfc = _nfc_pairs(b.cand, b.refs)
    if not nfc:
        return []
    t, k, rt_ = nfc[0]
    return [Finding("warning", "Same-looking letters, different Unicode",
                    f"‘{t}’ in the candidate ({_plural(len(t), 'code point')}) and ‘{rt_}’ in reference {k + 1} "
                    f"({_plural(len(rt_), 'code point')}) look identical but are written differently: one uses "
                    "combining accents (decomposed, NFD), the other precomposed letters (NFC). The metrics compare "
                    "code points, so they do not match" + (f" ({len(nfc)} such words)" if len(nfc) > 1 else "")
                    + ". Normalise both texts to NFC before scoring.", "unicode_nfc")]


def _other_settings(b: _Bleu, alternatives: dict[str, float]) -> list[Finding]:
    alts = {k: v for k, v in alternatives.items()
            if v is not None and not math.isclose(v, b.trace.score, rel_tol=1e-12, abs_tol=1e-12)}
    if not alts:
        return []
    return [Finding("info", "Same text, other settings",
                    "For comparison, with " + "; with ".join(f"{k}: {v:.4g}" for k, v in alts.items()) + ".",
                    "alternatives")]


def _library_warnings(b: _Bleu) -> list[Finding]:
    return [Finding("info", "The library warns", w.message, "library_warning") for w in b.trace.warnings]


def _offered_tokenizers(trace) -> tuple[str, ...]:
    from explainer.bleu import dialect_options

    try:
        spec = next((d for d in dialect_options(trace.dialect) if d.get("name") == "tokenize"), None)
    except (KeyError, ValueError):
        return ()
    return tuple(spec.get("choices") or ()) if spec else ()


def diagnose_bleu(trace, *, alternatives: dict[str, float] | None = None,
                  tokenizers: Sequence[str] | None = None,
                  tokenizer_scores: dict[str, float] | None = None) -> list[Finding]:
    """Findings for one BLEU trace, the cause first. ``alternatives``: description -> the score the core gives
    with that other setting (see :mod:`explainer.analysis.counterfactuals`), shown only when it differs;
    ``tokenizers``: the tokenizer choices offered for this dialect (default: the dialect's own);
    ``tokenizer_scores``: tokenizer -> BLEU with it, for the text-without-spaces finding."""
    b = _Bleu(trace, [t.text for t in trace.candidate.tokens], [[t.text for t in r.tokens] for r in trace.references])
    out = _library_failure(b) + _empty_texts(b)
    if not b.cand:
        return out
    offered = tuple(tokenizers) if tokenizers is not None else _offered_tokenizers(trace)
    # a dialect keeping one reference's statistics (GLEU) takes no geometric mean and no brevity penalty: the
    # findings about a 0 in the mean, missing orders and BP do not apply; its own ratio is named instead
    steps = ((_unmatched_words, _min_of_precision_and_recall, _clipped_repetition, _case, _punctuation)
             if getattr(trace, "reference_pick", None) is not None else
             (_unmatched_words, _early_return, _missing_orders, _zero_matches, _brevity, _clipped_repetition, _case,
              _punctuation))
    for step in steps:
        out += step(b)
    out += _no_spaces(b, offered, tokenizer_scores or {})
    out += _unicode(b)
    out += _other_settings(b, alternatives or {})
    out += _library_warnings(b)
    return out


# -------------------------------------------------------------------------------------------------- ROUGE
def _type_label(name: str) -> str:
    from explainer.rouge.types import parse_type

    try:
        return parse_type(name).label
    except ValueError:
        return name


def _rouge_tokens_dropped(trace) -> list[Finding]:
    out = []
    cand = trace.candidate.tokenized
    if cand.message:
        out.append(Finding("warning", "Words removed by the tokenizer", cand.message, "dropped"))
    for k, ref in enumerate(trace.references):
        if ref.tokenized.message:
            out.append(Finding("warning", f"Words removed from reference {k + 1}", ref.tokenized.message, "dropped"))
    return out


def _rouge_unmatched(trace) -> list[Finding]:
    if "rouge1" not in trace.scores:
        return []
    cand = list(trace.candidate.tokenized.tokens)
    refs = [list(r.tokenized.tokens) for r in trace.references]
    surface = dict(zip(trace.candidate.tokenized.tokens, trace.candidate.tokenized.surface))
    matched = set()
    for pr in trace.per_reference:
        res = pr.get("rouge1")
        for g in ((res.detail or {}).get("ngrams", []) if res is not None else []):
            if g.get("overlap"):
                matched.add(g["ngram"][0])
    f = _unmatched_words_finding(cand, refs, matched, "ROUGE")
    if f is None:
        return []
    # the candidate's words as the user wrote them (ROUGE compares its lowercased, maybe stemmed, tokens)
    text = f.text
    for tok, surf in surface.items():
        if surf != tok and f"‘{tok}’" in text:
            text = text.replace(f"‘{tok}’", f"‘{surf}’", 1)
    return [Finding(f.level, f.title, text, f.code)]


def _rouge_shapes(trace) -> list[Finding]:
    out = []
    cand = trace.candidate.tokenized
    scores = trace.scores
    if "rouge2" in scores and scores["rouge2"].fmeasure == 0 and len(cand.tokens) >= 2:
        out.append(Finding("warning", "No shared bigram", "No two consecutive candidate tokens appear consecutively "
                           "in the reference, so ROUGE-2 is 0 even if single words match.", "rouge2_zero"))
    if "rougeLsum" in scores:
        texts = [trace.candidate.tokenized.text] + [r.tokenized.text for r in trace.references]
        if not any("\n" in t for t in texts) and trace.options.get("split_summaries") is not True:
            out.append(Finding("info", "ROUGE-Lsum without line breaks",
                               "ROUGE-Lsum treats each line as a sentence. None of the texts has a line break, so "
                               "ROUGE-Lsum equals ROUGE-L here. Put one sentence per line to get summary-level LCS.",
                               "lsum_no_newline"))
    for t, s in scores.items():
        if s.precision > 0 and s.recall > 0 and s.recall < 0.5 * s.precision:
            out.append(Finding("info", f"{_type_label(t)}: recall much lower than precision",
                               f"P {s.precision:.5f}, R {s.recall:.5f}: the candidate covers little of the reference "
                               "(it is short, or misses content).", "low_recall"))
            break
    return out


def _rouge_stemming(trace, stemmed: dict | None) -> list[Finding]:
    if trace.options.get("use_stemmer", True) is not False or not stemmed:
        return []
    changed = [(t, s.fmeasure, stemmed[t].fmeasure) for t, s in trace.scores.items()
               if t in stemmed and not math.isclose(s.fmeasure, stemmed[t].fmeasure, rel_tol=1e-12, abs_tol=1e-12)]
    if not changed:
        return []
    what = "; ".join(f"{_type_label(t)} F {now:.5f} → {new:.5f}" for t, now, new in changed)
    return [Finding("info", "Stemming is off", "Word forms such as ‘cats’ and ‘cat’ do not match. With stemming on "
                    f"(Porter stems): {what}.", "stem_off")]


def diagnose_rouge(trace, *, stemmed: dict | None = None) -> list[Finding]:
    """Findings for one ROUGE trace. ``stemmed``: the scores the core gives for the same input with stemming on
    (type -> Score), when the dialect has a stemming option that is off; the finding appears only when stemming
    would change a score (see :func:`explainer.analysis.counterfactuals.rouge_with_stemming`)."""
    out = _rouge_tokens_dropped(trace)
    cand = trace.candidate.tokenized
    if not cand.tokens:
        why = (" The text has words, but this tokenizer keeps only a–z and 0–9: every word was dropped "
               "(choose the unicode tokenizer to keep other scripts)." if cand.n_words else "")
        out.append(Finding("error", "The candidate has no ROUGE tokens",
                           "Nothing is left to compare, so every ROUGE score is 0." + why, "no_tokens"))
        return out
    if all(not r.tokenized.tokens for r in trace.references):
        out.append(Finding("error", "The references have no ROUGE tokens", "Every score is 0.", "no_ref_tokens"))
        return out
    out += _rouge_unmatched(trace) + _rouge_shapes(trace) + _rouge_stemming(trace, stemmed)
    if len(trace.references) > 1:
        # the rule without the names of the implementations that follow it (after the dash)
        rule = trace.multi_ref_note.split(" — ")[0].strip()
        out.append(Finding("info", "Several references", rule[:1].upper() + rule[1:] + ".", "multi_ref"))
    shown = {f.text for f in out}
    for n in trace.notes:
        if n not in shown:  # the tokenizer's messages are already findings of their own
            out.append(Finding("info", "Note", n, "note"))
            shown.add(n)
    return out
