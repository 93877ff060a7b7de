"""Random sequences of widget changes on the Explain page never raise (issue 10, defect 1).

Each seed drives one reproducible sequence of what a user does — switch dialects, change options and ROUGE
types, add and remove references, edit texts, pick examples, the ROUGE reference, an n-gram, the colouring, the
chrF settings and the chrF order shown — through :class:`tests.ui_driver.BrowserLikeApp`, which sends selectbox
labels back as a browser does. After every step the page must have run without an exception and still show its
headline; at random points the link in the address bar, opened in a new session, must show the same view (widget
values and headline numbers). A failure names the seed and the steps, so it can be replayed with ``-k 'seed_N'``.
"""
from __future__ import annotations

import random

import pytest

from explainer.examples import EXAMPLES
from explainer.ui.chrf_section import ORDER_KEY as CHRF_ORDER_KEY
from explainer.ui.families import ui_families
from explainer.ui.pagestate import MAX_REFS
from tests.ui_driver import BrowserLikeApp, PageSpec, check_link

SEEDS = range(40)
TABS = tuple(f.tab_label() for f in ui_families())
STEPS = 10
# what the Explain page's link carries: every keyed widget but the display size (a preference of the viewer)
EXPLAIN = PageSpec("explain", starts=[], switches=[], exclude={"large_text"})
TEXTS = ("the cat is on the mat", "there is a cat on the mat", "a b c", "", "   ", "The Cat.\nOn the mat!",
         "北京是中国的首都", "the the the the", "x", "e\u0301t\u00e9 <b>&amp;</b> $x$")


def _option_value(spec, rng: random.Random):
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.kind == "tristate":
        return rng.choice(["library default", "on", "off"])
    if spec.kind == "choice":
        return rng.choice(list(spec.choices))
    if spec.kind == "int":
        lo = int(spec.min) if spec.min is not None else 0
        hi = int(spec.max) if spec.max is not None else lo + 10
        return rng.randint(lo, min(hi, lo + 12))
    if spec.kind in ("float", "optional_float"):
        if spec.kind == "optional_float" and rng.random() < 0.3:
            return None
        lo = spec.min if spec.min is not None else 0.0
        hi = spec.max if spec.max is not None else lo + 5.0
        return round(rng.uniform(lo, min(hi, lo + 5.0)), 3)
    if spec.kind == "float_list":
        return rng.choice(["0.25, 0.25, 0.25, 0.25", "1", "0.5 0.5", "abc", "", "1e308, 1"])
    raise AssertionError(spec.kind)


def _widget_kind(spec) -> str:
    return {"bool": "checkbox", "tristate": "selectbox", "choice": "selectbox", "int": "number_input",
            "float": "number_input", "optional_float": "number_input", "float_list": "text_input"}[spec.kind]


def _step(app: BrowserLikeApp, rng: random.Random) -> str:
    """One random user action; returns its description."""
    at, ss = app.at, app.at.session_state
    actions = ["dialect", "dialect", "option", "option", "option", "extra", "add", "remove", "text", "example",
               "rouge_ref", "ngram", "colour", "tab", "chrf_order"]
    what = rng.choice(actions)
    if what == "tab":
        tab = rng.choice(TABS)
        app.open_tab(tab)
        return f"open the {tab} tab"
    if what in ("dialect", "option", "extra"):
        return _family_step(app, rng, what)
    if what == "chrf_order":
        return _chrf_order_step(app, rng)
    if what == "add":
        if at.button(key="add_ref").disabled:
            app.run()
            return "rerun (add disabled)"
        app.click("add_ref")
        return "add reference"
    if what == "remove":
        n = ss["n_refs"]
        i = rng.randrange(n)
        if at.button(key=f"rm_ref_{i}").disabled:
            app.run()
            return "rerun (remove disabled)"
        app.click(f"rm_ref_{i}")
        return f"remove reference {i + 1}"
    if what == "text":
        key = rng.choice(["candidate"] + [f"ref_{i}" for i in range(ss["n_refs"])])
        text = rng.choice(TEXTS)
        app.set("text_area", key, text)
        return f"{key} = {text!r}"
    if what == "example":
        ex = rng.choice(EXAMPLES).id
        app.select("example", ex)
        return f"example {ex}"
    if what == "rouge_ref":
        boxes = [sb for sb in at.selectbox if sb.key == "rouge_ref"]
        if not boxes:
            app.run()
            return "rerun (no reference picker)"
        k = rng.choice(boxes[0].options and list(range(len(boxes[0].options))))
        app.select("rouge_ref", k)
        return f"ROUGE details against reference {k + 1}"
    if what == "ngram":
        boxes = [sb for sb in at.selectbox if sb.key == "ngram"]
        if not boxes or len(boxes[0].options) < 2:
            app.run()
            return "rerun (no n-gram picker)"
        opts = [o for o in boxes[0].options if not o.startswith("—")]
        g = rng.choice(opts)
        app.select("ngram", g)
        return f"n-gram {g!r}"
    radios = [r for r in at.radio if r.key == "colour"]
    if not radios:
        app.run()
        return "rerun (no colour choice)"
    v = rng.choice(["order", "reference"])
    app.set("radio", "colour", v)
    return f"colour by {v}"


def _family_step(app: BrowserLikeApp, rng: random.Random, what: str) -> str:
    """A settings action on a random registered family: its dialect, one of its dialect's options, or one of its
    own values (ROUGE's types)."""
    ss = app.at.session_state
    fam = rng.choice(ui_families())
    if what == "dialect":
        d = rng.choice(fam.dialects())
        app.select(fam.dialect_key, d)
        return f"{fam.label} dialect {d}"
    if what == "extra":
        if not fam.extra_fields():
            app.run()
            return f"rerun ({fam.label} has no values of its own)"
        f = rng.choice(fam.extra_fields())
        picked = rng.sample(list(f.spec.choices), rng.randint(0, 4))
        app.set("multiselect", f.key, picked)
        return f"{fam.label} {f.param} {picked}"
    dialect = ss[fam.dialect_key]
    fields = fam.option_fields(dialect)
    if not fields:
        app.run()
        return f"rerun ({dialect} has no options)"
    f = rng.choice(fields)
    value = _option_value(f.spec, rng)
    kind = _widget_kind(f.spec)
    if kind == "selectbox":
        app.select(f.key, value)
    else:
        app.set(kind, f.key, value)
    return f"{fam.label} option {f.param} = {value!r}"


def _chrf_order_step(app: BrowserLikeApp, rng: random.Random) -> str:
    """The order the chrF tab shows."""
    boxes = [sb for sb in app.at.selectbox if sb.key == CHRF_ORDER_KEY]
    if not boxes:
        app.run()
        return "rerun (no chrF order picker)"
    k = rng.randrange(len(boxes[0].options))
    app.select(CHRF_ORDER_KEY, k)
    return f"chrF order {k + 1}"


@pytest.mark.parametrize("seed", SEEDS, ids=lambda s: f"seed_{s}")
def test_random_widget_sequence_never_raises(seed):
    rng = random.Random(seed)
    start = rng.choice([{}, {"candidate": "a b c", "ref": ["a b", "b c"]},
                        {"example": rng.choice(EXAMPLES).id}])
    tab = rng.choice(TABS)
    app = BrowserLikeApp(start, tab=tab)
    done = [f"open {start} on the {tab} tab"]
    assert not app.exceptions, (done, app.exceptions)
    for _ in range(STEPS):
        done.append(_step(app, rng))
        assert not app.exceptions, (seed, done, app.exceptions)
        assert [m.label for m in app.at.metric][:1] == ["BLEU"] or app.at.warning or app.at.error, (seed, done)
        assert 1 <= app.at.session_state["n_refs"] <= MAX_REFS
        if rng.random() < 0.25:
            done.append("read the link back")
            check_link(app, EXPLAIN, done)


def test_rouge155_then_another_dialect_with_two_references():
    """The issue's repro: ?candidate=a+b+c&ref=a+b&ref=b+c, switch rouge155 -> rouge-score (and back)."""
    app = BrowserLikeApp({"candidate": "a b c", "ref": ["a b", "b c"]}, tab="ROUGE")
    for d in ("rouge155", "rouge-score", "rouge155", "rouge-score"):
        app.select("rouge_dialect", d)
        assert not app.exceptions, (d, app.exceptions)
        assert app.at.session_state["rouge_ref"] in (0, 1)


# ------------------------------------------------------------------------------ crafted links (issue 10, limits)
def test_huge_integers_in_links_warn_instead_of_crashing():
    nines = "9" * 4301
    app = BrowserLikeApp({"candidate": "a", "ref": "a", "rouge_ref": nines, "max_order": nines})
    assert not app.exceptions, app.exceptions
    text = " ".join(w.value for w in app.at.warning).replace("\\", "")  # markdown escapes
    assert "rouge_ref=" in text and "max_order=" in text
    lab = BrowserLikeApp({"lab": "optimizer", "seed": nines})
    lab.at.switch_page("explainer/ui/pages/gaming_lab.py")
    lab.at.query_params["lab"] = "optimizer"
    lab.at.query_params["seed"] = nines
    lab.run()
    assert not lab.exceptions, lab.exceptions
    assert any("seed=" in w.value.replace("\\", "") for w in lab.at.warning)


def test_a_link_with_too_many_parameters_says_so():
    params = {f"p{i}": "1" for i in range(1001)}
    params.update(candidate="my own text", ref="a reference")
    app = BrowserLikeApp(params)
    assert not app.exceptions
    text = " ".join(w.value for w in app.at.warning)
    assert "1,003 parameters" in text and "default example" in text


def test_rouge155_weighted_lcs_with_a_reference_without_tokens():
    """ROUGE-1.5.5 dies on ROUGE-W when a reference has no tokens; with two references the pooled table crashed
    (KeyError) instead of saying so."""
    app = BrowserLikeApp({"candidate": "北京是中国的首都", "ref": ["北京是中国的首都", "a b"],
                          "rouge_dialect": "rouge155", "rouge_types": "rouge1,rougeW-1.2"}, tab="ROUGE")
    assert not app.exceptions, app.exceptions
    pooled = [d for d in app.at.dataframe if "how" in d.value.columns]
    assert pooled and any("dies" in str(x) for x in pooled[0].value["how"])


def test_an_infinite_score_is_explained_on_the_page():
    """smooth_value=1e308 with add-k: sacreBLEU itself computes infinity; the page says why instead of 'inf'."""
    app = BrowserLikeApp({"candidate": "the cat sat on the mat", "ref": "the cat is on the mat", "smooth": "add-k",
                          "smooth_value": "1e308"})
    assert not app.exceptions
    assert app.at.metric[0].value == "∞"
    text = " ".join(w.value for w in app.at.warning).replace("\\", "")
    assert "k = 1e+308" in text and "largest number" in text and "smaller k" in text


def test_over_long_bleu_trace_is_said_in_the_pages_terms():
    """A BLEU trace over the 100,000-character limit: the page's words, not the API's ('score_bleu', 'CLI')."""
    cand = "the cat sat on the mat " * 2_400       # 55,200 characters
    app = BrowserLikeApp({"candidate": "x", "ref": "x", "rouge_types": "rouge1"})
    app.set("text_area", "candidate", cand).set("text_area", "ref_0", cand)     # typed: no link carries them
    assert not app.exceptions
    errors = " ".join(e.value for e in app.at.error).replace("\\", "")
    assert "100,000" in errors and "Shorten" in errors
    assert "score_bleu" not in errors and "CLI" not in errors and "--full" not in errors


def test_no_rouge_type_picked_is_kept_by_the_link():
    """Seed 7 of the sequences: with every ROUGE type removed the page writes ``rouge_types=`` into its link, and
    the link read back picked the default types again (another view, other numbers)."""
    app = BrowserLikeApp({"example": "concat_refs"}, tab="BLEU")
    app.set("multiselect", "rouge_types", [])
    assert not app.exceptions and app.query["rouge_types"] == [""]
    again = app.reopen()
    assert again.at.multiselect(key="rouge_types").value == []
    assert not [w for w in again.at.warning if "rouge_types" in w.value]
    check_link(app, EXPLAIN, ["regression"])
