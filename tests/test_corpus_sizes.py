"""Sizes (issue 19, item 4): one full WMT test set with its references works on the page and in the CLI, and
every refusal says what to do instead."""
from __future__ import annotations

import pytest

from explainer.corpus.testset import TestSetError
from explainer.dialectcmp.limits import check_corpus
from explainer.errors import ExplainerInputError
from explainer.ui.corpus import common as corpus_common
from explainer.ui.corpus import dialects as corpus_dialects
from explainer.ui.corpus import testset as corpus_page


def _wmt_like(S=2037, chars=113):
    """generaltest2022 en-de's shape: 2,037 segments, a system and two references of ~113 characters each."""
    line = ("x" * (chars - 1)) + "."
    return [line] * S, [[line, line] for _ in range(S)]


def test_a_full_wmt_test_set_fits_the_corpus_comparison():
    cands, refs = _wmt_like()
    assert sum(map(len, cands)) + sum(len(r) for rs in refs for r in rs) > 690_000
    check_corpus(cands, refs)                                    # refused before: 2,000 segments / 400k characters
    check_corpus(*_wmt_like(3004, 150))                          # newstest2014/2017's 3,003/3,004 segments
    assert corpus_dialects.PAGE_MAX_SEGMENTS >= 3004             # the page's side-by-side: 1,000 before
    with pytest.raises(ExplainerInputError, match="compare a part of the test set"):
        check_corpus(*_wmt_like(4000, 20))


def test_the_page_opens_20000_segments_and_says_where_to_go_beyond():
    assert corpus_common.PAGE_MAX_SEGMENTS == 20_000 and corpus_common.PAGE_MAX_SYSTEMS == 20
    lines = b"a b c\n" * 20_000
    ts = corpus_page.testset_from_uploads([("sys.de", lines)], [("ref.de", lines)])
    assert ts.n_segments == 20_000
    with pytest.raises(TestSetError, match=r"20,001 segments, over the limit of 20,000; the command line"):
        corpus_page.testset_from_uploads([("sys.de", lines + b"x\n")], [("ref.de", lines + b"x\n")])
    with pytest.raises(TestSetError, match="the command line `python -m explainer compare` takes larger"):
        corpus_page.testset_from_uploads([("sys.de", b"x" * (corpus_common.PAGE_MAX_BYTES + 1))], [])
