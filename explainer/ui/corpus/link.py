"""The Corpus page's permalink: what a link says (pure; the page reads and writes ``st.query_params`` with it).

A link holds the bundled sample (uploaded or pasted texts are never in a link: nothing a user loads is stored on
the server), the shared metric settings in the Explain page's parameter names
(:func:`explainer.ui.settings.settings_to_params`), and the page's own choices:

========================  ==============================================================================
``sample``                a bundled sample's id
``metric``                ``bleu`` or ``rouge``
``baseline``, ``system``  the baseline and the system looked at (the sample's own system names)
``seg``, ``seg_system``   the segment open in the segment view (1-based) and whose candidate it shows
``test``, ``n``           the paired test (``bs`` or ``ar``) and its resamples / trials
``rouge_type``            the ROUGE type of the tests, deltas and table
``agg_<option>``          a ROUGE corpus-aggregation option of the dialect (e.g. ``agg_seed``)
========================  ==============================================================================

:func:`parse_link` bounds every value before it is used (lengths, digits, ranges) and turns each bad one into a
warning; parameters it does not know are dropped (the page then writes its own canonical link, so they leave
the address bar) with one message. :func:`link_params` is the inverse.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from explainer.ui import settings as ms

__all__ = ["CorpusLink", "parse_link", "link_params", "PAGE_PARAMS", "AGG_PREFIX", "MAX_VALUE_CHARS",
           "MAX_PARAM_DIGITS", "agg_specs"]

PAGE_PARAMS = ("sample", "metric", "baseline", "system", "seg", "seg_system", "test", "n", "rouge_type")
AGG_PREFIX = "agg_"
MAX_VALUE_CHARS = 100        # no value of the page's own is longer (system names: 60)
MAX_PARAM_DIGITS = 9         # every integer is bounded before int()
MAX_NAMES_SHOWN = 5
TESTS = ("bs", "ar")
DEFAULT_N = {"bs": 1000, "ar": 10000}     # sacreBLEU's --paired-bs-n / --paired-ar-n


@dataclass
class CorpusLink:
    """What a link asks for; None: not stated (or refused, with a warning)."""

    sample: str | None = None
    metric: str | None = None
    baseline: str | None = None
    system: str | None = None
    seg: int | None = None
    seg_system: str | None = None
    test: str | None = None
    n: int | None = None
    rouge_type: str | None = None
    agg: dict[str, Any] = field(default_factory=dict)
    settings: "ms.MetricSettings | None" = None      # None: the link states no metric setting
    warnings: list[str] = field(default_factory=list)


def _show(value: str, limit: int = 40) -> str:
    return value[:limit] + ("…" if len(value) > limit else "")


def _last(params: Mapping[str, Sequence[str] | str], name: str) -> str | None:
    v = params.get(name)
    if v is None:
        return None
    if isinstance(v, str):
        return v
    return v[-1] if v else None


def _int(raw: str, lo: int, hi: int) -> int | None:
    s = raw.strip()
    if s.isascii() and s.isdigit() and len(s) <= MAX_PARAM_DIGITS and lo <= int(s) <= hi:
        return int(s)
    return None


def agg_specs(rouge_dialect: str) -> list[dict]:
    """The ROUGE dialect's corpus-aggregation options (what the page's "ROUGE corpus aggregation options" show)."""
    from explainer.rouge import dialect_options

    return [o for o in dialect_options(rouge_dialect, corpus=True) if o.get("corpus_only")]


AGG_INT_MAX = 10_000         # the page's bound on an int aggregation option (resamples)


def _agg_value(o: dict, raw: str) -> tuple[Any, bool]:
    """A link's value of the aggregation option ``o`` -> (value, ok)."""
    kind = o["type"]
    if kind == "bool":
        return (raw == "1"), raw in ("0", "1")
    if kind == "choice":
        return raw, raw in o["choices"]
    if kind == "int":
        hi = o.get("max")
        hi = int(hi) if hi is not None and hi <= AGG_INT_MAX else AGG_INT_MAX
        v = _int(raw, int(o.get("min", 0)), hi)
        return v, v is not None
    if kind == "float":
        if len(raw) > 30:
            return None, False
        try:
            v = float(raw)
        except ValueError:
            return None, False
        lo, hi = o.get("min"), o.get("max")
        ok = math.isfinite(v) and (lo is None or v >= lo) and (hi is None or v <= hi)
        return v, ok
    return None, False


def parse_link(params: Mapping[str, Sequence[str] | str], *, samples: Mapping[str, Any], sample_info,
               max_n: Mapping[str, int], max_cells: int) -> CorpusLink:
    """A link's query parameters -> :class:`CorpusLink`. ``samples``: the bundled samples by id;
    ``sample_info(id) -> (system names, number of segments)``; ``max_n``: the largest resamples / trials per test;
    ``max_cells``: the largest resamples × segments of one test."""
    link = CorpusLink()
    w = link.warnings
    setting_names = ms.settings_params()
    unknown = [k for k in params if k not in PAGE_PARAMS and k not in setting_names and not k.startswith(AGG_PREFIX)]
    if unknown:
        shown = ", ".join(f"“{_show(k, 30)}”" for k in unknown[:MAX_NAMES_SHOWN])
        more = f" and {len(unknown) - MAX_NAMES_SHOWN:,} more" if len(unknown) > MAX_NAMES_SHOWN else ""
        w.append(f"The link's parameter(s) {shown}{more} mean nothing on this page; they were dropped.")
    raw = {k: _last(params, k) for k in PAGE_PARAMS}
    for k, v in raw.items():
        if v is not None and len(v) > MAX_VALUE_CHARS:
            w.append(f"“{k}={_show(v)}” ({len(v):,} characters) is too long for this parameter; it is ignored.")
            raw[k] = None

    # the settings (as on the Explain page); absent: the page keeps the ones in force
    stated = {k: v for k, v in params.items() if k in setting_names}
    if stated:
        link.settings, sw = ms.settings_from_params(stated)
        w += sw

    names: list[str] = []
    n_segments = 0
    sid = raw["sample"]
    if sid is not None:
        if sid in samples:
            link.sample = sid
            names, n_segments = sample_info(sid)
        else:
            w.append(f"The link asks for the sample “{_show(sid)}”, which does not exist; pick one below.")

    metric = raw["metric"]
    if metric is not None:
        if metric in ("bleu", "rouge"):
            link.metric = metric
        else:
            w.append(f"“metric={_show(metric)}” is not bleu or rouge; showing BLEU.")

    def system_param(name: str, what: str) -> str | None:
        v = raw[name]
        if v is None:
            return None
        if not names:
            w.append(f"“{name}=…” needs a sample in the link; it is ignored.")
            return None
        if v in names:
            return v
        w.append(f"“{name}={_show(v)}” is not a system of this sample ({', '.join(names)}); showing {what}.")
        return None

    link.baseline = system_param("baseline", "the first system as the baseline")
    link.system = system_param("system", "the first other system")
    link.seg_system = system_param("seg_system", "the system looked at")

    if raw["seg"] is not None:
        if not n_segments:
            w.append("“seg=…” needs a sample in the link; it is ignored.")
        else:
            link.seg = _int(raw["seg"], 1, n_segments)
            if link.seg is None:
                w.append(f"“seg={_show(raw['seg'])}” is not a segment of this sample (1–{n_segments:,}); showing "
                         "segment 1.")

    test = raw["test"]
    if test is not None:
        if test in TESTS:
            link.test = test
        else:
            w.append(f"“test={_show(test)}” is not bs (paired bootstrap) or ar (approximate randomization); "
                     "using bs.")
    if raw["n"] is not None:
        t = link.test or "bs"
        hi = max_n[t]
        if n_segments:
            hi = min(hi, max(1, max_cells // n_segments))
        link.n = _int(raw["n"], 1, hi)
        if link.n is None:
            w.append(f"“n={_show(raw['n'])}” is not a number of {'resamples' if t == 'bs' else 'trials'} the page "
                     f"runs (1–{hi:,}); using {min(DEFAULT_N[t], hi):,}.")

    settings = link.settings
    if raw["rouge_type"] is not None:
        from explainer.ui.schema import supported_types

        types = supported_types(settings.rouge_dialect, settings.rouge_types)[0] if settings is not None else None
        asked = raw["rouge_type"]
        if types is None or asked in types:
            link.rouge_type = asked     # checked again against the types in force when it is used
        else:
            w.append(f"“rouge_type={_show(asked)}” is not one of the link's ROUGE types ({', '.join(types)}); "
                     f"using {types[0] if types else 'the first'}.")

    aggs = {k[len(AGG_PREFIX):]: _last(params, k) for k in params if k.startswith(AGG_PREFIX)}
    if aggs:
        dialect = settings.rouge_dialect if settings is not None else ms.default_settings().rouge_dialect
        specs = {o["name"]: o for o in agg_specs(dialect)}
        for name, v in aggs.items():
            o = specs.get(name)
            if o is None:
                w.append(f"“{AGG_PREFIX}{_show(name, 30)}” is not a corpus option of {dialect}; it is ignored.")
                continue
            val, good = _agg_value(o, v or "") if v is not None and len(v) <= MAX_VALUE_CHARS else (None, False)
            if good:
                link.agg[name] = val
            else:
                w.append(f"“{AGG_PREFIX}{name}={_show(v or '')}” is not a value of {name}; using {o['default']!r}.")
    return link


def _agg_text(o: dict, v: Any) -> str:
    if o["type"] == "bool":
        return "1" if v else "0"
    if o["type"] == "float":
        return repr(float(v))
    return str(v)


def link_params(*, settings: "ms.MetricSettings", sample: str | None = None, metric: str = "bleu",
                baseline: str | None = None, system: str | None = None, seg: int | None = None,
                seg_system: str | None = None, test: str | None = None, n: int | None = None,
                rouge_type: str | None = None, agg: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The page's link for this view (what :func:`parse_link` reads back). Without a sample (uploaded or pasted
    texts) the link holds only what does not name the data: the metric, its settings and options."""
    out: dict[str, str] = {}
    if sample is not None:
        out["sample"] = sample
    out["metric"] = metric
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
    if metric == "rouge":
        if rouge_type:
            out["rouge_type"] = rouge_type
        specs = {o["name"]: o for o in agg_specs(settings.rouge_dialect)}
        for name, v in (agg or {}).items():
            o = specs.get(name)
            if o is not None and v is not None and v != o["default"]:
                out[AGG_PREFIX + name] = _agg_text(o, v)
    out.update(ms.settings_to_params(settings))
    return out
