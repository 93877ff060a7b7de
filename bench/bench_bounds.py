"""Issue 17's worst cases, at the stated limits: the dialect comparison (every row's trace + the first
divergences) of inputs built to make the token alignment expensive, and the peak memory of ``compare --report``.

* dialect comparison: CPU seconds (``time.process_time``) of ``compare(...)`` with its default pairs (what the
  Dialects page and ``python -m explainer dialects`` compute) and of every ordered pair (``--all-pairs``); target
  <= 2 s each. Before the alignment was bounded, ``'a b. ' * 1199`` against ``a u2`` took 184 s.
* ``--report-memory``: peak RSS (ru_maxrss of a child process) of ``compare --report`` on files at the report
  limits (``REPORT_MAX_TEXTS`` texts, ``REPORT_MAX_BYTES`` bytes), 2 systems + 1 reference and 10 systems + 4
  references; target <= 1 GB. Takes several minutes.
"""
from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CASES = [
    ("bleu", "'a b. ' x 1199 vs 'a u2' (the 6 KB link)", "a b. " * 1199, ["a u2"]),
    ("bleu", "'a b. ' x 3999 vs 'a u2' (20,000 characters)", "a b. " * 3999, ["a u2"]),
    ("bleu", "'the cat. ' x 2221 vs 'the cat.'", "the cat. " * 2221, ["the cat."]),
    ("bleu", "'A b. ' x 1000 vs 'a B. ' x 999", "A b. " * 1000, ["a B. " * 999]),
    ("bleu", "'a b. ' x 1199 vs 'a u2' x 3 references", "a b. " * 1199, ["a u2"] * 3),
    ("rouge", "'the cat. ' x 1111 vs 'the dog. ' x 1111", "the cat. " * 1111, ["the dog. " * 1111]),
    ("rouge", "'A b. ' x 1000 vs 'a B. ' x 999", "A b. " * 1000, ["a B. " * 999]),
    ("rouge", "'a b. ' x 3999 vs 'a u2'", "a b. " * 3999, ["a u2"]),
]


def dialect_worst_cases() -> None:
    from explainer.dialectcmp.comparison import compare, pairs_scope

    print("dialect comparison at the limits (CPU s; target <= 2 s)")
    print(f"{'metric':6} {'input':48} {'rows':>6} {'rows+default pairs':>19} {'rows+all pairs':>15}")
    for metric, name, cand, refs in CASES:
        t0 = time.process_time()
        compare(cand, refs, metric=metric)
        t1 = time.process_time()
        cmp = compare(cand, refs, metric=metric, pairs=[])
        t2 = time.process_time()
        with pairs_scope():
            for x in cmp.rows:
                for y in cmp.rows:
                    if x.id != y.id:
                        cmp.pair(x.id, y.id)
        t3 = time.process_time()
        print(f"{metric:6} {name:48} {t2 - t1:6.2f} {t1 - t0:19.2f} {t3 - t1:15.2f}")


def _line(rng, words, nb=249) -> str:
    out, n = [], 0
    while n < nb - 12:
        w = rng.choice(words)
        out.append(w)
        n += len(w) + 1
    t = " ".join(out)
    return (t + " " + "x" * nb)[:nb]


def report_memory() -> None:
    from explainer.corpus.cli import REPORT_MAX_BYTES, REPORT_MAX_TEXTS

    rng = random.Random(1)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 9)))
             for _ in range(20000)]
    print(f"compare --report at its limits ({REPORT_MAX_TEXTS:,} texts, {REPORT_MAX_BYTES:,} bytes): peak RSS")
    for n_sys, n_ref in ((2, 1), (10, 4)):
        files = n_sys + n_ref
        segs = min(REPORT_MAX_TEXTS // files, REPORT_MAX_BYTES // (files * 250))
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for k in range(files):
                p = Path(d) / f"f{k}.txt"
                p.write_text("".join(_line(rng, words) + "\n" for _ in range(segs)), encoding="utf-8")
                paths.append(p)
            argv = [a for p in paths[:n_ref] for a in ("--ref", str(p))]
            argv += [a for k, p in enumerate(paths[n_ref:]) for a in ("--system", f"s{k}={p}")]
            code = ("import resource, sys; from explainer.cli import main; rc = main(sys.argv[1:]); "
                    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(rc)")
            t0 = time.time()
            r = subprocess.run([sys.executable, "-c", code, "compare", *argv, "--report", str(Path(d) / "r.json")],
                               cwd=ROOT, capture_output=True, text=True)
            kb = int(r.stderr.strip().splitlines()[-1]) if r.returncode == 0 else None
            print(f"  {n_sys} systems, {n_ref} reference(s), {segs:,} segments: "
                  f"{'failed: ' + r.stderr[-200:] if kb is None else f'{kb / 1e6:.2f} GB'} ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    dialect_worst_cases()
    if "--report-memory" in sys.argv:
        report_memory()
