"""Shared fixtures: where ../shared is, and the golden-vector loader."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("EXPLAINER_SHARED", ROOT.parent / "shared"))
GOLDEN = SHARED / "golden"


@lru_cache(maxsize=None)
def load_jsonl(path: str) -> tuple:
    p = Path(path)
    with p.open(encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f if line.strip())


def golden(relpath: str) -> tuple:
    """Records of ../shared/golden/<relpath>; skips (loudly) when ../shared is absent."""
    p = GOLDEN / relpath
    if not p.exists():
        if os.environ.get("CI"):
            raise FileNotFoundError(f"golden file missing in CI: {p}")
        pytest.skip(f"golden file not found: {p} (set EXPLAINER_SHARED)")
    return load_jsonl(str(p))
