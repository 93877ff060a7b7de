"""ROUGE-1.5.5's inputs and printed output: SEE / SPL / ISI summary files, the XML evaluation config, the
``-z`` file lists, Basic Elements (``-3``) files, and the ``Average_X`` report — enough to rerun the
script's own sample tests (``sample-test/`` of its distribution) and compare byte for byte.

Files are read as bytes and decoded with ``surrogateescape``, so byte lengths (``-b``) and the byte-level
cleanup behave as in Perl. A SEE unit keeps the line's trailing ``\\n`` when the ``</a>`` is on the next
line, as the script's ``([^<]+)`` capture does (it counts for ``-b``).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from explainer.rouge.rouge155.bootstrap import BootstrapResult, bootstrap_average, perl_round5, sort_eval_keys
from explainer.rouge.rouge155.evaluation import CorpusResult, MetricResult, clipped_hits, corpus_from_texts, perl_prf
from explainer.rouge.rouge155.options import Rouge155Options, parse_flags
from explainer.rouge.rouge155.runlimits import RunReader, check_evaluations, check_run_work, read_list
from explainer.rouge.rouge155.stem import morph_stem
from explainer.rouge.rouge155.text import PerlText, read_text

__all__ = ["read_units", "EvalSpec", "read_config_xml", "read_file_list", "run_config", "format_report",
           "be_counts", "ConfigRun"]

_SEE_1 = re.compile(r'<a size="[0-9]+" name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)')
_SEE_2 = re.compile(r'<a name="[0-9]+">\[([0-9]+)\]</a>\s+<a href="#[0-9]+" id=[0-9]+>([^<]+)')
_ISI = re.compile(r'<S SNTNO="[0-9a-z,]+">([^<]+)</S>')


def _lines(data: bytes) -> list[str]:
    """Perl's ``while(<TEXT>)`` over a file's bytes: lines with their ``\\n`` (the last one may lack it)."""
    text = data.decode("utf-8", "surrogateescape")
    return text.splitlines(keepends=True) if "\r" not in text else _split_lf(text)


def _split_lf(data: str) -> list[str]:
    out = []
    start = 0
    while True:
        k = data.find("\n", start)
        if k < 0:
            if start < len(data):
                out.append(data[start:])
            return out
        out.append(data[start:k + 1])
        start = k + 1


def read_units(path: str | Path, fmt: str, reader: RunReader | None = None) -> list[str]:
    """The units ``readText`` builds from one file (before lower-casing, which read_text does); ``reader``: the
    run's (its limits on a summary file and on all of them)."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"Cannot open {path}")
    fmt_u = fmt.upper()
    units: list[str] = []
    for line in _lines((reader or RunReader()).read_summary(path)):
        if fmt_u == "SEE":
            m = _SEE_1.match(line) or _SEE_2.match(line)
            if m:
                units.append(m.group(2))
        elif fmt_u == "ISI":
            m = _ISI.match(line)
            if m:
                units.append(m.group(1))
        elif fmt_u == "SPL":
            if line.endswith("\n"):  # chomp
                line = line[:-1]
            if line:
                units.append(line)
        else:
            raise ValueError(f"Unknown input format: {fmt}")
    return units


@dataclass
class EvalSpec:
    eval_id: str
    fmt: str
    peers: dict[str, Path]  # peer id -> file, in config order
    models: list[tuple[str, Path]]  # (model id, file) in config order


def read_config_xml(path: str | Path, base: str | Path | None = None) -> list[EvalSpec]:
    """The ``<ROUGE-EVAL>`` config: ``<EVAL ID>`` with PEER-ROOT, MODEL-ROOT, INPUT-FORMAT, PEERS, MODELS.
    The script opens the paths relative to its current directory: ``base`` (default: the config's folder)."""
    path = Path(path)
    base = Path(base) if base is not None else path.parent
    root = ET.fromstring(read_list(path))
    out: list[EvalSpec] = []
    for ev in root.iter():
        if ev.tag.upper() != "EVAL":
            continue
        eid = ev.get("ID")
        peer_root = model_root = ""
        fmt = None
        peers: dict[str, Path] = {}
        models: list[tuple[str, Path]] = []
        for child in ev:
            tag = child.tag.upper()
            if tag == "PEER-ROOT":
                peer_root = (child.text or "").strip()
            elif tag == "MODEL-ROOT":
                model_root = (child.text or "").strip()
            elif tag == "INPUT-FORMAT":
                fmt = child.get("TYPE")
                if not re.fullmatch(r"(?i)SEE|ISI|SPL|SIMPLE", fmt or ""):
                    raise ValueError(f"Unknown input type: {fmt}")
            elif tag == "PEERS":
                for p in child:
                    if p.tag.upper() == "P":
                        peers[p.get("ID")] = (p.text or "").strip()
            elif tag == "MODELS":
                for m in child:
                    if m.tag.upper() == "M":
                        models.append((m.get("ID"), (m.text or "").strip()))
        out.append(EvalSpec(
            eid, fmt or "SEE",
            {k: base / peer_root / v for k, v in peers.items()},
            [(k, base / model_root / v) for k, v in models],
        ))
    return out


def read_file_list(path: str | Path, fmt: str, system_id: str = "X",
                   base: str | Path | None = None) -> list[EvalSpec]:
    """A ``-z`` list: one evaluation per non-comment line, ``peer model1 … modelN``; ids 1, 2, …
    Paths are relative to ``base`` (the script's current directory; default: the list's folder)."""
    path = Path(path)
    base = Path(base) if base is not None else path.parent
    out: list[EvalSpec] = []
    eid = 1
    for line in _lines(read_list(path)):
        if line.startswith("#") or not line.strip():
            continue
        files = line.split()
        if len(files) < 2:
            raise ValueError("File list has to have at least 2 filenames per line (peer model1 model2 ... modelN)")
        out.append(EvalSpec(str(eid), fmt, {system_id: base / files[0]},
                            [(f"M.{k}", base / f) for k, f in enumerate(files[1:], 1)]))
        eid += 1
    return out


# ------------------------------------------------------------------------------------ Basic Elements (-3)
_BE_SKIP = re.compile(r"(-LRB-|-RRB-|-LSB-|-RSB-|-LCB-|-RCB-)")


def _morph_stem_multi(s: str) -> str:
    out = []
    for t in re.split(r"[ \t\n\r\f\x0b]+", s):
        if re.search(r"[A-Za-z0-9]", t) and not _BE_SKIP.search(t):
            out.append(morph_stem(t) if t else t)
        else:
            out.append(t)
    return " ".join(out)


def be_counts(lines: list[str], mode: str, stem: bool = False) -> tuple[Counter, int]:
    """``createBE``: HEAD|MODIFIER|RELATION lines to head(-modifier(-relation)) units for a BE mode."""
    c: Counter = Counter()
    count = 0
    for line in lines:
        be = line.translate(_ASCII_LOWER)
        fds = be.split("|")
        while fds and fds[-1] == "":
            fds.pop()
        if len(fds) != 3:
            raise ValueError(f"Basic Element (BE) input file is invalid: *{be}* (HEAD|MODIFIER|RELATION per line)")
        h, m, r = fds
        if stem:
            if len(h) > 3:
                h = _morph_stem_multi(h)
            if m != "NIL" and len(m) > 3:  # after lower-casing this is always true (script quirk)
                m = _morph_stem_multi(m)
        key = None
        if mode == "H" and m == "nil":
            key = h
        elif mode == "HM" and m != "nil":
            key = f"{h}|{m}"
        elif mode == "HMR" and r != "nil":
            key = f"{h}|{m}|{r}"
        elif mode == "HM1":
            key = f"{h}|{m}"
        elif mode == "HMR1" and fds[1] != "nil":
            key = f"{h}|{m}|{r}"
        elif mode == "HMR2":
            key = f"{h}|{m}|{r}"
        elif mode not in ("H", "HM", "HMR", "HM1", "HMR1", "HMR2"):
            raise ValueError(f"unknown BE mode {mode!r}: H, HM, HMR, HM1, HMR1 or HMR2")
        if key is not None:
            c[key] += 1
            count += 1
    return c, count


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _be_lines(path: Path, reader: RunReader) -> list[str]:
    return [ln[:-1] if ln.endswith("\n") else ln for ln in _lines(reader.read_summary(path))]


def _be_metric(peer: Path, models: list[Path], mode: str, opts: Rouge155Options, reader: RunReader) -> MetricResult:
    pc, pn = be_counts(_be_lines(peer, reader), mode, opts.stem)
    total_hit = total_m = total_p = 0
    best = -1.0
    for mp in models:
        mc, mn = be_counts(_be_lines(mp, reader), mode, opts.stem)
        hit = clipped_hits(mc, pc)
        score = perl_round5(hit / mn) if mn else 0.0
        if opts.mode == "A":
            total_hit += hit
            total_m += mn
            total_p += pn
        elif score > best:
            best, total_hit, total_m, total_p = score, hit, mn, pn
    r, p, f, formula = perl_prf(total_hit, total_m, total_p, opts.alpha)
    return MetricResult(f"ROUGE-BE-{mode}", "BE", r, p, f, total_m, total_p, total_hit, formula=formula)


# ---------------------------------------------------------------------------------------------- the run
@dataclass
class ConfigRun:
    """The script's run over a config for each peer: per metric, the averages (or -t 2 counts)."""

    peers: list[str]
    results: dict[str, CorpusResult] = field(default_factory=dict)  # peer id -> result
    be: dict[str, tuple[str, BootstrapResult, dict]] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)  # "*ROUGE Warning: ..." lines


def run_config(specs: list[EvalSpec], opts: Rouge155Options, *, system_id: str | None = None,
               all_peers: bool = False, be_mode: str | None = None) -> ConfigRun:
    """The script's run: every evaluation of every peer is read first (each file within its limits,
    ``runlimits``); the run's work is checked; then each peer is scored."""
    if all_peers:
        peers = sorted({p for s in specs for p in s.peers})
    elif system_id is not None:
        peers = [system_id]
    else:
        raise ValueError("give a system ID or evaluate all peers (-a)")
    check_evaluations(sum(peer in s.peers for peer in peers for s in specs))
    run = ConfigRun(peers)
    reader = RunReader()
    to = opts.token_options
    cache: dict[tuple[Path, str], PerlText] = {}

    def text(p: Path, fmt: str) -> PerlText:
        key = (p, fmt)
        if key not in cache:
            cache[key] = read_text(units=read_units(p, fmt, reader), options=to)
        return cache[key]

    per_peer: dict[str, list] = {}
    for peer in peers:
        present = [s for s in specs if peer in s.peers]
        for s in specs:
            if peer not in s.peers:
                run.missing.append(f"*ROUGE Warning: test instance for peer {peer} does not exist for "
                                   f"evaluation {s.eval_id}")
        if be_mode:
            run.be[peer] = _be_peer(peer, present, be_mode, opts, reader)
            continue
        evals = []
        for s in present:
            _check_models(s)
            evals.append((f"{s.eval_id}.{peer}", text(s.peers[peer], s.fmt),
                          [text(mp, s.fmt) for _, mp in s.models]))
        per_peer[peer] = evals
    check_run_work([e for evals in per_peer.values() for e in evals], opts)
    for peer, evals in per_peer.items():
        run.results[peer] = corpus_from_texts(evals, opts)
    return run


def _check_models(s: EvalSpec) -> None:
    for _, mp in s.models:
        if not mp.exists():
            raise FileNotFoundError(f"Cannot find model summary: {mp}")


def _be_peer(peer: str, present: list[EvalSpec], be_mode: str, opts: Rouge155Options, reader: RunReader) -> tuple:
    """``-3``: the Basic Elements metric of one peer over its evaluations (name, bootstrap average, counts)."""
    scores = {}
    for s in present:
        _check_models(s)
        scores[f"{s.eval_id}.{peer}"] = _be_metric(s.peers[peer], [mp for _, mp in s.models], be_mode, opts, reader)
    keys = sort_eval_keys(scores)
    vals = ({k: (scores[k].R, scores[k].P, scores[k].F) for k in keys} if opts.counting == 0 else
            {k: (scores[k].model_count, scores[k].peer_count, scores[k].hit_count) for k in keys})
    tot = [sum(scores[k].model_count for k in keys), sum(scores[k].peer_count for k in keys),
           sum(scores[k].hit_count for k in keys)]
    counts = {"model_count": int(tot[0]), "peer_count": int(tot[1]), "hit_count": int(tot[2])}
    avg = (bootstrap_average(vals, n_resamples=opts.resamples, confidence=opts.confidence,
                             mode=opts.counting, alpha=opts.alpha) if opts.counting != 2 else None)
    return f"ROUGE-BE-{be_mode}", avg, counts


def format_report(run: ConfigRun, opts: Rouge155Options, *, confidence_label: str = "95",
                  per_eval: bool = False) -> str:
    """The script's stdout (``printResults``), byte for byte for the supported options."""
    out: list[str] = []
    for peer in run.peers:
        if run.be:
            name, avg, counts = run.be[peer]
            out += _block(peer, name, avg, counts, opts, confidence_label)
            continue
        res = run.results[peer]
        for name in opts.metric_names():
            if name not in res.counts:
                break  # the script died here
            out += _block(peer, name, res.averages.get(name), res.counts[name], opts, confidence_label)
            if per_eval:
                out.append(".............................................")
                for key in sorted(res.evaluations, key=_eval_sort_key):
                    m = res.evaluations[key].metrics[name]
                    if opts.counting == 0:
                        out.append(f"{peer} {name} Eval {key} R:{m.R:7.5f} P:{m.P:7.5f} F:{m.F:7.5f}")
                    else:
                        out.append(f"{peer} {name} Eval {key} R:{_perl_num(m.model_count)} "
                                   f"P:{_perl_num(m.peer_count)} F:{_perl_num(m.hit_count)}")
    return "\n".join(out) + ("\n" if out else "")


def _block(peer, name, avg, counts, opts, conf) -> list[str]:
    lines = ["---------------------------------------------"]
    if opts.counting in (0, 1):
        for k, key in enumerate("RPF"):
            lines.append(f"{peer} {name} Average_{key}: {avg.average[k]:7.5f} "
                         f"({conf}%-conf.int. {avg.ci_low[k]:7.5f} - {avg.ci_high[k]:7.5f})")
    else:
        lines.append(f"{peer} {name} M_count: {counts['model_count']} P_count: {counts['peer_count']} "
                     f"H_count: {counts['hit_count']}")
    return lines


def _eval_sort_key(key: str):
    """``by_evalID``: numeric when both ids start with digits, else string order (approximated as a key)."""
    m = re.match(r"[0-9]+", key)
    return (0, int(m.group(0)), key) if m else (1, 0, key)


def _perl_num(x: float) -> str:
    """Perl's default number formatting (%.15g)."""
    if float(x).is_integer():
        return str(int(x))
    return "%.15g" % x


# ------------------------------------------------------------------------------------------- command line
USAGE = ("usage: python -m explainer.rouge.rouge155 [ROUGE-1.5.5 flags] <ROUGE-eval-config-file> [<systemID>]\n"
         "  e.g. -c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a ROUGE-test.xml   or   -n 4 -z SPL files.lst 26\n"
         "  Reproduces ROUGE-1.5.5.pl's printed report without Perl (data files are built in; -e is ignored).")


#: the main CLI's bounds (``python -m explainer rouge``): ROUGE-1..9, and the rouge155 dialect's resamples
CLI_MAX_N = 9
#: resamples x evaluations: the bootstrap's draw limit (the BLEU core's MAX_BOOTSTRAP_DRAWS; a test checks they
#: are equal, the ROUGE core does not import the BLEU one)
MAX_BOOTSTRAP_DRAWS = 100_000_000


def _check_limits(opts) -> None:
    """The bounds of ``python -m explainer rouge --dialect rouge155``, checked from the flags before any file is
    read (-n 999999999 built a billion n-gram types; -r 100000000 a hundred million resamples)."""
    from explainer.rouge.rouge155.dialect import MAX_RESAMPLES

    if opts.n > CLI_MAX_N:
        raise ValueError(f"-n {opts.n:,}: the explainer computes ROUGE-1 to ROUGE-{CLI_MAX_N} (-n 0 to {CLI_MAX_N})")
    if opts.resamples > MAX_RESAMPLES:
        raise ValueError(f"-r {opts.resamples:,}: at most {MAX_RESAMPLES:,} bootstrap resamples")


def _check_draws(opts, specs) -> None:
    """Resamples x evaluations, the bootstrap's draws (the core's limit), before any summary is read."""
    if opts.resamples * max(1, len(specs)) > MAX_BOOTSTRAP_DRAWS:
        raise ValueError(f"-r {opts.resamples:,} x {len(specs):,} evaluations = {opts.resamples * len(specs):,} "
                         f"bootstrap draws, over the limit of {MAX_BOOTSTRAP_DRAWS:,}; use -r "
                         f"{max(1, MAX_BOOTSTRAP_DRAWS // len(specs)):,} or fewer")


def main(argv: list[str] | None = None) -> int:
    """A drop-in for ``ROUGE-1.5.5.pl [flags] config [systemID]``: prints the script's report."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    flags: list[str] = []
    pos: list[str] = []
    i = 0
    try:
        while i < len(args):
            a = args[i]
            if a.startswith("-") and len(a) == 2 and not pos:
                flags.append(a)
                if a[1] in "bceflnptrwz23":
                    if i + 1 >= len(args):
                        raise ValueError(f"flag {a} needs a value")
                    flags.append(args[i + 1])
                    i += 1
            else:
                pos.append(a)
            i += 1
        if not pos or "-h" in flags or "-H" in flags:
            print(USAGE, file=sys.stderr)
            return 0 if ("-h" in flags or "-H" in flags) else 1
        be_mode = None
        core_flags = list(flags)
        if "-3" in core_flags:
            k = core_flags.index("-3")
            be_mode = core_flags[k + 1]
            del core_flags[k:k + 2]
        opts = parse_flags(core_flags)
        _check_limits(opts)
        z = flags[flags.index("-z") + 1] if "-z" in flags else None
        system_id = pos[1] if len(pos) > 1 else None
        if z is not None:
            specs = read_file_list(pos[0], z, system_id or "X", base=Path.cwd())
            system_id = system_id or "X"
            all_peers = False
        else:
            specs = read_config_xml(pos[0], base=Path.cwd())
            all_peers = "-a" in flags and system_id is None
            if not all_peers and system_id is None:
                raise ValueError("Please specify a system ID to evaluate or use option '-a' to evaluate all systems.")
        _check_draws(opts, specs)
        run = run_config(specs, opts, system_id=system_id, all_peers=all_peers, be_mode=be_mode)
        for w in run.missing:
            print(w, file=sys.stderr)
        conf = flags[flags.index("-c") + 1] if "-c" in flags else "95"
        sys.stdout.write(format_report(run, opts, confidence_label=conf, per_eval="-d" in flags))
        died = next((r.died for r in run.results.values() if r.died), None)
        if died:
            print(died, file=sys.stderr)
            return 255
        return 0
    except (ValueError, OSError, ET.ParseError) as e:       # OSError: a directory, a device, no permission
        msg = f"{e.strerror}: {e.filename}" if isinstance(e, OSError) and e.strerror and e.filename else str(e)
        print(f"rouge155: {msg}".replace("\n", "\\n"), file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
