"""Corpus mode at WMT sizes (issue 19): upload -> scores, sacreBLEU's default paired tests, 20,000 segments.

1. Upload -> scores: 3 systems + 2 references as the page reads them (``corpus_page.testset_from_uploads``:
   content detection, display names) and scores them (``bleu_report``, the page's report), against sacreBLEU
   reading the same lines and scoring the 3 systems (``BLEU().corpus_score``), same run, median of R.
2. Paired bootstrap (1,000) and approximate randomization (10,000) on 2,037 x 3: ``paired_test`` on the
   report's statistics against ``sacrebleu.significance.PairedTest(...)()`` (p-values checked equal first).
3. 20,000 segments x 3 systems (the WMT set repeated): upload -> scores, BS 1,000, AR 10,000 (ours; sacreBLEU's
   PairedTest on the same for the ratio unless --no-sacre-big).
4. 20,000 segments x 10 systems (ours only): upload -> scores, BS 1,000, AR 10,000.

Data: ``--wmt DIR`` with WMT22's ``generaltest2022.en-de.*`` files (github.com/wmt-conference/wmt22-news-systems,
``txt/``); without it, generated data of the same shape (tests/corpus_data.py). Nothing is read at run time
from outside the repository unless given.

Usage: ``python bench/bench_corpus_wmt.py [--wmt DIR] [--repeat R] [--no-sacre-big] [--ten-only]``
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SYSTEMS = ("Online-B", "OpenNMT", "PROMT")


def load(wmt: str | None, S: int = 2037):
    if wmt:
        d = Path(wmt)
        refs = [(f"generaltest2022.en-de.ref.{k}.de", (d / f"generaltest2022.en-de.ref.{k}.de").read_bytes())
                for k in "AB"]
        syss = [(f"generaltest2022.en-de.hyp.{n}.de", (d / f"generaltest2022.en-de.hyp.{n}.de").read_bytes())
                for n in SYSTEMS]
        return syss, refs, "WMT22 en-de (generaltest2022)"
    from tests.corpus_data import make_testset

    r, s = make_testset(S, 2, 3, seed=2037)
    enc = lambda lines: ("\n".join(lines) + "\n").encode("utf-8")  # noqa: E731
    return ([(f"generaltest2022.en-de.hyp.{n}.de", enc(lines)) for n, (_, lines) in zip(SYSTEMS, s)],
            [(f"generaltest2022.en-de.ref.{k}.de", enc(x)) for k, x in zip("AB", r)], "generated, WMT-shaped")


def repeat_to(files, S: int):
    out = []
    for name, data in files:
        lines = data.decode("utf-8").splitlines()
        reps = (lines * (S // len(lines) + 1))[:S]
        out.append((name, ("\n".join(reps) + "\n").encode("utf-8")))
    return out


def timed(fn, repeat: int):
    ts, val = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        val = fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), val


def ours_scores(syss, refs):
    from explainer.corpus.report import bleu_report
    from explainer.ui.corpus.testset import testset_from_uploads

    ts = testset_from_uploads(syss, refs)
    return bleu_report(ts, keep_refs=False)


def sacre_scores(syss, refs):
    from sacrebleu.metrics import BLEU

    streams = [d.decode("utf-8").splitlines() for _, d in refs]
    m = BLEU()
    return [m.corpus_score(d.decode("utf-8").splitlines(), streams).score for _, d in syss]


def sacre_paired(syss, refs, test: str, n: int):
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    streams = [d.decode("utf-8").splitlines() for _, d in refs]
    named = [(name, d.decode("utf-8").splitlines()) for name, d in syss]
    return PairedTest(named, {"BLEU": BLEU(references=streams)}, None, test_type=test, n_samples=n)()[1]["BLEU"]


def ours_paired(rep, test: str, n: int):
    from explainer.corpus.significance import paired_test

    return paired_test([(s.name, rep.statistic(j)) for j, s in enumerate(rep.systems)], test=test, n_samples=n)


def block(syss, refs, label, repeat, sacre_tests=True):
    t_ours, rep = timed(lambda: ours_scores(syss, refs), repeat)
    t_sacre, want = timed(lambda: sacre_scores(syss, refs), repeat)
    assert [s.score for s in rep.systems] == want, "scores differ from sacreBLEU's"
    S = rep.n_segments
    print(f"\n{label}: {S:,} segments x {len(syss)} systems x {len(refs)} references")
    print(f"  upload -> scores   ours {t_ours:7.2f} s   sacreBLEU corpus_score {t_sacre:7.2f} s   "
          f"ratio {t_ours / t_sacre:.2f}x")
    for test, n in (("bs", 1000), ("ar", 10000)):
        t_o, mine = timed(lambda test=test, n=n: ours_paired(rep, test, n), 1 if S > 5000 else repeat)
        line = f"  {test.upper()} {n:>6,}         ours {t_o:7.2f} s"
        if sacre_tests:
            t_s, theirs = timed(lambda test=test, n=n: sacre_paired(syss, refs, test, n), 1)
            assert [x.p_value for x in mine.systems] == [x.p_value for x in theirs], "p-values differ"
            line += f"   sacreBLEU PairedTest {t_s:7.2f} s   ratio {t_o / t_s:.2f}x   (p-values equal)"
        print(line)


def block_ten(wmt: str | None, S: int) -> None:
    """sacreBLEU's defaults on S segments x 10 systems (the page's and the CLI's stated size): the WMT22 en-de
    systems (9, the 10th is the first again under another name) or generated ones, repeated to S segments."""
    from explainer.corpus.report import bleu_report
    from explainer.ui.corpus.testset import testset_from_uploads

    if wmt:
        d = Path(wmt)
        files = sorted(d.glob("generaltest2022.en-de.hyp.*.de"))[:10]
        syss = [(f.name, f.read_bytes()) for f in files]
        if len(syss) < 10:
            syss.append(("generaltest2022.en-de.hyp.copy.de", syss[0][1]))
        refs = [(f"generaltest2022.en-de.ref.{k}.de", (d / f"generaltest2022.en-de.ref.{k}.de").read_bytes())
                for k in "AB"]
    else:
        from tests.corpus_data import make_testset

        r, s = make_testset(2037, 2, 10, seed=10)
        syss = [(f"sys{k}.de", ("\n".join(lines) + "\n").encode()) for k, (_, lines) in enumerate(s)]
        refs = [(f"ref.{k}.de", ("\n".join(x) + "\n").encode()) for k, x in zip("AB", r)]
    syss, refs = repeat_to(syss, S), repeat_to(refs, S)
    t0 = time.perf_counter()
    rep = bleu_report(testset_from_uploads(syss, refs), keep_refs=False)
    t_scores = time.perf_counter() - t0
    print(f"\n{S:,} segments x {len(syss)} systems x 2 references (ours only)")
    print(f"  upload -> scores   {t_scores:7.2f} s")
    for test, n in (("bs", 1000), ("ar", 10000)):
        t, _ = timed(lambda test=test, n=n: ours_paired(rep, test, n), 1)
        print(f"  {test.upper()} {n:>6,}         {t:7.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wmt", default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--big", type=int, default=20_000)
    ap.add_argument("--no-sacre-big", action="store_true")
    ap.add_argument("--ten-only", action="store_true", help="only the 20,000 x 10 systems block")
    a = ap.parse_args()
    if a.ten_only:
        block_ten(a.wmt, a.big)
        return
    syss, refs, label = load(a.wmt)
    block(syss, refs, label, a.repeat)
    block(repeat_to(syss, a.big), repeat_to(refs, a.big), label + f", repeated to {a.big:,}", 1,
          sacre_tests=not a.no_sacre_big)
    block_ten(a.wmt, a.big)


if __name__ == "__main__":
    main()
