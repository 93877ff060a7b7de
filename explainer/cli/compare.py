"""`python -m explainer compare`: corpus scores of several systems, confidence intervals and paired tests.

    python -m explainer compare --ref R1.txt [--ref R2.txt ...] --system NAME=FILE [--system NAME=FILE ...]
        [--metric bleu|rouge|chrf|ter|…[,…]] [BLEU options as `bleu`: --dialect --tokenize --lowercase --smooth ...]
        [--paired-bs [--paired-bs-n N] | --paired-ar [--paired-ar-n N]] [--confidence [--confidence-n N]]

The first system is the baseline. Prints one JSON object: ``"systems"`` is a list in input order of
``{"name", "score", "p_value", "mean", "ci"}`` (sacreBLEU's ``Result`` fields: ``p_value`` null for the baseline,
``mean``/``ci`` null where sacreBLEU reports none), plus ``"signature"``, ``"test"`` (the test's settings), the
metric's ``"label"``, ``"scale"`` and direction (``"higher_is_better"``), and, for BLEU, ``"corpus"`` (each
system's counts, totals, precisions, BP, lengths). With the sacrebleu dialect every number is
``sacrebleu.significance.PairedTest``'s (``BLEU().corpus_score(..., n_bootstrap=N)`` for ``--confidence``).

* ``--metric`` is any registered metric family (``explainer.families.FAMILIES``), or several separated by commas
  (``--metric bleu,chrf,ter``): then ``"metrics"`` holds one such object per measure, each with its own tests,
  and ``--format text|latex|markdown`` prints a column per metric (``explainer/cli/compare_families.py``).
* A family with a runner of its own (the CLI's ``COMPARE_RUNNERS``: its corpus details, ``--segments``,
  ``--report``) is run by it when it is compared alone; any other through its ``MetricFamily.corpus``.
* ``--confidence`` with one system is sacreBLEU's ``--confidence``; with several systems (sacreBLEU refuses) each
  system gets its own ``corpus_score(..., n_bootstrap=N)``; with ``--paired-ar`` it is PairedTest's
  ``n_ar_confidence=N``; with ``--paired-bs`` the intervals come from the paired resamples, as in sacreBLEU.
* BLEU files are read line by line in one pass; only the statistics are kept (flat memory). ``--segments FILE``
  writes the per-segment table as CSV; ``--report FILE`` the whole corpus report as JSON (that keeps the texts
  and every segment's analysis in memory: at most ``REPORT_MAX_TEXTS`` texts and ``REPORT_MAX_BYTES`` bytes,
  ~1 GB; ROUGE and several metrics keep the texts too: ``ROUGE_MAX_TEXTS`` / ``STRUCTURED_MAX_TEXTS``).
* Limits are checked before the work: from the arguments and the sizes of regular files first (their lines are
  counted, which takes a fraction of a second), then again while the files are read (pipes), block by block;
  a test's draws (resamples x segments) are refused as soon as the segments read exceed them.
"""
from __future__ import annotations

import argparse

from explainer.cli.compare_output import emit
from explainer.cli.io import CliError, int_arg

__all__ = ["add_arguments", "run", "parse_system", "metrics_of", "read_blocks", "read_testset", "read_structured",
           "systems_of", "statistics_feeder", "Keep", "CHRF_FLAGS", "dialect_names"]

BLOCK = 1000        # segments read per block
#: what ``--report`` keeps in memory (texts, tokens and every segment's analysis): texts (segments x (systems +
#: references)) and bytes of all files. Measured peak RSS at 100,000 texts and 25 MB: 0.93 GB (10 systems, 4
#: references) and 1.04 GB (2 systems, 1 reference); these limits are 60 % of that (docs/limits.md)
REPORT_MAX_TEXTS = 60_000
REPORT_MAX_BYTES = 15_000_000
#: ROUGE keeps every text for the per-item scores: ~1.2 KB per text (peak 0.40 GB at 300,000 texts and 75 MB,
#: 250-byte lines); at these limits ~0.8 GB
ROUGE_MAX_TEXTS = 600_000
ROUGE_MAX_BYTES = 150_000_000
#: a JSON Lines / TSV input is read whole (its columns or objects hold every system); without --report BLEU then
#: keeps only the texts and the statistics: peak RSS 0.20 GB at 29 MB / 220,000 texts, 0.37 GB at 72 MB / 550,000
#: texts (~4 bytes per byte read), so ~0.7 GB at these limits (docs/limits.md)
STRUCTURED_MAX_TEXTS = 600_000
STRUCTURED_MAX_BYTES = 150_000_000
#: --freq-corpus (compare-mt's word frequencies, e.g. the training data's target side) is read line by line and
#: only its word counts are kept: ~10 s of CPU per 100 MB
FREQ_CORPUS_MAX_BYTES = 100_000_000


def _count(text: str) -> int:
    """An argparse ``type=`` for a number of resamples: ASCII digits (``int`` would read '١٠' as 10), and a long
    digit string refused without echoing it; the range is checked with the other settings (``_check_settings``)."""
    t = text.strip()
    digits = t.lstrip("+-")
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"invalid int value: {text[:20]!r}")
    if len(digits.lstrip("0")) > 12:
        raise argparse.ArgumentTypeError(f"expected a number of resamples, got {t[:12]}... ({len(digits):,} digits)")
    return int(t)


_count.__name__ = "int"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ref", metavar="FILE", action="append", default=[],
                   help="a reference file, one segment per line (repeat for 2-4 references)")
    p.add_argument("--system", metavar="NAME=FILE", action="append", default=[], required=True,
                   help="a system output, one segment per line; NAME= may be left out (the file name is used); "
                        "the first system is the baseline")
    p.add_argument("--metric", default="bleu", metavar="METRIC[,METRIC…]",
                   help="a metric family (bleu, rouge, chrf, ter, …) or several separated by commas: a column each "
                        "in the tables, every one's tests in the JSON (default bleu)")
    p.add_argument("--dialect", default=None,
                   help="BLEU: sacrebleu (default), nltk, hf-evaluate, multi-bleu, mteval, textbook; "
                        "ROUGE: rouge-score (default), hf-evaluate, textbook, rouge155; with several metrics "
                        "FAMILY=DIALECT[,FAMILY=DIALECT]")
    g = p.add_argument_group("BLEU options (as `python -m explainer bleu`)")
    g.add_argument("--tokenize", default=None, help="sacrebleu: 13a (default), intl, zh, char, none")
    g.add_argument("-l", "--language-pair", default=None, metavar="SRC-TRG",
                   help="sacreBLEU's -l: the target language picks the tokenizer when --tokenize is not given "
                        "(zh -> zh, ja -> ja-mecab, ko -> ko-mecab, else 13a)")
    g.add_argument("--lowercase", action="store_true", default=None, help="lowercase (sacrebleu, multi-bleu -lc)")
    g.add_argument("--smooth", default=None, help="sacrebleu: exp|floor|add-k|none; nltk: method0..method7; "
                                                  "hf-evaluate: none|add-one; mteval: exp|nist|none")
    g.add_argument("--smooth-value", type=float, default=None, help="sacrebleu: value for floor / add-k")
    g.add_argument("--max-order", type=int_arg(), default=None, help="maximum n-gram order (default 4)")
    eff = g.add_mutually_exclusive_group()
    eff.add_argument("--effective-order", dest="effective_order", action="store_true", default=None)
    eff.add_argument("--no-effective-order", dest="effective_order", action="store_false")
    g.add_argument("--api", default=None, help="sacrebleu: corpus_bleu (default) or sentence_bleu")
    g.add_argument("--weights", default=None, help="nltk: comma-separated weights")
    g.add_argument("--auto-reweigh", action="store_true", default=None, help="nltk: auto_reweigh=True")
    r = p.add_argument_group("ROUGE options (as `python -m explainer rouge`)")
    r.add_argument("--types", default=None, help="comma-separated ROUGE types (default: the dialect's)")
    r.add_argument("--stem", action="store_true", help="Porter stemming")
    r.add_argument("--multi-ref", choices=["best-f", "pool", "best-recall"], default=None)
    r.add_argument("--tokenizer", default=None, help="rouge-score (default) or unicode")
    r.add_argument("--rouge-type", default=None, help="the ROUGE type of 'score' and of the tests (default: the "
                                                      "first of --types)")
    r.add_argument("--measure", choices=["fmeasure", "precision", "recall"], default="fmeasure",
                   help="ROUGE: which per-item value 'score' and the tests average (default fmeasure)")
    c = p.add_argument_group("chrF options (as `python -m explainer chrf`; --lowercase above)")
    c.add_argument("--char-order", type=int, default=None, metavar="N", help="character n-gram order (default 6)")
    c.add_argument("--word-order", type=int, default=None, metavar="N", help="word n-gram order (2 = chrF++)")
    c.add_argument("--beta", type=float, default=None, help="recall weight (sacrebleu default 2, nltk 3)")
    c.add_argument("--whitespace", action="store_true", default=None, help="keep whitespace in character n-grams")
    c.add_argument("--eps-smoothing", action="store_true", default=None, help="sacrebleu: eps smoothing")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   help="any other dialect option by name; with several metrics FAMILY.KEY=VALUE for one of them")
    _add_test_and_output_arguments(p)


def _add_test_and_output_arguments(p: argparse.ArgumentParser) -> None:
    """The confidence / significance options and the outputs of ``compare``."""
    t = p.add_argument_group("confidence and significance (sacreBLEU's; seed from SACREBLEU_SEED, default 12345)")
    pair = t.add_mutually_exclusive_group()
    pair.add_argument("--paired-bs", action="store_true", help="paired bootstrap resampling (Koehn 2004)")
    pair.add_argument("--paired-ar", action="store_true",
                      help="paired approximate randomization (Riezler & Maxwell 2005)")
    t.add_argument("--paired-bs-n", type=_count, default=None, metavar="N",
                   help="bootstrap resamples (default 1000)")
    t.add_argument("--paired-ar-n", type=_count, default=None, metavar="N",
                   help="AR trials (default 10000)")
    t.add_argument("--all-pairs", action="store_true",
                   help="with --paired-bs or --paired-ar: every pair of systems (a p-value matrix) and WMT-style "
                        "clusters of systems that are not significantly different")
    t.add_argument("--confidence", action="store_true", help="bootstrap 95%% confidence interval")
    t.add_argument("--confidence-n", type=_count, default=None, metavar="N",
                   help="bootstrap resamples (default 1000)")
    o = p.add_argument_group("more output")
    o.add_argument("--format", choices=["json", "text", "latex", "markdown"], default="json",
                   help="json (default: every number), text (sacreBLEU's own table), latex (booktabs: scores, "
                        "± CI, p-values, markers against the baseline, the signature as a footnote), markdown")
    o.add_argument("--segments", metavar="FILE", default=None, help="write the per-segment table as CSV")
    o.add_argument("--report", metavar="FILE", default=None,
                   help="write the whole corpus report as JSON (analyses, every segment)")
    o.add_argument("--source", metavar="FILE", default=None,
                   help="with --report (BLEU): the source side, one segment per line: source-length buckets and "
                        "the source in the segment records")
    o.add_argument("--freq-corpus", metavar="FILE", default=None,
                   help="with --report (BLEU): word frequencies for compare-mt's word accuracy buckets from this "
                        "file (e.g. the training data's target side) instead of the references")


def parse_system(spec: str) -> tuple[str, str]:
    """'NAME=FILE' -> (NAME, FILE); 'FILE' -> (file name without extension, FILE)."""
    from explainer.corpus.testset import system_name_from_file

    if "=" in spec:
        name, path = spec.split("=", 1)
        name = name.strip()
        if not name:
            raise CliError(f"--system {spec!r}: the name before '=' is empty")
        if not path:
            raise CliError(f"--system {spec!r}: no file after '='")
        return name, path
    return system_name_from_file(spec), spec


def _sniff_structured(args, systems) -> bool:
    """Whether a --system file holds JSON Lines or TSV (read by content, any file name: its first 50 lines); then
    the whole test set is read as the page reads uploads (``testset.testset_from_files``), else the files are
    streamed as plain lines."""
    from explainer.corpus.testset import detect_format
    from explainer.inputs import iter_lines

    for _, path in systems:
        if path == "-":
            continue
        head = []
        try:
            for k, line in enumerate(iter_lines(path)):
                if k >= 50:
                    break
                head.append(line)
        except ValueError:
            continue            # unreadable / not UTF-8: said in the reader's own words when the file is read
        if detect_format(head) != "lines":
            return True
    return False


def _short_names(systems: list[tuple[str, str]], specs: list[str]) -> list[tuple[str, str]]:
    """Systems given without NAME= are named by their files without the common prefix and suffix
    (``explainer.corpus.testset.display_names``: ``…hyp.Online-B.de`` -> ``Online-B``)."""
    from explainer.corpus.testset import display_names

    unnamed = [k for k, spec in enumerate(specs) if "=" not in spec]
    short = display_names([systems[k][1] for k in unnamed])
    out = list(systems)
    taken = {systems[k][0] for k in range(len(systems)) if k not in unnamed}
    for k, name in zip(unnamed, short):
        from explainer.corpus.testset import unique_name

        name = unique_name(name, taken)
        taken.add(name)
        out[k] = (name, systems[k][1])
    return out


def _check_settings(args, n_systems: int) -> dict:
    from explainer.corpus.significance import DEFAULT_AR_N, DEFAULT_BS_N, MAX_RESAMPLES
    from explainer.corpus.testset import MAX_REFERENCES, MAX_SYSTEMS

    if len(args.ref) > MAX_REFERENCES:
        raise CliError(f"{len(args.ref)} --ref files, over the limit of {MAX_REFERENCES}")
    if n_systems > MAX_SYSTEMS:
        raise CliError(f"{n_systems} --system files, over the limit of {MAX_SYSTEMS}")
    paired = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    if args.paired_bs_n is not None and not args.paired_bs:
        raise CliError("--paired-bs-n needs --paired-bs")
    if args.paired_ar_n is not None and not args.paired_ar:
        raise CliError("--paired-ar-n needs --paired-ar")
    if args.confidence_n is not None and not args.confidence:
        raise CliError("--confidence-n needs --confidence")
    if paired and n_systems < 2 and not getattr(args, "structured", False):     # a TSV: counted once read
        raise CliError(f"--paired-{paired} compares systems with a baseline: give at least two --system files "
                       "(the first is the baseline)")
    for flag, v, kind in (("--paired-bs-n", args.paired_bs_n, "bs"), ("--paired-ar-n", args.paired_ar_n, "ar"),
                          ("--confidence-n", args.confidence_n, "bs")):
        if v is not None and not 1 <= v <= MAX_RESAMPLES[kind]:
            raise CliError(f"{flag} must be between 1 and {MAX_RESAMPLES[kind]:,}, got {v}")
    n = (args.paired_bs_n or DEFAULT_BS_N) if paired == "bs" else (args.paired_ar_n or DEFAULT_AR_N)
    conf_n = (args.confidence_n or DEFAULT_BS_N) if args.confidence else None
    if paired == "bs" and args.confidence_n is not None and args.confidence_n != n:
        raise CliError(f"with --paired-bs the intervals come from its {n} resamples; --confidence-n "
                       f"{args.confidence_n} would contradict them (leave it out or use --paired-bs-n)")
    return {"paired": paired, "n": n if paired else None, "confidence_n": conf_n}


class Keep:
    """What a run keeps in memory: at most ``texts`` texts and ``nbytes`` bytes, or a refusal naming ``why``."""

    def __init__(self, texts: int, nbytes: int, why: str):
        self.texts, self.nbytes, self.why = texts, nbytes, why

    def check(self, n_texts: int, n_bytes: int, *, exact: bool = True) -> None:
        more = "" if exact else "at least "
        if n_texts > self.texts:
            raise CliError(f"{self.why} keeps every text in memory: {more}{n_texts:,} texts (segments x files), "
                           f"over the limit of {self.texts:,}; split the test set or compare fewer systems")
        if n_bytes > self.nbytes:
            raise CliError(f"{self.why} keeps every text in memory: the files have {more}{n_bytes:,} bytes, over "
                           f"the limit of {self.nbytes:,}; split the test set or compare fewer systems")


def _keep(args) -> Keep | None:
    """What the run keeps in memory (None: only statistics, the files streamed): ``--report``'s texts and
    analyses, what the runner of the metric says it keeps (``keeps(args)``), every text when the test set is read
    whole (a TSV / JSON Lines input; several metrics, a family without a runner of its own)."""
    if args.report:
        return Keep(REPORT_MAX_TEXTS, REPORT_MAX_BYTES, "--report")
    own = getattr(args, "runner_keeps", None)
    kept = own(args) if own is not None else None
    if kept is not None:
        return kept
    if getattr(args, "structured", False):
        return Keep(STRUCTURED_MAX_TEXTS, STRUCTURED_MAX_BYTES, "a TSV / JSON Lines input (read whole; plain files "
                    "are streamed)")
    if getattr(args, "reads_whole", False):
        return Keep(STRUCTURED_MAX_TEXTS, STRUCTURED_MAX_BYTES, f"--metric {args.metric}")
    return None


def _count_lines(path: str) -> int | None:
    """The lines of a regular file, counted without decoding (None for stdin, a pipe or an unreadable file: the
    reading itself will say)."""
    import os
    import stat

    if path == "-":
        return None
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        n, last = 0, b"\n"
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                n += chunk.count(b"\n")
                last = chunk[-1:]
        return n + (last != b"\n")
    except OSError:
        return None


def _file_bytes(paths) -> int:
    import os
    import stat

    total = 0
    for p in paths:
        try:
            st = os.stat(p) if p != "-" else None
        except OSError:
            continue
        if st is not None and stat.S_ISREG(st.st_mode):
            total += st.st_size
    return total


def _check_draws(settings, n_segments: int, *, exact: bool = True) -> None:
    """The test's draws (resamples x segments), refused as the test itself would, before any of the work."""
    from explainer.corpus.significance import check_test_size
    from explainer.errors import ExplainerInputError

    checks = []
    if settings["paired"]:
        flag = "--paired-bs-n" if settings["paired"] == "bs" else "--paired-ar-n"
        checks.append((settings["n"], flag, settings["paired"]))
    if settings["confidence_n"] and settings["paired"] != "bs":
        checks.append((settings["confidence_n"], "--confidence-n", "bs"))
    for n, flag, kind in checks:
        try:
            check_test_size(n, n_segments, f"{flag} {n:,}", kind)
        except ExplainerInputError as e:
            more = "" if exact else " (counted so far)"
            raise CliError(f"{e}{more}") from None


def _check_system_segments(n_systems: int, n_segments: int, *, exact: bool = True) -> None:
    """Systems x segments within what the run keeps (every system's statistics), before the work."""
    from explainer.corpus.testset import MAX_SYSTEM_SEGMENTS

    if n_systems * n_segments > MAX_SYSTEM_SEGMENTS:
        more = "" if exact else "at least "
        raise CliError(f"{n_systems} systems x {more}{n_segments:,} segments = {n_systems * n_segments:,}, over the "
                       f"limit of {MAX_SYSTEM_SEGMENTS:,} per run (every system's statistics are kept); compare fewer "
                       f"systems at once (at most {MAX_SYSTEM_SEGMENTS // max(n_segments, 1):,} on this test set)")


def _precheck(args, systems, settings) -> None:
    """What can be checked before reading: the sizes of regular files, and their lines (the first system's file
    is the one every other is measured against)."""
    from explainer.corpus.testset import MAX_SEGMENTS

    paths = list(args.ref) + [p for _, p in systems]
    keep = _keep(args)
    if keep is not None:
        keep.check(0, _file_bytes(paths))
    S = _count_lines(systems[0][1])
    if S is None or getattr(args, "structured", False):   # a header, blank lines: counted exactly once read
        return
    if S > MAX_SEGMENTS:
        raise CliError(f"{systems[0][1]} has {S:,} lines: more than {MAX_SEGMENTS:,} segments, over the limit")
    _check_system_segments(len(systems), S)
    _check_draws(settings, S)
    if keep is not None:
        keep.check(S * len(paths), 0)


def read_blocks(args, systems, on_block, settings=None) -> int:
    """Read the --ref and --system files in lockstep, BLOCK lines at a time (``explainer.cli.io.aligned_blocks``:
    every command's rules and messages; the files are measured against the first system, as ``bleu --hyp``
    against its --ref files); ``on_block(lines per file)``, references first. Returns the number of segments.
    The limits are checked after every block (segments, a test's draws, what ``--report`` / ROUGE keep)."""
    from explainer.cli.io import aligned_blocks
    from explainer.corpus.testset import MAX_SEGMENTS, TestSetError, check_segment_lengths
    from explainer.inputs import shown_name

    paths = list(args.ref) + [p for _, p in systems]
    keep = _keep(args)
    n = n_bytes = 0
    for block in aligned_blocks(paths, first=len(args.ref), block=BLOCK):
        for path, lines in zip(paths, block):
            check_segment_lengths(lines, shown_name(path), n + 1)
        n += len(block[0])
        if n > MAX_SEGMENTS:
            raise TestSetError(f"more than {MAX_SEGMENTS:,} segments: over the limit")
        _check_system_segments(len(systems), n, exact=False)
        if settings is not None:
            _check_draws(settings, n, exact=False)
        if keep is not None:
            n_bytes += sum(len(ln.encode("utf-8", "surrogatepass")) + 1 for lines in block for ln in lines)
            keep.check(n * len(paths), n_bytes, exact=False)
        on_block(block)
    return n


#: chrF's own flags (its argument group above)
CHRF_FLAGS = ("char_order", "word_order", "beta", "whitespace", "eps_smoothing")


def metrics_of(text: str) -> list[str]:
    """``--metric bleu,chrf,ter`` -> the registered families named, in the order given (each once); a name
    that is not one of them is refused with the choices."""
    from explainer.families import FAMILIES

    out: list[str] = []
    for part in (text or "").split(","):
        name = part.strip().lower()
        if not name:
            continue
        if name not in FAMILIES:
            raise CliError(f"--metric {part.strip()!r} is not a metric here; choose among {', '.join(FAMILIES)} "
                           "(several separated by commas)")
        if name not in out:
            out.append(name)
    if not out:
        raise CliError("--metric needs at least one metric (e.g. bleu, or bleu,chrf,ter)")
    return out


def dialect_names(args, metrics: list[str]) -> dict[str, str | None]:
    """family -> the dialect asked for (None: the family's default). With one metric ``--dialect NAME``; with
    several ``--dialect FAMILY=NAME[,FAMILY=NAME]``."""
    out: dict[str, str | None] = {m: None for m in metrics}
    given = (args.dialect or "").strip()
    if not given:
        return out
    if "=" not in given:
        if len(metrics) > 1:
            raise CliError(f"--dialect {given}: with several metrics name the family of each dialect, e.g. "
                           f"--dialect {metrics[0]}={given}")
        out[metrics[0]] = given
        return out
    for part in given.split(","):
        fam, _, name = part.partition("=")
        fam, name = fam.strip().lower(), name.strip()
        if fam not in out:
            raise CliError(f"--dialect {part.strip()}: {fam} is not one of the metrics compared "
                           f"({', '.join(metrics)})")
        out[fam] = name
    return out


def _runner(args, metrics: list[str]):
    """(module, function) of the runner that compares these metrics: a family's own runner when it is compared
    alone (``args.compare_runners``: the CLI's registration table, set by ``explainer.cli.build_parser``), else the
    runner of every family (``args.compare_families``)."""
    import importlib

    own = (getattr(args, "compare_runners", None) or {}).get(metrics[0]) if len(metrics) == 1 else None
    module, _, func = (own or args.compare_families).partition(":")
    return importlib.import_module(module), func, own is not None


def run(args) -> int:
    from explainer.corpus.testset import TestSetError, check_names
    from explainer.errors import ExplainerInputError

    metrics = metrics_of(args.metric)
    systems = _short_names([parse_system(s) for s in args.system], args.system)
    try:
        check_names([n for n, _ in systems])
    except TestSetError as e:
        raise CliError(str(e)) from None
    args.structured = _sniff_structured(args, systems)
    if not args.ref and not args.structured:
        raise CliError("give at least one --ref file (one segment per line), or systems in JSON Lines or TSV that "
                       "carry their references")
    settings = _check_settings(args, len(systems))
    module, func, own = _runner(args, metrics)
    args.runner_keeps = getattr(module, "keeps", None) if own else None
    args.reads_whole = not own
    settings["all_pairs"] = bool(getattr(args, "all_pairs", False))
    for flag in ("source", "freq_corpus"):
        if getattr(args, flag, None) and (not args.report or not getattr(module, "TAKES_SOURCE", False)):
            raise CliError(f"--{flag.replace('_', '-')} goes with --report (BLEU): its analyses are in the report")
    if settings["all_pairs"] and not settings["paired"]:
        raise CliError("--all-pairs needs --paired-bs or --paired-ar (the test run on every pair)")
    if not own and any(p == "-" for p in list(args.ref) + [p for _, p in systems]):
        raise CliError(f"--metric {args.metric} reads the test set whole: give the files, not stdin ('-')")
    _precheck(args, systems, settings)
    try:
        args.corpus_warnings = _language_settings(args, metrics)
        if own:
            out = getattr(module, func)(args, systems, settings)
        else:
            out = getattr(module, func)(args, systems, settings, metrics, getattr(args, "compare_runners", None) or {})
    except (TestSetError, ExplainerInputError) as e:
        raise CliError(str(e)) from None
    emit(out, getattr(args, "format", "json"))
    return 0


def _language_settings(args, metrics: list[str]) -> list[str]:
    """``-l SRC-TRG``: sacreBLEU's tokenizer for the target (when --tokenize is not given), and the warnings:
    sacreBLEU's own for a tokenizer that is not the target's, and CJK references scored with a tokenizer that
    does not split them (read from the first lines of the first --ref file)."""
    from explainer.corpus.langpair import cjk_warning, pair_mismatch_warning, parse_language_pair
    from explainer.inputs import iter_lines

    pair = None
    warns: list[str] = []
    tok_spec = _tokenize_option(args, metrics)
    if args.language_pair is not None:
        if tok_spec is None:
            raise CliError("-l/--language-pair picks the tokenizer, as sacreBLEU's -l does: it needs a metric whose "
                           "dialect has a tokenize option (--metric bleu, dialect sacrebleu)")
        pair = parse_language_pair(args.language_pair)
        if args.tokenize is None:
            choices = tok_spec.get("choices") or ()
            if pair.tokenizer not in choices:
                raise CliError(f"-l {args.language_pair}: sacreBLEU picks the {pair.tokenizer} tokenizer for "
                               f"{pair.target}, which needs MeCab (pip install sacrebleu[{pair.target}]) and is not "
                               f"one of this explainer's ({', '.join(choices)}); give --tokenize char (or another) "
                               "explicitly")
            args.tokenize = pair.tokenizer
        else:
            w = pair_mismatch_warning(pair, args.tokenize)
            if w:
                warns.append(w)
    if tok_spec is not None and args.ref and args.ref[0] != "-":
        def head():
            for k, line in enumerate(iter_lines(args.ref[0])):
                if k >= 2000:
                    return
                yield line

        w = cjk_warning(head(), args.tokenize or tok_spec.get("default"), target=pair.target if pair else None)
        if w:
            warns.append(w)
    return warns


def _tokenize_option(args, metrics: list[str]) -> dict | None:
    """The ``tokenize`` option (its choices and default) of the first compared metric's dialect that has one, or
    None (no dialect compared has a tokenizer to pick)."""
    from explainer.families import FAMILIES

    try:
        names = dialect_names(args, metrics)
    except CliError:
        return None      # said in the runner's own words
    for m in metrics:
        fam = FAMILIES[m]
        try:
            spec = next((o for o in fam.options(names[m] or fam.default_dialect) if o["name"] == "tokenize"), None)
        except (KeyError, ValueError):
            continue     # an unknown dialect: refused later, in the dialect's own words
        if spec is not None:
            return spec
    return None


def systems_of(ts, systems):
    """(name, file) of every system of the test set read: a TSV file holds several."""
    if len(ts.systems) == len(systems):
        return systems
    return [(name, "") for name in ts.names]


def read_structured(args, systems, settings=None):
    """The test set from files read by content (JSON Lines with their references, TSV columns, plain lines),
    as the page reads uploads; the names given with NAME= are kept; what was detected goes to the output."""
    from explainer.corpus.testset import MAX_SEGMENTS, testset_from_files

    def read_bytes(path: str) -> bytes:
        from explainer.inputs import read_bytes as read_at_most

        if path == "-":
            raise CliError("stdin ('-') cannot be read with JSON Lines or TSV systems: give the files")
        return read_at_most(path, STRUCTURED_MAX_BYTES, "TSV / JSON Lines input (read whole)")

    ts, detected = testset_from_files([(p, read_bytes(p)) for _, p in systems],
                                      [(p, read_bytes(p)) for p in args.ref], max_segments=MAX_SEGMENTS)
    args.detected = detected
    if len(ts.systems) == len(systems):
        ts = ts.with_names([n for n, _ in systems])
    _check_read(args, ts, settings)
    return ts


def _check_read(args, ts, settings) -> None:
    """A TSV / JSON Lines test set, once read and before any work: the systems it holds (a test needs two), the
    test's draws and what the run keeps, exactly."""
    if settings is None:
        return
    if settings["paired"] and len(ts.systems) < 2:
        raise CliError(f"--paired-{settings['paired']} compares systems with a baseline: the input holds one "
                       f"system ({ts.names[0]}); give at least two (TSV columns or --system files)")
    _check_draws(settings, ts.n_segments)
    _check_system_segments(len(ts.systems), ts.n_segments)
    keep = _keep(args)
    if keep is not None:
        keep.check(ts.n_segments * (len(ts.systems) + ts.n_refs()), 0)


def read_testset(args, systems, settings=None):
    """The whole test set in memory (ROUGE and --report need the texts), read as the BLEU statistics are."""
    from explainer.corpus.testset import build_testset

    if getattr(args, "structured", False):
        return read_structured(args, systems, settings)

    K = len(args.ref)
    streams: list[list[str]] = [[] for _ in range(K + len(systems))]

    def keep(block):
        for lines, more in zip(streams, block):
            lines.extend(more)

    read_blocks(args, systems, keep, settings)
    return build_testset([(name, streams[K + j]) for j, (name, _) in enumerate(systems)],
                         [(path, streams[k]) for k, path in enumerate(args.ref)])


def statistics_feeder(d, stream, warnings: list[str]):
    """The handler of each block of segments (each segment's references, then each system's lines): their
    statistics go into ``stream``; a dialect other than sacreBLEU checks its input as the real library would
    (warnings collected, an input it cannot score refused)."""
    from explainer.bleu.system_stats import clear_tokenizer_caches

    def on_block(refs_block, hyps_block):
        for i, refs in enumerate(refs_block):
            stream.add([h[i] for h in hyps_block], refs)
        clear_tokenizer_caches()     # no line is seen twice: keep memory flat
        if d.checks_whole_corpus:       # checked once at the end, from the stream's tallies
            return
        for hyps in hyps_block:
            ws, err = d.check_inputs(hyps, refs_block, corpus=True)
            for w in ws:
                if w.message not in warnings:
                    warnings.append(w.message)
            if err is not None:
                raise CliError(f"{d.implementation} cannot score this input: {err.message}")

    return on_block
