"""From texts to traces and scores: the checks, the word pieces, one run of the model, then each dialect.

segment  check the limits ──► each dialect reads the texts (its truncation) ──► the distinct piece sequences
         through the model (shared by STS and BERTScore when equal; process cache) ──► dialect.build_trace
corpus   check characters ──► word pieces, counted against the limit ──► the model over blocks of segments (every
         system's candidate and the references of a block at once, each distinct text once) ──► each dialect's
         segment values ──► per system and dialect the segment scores, their mean the corpus score

A corpus call is one ``bert_score.score`` call per system: its idf dict comes from all the references, and its
batches of 64 pairs decide the padding (``dialect.context``). With ``keep_references`` the references' embeddings
are looked up in, and kept for the next call in, the process's ``REFERENCE_STORE``.

Everything runs with the matrix products on one BLAS thread (``explainer.semantic.cores``): the model's large
runs use the worker threads, and a segment's small products (similarity matrices) are fastest on one.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

from explainer.errors import ExplainerInputError
from explainer.semantic import limits
from explainer.semantic.cores import one_blas_thread
from explainer.semantic.dialects import SemanticDialect
from explainer.semantic.embed import embed, embed_stream, run_cost
from explainer.semantic.model import load_model
from explainer.semantic.refstore import REFERENCE_STORE
from explainer.semantic.scores import SemanticCorpusScores, SemanticScores

__all__ = ["explain_segment", "score_segment", "score_systems", "segment_cost"]


def _read_segment(d: SemanticDialect, candidate: str, references: Sequence[str]):
    limits.check_segment(candidate, references)
    model = load_model()
    cand, *refs = d.read(model, [candidate, *references])
    return model, cand, refs


def explain_segment(d: SemanticDialect, candidate: str, references: Sequence[str]):
    """The dialect's trace of one candidate against its references (``StsTrace`` / ``BertScoreTrace``)."""
    model, cand, refs = _read_segment(d, candidate, references)
    if "f1" in d.measures:
        limits.check_trace_cells(sum(len(cand) * len(r) for r in refs))
    with one_blas_thread():
        embs = embed(model, [cand.ids] + [r.ids for r in refs])
        return d.build_trace(model, cand, refs, embs[0], embs[1:], d.context(model, [cand], [refs]))


def segment_cost(d: SemanticDialect, candidate: str, references: Sequence[str]) -> int:
    """What :func:`score_segment` would cost the model (``embed.run_cost`` of the texts not yet embedded), counted
    from the word pieces before the model runs."""
    _, cand, refs = _read_segment(d, candidate, references)
    return run_cost([cand.ids] + [r.ids for r in refs])


def score_segment(d: SemanticDialect, candidate: str, references: Sequence[str]) -> SemanticScores:
    """The numbers of one segment, without the steps (no similarity matrices kept)."""
    model, cand, refs = _read_segment(d, candidate, references)
    with one_blas_thread():
        embs = embed(model, [cand.ids] + [r.ids for r in refs])
        v = d.segment_values(0, cand, refs, embs[0], embs[1:], d.context(model, [cand], [refs]))
    warns, err = d.check_inputs([cand], [refs])
    return SemanticScores(d.name, d.options_dict(), model.info, d.signature(model.info), d.measures, v.values,
                          v.chosen, v.per_reference, warns, err)


def _check_corpus(systems: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]]) -> None:
    if not systems:
        raise ExplainerInputError("no system to score")
    n = len(references)
    if n == 0:
        raise ExplainerInputError("the corpus has no segment")
    for name, cands in systems.items():
        if len(cands) != n:
            raise ExplainerInputError(f"system {name!r} has {len(cands):,} segments but there are {n:,} "
                                      "reference sets: they must be line-aligned")
    for i, refs in enumerate(references):
        if not refs:
            raise ExplainerInputError(f"segment {i + 1} has no reference")
    texts = [t for c in systems.values() for t in c] + [r for refs in references for r in refs]
    if not all(isinstance(t, str) for t in texts):
        raise ExplainerInputError("every candidate and reference must be a string")
    limits.check_corpus_chars([t for c in systems.values() for t in c], references)
    limits.check_length(texts, "text")


def _read_all(model, dialects, systems, references):
    """Per dialect: (per system the candidates read, the references read per segment)."""
    flat = [r for refs in references for r in refs]
    out = {}
    for d in dialects:
        read = d.read(model, flat, spans=False)
        refs, k = [], 0
        for rs in references:
            refs.append(read[k:k + len(rs)])
            k += len(rs)
        out[d] = ({name: d.read(model, cands, spans=False) for name, cands in systems.items()}, refs)
    return out


def score_systems(dialects: Sequence[SemanticDialect], systems: Mapping[str, Sequence[str]],
                  references: Sequence[Sequence[str]], *, progress: Callable[[float], None] | None = None,
                  keep_references: bool = False) -> dict[str, dict[str, SemanticCorpusScores]]:
    """Every system's segment and corpus scores under every dialect: ``result[system][dialect name]``. The model
    runs once per distinct text (references shared by the systems and the dialects; with ``keep_references``,
    by the calls too)."""
    _check_corpus(systems, references)
    model = load_model()
    read = _read_all(model, dialects, systems, references)
    groups, ref_seqs = [], set()
    for i in range(len(references)):
        seqs = {t.ids for d in dialects for t in read[d][1][i]}
        ref_seqs |= seqs
        seqs |= {cands[i].ids for d in dialects for cands in read[d][0].values()}
        groups.append(sorted(seqs))
    limits.check_corpus_pieces(sum(len(s) for g in groups for s in g))
    contexts = {(d, name): d.context(model, cands, read[d][1]) for d in dialects for name, cands in read[d][0].items()}
    store = REFERENCE_STORE if keep_references else None
    with one_blas_thread():
        values = _segment_values(dialects, read, groups, contexts,
                                 embed_stream(model, groups, progress, store=store, kept=ref_seqs))
    return {name: {d.name: _corpus_scores(model, d, read[d][0][name], read[d][1], values[(d, name)])
                   for d in dialects} for name in systems}


def _segment_values(dialects, read, groups, contexts, stream) -> dict:
    """Per (dialect, system) the values of every segment, as the embeddings come."""
    values: dict = {(d, name): [] for d in dialects for name in read[dialects[0]][0]}
    for i, embs in enumerate(stream):
        table = dict(zip(groups[i], embs))
        for d in dialects:
            refs = read[d][1][i]
            ref_embs = [table[r.ids] for r in refs]
            for name, cands in read[d][0].items():
                c = cands[i]
                values[(d, name)].append(d.segment_values(i, c, refs, table[c.ids], ref_embs,
                                                          contexts[(d, name)]))
    return values


def _corpus_scores(model, d: SemanticDialect, cands, refs, vals) -> SemanticCorpusScores:
    import numpy as np

    warns, err = d.check_inputs(cands, refs)
    seg = {m: np.array([v.values[m] for v in vals], dtype=np.float64) for m in d.measures}
    chosen = {m: [v.chosen[m] for v in vals] for m in d.measures}
    return SemanticCorpusScores(d.name, d.options_dict(), model.info, d.signature(model.info), d.measures,
                                d.headline, seg, chosen, warns, err)
