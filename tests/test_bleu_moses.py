"""Moses dialects (multi-bleu.perl, multi-bleu-detok.perl, mteval-v13a.pl) against every golden record.

The Perl scripts cannot run here; tests/data/golden/bleu/{multi_bleu,mteval}.jsonl.gz record what they print
(and, from a %.17g copy, full precision). Every record is checked and counted: a record that is skipped
or not matched fails the test. Tolerances: printed values compared as the
printed string, full-precision values to 1e-9, counts and lengths exact, deaths by exception class (and
here also by the full message).
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import golden
from explainer.bleu import moses as M

TOL = 1e-9

# the records of each golden file: segment ok + segment error + corpus
EXPECTED_RECORDS = {"bleu/multi_bleu.jsonl": 1188 + 81 + 18, "bleu/mteval.jsonl": 1998 + 117 + 30}


def _inputs(rec):
    if rec["level"] == "segment":
        return [rec["candidate"]], [rec["references"]]
    return rec["candidates"], rec["references"]


def _close(a, b):
    return a is not None and b is not None and math.isclose(a, b, rel_tol=0.0, abs_tol=TOL)


def _check_multibleu(rec) -> list:
    cands, refs = _inputs(rec)
    opts = rec["options"]
    out = M.run_multibleu(cands, refs, script=opts["script"], lowercase="-lc" in opts["flags"])
    s, g = out["result"], rec["result"]
    errs = []
    if rec["status"] == "error":
        if s.death is None:
            return ["the script dies but we computed a score"]
        if s.death.error.split(":")[0] != rec["error"].split(":")[0]:
            errs.append(("error class", s.death.error, rec["error"]))
        if s.death.error != rec["error"]:
            errs.append(("error message", s.death.error, rec["error"]))
        if s.returncode != g["returncode"]:
            errs.append(("returncode", s.returncode, g["returncode"]))
        return errs
    if s.death is not None:
        return [("unexpected death", s.death.error)]
    if s.printed != g["printed"]:
        errs.append(("printed", s.printed, g["printed"]))
    if s.returncode != g["returncode"]:
        errs.append(("returncode", s.returncode, g["returncode"]))
    if s.matches != g["matches"] or s.totals != g["totals"]:
        errs.append(("counts", s.matches, s.totals, g["matches"], g["totals"]))
    fp = g["full_precision"]
    if s.returncode == 0:  # the ref_len = 0 line carries no computed numbers
        if (s.hyp_len, s.ref_len) != (g["hyp_len"], g["ref_len"]):
            errs.append(("lengths", s.hyp_len, s.ref_len, g["hyp_len"], g["ref_len"]))
        if not _close(s.score, fp["score"]):
            errs.append(("score", s.score, fp["score"]))
        if not all(_close(100 * p, q) for p, q in zip(s.precisions, fp["precisions"])):
            errs.append(("precisions", s.precisions, fp["precisions"]))
        if not (_close(s.bp, fp["bp"]) and _close(s.ratio, fp["ratio"])):
            errs.append(("bp/ratio", s.bp, s.ratio, fp["bp"], fp["ratio"]))
        # the parsed printed values, half a unit of the last printed digit
        if abs(round(s.score, 2) - g["score"]) > 0.005 + 1e-12:
            errs.append(("printed score", s.score, g["score"]))
    else:
        for k in ("score", "bp", "ratio"):
            if getattr(s, k) != g[k]:
                errs.append((k, getattr(s, k), g[k]))
    return errs


def _check_mteval(rec) -> list:
    cands, refs = _inputs(rec)
    o = rec["options"]
    out = M.run_mteval(cands, refs, preserve_case=not o["lowercase"], smoothing=o["smoothing"],
                       international=o["tokenization"] == "international")
    s, g = out["result"], rec["result"]
    errs = []
    if rec["status"] == "error":
        if s.death is None:
            return ["the script dies but we computed a score"]
        if s.death.error != rec["error"]:
            errs.append(("error", s.death.error, rec["error"]))
        return errs
    if s.death is not None:
        return [("unexpected death", s.death.error)]
    if M.mteval_printed(s.score) != g["printed"]:
        errs.append(("printed", M.mteval_printed(s.score), g["printed"]))
    if s.matches != g["matches"] or s.totals != g["totals"]:
        errs.append(("counts", s.matches, s.totals, g["matches"], g["totals"]))
    if out["ref_ngram_counts"] != g["ref_ngram_counts"]:
        errs.append(("ref_ngram_counts", out["ref_ngram_counts"], g["ref_ngram_counts"]))
    fp = g["full_precision"]
    if not _close(s.score, fp["score"]):
        errs.append(("score", s.score, fp["score"]))
    if not all(_close(a, b) for a, b in zip(s.individual, fp["individual_precisions_1to4"], strict=True)):
        errs.append(("individual", s.individual, fp["individual_precisions_1to4"]))
    if not all(_close(a, b) for a, b in zip(s.cumulative, fp["cumulative_bleu_1to4"], strict=True)):
        errs.append(("cumulative", s.cumulative, fp["cumulative_bleu_1to4"]))
    if len(out["segments"]) != len(fp["segment_scores"]) or not all(
            _close(a.score, b) for a, b in zip(out["segments"], fp["segment_scores"])):
        errs.append(("segment scores", [x.score for x in out["segments"]], fp["segment_scores"]))
    if ["%.4f" % x.score for x in out["segments"]] != ["%.4f" % x for x in g["segment_scores"]]:
        errs.append(("printed segment scores", g["segment_scores"]))
    if g["sys_len"] is not None:  # the 'length ratio' line is printed only by the smoothed scorer
        if (s.sys_len, s.ref_len) != (g["sys_len"], g["ref_len"]):
            errs.append(("lengths", s.sys_len, s.ref_len, g["sys_len"], g["ref_len"]))
        if not (_close(s.bp_log, fp["bp_log"]) and _close(s.length_ratio, fp["length_ratio"])):
            errs.append(("bp_log/ratio", s.bp_log, s.length_ratio, fp["bp_log"], fp["length_ratio"]))
        if not _close(s.bp, g["bp"]):
            errs.append(("bp", s.bp, g["bp"]))
    return errs


@pytest.mark.parametrize("path,check", [("bleu/multi_bleu.jsonl", _check_multibleu),
                                        ("bleu/mteval.jsonl", _check_mteval)])
def test_every_golden_record(path, check):
    records = golden(path)
    checked = 0
    failures = []
    by_status = {"ok": 0, "error": 0}
    for rec in records:
        errs = check(rec)
        checked += 1
        by_status[rec["status"]] += 1
        if errs:
            failures.append((rec["case_id"], rec["level"], rec["options"], errs))
    assert not failures, f"{len(failures)} of {checked} records differ; first: {failures[:3]}"
    assert checked == len(records) == EXPECTED_RECORDS[path]
    assert by_status["error"] > 0 and by_status["ok"] > 0


def test_golden_covers_every_option_set():
    """The records exercise every flag set the dialects expose (so a regression cannot hide)."""
    mb = {(r["options"]["script"], tuple(r["options"]["flags"]), r["level"]) for r in golden("bleu/multi_bleu.jsonl")}
    assert {("multi-bleu.perl", (), "segment"), ("multi-bleu.perl", ("-lc",), "corpus"),
            ("multi-bleu-detok.perl", (), "corpus")} <= mb
    mt = {(tuple(r["options"]["flags"]), r["level"]) for r in golden("bleu/mteval.jsonl")}
    for flags in [(), ("-c",), ("--no-smoothing",), ("-c", "--no-smoothing"), ("-c", "--international-tokenization")]:
        assert (flags, "segment") in mt and (flags, "corpus") in mt


# ----------------------------------------------------------------------------- tokenization semantics
# Behaviour below is Perl's, checked with perl 5.36 (the golden vectors' interpreter) where it is not in
# the golden set: byte-level split for multi-bleu, Unicode \s for the decoding scripts.

def test_multibleu_split_is_ascii_whitespace_only():
    # NBSP is two UTF-8 bytes, neither of them ASCII whitespace: one token (golden case `nbsp` agrees)
    assert M.multibleu_tokenize("a\u00a0b c\td\x0be\x0cf\rg") == ["a\u00a0b", "c", "d", "e", "f", "g"]
    assert M.multibleu_tokenize("  lead and trail  ") == ["lead", "and", "trail"]
    assert M.multibleu_tokenize("") == [] and M.multibleu_tokenize(" \t ") == []
    # -lc is Perl lc on undecoded bytes: only A-Z change
    assert M.multibleu_tokenize("ÄRGER Straße ÉTÉ", lowercase=True) == ["Ärger", "straße", "ÉtÉ"]


def test_decoding_scripts_do_not_split_on_information_separators():
    """Python's str.split (inside sacreBLEU's tokenizers) splits on \\x1c-\\x1f; Perl's \\s does not."""
    text = "a\x1cb c\x1fd."
    assert M.detok_tokenize(text) == ["a\x1cb", "c\x1fd", "."]
    assert M.mteval_tokenize(text) == ["a\x1cb", "c\x1fd", "."]
    assert M.mteval_tokenize(text, international=True, preserve_case=True) == ["a\x1cb", "c\x1fd", "."]


def test_perl_lc_has_no_final_sigma_rule():
    assert "ΟΔΟΣ".lower() == "οδος"          # Python: context-dependent final sigma
    assert M.perl_lc("ΟΔΟΣ") == "οδοσ"       # Perl lc: always σ
    assert M.perl_lc("İ") == "İ".lower()     # full mapping otherwise, as Perl


def test_mteval_lowercases_after_entities_and_skipped():
    # tr/[A-Z]/[a-z]/ runs after <skipped> removal and entity decoding
    assert M.mteval_tokenize("Hello <SKIPPED> world &QUOT;x&QUOT;") == \
        ["hello", "<", "skipped", ">", "world", "&", "quot", ";", "x", "&", "quot", ";"]
    # ASCII only: Ä stays
    assert M.mteval_tokenize("ÄRGER über") == ["Ärger", "über"]
    assert M.mteval_tokenize("ÄRGER über", preserve_case=True) == ["ÄRGER", "über"]


def test_mteval_reads_text_through_an_escaping_sgml_writer():
    # literal "&amp;" is written "&amp;amp;" and decoded once: it stays "&amp;" -> "& amp ;"
    assert M.mteval_tokenize("Tom &amp; Jerry") == ["tom", "&", "amp", ";", "jerry"]
    # a literal "<skipped>" is written "&lt;skipped&gt;": it is not removed
    assert M.mteval_tokenize("a <skipped> b") == ["a", "<", "skipped", ">", "b"]
    # whitespace (Perl \s, incl. NBSP and newlines) collapses while the SGML is read
    assert M.mteval_tokenize("a\u00a0b\nc-\nd") == ["a", "b", "c-", "d"]


def test_detok_lc_order_differs_between_hypothesis_and_reference():
    assert M.detok_tokenize("X <SKIPPED> Y", lowercase=True) == ["x", "y"]
    assert M.detok_tokenize("X <SKIPPED> Y", lowercase=True, role="reference") == ["x", "<", "skipped", ">", "y"]


# ------------------------------------------------------------------------------------ reference length
def test_multibleu_ref_length_rules():
    assert M.multibleu_ref_length(12, [13, 11])[0] == 11        # tie -> shorter
    assert M.multibleu_ref_length(12, [11, 13])[0] == 11
    assert "tie" in M.multibleu_ref_length(12, [13, 11])[1]
    assert M.multibleu_ref_length(2, [4, 0])[0] == 0
    # the (9999, 9999) start value: a reference more than 9999 tokens away never replaces it
    assert M.multibleu_ref_length(0, [10000])[0] == 9999
    assert M.multibleu_ref_length(0, [9999])[0] == 9999
    assert M.multibleu_ref_length(5, [])[0] == 9999


def test_mteval_ref_length_rules():
    assert M.mteval_ref_length(7, [11, 8, 6, 7])[0] == 7     # the script's own comment example
    assert M.mteval_ref_length(7, [11, 8, 6])[0] == 6
    assert M.mteval_ref_length(12, [13, 11])[0] == 11
    assert M.mteval_ref_length(12, [11, 13], rule="shortest")[0] == 11


# ------------------------------------------------------------------------------- scoring and deaths
def test_multibleu_deaths_and_fixed_line():
    d = M.multibleu_score([0] * 4, [0] * 4, 0, 3)
    assert d.death is not None and d.death.error.startswith("PerlDie: Illegal division by zero")
    assert "hyp_len = 0" in d.death.to_dict()["explanation"]
    z = M.multibleu_score([0, 0, 0, 0], [3, 2, 1, 0], 3, 0)
    assert z.returncode == 1 and z.printed == "BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)"
    # both lengths 0: the ref_len check comes first, so no death
    assert M.multibleu_score([0] * 4, [0] * 4, 0, 0).returncode == 1


def test_mteval_deaths_are_system_level_only():
    s = M.mteval_segment_score([0] * 4, [0] * 4, 3)          # segment level: never dies
    assert s.death is None and s.score == 0
    s = M.mteval_segment_score([0] * 4, [0] * 4, 3, system_level=True)
    assert s.death.message.startswith("Can't take log of 0")
    s = M.mteval_segment_score([1, 0, 0, 0], [3, 2, 1, 0], 0, system_level=True)
    assert s.death.message.startswith("Illegal division by zero")
    # a brevity penalty that underflows to 0 (r > ~746 c) also reaches log(0)
    s = M.mteval_segment_score([1, 0, 0, 0], [1, 0, 0, 0], 800, system_level=True)
    assert s.death is not None and "underflows" in s.death.reason
    # --no-smoothing never dies and gives 0 in both situations
    assert M.mteval_segment_score([0] * 4, [0] * 4, 3, smoothing=False, system_level=True).score == 0
    assert M.mteval_segment_score([1, 0, 0, 0], [3, 2, 1, 0], 0, smoothing=False, system_level=True).score == 0


def test_not_expressible_inputs():
    with pytest.raises(M.NotExpressible, match="no references"):
        M.run_multibleu(["a b"], [[]])
    with pytest.raises(M.NotExpressible, match="refset"):
        M.run_mteval(["a b"], [[]])
    with pytest.raises(M.NotExpressible, match="newline"):
        M.run_multibleu(["a\nb"], [["a b"]])
    with pytest.raises(M.NotExpressible, match="varies"):
        M.run_mteval(["a", "b"], [["a"], ["b", "c"]])
    # mteval reads SGML: a newline inside a segment is whitespace there
    assert M.run_mteval(["a\nb c d"], [["a b c d"]])["result"].score == 1.0


def test_international_rules_use_perl_5_36_unicode_tables():
    """U+1FA77 (Unicode 15) is a symbol for the `regex` module but unassigned for perl 5.36 (Unicode 14):
    the script keeps it attached. Checked with perl 5.36 running tokenization_international."""
    assert M.mteval_tokenize("\U0001fa77a\u200b", international=True, preserve_case=True) == ["\U0001fa77a\u200b"]
    assert M.mteval_tokenize('"$|\U0001fa77\u01c5', international=True) == ['"', "$", "|", "\U0001fa77\u01c6"]
    # an assigned symbol is split off as usual
    assert M.mteval_tokenize("a€b", international=True) == ["a", "€", "b"]


def test_detok_references_go_through_strict_utf8():
    """multi-bleu-detok.perl opens reference files with :encoding(UTF-8), which turns Unicode
    noncharacters into the text of their bytes (perl 5.36); the hypothesis (lax :utf8 STDIN) keeps them."""
    assert M.strict_utf8_read("x\ufdd0y\U0010ffff") == "x\\xEF\\xB7\\x90y\\xF4\\x8F\\xBF\\xBF"
    assert M.strict_utf8_read("x\ufffd\ue000") == "x\ufffd\ue000"
    assert M.detok_tokenize("a\ufdd0") == ["a\ufdd0"]
    assert M.detok_tokenize("a\ufdd0", role="reference") == ["a", "\\", "xEF", "\\", "xB7", "\\", "x90"]


# ------------------------------------------------------------------------------------------ properties
_texts = st.lists(st.sampled_from(list("aAbZ09 .,-'\"&<>;\t\n\u00a0\u2028\x1cÄßΣ€") + ["&amp;", "<skipped>"]),
                  max_size=30).map("".join)


@given(_texts)
def test_multibleu_tokens_are_the_text_without_ascii_whitespace(text):
    toks = M.multibleu_tokenize(text)
    assert "".join(toks) == "".join(ch for ch in text if ch not in " \t\n\r\f\v")
    assert all(t and not any(ch in t for ch in " \t\n\r\f\v") for t in toks)


@given(_texts, st.booleans(), st.booleans())
def test_mteval_tokens_have_no_perl_whitespace(text, pc, intl):
    toks = M.mteval_tokenize(text, preserve_case=pc, international=intl)
    assert all(t and not M.PERL_UNI_WS.search(t) for t in toks)


@given(_texts, st.lists(_texts, min_size=1, max_size=3), st.booleans())
def test_one_segment_corpus_equals_the_segment(cand, refs, smoothing):
    a = M.run_mteval([cand], [refs], smoothing=smoothing)
    assert a["result"].death is None or a["segments"][0].death is None  # segments never die
    if a["result"].death is None:
        assert a["result"].score == a["segments"][0].score
        assert 0.0 <= a["result"].score <= 1.0
    refs_nl = [r for r in refs if "\n" not in r]
    if "\n" not in cand and refs_nl:
        b = M.run_multibleu([cand], [refs_nl])["result"]
        assert b.death is not None or 0.0 <= b.score <= 100.0
