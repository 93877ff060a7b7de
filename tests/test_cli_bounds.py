"""Issue 17: what a stranger controls on the command line is bounded and refused with a clear one-line message
(exit 2), never an "internal error" (exit 3) or a traceback."""
from __future__ import annotations

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
