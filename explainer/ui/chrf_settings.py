"""The chrF settings as the Corpus and Dialects pages' chrF views read them: the chrF family's part of the shared
metric settings (:mod:`explainer.ui.settings`, :mod:`explainer.ui.families.chrf`), under its session keys
``chrf_dialect`` / ``chrf_opt:<dialect>:<option>`` and link parameters ``chrf_dialect`` /
``chrf_<dialect>_<option>``."""
from __future__ import annotations

from typing import Any, Mapping, MutableMapping

from explainer.ui import settings as ms
from explainer.ui.families import DialectChoice, ui_family
from explainer.ui.pagestate import Field

__all__ = ["ChrfSettings", "DIALECT_KEY", "chrf_key", "chrf_param", "dialects", "default_dialect", "specs",
           "fields", "read", "put", "trace", "view_values"]

ChrfSettings = DialectChoice
DIALECT_KEY = "chrf_dialect"


def _fam():
    return ui_family("chrf")


def chrf_key(dialect: str, name: str) -> str:
    return _fam().option_key(dialect, name)


def chrf_param(dialect: str, name: str) -> str:
    return _fam().option_param(dialect, name)


def dialects() -> tuple[str, ...]:
    return _fam().dialects()


def default_dialect() -> str:
    return _fam().default_dialect


def specs(dialect: str) -> tuple[Field, ...]:
    """The dialect's option fields (``param``: the link's name, ``key``: the widget's)."""
    return _fam().option_fields(dialect)


def fields() -> tuple[Field, ...]:
    """The page-state fields of the chrF settings (the dialect, then every dialect's options)."""
    return _fam().all_fields()


def view_values(ss: Mapping) -> dict[str, Any]:
    """The chrF fields' values now, by link name (a stale value of another type is the default)."""
    fam = _fam()
    values = {DIALECT_KEY: ss.get(DIALECT_KEY) if ss.get(DIALECT_KEY) in dialects() else default_dialect()}
    for d in dialects():
        for f in fam.option_fields(d):
            v, _ = ms.from_widget(f.spec, ss.get(f.key, ms.to_widget(f.spec, f.spec.default)))
            values[f.param] = ms.to_widget(f.spec, v)
    return values


def read(ss: Mapping | None = None) -> DialectChoice:
    """The settings the widgets hold (before or after they are drawn)."""
    settings, _ = ms.read_settings(ss)
    return settings["chrf"]


def put(settings: DialectChoice, ss: MutableMapping) -> None:
    ms.put_choice(_fam(), settings, ss)


def trace(candidate: str, refs: list[str], settings: DialectChoice):
    """(the chrF trace, None) or (None, a message for the page), computed once per (texts, settings) and shared
    by every session (:mod:`explainer.ui.compute`)."""
    from explainer.ui.compute import family_trace

    c = family_trace(_fam(), settings, candidate, list(refs))
    return c.trace, c.error
