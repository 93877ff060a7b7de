"""`compare` on one TSV file holding several systems (issue 19): the paired tests run on its columns and equal
sacreBLEU's PairedTest (BLEU, chrF) and the plain-file run (ROUGE); bounded like the rest (docs/limits.md): the
bytes before reading, the systems, the test's draws and the texts once read, before any scoring."""
from __future__ import annotations

import csv
import json

import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest

from explainer.cli import main
from explainer.corpus.export import csv_cell
from tests.corpus_data import make_testset, write_files


def run(argv, capsys):
    try:
        rc = main(["compare"] + argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def _tsv(path, refs, systems, header=None):
    cols = [f"ref{k + 1}" for k in range(len(refs))] + [n for n, _ in systems]
    rows = zip(*refs, *[lines for _, lines in systems])
    path.write_text("\t".join(header or cols) + "\n" + "".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """600 segments x 2 references x 3 systems (an empty line in each), as one TSV and as plain files."""
    refs, systems = make_testset(600, 2, 3, seed=19)
    tmp = tmp_path_factory.mktemp("tsv")
    ref_paths, sys_paths = write_files(tmp, refs, systems)
    return refs, systems, _tsv(tmp / "generaltest2022.en-de.all.de", refs, systems), ref_paths, sys_paths


def _plain(ref_paths, sys_paths):
    return sum((["--ref", p] for p in ref_paths), []) + sum((["--system", f"{n}={p}"] for n, p in sys_paths), [])


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_one_tsv_with_three_systems_equals_pairedtest(data, test, capsys):
    refs, systems, tsv, _, _ = data
    rc, out, err = run(["--system", tsv, f"--paired-{test}"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    sigs, scores = PairedTest(systems, {"BLEU": BLEU(references=refs)}, None, test_type=test)()
    assert [s["name"] for s in got["systems"]] == [n for n, _ in systems]
    for s, r in zip(got["systems"], scores["BLEU"]):
        assert s["score"] == r.score
        for k in ("p_value", "mean", "ci"):
            want = getattr(r, k)
            assert (s[k] is None) if want is None else (s[k] == float(want)), k
    assert got["signature"] == sigs["BLEU"].format()
    assert got["n_references"] == 2 and got["n_segments"] == 600
    assert "TSV" in got["inputs"][0]


def test_one_tsv_all_pairs_and_tables(data, capsys):
    refs, systems, tsv, ref_paths, sys_paths = data
    rc, out, err = run(["--system", tsv, "--paired-bs", "--paired-bs-n", "200", "--all-pairs"], capsys)
    assert rc == 0, err
    by_tsv = json.loads(out)
    rc, out, err = run(_plain(ref_paths, sys_paths) + ["--paired-bs", "--paired-bs-n", "200", "--all-pairs"], capsys)
    plain = json.loads(out)
    for k in ("systems", "signature", "test", "corpus"):
        assert by_tsv[k] == plain[k], k
    rc, out, err = run(["--system", tsv, "--paired-ar", "--paired-ar-n", "500", "--format", "latex"], capsys)
    assert rc == 0 and all(n in out for n, _ in systems) and "\\toprule" in out


def test_one_tsv_segments_csv_carries_the_texts(data, tmp_path, capsys):
    refs, systems, tsv, _, _ = data
    seg = tmp_path / "seg.csv"
    rc, out, err = run(["--system", tsv, "--paired-bs", "--paired-bs-n", "100", "--segments", str(seg)], capsys)
    assert rc == 0, err
    rows = list(csv.DictReader(seg.open(encoding="utf-8")))
    assert len(rows) == 600
    assert [r["reference 2"] for r in rows] == [csv_cell(x) for x in refs[1]]
    name, lines = systems[2]
    assert [r[f"{name} | text"] for r in rows] == [csv_cell(x) for x in lines]
    want = [BLEU().corpus_score([h], [[r1], [r2]]) for h, r1, r2 in zip(lines[:5], refs[0], refs[1])]
    assert [float(r[f"{name} | score"]) for r in rows[:5]] == pytest.approx([w.score for w in want], abs=1e-9)


def test_one_tsv_rouge_and_chrf(data, capsys):
    refs, systems, tsv, ref_paths, sys_paths = data
    for metric in ("rouge", "chrf"):
        args = ["--metric", metric, "--paired-ar", "--paired-ar-n", "300"]
        rc, out, err = run(["--system", tsv] + args, capsys)
        assert rc == 0, (metric, err)
        by_tsv = json.loads(out)
        rc, out, err = run(_plain(ref_paths, sys_paths) + args, capsys)
        assert rc == 0, (metric, err)
        plain = json.loads(out)
        for k in ("systems", "signature", "test", "n_references"):
            assert by_tsv[k] == plain[k], (metric, k)
    sigs, scores = PairedTest(systems, {"chrF": CHRF()}, refs, test_type="ar", n_samples=300)()
    (key,) = [k for k in scores if k != "System"]
    want = scores[key]
    assert by_tsv["signature"] == sigs[key].format()
    assert [(s["score"], s["p_value"]) for s in by_tsv["systems"]] == [(r.score, r.p_value) for r in want]


def test_one_tsv_with_one_system_is_refused_after_reading(tmp_path, capsys):
    refs, systems = make_testset(30, 1, 1, seed=3)
    tsv = _tsv(tmp_path / "one.tsv", refs, systems)
    rc, out, err = run(["--system", tsv, "--paired-bs"], capsys)
    assert rc == 2 and out == ""
    assert "holds one system" in err and len(err.strip().splitlines()) == 1
    rc, out, err = run(["--system", tsv], capsys)          # without a test: scored
    assert rc == 0 and len(json.loads(out)["systems"]) == 1


def test_one_tsv_draws_refused_exactly_before_scoring(tmp_path, monkeypatch, capsys):
    """The header line is not a segment: 30 segments x 1,000 resamples fit a limit of 30,000 exactly (the line
    count of the file, 31, would refuse it); 31 segments are refused once read, before any statistics."""
    import explainer.cli.compare as ccli
    import explainer.corpus.significance as sig

    refs, systems = make_testset(31, 1, 2, seed=5)
    monkeypatch.setattr(sig, "MAX_TEST_CELLS", 30_000)
    fits = _tsv(tmp_path / "fits.tsv", [refs[0][:30]], [(n, x[:30]) for n, x in systems])
    rc, out, err = run(["--system", fits, "--paired-bs"], capsys)
    assert rc == 0, err
    over = _tsv(tmp_path / "over.tsv", refs, systems)
    monkeypatch.setattr(ccli, "statistics_feeder", lambda *a: pytest.fail("scored before refusing"))
    rc, out, err = run(["--system", over, "--paired-bs"], capsys)
    assert rc == 2 and "1,000 resamples x 31 segments" in err and "limit of 30,000" in err


def test_one_tsv_bytes_refused_before_reading_and_texts_once_read(tmp_path, monkeypatch, capsys):
    import explainer.cli.compare as ccli

    refs, systems = make_testset(40, 2, 3, seed=6)
    tsv = _tsv(tmp_path / "t.tsv", refs, systems)
    size = (tmp_path / "t.tsv").stat().st_size
    monkeypatch.setattr(ccli, "STRUCTURED_MAX_BYTES", size - 1)
    monkeypatch.setattr(ccli, "read_structured", lambda *a: pytest.fail("read before refusing"))
    rc, out, err = run(["--system", tsv], capsys)
    assert rc == 2 and f"{size:,} bytes" in err and f"limit of {size - 1:,}" in err and "plain files" in err
    monkeypatch.undo()
    monkeypatch.setattr(ccli, "STRUCTURED_MAX_TEXTS", 40 * 5 - 1)        # 40 segments x (3 systems + 2 refs)
    monkeypatch.setattr(ccli, "statistics_feeder", lambda *a: pytest.fail("scored before refusing"))
    rc, out, err = run(["--system", tsv], capsys)
    assert rc == 2 and "200 texts" in err and "limit of 199" in err
