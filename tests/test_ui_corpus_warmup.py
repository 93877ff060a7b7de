"""Reports computed ahead while the server is idle (issue 33, item 9): after a view, the other tokenizers' reports
are computed in the background — never while a page run is in progress — under the very key the page asks for
them, so a change of the tokenizer finds its report computed (the same object the page then shows)."""
from __future__ import annotations

import threading
import time

import pytest

from explainer.corpus.samples import load_sample
from explainer.ui.corpus import warmup


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(warmup, "IDLE_SECONDS", 0.2)
    assert warmup.drain(60)


def test_a_job_waits_for_the_page_runs_to_end():
    done = threading.Event()
    with warmup.page_run():
        warmup.schedule(("t", 1), done.set)
        time.sleep(0.6)
        assert not done.is_set()           # a page run is in progress: the worker waits
    assert done.wait(10)
    assert warmup.drain(10)


def test_a_running_computation_pauses_while_a_page_runs():
    steps, gate = [], threading.Event()

    def compute():
        for k in range(5):
            warmup.paused_progress(k / 5)
            steps.append(time.monotonic())
            if k == 1:
                gate.set()
                time.sleep(0.1)

    warmup.schedule(("t", 2), compute)
    assert gate.wait(10)
    with warmup.page_run():
        entered = time.monotonic()
        time.sleep(0.8)
    assert warmup.drain(10)
    later = [t for t in steps if t > entered]
    assert later and min(later) >= entered + 0.8      # nothing moved while the page ran (then IDLE_SECONDS more)


def test_the_other_tokenizers_reports_are_the_pages():
    """The report computed ahead for a tokenizer is the one the page gets for it (the shared results' entry)."""
    from explainer.families import FAMILIES
    from explainer.ui import compute
    from explainer.ui.corpus.reports import compute_report, report_key
    from explainer.ui.corpus.testset import testset_key

    class Fam:                      # the UI family's part the reports use: its name, label, core
        name, label, core = "bleu", "BLEU", FAMILIES["bleu"]

    ts = load_sample("news-en")
    key = testset_key(ts)
    compute.corpus_reports.clear()
    d = FAMILIES["bleu"].bind("sacrebleu", tokenize="char")
    warmup.schedule(report_key(Fam, ts, key, d), lambda: compute_report(Fam, ts, key, d, warmup.paused_progress))
    assert warmup.drain(300)
    calls = []
    ahead = compute_report(Fam, ts, key, d, lambda *a: calls.append(a))
    assert calls == [] and ahead.d.options["tokenize"] == "char"      # computed ahead: the page computes nothing
    assert ahead.systems[0].score == FAMILIES["bleu"].corpus(d, ts.systems[0][1], ts.references) \
        .measures["score"].score


def test_every_fragment_of_the_page_pauses_the_background_work():
    """A click reruns a fragment, not the page: the background reports must wait for it too (on WMT22 en-de the
    warm-up's statistics ran beside every section, analysis and segment click, 1,484 of 4,099 server samples).
    Each function the Corpus page runs as a fragment enters ``warmup.page_run()`` first."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "explainer" / "ui" / "corpus"
    found = []
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        fragments = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and any(
            "fragment" in ast.unparse(d) for d in n.decorator_list)}
        # a function handed to st.fragment(...) by name (a lazy section's)
        fragments |= {a.id for c in ast.walk(tree) if isinstance(c, ast.Call) and ast.unparse(c.func) == "st.fragment"
                      for a in c.args if isinstance(a, ast.Name)}
        for n in ast.walk(tree):
            if isinstance(n, ast.FunctionDef) and n.name in fragments:
                body = [s for s in n.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
                first = ast.unparse(body[0]) if body else ""
                found.append((path.name, n.name, first.startswith("with warmup.page_run()")))
    assert len(found) >= 6, found
    assert [f for f in found if not f[2]] == []
