"""Issue 17: what a stranger controls on the command line is bounded and refused with a clear one-line message
(exit 2), never an "internal error" (exit 3) or a traceback."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from explainer.dialectcmp.claim import parse_claim
from explainer.errors import ExplainerInputError

ROOT = Path(__file__).resolve().parents[1]


def cli(argv, *, stdin=None, closed_stdin=False, timeout=120, **kw):
    """``python -m explainer ARGV`` in a subprocess (optionally with fd 0 closed, as ``<&-`` does)."""
    pre = (lambda: os.close(0)) if closed_stdin else None
    return subprocess.run([sys.executable, "-m", "explainer", *argv], cwd=ROOT, capture_output=True,
                          input=stdin, preexec_fn=pre, timeout=timeout, **kw)


# ------------------------------------------------------------------------------------------------ item 5
@pytest.mark.parametrize("claim", ["0e1000000", "0e99999999999", "0e-99999999999", "0e-1000000", "0e-500", "0e1001",
                                   "1e-400", "0." + "0" * 180 + "e-320"])
def test_claims_with_huge_exponents_or_decimals_are_refused(claim):
    with pytest.raises(ExplainerInputError, match="exponent|decimals|smaller than"):
        parse_claim(claim)
    r = cli(["reproduce", "--claim", claim, "--candidate", "a b", "--ref", "a b"])
    err = r.stderr.decode()
    assert r.returncode == 2 and "internal error" not in err and err.count("\n") == 1, err


def test_claims_at_the_exponent_limits_still_read():
    assert parse_claim("7.26e-78").significant == 3
    assert parse_claim("0e-340").value == 0
    assert parse_claim("0.5e2").value == 50


# ------------------------------------------------------------------------------------------------ item 6
@pytest.mark.parametrize("argv", [["bleu", "--jsonl", "-"], ["rouge", "--hyp", "-", "--ref", "{f}"],
                                  ["dialects", "--jsonl", "-"], ["compare", "--ref", "-", "--system", "a={f}"],
                                  ["bleu", "--hyp", "{f}", "--ref", "-"]])
def test_closed_stdin_is_a_clear_refusal(argv, tmp_path):
    f = tmp_path / "h.txt"
    f.write_text("a b\n", encoding="utf-8")
    r = cli([a.replace("{f}", str(f)) for a in argv], closed_stdin=True)
    err = r.stderr.decode()
    assert r.returncode == 2 and "stdin" in err and "closed" in err and "internal error" not in err, err


# ------------------------------------------------------------------------------------------------ item 2
def _files(tmp_path, n_lines: int, names=("ref", "a", "b"), text="the cat sat on the mat ."):
    out = {}
    for k, name in enumerate(names):
        p = tmp_path / f"{name}.txt"
        p.write_text("".join(f"{text} {k} {i}\n" for i in range(n_lines)), encoding="utf-8")
        out[name] = str(p)
    return out


def _compare_args(f, *extra):
    return ["compare", "--ref", f["ref"], "--system", f"a={f['a']}", "--system", f"b={f['b']}", *extra]


def test_report_refuses_what_it_cannot_keep_before_reading(tmp_path, monkeypatch, capsys):
    import explainer.cli.compare as ccli
    from explainer.cli import main

    f = _files(tmp_path, 50)
    seen = []
    monkeypatch.setattr(ccli, "read_blocks", lambda *a, **k: seen.append(1) or 0)
    monkeypatch.setattr(ccli, "REPORT_MAX_BYTES", 1_000)
    assert main(_compare_args(f, "--report", str(tmp_path / "r.json"))) == 2
    err = capsys.readouterr().err
    assert "--report keeps every text in memory" in err and "limit of 1,000" in err and not seen
    monkeypatch.setattr(ccli, "REPORT_MAX_BYTES", 10**9)
    monkeypatch.setattr(ccli, "REPORT_MAX_TEXTS", 149)          # 50 segments x 3 files = 150 texts
    assert main(_compare_args(f, "--report", str(tmp_path / "r.json"))) == 2
    err = capsys.readouterr().err
    assert "150 texts" in err and "limit of 149" in err and not seen


def test_report_limit_is_checked_while_a_pipe_is_read(tmp_path, monkeypatch, capsys):
    import explainer.cli.compare as ccli
    from explainer.cli import main

    f = _files(tmp_path, 50)
    monkeypatch.setattr(ccli, "BLOCK", 10)
    monkeypatch.setattr(ccli, "REPORT_MAX_TEXTS", 60)            # 20 segments x 3 files
    blocks = []
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(Path(f["a"]).read_bytes()), encoding="utf-8"))
    import explainer.corpus.testset as ts
    orig_check = ts.check_segment_lengths

    def spy(lines, name, first):
        blocks.append(first)
        return orig_check(lines, name, first)

    monkeypatch.setattr(ts, "check_segment_lengths", spy)
    rc = main(["compare", "--ref", f["ref"], "--system", "a=-", "--system", f"b={f['b']}", "--report",
               str(tmp_path / "r.json")])
    err = capsys.readouterr().err
    assert rc == 2 and "at least 90 texts" in err and "limit of 60" in err
    assert max(blocks) <= 21                                     # stopped after the third block of 10


#: runs the CLI and prints the peak RSS (KB) of this process alone: VmHWM of the memory map exec gave it.
#: ru_maxrss would start at the parent's peak (Linux keeps it across the vfork + exec of subprocess): a pytest
#: process that had grown in an earlier test would fail the bound below without the CLI using any more memory.
PEAK_RSS_MAIN = ("import sys; from explainer.cli import main; rc = main(sys.argv[1:]); "
                 "print(next(ln.split()[1] for ln in open('/proc/self/status') if ln.startswith('VmHWM')), "
                 "file=sys.stderr); sys.exit(rc)")


def test_peak_rss_is_the_childs_own_not_the_parents(tmp_path):
    """The measure of the test below does not count the memory of the process that starts it."""
    f = _files(tmp_path, 20)
    held = bytearray(200_000_000)
    held[::4096] = b"\x01" * len(held[::4096])       # resident, not only reserved
    r = subprocess.run([sys.executable, "-c", PEAK_RSS_MAIN, *_compare_args(f, "--report", str(tmp_path / "r.json"))],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    del held
    assert r.returncode == 0, r.stderr[-500:]
    assert int(r.stderr.strip().splitlines()[-1]) < 150_000        # KB: the parent holds more than 195,000


@pytest.mark.slow
def test_report_peak_memory_at_the_limits(tmp_path):
    """Peak RSS of `compare --report` with files at REPORT_MAX_BYTES (3 files) stays under 1 GB."""
    from explainer.cli.compare import REPORT_MAX_BYTES, REPORT_MAX_TEXTS

    segs = min(REPORT_MAX_TEXTS // 3, REPORT_MAX_BYTES // (3 * 250))
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho".split()
    for k, name in enumerate(("ref", "a", "b")):
        with open(tmp_path / f"{name}.txt", "w", encoding="utf-8") as fh:
            for i in range(segs):
                line = " ".join(words[(i * 7 + j * (k + 3)) % len(words)] for j in range(40))
                fh.write(f"{line[:240]} {i}\n")
    r = subprocess.run([sys.executable, "-c", PEAK_RSS_MAIN, "compare", "--ref", str(tmp_path / "ref.txt"),
                        "--system", f"a={tmp_path / 'a.txt'}", "--system", f"b={tmp_path / 'b.txt'}", "--report",
                        str(tmp_path / "r.json")], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert r.returncode == 0, r.stderr[-500:]
    assert int(r.stderr.strip().splitlines()[-1]) < 1_000_000        # KB


# ------------------------------------------------------------------------------------------------ item 4
def test_paired_draws_are_refused_before_reading(tmp_path, monkeypatch, capsys):
    import explainer.cli.compare as ccli
    import explainer.corpus.significance as sig
    from explainer.cli import main

    f = _files(tmp_path, 30)
    monkeypatch.setattr(sig, "MAX_TEST_CELLS", 5_000)
    monkeypatch.setattr(ccli, "statistics_feeder", lambda *a: pytest.fail("read before refusing"))
    assert main(_compare_args(f, "--paired-bs", "--paired-bs-n", "1000")) == 2
    err = capsys.readouterr().err
    assert "1,000 resamples x 30 segments" in err and "limit of 5,000" in err


def test_paired_draws_are_refused_while_a_pipe_is_read(tmp_path, monkeypatch, capsys):
    import explainer.cli.compare as ccli
    import explainer.corpus.significance as sig
    from explainer.cli import main

    f = _files(tmp_path, 100)
    monkeypatch.setattr(sig, "MAX_TEST_CELLS", 15_000)
    monkeypatch.setattr(ccli, "BLOCK", 10)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(Path(f["a"]).read_bytes()), encoding="utf-8"))
    rc = main(["compare", "--ref", f["ref"], "--system", "a=-", "--system", f"b={f['b']}", "--paired-bs",
               "--paired-bs-n", "1000"])
    err = capsys.readouterr().err
    assert rc == 2 and "1,000 resamples x 20 segments" in err and "counted so far" in err


def test_bleu_full_corpus_limit_before_the_work(tmp_path, monkeypatch, capsys):
    import explainer.bleu as bleu
    import explainer.bleu.limits as limits
    from explainer.cli import main

    f = _files(tmp_path, 30)
    monkeypatch.setattr(limits, "MAX_CORPUS_TRACE_CHARS", 100)
    monkeypatch.setattr(bleu, "explain_bleu_corpus", lambda *a, **k: pytest.fail("work before refusing"))
    assert main(["bleu", "--full", "--hyp", f["a"], "--ref", f["ref"]]) == 2
    assert "over the limit of 100 characters" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------------ item 3
@pytest.mark.parametrize("flags,needle", [(["-a", "-n", "999999999"], "-n 999,999,999"),
                                          (["-a", "-r", "100000000"], "-r 100,000,000"),
                                          (["-a", "-n", "9" * 5000], "5,000 characters")])
def test_rouge155_drop_in_has_the_main_clis_caps(flags, needle, tmp_path):
    (tmp_path / "c.xml").write_text("<ROUGE_EVAL version=\"1.55\"></ROUGE_EVAL>\n")
    r = subprocess.run([sys.executable, "-m", "explainer.rouge.rouge155", *flags, "c.xml"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 1 and needle in r.stderr and len(r.stderr) < 400, r.stderr[:400]


# ------------------------------------------------------------------------------------------------ item 9
@pytest.mark.parametrize("argv", [["dialects", "--candidate", b"caf\xe9 a", "--ref", "a b"],
                                  ["reproduce", "--claim", b"BLEU \xe9 0.5", "--candidate", "a b", "--ref", "a b"],
                                  ["compare", "--ref", "{f}", "--system", b"n\xe9={f}"]])
def test_invalid_utf8_in_argv_is_refused_not_echoed(argv, tmp_path):
    f = tmp_path / "h.txt"
    f.write_text("a b\n", encoding="utf-8")
    argv = [a.replace("{f}", str(f)) if isinstance(a, str) else a.replace(b"{f}", str(f).encode()) for a in argv]
    r = cli(argv, env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert r.returncode == 2 and r.stdout == b"", r.stdout[:200]
    err = r.stderr.decode("utf-8")          # valid UTF-8: the byte is named, not written
    assert "not valid UTF-8" in err and "0xE9" in err


def test_write_json_never_writes_a_lone_surrogate(capsys):
    from explainer.cli.io import CliError, write_json

    with pytest.raises(CliError, match="not valid UTF-8"):
        write_json({"name": "n\udce9"}, "the result")
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("argv", [["compare", "--ref", "{f}", "--system", "a={f}", "--system", "b={f}", "--paired-bs",
                                   "--paired-bs-n", "9" * 5000],
                                  ["compare", "--ref", "{f}", "--system", "a={f}", "--confidence", "--confidence-n",
                                   "9" * 4000],
                                  ["compare", "--ref", "{f}", "--system", "a={f}", "--max-order", "9" * 5000]])
def test_long_numbers_are_not_echoed(argv, tmp_path):
    f = tmp_path / "h.txt"
    f.write_text("a b\n", encoding="utf-8")
    r = cli([a.replace("{f}", str(f)) for a in argv])
    assert r.returncode == 2 and len(r.stderr) < 400, r.stderr[:400]


@pytest.mark.parametrize("argv", [["bleu", "--hyp", "{f}", "--ref", "{f}", "--bootstrap", "١٠"],
                                  ["compare", "--ref", "{f}", "--system", "a={f}", "--system", "b={f}", "--paired-bs",
                                   "--paired-bs-n", "١٠"]])
def test_non_ascii_digits_are_refused(argv, tmp_path):
    f = tmp_path / "h.txt"
    f.write_text("a b\n", encoding="utf-8")
    r = cli([a.replace("{f}", str(f)) for a in argv])
    assert r.returncode == 2 and "invalid int value" in r.stderr.decode(), r.stderr[:300]


def test_segments_to_a_closed_pipe_is_quiet(tmp_path):
    f = _files(tmp_path, 3000)
    cmd = " ".join(f"'{a}'" for a in [sys.executable, "-m", "explainer", *_compare_args(f, "--segments",
                                                                                        "/dev/stdout")])
    r = subprocess.run(["bash", "-c", f"{cmd} | head -c1 >/dev/null; exit ${{PIPESTATUS[0]}}"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stderr == "", r.stderr[-300:]


def test_an_upload_refused_by_the_uploader_is_named_with_the_limit():
    from explainer.corpus.testset import TestSetError
    from explainer.ui.corpus.common import PAGE_MAX_BYTES
    from explainer.ui.corpus.testset import testset_from_uploads

    with pytest.raises(TestSetError, match=f"{PAGE_MAX_BYTES / 1e6:.0f} MB"):
        testset_from_uploads([], [("ref.txt", b"a b\n")])


def test_the_rouge155_drop_in_uses_the_cores_draw_limit():
    from explainer.bleu.bootstrap import MAX_BOOTSTRAP_DRAWS
    from explainer.rouge.rouge155 import files

    assert files.MAX_BOOTSTRAP_DRAWS == MAX_BOOTSTRAP_DRAWS


# ------------------------------------------------------------------------------------------ issue 34, item 2
CPU_S, MEMORY, WALL_S = 3, 1 << 30, 30        # the bound on every case: CPU seconds, address space, wall


def bounded(argv, *, stdin=None, main="explainer.cli", cwd=ROOT):
    """``main(argv)`` of a command in a subprocess under the issue's bounds (CPU and address-space rlimits, a wall
    timeout); ``stdin``: bytes, or a file object (a pipe from another process)."""
    code = (f"import resource, sys\n"
            f"resource.setrlimit(resource.RLIMIT_CPU, ({CPU_S}, {CPU_S}))\n"
            f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY}))\n"
            f"from {main} import main\n"
            "sys.exit(main(sys.argv[1:]))")
    kw = {"input": stdin} if isinstance(stdin, bytes) or stdin is None else {"stdin": stdin}
    return subprocess.run([sys.executable, "-c", code, *argv], cwd=cwd, capture_output=True, timeout=WALL_S,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, **kw)


def refused(r, *needles) -> str:
    """A one-line refusal (exit 2, no traceback, not the out-of-memory fallback) that says each of ``needles``."""
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode == 2, (r.returncode, err[-600:])
    assert err.count("\n") == 1 and "Traceback" not in err and "out of memory" not in err, err[-600:]
    for n in needles:
        assert n in err, err
    return err


@pytest.fixture()
def small(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("the cat sat on the mat\n", encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("argv", [["bleu", "--hyp", "/dev/zero", "--ref", "{r}"],
                                  ["bleu", "--hyp", "{r}", "--ref", "/dev/zero"],
                                  ["rouge", "--hyp", "/dev/zero", "--ref", "{r}"]])
def test_an_endless_line_is_refused_as_soon_as_it_passes_the_limit(argv, small):
    """Before: /dev/zero (one endless line) was read whole: 4 GB within 30 s."""
    r = bounded([a.replace("{r}", small) for a in argv])
    refused(r, "/dev/zero, line 1: more than 200,000 characters, over the limit of 200,000 per text (not read "
               "further)")


def test_an_endless_jsonl_line_is_refused():
    r = bounded(["bleu", "--jsonl", "/dev/zero"])
    refused(r, "/dev/zero, line 1: more than 2,000,000 characters")


def test_random_bytes_are_refused():
    r = bounded(["chrf", "--hyp", "/dev/urandom", "--ref", "/dev/urandom"])
    refused(r, "/dev/urandom")


def test_endless_lines_from_a_pipe_are_counted_while_read(small):
    """`yes | bleu --hyp /dev/stdin`: 'y' lines without end."""
    from explainer.cli.io import MAX_SEGMENTS

    yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        r = bounded(["bleu", "--hyp", "/dev/stdin", "--ref", small], stdin=yes.stdout)
    finally:
        yes.kill()
        yes.wait()
    refused(r, f"more than {MAX_SEGMENTS:,} lines (segments), over the limit", "explainer compare")


def test_a_300_mb_jsonl_pipe_is_refused_while_read():
    """`yes '{"candidate":"a","references":["a"]}' | head -c 300000000 | bleu --jsonl - --corpus`: 1.47 GB at
    150 s before."""
    from explainer.cli.io import MAX_SEGMENTS

    src = subprocess.Popen(["bash", "-c", "yes '{\"candidate\":\"a\",\"references\":[\"a\"]}' | head -c 300000000"],
                           stdout=subprocess.PIPE)
    try:
        r = bounded(["bleu", "--jsonl", "-", "--corpus"], stdin=src.stdout)
    finally:
        src.kill()
        src.wait()
    refused(r, f"more than {MAX_SEGMENTS:,} lines (segments)")


def test_a_thousand_reference_files_are_refused_before_reading(tmp_path):
    """1,000 --ref files of 20,000 lines: 3.2 GB at 150 s before."""
    from explainer.cli.io import MAX_REFERENCES

    p = tmp_path / "r.txt"
    p.write_text("the cat sat on the mat\n" * 20_000, encoding="utf-8")
    for cmd in ("bleu", "rouge", "chrf"):
        argv = [cmd, "--hyp", str(p)] + [a for _ in range(1000) for a in ("--ref", str(p))]
        refused(bounded(argv), f"1,000 --ref files, over the limit of {MAX_REFERENCES} references per segment")


def test_input_bytes_are_bounded_before_reading(tmp_path, monkeypatch, capsys):
    import explainer.cli.io as cio
    from explainer.cli import main

    p = tmp_path / "h.txt"
    p.write_text("a b c\n" * 100, encoding="utf-8")
    monkeypatch.setattr(cio, "MAX_INPUT_BYTES", 1000)
    monkeypatch.setattr("explainer.inputs.open", lambda *a, **k: pytest.fail("read before refusing"), raising=False)
    assert main(["bleu", "--hyp", str(p), "--ref", str(p)]) == 2
    assert "1,200 bytes together, over the limit of 1,000" in capsys.readouterr().err


def test_one_segment_with_ten_thousand_references_is_refused():
    """`rouge --jsonl` of one segment with 10,000 references and seven types with --full: 78 s, 2.8 GB before."""
    line = json.dumps({"candidate": "the cat sat on the mat", "references": [f"a cat {i} sat on a mat" * 3
                                                                              for i in range(10_000)]})
    r = bounded(["rouge", "--jsonl", "-", "--full", "--types",
                 "rouge1,rouge9,rougeL,rougeLsum,rougeW-1.2,rougeS*,rougeSU*"], stdin=line.encode() + b"\n")
    refused(r, "line 1: 10,000 references, over the limit of 100 per segment")


def test_the_rouge_work_of_one_segment_is_bounded_whatever_the_references_and_types():
    """Within the reference limit, the work of the seven types against 100 references is estimated before any of
    it (explainer.rouge.limits.MAX_SEGMENT_WORK) and refused, naming the costliest types."""
    words = " ".join(f"w{i % 97}" for i in range(200))         # each type within its own limits
    line = json.dumps({"candidate": words, "references": [words] * 100})
    r = bounded(["rouge", "--jsonl", "-", "--full", "--types",
                 "rouge1,rouge9,rougeL,rougeLsum,rougeW-1.2,rougeS*,rougeSU*"], stdin=line.encode() + b"\n")
    refused(r, "against 100 references (with the full trace)", "over the explainer's limit of", "per segment",
            "the costliest: rougeS")


def test_compare_reads_an_endless_reference_line_within_bounds(small):
    """`compare --ref /dev/zero`: 4 GB within 30 s before."""
    refused(bounded(["compare", "--ref", "/dev/zero", "--system", f"a={small}"]), "/dev/zero, line 1: more than")


def test_compare_freq_corpus_is_bounded(small, tmp_path):
    """`compare --freq-corpus /dev/zero`: 4 GB within 30 s before."""
    r = bounded(["compare", "--ref", small, "--system", f"a={small}", "--report", str(tmp_path / "r.json"),
                 "--freq-corpus", "/dev/zero"])
    refused(r, "/dev/zero, line 1: more than")


def test_freq_corpus_bytes_are_bounded(small, tmp_path, monkeypatch, capsys):
    import explainer.cli.compare as ccli
    from explainer.cli import main

    big = tmp_path / "freq.txt"
    big.write_text("a b c d\n" * 1000, encoding="utf-8")
    monkeypatch.setattr(ccli, "FREQ_CORPUS_MAX_BYTES", 5000)
    assert main(["compare", "--ref", small, "--system", f"a={small}", "--report", str(tmp_path / "r.json"),
                 "--freq-corpus", str(big)]) == 2
    assert "8,000 bytes together, over the limit of 5,000" in capsys.readouterr().err


def test_rouge155_file_list_from_an_endless_file(tmp_path):
    """`python -m explainer.rouge.rouge155 -z SPL /dev/zero X`: 4 GB within 30 s before."""
    r = bounded(["-z", "SPL", "/dev/zero", "X"], main="explainer.rouge.rouge155.files", cwd=tmp_path)
    err = r.stderr.decode()
    assert r.returncode == 1 and err.count("\n") == 1 and "over the limit of 10,000,000" in err, err[-500:]


def test_rouge155_summary_of_20000_sentences_is_refused_while_read(tmp_path):
    """`-w 1.2 -a` on a 20,000-sentence summary (3.6 MB): 368 s of CPU before."""
    words = [f"word{i}" for i in range(2000)]
    (tmp_path / "big.spl").write_text("".join(" ".join(words[(i * 7 + j) % 2000] for j in range(22)) + " .\n"
                                              for i in range(20_000)), encoding="utf-8")
    (tmp_path / "c.xml").write_text('<ROUGE_EVAL version="1.55"><EVAL ID="1"><PEER-ROOT>.</PEER-ROOT>'
                                    '<MODEL-ROOT>.</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>'
                                    '<PEERS><P ID="1">big.spl</P></PEERS><MODELS><M ID="A">big.spl</M></MODELS>'
                                    '</EVAL></ROUGE_EVAL>\n')
    r = bounded(["-w", "1.2", "-a", "c.xml"], main="explainer.rouge.rouge155.files", cwd=tmp_path)
    err = r.stderr.decode()
    assert r.returncode == 1 and err.count("\n") == 1, err[-500:]
    assert "big.spl: more than 200,000 characters, over the limit of 200,000 per summary file" in err, err


def test_rouge155_w_cells_are_bounded_over_the_whole_run(tmp_path):
    """Each summary within its limit, but ROUGE-W's cells over the run's evaluations are counted before any
    scoring (explainer.rouge.rouge155.runlimits.MAX_RUN_W_CELLS)."""
    from explainer.rouge.rouge155.runlimits import MAX_RUN_W_CELLS

    sent = " ".join(f"w{i}" for i in range(800)) + "\n"               # 640,000 cells per evaluation
    n = MAX_RUN_W_CELLS // 640_000 + 1
    (tmp_path / "s.spl").write_text(sent, encoding="utf-8")
    (tmp_path / "list.txt").write_text("s.spl s.spl\n" * n, encoding="utf-8")
    r = bounded(["-w", "1.2", "-z", "SPL", "list.txt", "X"], main="explainer.rouge.rouge155.files", cwd=tmp_path)
    err = r.stderr.decode()
    assert r.returncode == 1 and err.count("\n") == 1, err[-500:]
    assert f"{n * 640_000:,} ROUGE-W table cells (-w), over the limit of {MAX_RUN_W_CELLS:,} per run" in err, err
    r = bounded(["-z", "SPL", "list.txt", "X"], main="explainer.rouge.rouge155.files", cwd=tmp_path)
    assert r.returncode == 0 and b"ROUGE-L Average_F" in r.stdout, r.stderr[-500:]     # without -w: scored


# ----------------------------------------------------------------------------------- issue 34, item 11 (CLI)
def test_rouge155_on_a_directory_is_one_line():
    r = bounded(["-a", "/etc"], main="explainer.rouge.rouge155.files")
    err = r.stderr.decode()
    assert r.returncode == 1 and err == "rouge155: cannot read /etc: Is a directory\n", err


def test_compare_refuses_a_tsv_with_uneven_columns(tmp_path):
    """It was read as plain lines: its header became segment 1."""
    p = tmp_path / "t.tsv"
    p.write_text("ref\tA\tB\nthe cat\ta cat\tthe cat\nthe dog\ta dog\n", encoding="utf-8")
    r = bounded(["compare", "--system", str(p)])
    refused(r, "line 3: 2 tab-separated fields, the header has 3 (line 1: ref, A, B)")


# ------------------------------------------------------------------------ issue 34, item 2: the one reader
class _Counting(io.RawIOBase):
    """An endless stream of one character that counts the bytes handed out."""

    def __init__(self, unit: bytes):
        self.unit, self.given = unit, 0

    def readable(self):
        return True

    def readinto(self, b):
        n = len(b) - len(b) % len(self.unit)
        b[:n] = self.unit * (n // len(self.unit))
        self.given += n
        return n


@pytest.mark.parametrize("unit", [b"a", "é".encode(), "𝄞".encode()])
def test_a_long_line_is_refused_when_the_limit_is_passed_not_at_its_end(unit):
    from explainer import inputs

    raw = _Counting(unit)
    fh = io.BufferedReader(raw, buffer_size=8192)
    with pytest.raises(inputs.InputFileError, match="x, line 1: more than 1,000 characters, over the limit of 1,000"):
        next(inputs._split_lines(fh, "x", 1000, None))
    assert raw.given <= 1003 * len(unit) + 8192                  # the limit's bytes and one buffer, never more


@pytest.mark.parametrize("line", ["é" * 1000, "a" * 1000, "\ufeff" + "b" * 1000, "𝄞" * 1000])
@pytest.mark.parametrize("end", ["", "\n", "\r\n"])
def test_a_line_at_the_limit_is_read_and_one_more_character_is_not(line, end, tmp_path):
    """Files, pipes and uploaded bytes: one rule, exact at the limit (a byte-order mark and a CR do not count)."""
    from explainer import inputs

    p = tmp_path / "f.txt"
    p.write_bytes((line + end + ("next\n" if end else "")).encode())
    want = [line.removeprefix("\ufeff")] + (["next"] if end else [])
    assert inputs.read_lines(str(p), max_chars=1000) == want
    assert inputs.decode_lines(p.read_bytes(), "f.txt", max_chars=1000) == want
    p.write_bytes((line + "x" + end).encode())
    for read in (lambda: inputs.read_lines(str(p), max_chars=1000),
                 lambda: inputs.decode_lines(p.read_bytes(), str(p), max_chars=1000)):
        with pytest.raises(inputs.InputFileError, match="line 1: (1,001|more than 1,000) characters, over the limit "
                                                        "of 1,000"):
            read()


def test_an_upload_with_an_endless_line_gets_the_same_rule():
    """The Corpus page reads uploads with the same reader: a line is refused at its format's limit."""
    from explainer.corpus.testset import TestSetError
    from explainer.inputs import MAX_RECORD_CHARS
    from explainer.ui.corpus.testset import testset_from_uploads

    with pytest.raises(TestSetError, match=f"more than {MAX_RECORD_CHARS:,} characters"):
        testset_from_uploads([("sys.txt", b"a" * (MAX_RECORD_CHARS + 10))], [("ref.txt", b"a\n")])
    with pytest.raises(TestSetError, match="sys.txt, line 2: 200,001 characters, over the limit of 200,000"):
        testset_from_uploads([("sys.txt", b"a\n" + b"b" * 200_001 + b"\n")], [("ref.txt", b"a\nb\n")])


# ------------------------------------------------------------------------------------------ issue 34, item 8
def test_bleu_and_chrf_bootstrap_have_the_same_limits(tmp_path, monkeypatch, capsys):
    """`chrf --bootstrap 10000` on 20,000 segments was accepted (the paired tests' 200,000,000 draws) while `bleu`
    refused the same (the bootstrap's 100,000,000): one system's CI, one limit, before any scoring."""
    import explainer.chrf as chrf
    import explainer.ter as ter
    from explainer.bleu.bootstrap import MAX_BOOTSTRAP_DRAWS
    from explainer.cli import main

    p = tmp_path / "h.txt"
    p.write_text("the cat sat\n" * 20_000, encoding="utf-8")
    monkeypatch.setattr(chrf, "score_chrf_corpus", lambda *a, **k: pytest.fail("scored before refusing"))
    monkeypatch.setattr(ter, "score_ter_corpus", lambda *a, **k: pytest.fail("scored before refusing"))
    errs = []
    for cmd in ("bleu", "chrf", "ter"):
        assert main([cmd, "--hyp", str(p), "--ref", str(p), "--bootstrap", "10000"]) == 2
        errs.append(capsys.readouterr().err.split("error: ", 1)[1])
    assert errs[0] == errs[1] == errs[2] and f"over the limit of {MAX_BOOTSTRAP_DRAWS:,}" in errs[0], errs
