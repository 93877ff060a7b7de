"""The Gaming lab page under streamlit.testing (AppTest): every preset via its permalink shows the numbers
the real packages give, the fooled/resisted line agrees with them, generators / sweeps / optimizer run on the
user's input, user text is escaped, and bad input gives a message, never a traceback."""
from __future__ import annotations

import html
import re

import pytest
import sacrebleu
from sacrebleu.metrics import CHRF, TER
from streamlit.testing.v1 import AppTest

from explainer.attacks import generators as gen
from explainer.attacks.optimizer import DEFAULT_TARGET, TARGETS
from explainer.attacks.presets import PRESETS, get_preset
from explainer.attacks.scoring import format_metric
from explainer.attacks.sweeps import SWEEPS
from tests.conftest import ROOT
from tests.test_attacks import _nltk_real, _ref_bleu, _ref_rouge, _shortest_rule

PAGE = str(ROOT / "explainer" / "ui" / "pages" / "gaming_lab.py")


def new_lab(params: dict | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=90)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def page_html(at) -> str:
    return "".join(h.proto.body for h in at.get("html"))


def cell(body: str, metric: str, variant: int) -> str:
    m = re.search(rf'data-metric="{metric}" data-variant="{variant}">([^<]*)<', body)
    assert m, (metric, variant)
    return m.group(1)


def col_cell(body: str, key: str, row: int) -> str:
    """The number shown in the verdict table for column ``key`` of row ``row`` (its delta left out)."""
    m = re.search(rf'data-col="{re.escape(key)}" data-row="{row}"[^>]*>(?:<b>)?([^<]*)<', body)
    assert m, (key, row)
    return m.group(1)


def _summary_groups(at) -> dict[str, list[str]]:
    line = next(m.value for m in at.markdown if m.value.startswith(("**What resisted", "**Changed", "**Rate")))
    groups = {}
    for part in line.split(" · "):
        title, names = part.split(":** ")
        groups[title.strip("*")] = [n.replace("\\", "") for n in names.split(", ")]
    return groups


@pytest.mark.parametrize("pid", list(PRESETS))
def test_preset_permalink_shows_real_package_numbers(pid):
    from explainer.attacks.preset_table import headline_key, preset_table

    at = new_lab({"preset": pid})
    body = page_html(at)
    p, table = get_preset(pid), preset_table(pid)
    bleu_col = table.column("bleu:score")
    for i, v in enumerate(p.variants):
        if v.is_corpus:
            continue  # corpus presets are covered number by number in test_attacks and test_attacks_families
        refs = list(v.references)
        if v.bleu.dialect == "nltk":
            real_bleu = _nltk_real(v)[0]  # NLTK's 0-1 score, on its own scale
        else:
            real = (_shortest_rule(v.candidate, refs) if v.bleu.dialect == "hf-evaluate"
                    else _ref_bleu(v.candidate, refs, v.bleu))
            real_bleu = real.score   # on 0-100 (Hugging Face's 0-1 shown on the column's 0-100)
        assert col_cell(body, "bleu:score", i) == bleu_col.fmt(real_bleu)
        if v.rouge.dialect == "rouge-score" and v.rouge.get("tokenizer") == "rouge-score":
            rr = _ref_rouge(v.candidate, refs)
            for t in ("rouge1", "rougeL"):
                assert col_cell(body, f"rouge:{t}", i) == table.column(f"rouge:{t}").fmt(rr[t].fmeasure)
        assert col_cell(body, "chrf:score", i) == table.column("chrf:score").fmt(
            CHRF().sentence_score(v.candidate, refs).score)
        assert col_cell(body, "ter:score", i) == table.column("ter:score").fmt(
            TER().sentence_score(v.candidate, refs).score)
    assert any(p.lesson in i.value for i in at.info)
    assert at.query_params["preset"] == pid and at.query_params["lab"] == "presets"
    groups = _summary_groups(at)
    if p.judgement == "attack":
        # a headline metric that gives the worse text the same score did not notice the attack: fooled
        for m, verdict in p.story.items():
            label = table.column(headline_key(m)).label
            shown = label + (" (same score)" if verdict == "tie" else "")
            assert shown in groups["Fooled" if verdict in ("fooled", "tie") else "What resisted"], (m, groups)
    elif p.judgement == "config":
        for m, verdict in p.story.items():
            label = table.column(headline_key(m)).label
            assert label in groups["Changed by the setting" if verdict == "changed" else "Unchanged"]
    # one Explain link per variant (per segment for corpus variants), with the variant's candidate in it
    links = [b.proto.url for b in at.get("link_button") if "Explain" in b.proto.label]
    assert len(links) == sum(len(v.candidate) if v.is_corpus else 1 for v in p.variants)
    assert all("candidate=" in u and "ref=" in u for u in links)


def test_comparison_rows_get_no_delta_and_parts_of_a_metric_no_verdict():
    at = new_lab({"preset": "stitched-refs"})
    body = page_html(at)
    # G10's third row (a human reference scored against the other) is for comparison only: its references are
    # its own, so it has no delta, and it is not the row the verdicts are about
    assert re.search(r'data-delta="bleu:score" data-row="1"><small', body)
    assert not re.search(r'data-delta="bleu:score" data-row="2"><small', body)
    assert "comparison, no verdict" in body
    # the brevity penalty is a part of BLEU: a verdict only where it is the lesson's own number (G2)
    for pid in ("repetition", "permutation", "role-swap", "stitched-refs", "word-salad"):
        assert 'data-verdict="bleu_bp"' not in page_html(new_lab({"preset": pid})), pid
    assert 'data-verdict="bleu_bp"' in page_html(new_lab({"preset": "brevity"}))
    # a headline metric that ties (G4: identical BLEU for a garbled text) was fooled, as the catalogue says
    body = page_html(new_lab({"preset": "permutation"}))
    badge = re.search(r'data-verdict="bleu:score">(.*?)</td>', body).group(1)
    assert "fooled" in badge and "same score" in badge


def test_preset_picker_updates_permalink_and_bad_preset_warns():
    at = new_lab({"preset": "no-such-preset"})
    assert any("not a known preset" in w.value for w in at.warning)
    at.selectbox(key="lab_preset").set_value("word-salad").run()
    assert not at.exception
    assert at.query_params["preset"] == "word-salad"
    at = new_lab({"lab": "bogus"})
    assert any("not a section" in w.value for w in at.warning)


@pytest.mark.parametrize("gkey", list(gen.GENERATORS))
def test_every_generator_runs_on_user_input(gkey):
    at = new_lab({"lab": "generators"})
    at.selectbox(key="lab_gen_box").set_value(gkey).run()
    assert not at.exception, [e.value for e in at.exception]
    body = page_html(at)
    assert "lab-table" in body
    if gkey == "permute":
        assert any("counts are identical" in s.value for s in at.success)


def test_permute_on_a_long_input_stays_responsive_and_says_it_was_capped():
    import time

    cand = ("a b c d e f g h i j " * 500)[:4997]
    t0 = time.perf_counter()
    at = new_lab({"lab": "generators", "gen": "permute", "candidate": cand,
                  "ref": ["the quick brown fox jumped over the lazy dog", "a fast brown fox jumped over a lazy dog"]})
    assert time.perf_counter() - t0 < 15
    assert any("search was capped" in s.value for s in at.success)
    assert any("counts are identical" in s.value for s in at.success)


def test_generator_output_matches_real_packages_and_escapes_user_text():
    payload = '<img src=x onerror=alert(1)> the dog bit the man'
    at = new_lab({"lab": "generators", "candidate": payload, "ref": "the man bit the dog"})
    at.selectbox(key="lab_gen_box").set_value("swap").run()
    assert not at.exception
    body = page_html(at)
    assert "<img src=x" not in body and "&lt;img src=x onerror=alert(1)&gt;" in body
    out = gen.swap_noun_phrases(payload).text
    real = sacrebleu.sentence_bleu(out, ["the man bit the dog"]).score
    assert re.search(r"<td>BLEU</td><td>[^<]*</td><td>" + re.escape(format_metric("bleu", real)) + "</td>", body)


def test_bad_input_gives_messages_not_tracebacks():
    at = new_lab({"lab": "generators", "candidate": "some text", "ref": "   "})
    assert any("at least one reference" in w.value for w in at.warning)
    at = new_lab({"lab": "sweeps", "candidate": "", "ref": "a reference"})
    assert any("empty" in w.value for w in at.warning)
    at = new_lab({"lab": "optimizer", "candidate": "x", "ref": ""})
    assert any("at least one reference" in w.value for w in at.warning)
    # too long for the lab: a message, and the text is kept in the box
    long = "word " * 1500
    at = new_lab({"lab": "sweeps", "candidate": "x", "ref": "a reference"})
    at.text_area(key="lab_cand_box").set_value(long).run()      # typed: a link carries at most 6,000 characters
    assert any("longer than" in w.value for w in at.warning)
    assert at.text_area(key="lab_cand_box").value == long
    # corpus padding with mismatched line counts
    at = new_lab({"lab": "generators"})
    at.text_area(key="lab_pad_cands_box").set_value("one\ntwo\nthree").run()
    assert not at.exception
    assert any("must match" in w.value for w in at.warning)


@pytest.mark.parametrize("knob", list(SWEEPS))
def test_every_sweep_draws_a_chart(knob):
    at = new_lab({"lab": "sweeps", "candidate": "a fire destroyed a port warehouse on sunday",
                  "ref": ["a fire destroyed a warehouse in the port on sunday night",
                          "fire crews fought a blaze at a dockside warehouse overnight"]})
    at.selectbox(key="lab_sweep_box").set_value(knob).run()
    assert not at.exception, [e.value for e in at.exception]
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    labels = [b.proto.label for b in at.get("download_button")]
    assert any("PNG" in x for x in labels) and any("SVG" in x for x in labels) and any("CSV" in x for x in labels)
    assert "lab-verdicts" in page_html(at)      # every family's verdict on the sweep's far end


REAL_OK = "Re-scored by sacreBLEU 2.6.0 / rouge-score 0.1.2: identical"


def _real_all(text, refs):
    """Every metric the optimizer shows, from the real packages (sentence_bleu = the lab's BLEU definition), by the
    lab's keys and by the families' column keys."""
    b = sacrebleu.sentence_bleu(text, refs)
    r = _ref_rouge(text, refs)
    out = {"bleu": b.score, "bleu_bp": b.bp, "bleu:score": b.score,
           "chrf:score": CHRF().sentence_score(text, refs).score,
           "ter:score": TER().sentence_score(text, refs).score}
    for t in ("rouge1", "rouge2", "rougeL", "rougeLsum"):
        out[f"{t}_p"], out[f"{t}_r"], out[f"{t}_f"] = r[t].precision, r[t].recall, r[t].fmeasure
        out[f"rouge:{t}"] = r[t].fmeasure
    return {**_other_families(text, refs, out), **out}


def _other_families(text, refs, known) -> dict:
    """A family registered with no real package here (the semantic one: golden-tested in its own suite): its own
    scores with the lab's dialect, so that every family's column is checked to be what the family says."""
    from explainer.attacks.measures import lab_dialects
    from explainer.families import FAMILIES

    out = {}
    for name, d in lab_dialects().items():
        for k, v in FAMILIES[name].scores(d, text, refs).items():
            if f"{name}:{k}" not in known:
                out[f"{name}:{k}"] = v
    return out


def _opt_table(body: str) -> dict[str, tuple[str, str]]:
    """column key -> (start cell, optimised cell) of the optimizer's verdict table."""
    keys = dict.fromkeys(re.findall(r'data-col="([^"]+)" data-row="0"', body))
    return {k: (col_cell(body, k, 0), col_cell(body, k, 1)) for k in keys}


@pytest.mark.parametrize("target,cand", [(t, "minister promises more money for schools next year") for t in TARGETS]
                         + [("bleu:score", "")])
def test_optimizer_result_is_what_the_real_packages_say(target, cand):
    refs = ["the minister said that the government will increase the budget for schools in the next year"]
    at = new_lab({"lab": "optimizer", "candidate": cand, "ref": refs, "steps": "8"})
    at.selectbox(key="lab_opt_target_box").set_value(target).run()
    at.button(key="lab_opt_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    res = at.session_state["lab_opt_result"]
    final = res.final
    real0, real1 = _real_all(cand, refs), _real_all(final, refs)
    head = next(m.value for m in at.markdown if m.value.startswith(f"**{TARGETS[target]}:"))
    assert f"→ {real1[target]:.4f}**" in head
    assert f"**{TARGETS[target]}: {real0[target]:.4f} →" in head
    ok = next(s.value for s in at.success if s.value.startswith("Re-scored by"))
    assert ok.startswith(REAL_OK)
    assert ("start text and optimised text" in ok) == bool(cand)
    table = _opt_table(page_html(at))
    from explainer.attacks.measures import columns, lab_dialects
    cols = {c.key: c for c in columns(lab_dialects())}
    assert set(table) == set(cols)                   # every family's verdict on the result
    for key, col in cols.items():
        assert table[key] == (col.fmt(real0[key]), col.fmt(real1[key])), key
    assert html.escape(final, quote=True) in page_html(at)
    assert len(at.get("plotly_chart")) == 1
    assert res.steps <= 8 and res.stopped in ("steps", "local optimum")


def test_optimizer_shows_a_difference_from_the_real_packages(monkeypatch):
    """If the packages disagreed with what is shown, the page says so and lists the difference."""
    from explainer.attacks import verify

    real = verify.real_scores
    monkeypatch.setattr(verify, "real_scores", lambda text, refs: {**real(text, refs), "rouge1_f": -1.0})
    refs = ["the minister said that the government will increase the budget for schools in the next year"]
    at = new_lab({"lab": "optimizer", "candidate": "minister promises more money for schools next year", "ref": refs,
                  "steps": "3"})
    at.button(key="lab_opt_run").click().run()
    assert not at.exception
    assert not any(s.value.startswith("Re-scored by") for s in at.success)
    err = next(e.value for e in at.error if e.value.startswith("Re-scored by"))
    assert "4 number(s) differ" in err  # ROUGE-1 of the verdict table and of the trajectory, start and final
    df = at.dataframe[0].value
    assert set(df["metric"]) == {"rouge1_f"} and set(df["package"]) == {-1.0}


@pytest.mark.parametrize("cand,moves", [("", ["delete"]), ("", ["swap", "delete"]), ("cat", ["swap"])])
def test_optimizer_with_no_applicable_move_says_so(cand, moves):
    at = new_lab({"lab": "optimizer", "candidate": cand, "ref": "the cat sat on the mat"})
    at.multiselect(key="lab_opt_moves").set_value(moves).run()
    at.button(key="lab_opt_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("None of the chosen moves can change this text" in w.value for w in at.warning)
    assert any("stopped: no applicable move" in m.value for m in at.markdown)
    assert at.session_state["lab_opt_result"].final == cand


def test_optimizer_says_it_cut_a_long_candidate_and_shows_the_cut_start():
    from explainer.attacks.optimizer import MAX_WORDS

    refs = ["the minister said that the government will increase the budget for schools in the next year"]
    cand = " ".join((refs[0] + " and more words about it").split() * 15)[:4900]
    n = len(cand.split())
    assert n > MAX_WORDS
    at = new_lab({"lab": "optimizer", "candidate": cand, "ref": refs, "target": "bleu", "steps": "1"})
    assert any(f"has {n} words" in w.value and f"first {MAX_WORDS}" in w.value for w in at.warning)
    at.button(key="lab_opt_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    cut = " ".join(cand.split()[:MAX_WORDS])
    res = at.session_state["lab_opt_result"]
    assert res.start == cut and res.truncated
    real0 = sacrebleu.sentence_bleu(cut, refs).score
    head = next(m.value for m in at.markdown if m.value.startswith("**BLEU:"))
    assert head.startswith(f"**BLEU: {real0:.4f} →")  # headline start = the cut text
    from explainer.attacks.measures import columns, lab_dialects
    bleu = next(c for c in columns(lab_dialects()) if c.key == "bleu:score")
    assert _opt_table(page_html(at))["bleu:score"][0] == bleu.fmt(real0)  # table start = the same text
    assert any(f"cut to its first {MAX_WORDS} words (of {n})" in c.value for c in at.caption)
    assert res.unreadable["words"] <= MAX_WORDS + 1
    assert any(s.value.startswith(REAL_OK) for s in at.success)


def test_optimizer_settings_are_in_the_permalink_and_restored():
    at = new_lab({"lab": "optimizer", "seed": "42", "budget": "2.5", "steps": "37", "moves": "swap,delete"})
    assert not at.warning
    assert at.number_input(key="lab_opt_seed").value == 42
    assert at.number_input(key="lab_opt_budget").value == 2.5
    assert at.slider(key="lab_opt_steps").value == 37
    assert at.multiselect(key="lab_opt_moves").value == ["delete", "swap"]
    params = at.query_params
    assert (params["seed"], params["budget"], params["steps"], params["moves"]) == ("42", "2.5", "37",
                                                                                    "delete,swap")
    at.number_input(key="lab_opt_seed").set_value(7).run()
    at.multiselect(key="lab_opt_moves").set_value(["replace", "insert"]).run()
    assert at.query_params["seed"] == "7" and at.query_params["moves"] == "insert,replace"
    # the settings survive a trip to another section
    at.segmented_control(key="lab_section").set_value("presets").run()
    at.segmented_control(key="lab_section").set_value("optimizer").run()
    assert at.number_input(key="lab_opt_seed").value == 7
    assert at.multiselect(key="lab_opt_moves").value == ["insert", "replace"]
    for bad in ({"seed": "-3"}, {"seed": "abc"}, {"budget": "999"}, {"budget": "1.3"}, {"budget": "nan"},
                {"steps": "0"}, {"steps": "5000"}, {"moves": "teleport"}, {"moves": ","}):
        at = new_lab({"lab": "optimizer", **bad})
        (k, v), = bad.items()
        assert any(f"“{k}\\=" in w.value and "using" in w.value for w in at.warning), bad
        assert at.number_input(key="lab_opt_seed").value == 0
        assert at.number_input(key="lab_opt_budget").value == 60.0
        assert at.slider(key="lab_opt_steps").value == 100
        assert at.multiselect(key="lab_opt_moves").value == ["insert", "delete", "swap", "replace"]


def test_rerun_during_a_search_leaves_no_stale_running_flag():
    """A rerun that interrupts a search (a slider moved) ends it; a later Stop must not claim "stopped by
    you", and the result must say how it ended (it showed an empty "stopped:")."""
    refs = ["the minister said that the government will increase the budget for schools in the next year"]
    at = new_lab({"lab": "optimizer", "candidate": "minister promises more money for schools next year", "ref": refs,
                  "target": "bleu", "steps": "3"})
    at.button(key="lab_opt_run").click().run()
    # what an interrupted search leaves behind: the flag set and the callback's partial result
    at.session_state["lab_opt_result"].stopped = ""
    at.session_state["lab_opt_running"] = True
    at.slider(key="lab_opt_steps").set_value(4).run()  # a rerun that is not the Stop button
    assert not at.exception
    assert not at.session_state["lab_opt_running"]
    head = next(m.value for m in at.markdown if m.value.startswith("**BLEU:"))
    assert "stopped: interrupted" in head
    at.button(key="lab_opt_stop").click().run()
    assert not any("Stopped by you" in w.value for w in at.warning)
    assert "stopped: interrupted" in next(m.value for m in at.markdown if m.value.startswith("**BLEU:"))
    # the Stop button during a (simulated) running search still reports "stopped by you"
    at.session_state["lab_opt_result"].stopped = ""
    at.session_state["lab_opt_running"] = True
    at.button(key="lab_opt_stop").click().run()
    assert any("Stopped by you" in w.value for w in at.warning)
    assert "stopped: by you" in next(m.value for m in at.markdown if m.value.startswith("**BLEU:"))


def test_user_text_survives_switching_sections():
    at = new_lab({"lab": "generators"})
    at.text_area(key="lab_cand_box").set_value("my own candidate text").run()
    at.text_area(key="lab_refs_box").set_value("first reference\nsecond reference").run()
    for sec in ("presets", "sweeps", "presets", "optimizer"):
        at.segmented_control(key="lab_section").set_value(sec).run()
        assert not at.exception
    assert at.text_area(key="lab_cand_box").value == "my own candidate text"
    assert at.text_area(key="lab_refs_box").value == "first reference\nsecond reference"
    assert at.query_params["candidate"] == "my own candidate text"
    assert list(at.query_params["ref"]) == ["first reference", "second reference"]


def test_section_choices_are_in_the_permalink():
    at = new_lab({"lab": "sweeps", "knob": "shuffle", "candidate": "a b c d", "ref": "a b c d e"})
    assert at.query_params["knob"] == "shuffle"
    assert len(at.get("plotly_chart")) == 1
    at = new_lab({"lab": "generators", "gen": "negate"})
    assert at.query_params["gen"] == "negate"
    at = new_lab({"lab": "optimizer", "target": "rougeL_f"})      # an earlier link's metric key still opens
    assert at.query_params["target"] == "rouge:rougeL" and not at.warning
    at = new_lab({"lab": "optimizer", "target": "ter:score"})
    assert at.query_params["target"] == "ter:score"
    at = new_lab({"lab": "optimizer", "target": "meteor"})
    assert any("not one of" in w.value for w in at.warning) and at.query_params["target"] == DEFAULT_TARGET


def test_g9_verbosity_example_button():
    at = new_lab({"lab": "sweeps"})
    at.button(key="lab_sw_g9").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_area(key="lab_cand_box").value.startswith("a fire destroyed a warehouse in the port of dover")
    assert not at.warning
    sw_rows = at.session_state["lab_sw_len"]
    assert sw_rows == 75


def test_explain_links_round_trip_through_the_explain_permalink_parser():
    from urllib.parse import parse_qs

    from explainer.attacks.scoring import bleu_input
    from explainer.ui.explain.link import parse_link
    from explainer.ui.lab.view import variant_links
    from tests.families_support import schema

    for pid, p in PRESETS.items():
        for v in p.variants:
            for _, query in variant_links(v):
                params = parse_qs(query, keep_blank_values=True)
                state = parse_link(params)
                assert not state.warnings, (pid, state.warnings)
                if not v.is_corpus:
                    if v.bleu.dialect == "nltk":  # the text as NLTK sees it (characters for plain strings)
                        assert state.settings["bleu"].dialect == "nltk"
                        assert tuple(state.settings["bleu"].options["weights"]) == v.bleu.get("weights")
                        assert state.candidate == bleu_input(v.candidate, v.bleu)
                        assert state.refs == [bleu_input(r, v.bleu) for r in v.references]
                        continue
                    assert state.candidate == v.candidate and state.refs == list(v.references)
                    # the same dialects with the same options: every option the variant sets, every other default
                    for fam, config in (("bleu", v.bleu), ("rouge", v.rouge)):
                        got = dict(state.settings[fam].options)
                        got.pop("types", None)
                        assert state.settings[fam].dialect == config.dialect, pid
                        assert got == {**schema(fam).defaults(config.dialect), **config.given}, pid


@pytest.mark.parametrize("cid", ["optimise-the-metric", "small-differences", "many-valid-outputs"])
def test_lesson_cards_show_lesson_and_citation_and_no_numbers(cid):
    from explainer.attacks.presets import LESSON_CARDS

    c = LESSON_CARDS[cid]
    at = new_lab({"preset": cid})
    assert not at.warning
    assert any(c.lesson in i.value for i in at.info)
    if c.demo:      # C11: a demonstration on WMT19's published scores (tests/test_lab_issue32.py checks them)
        assert any("demonstration" in x.value.lower() for x in at.caption) and at.get("plotly_chart")
        assert "demonstration" in at.selectbox(key="lab_preset").format_func(cid)
    else:
        assert any("no numbers" in x.value.lower() for x in at.caption)
        assert "lesson card" in at.selectbox(key="lab_preset").format_func(cid)
    assert any(c.citation in x.value for x in at.caption)
    assert "lab-table" not in page_html(at) and not at.get("link_button")  # no text scored, no Explain link
    assert at.query_params["preset"] == cid
    if c.section:
        at.button(key="lab_card_section").click().run()
        assert not at.exception and at.session_state["lab_section"] == c.section
        assert at.query_params["lab"] == c.section


def test_lesson_icon_is_a_material_icon_not_an_emoji():
    """💡 is a missing glyph in Debian's Chromium (no emoji font); the Explain page uses :material/...: icons."""
    for pid in ("permutation", "small-differences"):
        at = new_lab({"preset": pid})
        lesson = next(i for i in at.info if i.value.startswith("**Lesson.**"))
        assert lesson.icon == ":material/lightbulb:"


def test_explain_href_from_any_lab_url():
    from explainer.ui.lab.view import explain_href

    for url in ("http://h:8501/gaming_lab", "http://h:8501/gaming_lab/", "http://h:8501/gaming_lab?preset=x",
                "http://h:8501/gaming_lab/?preset=x#top"):
        assert explain_href(url, "candidate=a") == "http://h:8501/?candidate=a", url
    assert explain_href("https://example.org/app/gaming_lab/", "q=1") == "https://example.org/app/?q=1"
    assert explain_href("", "q=1") == "./?q=1"


def test_g12_button_takes_a_preset_into_the_optimizer():
    at = new_lab({"preset": "stopword-stuffing"})
    at.button(key="lab_to_opt").click().run()
    assert not at.exception
    assert at.session_state["lab_section"] == "optimizer"
    assert at.text_area(key="lab_cand_box").value == get_preset("stopword-stuffing").variants[0].candidate
    assert at.selectbox(key="lab_opt_target_box").value == "rouge:rouge1"


def test_markdown_and_html_in_user_text_stay_inert():
    evil = "[click](javascript:alert(1)) **bold** <b>x</b>"
    at = new_lab({"lab": "generators", "gen": "repeat", "candidate": "a b", "ref": "a b c"})
    at.text_input(key="lab_gen_repeat_word").set_value(evil).run()
    assert not at.exception
    note = next(s.value for s in at.success)
    assert "\\[click\\]\\(javascript" in note  # backslash-escaped for markdown: no link forms
    at = new_lab({"preset": "[x](javascript:alert(1))", "lab": "presets"})
    assert all("](javascript" not in w.value for w in at.warning)
    body = page_html(at)
    assert "javascript:alert" not in body


def test_optimizer_result_after_editing_the_references_is_scored_against_its_own():
    """Editing the references after a run keeps showing the last result: it must be shown (and re-scored by the
    real packages) against the references the search used, with a note — not against the new ones, which made
    the re-score report differences that were no bug."""
    refs = ["the minister said that the government will increase the budget for schools in the next year"]
    cand = "minister promises more money for schools next year"
    at = new_lab({"lab": "optimizer", "candidate": cand, "ref": refs, "target": "bleu", "steps": "3"})
    at.button(key="lab_opt_run").click().run()
    res = at.session_state["lab_opt_result"]
    assert res.references == tuple(refs)
    at.text_area(key="lab_refs_box").set_value("a completely different reference about the weather").run()
    assert not at.exception
    assert not any(e.value.startswith("Re-scored by") for e in at.error)
    assert any(s.value.startswith(REAL_OK) for s in at.success)
    assert any("references it was run with" in c.value for c in at.caption)
    real1 = _real_all(res.final, refs)
    head = next(m.value for m in at.markdown if m.value.startswith(f"**{TARGETS['bleu:score']}:"))
    assert f"→ {real1['bleu']:.4f}**" in head


@pytest.mark.parametrize("seed", ["²", "٣", "1e3", "-1", "nan"])
def test_optimizer_link_with_a_strange_seed_warns(seed):
    at = new_lab({"lab": "optimizer", "seed": seed})
    assert any("is not a whole number" in w.value for w in at.warning)
    assert at.number_input(key="lab_opt_seed").value == 0


def test_lab_chart_hover_text_is_literal_and_inert():
    """The lab's charts escape user text as the Explain page's do: quotes stay quotes (html.escape turned them
    into a visible &quot;), tags are inert, $…$ is not read as LaTeX."""
    from explainer.attacks.optimizer import optimize
    from explainer.ui.lab.charts import trajectory_figure

    res = optimize('he said "it\'s <b>fine</b>" for $5', ["he said it is fine for 5 dollars"], "bleu",
                   budget_seconds=0.2, seed=0)
    hover = [h for tr in trajectory_figure(res).data for h in (tr.customdata or ()) if isinstance(h, str)] or \
        [h for tr in trajectory_figure(res).data for h in (tr.text or ()) if isinstance(h, str)]
    assert hover, "no hover text found"
    start = hover[0]
    assert '"it\'s &lt;b&gt;fine&lt;/b&gt;"' in start and "&#36;5" in start and "&quot;" not in start


def test_optimizer_result_shown_is_a_snapshot_owned_by_its_run():
    """Fast reruns start the next script run in a new thread while the interrupted search goes on until its
    next callback: the page must show a snapshot that the search no longer changes, and an old search that
    lost the slot stops without storing (the browser Stop test saw 'numbers differ (a bug)' from this)."""
    from explainer.attacks.optimizer import optimize
    from explainer.ui.lab.view import RunRecorder

    store: dict = {}
    rec = RunRecorder(store, "result", "owner")
    seen = []

    def cb(res):
        go_on = rec.keep(res)
        seen.append(len(res.trajectory))
        if len(seen) == 2:
            RunRecorder.disown(store, "owner")   # what the next script run does first
        return go_on

    cand = "officials said the storm knocked out power for thousands of homes on friday night"
    ref = "the storm cut power to thousands of homes on friday , officials said"
    res = optimize(cand, [ref], "bleu", budget_seconds=5, seed=0, callback=cb)
    kept = store["result"]
    assert kept is not res and res.stopped == "callback"
    assert len(seen) == 3 and seen[2] > seen[1]        # the search stepped on after the slot was taken
    assert len(kept.trajectory) == seen[1]              # ... and the shown result did not follow it
    assert kept.final == kept.trajectory[-1]["text"] and kept.final != res.final
    assert not rec.keep(res) and store["result"] is kept


def test_c6_brevity_penalty_charts_share_their_x_scale_and_titles_fit():
    """Issue 32 defect 7: C6's second brevity-penalty chart title was cut and the two charts used different x scales
    (a reader compares where each candidate sits on exp(1 - r/c))."""
    import json

    at = new_lab({"preset": "ref-length"})
    figs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    bp = [f for f in figs if "Brevity penalty" in str(f["layout"].get("title", {}).get("text", ""))]
    assert len(bp) == 2
    ranges = [tuple(f["layout"]["xaxis"]["range"]) for f in bp]
    assert ranges[0] == ranges[1], ranges
    for f in bp:      # the title on two lines, the figure's top margin room for both
        assert "<br>" in f["layout"]["title"]["text"] and f["layout"]["margin"]["t"] >= 80


def test_a_delta_too_small_to_show_never_reads_minus_zero():
    """Issue 32 defect 6: "−0.00" (a loss smaller than the decimals shown)."""
    from explainer.attacks.measures import columns, lab_dialects
    from explainer.ui.lab.verdict_view import delta_text

    for col in columns(lab_dialects()):
        step = 10.0 ** -col.shown_decimals
        small = delta_text(col, -step / 10)
        assert not re.fullmatch(r"[−-]0(\.0*)?", small) and small == f"−<{col.fmt(step)}", (col.key, small)
        assert delta_text(col, 0.0) == "±0"
        assert delta_text(col, -2 * step) == "−" + col.fmt(2 * step)
