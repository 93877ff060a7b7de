"""Shared fixtures: the test data committed under tests/data (see its README for each file's provenance).

The suite reads nothing outside the repository. tests/data is regenerated from the shared course material by
``scripts/refresh_test_data.py``; a missing file is an error here, never a skip."""
from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
GOLDEN = DATA / "golden"
REFRESH_HINT = "regenerate tests/data with scripts/refresh_test_data.py"


def data_path(relpath: str) -> Path:
    """A file of tests/data; a missing file fails the test that needs it (never a skip)."""
    p = DATA / relpath
    if not p.exists():
        raise FileNotFoundError(f"test data missing: {p} ({REFRESH_HINT})")
    return p


@lru_cache(maxsize=None)
def load_jsonl(path: str) -> tuple:
    """Records of a JSON Lines file (``.gz``: gzip-compressed)."""
    p = Path(path)
    opener = gzip.open if p.suffix == ".gz" else open
    with opener(p, "rt", encoding="utf-8") as f:
        return tuple(json.loads(line) for line in f if line.strip())


def golden(relpath: str) -> tuple:
    """Records of a golden file (``golden("bleu/sacrebleu.jsonl")``: tests/data/golden/bleu/sacrebleu.jsonl.gz),
    recorded from the real implementation."""
    return load_jsonl(str(data_path(f"golden/{relpath}.gz")))


def seed_vectors(name: str) -> tuple:
    """Records of the course examples' vectors (``seed_vectors("bleu.jsonl")``), same format as the golden files."""
    return load_jsonl(str(data_path(f"seeds/{name}.gz")))


def catalogue_text() -> str:
    """The gaming catalogue's quick-reference table and entries (tests/data/catalogue/gaming-attacks.md)."""
    return data_path("catalogue/gaming-attacks.md").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def rouge155_sample_test(tmp_path_factory) -> Path:
    """ROUGE-1.5.5's own sample test (sample-test/ and sample-output/), unpacked once per session."""
    import tarfile

    dest = tmp_path_factory.mktemp("rouge155-sample-test")
    with tarfile.open(data_path("golden/rouge155-sample-test.tar.gz")) as tar:
        if hasattr(tarfile, "data_filter"):   # Python >= 3.11.4: refuse links and paths outside dest
            tar.extractall(dest, filter="data")
        else:  # pragma: no cover - our own archive
            tar.extractall(dest)
    return dest


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
