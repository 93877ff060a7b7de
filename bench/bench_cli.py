"""CLI benchmark: whole processes, as a person types them, against the `sacrebleu` command in the same run.

* start-up: ``python -m explainer bleu --help`` vs ``sacrebleu --help`` (target <= 1.5x)
* corpus BLEU: ``python -m explainer bleu --hyp H --ref R1 --ref R2`` vs ``sacrebleu R1 R2 -i H`` on 2,000
  segments x 2 references (target <= 1.0x; both print the corpus statistics, the scores are checked equal)

The two commands of a pair run in turn (A B A B ...) after one warm-up each, so machine drift hits both alike;
the ratio is taken pair by pair and its median printed. CPU time (user + system of the child process) is the
primary figure on this shared machine; wall time is printed too.

Usage: ``python bench/bench_cli.py [--segments N] [--repeat R]``
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from bench_bleu import make_corpus  # noqa: E402


def _sacrebleu_exe() -> str:
    exe = Path(sys.executable).with_name("sacrebleu")
    return str(exe) if exe.exists() else (shutil.which("sacrebleu") or "sacrebleu")


def run_once(cmd: list[str]) -> tuple[float, float, bytes]:
    """(child CPU seconds, wall seconds, stdout) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, cwd=ROOT, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    wall = time.perf_counter() - w0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode()[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, p.stdout


def paired(name: str, a: list[str], b: list[str], repeat: int, target: float) -> dict:
    """Run a and b in turn; print medians and the median of the pair-by-pair ratios."""
    run_once(a)
    run_once(b)
    rows = [(run_once(a), run_once(b)) for _ in range(repeat)]
    cpu_a = [x[0][0] for x in rows]
    cpu_b = [x[1][0] for x in rows]
    wall_a = [x[0][1] for x in rows]
    wall_b = [x[1][1] for x in rows]
    ratio_cpu = statistics.median(x / y for x, y in zip(cpu_a, cpu_b))
    ratio_wall = statistics.median(x / y for x, y in zip(wall_a, wall_b))
    ok = "ok" if ratio_cpu <= target else "OVER TARGET"
    print(f"{name}: explainer {statistics.median(cpu_a):.3f} s CPU ({statistics.median(wall_a):.3f} s wall), "
          f"sacrebleu {statistics.median(cpu_b):.3f} s CPU ({statistics.median(wall_b):.3f} s wall); "
          f"ratio {ratio_cpu:.2f}x CPU, {ratio_wall:.2f}x wall (target <= {target}x: {ok})")
    return {"name": name, "ratio_cpu": ratio_cpu, "ratio_wall": ratio_wall, "outputs": (rows[-1][0][2], rows[-1][1][2])}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--segments", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()

    py, sacre = sys.executable, _sacrebleu_exe()
    paired("bleu --help", [py, "-m", "explainer", "bleu", "--help"], [sacre, "--help"], a.repeat, 1.5)

    hyps, r0, r1 = make_corpus(a.segments)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for name, lines in (("hyp.txt", hyps), ("ref1.txt", r0), ("ref2.txt", r1)):
            p = Path(tmp) / name
            p.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
            paths.append(str(p))
        h, ra, rb = paths
        res = paired(f"corpus BLEU, {a.segments:,} segments x 2 references",
                     [py, "-m", "explainer", "bleu", "--hyp", h, "--ref", ra, "--ref", rb],
                     [sacre, ra, rb, "-i", h, "-w", "4"], a.repeat, 1.0)
    ours, theirs = res["outputs"]
    s_ours, s_theirs = json.loads(ours)["score"], json.loads(theirs)["score"]
    assert abs(s_ours - s_theirs) < 1e-4, (s_ours, s_theirs)   # sacrebleu -w 4: 4 decimals
    print(f"same score: explainer {s_ours:.4f}, sacrebleu {s_theirs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
