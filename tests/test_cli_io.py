"""The rules every `python -m explainer` sub-command shares (explainer/cli/io.py over explainer/inputs.py):
reading, key names, encodings, one-line errors, a closed stdout or pipe, and the limits checked before any work.
Each case is run for `bleu` and `rouge`, and the line-aligned file cases for `compare` too; most of them were an
'internal error ... this is a bug' (exit 3) or differed between the commands before."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from sacrebleu.metrics import BLEU

from explainer.cli import main
from tests.conftest import ROOT

COMMANDS = ["bleu", "rouge"]
FILE_COMMANDS = ["bleu", "rouge", "compare"]      # the commands that read line-aligned files
SEG = {"candidate": "the cat sat on the mat", "references": ["the cat is on the mat"]}


def _jsonl(*objs) -> bytes:
    return "".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objs).encode()


def run_cli(argv, stdin: bytes, capsys, monkeypatch, stdout_encoding: str | None = None):
    """In-process run with ``stdin`` as bytes; with ``stdout_encoding`` stdout is a text stream of that encoding
    whose bytes are returned instead of the captured text."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    raw = None
    if stdout_encoding:
        raw = io.BytesIO()
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding=stdout_encoding))
    rc = main(argv)
    if raw is not None:
        sys.stdout.flush()
    out, err = capsys.readouterr()
    return rc, (raw.getvalue() if raw is not None else out), err


def _one_line_error(rc, out, err, needle):
    assert rc == 2, (rc, err)
    assert not out, out[:200]
    assert needle in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and "internal error" not in err, err


def _files(command, hyp, *refs) -> list[str]:
    """The arguments that give a command one candidate (system) file and its reference files."""
    refs_args = [a for r in refs for a in ("--ref", str(r))]
    if command == "compare":
        return ["compare", *refs_args, "--system", str(hyp)]
    return [command, "--hyp", str(hyp), *refs_args]


def _subprocess(args, stdin: bytes = b"", **kw):
    return subprocess.run([sys.executable, "-m", "explainer", *args], input=stdin, capture_output=True, cwd=ROOT,
                          timeout=120, **kw)


# ------------------------------------------------------------------------------------------------ reading
@pytest.mark.parametrize("command", COMMANDS)
def test_deeply_nested_json_is_invalid_json_with_its_line(command, capsys, monkeypatch):
    """rouge: '[' * 100000 made json.loads raise RecursionError: 'internal error', exit 3 (bleu had its own fix)."""
    stdin = _jsonl(SEG) + b'{"candidate": "a", "references": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    _one_line_error(*run_cli([command, "--jsonl", "-"], stdin, capsys, monkeypatch),
                    "line 2: invalid JSON (nested too deeply to read)")
    p = _subprocess([command, "--jsonl", "-"], stdin)
    assert p.returncode == 2 and p.stdout == b"" and b"line 2: invalid JSON (nested too deeply" in p.stderr
    assert p.stderr.count(b"\n") == 1


@pytest.mark.parametrize("command", COMMANDS)
def test_a_5000_digit_integer_names_its_line(command, capsys, monkeypatch):
    """json.loads raises Python's int-conversion ValueError, which carried no line number."""
    stdin = _jsonl(SEG) + b'{"candidate": "a", "references": ["a"], "n": ' + b"9" * 5000 + b"}\n"
    _one_line_error(*run_cli([command, "--jsonl", "-"], stdin, capsys, monkeypatch),
                    "line 2: invalid JSON (a number with more than 4,300 digits)")


@pytest.mark.parametrize("command", COMMANDS)
def test_not_utf8_names_the_file_line_and_byte(command, tmp_path, capsys, monkeypatch):
    f = tmp_path / "in.jsonl"
    f.write_bytes(_jsonl(SEG) + '{"candidate": "café", "references": ["a"]}\n'.encode("latin-1"))
    _one_line_error(*run_cli([command, "--jsonl", str(f)], b"", capsys, monkeypatch),
                    f"{f}: line 2 is not valid UTF-8 (byte 0xE9 at column 19)")


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_not_utf8_corpus_file_is_the_same_message_for_every_command(command, tmp_path, capsys, monkeypatch):
    """compare said "reference R is not valid UTF-8: line 2, byte 1 (b'\\xff'); save it as UTF-8"."""
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_bytes(b"a b\nc d\n")
    ref.write_bytes(b"a b\n\xff\n")
    rc, out, err = run_cli(_files(command, hyp, ref), b"", capsys, monkeypatch)
    _one_line_error(rc, out, err, f"{ref}: line 2 is not valid UTF-8 (byte 0xFF at column 1)")
    assert err == f"explainer {command}: error: {ref}: line 2 is not valid UTF-8 (byte 0xFF at column 1); save it " \
                  "as UTF-8\n"
    ref.write_bytes(b"a b\nc d\n")
    hyp.write_bytes(b"a b\nc \xe9\n")     # a candidate (system) file too, also when it is read from stdin
    rc, out, err = run_cli(_files(command, hyp, ref), b"", capsys, monkeypatch)
    _one_line_error(rc, out, err, f"{hyp}: line 2 is not valid UTF-8 (byte 0xE9 at column 3); save it as UTF-8")
    rc, out, err = run_cli(_files(command, "-", ref), hyp.read_bytes(), capsys, monkeypatch)
    _one_line_error(rc, out, err, "stdin: line 2 is not valid UTF-8 (byte 0xE9 at column 3); save it as UTF-8")


@pytest.mark.parametrize("command", COMMANDS)
def test_key_names_are_the_same_for_every_command(command, capsys, monkeypatch):
    """Only rouge accepted 'prediction' / 'hypothesis' (evaluate's and sacreBLEU's names) for the candidate."""
    base = run_cli([command, "--jsonl", "-"], _jsonl(SEG), capsys, monkeypatch)
    assert base[0] == 0, base[2]
    for cand_key in ("prediction", "hypothesis"):
        for ref_obj in ({"references": SEG["references"]}, {"reference": SEG["references"][0]}):
            obj = {cand_key: SEG["candidate"], **ref_obj}
            rc, out, err = run_cli([command, "--jsonl", "-"], _jsonl(obj), capsys, monkeypatch)
            assert (rc, out) == base[:2], (obj, err)
    _one_line_error(*run_cli([command, "--jsonl", "-"], _jsonl({"text": "a", "references": ["a"]}), capsys,
                             monkeypatch), "line 1: 'candidate' is missing (also accepted: 'prediction', 'hypothesis')")
    _one_line_error(*run_cli([command, "--jsonl", "-"], _jsonl({"candidate": "a"}), capsys, monkeypatch),
                    "line 1: 'references' is missing")


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_corpus_files_of_different_lengths_and_empty_corpus(command, tmp_path, capsys, monkeypatch):
    """compare said "system h (h.txt) has 2 lines but reference r.txt has 1: ... (nothing is truncated)" and named
    the reference file for an empty corpus; bleu and rouge said "has 1 lines"."""
    hyp, ref, ref2, empty = tmp_path / "h.txt", tmp_path / "r.txt", tmp_path / "r2.txt", tmp_path / "e.txt"
    hyp.write_text("a\nb\n", encoding="utf-8")
    ref.write_text("a\n", encoding="utf-8")
    ref2.write_text("a\nb\nc\n", encoding="utf-8")
    empty.write_text("", encoding="utf-8")
    for refs, want in [((ref,), f"{hyp} has 2 lines but {ref} has 1"), ((ref2,), f"{hyp} has 2 lines but {ref2} has 3"),
                       ((hyp, ref), f"{hyp} has 2 lines but {ref} has 1")]:
        rc, out, err = run_cli(_files(command, hyp, *refs), b"", capsys, monkeypatch)
        assert err == f"explainer {command}: error: {want}: the files must be line-aligned (the explainer never " \
                      "truncates)\n", err
        assert rc == 2 and not out
    rc, out, err = run_cli(_files(command, empty, ref), b"", capsys, monkeypatch)
    assert err == f"explainer {command}: error: {empty} has 0 lines but {ref} has 1: the files must be " \
                  "line-aligned (the explainer never truncates)\n", err
    rc, out, err = run_cli(_files(command, empty, empty), b"", capsys, monkeypatch)
    assert (rc, out, err) == (2, "", f"explainer {command}: error: {empty} is empty\n")


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_a_missing_file_and_stdin_twice(command, tmp_path, capsys, monkeypatch):
    """compare said "cannot read reference PATH"; stdin given as two files made bleu and rouge report lines that
    were not the user's (the second read got nothing) and compare read its lines alternately into the two."""
    hyp = tmp_path / "h.txt"
    hyp.write_text("a\nb\n", encoding="utf-8")
    rc, out, err = run_cli(_files(command, hyp, tmp_path / "nope.txt"), b"", capsys, monkeypatch)
    missing = tmp_path / "nope.txt"
    assert (rc, out, err) == (2, "", f"explainer {command}: error: cannot read {missing}: No such file or directory\n")
    rc, out, err = run_cli(_files(command, "-", "-"), b"a\nb\n", capsys, monkeypatch)
    assert (rc, out, err) == (2, "", f"explainer {command}: error: stdin ('-') is given for more than one file; at "
                                     "most one file can be read from stdin\n")


# ----------------------------------------------------------------------------------- writing and encodings
@pytest.mark.parametrize("command", COMMANDS)
def test_lone_surrogate_with_full_is_refused_up_front_with_its_line(command, capsys, monkeypatch):
    """rouge wrote the earlier lines, then failed with an encoder message without a line number."""
    stdin = _jsonl(SEG) + b'{"candidate": "a b", "references": ["x", "a \\udfff"]}\n'
    _one_line_error(*run_cli([command, "--jsonl", "-", "--full"], stdin, capsys, monkeypatch),
                    "line 2: reference 2 contains a lone surrogate U+DFFF")
    rc, out, err = run_cli([command, "--jsonl", "-"], stdin, capsys, monkeypatch)   # the scores repeat no text
    assert rc == 0 and len(out.splitlines()) == 2, err


@pytest.mark.parametrize("command", COMMANDS)
def test_stdout_that_cannot_encode_the_texts_is_refused_before_any_output(command, capsys, monkeypatch):
    """rouge with an ASCII stdout: the first lines were written, then an encoder error without a line number."""
    stdin = _jsonl(SEG, {"candidate": "un café", "references": ["un café noir"]})
    rc, out, err = run_cli([command, "--jsonl", "-", "--full"], stdin, capsys, monkeypatch, stdout_encoding="ascii")
    _one_line_error(rc, out, err, "line 2: 'candidate' contains the character U+00E9")
    assert "PYTHONIOENCODING=utf-8" in err
    rc, out, err = run_cli([command, "--jsonl", "-"], stdin, capsys, monkeypatch, stdout_encoding="ascii")
    assert rc == 0 and len(out.splitlines()) == 2, err   # the scores are ASCII


@pytest.mark.parametrize("command", COMMANDS)
def test_closed_stdout_is_a_clear_error_before_any_work(command):
    """`>&-`: Python sets sys.stdout to None and the first write was an AttributeError ('internal error')."""
    p = subprocess.run([sys.executable, "-m", "explainer", command, "--jsonl", "-"], input=_jsonl(SEG),
                       stdout=None, stderr=subprocess.PIPE, cwd=ROOT, timeout=120, preexec_fn=lambda: os.close(1))
    assert p.returncode == 2, p.stderr
    assert p.stderr.decode().strip() == f"explainer {command}: error: stdout is closed (>&-), so no result could " \
                                        "be written; redirect it to a file or to /dev/null instead"


@pytest.mark.parametrize("command", COMMANDS)
def test_a_reader_that_goes_away_ends_the_run_quietly(command):
    """`explainer ... | head -1`: exit 0 and nothing on stderr (no BrokenPipeError at the interpreter's exit)."""
    stdin = _jsonl(*[SEG] * 3000)
    p = subprocess.Popen([sys.executable, "-m", "explainer", command, "--jsonl", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    p.stdin.write(stdin)
    p.stdin.close()
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) == 0 and json.loads(first) and err == b"", err


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_closed_stdout_and_a_reader_gone_before_the_output_with_files(command, tmp_path):
    """The same for every command reading line-aligned files: a closed stdout is refused before any work, a
    reader that is gone before the output comes (`| true`) ends the run quietly."""
    hyp = tmp_path / "h.txt"
    hyp.write_text("the cat sat on the mat\n" * 50, encoding="utf-8")
    argv = [sys.executable, "-m", "explainer", *_files(command, hyp, hyp)]
    p = subprocess.run(argv, stdout=None, stderr=subprocess.PIPE, cwd=ROOT, timeout=120,
                       preexec_fn=lambda: os.close(1))
    assert p.returncode == 2 and p.stderr.decode().strip() == (
        f"explainer {command}: error: stdout is closed (>&-), so no result could be written; redirect it to a "
        "file or to /dev/null instead")
    r, w = os.pipe()
    os.close(r)                                # the reader is gone before the command starts
    try:
        p = subprocess.run(argv, stdout=w, stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
    finally:
        os.close(w)
    assert (p.returncode, p.stderr) == (0, b"")


@pytest.mark.parametrize("command", COMMANDS)
def test_memory_error_is_a_clear_message(command, capsys, monkeypatch):
    import explainer.bleu
    import explainer.rouge

    def exhausted(*a, **k):
        raise MemoryError

    monkeypatch.setattr(explainer.bleu, "score_bleu", exhausted)
    monkeypatch.setattr(explainer.rouge, "score_rouge", exhausted)
    _one_line_error(*run_cli([command, "--jsonl", "-"], _jsonl(SEG), capsys, monkeypatch),
                    f"explainer {command}: error: out of memory")


def _strict_json(text: str):
    def refuse(name):
        raise AssertionError(f"not JSON: bare {name}")

    return json.loads(text, parse_constant=refuse)


def test_infinite_statistics_are_written_as_null_with_a_note(capsys, monkeypatch):
    """sacreBLEU's add-k with k = 1e308 gives an infinite BLEU; `json.dumps` wrote a bare `Infinity`."""
    real = BLEU(smooth_method="add-k", smooth_value=1e308).corpus_score([SEG["candidate"]], [[SEG["references"][0]]])
    assert real.score == float("inf")
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--smooth", "add-k", "--smooth-value", "1e308"], _jsonl(SEG),
                           capsys, monkeypatch)
    assert rc == 0, err
    d = _strict_json(out)
    assert d["score"] is None and d["bleu"] is None and d["counts"] == real.counts
    assert [p if p is None else p * 100 for p in d["precisions"]] == [
        None if p == float("inf") else pytest.approx(p) for p in real.precisions]
    assert any("score = inf" in n and "written as null" in n for n in d["notes"]), d["notes"]
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--smooth", "add-k", "--smooth-value", "1e308", "--full"],
                           _jsonl(SEG), capsys, monkeypatch)
    assert rc == 0, err
    d = _strict_json(out)
    assert d["score"] is None and any("score = inf" in n for n in d["notes"])


def test_no_reference_reports_what_sacrebleu_does(capsys, monkeypatch):
    """A segment without references printed score 0.0 with ref_len -1 and ratio -2.0, numbers sacreBLEU never
    produces: it raises. The line now reports the exception and no statistics; a corpus likewise."""
    with pytest.raises(IndexError) as real:
        BLEU().corpus_score([SEG["candidate"]], [])
    rc, out, err = run_cli(["bleu", "--jsonl", "-"], _jsonl({"candidate": SEG["candidate"], "references": []}),
                           capsys, monkeypatch)
    assert rc == 0, err
    d = _strict_json(out)
    assert (d["library_error"]["type"], d["library_error"]["message"]) == ("IndexError", str(real.value))
    assert all(d[k] is None for k in ("score", "bleu", "counts", "totals", "precisions", "bp", "sys_len", "ref_len",
                                      "ratio"))
    assert any("returns no statistics" in n for n in d["notes"])
    # a corpus where one segment has no reference: sacreBLEU fails with a TypeError (its table is None)
    with pytest.raises(TypeError) as real:
        BLEU().corpus_score(["a b c", "c d"], [["a b c", None]])
    stdin = _jsonl({"candidate": "a b c", "references": ["a b c"]}, {"candidate": "c d", "references": []})
    rc, out, err = run_cli(["bleu", "--jsonl", "-", "--corpus"], stdin, capsys, monkeypatch)
    assert rc == 0, err
    d = _strict_json(out)
    assert (d["library_error"]["type"], d["library_error"]["message"]) == ("TypeError", str(real.value))
    assert d["score"] is None and d["ref_len"] is None
    # ROUGE's core needs a reference: refused with the line, as before, and now in the shared wording
    _one_line_error(*run_cli(["rouge", "--jsonl", "-"], stdin, capsys, monkeypatch),
                    "line 2: 'references' is empty; ROUGE compares the candidate with at least one reference")


# --------------------------------------------------------------------------------------------------- limits
@pytest.mark.parametrize("value", ["1234567890123456789012345678901", "9" * 5000, "0", "-3", "10001", "1e3", "x"])
def test_bootstrap_bound_is_checked_up_front(value, tmp_path, capsys):
    """--bootstrap N had no upper bound (10^9 on 3 segments reached 22.9 GB); a 31-digit N was an OverflowError
    reported as 'internal error'."""
    from explainer.cli.bleu import MAX_BOOTSTRAP

    h = tmp_path / "h.txt"
    h.write_text("a b c\n", encoding="utf-8")
    with pytest.raises(SystemExit) as e:
        main(["bleu", "--hyp", str(h), "--ref", str(h), "--bootstrap", value])
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.strip().splitlines()) == 1 and len(err) < 300, err
    if value.lstrip("-").isdigit():
        assert f"expected a whole number from 1 to {MAX_BOOTSTRAP:,}" in err
    else:
        assert "invalid int value" in err


def test_bootstrap_work_bound_depends_on_the_corpus_size(tmp_path, capsys, monkeypatch):
    """Resamples x segments is bounded too (the core's check_bootstrap_size), before any scoring."""
    from explainer.bleu import bootstrap

    monkeypatch.setattr(bootstrap, "MAX_BOOTSTRAP_DRAWS", 300)
    h = tmp_path / "h.txt"
    h.write_text("a b c\n" * 100, encoding="utf-8")
    rc, out, err = run_cli(["bleu", "--hyp", str(h), "--ref", str(h), "--bootstrap", "4"], b"", capsys, monkeypatch)
    _one_line_error(rc, out, err, "--bootstrap 4: a bootstrap of 4 resamples over 100 segments draws 400 segments")
    assert "e.g. 3" in err
    rc, out, err = run_cli(["bleu", "--hyp", str(h), "--ref", str(h), "--bootstrap", "3"], b"", capsys, monkeypatch)
    assert rc == 0 and json.loads(out)["bootstrap"]["n_bootstrap"] == 3, err


def test_cli_bootstrap_bound_is_the_cores():
    """The flag's bound is the core's MAX_BOOTSTRAP (spelled out in the CLI so that parsing imports no core)."""
    from explainer.bleu import bootstrap
    from explainer.cli.bleu import MAX_BOOTSTRAP

    assert MAX_BOOTSTRAP == bootstrap.MAX_BOOTSTRAP


# ------------------------------------------------------------------------------------------------- start-up
def test_help_imports_no_core_and_no_metric_library():
    """`--help` builds the parser only: no explainer core or feature, no sacreBLEU, NLTK, rouge-score, NumPy (the
    command modules are imported by statement, and import nothing heavy at their top)."""
    code = ("import sys\nfrom explainer.cli import main\n"
            "try:\n    main(['bleu', '--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('explainer.bleu', 'explainer.rouge', 'explainer.corpus', 'explainer.dialectcmp',"
            " 'sacrebleu', 'nltk', 'rouge_score', 'numpy')"
            " if m in sys.modules]\nprint(heavy, file=sys.stderr)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=ROOT, timeout=60, text=True)
    assert p.returncode == 0 and p.stderr.strip() == "[]", p.stderr
    assert "--bootstrap N" in p.stdout and "--dialect" in p.stdout
