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


def pytest_sessionstart(session):
    """In CI (.ci/run exports CI=1) the golden vectors, seeds and data of ../shared must be there: the many
    `pytest.skip(... not found)` guards are for a local checkout without them, and must never turn a CI run
    green without checking a single golden record."""
    if os.environ.get("CI"):
        missing = [str(SHARED / d) for d in ("golden", "seeds", "data") if not (SHARED / d).is_dir()]
        if missing:
            raise pytest.UsageError(f"CI run without the shared material: {', '.join(missing)} not found "
                                    "(clone ../shared beside the repository or set EXPLAINER_SHARED)")


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


# Hypothesis: no per-example deadline. The machine has 2 cores shared with a Streamlit server during the
# browser tests, so wall-clock deadlines would make property tests flaky without testing anything real.
try:
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "explainer", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
    )
    settings.load_profile("explainer")
except ImportError:  # pragma: no cover
    pass
