"""Which settings give a corpus score printed in a paper? ``reproduce_corpus(candidates, references, claim)``.

The search covers every family the claim may be (as ``reproduction.reproduce``), each through its part
(``explainer.dialectcmp.families``) over the configurations its dialects declare for a corpus score
(``Dialect.search_configs`` with ``context.corpus``): BLEU's implementations × tokenizers × case × smoothing and
effective order × max order; ROUGE's dialect × tokenizer × stemming × aggregation (rouge-score's bootstrap mid or
the mean of the per-document scores, HF evaluate's bootstrap mid, ROUGE-1.5.5's Average) × multi-reference rule;
chrF's and TER's settings; each over every reference subset (all references, each single one, each pair, ...).
Ranked by how common a configuration is (the cost of what a reader would have to be told), as the segment-level
search.

Each match carries the ``argv`` of ``python -m explainer <family> --hyp HYP --ref REF ...`` (the reference files
of its subset, in order) that prints its ``value`` (at ``value_path`` of that command's JSON output).

Time: the BLEU statistics are shared as ``corpus_engines`` describes; a ROUGE aggregation is computed exactly
where its plain mean is near the claim (and for the nearest values), see ``rouge_corpus_search``. Figures:
docs/benchmarks.md ("reproduce, corpus").
"""
from __future__ import annotations

import time
from typing import Callable, Sequence

from explainer.dialectcmp.claim import Claim, parse_claim
from explainer.dialectcmp.corpus_engines import corpus_subsets
from explainer.dialectcmp.limits import check_reproduce_corpus
from explainer.dialectcmp.reproduction import (
    MAX_MATCHES,
    Reproduction,
    _Collector,
    _refusal,
    _ticker,
    finish,
    searched_parts,
)
from explainer.dialectcmp.space import search_context

__all__ = ["reproduce_corpus", "reproduce_corpus_claims", "DEFAULT_PATHS"]

#: file names used in ``argv`` when the caller gives none
DEFAULT_PATHS = ("HYP", ("REF1", "REF2", "REF3", "REF4"))


class _CorpusCollector(_Collector):
    """A collector whose matches carry the corpus command (``--hyp``/``--ref`` files) instead of a stdin line."""

    def __init__(self, claim: Claim, hyp_path: str, ref_paths: Sequence[str]) -> None:
        super().__init__(claim, "", [])
        self.hyp_path = hyp_path
        self.ref_paths = list(ref_paths)
        self.value_paths: dict = {}

    def _stdin(self, cand, refs, subset) -> str:
        return ""


def _files_argv(argv: list[str], hyp_path: str, ref_paths: Sequence[str] | None, subset) -> list[str]:
    """``bleu|rouge --jsonl - ...`` as the corpus command over files: ``--hyp HYP --ref R ...``, or ``--jsonl
    FILE --corpus`` (``ref_paths`` None: texts with line breaks, one JSON object per segment)."""
    head, rest = argv[0], argv[3:]
    if ref_paths is None:
        return [head, "--jsonl", hyp_path, "--corpus"] + rest
    out = [head, "--hyp", hyp_path]
    for k in subset:
        out += ["--ref", ref_paths[k]]
    return out + rest


def reproduce_corpus(candidates: Sequence[str], references: Sequence[Sequence[str]], claim: str | Claim, *,
                     metric: str = "any", paths: tuple | None = None,
                     progress: Callable[[int, int], None] | None = None,
                     max_matches: int | None = MAX_MATCHES) -> Reproduction:
    """Search the configurations for a corpus claim. ``references[i]`` are segment i's references (the same number
    for every segment: one per reference file); ``paths``: (hypothesis file, [reference files]) for the ``argv``
    of the matches, or (JSONL file, None) for a corpus read from one JSONL file (texts may hold line breaks:
    multi-sentence summaries; only all the references are searched then, as the file holds them). A claim naming
    another metric comes back ``refused``."""
    t0 = time.perf_counter()
    cands, refs = check_reproduce_corpus(candidates, references)
    refused = _refusal(claim)
    if refused is not None:
        return refused
    cl = claim if isinstance(claim, Claim) else parse_claim(claim, metric)
    n_refs = len(refs[0])
    hyp_path, ref_paths = paths or (DEFAULT_PATHS[0], [f"REF{k + 1}" for k in range(n_refs)])
    ref_paths = list(ref_paths) if ref_paths is not None else None
    col = _CorpusCollector(cl, hyp_path, ref_paths or [])
    subsets = corpus_subsets(n_refs) if ref_paths is not None else corpus_subsets(n_refs)[:1]
    sample = cands[:200] + [r for rs in refs[:200] for r in rs]
    context = search_context(sample, corpus=True, named=cl.named)
    parts = searched_parts(cl)
    tick = _ticker(progress, sum(len(p.space(cl, context)) for p in parts))
    for part in parts:
        part.search_corpus(col, cl, cands, refs, subsets, context, tick)
    tick.finish()
    res = finish(col, cl, t0, max_matches)
    for m in res.matches + res.truncated + res.nearest:
        m.corpus_argv = _files_argv(m.config.argv(), hyp_path, ref_paths, m.references)
        m.value_path = col.value_paths.get((m.metric, m.config, tuple(m.references), m.measure), ["score"])
    res.n_configurations = col.n
    res.seconds = time.perf_counter() - t0
    return res


def reproduce_corpus_claims(candidates, references, text: str, **kw) -> list[Reproduction]:
    """``reproduce_corpus`` for each number of a claim string (each under its own name)."""
    from explainer.dialectcmp.reproduction import claim_parts

    return [reproduce_corpus(candidates, references, p, **kw) for p in claim_parts(text)]
