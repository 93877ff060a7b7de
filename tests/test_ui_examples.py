"""A worked example on the Explain page shows what to look at, and the numbers the textbook prints beside the
true values, which are the real libraries' (issue 10, defect 4)."""
from __future__ import annotations

import pytest
from rouge_score import rouge_scorer
from rouge_score import tokenize as rs_tokenize
from sacrebleu.metrics import BLEU

from explainer.examples import CLAIM_METRICS, EXAMPLES
from tests.ui_driver import BrowserLikeApp

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def _real(metric: str, cand: str, refs: list[str]) -> float:
    """The claim's metric as sacreBLEU (default BLEU) and rouge-score (default scorer, best reference) give it."""
    if metric.startswith("bleu"):
        s = BLEU().corpus_score([cand], [[r] for r in refs])
        return {"bleu": s.score / 100, "bleu_bp": s.bp, "bleu_p1": s.counts[0] / s.totals[0]}[metric]
    scores = rouge_scorer.RougeScorer(TYPES).score_multi(refs, cand)
    if metric == "rouge1_hits":   # hits = precision × candidate unigrams, of the reference kept
        c = len(rs_tokenize.tokenize(cand, None))
        return round(scores["rouge1"].precision * c)
    if metric in ("lcs", "lsum_hits"):
        from rouge_score.rouge_scorer import _lcs_table

        t = "rougeL" if metric == "lcs" else "rougeLsum"
        best = max(range(len(refs)), key=lambda k: rouge_scorer.RougeScorer([t]).score(refs[k], cand)[t].fmeasure)
        ref_toks = rs_tokenize.tokenize(refs[best], None)
        if metric == "lcs":
            c = rs_tokenize.tokenize(cand, None)
            return float(_lcs_table(ref_toks, c)[-1][-1])
        return round(scores[t].recall * len(ref_toks))
    t, _, which = metric.partition("_")
    return getattr(scores[t], {"p": "precision", "r": "recall", "f": "fmeasure"}[which])


WITH_CLAIMS = [e for e in EXAMPLES if e.claims]


def test_the_course_texts_wrong_numbers_are_there():
    assert {e.id for e in WITH_CLAIMS} >= {"cat_sat", "google", "earnings", "warfarin", "abandon_hope",
                                           "papineni_the", "military_party"}


@pytest.mark.parametrize("ex", WITH_CLAIMS, ids=lambda e: e.id)
def test_claims_beside_the_real_values(ex):
    app = BrowserLikeApp({"example": ex.id})
    assert not app.exceptions
    notes = [i.value.replace("\\", "") for i in app.at.info]
    assert any(ex.note in n for n in notes), notes
    table = next(d.value for d in app.at.dataframe if "agrees" in d.value.columns)
    assert list(table["number"]) == [CLAIM_METRICS[c.metric] for c in ex.claims]
    assert list(table["the textbook prints"]) == [c.printed for c in ex.claims]
    for c, shown, agrees in zip(ex.claims, table["these settings give"], table["agrees"]):
        real = _real(c.metric, ex.candidate, list(ex.references))
        assert float(shown) == pytest.approx(real, abs=6e-6), (c.metric, shown, real)
        holds = real < c.value - c.tol if c.relation == "<" else abs(real - c.value) <= c.tol + 1e-12
        assert agrees == ("yes" if holds else "no"), (c, real)


def test_wrong_claims_are_called_wrong_and_right_ones_right():
    """The course texts' verdicts (holds / does not hold) under the default settings."""
    verdicts = {}
    for ex in WITH_CLAIMS:
        app = BrowserLikeApp({"example": ex.id})
        table = next(d.value for d in app.at.dataframe if "agrees" in d.value.columns)
        for c, agrees in zip(ex.claims, table["agrees"]):
            verdicts[(ex.id, c.metric)] = agrees
    assert verdicts[("cat_sat", "bleu")] == "no"           # 0.576: no implementation gives it
    assert verdicts[("google", "rouge2_r")] == "no"        # about 14 %: ROUGE-2 is 0
    assert verdicts[("google", "rouge1_r")] == "yes"       # 3/7
    assert verdicts[("earnings", "lcs")] == "no"           # the LCS is 2, not 4
    assert verdicts[("warfarin", "rouge1_f")] == "no"
    assert verdicts[("cat_mat", "rouge1_r")] == "yes"
    assert verdicts[("papineni_the", "bleu_p1")] == "no"   # 2/7 needs lowercasing: 1/7 case-sensitive
    app = BrowserLikeApp({"example": "papineni_the", "lowercase": "1"})
    table = next(d.value for d in app.at.dataframe if "agrees" in d.value.columns)
    assert list(table["agrees"]) == ["yes"]


def test_no_note_once_the_text_is_edited():
    app = BrowserLikeApp({"example": "warfarin"})
    app.set("text_area", "candidate", "The patient takes aspirin.")
    assert not any("agrees" in d.value.columns for d in app.at.dataframe)


# --------------------------------------------------------------------- nothing speaks of where it was made
PROVENANCE = __import__("re").compile(r"seeds?[ /_]?0\d\d|\bS00\d-[A-Z]\b|\.\./shared|/work/|gaming-attacks\.md|"
                                      r"\bseeds/")
DOC_FILE = __import__("re").compile(r"docs/[\w.-]+\.\w+")


def _page_texts(at) -> str:
    parts = [e.value for e in at.markdown] + [e.value for e in at.caption] + [e.value for e in at.info] + \
        [e.value for e in at.warning] + [e.value for e in at.latex] + [e.label for e in at.selectbox] + \
        [str(o) for sb in at.selectbox for o in sb.options] + [m.label for m in at.metric] + \
        [h.proto.body for h in at.get("html")] + [str(d.value.to_dict()) for d in at.dataframe] + \
        [e.value for e in at.title] + [e.value for e in at.subheader]
    return "\n".join(parts)


def test_no_page_text_speaks_of_where_it_was_made():
    from explainer.bleu import dialect_names
    from tests.families_support import schema

    app = BrowserLikeApp({"example": "cat_mat"})
    seen = []
    for bd, rd in zip(dialect_names(), list(schema("rouge").dialects) * 2):
        app.select_many(bleu_dialect=bd, rouge_dialect=rd)
        text = _page_texts(app.at)
        seen += [(bd, rd, m.group(0)) for m in PROVENANCE.finditer(text)]
    for ex in EXAMPLES:
        app.select("example", ex.id)
        seen += [(ex.id, m.group(0)) for m in PROVENANCE.finditer(_page_texts(app.at))]
    app.at.switch_page("explainer/ui/pages/gaming_lab.py")
    app.run()
    from explainer.attacks.presets import ENTRIES

    for pid in list(ENTRIES):
        app.select("lab_preset", pid)
        seen += [(pid, m.group(0)) for m in PROVENANCE.finditer(_page_texts(app.at))]
    assert not seen, seen[:10]


def test_no_product_source_names_outside_files():
    """The texts in the UI code, the examples and the lab's presets name no file the repository lacks and no id of
    the course material."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[1] / "explainer"
    files = list((root / "ui").rglob("*.py")) + [root / "examples.py", root / "attacks" / "presets.py"]
    bad = [(f.name, m.group(0)) for f in files for m in PROVENANCE.finditer(f.read_text(encoding="utf-8"))]
    assert not bad, bad
    missing = [(f.name, m.group(0)) for f in files for m in DOC_FILE.finditer(f.read_text(encoding="utf-8"))
               if not (root.parent / m.group(0)).exists()]
    assert not missing, missing


def test_no_product_text_names_a_missing_file_or_where_it_was_made():
    """README, docs and every source of the package: no words about where the product was made (the course
    material, outside paths, its internal ids), and every repository path, golden file and Markdown file named
    exists in the repository (golden files are ``tests/data/golden/….jsonl.gz``)."""
    import pathlib
    import re
    import subprocess

    root = pathlib.Path(__file__).resolve().parents[1]
    tracked = set(subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout.split())
    if not tracked:   # not a git checkout: the files on disk
        tracked = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and ".venv" not in p.parts}
    files = sorted(p for p in tracked if p in ("README.md", "app.py") or (p.startswith("docs/") and p.endswith(".md"))
                   or (p.startswith("explainer/") and p.endswith(".py")))
    origin = re.compile(r"course (?:chapter|material|text)|\.\./shared|/work/|seeds?[ _]0\d\d|\bS00\d-[A-Z]\b", re.I)
    path = re.compile(r"(?<![\w/.-])((?:docs|tests|explainer|bench)/[\w./-]+\.\w+)")
    markdown = re.compile(r"(?<![\w/.-])([\w-]+\.md)\b")
    bare_golden = re.compile(r"(?<!data/)\bgolden/[\w/]+\.jsonl\b")
    # + downloads' file names (the lesson handouts, …-teacher.md / …-student.md; the Corpus page's
    # corpus_{metric}_table.md, the chrF view's corpus_chrf_table.md)
    downloads = {"bleu-rouge-lesson.md", "_table.md", "corpus_chrf_table.md", "-student.md", "-teacher.md"}
    names = {pathlib.PurePath(t).name for t in tracked} | downloads
    bad = []
    for f in files:
        text = (root / f).read_text(encoding="utf-8")
        bad += [(f, m.group(0)) for m in origin.finditer(text)]
        bad += [(f, m.group(0)) for m in bare_golden.finditer(text)]
        bad += [(f, m.group(1)) for m in markdown.finditer(text) if m.group(1) not in names]
        for m in path.finditer(text):
            p = m.group(1).rstrip(".")
            module = p.rsplit(".", 1)[0] + ".py"   # tests/ui_driver.BrowserLikeApp names a module's class
            if p not in tracked and module not in tracked and not any(t.startswith(p + "/") for t in tracked):
                bad.append((f, p))
    assert len(files) > 100 and not bad, bad
