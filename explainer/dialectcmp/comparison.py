"""Every implementation side by side: build the rows' traces, then the first divergence of each pair.

>>> from explainer.dialectcmp import compare
>>> cmp = compare("the cat sat on the mat.", ["the cat is on the mat."], metric="bleu")
>>> [r.id for r in cmp.rows][:2], cmp.pairs[1].first_step        # doctest: +SKIP
(['sacrebleu', 'sacrebleu:intl'], ...)

``compare_corpus`` does the same for a corpus (candidates and, per candidate, its references).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from explainer.dialectcmp.configs import Config
from explainer.dialectcmp.divergence import Divergence, bleu_divergence, rouge_corpus_divergence, rouge_divergence
from explainer.dialectcmp.limits import check_corpus, check_segment
from explainer.dialectcmp.rows import DEFAULT_ROUGE_TYPES, Row, bleu_row, bleu_row_configs, rouge_row, rouge_row_configs
from explainer.dialectcmp.tokdiff import MAX_COMPARISON_ALIGN_WORK, MAX_PAIR_ALIGN_WORK, alignment_budget

__all__ = ["Comparison", "compare", "compare_corpus", "divergence", "default_pairs", "pairs_scope"]


@dataclass
class Comparison:
    metric: str                     # "bleu" or "rouge"
    level: str                      # "segment" or "corpus"
    rows: list[Row]
    pairs: list[Divergence] = field(default_factory=list)
    candidate: str | list[str] = ""
    references: list = field(default_factory=list)

    def row(self, row_id: str) -> Row:
        for r in self.rows:
            if r.id == row_id:
                return r
        raise KeyError(f"no row {row_id!r}; rows: {', '.join(r.id for r in self.rows)}")

    def pair(self, a: str, b: str) -> Divergence:
        """The divergence of rows ``a`` and ``b`` (computed on demand, kept)."""
        for d in self.pairs:
            if d.a == a and d.b == b:
                return d
        d = divergence(self, a, b)
        self.pairs.append(d)
        return d

    def to_dict(self) -> dict:
        return {"metric": self.metric, "level": self.level, "rows": [r.data for r in self.rows],
                "pairs": [d.to_dict() for d in self.pairs]}


def default_pairs(rows: Sequence[Row]) -> list[tuple[str, str]]:
    """Each row against the first one."""
    return [(rows[0].id, r.id) for r in rows[1:]]


def pairs_scope():
    """A context in which a run of ``cmp.pair`` calls shares one alignment budget (the token step's cost of all
    of them together is bounded: ``tokdiff.MAX_COMPARISON_ALIGN_WORK``)."""
    return alignment_budget(MAX_COMPARISON_ALIGN_WORK)


def divergence(cmp: Comparison, a: str, b: str) -> Divergence:
    """The first divergence of rows ``a`` and ``b``; its token alignments share ``tokdiff.MAX_PAIR_ALIGN_WORK``
    (of the enclosing ``pairs_scope``'s budget, if any)."""
    with alignment_budget(MAX_PAIR_ALIGN_WORK):
        return _divergence(cmp, a, b)


def _divergence(cmp: Comparison, a: str, b: str) -> Divergence:
    ra, rb = cmp.row(a), cmp.row(b)
    if cmp.metric == "bleu":
        return bleu_divergence(ra.trace, rb.trace, ra.label, rb.label, id_a=a, id_b=b)
    if cmp.level == "corpus":
        from explainer.rouge import explain_rouge

        def items(i):
            c, refs = cmp.candidate[i], cmp.references[i]
            return tuple(explain_rouge(c, refs, dialect=r.config.dialect, types=list(r.config.types),
                                       **r.config.opts) for r in (ra, rb))

        return rouge_corpus_divergence(ra.trace, rb.trace, ra.label, rb.label, items, id_a=a, id_b=b)
    return rouge_divergence(ra.trace, rb.trace, ra.label, rb.label, id_a=a, id_b=b)


Progress = Callable[[int, int, str], None]   # (steps done, steps in all, what is being done)


def _pairs(cmp: Comparison, pairs, progress: Progress | None = None, done: int = 0, total: int = 0) -> None:
    with pairs_scope():
        for a, b in (default_pairs(cmp.rows) if pairs is None else pairs):
            if progress is not None:
                progress(done, total, f"first divergence: {cmp.row(a).label} vs {cmp.row(b).label}")
                done += 1
            cmp.pair(a, b)


def compare(candidate: str, references: Sequence[str], *, metric: str = "bleu",
            types: Sequence[str] = DEFAULT_ROUGE_TYPES, configs: Sequence[Config] | None = None,
            pairs: Sequence[tuple[str, str]] | None = None) -> Comparison:
    """One segment: one row per configuration (default: ``bleu_row_configs`` / ``rouge_row_configs``) and the
    first divergence of each pair (default: each row against the first)."""
    refs = check_segment(candidate, references)
    return _build("segment", metric, candidate, refs, [candidate] + refs, types, configs, pairs)


def compare_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], *, metric: str = "bleu",
                   types: Sequence[str] = DEFAULT_ROUGE_TYPES, configs: Sequence[Config] | None = None,
                   pairs: Sequence[tuple[str, str]] | None = None, progress: Progress | None = None) -> Comparison:
    """A corpus: corpus-level rows (BLEU: summed statistics; ROUGE: each dialect's aggregation) and the first
    divergence of each pair (ROUGE: the earliest step among the items whose scores differ, else the
    aggregation). ``progress(done, total, what)`` is called before each row and each pair (a page's progress
    bar)."""
    cands, refs = check_corpus(candidates, references)
    return _build("corpus", metric, cands, refs, cands + [r for rs in refs for r in rs], types, configs, pairs,
                  progress)


def _build(level: str, metric: str, cands, refs, texts, types, configs, pairs,
           progress: Progress | None = None) -> Comparison:
    """Rows from the cores' traces (``explain_bleu[_corpus]`` / ``explain_rouge[_corpus]``), then the pairs."""
    corpus = level == "corpus"
    if metric == "bleu":
        from explainer.bleu import explain_bleu, explain_bleu_corpus

        explain = explain_bleu_corpus if corpus else explain_bleu
        configs = list(configs) if configs is not None else bleu_row_configs(texts)

        def make(c):
            return bleu_row(c, explain(cands, refs, dialect=c.dialect, **c.opts))
    elif metric == "rouge":
        from explainer.rouge import explain_rouge, explain_rouge_corpus

        explain = explain_rouge_corpus if corpus else explain_rouge
        configs = list(configs) if configs is not None else rouge_row_configs(types)

        def make(c):
            return rouge_row(c, explain(cands, refs, dialect=c.dialect, types=list(c.types), **c.opts))
    else:
        raise ValueError(f"metric must be bleu or rouge, got {metric!r}")
    n_pairs = len(configs) - 1 if pairs is None else len(pairs)
    total = len(configs) + n_pairs
    rows = []
    for k, c in enumerate(configs):
        if progress is not None:
            progress(k, total, c.label)
        rows.append(make(c))
    _check_ids(rows)
    cmp = Comparison(metric, level, rows, [], cands, refs)
    _pairs(cmp, pairs, progress, len(configs), total)
    if progress is not None:
        progress(total, total, "done")
    return cmp


def _check_ids(rows) -> None:
    ids = [r.id for r in rows]
    if len(set(ids)) != len(ids):
        raise ValueError(f"row ids must be unique: {ids}")
