"""Bundled sample corpora (made up for this project by ``_generate.py``; see its docstring).

``SAMPLES``: id -> ``Sample`` (title, description, suggested settings); ``load_sample(id)`` -> ``TestSet``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from explainer.corpus.testset import TestSet, build_testset, segment_lines

__all__ = ["Sample", "SAMPLES", "load_sample"]

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Sample:
    id: str
    title: str
    description: str
    language: str
    settings: dict
    references: tuple[str, ...]
    systems: tuple[str, ...]


def _load_meta() -> dict[str, Sample]:
    out = {}
    for meta in sorted(HERE.glob("*/sample.json")):
        m = json.loads(meta.read_text(encoding="utf-8"))
        sid = meta.parent.name
        out[sid] = Sample(sid, m["title"], m["description"], m.get("language", ""), m.get("settings", {}),
                          tuple(m["files"]["references"]), tuple(m["files"]["systems"]))
    return out


SAMPLES: dict[str, Sample] = _load_meta()


@lru_cache(maxsize=8)
def load_sample(sample_id: str) -> TestSet:
    s = SAMPLES.get(sample_id)
    if s is None:
        raise KeyError(f"unknown sample corpus {sample_id!r}; choose one of: {', '.join(SAMPLES)}")
    d = HERE / sample_id
    refs = [(f, segment_lines((d / f).read_bytes(), f)) for f in s.references]
    systems = [(Path(f).stem, segment_lines((d / f).read_bytes(), f)) for f in s.systems]
    return build_testset(systems, refs)
