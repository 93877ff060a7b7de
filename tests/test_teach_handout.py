"""Teach handouts: self-contained HTML (no script, no external resource, a CSP, print CSS with a page per step),
the real libraries' numbers in it, user text escaped (HTML and Markdown), and the Markdown version."""
from __future__ import annotations

import base64
import re
from html.parser import HTMLParser

import pytest

from explainer.examples import get_example
from explainer.teach import LESSON_TYPES, build_lesson
from explainer.ui.teach.teach_html import handout_html, step_html
from explainer.ui.teach.teach_markdown import handout_markdown, md_text

XSS = '<img src=x onerror=alert(1)> "q" & <script>alert(2)</script> [l](javascript:alert(3)) $x$ *b* |'


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def parse(html: str) -> list[tuple[str, dict]]:
    p = Tags()
    p.feed(html)
    return p.tags


def lesson_for(eid: str, **kw):
    ex = get_example(eid)
    return build_lesson(ex.candidate, list(ex.references), title=ex.title, **kw)


def test_handout_is_self_contained_and_offline():
    L = lesson_for("cat_mat")
    doc = handout_html(L, settings=[("BLEU", L.bleu_summary["signature"])], link="http://localhost/teach?example=cat_mat")
    tags = parse(doc)
    names = {t for t, _ in tags}
    assert not names & {"script", "link", "img", "iframe", "object", "embed", "video", "audio", "source", "base",
                        "form", "input"}
    for tag, attrs in tags:
        for k, v in attrs.items():
            assert not k.startswith("on"), (tag, k)
            if k in ("src", "href", "action", "data"):
                assert v.startswith("#"), (tag, k, v)   # only in-page anchors
    css = "".join(re.findall(r"<style>(.*?)</style>", doc, re.S))
    assert "@import" not in css and not re.search(r"url\((?!#)", doc)
    assert "default-src 'none'" in doc
    # one section per step, each starting a printed page
    assert doc.count('<section class="step"') == len(L.steps)
    assert re.search(r"@media print\{[^@]*section\.step[^}]*break-before:page", css)
    assert doc.count("<svg") == sum(1 for s in L.steps for b in s.blocks if type(b).__name__ == "Chart")


def test_handout_numbers_are_the_real_libraries():
    from rouge_score import rouge_scorer
    from sacrebleu.metrics import BLEU

    ex = get_example("abandon_hope")
    L = lesson_for("abandon_hope")
    doc = handout_html(L)
    real = BLEU().corpus_score([ex.candidate], [[r] for r in ex.references]).score
    m = re.search(r'data-metric="bleu" data-value="([^"]+)">[^<]*<span class="tres-v">([^<]+)</span>', doc)
    assert float(m.group(1)) == pytest.approx(real, abs=1e-9) and m.group(2) == f"{real:.4f}"
    sc = rouge_scorer.RougeScorer(list(LESSON_TYPES)).score_multi(list(ex.references), ex.candidate)
    for t in LESSON_TYPES:
        m = re.search(rf'data-metric="{t}_f" data-value="([^"]+)"', doc)
        assert float(m.group(1)) == pytest.approx(sc[t].fmeasure, abs=1e-9)


def test_user_text_is_escaped_in_html():
    L = build_lesson(XSS, ["ref with <b>bold</b> and \u202eevil"], title="<i>t</i>")
    doc = handout_html(L, settings=[("<s>", "<u>")], link='x"><script>')
    tags = parse(doc)
    assert not any(t in ("img", "script", "i", "s", "u") for t, _ in tags)   # (the page's own labels use <b>)
    assert "&lt;img src=x onerror=alert(1)&gt;" in doc and "&lt;script&gt;" in doc
    assert "U+202E" in doc and "\u202e" not in doc          # the bidi override as a visible badge
    for s in L.steps:   # the page's rendering: charts are <img> with a data: URI of the escaped SVG
        for tag, attrs in parse(step_html(s, notes=True)):
            assert tag != "script" and not any(k.startswith("on") for k in attrs)
            if tag == "img":
                assert attrs["class"] == "tchart" and attrs["src"].startswith("data:image/svg+xml;base64,")
                svg = base64.b64decode(attrs["src"].split(",", 1)[1]).decode()
                assert "<img" not in svg and "<script" not in svg


def test_markdown_handout():
    L = lesson_for("cat_mat")
    md = handout_markdown(L, settings=[("BLEU", L.bleu_summary["signature"])])
    for i, s in enumerate(L.steps):
        assert f"## Step {i + 1} · {s.family} · " in md
    assert "## Answers" in md and md.count("**Predict first:**") == len(L.questions())
    assert f"**BLEU (sacrebleu, 0–100) = {L.bleu_summary['shown']}**" in md
    assert "| n\\-gram |" not in md and "| n-gram | in candidate | max in one ref | justified by | counted |" in md


def test_markdown_escapes_user_text():
    L = build_lesson(XSS, ["see http://example.com/x and www.example.org"])
    md = handout_markdown(L)
    assert not re.search(r"(?<!\\)[<\[*`|$]", md.split("**Candidate:**")[1].split("\n")[0]), md[:400]
    assert "\\<img" in md and "\\[l\\](javascript" in md
    assert "http://example" not in md and "www.example" not in md
    assert md_text("a|b*c_d`e$f&g~h\nx") == "a\\|b\\*c\\_d\\`e\\$f\\&g\\~h x"
