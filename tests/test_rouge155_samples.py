"""ROUGE-1.5.5's own sample tests (tests/data/golden/rouge155-sample-test.tar.gz): all 17 expected outputs, byte
for byte.

The commands are those of ROUGE-1.5.5's own runROUGE-test.pl plus the two verify runs. The BE runs
(-3 HM) use rouge155.files.be_counts; everything else goes through the rouge155 engine.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from explainer.rouge.rouge155 import parse_flags
from explainer.rouge.rouge155.files import (
    format_report,
    read_config_xml,
    read_file_list,
    read_units,
    run_config,
)

_C = "-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2"
RUNS = {
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a.out": (f"{_C} -a", "ROUGE-test.xml", None),
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out": (f"{_C} -a -m", "ROUGE-test.xml", None),
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m-s.out": (f"{_C} -a -m -s", "ROUGE-test.xml", None),
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a.out": (f"{_C} -l 10 -a", "ROUGE-test.xml", None),
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m.out": (f"{_C} -l 10 -a -m", "ROUGE-test.xml", None),
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-l10-a-m-s.out": (f"{_C} -l 10 -a -m -s", "ROUGE-test.xml", None),
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a.out": (f"{_C} -b 75 -a", "ROUGE-test.xml", None),
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m.out": (f"{_C} -b 75 -a -m", "ROUGE-test.xml", None),
    "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": (f"{_C} -b 75 -a -m -s", "ROUGE-test.xml", None),
    "verify-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": (f"{_C} -b 75 -a -m -s", "verify.xml", None),
    "verify-spl-c95-2-1-U-r1000-n4-w1.2-b75-a-m-s.out": (f"{_C} -b 75 -a -m -s", "verify-spl.xml", None),
    "DUC2002-ROUGE.in.26.spl.lst.out": ("-n 4 -z SPL", "DUC2002-ROUGE.in.26.spl.lst", "26"),
    "DUC2002-ROUGE.in.26.spl.out": ("-n 4", "DUC2002-ROUGE.in.26.spl.xml", "26"),
    "DUC2002-BE-F.in.26.lst.out": ("-3 HM -z SIMPLE", "DUC2002-BE-F.in.26.lst", "26"),
    "DUC2002-BE-F.in.26.simple.out": ("-3 HM", "DUC2002-BE-F.in.26.simple.xml", "26"),
    "DUC2002-BE-L.in.26.lst.out": ("-3 HM -z SIMPLE", "DUC2002-BE-L.in.26.lst", "26"),
    "DUC2002-BE-L.in.26.simple.out": ("-3 HM", "DUC2002-BE-L.in.26.simple.xml", "26"),
}


def _run(test: Path, flags_str: str, config: str, system_id: str | None) -> str:
    flags = flags_str.split()
    be_mode = None
    if "-3" in flags:  # Basic Elements: handled by the file runner, not a rouge155 dialect option
        k = flags.index("-3")
        be_mode = flags[k + 1]
        del flags[k:k + 2]
    opts = parse_flags(flags)
    if "-z" in flags:
        specs = read_file_list(test / config, flags[flags.index("-z") + 1], system_id or "X")
    else:
        specs = read_config_xml(test / config)
    run = run_config(specs, opts, system_id=system_id, all_peers="-a" in flags and "-z" not in flags,
                     be_mode=be_mode)
    return format_report(run, opts, confidence_label=flags[flags.index("-c") + 1] if "-c" in flags else "95")


@pytest.fixture(scope="module")
def sample_in(rouge155_sample_test) -> Path:
    return rouge155_sample_test / "sample-test"


@pytest.fixture(scope="module")
def sample_out(rouge155_sample_test) -> Path:
    return rouge155_sample_test / "sample-output"


def test_all_seventeen_sample_outputs_are_listed(sample_out):
    assert sorted(p.name for p in sample_out.iterdir()) == sorted(RUNS)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_sample_output_byte_for_byte(name, sample_in, sample_out):
    flags, config, sid = RUNS[name]
    got = _run(sample_in, flags, config, sid)
    want = (sample_out / name).read_bytes().decode("ascii")
    assert got == want


def test_see_reader_keeps_the_newline_the_capture_takes(sample_in):
    """The SEE regex's ``([^<]+)`` takes the line break when ``</a>`` is on the next line: it counts for -b."""
    f = next((sample_in / "SL2003" / "systems").iterdir())
    units = read_units(f, "SEE")
    assert units and all(u.endswith("\n") for u in units)


def test_command_line_drop_in(monkeypatch, capsys, tmp_path, sample_in, sample_out):
    """``python -m explainer.rouge.rouge155`` takes the script's flags and prints its report; paths are
    relative to the current directory, as for the script. Errors are one line; a Perl death exits 255."""
    from explainer.rouge.rouge155.files import main

    monkeypatch.chdir(sample_in)
    assert main("-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -m ROUGE-test.xml".split()) == 0
    assert capsys.readouterr().out == (sample_out / "ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m.out").read_text()
    assert main("-n 1 -d -z SPL DUC2002-ROUGE.in.26.spl.lst 26".split()) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[4] == "." * 45 and out[5].startswith("26 ROUGE-1 Eval 1.26 R:")
    assert main(["-n", "2", "missing.xml"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("rouge155:") and "\n" not in err
    monkeypatch.chdir(tmp_path)
    (tmp_path / "peer.spl").write_text("the cat sat\n")
    (tmp_path / "model.spl").write_text("\n")
    (tmp_path / "list.lst").write_text("peer.spl model.spl\n")
    assert main("-n 1 -w 1.2 -z SPL list.lst".split()) == 255
    cap = capsys.readouterr()
    assert "X ROUGE-L Average_R: 0.00000" in cap.out and "ROUGE-W" not in cap.out
    assert "Illegal division by zero at ROUGE-1.5.5.pl line 2450." in cap.err


def test_unit_readers_for_every_input_format(tmp_path):
    """SEE (both anchor forms of the script's regexes), ISI (<S SNTNO>) and SPL (empty lines skipped,
    \\r kept) as readText reads them."""
    see = tmp_path / "a.html"
    see.write_text('<html>\n<a size="12" name="1">[1]</a> <a href="#1" id=1>First One.</a>\n'
                   '<a name="2">[2]</a> <a href="#2" id=2>Second\n</a>\n<p>ignored</p>\n')
    assert read_units(see, "SEE") == ["First One.", "Second\n"]
    isi = tmp_path / "a.isi"
    isi.write_text('<S SNTNO="1">Alpha beta</S>\n<S SNTNO="2a,3">Gamma</S>\nnoise\n')
    assert read_units(isi, "ISI") == ["Alpha beta", "Gamma"]
    spl = tmp_path / "a.spl"
    spl.write_bytes(b"one\r\n\ntwo caf\xc3\xa9\n")
    assert read_units(spl, "SPL") == ["one\r", "two café"]
    with pytest.raises(ValueError, match="Unknown input format"):
        read_units(spl, "XML")
