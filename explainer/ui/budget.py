"""The work of one view, estimated before anything is computed, and what of it fits.

A view of the Explain page (or a segment opened on the Corpus page) computes each family's trace of its texts,
and the diagnosis scores ROUGE again with stemming on. Most of that grows with the texts' length, which the cores
bound (``explainer.text.MAX_INPUT_CHARS``, each family's trace limits, a link's ``MAX_URL_TEXT``). What options
can make grow with its square is ROUGE's: S* and SU* list every pair of tokens, W fills a weighted-LCS table per
sentence pair in plain Python, and the diagnosis repeats them. The core bounds one call at
``explainer.rouge.limits.MAX_SEGMENT_WORK`` (seconds: it also serves the command line); a view gets far less. A
6 KB link (two 2,990-character texts of "x x …" with ``rouge_types=…,rougeW-1.2,rougeS*,rougeSU*``) took 9.6 s
of the server's CPU per view.

The estimate is the core's (``explainer.rouge.limits.segment_work``: units of about a microsecond of CPU on a
busy machine, per type, from the token counts of the ROUGE dialect's own tokenizer), plus ROUGE-Lsum's sentence
pairs and table cells (``summary_work``; the core bounds them apart), weighed from ``bench/bench_view_budget.py``.

What fits: ROUGE's headline types (ROUGE-1, -2, -L, -Lsum) are always computed — their work grows with the texts
within the cores' limits, and typed text up to those limits shows them as before — and count first. The other
types chosen follow in their order while the view's ROUGE work stays within :data:`VIEW_WORK_BUDGET`; a type that
does not fit is left out and the page says why (as for the cores' own limits). Then the diagnosis's rescoring
with stemming (scores only), type by type, in what is left. Pure: no Streamlit.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Sequence

__all__ = ["VIEW_WORK_BUDGET", "VIEW_TER_WORK", "VIEW_SEMANTIC_WORK", "HEADLINE_TYPES", "ViewPlan", "plan_rouge",
           "rouge_work", "left_out_note", "ViewWorkExceeded", "view_key"]

#: ROUGE work one view may do (units of ``explainer.rouge.limits.segment_work``) before the types beyond the
#: headline and the diagnosis's rescoring are left out: with the page's own ~0.3 s and the other families' traces
#: (bounded by their cores), a view from any link stays under 2 s of CPU
VIEW_WORK_BUDGET = 600_000
#: TER's trace in one view: units of its shift search (``explainer.ter.limits.Budget``: about 1,000,000 per second
#: of CPU), a third of the core's ``MAX_TRACE_WORK``; natural sentences need a few thousand, WMT22 paragraphs of
#: 1,000 characters up to 605,038. Past it the view shows "—", and a click computes the trace within the core's limit.
VIEW_TER_WORK = 300_000
#: the semantic family's model runs in one view (``explainer.semantic.embed.run_cost``: about a word piece of a
#: short text; ~0.25 ms of CPU each): the chosen dialect and then the others while their cost fits; two references
#: of 150 characters cost ~110, a 1,000-character pair ~450. What does not fit, a click computes.
VIEW_SEMANTIC_WORK = 1_000


class ViewWorkExceeded(ValueError):
    """A family's trace needs more work than one view does at once (its message says how much and where the
    limit is); the page offers a click that computes it within the core's own limits."""
#: the ROUGE types of the page's headline: always computed (bounded by the cores' own limits)
HEADLINE_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
# ROUGE-Lsum's sentence pairs and cells (not in ``segment_work``): units per pair and per cell, measured with
# rouge155, the costliest (short lines against long ones)
LSUM_PER_PAIR = 150
LSUM_CELLS_PER_UNIT = 5


@dataclass(frozen=True)
class ViewPlan:
    """What a view computes of ROUGE: the types (``types``), those left out with the reason (``left_out``: type ->
    why, in words), the types the diagnosis may score again with stemming (``rescore``), and the estimated work
    (``work``; ``headline``: of which the headline types')."""

    types: tuple[str, ...]
    left_out: dict[str, str] = field(default_factory=dict)
    rescore: tuple[str, ...] = ()
    work: int = 0
    headline: int = 0


def _counts(choice, candidate: str, refs: Sequence[str]):
    """(the bound dialect, candidate tokens, each reference's tokens, Lsum's extra work) as the ROUGE dialect reads
    the texts, or None when it refuses them (the core then says why, before any scoring)."""
    from explainer.rouge.limits import LSUM_MAX_CELLS, LSUM_MAX_PAIRS, summary_work

    try:
        d = choice.bind()
        cand = d.prepare(candidate, need_sents=d.needs_sentences, full=False)
        preps = [d.prepare_reference(r) for r in refs]
    except Exception:  # noqa: BLE001 - refused or failing: the core says why when it computes
        return None
    lsum = 0
    if any(t.kind == "Lsum" for t in d.types):
        pairs, cells = summary_work(cand.sentence_tokens or [], [p.sentence_tokens or [] for p in preps])
        if pairs <= LSUM_MAX_PAIRS and cells <= LSUM_MAX_CELLS:     # (above them the core refuses it, unscored)
            lsum = pairs * LSUM_PER_PAIR + cells // LSUM_CELLS_PER_UNIT
    return d, len(cand.tokens), [len(p.tokens) for p in preps], lsum


def _steps(rtype, c: int, refs: Sequence[int]) -> str:
    """What one type's work is made of, in words."""
    from explainer.rouge.skipgram import skip_bigram_count

    if rtype.kind in ("S", "SU"):
        n = sum(skip_bigram_count(c, rtype.skip) + skip_bigram_count(r, rtype.skip) for r in refs)
        return f"{n:,} skip-bigrams to list"
    if rtype.kind == "W":
        return f"{sum(c * r for r in refs):,} weighted-LCS table cells"
    return f"{sum(c + r for r in refs):,} tokens to count"


def rouge_work(choice, candidate: str, refs: Sequence[str]):
    """(the parsed types, {type: units of a full trace}, {type: units of the scores alone}, what each is made of
    in words) of ``choice``'s types on these texts, or None when the dialect refuses them."""
    from explainer.rouge.limits import segment_work

    counts = _counts(choice, candidate, refs) if choice.options.get("types") else None
    if counts is None:
        return None
    d, c, rs, lsum = counts
    full = segment_work(d.types, c, rs, full=True)
    fast = segment_work(d.types, c, rs, full=False)
    for t in d.types:
        if t.kind == "Lsum":
            full[t.name] += lsum
            fast[t.name] += lsum
    return d.types, full, fast, {t.name: _steps(t, c, rs) for t in d.types}


def plan_rouge(choice, candidate: str, refs: Sequence[str]) -> ViewPlan:
    """The ROUGE part of one view of ``candidate`` against ``refs`` under ``choice`` (a
    :class:`explainer.ui.families.DialectChoice` whose types the dialect defines)."""
    work = rouge_work(choice, candidate, refs)
    if work is None:
        return ViewPlan(tuple(choice.options.get("types", ()) or ()))
    types, full, fast, steps = work
    head = [t for t in types if t.name in HEADLINE_TYPES]
    total = headline = sum(full[t.name] for t in head)
    kept, left_out = [t.name for t in head], {}
    for t in types:
        if t.name in HEADLINE_TYPES:
            continue
        if total + full[t.name] <= VIEW_WORK_BUDGET:
            kept.append(t.name)
            total += full[t.name]
        else:
            left_out[t.name] = f"{steps[t.name]} here, about {full[t.name]:,} units of work"
    rescore = []
    for t in types:          # the diagnosis scores the kept types again (scores only): in what is left
        if t.name in kept and total + fast[t.name] <= VIEW_WORK_BUDGET:
            rescore.append(t.name)
            total += fast[t.name]
    order = tuple(t.name for t in types if t.name in kept)
    return ViewPlan(order, left_out, tuple(rescore), total, headline)


def left_out_note(plan: ViewPlan) -> str | None:
    """The page's sentence for the types the budget left out, or None."""
    if not plan.left_out:
        return None
    names = list(plan.left_out)
    one = len(names) == 1
    why = "; ".join(f"{t}: {w}" for t, w in plan.left_out.items())
    gap = any(n.startswith(("rougeS", "rougeSU")) for n in names)
    return (f"{', '.join(names)} {'is' if one else 'are'} left out: one view does at most {VIEW_WORK_BUDGET:,} units "
            f"of ROUGE work on the server (about half a second), and {'it' if one else 'they'} would add more "
            f"({why}). Click “Compute ROUGE for these texts” in the ROUGE tab, shorten the texts or use fewer "
            f"references to see {'it' if one else 'them'}" + (", or pick a maximum gap (rougeS4, rougeSU4)." if gap
                                                              else "."))


def view_key(family: str, choice, candidate: str, refs: Sequence[str]) -> str:
    """A short fingerprint of one family's inputs (texts and settings): what a reader's request for the whole
    trace is for (:mod:`explainer.ui.view_more`)."""
    raw = repr((family, candidate, tuple(refs), choice.key() if hasattr(choice, "key") else choice))
    return hashlib.blake2b(raw.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
