"""The scoring work of a test set on the Corpus page: the budget per upload, and how long it will take, said
before the work.

A report reads every system's lines and, for each system, the references' (``scoring_work``: characters ×
systems); ROUGE also costs a Python step per segment and system, chrF per character n-gram. An upload within
the page's other limits could still be hours of work for the server (one system and one reference of 20,000
segments of ~950 characters: 46 s of CPU, 725 MB), so the work itself is bounded (:data:`PAGE_MAX_WORK_CHARS`),
checked when the test set is read, before any scoring. The time each metric's first view takes is estimated from
the same size with each family's weights (``UiFamily.corpus_cost``), measured on the 2-core machine
(``bench/bench_corpus_upload.py``: the CPU of the run that draws the page from a new report, under
streamlit.testing), rounded up; the page says it before scoring,
with the progress bar and a Stop button. Pure: no Streamlit.
"""
from __future__ import annotations

from explainer.corpus.testset import TestSet, TestSetError

__all__ = ["PAGE_MAX_WORK_CHARS", "scoring_work", "scoring_seconds", "check_work", "estimate_text"]

#: the most characters × systems one test set may give the page to score (its systems' characters plus the
#: references' once per system): a whole WMT language pair, 20 systems × 20,000 segments × 4 references of ~200
#: characters (issue 29: no cap below what test sets have), about 9 min for BLEU's view on the 2-core machine,
#: said before scoring with a Stop; a WMT22 test set of 9 systems and 2 references is ~7 million
PAGE_MAX_WORK_CHARS = 400_000_000


def scoring_work(ts: TestSet) -> int:
    """Characters × systems: every system's characters plus the references' once per system."""
    refs = sum(len(r) for rs in ts.references for r in rs)
    return sum(sum(map(len, lines)) for _, lines in ts.systems) + refs * len(ts.systems)


def scoring_seconds(ts: TestSet, family: str) -> float:
    """The estimated CPU seconds of the first view of a family's report (``family``: its name, e.g. "bleu"; the
    family's weights: :attr:`explainer.ui.families.UiFamily.corpus_cost`)."""
    from explainer.ui.families import ui_family

    per_char, per_segment = ui_family(family.lower()).corpus_cost
    return (scoring_work(ts) * per_char + ts.n_segments * len(ts.systems) * per_segment) / 1e6


def check_work(ts: TestSet) -> None:
    """Refuse a test set over the page's scoring budget (before any scoring)."""
    from explainer.ui.families import ui_families

    work = scoring_work(ts)
    if work > PAGE_MAX_WORK_CHARS:
        fastest = min(scoring_seconds(ts, f.name) for f in ui_families())
        raise TestSetError(
            f"these files make {work / 1e6:.1f} million characters of scoring work (each system's characters plus "
            f"the references' once per system), over the page's limit of {PAGE_MAX_WORK_CHARS / 1e6:.0f} million "
            f"(about {fastest / 60:.0f} min of the server's time for the quickest metric): use fewer segments or "
            "systems here, or `python -m explainer compare` for the whole test set")


def estimate_text(ts: TestSet, family: str) -> str:
    """The sentence said before a family's report is computed."""
    secs = scoring_seconds(ts, family)
    when = "about a second" if secs < 1.5 else f"about {secs:.0f} s" if secs < 90 else f"about {secs / 60:.0f} min"
    return (f"Scoring {len(ts.systems)} system(s) × {ts.n_segments:,} segments ({scoring_work(ts) / 1e6:.1f} million "
            f"characters of work): {when} of the server's time, longer while other visitors' work runs.")
