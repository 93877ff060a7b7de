"""A click on the Corpus page redraws its own part of the page only (issue 33, item 9), counted from what the
server sends the browser (its websocket messages: the same whatever the machine's load, unlike a timing).

Opening or closing a section drawn only while open, picking an analysis, the next segment: each is a run of its
own part (a fragment run: no run of the whole page) and every element it sends lies inside that part, whose place
is read from the page's first full run (the section's expander, the analysis picker, the segment view's heading).
A change of the settings runs the whole page, and draws nothing inside a closed section but its expander."""
from __future__ import annotations

import time

from tests.browser.conftest import forward_msg, wait_idle
from tests.browser.test_corpus_clicks_browser import no_error, open_sample

SECTIONS = ("Corpus BLEU worked out", "Corpus BLEU ≠ mean of sentence BLEUs")


class Sent:
    """The server's messages on the page's websocket, decoded: deltas (path, fragment id, the message) and the
    script runs finished (fragment runs apart)."""

    QUIET_S = 0.6

    def __init__(self, page) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self.deltas: list[tuple[tuple[int, ...], str, object]] = []
        self.full = self.fragment = 0
        self.last = time.time()

        def got(payload) -> None:
            msg = forward_msg(payload)
            if msg is None:
                return
            kind = msg.WhichOneof("type")
            if kind in ("delta", "script_finished"):
                self.last = time.time()
            if kind == "delta":
                self.deltas.append((tuple(msg.metadata.delta_path), msg.delta.fragment_id, msg.delta))
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                    self.fragment += 1
                elif msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    self.full += 1

        page.on("websocket", lambda ws: ws.on("framereceived", got))

    def click(self, page, action) -> dict:
        """What ``action``'s runs sent: {"full", "fragment", "deltas"} once they are over."""
        n, full, frag = len(self.deltas), self.full, self.fragment
        action()
        deadline = time.time() + 120
        while time.time() < deadline:
            page.wait_for_timeout(100)      # (Playwright delivers the frames while it waits, not in a sleep)
            if (self.full > full or self.fragment > frag) and time.time() - self.last > self.QUIET_S:
                break
        wait_idle(page, 120)
        return {"full": self.full - full, "fragment": self.fragment - frag, "deltas": self.deltas[n:]}


def _path_of(deltas, match) -> tuple[int, ...]:
    """The place of the last element of a run that ``match(delta)`` picks."""
    got = [p for p, _, d in deltas if match(d)]
    assert got, "element not found among the run's deltas"
    return got[-1]


def _expander(title: str):
    return lambda d: d.WhichOneof("type") == "add_block" and title in d.add_block.expandable.label


def _heading(body: str):
    return lambda d: d.WhichOneof("type") == "new_element" and d.new_element.WhichOneof("type") == "heading" \
        and d.new_element.heading.body == body


def _picker(key: str):
    return lambda d: d.WhichOneof("type") == "new_element" and d.new_element.WhichOneof("type") == "button_group" \
        and d.new_element.button_group.id.endswith(key)


def _own_part_only(sent: dict, part: tuple[int, ...], what: str) -> None:
    """The click ran its part alone and drew nothing outside it."""
    assert sent["full"] == 0, f"{what}: ran the whole page ({len(sent['deltas'])} elements sent)"
    assert sent["fragment"] >= 1, f"{what}: no run of its part"
    # (the event container, root 2, holds no part of the page: a toast, a component's event)
    outside = [p for p, _, _ in sent["deltas"] if p[:len(part)] != part and p[:1] != (2,)]
    assert not outside, f"{what}: {len(outside)} of {len(sent['deltas'])} elements outside its part {part}: " \
                        f"{outside[:5]}"
    assert all(f for _, f, _ in sent["deltas"]), f"{what}: an element sent outside a fragment run"


def test_each_click_redraws_its_own_part(page, app_url):
    sent = Sent(page)
    load = sent.click(page, lambda: open_sample(page, app_url))
    assert load["full"] >= 1
    page_deltas = load["deltas"]
    for title in SECTIONS:
        # the section's own slot: the container around its expander (a fragment)
        slot = _path_of(page_deltas, _expander(title))[:-1]
        for step in ("open", "close"):
            got = sent.click(page, lambda title=title: page.locator('[data-testid="stExpander"] summary')
                             .filter(has_text=title).first.click())
            _own_part_only(got, slot, f"{step} {title!r}")
            if step == "open":      # it drew its body inside its slot
                assert len(got["deltas"]) > 2, got["deltas"]
    no_error(page)

    # an analysis picked: the analyses' part (the picker's section)
    differ = _path_of(page_deltas, _picker("cp_differ_view"))[:-1]
    for view in ("Segment scores", "Length buckets"):
        got = sent.click(page, lambda view=view: page.locator(".st-key-cp_differ_view")
                         .get_by_text(view, exact=True).click())
        _own_part_only(got, differ[:2], f"analysis {view!r}")
        assert any(p[:len(differ)] == differ for p, _, _ in got["deltas"])

    # the next segment: the segment view alone (the heading's container is the view's fragment)
    view = _path_of(page_deltas, _heading("Segment view"))[:-1]
    got = sent.click(page, lambda: page.get_by_role("button", name="next →").click())
    _own_part_only(got, view, "next segment")
    no_error(page)


def test_a_settings_change_draws_no_closed_section(page, app_url):
    sent = Sent(page)
    load = sent.click(page, lambda: open_sample(page, app_url))
    slots = {t: _path_of(load["deltas"], _expander(t))[:-1] for t in SECTIONS}

    def pick_smooth():
        page.locator('[class*="st-key-bleu_opt"][class*="smooth_method"]').click()
        page.get_by_role("option", name="floor", exact=True).click()

    got = sent.click(page, pick_smooth)
    assert got["full"] >= 1
    for title, slot in slots.items():
        inside = [d for p, _, d in got["deltas"] if p[:len(slot)] == slot]
        # the fragment's slot and the expander: nothing of the closed section's body
        assert len(inside) <= 2, f"{title!r} closed, yet {len(inside)} elements drawn in it"
    no_error(page)
