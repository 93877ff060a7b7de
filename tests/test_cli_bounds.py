"""Issue 17: what a stranger controls on the command line is bounded and refused with a clear one-line message
(exit 2), never an "internal error" (exit 3) or a traceback."""
from __future__ import annotations

import io
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
    monkeypatch.setattr(ccli, "_read_blocks", lambda *a, **k: seen.append(1) or 0)
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
    code = ("import resource, sys; from explainer.cli import main; rc = main(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(rc)")
    r = subprocess.run([sys.executable, "-c", code, "compare", "--ref", str(tmp_path / "ref.txt"), "--system",
                        f"a={tmp_path / 'a.txt'}", "--system", f"b={tmp_path / 'b.txt'}", "--report",
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
    monkeypatch.setattr(ccli, "_statistics_feeder", lambda *a: pytest.fail("read before refusing"))
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
