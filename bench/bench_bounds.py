"""Issue 17's worst cases, at the stated limits: the dialect comparison (every row's trace + the first
divergences) of inputs built to make the token alignment expensive, and the peak memory of ``compare --report``.

* dialect comparison: CPU seconds (``time.process_time``) of ``compare(...)`` with its default pairs (what the
  Dialects page and ``python -m explainer dialects`` compute) and of every ordered pair (``--all-pairs``); target
  <= 2 s each. Before the alignment was bounded, ``'a b. ' * 1199`` against ``a u2`` took 184 s.
* ``--report-memory``: peak RSS (ru_maxrss of a child process) of ``compare --report`` on files at the report
  limits (``REPORT_MAX_TEXTS`` texts, ``REPORT_MAX_BYTES`` bytes), 2 systems + 1 reference and 10 systems + 4
  references; target <= 1 GB. Takes several minutes.
* ``--cli [--root DIR]``: issue 34's command-line cases (endless files and pipes, 1,000 --ref files, a segment
  with 10,000 references, rouge155 on a 20,000-sentence summary, ...), each in a child process under a 30 s CPU
  and 2 GB address-space rlimit (60 s wall): CPU seconds, peak RSS and how it ended. ``--root`` measures another
  checkout's ``explainer`` package (e.g. ``git archive <commit> explainer | tar -x -C DIR``); target: a result or
  a one-line refusal within 3 s of CPU and 1 GB.
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

    print("dialect comparison at the limits (CPU s; target <= 2 s; after one warm-up comparison per metric: the "
          "libraries' imports and jieba's set-up are a server's, once)")
    print(f"{'metric':6} {'input':48} {'rows':>6} {'rows+default pairs':>19} {'rows+all pairs':>15}")
    for metric in ("bleu", "rouge"):
        compare("the cat sat", ["the cat is here"], metric=metric)
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
    from explainer.cli.compare import REPORT_MAX_BYTES, REPORT_MAX_TEXTS

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


def _cli_files(d: Path) -> dict:
    """The inputs of the command-line cases, written under ``d``."""
    import json

    (d / "r.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (d / "r20k.txt").write_text("the cat sat on the mat .\n" * 20_000, encoding="utf-8")
    refs = [f"a cat {i} sat on a mat " * 3 for i in range(10_000)]
    (d / "seg.jsonl").write_text(json.dumps({"candidate": "the cat sat on the mat", "references": refs}) + "\n",
                                 encoding="utf-8")
    words = [f"word{i}" for i in range(2000)]
    (d / "big.spl").write_text("".join(" ".join(words[(i * 7 + j) % 2000] for j in range(22)) + " .\n"
                                       for i in range(20_000)), encoding="utf-8")
    (d / "c.xml").write_text('<ROUGE_EVAL version="1.55"><EVAL ID="1"><PEER-ROOT>.</PEER-ROOT><MODEL-ROOT>.'
                             '</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT><PEERS><P ID="1">big.spl</P>'
                             '</PEERS><MODELS><M ID="A">big.spl</M></MODELS></EVAL></ROUGE_EVAL>\n', encoding="utf-8")
    return {k: str(d / k) for k in ("r.txt", "r20k.txt", "seg.jsonl", "c.xml")}


def _cli_cases(f: dict) -> list:
    """(label, argv, the shell command piped into stdin or None, main module)."""
    cli, r155 = "explainer.cli", "explainer.rouge.rouge155.files"
    types = "rouge1,rouge9,rougeL,rougeLsum,rougeW-1.2,rougeS*,rougeSU*"
    many = [a for _ in range(1000) for a in ("--ref", f["r20k.txt"])]
    jsonl = "yes '{\"candidate\":\"a\",\"references\":[\"a\"]}' | head -c 300000000"
    return [("bleu --hyp /dev/zero", ["bleu", "--hyp", "/dev/zero", "--ref", f["r.txt"]], None, cli),
            ("bleu --jsonl /dev/zero", ["bleu", "--jsonl", "/dev/zero"], None, cli),
            ("chrf --hyp /dev/urandom", ["chrf", "--hyp", "/dev/urandom", "--ref", f["r.txt"]], None, cli),
            ("yes | bleu --hyp /dev/stdin", ["bleu", "--hyp", "/dev/stdin", "--ref", f["r.txt"]], "yes", cli),
            ("compare --ref /dev/zero", ["compare", "--ref", "/dev/zero", "--system", f"a={f['r.txt']}"], None, cli),
            ("compare --freq-corpus /dev/zero", ["compare", "--ref", f["r.txt"], "--system", f"a={f['r.txt']}",
                                                 "--report", "/dev/null", "--freq-corpus", "/dev/zero"], None, cli),
            ("rouge155 -z SPL /dev/zero X", ["-z", "SPL", "/dev/zero", "X"], None, r155),
            ("300 MB JSONL pipe | bleu --jsonl - --corpus", ["bleu", "--jsonl", "-", "--corpus"], jsonl, cli),
            ("bleu with 1,000 --ref of 20,000 lines", ["bleu", "--hyp", f["r20k.txt"], *many], None, cli),
            ("rouge --jsonl 10,000 refs --full 7 types", ["rouge", "--jsonl", f["seg.jsonl"], "--full", "--types",
                                                          types], None, cli),
            ("rouge155 -w 1.2 -a, 20,000-sentence peer", ["-w", "1.2", "-a", f["c.xml"]], None, r155)]


def _run_limited(argv, stdin_cmd, main, root: Path, cwd: Path, cpu=30, mem=2 << 30, wall=60):
    """(CPU s, peak RSS MB, how it ended) of ``main(argv)`` in a child process under rlimits."""
    import os
    import threading

    code = (f"import resource, sys\nresource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))\n"
            f"resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))\nsys.path.insert(0, {str(root)!r})\n"
            f"from {main} import main\nsys.exit(main(sys.argv[1:]))")
    src = subprocess.Popen(["bash", "-c", stdin_cmd], stdout=subprocess.PIPE) if stdin_cmd else None
    p = subprocess.Popen([sys.executable, "-c", code, *argv], cwd=cwd, stdin=src.stdout if src else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timer = threading.Timer(wall, p.kill)
    timer.start()
    err = p.stderr.read().decode("utf-8", "replace")
    _, status, ru = os.wait4(p.pid, 0)
    timer.cancel()
    if src:
        src.kill()
        src.wait()
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        end = {9: f"killed at {wall} s wall", 24: f"killed at the {cpu} s CPU limit"}.get(sig, f"signal {sig}")
    else:
        lines = err.strip().splitlines()
        end = f"exit {os.WEXITSTATUS(status)}: {(lines[-1] if lines else '')[:110]}"
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, end


def cli_cases(root: Path = ROOT) -> None:
    print(f"issue 34's command-line cases ({root}): CPU s, peak RSS, how it ended")
    with tempfile.TemporaryDirectory() as d:
        files = _cli_files(Path(d))
        for label, argv, stdin_cmd, main in _cli_cases(files):
            cpu, rss, end = _run_limited(argv, stdin_cmd, main, root, Path(d))
            print(f"  {label:42} {cpu:6.2f} s {rss:7.0f} MB  {end}", flush=True)


if __name__ == "__main__":
    if "--cli" in sys.argv:
        k = sys.argv.index("--root") + 1 if "--root" in sys.argv else 0
        cli_cases(Path(sys.argv[k]).resolve() if k else ROOT)
        sys.exit(0)
    dialect_worst_cases()
    if "--report-memory" in sys.argv:
        report_memory()
