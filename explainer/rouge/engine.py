"""explain_rouge / score_rouge / explain_rouge_corpus: one code path for every dialect."""
from __future__ import annotations

import gc
from typing import Sequence

from explainer.errors import ExplainerInputError
from explainer.rouge.dialects import MULTI_REF_POLICIES, Dialect, coerce_option, get_dialect
from explainer.rouge.scoring import Score
from explainer.rouge.trace import RougeCorpusTrace, RougeTrace, TextView
from explainer.rouge.types import parse_types
from explainer.text import check_length

__all__ = ["explain_rouge", "score_rouge", "explain_rouge_corpus", "check_rouge_call"]

_SENT_KINDS = {"Lsum", "W"}


def _norm_refs(references) -> list[str]:
    if isinstance(references, str):
        references = [references]
    if references is None:
        references = []
    refs = list(references)
    for r in refs:
        if not isinstance(r, str):
            raise ExplainerInputError(f"each reference must be a string, got {type(r).__name__}")
    if not refs:
        raise ExplainerInputError("give at least one reference: ROUGE compares the candidate with references")
    return refs


def _setup(dialect, types, options, *, corpus: bool = False):
    d = dialect if isinstance(dialect, Dialect) else get_dialect(dialect)
    corpus_spec = {o.name: o for o in d.corpus_options()}
    if not corpus:
        given = [k for k, v in options.items() if k in corpus_spec and v is not None]
        if given:
            raise ValueError(
                f"{'option' if len(given) == 1 else 'options'} {', '.join(given)} of the {d.name} dialect "
                f"{'applies' if len(given) == 1 else 'apply'} only to a corpus: pass "
                f"{'it' if len(given) == 1 else 'them'} to explain_rouge_corpus (CLI: --corpus or --hyp/--ref); "
                "explain_rouge and score_rouge score one segment and would ignore "
                f"{'it' if len(given) == 1 else 'them'}")
    # corpus options from the CLI (-o seed=7) or a URL arrive as strings: coerce them like segment options
    copts = {k: coerce_option(corpus_spec[k], v) for k, v in options.items() if k in corpus_spec and v is not None}
    seg = {k: v for k, v in options.items() if k not in corpus_spec}
    opts = d.resolve_options(seg)
    rts = parse_types(d.default_types if types is None else types)
    notes = d.check_types(rts)
    return d, opts, rts, notes, copts


def check_rouge_call(dialect="rouge-score", types=None, *, corpus: bool = False, **options) -> None:
    """Raise the ValueError that explain_rouge / score_rouge (``corpus=False``) or explain_rouge_corpus
    (``corpus=True``) would raise for this dialect, these types and options, without any text (the CLI checks its
    flags once, before reading the input)."""
    _setup(dialect, types, options, corpus=corpus)


def _score_all(d, opts, rts, cand, refs, full):
    per_ref = [{rt.name: d.score_type(rt, cand, ref, opts, full=full) for rt in rts} for ref in refs]
    scores, chosen, pooled = {}, {}, {}
    for rt in rts:
        s, idx, pool = d.combine(rt, [pr[rt.name] for pr in per_ref], opts)
        scores[rt.name] = s
        chosen[rt.name] = idx
        if pool is not None:
            pooled[rt.name] = pool
    return per_ref, scores, chosen, pooled


_REF_CACHE: dict = {}
_REF_CACHE_MAX = 512


def _prepare_ref_cached(d, opts, text: str, need: bool):
    """Fast-path references are usually scored again and again (gaming-lab optimizer, corpus sweeps): keep the
    last few hundred tokenized references. Prepared objects are never mutated."""
    key = (d.name, id(d), tuple(sorted(opts.items())), need, text)
    p = _REF_CACHE.get(key)
    if p is None:
        p = d.prepare(text, opts, need_sents=need, full=False)
        if len(_REF_CACHE) >= _REF_CACHE_MAX:
            _REF_CACHE.clear()
        _REF_CACHE[key] = p
    return p


def score_rouge(candidate: str, references, *, dialect="rouge-score", types=None, **options) -> dict[str, Score]:
    """Scores only (same numbers as ``explain_rouge``, no tables or alignments): {type: Score}.
    ``types=None``: the dialect's ``default_types``."""
    if not isinstance(candidate, str):
        raise ExplainerInputError(f"the candidate must be a string, got {type(candidate).__name__}")
    refs = _norm_refs(references)
    check_length([candidate], "candidate")
    check_length(refs, "reference")
    d, opts, rts, _, _ = _setup(dialect, types, options)
    need = any(rt.kind in _SENT_KINDS for rt in rts)
    cand = d.prepare(candidate, opts, need_sents=need, full=False)
    preps = [_prepare_ref_cached(d, opts, r, need) for r in refs]
    return _score_all(d, opts, rts, cand, preps, False)[1]


def _explain(d: Dialect, opts, rts, notes, candidate, refs) -> RougeTrace:
    need = any(rt.kind in _SENT_KINDS for rt in rts)
    cand = d.prepare(candidate, opts, need_sents=need, full=True, what="candidate")
    preps = [d.prepare(r, opts, need_sents=need, full=True, what=f"reference {i + 1}" if len(refs) > 1 else "reference")
             for i, r in enumerate(refs)]
    per_ref, scores, chosen, pooled = _score_all(d, opts, rts, cand, preps, True)
    notes = list(notes)
    for p in [cand] + preps:
        if p.view.message:
            notes.append(p.view.message)
    if not cand.tokens and not cand.view.message:
        notes.append("the candidate has no tokens, so every score is 0")
    for i, p in enumerate(preps):
        if not p.tokens and not p.view.message:
            notes.append(f"reference {i + 1} has no tokens, so every score against it is 0")
    policy = opts.get("multi_ref", d.default_multi_ref)
    view = lambda p, role, idx: TextView(role, idx, p.view, p.sentences, p.sent_tokens)  # noqa: E731
    tr = RougeTrace(
        dialect=d.name, dialect_label=d.label, options=dict(opts), types=[rt.name for rt in rts],
        tokenizer=d.tokenizer_name(opts), stemmer=d.stemmer_name(opts),
        candidate=view(cand, "candidate", None),
        references=[view(p, "reference", i) for i, p in enumerate(preps)],
        per_reference=per_ref, scores=scores, chosen_reference=chosen, multi_ref=policy,
        multi_ref_note=MULTI_REF_POLICIES.get(policy, "") if len(refs) > 1 else "one reference",
        pooled=pooled, reported=d.reported(scores, opts), notes=notes, signature=d.signature(opts, rts),
        call=d.call_snippet(opts, rts, len(refs)),
    )
    return tr


def explain_rouge(candidate: str, references, *, dialect="rouge-score", types=None, **options) -> RougeTrace:
    """Explain ROUGE for one candidate against one or more references, recording every step.
    ``types=None``: the dialect's ``default_types`` (rouge1, rouge2, rougeL, rougeLsum; textbook: no rougeLsum)."""
    if not isinstance(candidate, str):
        raise ExplainerInputError(f"the candidate must be a string, got {type(candidate).__name__}")
    refs = _norm_refs(references)
    check_length([candidate], "candidate")
    check_length(refs, "reference")
    d, opts, rts, notes, _ = _setup(dialect, types, options)
    return _explain(d, opts, rts, notes, candidate, refs)


def explain_rouge_corpus(candidates: Sequence[str], references, *, dialect="rouge-score", types=None,
                         traces: bool = False, progress=None, **options) -> RougeCorpusTrace:
    """Score every item and aggregate with the dialect's corpus rule.

    ``references[i]`` is the list of references of ``candidates[i]`` (a plain string means one reference).
    ``traces=True`` keeps a full RougeTrace per item. ``progress(done, total)`` is called after each item.
    """
    cands = list(candidates)
    refs_list = list(references)
    if not cands:
        raise ExplainerInputError("the corpus is empty: give at least one candidate")
    if len(refs_list) != len(cands):
        raise ExplainerInputError(f"{len(cands)} candidates but {len(refs_list)} reference entries; "
                                  "every candidate needs its references")
    d, opts, rts, notes, copts = _setup(dialect, types, options, corpus=True)
    copts = {o.name: o.default for o in d.corpus_options()} | copts
    need = any(rt.kind in _SENT_KINDS for rt in rts)
    items, item_scores, chosen = [], [], []
    # Building thousands of traces allocates millions of small objects that all stay alive; the cyclic GC would
    # re-scan them again and again (measured: 2x slower). Traces hold no cycles, so pause it for the loop.
    gc_was_enabled = gc.isenabled()
    if traces:
        gc.disable()
    try:
        _corpus_items(d, opts, rts, need, cands, refs_list, traces, progress, items, item_scores, chosen)
    finally:
        if gc_was_enabled:
            gc.enable()
    per_type = {rt.name: [s[rt.name] for s in item_scores] for rt in rts}
    agg, desc, reported = d.aggregate(per_type, copts)
    return RougeCorpusTrace(dialect=d.name, options=dict(opts) | copts, types=[rt.name for rt in rts],
                            item_scores=item_scores, chosen_reference=chosen, aggregate=agg, aggregation=desc,
                            reported=reported, items=items if traces else None, notes=notes,
                            signature=d.signature(opts, rts))


def _corpus_items(d, opts, rts, need, cands, refs_list, traces, progress, items, item_scores, chosen):
    for i, (c, r) in enumerate(zip(cands, refs_list)):
        if not isinstance(c, str):
            raise ExplainerInputError(f"candidate {i + 1} must be a string")
        try:
            refs = _norm_refs(r)
        except ExplainerInputError as e:
            raise ExplainerInputError(f"item {i + 1}: {e}") from None
        check_length([c], f"item {i + 1}: candidate")
        check_length(refs, f"item {i + 1}: reference")
        if traces:
            tr = _explain(d, opts, rts, [], c, refs)
            items.append(tr)
            item_scores.append(tr.scores)
            chosen.append(tr.chosen_reference)
        else:
            cp = d.prepare(c, opts, need_sents=need, full=False)
            pr = [d.prepare(x, opts, need_sents=need, full=False) for x in refs]
            _, sc, ch, _ = _score_all(d, opts, rts, cp, pr, False)
            item_scores.append(sc)
            chosen.append(ch)
        if progress:
            progress(i + 1, len(cands))
