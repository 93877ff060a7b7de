"""explain_rouge / score_rouge / explain_rouge_corpus: one code path for every dialect.

Each call binds a dialect to its types and options (``explainer.rouge.registry.get_dialect``; identical requests
share one bound dialect, whose cache keeps the tokenized references), prepares the texts, scores every type against
every reference, and lets the dialect combine the references and aggregate a corpus.
"""
from __future__ import annotations

from typing import Any, Sequence

from explainer.errors import ExplainerInputError
from explainer.gcpause import gc_paused
from explainer.rouge.dialects import MULTI_REF_POLICIES, RougeDialect
from explainer.rouge.limits import check_corpus_trace_size, check_segment_work, limited_types
from explainer.rouge.registry import DIALECTS, get_dialect
from explainer.rouge.scoring import Score
from explainer.rouge.skipgram import check_skip_bigrams
from explainer.rouge.tokenize import TokenizedText
from explainer.rouge.trace import RougeCorpusTrace, RougeTextView, RougeTrace
from explainer.text import check_length

__all__ = ["explain_rouge", "score_rouge", "explain_rouge_corpus", "check_rouge_call", "bind_dialect"]


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


def _check_segment(candidate, references) -> list[str]:
    if not isinstance(candidate, str):
        raise ExplainerInputError(f"the candidate must be a string, got {type(candidate).__name__}")
    refs = _norm_refs(references)
    check_length([candidate], "candidate")
    check_length(refs, "reference")
    return refs


def _refuse_corpus_options(cls: type[RougeDialect], options: dict) -> None:
    corpus_names = {o.name for o in cls.option_specs("corpus")}
    given = [k for k, v in options.items() if k in corpus_names and v is not None]
    if not given:
        return
    one = len(given) == 1
    raise ValueError(
        f"{'option' if one else 'options'} {', '.join(given)} of the {cls.name} dialect "
        f"{'applies' if one else 'apply'} only to a corpus: pass {'it' if one else 'them'} to explain_rouge_corpus "
        f"(CLI: --corpus or --hyp/--ref); explain_rouge and score_rouge score one segment and would ignore "
        f"{'it' if one else 'them'}")


def bind_dialect(dialect: str | RougeDialect = "rouge-score", types: Any = None, *, corpus: bool = False,
                 **options: Any) -> RougeDialect:
    """The bound dialect a call uses (ValueError for an unknown dialect, type or option; ``corpus=False`` also
    refuses the options that only apply to a corpus)."""
    if not corpus and not isinstance(dialect, RougeDialect):
        _refuse_corpus_options(DIALECTS.dialect_class(dialect), options)
    return get_dialect(dialect, types, **options)


def check_rouge_call(dialect="rouge-score", types=None, *, corpus: bool = False, **options) -> None:
    """Raise the ValueError that explain_rouge / score_rouge (``corpus=False``) or explain_rouge_corpus
    (``corpus=True``) would raise for this dialect, these types and options, without any text (the CLI checks its
    flags once, before reading the input)."""
    bind_dialect(dialect, types, corpus=corpus, **options)


def _score_all(d: RougeDialect, cand: TokenizedText, refs: list[TokenizedText], full: bool,
               limited: dict[str, str] | None = None):
    """Every type against every reference, then the references combined per type. ``limited``: types whose full
    trace is over the limits (``explainer.rouge.limits``), scored without their step-by-step details."""
    limited = limited or {}
    per_ref = [{t.name: _score_one(d, t, cand, ref, full, limited.get(t.name)) for t in d.types} for ref in refs]
    scores, chosen, pooled = {}, {}, {}
    for rtype in d.types:
        s, idx, pool = d.combine(rtype, [pr[rtype.name] for pr in per_ref])
        scores[rtype.name] = s
        chosen[rtype.name] = idx
        if pool is not None:
            pooled[rtype.name] = pool
    return per_ref, scores, chosen, pooled


def _score_one(d: RougeDialect, rtype, cand: TokenizedText, ref: TokenizedText, full: bool, limited: str | None):
    if limited is None:
        return d.score_type(rtype, cand, ref, full=full)
    res = d.score_type(rtype, cand, ref, full=False)
    res.detail = d.limited_detail(rtype, res, limited)
    return res


def _summary_work(d: RougeDialect, cand: TokenizedText, preps: list[TokenizedText], *,
                  full: bool) -> tuple[int, int]:
    """Refuse a type over its limit, then the call over its whole work, before any scoring; (sentence pairs,
    table cells) of the summary-level types, for the trace limits."""
    work = d.summary_work(cand, preps)
    for t in d.types:
        if t.kind in ("S", "SU"):
            for p in [cand] + preps:
                check_skip_bigrams(len(p.tokens), t.skip)
    check_segment_work(d.types, len(cand.tokens), [len(p.tokens) for p in preps], full=full)
    return work


def _fast_scores(d: RougeDialect, candidate: str, refs: list[str], *, cache_refs: bool):
    cand = d.prepare(candidate, need_sents=d.needs_sentences, full=False)
    if cache_refs:
        preps = [d.prepare_reference(r) for r in refs]
    else:
        preps = [d.prepare(r, need_sents=d.needs_sentences, full=False) for r in refs]
    _summary_work(d, cand, preps, full=False)
    return _score_all(d, cand, preps, False)


def score_rouge(candidate: str, references, *, dialect="rouge-score", types=None, **options) -> dict[str, Score]:
    """Scores only (same numbers as ``explain_rouge``, no tables or alignments): {type: Score}.
    ``types=None``: the dialect's ``default_types``. ``dialect`` may be a bound dialect instead of a name."""
    refs = _check_segment(candidate, references)
    d = bind_dialect(dialect, types, **options)
    return _fast_scores(d, candidate, refs, cache_refs=True)[1]


def _text_notes(cand: TokenizedText, preps: list[TokenizedText]) -> list[str]:
    notes = [p.message for p in [cand] + preps if p.message]
    if not cand.tokens and not cand.message:
        notes.append("the candidate has no tokens, so every score is 0")
    for i, p in enumerate(preps):
        if not p.tokens and not p.message:
            notes.append(f"reference {i + 1} has no tokens, so every score against it is 0")
    return notes


def _explain(d: RougeDialect, candidate: str, refs: list[str], notes: list[str]) -> RougeTrace:
    need = d.needs_sentences
    cand = d.prepare(candidate, need_sents=need, full=True, what="candidate")
    preps = [d.prepare(r, need_sents=need, full=True, what=f"reference {i + 1}" if len(refs) > 1 else "reference")
             for i, r in enumerate(refs)]
    limited = limited_types(d.types, *_summary_work(d, cand, preps, full=True), kinds=d.summary_kinds)
    per_ref, scores, chosen, pooled = _score_all(d, cand, preps, True, limited)

    def text_view(p: TokenizedText, role: str, idx: int | None) -> RougeTextView:
        return RougeTextView(role, idx, p, p.sentences, p.sentence_tokens)

    return RougeTrace(
        dialect=d.name, dialect_label=d.label, options=d.segment_options(), types=d.type_names,
        tokenizer=d.tokenizer_name(), stemmer=d.stemmer_name(),
        candidate=text_view(cand, "candidate", None),
        references=[text_view(p, "reference", i) for i, p in enumerate(preps)],
        per_reference=per_ref, scores=scores, chosen_reference=chosen, multi_ref=d.multi_ref,
        multi_ref_note=MULTI_REF_POLICIES.get(d.multi_ref, "") if len(refs) > 1 else "one reference",
        pooled=pooled, reported=d.reported(scores),
        notes=list(notes) + _text_notes(cand, preps) + list(limited.values()),
        signature=d.signature(), call=d.call_snippet(len(refs)),
    )


def explain_rouge(candidate: str, references, *, dialect="rouge-score", types=None, **options) -> RougeTrace:
    """Explain ROUGE for one candidate against one or more references, recording every step.
    ``types=None``: the dialect's ``default_types`` (rouge1, rouge2, rougeL, rougeLsum; textbook: no rougeLsum)."""
    refs = _check_segment(candidate, references)
    d = bind_dialect(dialect, types, **options)
    return _explain(d, candidate, refs, d.type_notes)


def explain_rouge_corpus(candidates: Sequence[str], references, *, dialect="rouge-score", types=None,
                         traces: bool = False, progress=None, **options) -> RougeCorpusTrace:
    """Score every item and aggregate with the dialect's corpus rule.

    ``references[i]`` is the list of references of ``candidates[i]`` (a plain string means one reference).
    ``traces=True`` keeps a full RougeTrace per item (at most ``explainer.rouge.limits.MAX_CORPUS_TRACE_CHARS``
    characters in all; ``trace.item(i)`` builds one item's trace on demand). ``progress(done, total)`` is called
    after each item.
    """
    cands = list(candidates)
    refs_list = list(references)
    if not cands:
        raise ExplainerInputError("the corpus is empty: give at least one candidate")
    if len(refs_list) != len(cands):
        raise ExplainerInputError(f"{len(cands)} candidates but {len(refs_list)} reference entries; "
                                  "every candidate needs its references")
    d = bind_dialect(dialect, types, corpus=True, **options)
    if traces:
        check_corpus_trace_size(_corpus_chars(cands, refs_list), len(cands))   # before any work
    items: list[RougeTrace] = []
    item_scores: list[dict[str, Score]] = []
    chosen: list[dict] = []
    if traces:
        # thousands of traces are millions of small objects that all stay alive; they hold no cycles
        with gc_paused():
            _corpus_items(d, cands, refs_list, True, progress, items, item_scores, chosen)
    else:
        _corpus_items(d, cands, refs_list, False, progress, items, item_scores, chosen)
    per_type = {t.name: [s[t.name] for s in item_scores] for t in d.types}
    agg, desc, reported = d.aggregate(per_type)
    return RougeCorpusTrace(dialect=d.name, options=d.segment_options() | d.corpus_options(), types=d.type_names,
                            item_scores=item_scores, chosen_reference=chosen, aggregate=agg, aggregation=desc,
                            reported=reported, items=items if traces else None, notes=list(d.type_notes),
                            signature=d.signature(),
                            _builder=lambda i: _explain(d, cands[i], _corpus_item_refs(i, cands[i], refs_list[i]), []))


def _corpus_chars(cands: list, refs_list: list) -> int:
    """Characters of every candidate and reference (items that are not text count 0: they are refused later)."""
    n = sum(len(c) for c in cands if isinstance(c, str))
    for r in refs_list:
        if isinstance(r, str):
            n += len(r)
        elif isinstance(r, (list, tuple)):
            n += sum(len(x) for x in r if isinstance(x, str))
    return n


def _corpus_item_refs(i: int, c, r) -> list[str]:
    if not isinstance(c, str):
        raise ExplainerInputError(f"candidate {i + 1} must be a string")
    try:
        refs = _norm_refs(r)
    except ExplainerInputError as e:
        raise ExplainerInputError(f"item {i + 1}: {e}") from None
    check_length([c], f"item {i + 1}: candidate")
    check_length(refs, f"item {i + 1}: reference")
    return refs


def _corpus_items(d, cands, refs_list, traces, progress, items, item_scores, chosen):
    for i, (c, r) in enumerate(zip(cands, refs_list)):
        refs = _corpus_item_refs(i, c, r)
        if traces:
            tr = _explain(d, c, refs, [])
            items.append(tr)
            item_scores.append(tr.scores)
            chosen.append(tr.chosen_reference)
        else:
            _, sc, ch, _ = _fast_scores(d, c, refs, cache_refs=False)
            item_scores.append(sc)
            chosen.append(ch)
        if progress:
            progress(i + 1, len(cands))

