"""The student's sheet printed by Chromium to A4, for every worked example: at most one page per two steps plus
the answers page, no step split across two pages, the answers from a new page on and last.

Where a step or the answers land is read from the PDF itself: the test wraps each step and the answers' heading
in a link to a made-up address (invisible in print); Chromium writes each link's boxes as link annotations on the
pages they are drawn on, so a step drawn on two pages has its link on both."""
from __future__ import annotations

import math
import re

import pytest

from explainer.examples import example_ids, get_example
from explainer.teach import build_lesson

LINK = "https://metrics.example.org/?page=teach&mode=walk&example=x"


def pdf_pages(pdf: bytes) -> list[bytes]:
    """The page objects of a PDF in page order (Chromium's: plain objects, a tree of /Pages with /Kids)."""
    objs = {int(m.group(1)): m.group(2) for m in re.finditer(rb"(\d+) 0 obj\s*(.*?)endobj", pdf, re.S)}
    root = next(k for k, v in objs.items() if re.search(rb"/Type\s*/Pages\b", v) and b"/Parent" not in v)

    def walk(k: int) -> list[bytes]:
        v = objs[k]
        if re.search(rb"/Type\s*/Pages\b", v):
            kids = re.search(rb"/Kids\s*\[([^\]]*)\]", v).group(1)
            return [p for ref in re.findall(rb"(\d+) 0 R", kids) for p in walk(int(ref))]
        return [v]

    pages = walk(root)
    assert len(pages) == len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))
    # each page's annotations -> the addresses they link to
    out = []
    for v in pages:
        annots = re.search(rb"/Annots\s*\[([^\]]*)\]", v)
        refs = re.findall(rb"(\d+) 0 R", annots.group(1)) if annots else []
        out.append(b" ".join(objs[int(r)] for r in refs))
    return out


def _marked(doc: str) -> str:
    """The sheet with each step wrapped in a link to https://step-N.invalid/ and the answers' heading in one to
    https://answers.invalid/ (links print as plain text: the layout stays the same)."""
    doc = re.sub(r'(<section class="step" id="step-(\d+)">)(.*?)(</section>)',
                 lambda m: f'{m[1]}<a href="https://step-{m[2]}.invalid/" style="display:block">{m[3]}</a>{m[4]}',
                 doc, flags=re.S)
    return doc.replace("<h2>Answers</h2>", '<h2><a href="https://answers.invalid/">Answers</a></h2>')


def _sheet(eid: str) -> tuple[int, str]:
    from explainer.ui.teach.teach_html import handout_html
    from explainer.ui.teach.walkthrough import _settings_lines

    ex = get_example(eid)
    lesson = build_lesson(ex.candidate, list(ex.references), title=ex.title)
    lesson.source = ex.title
    # as the page's download makes it: the families' settings lines and a link
    return len(lesson.steps), handout_html(lesson, settings=_settings_lines(lesson), link=LINK, student=True)


@pytest.fixture(scope="module")
def pdf_page(browser):
    ctx = browser.new_context()
    yield ctx.new_page()
    ctx.close()


@pytest.mark.parametrize("eid", example_ids())
def test_the_students_sheet_prints_on_few_pages_with_the_answers_last(pdf_page, eid):
    n, doc = _sheet(eid)
    pdf_page.set_content(_marked(doc))
    pages = pdf_pages(pdf_page.pdf(format="A4"))
    budget = math.ceil(n / 2) + 1
    assert len(pages) <= budget, f"{eid}: {len(pages)} printed pages for {n} steps (at most {budget})"
    on = {k: [p for p, annots in enumerate(pages) if f"https://step-{k}.invalid/".encode() in annots]
          for k in range(1, n + 1)}
    assert all(len(v) == 1 for v in on.values()), f"{eid}: a step on no page or split across pages: {on}"
    answers = [p for p, annots in enumerate(pages) if b"https://answers.invalid/" in annots]
    last_step = max(v[0] for v in on.values())
    # the answers start on a page of their own after the last step, and nothing but them follows
    assert answers == [last_step + 1], (eid, answers, last_step)


def test_the_page_reader_sees_a_split_step(pdf_page):
    """The check above can fail: a step taller than a page is seen on two pages."""
    _, doc = _sheet("papineni_the")
    tall = doc.replace('<section class="step" id="step-3">', '<section class="step" id="step-3">'
                       '<div style="height:1500px"></div>')
    pages = pdf_pages(pdf_page.set_content(_marked(tall)) or pdf_page.pdf(format="A4"))
    assert sum(b"https://step-3.invalid/" in annots for annots in pages) >= 2


DOCS = __import__("pathlib").Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("eid", ["papineni_the", "military_c1"])
def test_the_sheet_as_printed_has_room_to_write(browser, eid):
    """In print (A4's width at 96 px per inch), the LCS table's cells to compute are empty and big enough for a
    digit, and the answer lines are there. A picture of the LCS step and the step before it goes to
    artifacts/screenshots/ (to docs/ with EXPLAINER_DOCS_SHOTS=1; docs/teach.md shows Papineni's)."""
    import os

    from PIL import Image

    from tests.browser.conftest import SCREENSHOTS

    _, doc = _sheet(eid)
    ctx = browser.new_context(viewport={"width": 794, "height": 1123})
    try:
        page = ctx.new_page()
        page.emulate_media(media="print")
        page.set_content(doc)
        cells = page.evaluate("""() => [...document.querySelectorAll('section.step .tgrid td:not(.pz)')]
            .map(td => [td.textContent, td.getBoundingClientRect().width, td.getBoundingClientRect().height])""")
        assert cells and all(text == "" for text, _, _ in cells)
        assert min(w for _, w, _ in cells) >= 14 and min(h for _, _, h in cells) >= 14, cells[:3]
        lines = page.evaluate("""() => [...document.querySelectorAll('.blank .line')].map(l =>
            [l.getBoundingClientRect().width, getComputedStyle(l).borderBottomStyle])""")
        assert lines and all(w >= 150 and style == "solid" for w, style in lines)
        box = page.evaluate("""() => { const g = document.querySelector('section.step .tgrid').closest('section');
            const a = g.previousElementSibling.getBoundingClientRect(), b = g.getBoundingClientRect();
            return {x: 0, y: a.top + scrollY - 8, width: 794, height: b.bottom - a.top + 16}; }""")
        docs = os.environ.get("EXPLAINER_DOCS_SHOTS") == "1" and eid == "papineni_the"
        folder = DOCS if docs else SCREENSHOTS
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"teach-student-sheet-{eid.replace('_', '-')}.png"
        page.screenshot(path=str(path), clip=box, full_page=True)
        with Image.open(path) as img:   # kept small: a page of text and flat colours loses nothing in 256 colours
            small = img.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        small.save(path, optimize=True)
    finally:
        ctx.close()
