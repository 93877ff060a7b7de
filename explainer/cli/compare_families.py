"""`compare` with several metrics at once (``--metric bleu,chrf,ter``), or with one whose family has no runner of
its own (TER, …): the test set read whole, every chosen family's corpus scores through its
:class:`explainer.family.MetricFamily` (``explainer.corpus.scoreboard``), each measure's paired tests, intervals
and matrix of every pair against the baseline (``compare_output.run_tests``: sacreBLEU's ``PairedTest`` with the
measure's statistic), and one JSON object: the metric's own fields for one measure, else ``"metrics"`` with one
object per measure (the tables print a column each).

Options with several metrics: ``--dialect FAMILY=DIALECT[,FAMILY=DIALECT]``; ``-o FAMILY.KEY=VALUE`` for one
family, ``-o KEY=VALUE`` for every chosen family whose dialect has the option; a family's own flags (``--tokenize``,
``--char-order``, ``--types`` …) go to it, read by its runner's ``bind``. Nothing here names a family.
"""
from __future__ import annotations

import importlib
from typing import Any

from explainer.cli import compare as ccli
from explainer.cli.compare_output import run_tests, write_csv
from explainer.cli.io import CliError, option_pairs

__all__ = ["run", "runner_module"]


def runner_module(path: str):
    """The module of a family's own runner (``"module:function"`` of the CLI's registration table)."""
    return importlib.import_module(path.partition(":")[0])


def _options_for(fam, dialect: str | None, pairs: dict[str, str]) -> dict[str, str]:
    """The ``-o`` options that go to this family: ``FAMILY.KEY=VALUE`` its own, ``KEY=VALUE`` when its dialect has
    the option."""
    names = {o["name"] for o in fam.options(dialect or fam.default_dialect)}
    out = {}
    for k, v in pairs.items():
        head, dot, key = k.partition(".")
        if dot and head.lower() == fam.name:
            out[key] = v
        elif not dot and k in names:
            out[k] = v
    return out


def _bind(args, fam, dialect: str | None, runners: dict, *, strict: bool):
    """The bound dialect of one family: its runner's ``bind`` (which reads the family's own flags) with the
    ``-o`` options that are the family's, else the family's own ``bind`` with them."""
    pairs = option_pairs(args.option)
    mine = _options_for(fam, dialect, pairs)
    if fam.name in runners:
        saved = (args.dialect, args.option)
        args.dialect, args.option = dialect, [f"{k}={v}" for k, v in mine.items()]
        try:
            return runner_module(runners[fam.name]).bind(args, strict=strict)
        finally:
            args.dialect, args.option = saved
    try:
        return fam.bind(dialect, **mine)
    except ValueError as e:
        raise CliError(str(e)) from None


def _check_options_used(args, chosen) -> None:
    """Every ``-o`` option goes to at least one of the metrics compared."""
    for k in option_pairs(args.option):
        head, dot, key = k.partition(".")
        fams = [fam for fam, d in chosen if (head.lower() == fam.name if dot else k in d.options)]
        if not fams:
            raise CliError(f"-o {k}: no metric compared has this option ({', '.join(f.name for f, _ in chosen)})")


def run(args, systems, settings, metrics: list[str], runners: dict) -> dict:
    """The comparison of every chosen metric (the --segments file written)."""
    from explainer.corpus.scoreboard import score_families
    from explainer.families import FAMILIES

    if args.report:
        raise CliError(f"--report writes one metric's corpus report: give one of {', '.join(runners)} as --metric")
    names = ccli.dialect_names(args, metrics)
    fams = [FAMILIES[m] for m in metrics]
    chosen = [(f, _bind(args, f, names[f.name], runners, strict=len(metrics) == 1)) for f in fams]
    _check_options_used(args, chosen)
    ts = ccli.read_testset(args, systems, settings)
    systems = ccli.systems_of(ts, systems)
    board = score_families(ts, chosen)
    cols = [_column(col, systems, settings) for col in board.columns]
    if args.segments:
        write_csv(args.segments, _segment_columns(board))
    shared: dict[str, Any] = {"n_segments": board.n_segments, "n_references": board.n_references,
                              "warnings": list(getattr(args, "corpus_warnings", []))}
    if getattr(args, "detected", None):
        shared["inputs"] = args.detected
    if len(cols) == 1:
        return {**cols[0], **shared}
    return {"metrics": cols, "systems": [n for n, _ in systems], **shared,
            "test": {k: v for k, v in cols[0]["test"].items() if k not in ("faithful", "note")}}


def _column(col, systems, settings) -> dict:
    """One measure: its description, then ``run_tests``' rows, signature, test and matrix."""
    from explainer.corpus.scoreboard import column_dict

    stats = col.statistics()
    if stats is None and (settings["paired"] or settings["confidence_n"]):
        raise CliError(col.no_tests)
    head = {k: v for k, v in column_dict(col, [n for n, _ in systems]).items() if k not in ("systems", "test")}
    if stats is None:
        rows = [{"name": n, "score": v, "p_value": None, "mean": None, "ci": None}
                for (n, _), v in zip(systems, col.values)]
        return {**head, "systems": rows, "test": {"type": None, "faithful": col.faithful}}
    got = run_tests(systems, stats, settings, faithful=col.faithful, plain_sig=col.signature, sacre=col.faithful,
                    higher_is_better=col.measure.higher_is_better)
    return {**head, **got}


def _segment_columns(board) -> dict:
    """The per-segment table: each measure's segment score per system (the family's named definition) and its
    difference to the baseline's."""
    cols: dict[str, list] = {"segment": list(range(1, board.n_segments + 1))}
    for col in board.columns:
        base = col.scores[0].segment_scores
        for j, (name, ms) in enumerate(zip(board.names, col.scores)):
            cols[f"{name} | {col.label}"] = ms.segment_scores.tolist()
            if j:
                cols[f"{name} | Δ {col.label}"] = (ms.segment_scores - base).tolist()
    return cols
