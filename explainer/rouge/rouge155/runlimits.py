"""The limits of one run of ``python -m explainer.rouge.rouge155`` (the drop-in for ``ROUGE-1.5.5.pl``): what it
reads, and the work of its scores over the whole run, checked before any scoring.

* Reading (``read_list``, ``read_summary``): a config (XML) or a ``-z`` file list of at most ``MAX_LIST_BYTES``; a
  summary file is one text, at most ``MAX_SUMMARY_CHARS`` characters (the explainer's limit on one text: its bytes
  decoded as the script reads them, each byte that is not UTF-8 one character); all summaries of a run together at
  most ``MAX_RUN_BYTES``. A file is refused as soon as it passes its limit, without reading the rest
  (``/dev/zero`` is an endless file).
* The run (``check_run_work``): every evaluation (a peer against its models, for each peer with ``-a``) is read
  first; before any of them is scored, the run's evaluations (``MAX_EVALUATIONS``), the sentence pairs its ROUGE-L
  and ROUGE-W compare (``MAX_RUN_SENTENCE_PAIRS``), ROUGE-W's weighted-LCS table cells (``MAX_RUN_W_CELLS``: the
  table is filled in Python) and the skip-bigrams of ROUGE-S / SU (``MAX_RUN_SKIP_BIGRAMS``) are counted. A
  20,000-sentence summary with ``-w 1.2 -a`` took 368 s of CPU before these limits.
"""
from __future__ import annotations

from typing import Sequence

from explainer import inputs
from explainer.rouge.skipgram import skip_bigram_count
from explainer.text import MAX_INPUT_CHARS

__all__ = ["MAX_LIST_BYTES", "MAX_SUMMARY_CHARS", "MAX_RUN_BYTES", "MAX_EVALUATIONS", "MAX_RUN_SENTENCE_PAIRS",
           "MAX_RUN_W_CELLS", "MAX_RUN_SKIP_BIGRAMS", "RunReader", "read_list", "check_evaluations", "check_run_work"]

#: bytes of a config (XML) or of a -z file list
MAX_LIST_BYTES = 10_000_000
#: characters of one summary file (a peer or a model): the limit on one text
MAX_SUMMARY_CHARS = MAX_INPUT_CHARS
#: bytes of all the summary files of a run together
MAX_RUN_BYTES = 100_000_000
#: evaluations of a run (an evaluation's peer against its models; with -a, every peer of every evaluation): 2,000
#: evaluations of one 30-word sentence with -w took ~5 s of CPU (busy machine), bootstrap included
MAX_EVALUATIONS = 20_000
#: (model sentence, peer sentence) pairs compared by ROUGE-L and ROUGE-W over the run
MAX_RUN_SENTENCE_PAIRS = 5_000_000
#: ROUGE-W's weighted-LCS table cells (model sentence tokens x peer sentence tokens) over the run
MAX_RUN_W_CELLS = 50_000_000
#: skip-bigrams of ROUGE-S / SU over the run (each evaluation counts its peer's and every model's)
MAX_RUN_SKIP_BIGRAMS = 100_000_000


def read_list(path) -> bytes:
    """A config or a -z file list, refused past ``MAX_LIST_BYTES``."""
    return inputs.read_bytes(str(path), MAX_LIST_BYTES, "config or file list")


class RunReader:
    """Reads a run's summary files: each within ``MAX_SUMMARY_CHARS`` characters, all within ``MAX_RUN_BYTES``."""

    def __init__(self) -> None:
        self.bytes = 0

    def read_summary(self, path) -> bytes:
        # a character is at most 4 bytes: never more is read; the characters are counted as the script decodes
        over = f"over the limit of {MAX_SUMMARY_CHARS:,} per summary file (explainer.text.MAX_INPUT_CHARS)"
        data = inputs.read_bytes(str(path), 4 * MAX_SUMMARY_CHARS + 4,
                                 refusal=f"{path}: more than {MAX_SUMMARY_CHARS:,} characters, {over}")
        n = len(data.decode("utf-8", "surrogateescape"))
        if n > MAX_SUMMARY_CHARS:
            raise ValueError(f"{path}: {n:,} characters, {over}")
        self.bytes += len(data)
        if self.bytes > MAX_RUN_BYTES:
            raise ValueError(f"the summary files of this run have more than {MAX_RUN_BYTES:,} bytes together, over "
                             "the limit (explainer.rouge.rouge155.runlimits.MAX_RUN_BYTES); split the run")
        return data


def _pairs_and_cells(model: Sequence[Sequence[str]], peer: Sequence[Sequence[str]]) -> tuple[int, int]:
    m = [s for s in model if s]
    p = [s for s in peer if s]
    return len(m) * len(p), sum(map(len, m)) * sum(map(len, p))


def check_evaluations(n: int) -> None:
    """Refuse a run of more than ``MAX_EVALUATIONS`` evaluations, from the config, before reading a summary."""
    if n > MAX_EVALUATIONS:
        raise ValueError(f"{n:,} evaluations (peers x evaluations), over the limit of {MAX_EVALUATIONS:,} per run "
                         "(explainer.rouge.rouge155.runlimits.MAX_EVALUATIONS); split the run")


def check_run_work(evals: Sequence[tuple], opts) -> None:
    """Refuse a run over its limits before any scoring. ``evals``: (key, peer PerlText, model PerlTexts)."""
    check_evaluations(len(evals))
    lcs = opts.rouge_l or opts.w is not None
    skip = opts.skip if opts.skip_names() else None
    pairs = w_cells = bigrams = 0
    for _, peer, models in evals:
        ps = peer.lcs_sequences if lcs else []
        for model in models:
            if lcs:
                n_pairs, cells = _pairs_and_cells(model.lcs_sequences, ps)
                pairs += n_pairs * (bool(opts.rouge_l) + (opts.w is not None))
                w_cells += cells if opts.w is not None else 0
            if opts.skip_names():
                gap = None if skip < 0 else skip
                bigrams += skip_bigram_count(len(model.tokens), gap) + skip_bigram_count(len(peer.tokens), gap)
    for count, limit, name, what in (
            (pairs, MAX_RUN_SENTENCE_PAIRS, "MAX_RUN_SENTENCE_PAIRS", "(model sentence, peer sentence) pairs for "
                                                                      "ROUGE-L / ROUGE-W"),
            (w_cells, MAX_RUN_W_CELLS, "MAX_RUN_W_CELLS", "ROUGE-W table cells (-w)"),
            (bigrams, MAX_RUN_SKIP_BIGRAMS, "MAX_RUN_SKIP_BIGRAMS", "skip-bigrams (-2)")):
        if count > limit:
            raise ValueError(f"this run needs {count:,} {what}, over the limit of {limit:,} per run "
                             f"(explainer.rouge.rouge155.runlimits.{name}); split the run or use shorter summaries")
