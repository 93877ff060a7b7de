"""`make test`'s runner repeats a failed run's failures at the end, where a CI log's tail shows them."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import run_suite  # noqa: E402


def _pytest_output(tmp_path: Path, body: str) -> list[str]:
    test = tmp_path / "test_sample.py"
    test.write_text(body)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
                          cwd=tmp_path, capture_output=True, text=True)
    return done.stdout.splitlines(keepends=True)


def test_failure_report_names_the_failed_test_and_its_assertion(tmp_path):
    lines = _pytest_output(tmp_path, "def test_ok():\n    pass\n\n"
                                     "def test_broken():\n    assert 1 + 1 == 3, 'sum is wrong'\n")
    report = "".join(run_suite.failure_report(lines))
    assert "FAILED test_sample.py::test_broken" in report
    assert "sum is wrong" in report
    assert "test_ok" not in report
    assert report.rstrip().endswith(lines[-1].rstrip())


def test_failure_report_cuts_long_tracebacks_but_keeps_the_summary(tmp_path):
    body = "".join(f"def test_{i}():\n    assert {i} < 0\n\n" for i in range(30))
    lines = _pytest_output(tmp_path, body)
    report = run_suite.failure_report(lines, shown=20)
    assert any("more lines above in the log" in ln for ln in report)
    assert sum(ln.startswith("FAILED ") for ln in report) == 30
