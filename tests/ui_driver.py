"""Drive the app under streamlit.testing (AppTest) the way a browser does, on any of its pages.

AppTest sends every selectbox's value as the label of its *current* options. A browser does not: it keeps the
label it last showed until the user picks another one or the server sets a value, and sends that label back on
the next rerun — even when the options' labels changed in between (a label that names which reference was
"kept" changes with the ROUGE dialect; a step list "1 / 15 · BLEU · …" changes with the lesson). Streamlit then
hands the page the bare label string instead of the option (that is how ``rouge155`` → another dialect crashed
the Explain page, and how Next crashed the Teach walkthrough). :class:`BrowserLikeApp` keeps each choice widget's
labels as the browser does (selectbox, radio, multiselect, segmented control, pills) and sends them, so tests see
what users see.

On top of that, the pieces of the random widget-sequence tests of every page:

- :meth:`BrowserLikeApp.random_action` — one random user action on any widget the page shows (pick an option,
  type a text, move a number or a slider, tick a box, press an enabled button), by key or label, with nothing
  about the page's internals;
- :meth:`BrowserLikeApp.view` and :meth:`BrowserLikeApp.reopen` — what the page shows (its keyed widgets'
  values as the browser shows them, and its headline numbers), and the same page opened afresh from the link in
  the address bar, to check that the link reproduces the view.
"""
from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable
from contextlib import contextmanager

from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1 import element_tree as et

from tests.conftest import ROOT

APP = str(ROOT / "app.py")
TABS_KEY = "xp_tab"  # explainer.ui.explain.page.TABS_KEY (imported lazily there: the page module needs Streamlit)
PAGES = {  # the app's pages (app.py), as a navigation link opens them
    "explain": None,
    "dialects": "explainer/ui/pages/dialects.py",
    "corpus": "explainer/ui/pages/corpus.py",
    "lab": "explainer/ui/pages/gaming_lab.py",
    "teach": "explainer/ui/pages/teach.py",
}

# choice widgets whose value the browser sends as the label(s) it shows
_ONE_LABEL = ("selectbox", "radio")
_LABELS = ("multiselect", "button_group")
# what a user types into a text box in the random sequences: ordinary text, nothing, spaces, other scripts,
# markup, an answer-like number
TEXTS = ("the cat is on the mat", "there is a cat on the mat", "a b c", "", "   ", "The Cat.\nOn the mat!",
         "北京是中国的首都", "the the the the", "x", "e\u0301t\u00e9 <b>&amp;</b> $x$", "0.25", "1/4", "3", "abc")


def _server_labels(node):
    """The label(s) of the value the server holds for a choice widget (``...`` when it has none it can show)."""
    try:
        v = node.value
        if node.type in _ONE_LABEL:
            return None if v is None else node.format_func(v)
        if node.type == "button_group" and node.proto.click_mode == node.proto.ClickMode.SINGLE_SELECT:
            return [] if v is None else [node.format_func(v)]
        return [node.format_func(x) for x in (v or [])]
    except Exception:  # noqa: BLE001 - a stale value the widget's format function cannot show
        return ...


@contextmanager
def _error_details():
    """The app's exceptions with their message and stack trace (the app's config redacts them for strangers)."""
    from streamlit import config

    was = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", "full")
    try:
        yield
    finally:
        config.set_option("client.showErrorDetails", was)


def _held_from_proto(node) -> str | list[str] | None:
    """The label(s) a browser shows for a choice widget it draws for the first time, or after the server set its
    value: the server's value (``raw_value(s)``) or the widget's default."""
    p = node.proto
    if node.type in _ONE_LABEL:
        if p.set_value and p.raw_value:
            return p.raw_value
        opts = list(node.options)
        default = p.default if p.HasField("default") else None
        return opts[default] if default is not None and 0 <= default < len(opts) else None
    if p.set_value:
        return list(p.raw_values)
    opts = list(node.options)
    return [opts[i] for i in p.default if 0 <= i < len(opts)]


class BrowserLikeApp:
    def __init__(self, params: dict | None = None, *, tab: str | None = None, open_details: bool = False,
                 page: str = "explain", timeout: float = 90):
        """``page``: a key of :data:`PAGES`, opened with the link ``params``; ``tab``: "BLEU" or "ROUGE", the
        Explain page's tab to have open (only the open tab is built); ``open_details``: open every "… details"
        expander of the ROUGE tab (built only when open)."""
        self.page = page
        self.at = AppTest.from_file(APP, default_timeout=timeout)
        if PAGES[page]:
            self.at.switch_page(PAGES[page])
        for k, v in (params or {}).items():
            self.at.query_params[k] = v
        if tab:
            self.at.session_state[TABS_KEY] = tab
        if open_details:
            from explainer.ui.families.rouge import TYPE_CHOICES as ROUGE_TYPE_CHOICES

            for t in ROUGE_TYPE_CHOICES:
                self.at.session_state[f"xp_more_{t}"] = True
        self.held: dict[str, str | list[str] | None] = {}   # choice widget id -> the label(s) the browser holds
        self._server: dict[str, object] = {}   # choice widget id -> its value's label(s) after the last run
        self._run_first()

    @property
    def labels(self) -> dict[str, str]:
        """The single labels the browser holds (selectboxes and radios), by widget id."""
        return {k: v for k, v in self.held.items() if isinstance(v, str)}

    def open_tab(self, name: str, key: str = TABS_KEY) -> "BrowserLikeApp":
        """Click a tab (the Explain page's "BLEU" / "ROUGE" by default; tabs with a key are built lazily)."""
        self.at.session_state[key] = name
        return self.run()

    # ------------------------------------------------------------------ the browser's copy of each widget
    def widgets(self, kinds: Iterable[str] | None = None) -> list:
        """The widgets of the last run, in page order (``kinds``: only those ``type`` values)."""
        kinds = set(kinds) if kinds is not None else None
        return [n for n in self.at._tree if isinstance(n, et.Widget) and (kinds is None or n.type in kinds)]

    def _remember_labels(self) -> None:
        live = set()
        for node in self.widgets(_ONE_LABEL + _LABELS):
            live.add(node.id)
            if node.id not in self.held or node.proto.set_value:
                # a new widget shows its initial value; a value the server sets replaces the browser's
                self.held[node.id] = _held_from_proto(node)
            self._server[node.id] = _server_labels(node)
        self.held = {k: v for k, v in self.held.items() if k in live}

    def _take_test_values(self) -> None:
        """A value the test put into session state (``at.session_state[key] = …``) between two runs is what the
        widget shows next, as if the user had picked it."""
        for node in self.widgets(_ONE_LABEL + _LABELS):
            now = _server_labels(node)
            if now is not ... and now != self._server.get(node.id, ...):
                self.held[node.id] = now

    def _run_first(self) -> None:
        with _error_details():
            self.at.run()
        self._remember_labels()

    def _states(self) -> WidgetStates:
        """The widget states the browser sends: AppTest's, with the labels the browser holds for choice widgets
        (a form's widgets only when the form is submitted, as a browser does). Built from AppTest's own pieces
        (``element_tree``'s form helpers; Streamlit is pinned below 2) so that one stale value AppTest cannot
        serialise does not stop the others."""
        self._take_test_values()
        tree = self.at._tree
        submitted = et._submitted_form_ids(tree)
        out = WidgetStates()
        for node in self.widgets():
            form = et._widget_form_id(node)
            held = self.held.get(node.id, ...)
            if held is not ... and (not form or form in submitted):
                ws = WidgetState(id=node.id)
                if node.type in _ONE_LABEL:
                    if held is not None:
                        ws.string_value = held
                else:
                    ws.string_array_value.data[:] = held or []
                out.widgets.append(ws)
                continue
            restore = None
            if form and form not in submitted:
                attr, sentinel = et._unset_value_marker(node)
                restore = (attr, getattr(node, attr))
                setattr(node, attr, sentinel)
            try:
                w = et.get_widget_state(node)
            except (ValueError, KeyError, TypeError):
                w = None   # a value AppTest cannot serialise (a stale one): the server keeps what it has
            finally:
                if restore is not None:
                    setattr(node, restore[0], restore[1])
            if w is not None:
                out.widgets.append(w)
        return out

    def run(self) -> "BrowserLikeApp":
        with _error_details():
            self.at._run(self._states())
        self._remember_labels()
        return self

    # ---------------------------------------------------------------------------- user actions
    def _node(self, kind: str, key: str):
        return getattr(self.at, kind)(key=key)

    def select(self, key: str, value, kind: str = "selectbox") -> "BrowserLikeApp":
        """Pick ``value`` (an option, not its label) in the choice widget ``key``."""
        node = self._node(kind, key)
        if node.type in _ONE_LABEL:
            self.held[node.id] = node.format_func(value)
        else:
            self.held[node.id] = [node.format_func(v) for v in value] if node.type == "multiselect" or isinstance(
                value, list) else [node.format_func(value)]
        node.set_value(value)
        return self.run()

    def select_label(self, node, label) -> "BrowserLikeApp":
        """Pick the option shown as ``label`` (a list of labels for multiselect / pills) in ``node``."""
        self.held[node.id] = label
        return self.run()

    def select_many(self, **values) -> "BrowserLikeApp":
        """Several selectboxes changed before one rerun (as a page with two changed widgets gets)."""
        for key, value in values.items():
            sb = self.at.selectbox(key=key)
            sb.set_value(value)
            self.held[sb.id] = sb.format_func(value)
        return self.run()

    def switch_page(self, path: str) -> "BrowserLikeApp":
        """Go to another page as its navigation link does: the new page starts without the old page's link
        parameters."""
        self.at.query_params.clear()
        self.at.switch_page(path)
        return self.run()

    def set(self, kind: str, key: str, value) -> "BrowserLikeApp":
        node = self._node(kind, key)
        if node.type in _ONE_LABEL + _LABELS:
            return self.select(key, value, kind)
        node.set_value(value)
        return self.run()

    def click(self, key: str) -> "BrowserLikeApp":
        self.at.button(key=key).click()
        return self.run()

    def has(self, kind: str, key: str) -> bool:
        return any(n.key == key for n in self.widgets([kind]))

    @property
    def exceptions(self) -> list[str]:
        """The page's exceptions, each with the end of its stack trace (the page shows a redacted message)."""
        return [f"{e.value} {' '.join(s.strip() for s in e.stack_trace[-4:])}".strip() for e in self.at.exception]

    @property
    def query(self) -> dict[str, list[str]]:
        """The link in the address bar (every parameter as a list)."""
        qp = self.at.query_params
        return {k: (list(qp[k]) if isinstance(qp[k], list) else [qp[k]]) for k in qp}

    # ------------------------------------------------------------------------------- random user actions
    def random_action(self, rng: random.Random, *, skip: Callable[[object], bool] = lambda n: False,
                      fixed: dict | None = None, texts: tuple[str, ...] = TEXTS) -> str:
        """One random user action on a widget the page shows (``skip``: widgets to leave alone; ``fixed``: the
        value to give a key whenever it is picked, e.g. a small time budget). Returns its description."""
        fixed = fixed or {}
        cands = [n for n in self.widgets() if n.type not in ("download_button", "file_uploader", "chat_input")
                 and not getattr(n.proto, "disabled", False) and not skip(n)]
        if not cands:
            self.run()
            return "rerun (nothing to do)"
        node = rng.choice(cands)
        name = node.key or repr(getattr(node, "label", node.id))[:40]
        t = node.type
        form = et._widget_form_id(node)
        if form:
            return self._submit_form(form, rng, texts)
        if node.key in fixed:
            value = fixed[node.key]
            if t in _ONE_LABEL + _LABELS:
                self.select(node.key, value, t)
            else:
                node.set_value(value)
                self.run()
            return f"{t} {name} = {value!r}"
        if t in _ONE_LABEL:
            if not node.options:
                self.run()
                return f"rerun ({name} has no options)"
            label = rng.choice(list(node.options))
            self.select_label(node, label)
            return f"{t} {name} → {label!r}"
        if t in _LABELS:
            opts = list(node.options)
            single = t == "button_group" and node.proto.click_mode == node.proto.ClickMode.SINGLE_SELECT
            if single:
                labels = [rng.choice(opts)] if opts and (node.proto.required or rng.random() < 0.9) else []
            else:
                labels = rng.sample(opts, rng.randint(0, len(opts))) if opts else []
            self.select_label(node, labels)
            return f"{t} {name} → {labels!r}"
        if t in ("button", "form_submit_button"):
            node.click()
            self.run()
            return f"press {name}"
        if t in ("checkbox", "toggle"):
            node.set_value(not node.value)
            self.run()
            return f"{t} {name} → {node.value!r}"
        if t in ("text_area", "text_input"):
            text = rng.choice(texts)
            if node.proto.max_chars:
                text = text[:node.proto.max_chars]
            node.set_value(text)
            self.run()
            return f"{t} {name} = {text!r}"
        if t == "number_input":
            value = _random_number(node.proto, rng)
            node.set_value(value)
            self.run()
            return f"{t} {name} = {value!r}"
        if t == "slider":
            value = _random_slider(node.proto, rng)
            node.set_value(value)
            self.run()
            return f"{t} {name} = {value!r}"
        self.run()
        return f"rerun ({t} {name} is not driven)"

    def _submit_form(self, form: str, rng: random.Random, texts: tuple[str, ...]) -> str:
        """Fill a form's widgets at random and press its submit button (a form sends nothing before)."""
        done, submit = [], None
        for node in self.widgets():
            if et._widget_form_id(node) != form:
                continue
            name = node.key or repr(getattr(node, "label", node.id))[:40]
            if node.type == "button":
                submit = submit or node
                continue
            if node.type in ("text_area", "text_input"):
                v = rng.choice(texts)[:node.proto.max_chars or None]
                node.set_value(v)
            elif node.type in _ONE_LABEL and node.options:
                v = rng.choice(list(node.options))
                self.held[node.id] = v
            elif node.type in _LABELS and node.options:
                v = rng.sample(list(node.options), rng.randint(0, len(node.options)))
                self.held[node.id] = v
            elif node.type == "number_input":
                v = _random_number(node.proto, rng)
                node.set_value(v)
            elif node.type in ("checkbox", "toggle"):
                v = rng.random() < 0.5
                node.set_value(v)
            else:
                continue
            done.append(f"{name}={v!r}")
        if submit is None:
            self.run()
            return f"rerun (form {form} has no submit button)"
        submit.click()
        self.run()
        return f"form {form}: {', '.join(done)}, press {submit.label!r}"

    # -------------------------------------------------------------------------- the view and its link
    def view(self, *, exclude: Iterable[str] = (), numbers: Callable[["BrowserLikeApp"], object] | None = None
             ) -> dict:
        """What the page shows: each keyed widget's value as the browser shows it (choice widgets: the label's
        position; ``exclude``: keys the page's link does not carry, "prefix*" for a family of keys), the headline
        metrics (unless "(metrics)" is excluded) and ``numbers(self)``."""
        exact = {k for k in exclude if not k.endswith("*")}
        prefixes = tuple(k[:-1] for k in exclude if k.endswith("*"))
        out: dict = {}
        for node in self.widgets():
            if not node.key or node.key in exact or (prefixes and node.key.startswith(prefixes)):
                continue
            if node.type in ("button", "form_submit_button", "download_button", "file_uploader"):
                continue
            if node.type in _ONE_LABEL + _LABELS:
                out[node.key] = _shown_choice(node, self.held.get(node.id))
            else:
                try:
                    out[node.key] = node.value
                except (KeyError, ValueError, TypeError):
                    out[node.key] = "<unreadable>"
        if "(metrics)" not in exact:
            out["(metrics)"] = [(m.label, m.value) for m in self.at.metric]
        if numbers is not None:
            out["(numbers)"] = numbers(self)
        return out

    def reopen(self, **kw) -> "BrowserLikeApp":
        """The same page opened in a new session from the link in the address bar."""
        return BrowserLikeApp(self.query, page=self.page, **kw)


def _shown_choice(node, held):
    """A choice widget's value as shown: the position(s) of the label(s) the browser holds among the options
    (a label that is no option any more is kept as it is: the view then differs)."""
    opts = list(node.options)
    if held is None or isinstance(held, str):
        return opts.index(held) if held in opts else held
    return [opts.index(h) if h in opts else h for h in held]


def _random_number(p, rng: random.Random):
    is_int = p.data_type == p.INT
    lo = p.min if p.has_min else (0 if is_int else 0.0)
    hi = p.max if p.has_max else lo + 20
    hi = min(hi, lo + 10_000) if not p.has_max else hi
    pick = rng.random()
    if pick < 0.2:
        v = lo
    elif pick < 0.35:
        v = hi
    elif pick < 0.6:
        v = lo + (p.step or 1) * rng.randint(0, 3)
    else:
        v = rng.uniform(lo, hi)
    v = min(max(v, lo), hi)
    return int(round(v)) if is_int else round(float(v), 3)


def _random_slider(p, rng: random.Random):
    step = p.step or 1
    n = int(round((p.max - p.min) / step))
    pts = sorted(p.min + step * rng.randint(0, n) for _ in p.default) if p.default else [p.min]
    is_int = p.data_type == p.INT
    pts = [int(round(x)) if is_int else round(x, 6) for x in pts]
    return pts[0] if len(pts) == 1 else tuple(pts)


def view_diff(a: dict, b: dict) -> dict:
    """The entries of two views that differ (keys shown by both, and the numbers), each narrowed to its first
    differing part."""
    return {k: _first_difference(a[k], b[k]) for k in a.keys() & b.keys() if a[k] != b[k]}


def _first_difference(x, y):
    while isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)) and len(x) == len(y):
        k = next(i for i, (p, q) in enumerate(zip(x, y)) if p != q)
        x, y = x[k], y[k]
    if isinstance(x, dict) and isinstance(y, dict) and x.keys() == y.keys():
        k = next(k for k in x if x[k] != y[k])
        return _first_difference(x[k], y[k])
    return x, y


# ------------------------------------------------------------------------------ random sequences, any page
class PageSpec:
    """How the random sequences drive one page: where they start, which choices they switch between steps,
    which widgets to leave alone, and what the page's link is expected to reproduce.

    ``starts``: functions ``rng -> link parameters`` the sequence opens the page with; ``switches``: keys of
    choice widgets (examples, lessons, modes, metrics, dialects …) that a step picks a random option of when the
    page shows them, or functions ``(app, rng) -> description`` for composite actions; ``exclude``: keyed widgets
    the link does not carry (said why where the page is specified; or a function of the app giving them);
    ``numbers``: the page's key numbers, compared after reopening the link; ``skip``/``fixed``: see
    :meth:`BrowserLikeApp.random_action`; ``check``: an invariant after every step (raises AssertionError);
    ``link_ok``: whether the link can reproduce the view now (e.g. not when texts are too long for a link)."""

    def __init__(self, page: str, *, starts, switches, exclude=(), numbers=None, skip=lambda n: False, fixed=None,
                 check=None, link_ok=lambda app: True, switch_share: float = 0.45, link_share: float = 0.25):
        self.page, self.starts, self.switches = page, list(starts), list(switches)
        self.exclude = exclude if callable(exclude) else set(exclude)
        self.numbers, self.skip, self.fixed = numbers, skip, fixed or {}
        self.check, self.link_ok = check, link_ok
        self.switch_share, self.link_share = switch_share, link_share


def switch(app: BrowserLikeApp, rng: random.Random, spec: PageSpec) -> str:
    """Switch one of the page's choices (a key of ``spec.switches`` the page shows) or run a composite action."""
    shown = {n.key: n for n in app.widgets(_ONE_LABEL + _LABELS) if n.key and not n.proto.disabled}
    options = [s for s in spec.switches if callable(s) or s in shown]
    if not options:
        return app.random_action(rng, skip=spec.skip, fixed=spec.fixed)
    s = rng.choice(options)
    if callable(s):
        return s(app, rng)
    node = shown[s]
    opts = list(node.options)
    if not opts:
        app.run()
        return f"rerun ({s} has no options)"
    if node.type in _ONE_LABEL or (node.type == "button_group"
                                   and node.proto.click_mode == node.proto.ClickMode.SINGLE_SELECT):
        label = rng.choice(opts)
        app.select_label(node, label if node.type in _ONE_LABEL else [label])
    else:
        label = rng.sample(opts, rng.randint(0, len(opts)))
        app.select_label(node, label)
    return f"switch {s} → {label!r}"


def check_link(app: BrowserLikeApp, spec: PageSpec, done: list[str]) -> None:
    """The link in the address bar, opened in a new session, shows the same view."""
    if not spec.link_ok(app):
        return
    exclude = spec.exclude(app) if callable(spec.exclude) else spec.exclude
    before = app.view(exclude=exclude, numbers=spec.numbers)
    again = app.reopen()
    assert not again.exceptions, (done, "reopening", app.query, again.exceptions)
    after = again.view(exclude=exclude, numbers=spec.numbers)
    diff = view_diff(before, after)
    assert not diff, ("the link does not reproduce the view", done, app.query, diff)


def run_sequence(spec: PageSpec, seed: int, steps: int) -> list[str]:
    """One seeded sequence of ``steps`` user actions on ``spec``'s page: no exception after any step, the
    page's invariant holds, and the link read back at random points reproduces the view (``UI_SEQ_NO_LINK=1`` in
    the environment skips the read-back, to look for crashes only). Returns the steps."""
    rng = random.Random(f"{spec.page}:{seed}")
    start = rng.choice(spec.starts)(rng)
    app = BrowserLikeApp(start, page=spec.page)
    done = [f"open {spec.page} with {start}"]
    assert not app.exceptions, (seed, done, app.exceptions)
    for _ in range(steps):
        if rng.random() < spec.switch_share:
            done.append(switch(app, rng, spec))
        else:
            done.append(app.random_action(rng, skip=spec.skip, fixed=spec.fixed))
        assert not app.exceptions, (seed, done, app.exceptions)
        if spec.check is not None:
            spec.check(app, done)
        if rng.random() < spec.link_share and not os.environ.get("UI_SEQ_NO_LINK"):
            done.append("read the link back")
            check_link(app, spec, done)
    return done
