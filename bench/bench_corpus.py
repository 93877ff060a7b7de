"""Corpus benchmark: `python -m explainer compare` and the paired tests against sacreBLEU, in the same run.

1. 2,000 segments x 2 references x 4 systems (an empty line in each): ``compare ... --segments FILE`` (corpus
   scores of every system AND the per-segment table) against sacreBLEU's CLI scoring the 4 systems
   (``sacrebleu R1 R2 -i S1 S2 S3 S4``), both as whole commands (interpreter start included), alternated,
   median CPU time (user+sys of the child) and wall time. Target <= 1.0x.
2. Paired bootstrap (1,000) and approximate randomization (10,000), in process: statistics of the 4 systems +
   ``explainer.corpus.significance.paired_test`` against ``sacrebleu.significance.PairedTest(...)()``, after
   checking that every number is equal. Target <= 1.0x each. Also the whole commands with --paired-bs/--paired-ar.
3. 100,000 segments x 2 references x 2 systems through ``compare`` in one pass: wall time, segments per second
   and peak memory (ru_maxrss of the child), against 10,000 segments, to show that memory does not grow with
   the texts (only ~40 bytes of statistics per segment and system are kept).

Usage: ``python bench/bench_corpus.py [--repeat R] [--big N]``
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.corpus_data import make_testset, write_files  # noqa: E402


def run_child(cmd: list[str]) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, peak RSS in MB) of one whole command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - w0
    if p.returncode != 0:
        raise SystemExit(f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, after.ru_maxrss // 1024


def peak_rss_mb(cmd: list[str]) -> tuple[float, int]:
    """(wall seconds, peak RSS in MB) of one command, measured by GNU time when available."""
    if Path("/usr/bin/time").exists():
        with tempfile.NamedTemporaryFile("r", suffix=".txt") as f:
            w0 = time.perf_counter()
            p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name] + cmd, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            wall = time.perf_counter() - w0
            if p.returncode != 0:
                raise SystemExit(p.stderr[-2000:])
            return wall, int(f.read().strip().splitlines()[-1]) // 1024
    cpu, wall, rss = run_child(cmd)
    return wall, rss


def compare_cmd(ref_paths, sys_paths, *extra):
    cmd = [sys.executable, "-m", "explainer", "compare"]
    for p in ref_paths:
        cmd += ["--ref", p]
    for n, p in sys_paths:
        cmd += ["--system", f"{n}={p}"]
    return cmd + list(extra)


def sacre_cmd(ref_paths, sys_paths, *extra):
    return [sys.executable, "-m", "sacrebleu"] + list(ref_paths) + ["-i"] + [p for _, p in sys_paths] + list(extra)


def alternate(cmds: dict, repeat: int) -> dict:
    res = {k: {"cpu": [], "wall": []} for k in cmds}
    for _ in range(repeat):
        for k, cmd in cmds.items():
            cpu, wall, _ = run_child(cmd)
            res[k]["cpu"].append(cpu)
            res[k]["wall"].append(wall)
    return {k: {m: statistics.median(v) for m, v in d.items()} for k, d in res.items()}


def in_process_tests(refs, systems, repeat: int) -> None:
    import numpy as np
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    from explainer.bleu import get_dialect
    from explainer.bleu.rowscore import score_rows
    from explainer.bleu.system_stats import system_stats
    from explainer.corpus.significance import Statistic, paired_test

    per_seg = [list(x) for x in zip(*refs)]

    def ours(test):
        d = get_dialect("sacrebleu")
        arrays, _, _, _ = system_stats(d, [lines for _, lines in systems], per_seg)
        named = [(n, Statistic(a, lambda rows, mode: score_rows(d, rows, mode=mode),
                               score_rows(d, a.sum(0)[None, :])[0])) for (n, _), a in zip(systems, arrays)]
        return paired_test(named, test=test)

    def theirs(test):
        return PairedTest(systems, {"BLEU": BLEU(references=refs)}, None, test_type=test)()[1]["BLEU"]

    for test in ("bs", "ar"):
        a, b = ours(test), theirs(test)
        same = all((m.score, m.p_value, m.mean, m.ci) == (r.score, r.p_value, r.mean, r.ci)
                   for m, r in zip(a.systems, b))
        assert same, "the paired test results differ from sacreBLEU's"
        t_ours, t_theirs = [], []
        for _ in range(repeat):
            c0 = time.process_time()
            ours(test)
            t_ours.append(time.process_time() - c0)
            c0 = time.process_time()
            theirs(test)
            t_theirs.append(time.process_time() - c0)
        mo, mt = statistics.median(t_ours), statistics.median(t_theirs)
        name = "paired bootstrap (1,000)" if test == "bs" else "paired AR (10,000)"
        print(f"{name}, 4 systems incl. statistics, CPU medians of {repeat}: explainer {mo:.3f} s | "
              f"PairedTest {mt:.3f} s | ratio {mo / mt:.2f}x (target <= 1.0x) {'OK' if mo <= mt else 'MISSED'}"
              f" | every score, p_value, mean, ci equal: {same}")
    del np


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--big", type=int, default=100_000)
    a = ap.parse_args()
    env_note = os.environ.get("SACREBLEU_SEED", "12345")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        refs, systems = make_testset(2000, 2, 4, seed=11)
        ref_paths, sys_paths = write_files(tmp, refs, systems)
        print(f"test set: 2,000 segments x 2 references x 4 systems (SACREBLEU_SEED={env_note})")

        m = alternate({"compare": compare_cmd(ref_paths, sys_paths, "--segments", str(tmp / "seg.csv")),
                       "sacrebleu": sacre_cmd(ref_paths, sys_paths)}, a.repeat)
        r_cpu = m["compare"]["cpu"] / m["sacrebleu"]["cpu"]
        r_wall = m["compare"]["wall"] / m["sacrebleu"]["wall"]
        print(f"corpus scores + per-segment table, whole commands, medians of {a.repeat}: compare "
              f"{m['compare']['cpu']:.2f} s CPU / {m['compare']['wall']:.2f} s wall | sacreBLEU CLI (scores only) "
              f"{m['sacrebleu']['cpu']:.2f} s CPU / {m['sacrebleu']['wall']:.2f} s wall | ratio {r_cpu:.2f}x CPU, "
              f"{r_wall:.2f}x wall (target <= 1.0x) {'OK' if r_cpu <= 1.0 else 'MISSED'}")

        in_process_tests(refs, systems, max(1, a.repeat // 2))

        for flag in ("--paired-bs", "--paired-ar"):
            m = alternate({"compare": compare_cmd(ref_paths, sys_paths, flag),
                           "sacrebleu": sacre_cmd(ref_paths, sys_paths, flag)}, max(1, a.repeat // 2))
            r = m["compare"]["cpu"] / m["sacrebleu"]["cpu"]
            print(f"{flag}, whole commands: compare {m['compare']['cpu']:.2f} s CPU | sacreBLEU CLI "
                  f"{m['sacrebleu']['cpu']:.2f} s CPU | ratio {r:.2f}x")

        # streaming: memory flat in the number of segments
        rows = {}
        for n in (a.big // 10, a.big):
            d = tmp / f"big{n}"
            d.mkdir()
            rb, sb = make_testset(n, 2, 2, seed=21)
            rp, sp = write_files(d, rb, sb)
            size = sum(os.path.getsize(p) for p in rp) + sum(os.path.getsize(p) for _, p in sp)
            del rb, sb
            wall, rss = peak_rss_mb(compare_cmd(rp, sp))
            rows[n] = (wall, rss, size)
            print(f"{n:,} segments x 2 references x 2 systems ({size / 1e6:.1f} MB of text) through compare in one "
                  f"pass: {wall:.1f} s wall, {n / wall:,.0f} segments/s, peak memory {rss} MB")
        (_, m1, s1), (_, m2, s2) = rows[a.big // 10], rows[a.big]
        print(f"memory growth from {a.big // 10:,} to {a.big:,} segments: {m2 - m1} MB for {(s2 - s1) / 1e6:.1f} MB "
              f"more text ({(m2 - m1) * 1e6 / max(1, a.big - a.big // 10) / 1e3:.2f} kB per segment; the statistics "
              "are ~0.1 kB per segment for 2 systems)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
