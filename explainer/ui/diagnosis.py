"""“Why is this score zero / low?” — plain-language findings read off the traces. Pure: no Streamlit.

Each finding names the step that costs the points, with the trace's own numbers. The checks follow
docs/user-pain.md: an order with no match (or no n-gram at all), the brevity penalty, case, tokenization
(punctuation glued to words, text with no spaces), every token dropped by the ROUGE tokenizer, ROUGE-Lsum
without newlines, and corpus vs sentence semantics (effective order). Texts in findings are plain text;
the page escapes them.
"""
from __future__ import annotations

import math
import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

__all__ = ["Finding", "diagnose_bleu", "diagnose_rouge"]


@dataclass(frozen=True)
class Finding:
    level: str   # "error" (the score is 0 / the library fails), "warning" (costs a lot), "info"
    title: str
    text: str
    code: str    # stable id for tests: no_ngrams, zero_matches, bp, case, punct, no_spaces, ...


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


def diagnose_bleu(trace, *, alternatives: dict[str, float] | None = None,
                  tokenizers: Sequence[str] | None = None) -> list[Finding]:
    """Findings for one BLEU trace. ``alternatives`` maps a description (e.g. "sacrebleu.sentence_bleu
    (effective order on)") to the score the core computed for it, to show what another setting gives (only
    when it differs from the trace's score). ``tokenizers``: the tokenizer choices the page offers for this
    dialect (suggestions name only those)."""
    out: list[Finding] = []
    comb = trace.combination
    opts = trace.options or {}
    cand = [t.text for t in trace.candidate.tokens]
    refs = [[t.text for t in r.tokens] for r in trace.references]
    c, r = comb.c, comb.r
    if trace.library_error is not None:
        e = trace.library_error
        out.append(Finding("error", f"The real library fails here ({e.type})",
                           f"{e.explanation}. Message: {e.message}", "library_error"))
    if not cand:
        out.append(Finding("error", "The candidate has no tokens",
                           "After tokenization the candidate is empty, so there is nothing to match: BLEU is 0 "
                           "(or the library fails, see above).", "empty_candidate"))
        return out
    if refs and all(len(x) == 0 for x in refs):
        out.append(Finding("error", "Every reference is empty", "The references have no tokens after "
                           "tokenization, so no n-gram can match.", "empty_refs"))
    if comb.early_exit:
        out.append(Finding("error", "The library stops early", comb.early_exit, "early_exit"))
    missing = [o for o in comb.orders if (o.totals == 0 or o.precision_raw is None) and o.n > max(1, c)]
    if missing:
        ns = [o.n for o in missing]
        first = missing[0]
        eff = opts.get("effective_order")
        ps = ", ".join(f"p{n}" for n in ns)
        txt = (f"The candidate has {_plural(c, 'token')}, so it has no {_orders_list(ns)} at all "
               f"({ps} {'is' if len(ns) == 1 else 'are'} 0/0). ")
        left_out = [o.n for o in missing if not o.included]
        if len(left_out) == len(missing):
            txt += (f"This dialect leaves {'order' if len(ns) == 1 else 'orders'} {', '.join(map(str, ns))} out of "
                    f"the mean ({first.reason}).")
        else:
            txt += (f"This dialect still averages over all {len(comb.orders)} orders: {first.reason}. "
                    + ("Effective order (sacreBLEU's sentence_bleu default) would average only the orders "
                       "the candidate has." if eff is False or eff is None else ""))
        out.append(Finding("warning", f"No {_orders_list(ns)} in a {c}-token candidate", txt.strip(), "no_ngrams"))
    for o in comb.orders:
        if o.totals == 0 or o.precision_raw is None:
            continue
        if o.matches == 0:
            smoothed = o.precision > 0
            tot = int(o.totals)
            txt = ((f"The only candidate {o.n}-gram occurs in no reference (0/1). " if tot == 1 else
                    f"None of the {tot} candidate {o.n}-grams occurs in any reference (0/{tot}). ")
                   + (f"Smoothing ({o.smoothing}) replaces 0 by {o.precision:.4g}: {o.formula}."
                      if smoothed else "Without smoothing the geometric mean — and BLEU — is 0."))
            out.append(Finding("error" if not smoothed else "warning", f"No {o.n}-gram matches", txt,
                               "zero_matches"))
    if c > 0 and r > 0 and comb.bp < 1:
        out.append(Finding("warning" if comb.bp < 0.9 else "info", "Brevity penalty",
                           f"The candidate has {_plural(c, 'token')}, the chosen reference length is r = {r} "
                           f"({trace.ref_length.explanation}). BP = exp(1 − {r}/{c}) = {comb.bp:.4f}: the score "
                           f"is multiplied by {comb.bp:.4f} (−{_pct(1 - comb.bp)}).", "bp"))
    # repetition: candidate words used more often than any single reference has them (clipping)
    if trace.ngrams:
        rep = [e for e in trace.ngrams[0].entries if e.max_ref_count > 0 and e.cand_count > e.clipped]
        if rep:
            lost = sum(e.cand_count - e.clipped for e in rep)
            worst = max(rep, key=lambda e: e.cand_count - e.clipped)
            out.append(Finding("warning" if lost * 4 >= max(1, c) else "info", "Repeated words are clipped",
                               f"{_plural(lost, 'candidate word occurrence')} "
                               f"{'does' if lost == 1 else 'do'} not count: e.g. "
                               f"‘{worst.text}’ appears {worst.cand_count}× in the candidate but at most "
                               f"{worst.max_ref_count}× in any single reference (modified precision).", "clipped"))
    # case: unigrams that would be counted more often if case were ignored (read off the n-gram table)
    if not opts.get("lowercase", False) and refs and trace.ngrams:
        ref_lc = [Counter(t.lower() for t in x) for x in refs]
        case_only = []
        for e in trace.ngrams[0].entries:
            if e.cand_count > e.clipped:
                lc_max = max(c[e.text.lower()] for c in ref_lc)
                if lc_max > e.max_ref_count:
                    case_only.append(e.text)
        if case_only:
            has_opt = "lowercase" in opts
            them = "it" if len(case_only) == 1 else "them"
            out.append(Finding("info", "Case differences", f"{_quote(case_only)} would match more often if case "
                               f"were ignored (the references spell {them} with other capitals). This dialect is "
                               "case-sensitive here" + ("; turn on lowercase to compare case-insensitively."
                                                        if has_opt else "."), "case"))
    # tokenization: punctuation glued to words (whitespace tokenizers) or no spaces (CJK under 13a)
    ref_set = {t for x in refs for t in x}
    glued = sorted({t for t in cand if t not in ref_set and len(t) > 1 and not t[-1].isalnum()
                    and t.rstrip(".,;:!?\"')]") in ref_set})
    glued += sorted({t for t in cand if t not in ref_set and len(t) > 1 and not t[0].isalnum()
                     and t.lstrip("\"'([") in ref_set and t not in glued})
    if glued:
        one = len(glued) == 1
        out.append(Finding("info", "Punctuation attached to words",
                           f"{_quote(glued)} {'carries' if one else 'carry'} punctuation that the reference does not "
                           f"have at that place; the tokenizer ({trace.tokenizer}) keeps {'it' if one else 'them'} "
                           f"as one token, so {'it does' if one else 'they do'} not match. A tokenizer that splits "
                           "punctuation (13a) would.", "punct"))
    long_cjk = [t for t in cand if len(t) >= 4 and sum(_is_cjk(ch) for ch in t) >= 2]
    if long_cjk:
        offered = [t for t in ("zh", "ja-mecab", "ko-mecab", "char") if t in (tokenizers or ())]
        if offered:
            hint = f"For Chinese, Japanese or Thai choose the {' or '.join(offered)} tokenizer in the sidebar."
        else:
            hint = ("This dialect has no tokenizer for such text; the sacreBLEU dialect's zh or char tokenizer "
                    "splits it.")
        one = len(long_cjk) == 1
        out.append(Finding("warning", "Text without spaces", f"{_quote(long_cjk, 3)} {'is one token' if one else 'are single tokens'} "
                           f"for this tokenizer because {'it contains' if one else 'they contain'} no spaces. " + hint,
                           "no_spaces"))
    nfc = _nfc_pairs(cand, refs)
    if nfc:
        t, k, rt_ = nfc[0]
        out.append(Finding("warning", "Same-looking letters, different Unicode",
                           f"‘{t}’ in the candidate ({_plural(len(t), 'code point')}) and ‘{rt_}’ in reference {k + 1} "
                           f"({_plural(len(rt_), 'code point')}) look identical but are written differently: one uses "
                           "combining accents (decomposed, NFD), the other precomposed letters (NFC). The metrics "
                           "compare code points, so they do not match"
                           + (f" ({len(nfc)} such words)" if len(nfc) > 1 else "")
                           + ". Normalise both texts to NFC (e.g. unicodedata.normalize('NFC', text)) before scoring.",
                           "unicode_nfc"))
    alts = {k: v for k, v in (alternatives or {}).items()
            if v is not None and not math.isclose(v, trace.score, rel_tol=1e-12, abs_tol=1e-12)}
    if alts:
        alt = "; ".join(f"{k}: {v:.4g}" for k, v in alts.items())
        out.append(Finding("info", "Same text, other settings", f"For comparison, computed by the same core: {alt}.",
                           "alternatives"))
    for w in trace.warnings:
        out.append(Finding("info", "The library warns", w.message, "library_warning"))
    return out


def diagnose_rouge(trace, *, stemmed: dict | None = None) -> list[Finding]:
    """Findings for one ROUGE trace. ``stemmed``: the scores the core gives for the same input with stemming
    on (type -> Score), when the dialect has a stemming option that is off; the finding appears only when
    stemming would change a score."""
    out: list[Finding] = []
    cand = trace.candidate.tokenized
    if cand.message:
        out.append(Finding("warning", "Words removed by the tokenizer", cand.message, "dropped"))
    for k, ref in enumerate(trace.references):
        if ref.tokenized.message:
            out.append(Finding("warning", f"Words removed from reference {k + 1}", ref.tokenized.message, "dropped"))
    if not cand.tokens:
        why = (" The text has words, but this tokenizer keeps only a–z and 0–9: every word was dropped "
               "(choose the unicode tokenizer to keep other scripts)." if cand.n_words else "")
        out.append(Finding("error", "The candidate has no ROUGE tokens",
                           "Nothing is left to compare, so every ROUGE score is 0." + why, "no_tokens"))
        return out
    if all(not r.tokenized.tokens for r in trace.references):
        out.append(Finding("error", "The references have no ROUGE tokens", "Every score is 0.", "no_ref_tokens"))
        return out
    scores = trace.scores
    if "rouge2" in scores and scores["rouge2"].fmeasure == 0 and len(cand.tokens) >= 2:
        out.append(Finding("warning", "No shared bigram", "No two consecutive candidate tokens appear "
                           "consecutively in the reference, so ROUGE-2 is 0 even if single words match.", "rouge2_zero"))
    if "rougeLsum" in scores:
        texts = [trace.candidate.tokenized.text] + [r.tokenized.text for r in trace.references]
        if not any("\n" in t for t in texts) and trace.options.get("split_summaries") is not True:
            out.append(Finding("info", "ROUGE-Lsum without line breaks",
                               "ROUGE-Lsum treats each line as a sentence. None of the texts has a line break, so "
                               "ROUGE-Lsum equals ROUGE-L here. Put one sentence per line to get summary-level LCS.",
                               "lsum_no_newline"))
    for t, s in scores.items():
        if s.precision > 0 and s.recall > 0 and s.recall < 0.5 * s.precision:
            out.append(Finding("info", f"{t}: recall much lower than precision",
                               f"P {s.precision:.3f}, R {s.recall:.3f}: the candidate covers little of the "
                               "reference (it is short, or misses content).", "low_recall"))
            break
    if trace.options.get("use_stemmer", True) is False and stemmed:
        changed = [(t, s.fmeasure, stemmed[t].fmeasure) for t, s in scores.items()
                   if t in stemmed and not math.isclose(s.fmeasure, stemmed[t].fmeasure, rel_tol=1e-12, abs_tol=1e-12)]
        if changed:
            from explainer.ui.rouge_view import type_label

            what = "; ".join(f"{type_label(t)} F {now:.5f} → {new:.5f}" for t, now, new in changed)
            out.append(Finding("info", "Stemming is off", "Word forms such as ‘cats’ and ‘cat’ do not match. With "
                               f"stemming on (Porter stems, as rouge-score's use_stemmer=True): {what}.", "stem_off"))
    if len(trace.references) > 1:
        out.append(Finding("info", "Several references", trace.multi_ref_note, "multi_ref"))
    shown = {f.text for f in out}
    for n in trace.notes:
        if n not in shown:  # the tokenizer's messages are already findings of their own
            out.append(Finding("info", "Note", n, "note"))
            shown.add(n)
    return out
