"""`python -m explainer semantic ...`: STS and BERTScore with all-MiniLM-L6-v2 (offline; docs/semantic.md).

Segments: ``--jsonl FILE|-``: one JSON object per line, ``{"candidate": str, "references": [str, ...]}``; writes one
JSON object per line, in order, with ``sts`` (the highest cosine over the references), ``bertscore``
(``precision``, ``recall``, ``f1``: each the maximum over the references, as bert-score 0.3.13), ``chosen_references``
(which reference gave each), ``model`` (name, package, revision = the weights' sha256), ``signatures``,
``warnings`` and ``library_error`` (``--full``: the two traces under ``trace``; ``--corpus``: the lines as one
corpus). Corpus: ``--hyp FILE --ref FILE [--ref FILE ...]`` writes one JSON object: the mean of the segment scores
(``--segments``: every segment's scores too). ``--idf``: bert-score's idf weights (from the references of the
call: one line's, or the whole corpus's). Input, output and error rules: ``explainer.cli.io``.
"""
from __future__ import annotations

import argparse

from explainer.cli.io import CliError, add_segment_inputs, run_input, write_json

__all__ = ["add_arguments", "run"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_segment_inputs(p)
    p.add_argument("--idf", action="store_true",
                   help="BERTScore with idf weights over the references of the call (bert_score.score(idf=True))")
    p.add_argument("--full", action="store_true", help="write both traces (word pieces, similarity matrices, ...)")
    p.add_argument("--corpus", action="store_true",
                   help="with --jsonl: score the lines as one corpus (the mean of the segment scores)")
    p.add_argument("--segments", action="store_true", help="corpus modes: also every segment's scores")


def _shown(d, values: dict, chosen: dict) -> tuple:
    """A dialect's numbers as printed: its one measure's value (STS), or a mapping of its measures (BERTScore)."""
    if len(d.measures) == 1:
        return values[d.headline], chosen[d.headline]
    return {m: values[m] for m in d.measures}, {m: chosen[m] for m in d.measures}


def _result(dialects, results, numbers) -> dict:
    """One JSON object from each dialect's result (``numbers(result) -> (values, chosen)``)."""
    out: dict = {}
    chosen: dict = {}
    for d, r in zip(dialects, results):
        out[d.name], chosen[d.name] = _shown(d, *numbers(r))
    errors = {d.name: r.library_error.to_dict() for d, r in zip(dialects, results) if r.library_error}
    out.update(chosen_references=chosen, model=results[0].model.to_dict(),
               signatures={d.name: r.signature for d, r in zip(dialects, results)},
               warnings=[w.to_dict() for r in results for w in r.warnings], library_error=errors or None)
    return out


def _corpus_result(dialects, scores: dict, segments: bool) -> dict:
    results = [scores[d.name] for d in dialects]
    out = _result(dialects, results, lambda r: ({m: r.corpus_score(m) for m in r.measures},
                                                {m: None for m in r.measures}))
    del out["chosen_references"]
    out = {"n_segments": results[0].n_segments, **out, "aggregation": "the mean of the segment scores"}
    if segments:
        out["segments"] = {d.name: _shown(d, r.to_dict()["segments"], r.chosen)[0] for d, r in zip(dialects, results)}
        out["segments"]["chosen_references"] = {d.name: _shown(d, r.chosen, r.chosen)[0]
                                                for d, r in zip(dialects, results)}
    return out


def run(args) -> int:
    import explainer.semantic as semantic

    if args.segments and not (args.corpus or args.hyp is not None):
        raise CliError("--segments is for corpus modes: use --hyp/--ref files or --jsonl with --corpus")
    semantic.model_info()            # the model package is there: fail before reading any input
    flags = {"idf": args.idf}        # each dialect takes the flags that are its options

    def bound(name: str):
        own = {o.name for o in semantic.DIALECTS[name].OPTIONS}
        return semantic.get_dialect(name, **{k: v for k, v in flags.items() if k in own})

    dialects = [bound(name) for name in semantic.dialect_names()]

    def per_segment(cand: str, refs: list[str]) -> dict:
        if args.full:
            traces = [semantic.explain_semantic(cand, refs, dialect=d) for d in dialects]
            out = _result(dialects, traces, lambda t: (t.values, t.chosen))
            out["trace"] = {d.name: t.to_dict() for d, t in zip(dialects, traces)}
            return out
        scores = [semantic.score_semantic(cand, refs, dialect=d) for d in dialects]
        return _result(dialects, scores, lambda r: (r.values, r.chosen))

    def corpus(hyps, refs) -> int:
        if args.full:
            raise CliError("--full writes one segment's traces: use --jsonl without --corpus")
        try:
            scores = semantic.score_semantic_systems({"": hyps}, refs, dialects=dialects)[""]
        except ValueError as e:
            raise CliError(str(e)) from None
        write_json(_corpus_result(dialects, scores, args.segments), "the corpus result")
        return 0

    return run_input(args, per_segment, corpus, metric="the semantic metrics")
