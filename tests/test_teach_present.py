"""Presenting a lesson from two windows: the projector never shows an answer or the notes, the presenter window
has the notes, the answers, the next step and a clock, and moving either window moves the other (the in-memory
channel, bounded in size and lifetime, holding step numbers only). Clicker keys on the walkthrough."""
from __future__ import annotations

import pytest

from explainer.examples import get_example
from explainer.teach import build_lesson
from explainer.ui.highlight import escape_text as esc
from explainer.ui.teach import present
from tests.test_teach_app import new_page, page_html, qp, title

ROOM = "0123456789abcdef"


def key(room: str = ROOM) -> str:
    return present.control_key(room)


@pytest.fixture(autouse=True)
def _clean_rooms():
    present.clear()
    yield
    present.clear()


def _lesson(eid="cat_mat"):
    ex = get_example(eid)
    return build_lesson(ex.candidate, list(ex.references), title=ex.title, claims=ex.claims)


def test_the_room_is_bounded_expires_and_holds_link_parameters_only(monkeypatch):
    assert present.valid_room(ROOM) == ROOM
    for bad in ("", "xyz", ROOM.upper(), ROOM + "0", "<script>", None, 5):
        assert present.valid_room(bad) is None
    with pytest.raises(ValueError):
        present.publish("not a room", {"step": ["1"]}, key=None)
    v1 = present.publish(ROOM, {"example": "cat_mat", "step": ["3"]}, key=key(), now=1000.0)
    got = present.current(ROOM, now=1001.0)
    assert got["state"] == {"example": ["cat_mat"], "step": ["3"]} and got["version"] == v1
    assert set(got) == {"state", "version", "t", "opened"}
    got["state"]["step"].append("x")                                            # a copy: the room keeps its own
    assert present.current(ROOM, now=1001.0)["state"]["step"] == ["3"]
    for bad in ({"step": 3}, {"step": [3]}, {5: ["x"]}, "step=3", {"candidate": ["a" * present.MAX_STATE_CHARS]},
                {f"p{k}": ["1"] for k in range(present.MAX_STATE_VALUES + 1)}):
        with pytest.raises(ValueError):
            present.publish(ROOM, bad, key=key())
    assert present.current(ROOM, now=1000.0 + present.ROOM_TTL + 1) is None      # expired
    monkeypatch.setattr(present, "MAX_ROOMS", 5)
    rooms = [present.new_room() for _ in range(8)]
    for k, r in enumerate(rooms):
        present.publish(r, {"step": [str(k)]}, key=key(r), now=2000.0 + k)
    assert present.current(rooms[0], now=2010.0) is None
    assert present.current(rooms[-1], now=2010.0)["state"]["step"] == ["7"]


def test_the_projector_never_shows_an_answer_or_the_notes():
    lesson = _lesson()
    for i, s in enumerate(lesson.steps):
        if s.question is None:
            continue
        at = new_page({"example": "cat_mat", "step": str(i + 1), "view": "projector", "room": ROOM,
                       "notes": "1"})
        body = page_html(at)
        assert title(at).endswith(f"|{i + 1}/{len(lesson.steps)}")
        assert "Answer:" not in body and esc(s.question.explanation) not in body and esc(s.say) not in body, s.id


def test_speaker_notes_on_the_ordinary_page_ask_but_do_not_answer():
    lesson = _lesson()
    i = next(k for k, s in enumerate(lesson.steps) if s.question is not None)
    at = new_page({"example": "cat_mat", "step": str(i + 1), "notes": "1"})
    body = page_html(at)
    assert esc(lesson.steps[i].say) in body and "Ask the class:" in body and "Answer:" not in body
    # the step is fitted above the notes panel (which no longer covers it)
    assert "- var(--tnotes-h)" in body


def test_the_presenter_window_has_notes_answer_next_step_and_clock():
    lesson = _lesson()
    i = next(k for k, s in enumerate(lesson.steps) if s.question is not None)
    at = new_page({"example": "cat_mat", "step": str(i + 1), "view": "presenter", "room": ROOM, "key": key()})
    body = page_html(at)
    q = lesson.steps[i].question
    assert esc(lesson.steps[i].say) in body and "Answer:</b> " + esc(q.shown) in body
    assert "Next: " in body and esc(lesson.steps[i + 1].title) in body
    assert 'role="timer"' in body and "presenting for" in body
    # the step as the class sees it (its own blocks), and the step count
    assert f"On the projector: step {i + 1} of {len(lesson.steps)}" in body and "tp-now" in body
    assert f"Step <b>{i + 1}</b> of {len(lesson.steps)}" in body
    assert qp(at)["view"] == "presenter" and qp(at)["room"] == ROOM and qp(at)["key"] == key()


def test_the_presenter_moves_the_projector():
    n = len(_lesson().steps)
    proj = new_page({"example": "cat_mat", "step": "1", "view": "projector", "room": ROOM})
    pres = new_page({"example": "cat_mat", "step": "1", "view": "presenter", "room": ROOM, "key": key()})
    pres.button(key="tch_next").click().run()
    assert title(pres).endswith(f"|2/{n}")
    proj.run()            # the projector's poll (every POLL_SECONDS in a browser)
    assert title(proj).endswith(f"|2/{n}") and not proj.exception
    for _ in range(3):    # the clicker on the presenter window: three presses, three steps
        pres.button(key="tch_key_pagedown").click().run()
    assert title(pres).endswith(f"|5/{n}")
    proj.run()
    assert title(proj).endswith(f"|5/{n}")
    pres.button(key="tch_key_pageup").click().run()
    proj.run()
    assert title(proj).endswith(f"|4/{n}") and title(pres).endswith(f"|4/{n}")
    assert "key" not in qp(proj)      # the projector's link (the class sees it) has no key
    assert present.POLL_SECONDS <= 1.0


@pytest.mark.parametrize("stranger", [{}, {"key": "0" * 32}, {"key": key("fedcba9876543210")}, {"key": "<b>"}],
                         ids=["no-key", "wrong-key", "another-rooms-key", "junk"])
def test_only_the_control_key_moves_the_room(stranger):
    """Issue 34, item 9: anyone who knew the room id (it is on the projector) could move the projector with
    ``teach?…&view=presenter&room=<id>&step=9``. Without the room's key a presenter link is a viewer: the
    projector's view (no answers, no control), following the room, moving nothing."""
    n = len(_lesson().steps)
    pres = new_page({"example": "cat_mat", "step": "2", "view": "presenter", "room": ROOM, "key": key()})
    proj = new_page({"example": "cat_mat", "step": "1", "view": "projector", "room": ROOM})
    other = new_page({"example": "cat_mat", "step": "9", "view": "presenter", "room": ROOM, **stranger})
    assert any("no valid control key" in w.value for w in other.warning)
    assert "Answer:" not in page_html(other) and qp(other)["view"] == "projector" and "key" not in qp(other)
    assert title(other).endswith(f"|2/{n}")          # a viewer opens at the room's step, not its link's
    assert not other.button and not other.selectbox   # and has no control to move anything with
    proj.run()
    pres.run()
    assert present.current(ROOM)["state"]["step"] == ["2"]
    assert title(proj).endswith(f"|2/{n}") and title(pres).endswith(f"|2/{n}")
    pres.button(key="tch_next").click().run()
    proj.run()
    other.run()
    assert title(proj).endswith(f"|3/{n}") and title(other).endswith(f"|3/{n}")     # both follow the presenter
    with pytest.raises(PermissionError):
        present.publish(ROOM, {"step": ["9"]}, key=stranger.get("key"))


def test_clicker_keys_are_bound():
    at = new_page({"example": "cat_mat", "step": "2"})
    keys = {b.key: b for b in at.button}
    for k in ("pagedown", "space", "down", "pageup", "up"):
        assert f"tch_key_{k}" in keys
    at.button(key="tch_key_space").click().run()
    assert title(at).startswith("BLEU|") and title(at).split("|")[2].startswith("3/")
    at.button(key="tch_key_pageup").click().run()
    assert title(at).split("|")[2].startswith("2/")


def test_a_bad_room_is_dropped_with_a_warning():
    at = new_page({"example": "cat_mat", "view": "projector", "room": "<b>x</b>"})
    assert any("not a presenting room" in w.value for w in at.warning)
    assert "room" not in qp(at)


def test_the_demo_runs_from_one_click():
    from explainer.teach.demo import demo_sequence
    from explainer.ui.teach.demo_view import DEMO_BUDGET

    steps = demo_sequence(DEMO_BUDGET)
    at = new_page({"example": "cat_mat", "step": "3"})
    at.button(key="tch_demo_start").click().run()
    assert not at.exception
    for k, s in enumerate(steps):
        body = page_html(at)
        assert esc(s.lesson) in body and esc(s.candidate) in body and f"step {k + 1} of {len(steps)}" in body
        assert qp(at)["demo"] == str(k + 1)
        if k + 1 < len(steps):
            at.button(key="tch_demo_next").click().run()
    assert at.button(key="tch_demo_next").disabled
    again = new_page({"example": "cat_mat", "demo": "3"})       # the link reopens the demo where it was
    assert esc(steps[2].lesson) in page_html(again)
    at.button(key="tch_demo_end").click().run()
    assert "demo" not in qp(at) and title(at).startswith("BLEU|")


def test_previous_and_next_have_no_tooltip_left_over_the_step():
    """The "Next step (→ key)" tooltip stayed over the caption after each click; the key is on the button."""
    at = new_page({"example": "cat_mat", "step": "2"})
    for key in ("tch_prev", "tch_next"):
        b = at.button(key=key)
        assert not b.help and b.proto.shortcut


def test_the_text_size_control_sizes_the_step_and_goes_with_the_projector_link():
    """Presentation mode's zoom control (issue 21): "Text size" sets the fitted step's type (a CSS rule, so the
    browser's fitter can still make a step that no longer fits smaller), is in the page's link and in the
    projector / presenter links made from it; a size that is not one of the control's falls back to 100 %."""
    from explainer.ui.teach.link import ZOOMS

    Z100, Z150 = (f".tc-fit{{--tzoom:{z};font-size:calc(var(--tcb) * var(--tzoom))}}" for z in ("1", "1.5"))
    at = new_page({"example": "cat_mat"})
    assert "zoom" not in qp(at) and Z100 in page_html(at)
    at.selectbox(key="tch_zoom").select("150").run()
    assert not at.exception
    assert qp(at).get("zoom") == "150" and Z150 in page_html(at)
    links = [b.proto.url for b in at.get("link_button")]
    proj = [u for u in links if "view=projector" in u]
    assert proj and all("zoom=150" in u for u in proj), links
    q = dict(x.split("=", 1) for x in proj[0].split("?", 1)[1].split("&"))
    back = new_page(q)   # the projector window opened from that link
    assert Z150 in page_html(back) and back.session_state["tch_zoom"] == "150"
    odd = new_page({"example": "cat_mat", "zoom": "130"})
    assert "130" not in ZOOMS and Z100 in page_html(odd) and "zoom" not in qp(odd)
    assert any("zoom" in w.value for w in odd.warning), [w.value for w in odd.warning]   # said, not silent
    for bad in ("5000", "x"):
        assert Z100 in page_html(new_page({"example": "cat_mat", "zoom": bad}))


# ------------------------------------------------------------------------------- one room state (issue 31)
def _pair(params=None):
    params = {"example": "cat_mat", "step": "1", **(params or {})}
    pres = new_page({**params, "view": "presenter", "room": ROOM, "key": key()})
    proj = new_page({**params, "view": "projector", "room": ROOM})
    return pres, proj


def _no_answer_no_note(proj):
    body = page_html(proj)
    assert "Answer:" not in body and "Common misconception" not in body and "Say:</b>" not in body


def test_the_room_carries_the_lesson_the_settings_the_demo_and_the_blank_screen():
    """Defect: the room carried only the step number: the presenter's lesson switch, lowercase, demo and the
    LCS slider reached the presenter only."""
    pres, proj = _pair({"example": "papineni_the"})
    # the lesson switch
    pres.multiselect(key="tch_lecture").set_value(["chrf"]).run()
    proj.run()
    assert title(proj).startswith("chrF|") and qp(proj)["metric"] == "chrf"
    _no_answer_no_note(proj)
    # lowercase (the sidebar's BLEU option): the projector computes with it
    pres.multiselect(key="tch_lecture").set_value(["bleu", "rouge"]).run()
    pres.checkbox(key="bleu_opt:sacrebleu:lowercase").check().run()
    proj.run()
    assert qp(proj).get("lowercase") == "1" and proj.session_state["bleu_opt:sacrebleu:lowercase"] is True
    # the demo, its steps, and back
    pres.button(key="tch_demo_start").click().run()
    proj.run()
    assert qp(proj)["demo"] == "1" and 'data-testid="demo-lesson"' in page_html(proj)
    pres.button(key="tch_demo_next").click().run()
    proj.run()
    assert qp(proj)["demo"] == "2"
    pres.button(key="tch_demo_end").click().run()
    proj.run()
    assert "demo" not in qp(proj) and title(proj).startswith("BLEU|")
    # the blank screen (b): black on the projector, said on the presenter, and back
    pres.button(key="tch_blank_btn").click().run()
    proj.run()
    assert 'data-testid="teach-blank"' in page_html(proj) and "The projector is blank" in page_html(pres)
    pres.button(key="tch_blank_btn").click().run()
    proj.run()
    assert 'data-testid="teach-blank"' not in page_html(proj)
    assert pres.button(key="tch_blank_btn").proto.shortcut.lower() == "b"


def test_the_lcs_slider_is_the_presenters_and_the_projector_shows_its_fill():
    """Defect: the LCS slider existed only on the projector, and once touched it took the clicker's keys."""
    k = _lesson().step_ids().index("rouge-lcs-table") + 1
    pres, proj = _pair({"step": str(k)})
    assert not proj.slider and pres.slider
    pres.slider[0].set_value(5).run()
    proj.run()
    assert qp(proj)["cells"] == "5"
    assert page_html(proj).count('class="empty"') == 42 - 5     # cat_mat's table: 6 × 7 inner cells


def test_the_projector_has_no_control():
    _, proj = _pair({"step": "4"})
    assert not proj.button and not proj.selectbox and not proj.slider and not proj.multiselect
    assert not proj.toggle and not proj.text_input and not proj.number_input and not proj.radio


def test_a_late_projector_joins_the_room_and_never_pulls_the_presenter_back():
    """Defect: a projector opened late from an old link pulled the presenter from step 7 back to 1."""
    pres = new_page({"example": "cat_mat", "step": "7", "view": "presenter", "room": ROOM, "key": key(),
                     "metric": "bleu,rouge,chrf"})
    late = new_page({"example": "abandon_hope", "step": "1", "view": "projector", "room": ROOM})
    pres.run()
    assert title(late).endswith("|7/" + title(pres).split("/")[-1]) and qp(late)["example"] == "cat_mat"
    assert qp(late)["metric"] == "bleu,rouge,chrf" and title(pres).split("|")[2].startswith("7/")
    assert present.current(ROOM)["state"]["step"] == ["7"]
