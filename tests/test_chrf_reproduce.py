"""`reproduce` with a claim that names chrF: searched in chrF's own space (sacreBLEU CHRF and NLTK chrf_score),
the values computed here by the real libraries; every match's command prints the claimed number."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from nltk.translate.chrf_score import sentence_chrf
from sacrebleu.metrics import CHRF

from explainer.cli import main
from explainer.dialectcmp.claim import parse_claim
from explainer.dialectcmp.reproduction import reproduce
from explainer.errors import ExplainerInputError

H = "It is a guide to action which ensures that the military always obeys the commands of the party."
R = ["It is a guide to action that ensures that the military will forever heed Party commands.",
     "It is the guiding principle which guarantees the military forces always being under the command of the Party."]


def test_claim_names_chrf():
    c = parse_claim("chrF++ = 55.2")
    assert (c.family, c.chrf_word_order, c.chrf_beta, float(c.value), c.decimals) == ("chrf", 2, None, 55.2, 1)
    c = parse_claim("chrF3 41.07")
    assert (c.family, c.chrf_word_order, c.chrf_beta) == ("chrf", None, 3)
    assert parse_claim("41.07", metric="chrf").family == "chrf"
    with pytest.raises(ExplainerInputError, match="both chrF and BLEU"):
        parse_claim("BLEU chrF 41.0")
    with pytest.raises(ExplainerInputError, match="--metric is bleu"):
        parse_claim("chrF 41.0", metric="bleu")


@pytest.mark.parametrize("opts,claim_name", [({}, "chrF"), ({"word_order": 2}, "chrF++"),
                                             ({"word_order": 2, "lowercase": True}, "chrF++"),
                                             ({"eps_smoothing": True}, "chrF2")])
def test_sacrebleu_values_are_reproduced(opts, claim_name):
    v = CHRF(**opts).sentence_score(H, R).score
    res = reproduce(H, R, f"{claim_name} {v:.2f}")
    assert res.verdict == "reproduced", res.message
    assert any(m.config.dialect == "sacrebleu" and {k: x for k, x in m.config.opts.items()} == opts
               and m.references == [0, 1] for m in res.matches)
    # the simplest match's command prints the claimed number
    m = res.matches[0]
    out = subprocess.run([sys.executable, "-m", "explainer"] + m.argv, input=m.stdin + "\n", capture_output=True,
                         text=True, check=True).stdout
    assert f"{json.loads(out)['native_score']:.2f}" == f"{v:.2f}" or m.form != "as printed"


def test_nltk_value_is_reproduced_on_a_single_reference():
    v = sentence_chrf(R[1], H)
    res = reproduce(H, R, f"chrF = {v:.4f}")
    assert res.verdict == "reproduced"
    assert any(m.config.dialect == "nltk" and m.references == [1] and m.form == "as printed" for m in res.matches)


def test_a_chrf_claim_is_never_matched_by_bleu_or_rouge():
    res = reproduce(H, R, "chrF 12.34")
    assert res.verdict == "unreproducible"
    assert all(m.config.family == "chrf" for m in res.nearest)


def test_cli_reproduce_metric_chrf(capsys):
    v = CHRF(word_order=2).sentence_score(H, R).score
    rc = main(["reproduce", "--candidate", H, "--ref", R[0], "--ref", R[1], "--claim", f"{v:.3f}",
               "--metric", "chrf"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["verdict"] == "reproduced"
    assert d["matches"][0]["argv"][:1] == ["chrf"]


def _news():
    from explainer.corpus.samples import HERE, SAMPLES

    d = HERE / "news-en"
    read = lambda f: (d / f).read_text(encoding="utf-8").rstrip("\n").split("\n")   # noqa: E731
    streams = [read(f) for f in SAMPLES["news-en"].references]
    return read(SAMPLES["news-en"].systems[0]), streams


def test_corpus_search_values_are_the_libraries_corpus_scores():
    """The corpus search (shared statistics per counting key) gives sacreBLEU's corpus_score and NLTK's corpus_chrf
    for every configuration and reference subset; a published corpus chrF++ is found."""
    from nltk.translate.chrf_score import corpus_chrf

    from explainer.chrf import get_dialect
    from explainer.dialectcmp.chrf_space import _corpus_score, chrf_space, corpus_vectors, search_chrf_corpus
    from explainer.dialectcmp.reproduction import _Collector, reference_subsets

    hyps, streams = _news()
    hyps, streams = hyps[:60], [s[:60] for s in streams]
    per_seg = [list(x) for x in zip(*streams)]
    subsets = reference_subsets(2)
    seen = set()
    for sc in chrf_space():
        d = get_dialect(sc.dialect, **sc.config.opts)
        if d.counting_key() in seen and sc.config.opts.get("beta") is None:
            continue
        seen.add(d.counting_key())
        vec = corpus_vectors(d, hyps, per_seg, subsets)
        for subset, _, _ in subsets:
            got = _corpus_score(d, vec[tuple(subset)])
            if d.scale == 100.0:
                want = CHRF(**sc.config.opts).corpus_score(hyps, [streams[k] for k in subset]).score
            else:
                joined = [" ".join(rs[k] for k in subset) for rs in per_seg]
                want = corpus_chrf(joined, hyps, **sc.config.opts)
            assert abs(got - want) <= 1e-9, (sc.config, subset, got, want)
    v = CHRF(word_order=2).corpus_score(hyps, streams).score
    cl = parse_claim(f"chrF++ {v:.2f}")
    class CorpusCollector(_Collector):
        def _stdin(self, cand, refs, subset) -> str:     # a corpus match is a --hyp/--ref command, no stdin
            return ""

    col = CorpusCollector(cl, "", [])
    search_chrf_corpus(col, cl, hyps, per_seg, subsets)
    assert any(m.references == [0, 1] and m.config.opts == {"word_order": 2} for m in col.matches.values())


def test_a_published_corpus_chrf_is_reproduced_from_the_files(tmp_path, capsys):
    """`reproduce --hyp SYSTEM --ref R1 --ref R2 --claim 'chrF++ X'`: the value sacreBLEU's corpus_score prints (and
    NLTK's corpus_chrf on one reference) is found, and each match's own command prints it at its value_path."""
    from nltk.translate.chrf_score import corpus_chrf

    hyps, streams = _news()
    paths = []
    for name, lines in (("hyp.txt", hyps), ("ref1.txt", streams[0]), ("ref2.txt", streams[1])):
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(tmp_path / name))
    v = CHRF(word_order=2).corpus_score(hyps, streams).score
    rc = main(["reproduce", "--hyp", paths[0], "--ref", paths[1], "--ref", paths[2], "--claim", f"chrF++ {v:.2f}"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and d["verdict"] == "reproduced", d["message"]
    m = d["matches"][0]
    assert m["dialect"] == "sacrebleu" and m["options"] == {"word_order": 2} and m["references"] == [0, 1]
    assert main(m["argv"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert f"{out[m['value_path'][0]]:.2f}" == f"{v:.2f}"
    w = corpus_chrf(streams[1], hyps)
    rc = main(["reproduce", "--hyp", paths[0], "--ref", paths[1], "--ref", paths[2], "--claim", f"chrF {w:.4f}"])
    d = json.loads(capsys.readouterr().out)
    assert any(x["dialect"] == "nltk" and x["references"] == [1] for x in d["matches"]), d["message"]
