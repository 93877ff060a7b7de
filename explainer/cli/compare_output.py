"""`compare`'s paired tests and confidence intervals over the systems' statistics, and its output (JSON or the
``--format`` tables, the ``--segments`` CSV, the ``--report`` JSON). Split from ``explainer/cli/compare.py``."""
from __future__ import annotations

from explainer.cli.io import CliError

__all__ = ["run_tests", "emit", "write_csv", "write_json"]


# ---------------------------------------------------------------------------------------------- tests
def run_tests(systems, statistics, settings, *, faithful: bool, plain_sig: str, sacre: bool,
              higher_is_better: bool = True) -> dict:
    """The paired test (or the intervals) of ``statistics`` (one per system, the first the baseline) as ``settings``
    ask, and the matrix of every pair (clusters in the measure's direction: ``higher_is_better``)."""
    from explainer.corpus.significance import (
        bootstrap_confidence,
        confidence_signature,
        paired_signature,
        paired_test,
        seed_from_env,
    )

    paired, n, conf_n = settings["paired"], settings["n"], settings["confidence_n"]
    rows = [{"name": name, "score": float(st.score), "p_value": None, "mean": None, "ci": None}
            for (name, _), st in zip(systems, statistics)]
    test: dict = {"type": None, "faithful": faithful}
    sig = plain_sig
    if paired:
        n_conf = conf_n if (paired == "ar" and conf_n) else -1
        res = paired_test([(name, st) for (name, _), st in zip(systems, statistics)], test=paired, n_samples=n,
                          n_ar_confidence=n_conf, faithful=faithful)
        rows = [r.to_dict() for r in res.systems]
        test.update({"type": paired, "name": "paired bootstrap resampling" if paired == "bs"
                     else "paired approximate randomization", "n_samples": n, "seed": res.seed,
                     "n_ar_confidence": res.n_ar_confidence, "baseline": systems[0][0]})
        if not faithful:
            test["note"] = res.note
        if sacre:
            sig = paired_signature(plain_sig, paired, n, res.seed, res.n_ar_confidence)
    if paired and settings.get("all_pairs"):
        from explainer.corpus.significance import pair_matrix

        matrix = pair_matrix([(name, st) for (name, _), st in zip(systems, statistics)], test=paired,
                             n_samples=n, faithful=faithful, higher_is_better=higher_is_better).to_dict()
    else:
        matrix = None
    if not paired and conf_n:
        seed_str, _ = seed_from_env()
        for row, st in zip(rows, statistics):
            c = bootstrap_confidence(st, conf_n, faithful=faithful)
            row["mean"], row["ci"] = float(c.mean), float(c.ci)
            if c.library_error:
                row["library_error"] = c.library_error
        test.update({"type": "confidence", "name": "bootstrap confidence interval (per system)",
                     "n_samples": conf_n, "seed": seed_str})
        if not faithful:
            test["note"] = ("the project's own extension: sacreBLEU's bootstrap applied to this metric's "
                            "statistics")
        if sacre:
            sig = confidence_signature(plain_sig, conf_n, seed_str)
    out = {"systems": rows, "signature": sig, "test": test}
    if matrix is not None:
        out["matrix"] = matrix
    return out


# ---------------------------------------------------------------------------------------------- output
def emit(obj, fmt: str = "json") -> None:
    from explainer.cli.io import write_json
    from explainer.corpus.export import clean_json

    if fmt != "json":
        import sys

        from explainer.corpus.tables import render_table

        sys.stdout.write(render_table(clean_json(obj), fmt))
        return
    write_json(clean_json(obj), "the comparison")


def write_csv(path: str, cols) -> None:
    from explainer.corpus.export import write_columns_csv

    try:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            write_columns_csv(fh, cols)
    except BrokenPipeError:     # --segments /dev/stdout | head: the reader went away, quiet as for stdout
        raise
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None


def write_json(path: str, obj) -> None:
    from explainer.corpus.export import json_text

    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(json_text(obj))
    except BrokenPipeError:
        raise
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from None
