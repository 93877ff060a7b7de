"""`make test`'s runner: the browser tests and the other tests as two pytest processes at once.

The browser tests (tests/browser: one Streamlit server, one Chromium) spend much of their time waiting for the
page; the unit and AppTest tests fill that time on the other core. The unit tests run at a lower CPU priority
(nice 10), so the browser tests, which time what a person waits for, get the cores first and see the same machine as
in a run of their own (two pytest-xdist workers, without the priority, once made a browser test wait past its
timeout). One process each, so neither needs pytest-xdist. Each output is shown line by line, prefixed, and the
runner exits with the first non-zero exit code. A run that failed has its failures and summary printed again at the
end, so that the tail of the output (all a CI log may keep) says which test failed and why.

Usage: python scripts/run_suite.py [pytest arguments, e.g. -m "not slow"]
``--serial`` (or a test path among the arguments) runs one pytest process instead, as ``pytest`` alone would.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROWSER = "tests/browser"
UNIT_NICENESS = 10
FAILURES_SHOWN = 150  # lines of a failed run's tracebacks repeated at the end


def _pump(name: str, proc: subprocess.Popen, lock: threading.Lock, kept: list[str]) -> None:
    for line in proc.stdout:
        kept.append(line)
        with lock:
            sys.stdout.write(f"[{name}] {line}")
            sys.stdout.flush()


def failure_report(lines: list[str], shown: int = FAILURES_SHOWN) -> list[str]:
    """What to repeat of a failed pytest run: the start of its FAILURES/ERRORS sections and its short summary."""
    def section(title: str) -> int | None:
        return next((i for i, ln in enumerate(lines) if ln.startswith("=") and f" {title} " in ln), None)

    start = min((i for i in (section("FAILURES"), section("ERRORS")) if i is not None), default=None)
    summary = section("short test summary info")
    out: list[str] = []
    if start is not None:
        end = summary if summary is not None and summary > start else len(lines)
        body = lines[start:end]
        out += body[:shown]
        if len(body) > shown:
            out.append(f"... ({len(body) - shown} more lines above in the log)\n")
    out += lines[summary:] if summary is not None else lines[-40:]
    return out


def _start(name: str, args: list[str], niceness: int) -> subprocess.Popen:
    def lower() -> None:
        if niceness:
            os.nice(niceness)

    return subprocess.Popen([sys.executable, "-m", "pytest", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1, preexec_fn=lower)


def main(argv: list[str]) -> int:
    # a path among the arguments chooses the tests itself: one process
    paths = [a for a in argv if not a.startswith("-") and (ROOT / a.split("::")[0]).exists()]
    if "--serial" in argv or paths:
        return subprocess.call([sys.executable, "-m", "pytest", *[a for a in argv if a != "--serial"]], cwd=ROOT)
    t0 = time.time()
    runs = {"browser": _start("browser", [*argv, BROWSER], 0),
            "unit": _start("unit", [*argv, "--ignore", BROWSER], UNIT_NICENESS)}
    lock = threading.Lock()
    kept: dict[str, list[str]] = {n: [] for n in runs}
    pumps = [threading.Thread(target=_pump, args=(n, p, lock, kept[n]), daemon=True) for n, p in runs.items()]
    for t in pumps:
        t.start()
    codes = {}
    for name, proc in runs.items():
        codes[name] = proc.wait()
    for t in pumps:
        t.join()
    for name, code in codes.items():
        if code:
            print(f"run_suite: the {name} tests failed (exit {code}); their failures again:")
            sys.stdout.writelines(f"[{name}] {line}" for line in failure_report(kept[name]))
    print(f"run_suite: {', '.join(f'{n} exit {c}' for n, c in codes.items())} in {time.time() - t0:.0f} s")
    return next((c for c in codes.values() if c), 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
