"""Save and restore a corpus comparison: one JSON file with the test set, the system names, the settings, the view
and the results of the tests run. A link cannot carry uploaded texts; this file can (it stays with the user:
nothing is stored on the server).

The file (``"kind": "explainer-corpus-session"``, ``"version": 1``)::

    {"kind": ..., "version": 1, "label": str,
     "references": [[str, ...], ...],           # per segment, 1-4 references
     "reference_files": [str, ...],
     "systems": [{"name": str, "lines": [str, ...]}, ...],
     "source": [str, ...] | null,               # optional source side, one line per segment
     "settings": {str: str},                    # the metric settings as the page's link parameters
     "view": {str: str | int | null},           # metric, baseline, system, segment, test, ...
     "tests": [{...}, ...]}                     # significance.PairedResult.to_dict(with_samples=True)

Bounded like uploads: the file's size is checked before it is parsed, then every count (segments, systems,
references, characters per text, resamples kept) before anything is built; every error says what is wrong.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from explainer.corpus.testset import (
    MAX_REFERENCES,
    MAX_SEGMENTS,
    MAX_SYSTEMS,
    TestSet,
    TestSetError,
    build_testset,
)
from explainer.text import MAX_INPUT_CHARS

__all__ = ["KIND", "VERSION", "Saved", "dump_saved", "load_saved", "MAX_SAVED_TESTS", "MAX_SAVED_SAMPLES"]

KIND = "explainer-corpus-session"
VERSION = 1
MAX_SAVED_TESTS = 8             # test results kept in one file
MAX_SAVED_SAMPLES = 100_000     # resampled values per series of a kept result (the AR limit)
_MAX_KEYS = 200                 # settings / view entries
_MAX_KEY_CHARS = 200


@dataclass
class Saved:
    testset: TestSet
    label: str = ""
    settings: dict[str, str] = field(default_factory=dict)
    view: dict[str, Any] = field(default_factory=dict)
    tests: list[dict] = field(default_factory=list)
    source: list[str] | None = None


def dump_saved(saved: Saved) -> str:
    ts = saved.testset
    obj = {"kind": KIND, "version": VERSION, "label": saved.label, "references": ts.references,
           "reference_files": list(ts.ref_names),
           "systems": [{"name": n, "lines": lines} for n, lines in ts.systems],
           "source": saved.source if saved.source is not None else ts.source,
           "settings": dict(saved.settings), "view": dict(saved.view),
           "tests": list(saved.tests)[-MAX_SAVED_TESTS:]}
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _err(msg: str) -> TestSetError:
    return TestSetError(f"saved file: {msg}")


def _str_list(v: Any, what: str, n: int | None = None) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise _err(f"{what} must be a list of texts")
    if n is not None and len(v) != n:
        raise _err(f"{what} has {len(v):,} lines, the references have {n:,}")
    for k, x in enumerate(v):
        if len(x) > MAX_INPUT_CHARS:
            raise _err(f"{what}, line {k + 1}: {len(x):,} characters, over the limit of {MAX_INPUT_CHARS:,}")
    return v


def _flat_dict(v: Any, what: str, values: tuple) -> dict:
    if v is None:
        return {}
    if not isinstance(v, dict) or len(v) > _MAX_KEYS:
        raise _err(f"{what} must be an object of at most {_MAX_KEYS} entries")
    for k, x in v.items():
        if len(k) > _MAX_KEY_CHARS or not (x is None or isinstance(x, values)):
            raise _err(f"{what}: the entry {k[:40]!r} is not a plain value")
        if isinstance(x, str) and len(x) > MAX_INPUT_CHARS:
            raise _err(f"{what}: the entry {k[:40]!r} is too long")
    return dict(v)


def _check_tests(v: Any) -> list[dict]:
    if v is None:
        return []
    if not isinstance(v, list) or len(v) > MAX_SAVED_TESTS:
        raise _err(f"'tests' must be a list of at most {MAX_SAVED_TESTS} results")
    for t in v:
        if not isinstance(t, dict) or t.get("test") not in ("bs", "ar") or not isinstance(t.get("systems"), list):
            raise _err("a test result is not one this page wrote")
        if len(t["systems"]) > MAX_SYSTEMS:
            raise _err("a test result has too many systems")
        for s in t["systems"]:
            if not isinstance(s, dict) or not isinstance(s.get("name"), str):
                raise _err("a test result's system has no name")
            for k in ("resampled", "baseline_resampled", "null_stats"):
                x = s.get(k)
                if x is not None and (not isinstance(x, list) or len(x) > MAX_SAVED_SAMPLES
                                      or not all(isinstance(y, (int, float)) and not isinstance(y, bool) for y in x)):
                    raise _err(f"a test result's {k} is not a list of at most {MAX_SAVED_SAMPLES:,} numbers")
    return v


def load_saved(data: bytes, *, max_bytes: int, max_segments: int = MAX_SEGMENTS, max_systems: int = MAX_SYSTEMS,
               name: str = "the saved file") -> Saved:
    """A saved comparison back, every bound checked before anything is built (``max_bytes`` before parsing)."""
    if len(data) > max_bytes:
        raise _err(f"{name} holds {len(data) / 1e6:.1f} MB, over the limit of {max_bytes / 1e6:.0f} MB")
    try:
        obj = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise _err(f"{name} is not UTF-8 text") from None
    except (ValueError, RecursionError) as e:
        raise _err(f"{name} is not JSON ({str(e)[:120]})") from None
    if not isinstance(obj, dict) or obj.get("kind") != KIND:
        raise _err(f"{name} is not a comparison saved by this page (no \"kind\": \"{KIND}\")")
    if obj.get("version") != VERSION:
        raise _err(f"{name} is version {obj.get('version')!r}; this page reads version {VERSION}")
    refs = obj.get("references")
    if not isinstance(refs, list) or not refs:
        raise _err("'references' must be a non-empty list (one list of references per segment)")
    if len(refs) > max_segments:
        raise _err(f"{len(refs):,} segments, over the limit of {max_segments:,}")
    for k, r in enumerate(refs):
        if not isinstance(r, list) or not 1 <= len(r) <= MAX_REFERENCES:
            raise _err(f"segment {k + 1}: 1 to {MAX_REFERENCES} references")
        _str_list(r, f"segment {k + 1}'s references")
    systems = obj.get("systems")
    if not isinstance(systems, list) or not systems:
        raise _err("'systems' must be a non-empty list")
    if len(systems) > max_systems:
        raise _err(f"{len(systems)} systems, over the limit of {max_systems}")
    named: list[tuple[str, Sequence[str]]] = []
    for j, s in enumerate(systems):
        if not isinstance(s, dict) or not isinstance(s.get("name"), str) or len(s["name"]) > _MAX_KEY_CHARS:
            raise _err(f"system {j + 1} needs a name")
        named.append((s["name"], _str_list(s.get("lines"), f"system {s['name'][:40]}", len(refs))))
    source = obj.get("source")
    if source is not None:
        source = _str_list(source, "the source", len(refs))
    ref_files = obj.get("reference_files") or []
    if not isinstance(ref_files, list) or not all(isinstance(x, str) for x in ref_files):
        raise _err("'reference_files' must be a list of names")
    ts = build_testset(named, per_segment_refs=refs, max_segments=max_segments)
    ts.ref_names = list(ref_files)[:MAX_REFERENCES]
    if source is not None:
        ts = ts.with_source(source)
    label = obj.get("label") if isinstance(obj.get("label"), str) else ""
    return Saved(ts, label[:200], _flat_dict(obj.get("settings"), "'settings'", (str,)),
                 _flat_dict(obj.get("view"), "'view'", (str, int, float, bool)), _check_tests(obj.get("tests")), source)
