"""A lecture with the Teach page, in Chromium: the handout's headers (the textbook-claims table's column heads,
the settings table, the headings) wrap between words — the claims table broke "implementatio|n" — also in the
student's handout and in print."""
from __future__ import annotations

import pytest

from explainer.examples import get_example
from explainer.teach import build_lesson
from explainer.ui import settings as ms

EID = "abandon_hope"   # a worked example with four printed numbers: the handout has the claims table

BROKEN_WORDS = """() => { const out = [];
  document.querySelectorAll('table.meta td, th, h1, h2').forEach(td => {
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const tokens = /\\S+/g; let t;
      while ((t = tokens.exec(n.data))) {
        if (t[0].length > 30) continue;   // a signature or a long user string may break anywhere
        // a word: between spaces, hyphens, dashes, bars and slashes (where a line may break)
        const parts = /[^\\-\u2013\u2014|\\/]+/g; let m;
        while ((m = parts.exec(t[0]))) {
          const r = document.createRange();
          r.setStart(n, t.index + m.index); r.setEnd(n, t.index + m.index + m[0].length);
          if ([...r.getClientRects()].filter(x => x.width > 0).length > 1) out.push(m[0]);
        }
      }
    }
  });
  return out; }"""


@pytest.mark.parametrize("media,width", [("screen", 1024), ("screen", 560), ("print", 688)])
@pytest.mark.parametrize("student", [False, True])
def test_handout_header_does_not_break_words(browser, tmp_path, media, width, student):
    from explainer.ui.teach.teach_html import handout_html
    from explainer.ui.teach.walkthrough import _settings_lines

    ex = get_example(EID)
    lesson = build_lesson(ex.candidate, list(ex.references), title=ex.title)
    settings = _settings_lines(lesson) + [("Dialects", ms.default_settings().bleu_dialect + " — the reference "
                                           "implementation, as the implementation reports it")]
    path = tmp_path / "handout.html"
    path.write_text(handout_html(lesson, settings=settings, **({"student": True} if student else {})), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = ctx.new_page()
        page.emulate_media(media=media)
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        assert page.evaluate(BROKEN_WORDS) == []
        assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") == 0
    finally:
        ctx.close()
