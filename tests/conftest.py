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


BROWSER_TESTS = "tests/browser/"   # node ids are relative to the repository root (pytest.ini)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: no error where it is not installed
def pytest_xdist_make_scheduler(config, log):
    """`make test` runs the suite on 2 pytest-xdist workers with ``--dist loadgroup``; all of tests/browser is ONE
    work unit, so it runs on one worker, in file order, against that worker's one Streamlit server and Chromium
    (as in a serial run: never two Chromium sessions at once), while the other worker runs the unit and AppTest
    tests one by one. The unit is taken first (the largest), and a worker that runs out of work takes the rest.

    Done here by node id rather than with ``xdist_group`` marks: pytest-xdist 3.8.0 groups by renaming the node
    ids, which pytest 9.2 no longer honours (pytest-dev/pytest-xdist#1386), so the marks are silently ignored."""
    if config.getoption("dist", None) != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class BrowserTestsOnOneWorker(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return BROWSER_TESTS if nodeid.startswith(BROWSER_TESTS) else super()._split_scope(nodeid)

    return BrowserTestsOnOneWorker(config, log)


BROWSER_NOT_RUN = "BROWSER TESTS NOT RUN"   # the skip reason of tests/browser/conftest.py without Chromium
_BROWSER_SKIPS: list[str] = []


def pytest_runtest_logreport(report):
    # Runs where the reports arrive: in the one pytest process, or in pytest-xdist's controller (which never
    # imports tests/browser/conftest.py), so the banner below is printed in both cases.
    if report.skipped and BROWSER_NOT_RUN in str(report.longrepr) and not _BROWSER_SKIPS:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        _BROWSER_SKIPS.append(reason.removeprefix("Skipped: "))


def pytest_terminal_summary(terminalreporter):
    """A banner at the end of the run when the browser tests were skipped, so it is not missed."""
    if _BROWSER_SKIPS:
        terminalreporter.write_sep("!", "BROWSER TESTS SKIPPED", red=True, bold=True)
        terminalreporter.write_line(f"{_BROWSER_SKIPS[0]} — set EXPLAINER_REQUIRE_BROWSER=1 to make this a failure",
                                    red=True, bold=True)


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
