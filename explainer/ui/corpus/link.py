"""The Corpus page's permalink: what a link says (pure; the page reads and writes ``st.query_params`` with it).

A link holds the bundled sample (uploaded or pasted texts are never in a link: nothing a user loads is stored on
the server), the shared metric settings in the Explain page's parameter names
(:func:`explainer.ui.settings.settings_to_params`: every family's), and the page's own choices:

========================  ==============================================================================
``sample``                a bundled sample's id
``metric``                the family looked at closely (``bleu``, ``rouge``, ``chrf``, ``ter``, …)
``also``                  the other families in the scores table and the paper tables (comma-separated)
``measure``               the measure of that family the tests, analyses and table are about (a ROUGE type;
                          ``rouge_type`` in links of earlier versions)
``analysis``              the analysis shown under "Where the systems differ"
``baseline``, ``system``  the baseline and the system looked at (the sample's own system names)
``seg``, ``seg_system``   the segment open in the segment view (1-based) and whose candidate it shows
``test``, ``n``           the paired test (``bs`` or ``ar``) and its resamples / trials
``agg_<option>``          a corpus option of the family's dialect (ROUGE's aggregation, e.g. ``agg_seed``)
========================  ==============================================================================

:data:`PAGE` declares the fields once (the engine of :mod:`explainer.ui.pagestate` bounds every value before it is
used — lengths, digits, ranges — and turns each bad one into a warning; parameters it does not know are dropped,
with one message, and the page then writes its own canonical link, so they leave the address bar);
:func:`parse_link` checks the values that depend on the sample (its systems, its segments, the draws per test) and
on the settings (the family's measures) against them. :func:`link_params` is the inverse. Nothing here names a
family: the families are the registered ones.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from explainer.corpus.samples import SAMPLES
from explainer.families import FAMILIES
from explainer.options import OptionSpec
from explainer.ui import pagestate as ps
from explainer.ui import settings as ms
from explainer.ui.pagestate import Field

__all__ = ["CorpusLink", "PAGE", "parse_link", "link_params", "PAGE_PARAMS", "AGG_PREFIX", "MAX_VALUE_CHARS",
           "agg_specs", "DEFAULT_METRIC", "measures_of", "read_saved_view", "SAVED_FIELDS", "SAVED_VIEW_KEYS"]

PAGE_PARAMS = ("sample", "metric", "also", "measure", "analysis", "baseline", "system", "seg", "seg_system", "test",
               "n")
LEGACY_MEASURE = "rouge_type"      # the measure's name in links of earlier versions
AGG_PREFIX = "agg_"
MAX_VALUE_CHARS = 100        # no value of the page's own is longer (system names: 60)
TESTS = ("bs", "ar")
DEFAULT_N = {"bs": 1000, "ar": 10000}     # sacreBLEU's --paired-bs-n / --paired-ar-n
DEFAULT_METRIC = FAMILIES.names()[0]


@dataclass
class CorpusLink:
    """What a link asks for; None: not stated (or refused, with a warning)."""

    sample: str | None = None
    metric: str | None = None
    also: list[str] | None = None
    measure: str | None = None
    analysis: str | None = None
    baseline: str | None = None
    system: str | None = None
    seg: int | None = None
    seg_system: str | None = None
    test: str | None = None
    n: int | None = None
    agg: dict[str, Any] = field(default_factory=dict)
    settings: "ms.MetricSettings | None" = None      # None: the link states no metric setting
    warnings: list[str] = field(default_factory=list)


def agg_specs(family: str, dialect: str) -> list[dict]:
    """The corpus options of a family's dialect (what the page's "… corpus aggregation options" show), as JSON."""
    cls = FAMILIES[family].dialects.get(dialect) if family in FAMILIES else None
    return [o.to_dict() for o in cls.option_specs(scope="corpus")] if cls is not None else []


AGG_INT_MAX = 10_000         # the page's bound on an int aggregation option (resamples)
_NAMES = tuple(FAMILIES.names())

PAGE = ps.Page("corpus", (
    Field(OptionSpec("sample", "choice", None, choices=tuple(SAMPLES)), "cp_sample",
          message="The link asks for the sample “{raw}”, which does not exist; pick one below.", label="Sample"),
    Field(OptionSpec("metric", "choice", None, choices=_NAMES), what=", ".join(_NAMES[:-1]) + " or " + _NAMES[-1],
          default_words=DEFAULT_METRIC, verb="showing", label="Metric"),
    Field(OptionSpec("also", "choice", (), choices=_NAMES), multi=True, label="Also in the scores table"),
    Field(OptionSpec("measure", "text", None, max=MAX_VALUE_CHARS), label="Measure"),
    Field(OptionSpec("analysis", "text", None, max=MAX_VALUE_CHARS), label="Analysis"),
    Field(OptionSpec("baseline", "text", None, max=MAX_VALUE_CHARS), what="a system of this sample",
          default_words="the first system as the baseline", label="Baseline"),
    Field(OptionSpec("system", "text", None, max=MAX_VALUE_CHARS), what="a system of this sample",
          default_words="the first other system", label="System to look at"),
    Field(OptionSpec("seg", "int", None, min=0, max=10**9), base=1, what="a segment of this sample",
          default_words="segment 1", verb="showing", label="Segment"),
    Field(OptionSpec("seg_system", "text", None, max=MAX_VALUE_CHARS), what="a system of this sample",
          default_words="the system looked at", label="Segment of"),
    Field(OptionSpec("test", "choice", None, choices=TESTS),
          what="bs (paired bootstrap) or ar (approximate randomization)", default_words="bs", label="Paired test"),
    Field(OptionSpec("n", "int", None, min=1, max=10**9), what="a number of resamples the page runs",
          label="Resamples"),
    Field(OptionSpec(LEGACY_MEASURE, "text", None, max=MAX_VALUE_CHARS), label="Measure (earlier links)"),
), known=ms.settings_params, texts=False, max_chars=MAX_VALUE_CHARS,
    # the shared dropped-link sentence as it applies here (this page has no default example)
    dropped_words=lambda s: s.replace("so the page shows its default example instead", "so the page opened without it"))


def _agg_field(o: dict) -> Field:
    """A corpus option of the dialect as a field of the link (``agg_<name>``), its bounds the core's (an int at most
    AGG_INT_MAX: the page's bound on resamples)."""
    hi = o.get("max")
    if o["type"] == "int":
        hi = int(hi) if hi is not None and hi <= AGG_INT_MAX else AGG_INT_MAX
    spec = OptionSpec(AGG_PREFIX + o["name"], o["type"], o["default"], choices=tuple(o["choices"] or ()) or None,
                      min=o.get("min", 0 if o["type"] == "int" else None), max=hi)
    return Field(spec, what=f"a value of {o['name']}", default_words=repr(o["default"]))


def _systems(link: CorpusLink, raw: dict, names: list[str], w: list[str]) -> None:
    """baseline, system, seg_system: names of the sample's systems (a link without a sample names none)."""
    for name in ("baseline", "system", "seg_system"):
        v = raw[name]
        if v is None:
            continue
        if not names:
            w.append(f"“{name}=…” needs a sample in the link; it is ignored.")
            continue
        value, warn = PAGE[name].decode(v, choices=names)
        setattr(link, name, value)
        w += [warn] if warn else []


def _test(link: CorpusLink, raw: dict, n_segments: int, max_n: Mapping[str, int], max_cells: int,
          w: list[str]) -> None:
    """seg (within the sample's segments), n (within the test's resamples and the page's draws per test)."""
    if raw["seg"] is not None:
        if not n_segments:
            w.append("“seg=…” needs a sample in the link; it is ignored.")
        else:
            seg, warn = PAGE["seg"].decode(raw["seg"], lo=0, hi=n_segments - 1, default=0)
            link.seg = None if warn else seg + 1
            w += [warn] if warn else []
    if raw["n"] is not None:
        t = link.test or "bs"
        hi = max_n[t] if not n_segments else min(max_n[t], max(1, max_cells // n_segments))
        what = "a number of resamples the page runs" if t == "bs" else "a number of trials the page runs"
        n, warn = dataclasses.replace(PAGE["n"], what=what).decode(raw["n"], lo=1, hi=hi,
                                                                   default=min(DEFAULT_N[t], hi))
        link.n = None if warn else n
        w += [warn] if warn else []


def measures_of(family: str, settings: "ms.MetricSettings | None") -> tuple[str, ...]:
    """The measure keys of ``family`` under the settings (the defaults when None): ROUGE's types, chrF's one."""
    from explainer.ui.families import ui_family

    s = settings if settings is not None else ms.default_settings()
    try:
        d = ui_family(family).usable(s[family]).bind()
    except (ValueError, KeyError):
        return ()
    return tuple(m.key for m in FAMILIES[family].measures(d))


def _measure(link: CorpusLink, raw: dict, w: list[str]) -> None:
    """measure (or ``rouge_type`` of earlier links): one of the measures of the family looked at."""
    asked = raw["measure"] if raw["measure"] is not None else raw[LEGACY_MEASURE]
    if asked is None:
        return
    param = "measure" if raw["measure"] is not None else LEGACY_MEASURE
    family = link.metric or DEFAULT_METRIC
    known = measures_of(family, link.settings)
    if asked in known or not known:
        link.measure = asked     # checked again against the measures in force when it is used
    else:
        w.append(f"“{param}={ps.show(asked)}” is not one of the link's {FAMILIES[family].label} measures "
                 f"({', '.join(known)}); using {known[0]}.")


def _agg(link: CorpusLink, params, w: list[str]) -> None:
    """The ``agg_`` corpus options of the dialect of the family looked at."""
    aggs = {k[len(AGG_PREFIX):]: ps.first(params, k) for k in params if k.startswith(AGG_PREFIX)}
    if not aggs:
        return
    family = link.metric or DEFAULT_METRIC
    dialect = (link.settings if link.settings is not None else ms.default_settings())[family].dialect
    specs = {o["name"]: o for o in agg_specs(family, dialect)}
    for name, v in aggs.items():
        o = specs.get(name)
        if o is None:
            w.append(f"“{AGG_PREFIX}{ps.show(name, 30)}” is not a corpus option of {dialect}; it is ignored.")
            continue
        f = _agg_field(o)
        val, warn = f.decode(v or "") if v is not None and len(v) <= MAX_VALUE_CHARS else (None, f.warning(v or ""))
        if warn:
            w.append(warn)
        else:
            link.agg[name] = val


def parse_link(params: Mapping[str, Sequence[str] | str], *, samples: Mapping[str, Any], sample_info,
               max_n: Mapping[str, int], max_cells: int) -> CorpusLink:
    """A link's query parameters -> :class:`CorpusLink` (the page's fields read by the engine, each bounded
    before it is used; the values that depend on the sample checked against it). ``samples``: the bundled
    samples by id; ``sample_info(id) -> (system names, number of segments)``; ``max_n``: the largest resamples /
    trials per test; ``max_cells``: the largest resamples × segments of one test."""
    link = CorpusLink()
    w = link.warnings
    dependent = ("baseline", "system", "seg_system", "seg", "n", "measure", LEGACY_MEASURE, "analysis")
    values = PAGE.read(params, w, only=[f.param for f in PAGE.fields if f.param not in dependent],
                       known=set(ms.settings_params()) | {k for k in params if k.startswith(AGG_PREFIX)})
    raw = {k: ps.first(params, k) for k in dependent}
    for k, v in raw.items():
        if v is not None and len(v) > MAX_VALUE_CHARS:
            w.append(f"“{k}={ps.show(v)}” ({len(v):,} characters) is too long for this parameter; it is ignored.")
            raw[k] = None
    stated = {k: v for k, v in params.items() if k in ms.settings_params()}
    if stated:      # the settings (as on the Explain page); absent: the page keeps the ones in force
        link.settings, sw = ms.settings_from_params(stated)
        w += sw
    link.metric, link.test = values["metric"], values["test"]
    if "also" in params:
        link.also = list(values["also"])
    link.analysis = raw["analysis"]
    names: list[str] = []
    n_segments = 0
    if values["sample"] is not None and values["sample"] in samples:
        link.sample = values["sample"]
        names, n_segments = sample_info(link.sample)
    _systems(link, raw, names, w)
    _test(link, raw, n_segments, max_n, max_cells, w)
    _measure(link, raw, w)
    _agg(link, params, w)
    return link


#: a saved comparison's view (the page's session keys) -> the link's fields that hold the same value
SAVED_FIELDS = {"cp_metric": "metric", "cp_test": "test", "cp_baseline": "baseline", "cp_system": "system",
                "cp_view_sys": "seg_system", "cp_seg": "seg", "cp_measure": "measure",
                "cp_differ_view": "analysis"}
#: the other widgets a saved view restores: texts the page checks against its options when it draws them
SAVED_TEXTS = ("cp_view_family", "cp_langpair")
#: the widgets a saved comparison keeps and restores (besides the test set, the names and the settings)
SAVED_VIEW_KEYS = (*SAVED_FIELDS, "cp_also", *(f"cp_test_n_{t}" for t in TESTS), *SAVED_TEXTS)
#: the keys files of earlier versions wrote for the same values
_SAVED_LEGACY = {"cp_rouge_type": "cp_measure", "cp_rdiffer_view": "cp_differ_view"}


def _as_link_text(v: Any) -> str:
    """A saved JSON value as a link would write it (a whole float as an int; anything else as its text, which the
    field then accepts or refuses: 'True', 'nan', 'inf')."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return v if isinstance(v, str) else str(v)


def read_saved_view(view: Mapping[str, Any], *, names: Sequence[str], n_segments: int, max_n: Mapping[str, int],
                    max_cells: int) -> tuple[dict[str, Any], list[str]]:
    """A saved comparison's view (session keys -> the values the page stored) read through the link's fields:
    every value bounded and checked as a link's is (:meth:`Field.decode`: the same messages), against the saved
    test set (``names``: its systems, ``n_segments``); returns (session keys -> values to restore, warnings). The
    metric of files of earlier versions ("BLEU", "CHRF") is read as the family's name."""
    view = {**{_SAVED_LEGACY[k]: v for k, v in view.items() if k in _SAVED_LEGACY}, **view}
    w: list[str] = []
    raw = {p: _as_link_text(view[k]) for k, p in SAVED_FIELDS.items() if view.get(k) is not None}
    for k, v in list(raw.items()):
        if len(v) > MAX_VALUE_CHARS:
            w.append(f"“{k}={ps.show(v)}” ({len(v):,} characters) is too long for this parameter; it is ignored.")
            del raw[k]
    out: dict[str, Any] = {}
    for key, p in (("cp_metric", "metric"), ("cp_test", "test")):
        if p in raw:
            v, warn = PAGE[p].decode(raw[p].lower() if p == "metric" else raw[p])
            w += [warn] if warn else []
            if not warn:
                out[key] = v
    if isinstance(view.get("cp_also"), str):       # the other metrics, comma-separated (a plain value in the file)
        also, warn = PAGE["also"].decode(view["cp_also"].lower()[:MAX_VALUE_CHARS])
        w += [warn] if warn else []
        out["cp_also"] = list(also)
    link = CorpusLink(test=out.get("cp_test"))
    _systems(link, {k: raw.get(k) for k in ("baseline", "system", "seg_system")}, list(names), w)
    _test(link, {"seg": raw.get("seg"), "n": None}, n_segments, max_n, max_cells, w)
    out.update({k: getattr(link, p) for k, p in (("cp_baseline", "baseline"), ("cp_system", "system"),
                                                  ("cp_view_sys", "seg_system"), ("cp_seg", "seg"))
                if getattr(link, p) is not None})
    for t in TESTS:      # the resamples / trials of each test, bounded as a link's ``n``
        v = view.get(f"cp_test_n_{t}")
        if v is not None:
            per_test = CorpusLink(test=t)
            _test(per_test, {"seg": None, "n": _as_link_text(v)[:MAX_VALUE_CHARS]}, n_segments, max_n, max_cells, w)
            if per_test.n is not None:
                out[f"cp_test_n_{t}"] = per_test.n
    for key, p in (("cp_measure", "measure"), ("cp_differ_view", "analysis")):
        if p in raw:
            out[key] = raw[p]      # one of the page's measures / analyses: checked when the page draws them
    for k in SAVED_TEXTS:
        v = view.get(k)
        if isinstance(v, str) and len(v) <= MAX_VALUE_CHARS:
            out[k] = v
        elif v is not None:
            w.append(f"The saved view's {k} is not one of the page's choices; it is ignored.")
    return out, w


def _agg_text(o: dict, v: Any) -> str:
    if o["type"] == "bool":
        return "1" if v else "0"
    if o["type"] == "float":
        return repr(float(v))
    return str(v)


def link_params(*, settings: "ms.MetricSettings", sample: str | None = None, metric: str = DEFAULT_METRIC,
                also: Sequence[str] = (), measure: str | None = None, analysis: str | None = None,
                baseline: str | None = None, system: str | None = None, seg: int | None = None,
                seg_system: str | None = None, test: str | None = None, n: int | None = None,
                agg: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The page's link for this view (what :func:`parse_link` reads back). Without a sample (uploaded or pasted
    texts) the link holds only what does not name the data: the metrics, their settings and options."""
    out: dict[str, str] = {}
    if sample is not None:
        out["sample"] = sample
    out["metric"] = metric
    others = [f for f in also if f != metric]
    if others:
        out["also"] = PAGE["also"].encode([f for f in FAMILIES.names() if f in others])
    if measure:
        out["measure"] = measure
    if analysis:
        out["analysis"] = analysis
    if sample is not None:
        for k, v in (("baseline", baseline), ("system", system)):
            if v is not None:
                out[k] = v
        if seg is not None:
            out["seg"] = str(int(seg))
        if seg_system is not None and seg_system != system:
            out["seg_system"] = seg_system
        if test in TESTS:
            out["test"] = test
            if n is not None and int(n) != DEFAULT_N[test]:
                out["n"] = str(int(n))
    specs = {o["name"]: o for o in agg_specs(metric, settings[metric].dialect)}
    for name, v in (agg or {}).items():
        o = specs.get(name)
        if o is not None and v is not None and v != o["default"]:
            out[AGG_PREFIX + name] = _agg_text(o, v)
    out.update(ms.settings_to_params(settings))
    return out
