"""`compare` with test sets as WMT releases them (issue 19): released file names become short names, sacreBLEU's
language pair (-l) picks the tokenizer, and CJK text scored with a tokenizer that does not split it is warned
about. Every number is sacreBLEU's, computed here."""
from __future__ import annotations

import json

import pytest
from sacrebleu.metrics import BLEU

from explainer.cli import main
from explainer.corpus.langpair import cjk_warning, parse_language_pair, tokenizer_for
from explainer.errors import ExplainerInputError
from tests.corpus_data import make_testset


def run(argv, capsys):
    try:
        rc = main(["compare"] + argv)
    except SystemExit as e:
        rc = e.code
    out, err = capsys.readouterr()
    return rc, out, err


def _write(tmp_path, refs, systems, pair="en-zh"):
    trg = pair.split("-")[1]
    ref_paths, sys_paths = [], []
    for k, r in zip("AB", refs):
        p = tmp_path / f"generaltest2022.{pair}.ref.{k}.{trg}"
        p.write_text("\n".join(r) + "\n", encoding="utf-8")
        ref_paths.append(str(p))
    for n, lines in systems:
        p = tmp_path / f"generaltest2022.{pair}.hyp.{n}.{trg}"
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        sys_paths.append(str(p))
    return ref_paths, sys_paths


def test_language_pair_picks_sacrebleus_tokenizer_and_released_names_are_short(tmp_path, capsys):
    refs, systems = make_testset(300, 2, 3, lang="zh", seed=5)
    ref_paths, sys_paths = _write(tmp_path, refs, [(f"Online-{c}", lines) for c, (_, lines) in zip("ABG", systems)])
    argv = sum((["--ref", p] for p in ref_paths), []) + sum((["--system", p] for p in sys_paths), [])
    rc, out, err = run(argv + ["-l", "en-zh"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert [s["name"] for s in got["systems"]] == ["Online-A", "Online-B", "Online-G"]
    for s, (_, lines) in zip(got["systems"], systems):
        m = BLEU(trg_lang="zh")               # sacreBLEU's -l en-zh
        assert s["score"] == m.corpus_score(lines, refs).score
    assert "tok:zh" in got["signature"] and got["warnings"] == []
    # without -l: 13a, and a warning that says why the score is low
    rc, out, err = run(argv, capsys)
    got = json.loads(out)
    assert got["systems"][0]["score"] == BLEU().corpus_score(systems[0][1], refs).score
    assert any("does not split them" in w and "en-zh" in w for w in got["warnings"]), got["warnings"]
    # an explicit tokenizer wins, as in sacreBLEU, with its warning
    rc, out, err = run(argv + ["-l", "en-zh", "--tokenize", "char"], capsys)
    got = json.loads(out)
    assert got["systems"][0]["score"] == BLEU(trg_lang="zh", tokenize="char").corpus_score(systems[0][1], refs).score
    assert any("sacreBLEU would use zh" in w for w in got["warnings"])


def test_language_pair_table_is_sacrebleus():
    for trg in ("zh", "ja", "ko", "de", "en", "fr"):
        assert tokenizer_for(trg) == BLEU._TOKENIZER_MAP.get(trg, "13a")
    assert parse_language_pair("en-zh").tokenizer == "zh"
    with pytest.raises(ExplainerInputError, match="source-target"):
        parse_language_pair("english to german")
    assert cjk_warning(["Ein Satz auf Deutsch."], "13a") is None
    assert cjk_warning(["这是一个句子。"], "zh") is None
    assert "13a tokenizer does not split" in cjk_warning(["这是一个句子。"], "13a")


def test_language_pair_japanese_and_korean_take_sacrebleus_mecab_tokenizers(tmp_path, capsys):
    """-l en-ja / en-ko: sacreBLEU's own table picks ja-mecab / ko-mecab (installed with the MeCab dialects), and
    the score is sacreBLEU's with that tokenizer."""
    refs = [["今日は良い天気です。", "猫がマットの上に座った。", "東京は日本の首都です。"]]
    systems = [("Online-B", ["今日はいい天気です。", "猫はマットに座った。", "東京は日本の首都。"])]
    ref_paths, sys_paths = _write(tmp_path, refs, systems, pair="en-ja")
    rc, out, err = run(["--ref", ref_paths[0], "--system", sys_paths[0], "-l", "en-ja"], capsys)
    assert rc == 0, err
    res = json.loads(out)
    want = BLEU(tokenize="ja-mecab").corpus_score(systems[0][1], refs)
    assert res["systems"][0]["score"] == pytest.approx(want.score, abs=1e-9) and "tok:ja-mecab" in res["signature"]


def test_language_pair_refusals_say_what_to_do(tmp_path, capsys):
    refs, systems = make_testset(20, 1, 1, seed=1)
    ref_paths, sys_paths = _write(tmp_path, refs, systems, pair="en-de")
    rc, out, err = run(["--ref", ref_paths[0], "--system", sys_paths[0], "-l", "en-de", "--metric", "rouge"], capsys)
    assert rc != 0 and "needs a metric whose dialect has a tokenize option (--metric bleu, dialect sacrebleu)" in err


def test_segment_csv_carries_the_texts(tmp_path, capsys):
    import csv

    refs, systems = make_testset(80, 2, 2, seed=71)
    systems[0][1][3] = "=HYPERLINK(\"x\") a formula"          # a spreadsheet must not run it
    ref_paths, sys_paths = _write(tmp_path, refs, systems, pair="en-de")
    argv = sum((["--ref", p] for p in ref_paths), []) + sum((["--system", p] for p in sys_paths), [])
    csv_path = tmp_path / "seg.csv"
    rc, out, err = run(argv + ["--segments", str(csv_path)], capsys)
    assert rc == 0, err
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8")))
    names = [s["name"] for s in json.loads(out)["systems"]]
    for k in (0, 3, 79):
        assert rows[k]["reference 1"] == refs[0][k] and rows[k]["reference 2"] == refs[1][k]
        for n, (_, lines) in zip(names, systems):
            want = lines[k]
            assert rows[k][f"{n} | text"] == ("'" + want if want.startswith("=") else want)
    csv2 = tmp_path / "seg2.csv"
    rc, _, err = run(argv + ["--segments", str(csv2), "--report", str(tmp_path / "r.json")], capsys)
    assert csv2.read_bytes() == csv_path.read_bytes()      # streamed texts = the report's texts


def test_compare_reads_json_lines_and_tsv_by_content(tmp_path, capsys):
    """Any file name: JSON Lines systems carry their references (no --ref), a TSV file its columns; the output
    says what was detected; the scores are sacreBLEU's."""
    refs, systems = make_testset(60, 2, 2, seed=73)
    paths = []
    for n, lines in systems:
        p = tmp_path / f"generaltest2022.en-de.hyp.{n}.de"
        p.write_text("\n".join(json.dumps({"candidate": c, "references": [refs[0][k], refs[1][k]]})
                               for k, c in enumerate(lines)) + "\n", encoding="utf-8")
        paths.append(str(p))
    rc, out, err = run(sum((["--system", p] for p in paths), []) + ["--paired-bs", "--paired-bs-n", "200"], capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert [s["name"] for s in got["systems"]] == [n for n, _ in systems]
    for s, (_, lines) in zip(got["systems"], systems):
        assert s["score"] == BLEU().corpus_score(lines, refs).score
    assert all("JSON Lines" in x for x in got["inputs"]) and got["n_references"] == 2
    tsv = tmp_path / "table.de"
    tsv.write_text("ref\tsys1\tsys2\n" + "".join(f"{refs[0][k]}\t{systems[0][1][k]}\t{systems[1][1][k]}\n"
                                               for k in range(60)), encoding="utf-8")
    rc, out, err = run(["--system", str(tsv)], capsys)
    assert rc == 0, err
    got = json.loads(out)
    assert [s["name"] for s in got["systems"]] == ["sys1", "sys2"] and "TSV" in got["inputs"][0]
    for s, (_, lines) in zip(got["systems"], systems):
        assert s["score"] == BLEU().corpus_score(lines, [refs[0]]).score
    rc, out, err = run(["--system", paths[0].replace("hyp", "nothing")], capsys)
    assert rc != 0
    plain = tmp_path / "plain.de"
    plain.write_text("a b\n", encoding="utf-8")
    rc, out, err = run(["--system", str(plain)], capsys)
    assert rc != 0 and "give at least one --ref file" in err
