"""Which configurations give a claimed number? Search the common configurations for one candidate and its
references, list every one whose value prints as the claim, simplest first; the nearest ones otherwise.

>>> r = reproduce("Abandon all hope , ye who enter here", refs, "BLEU: 0.541")          # doctest: +SKIP
>>> r.verdict, r.matches[0].references, r.matches[0].argv                               # doctest: +SKIP
('reproduced', [0], ['bleu', '--jsonl', '-', '--dialect', 'sacrebleu'])

A value matches when, printed with the claim's decimals, it is the claim: as the implementation reports it,
or on the other scale (a 0–1 score ×100, a 0–100 score ÷100). Values that match only when cut instead of
rounded are listed apart (``truncated``). The search covers every registered family the claim may be (its name,
or BLEU and ROUGE for a bare number), each through its part (``explainer.dialectcmp.families``), over the
configurations its dialects declare (``space.py``) and every reference subset: all references, the first only,
each single one.
"""
from __future__ import annotations

import shlex
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from explainer.dialectcmp.claim import Claim, parse_claim
from explainer.dialectcmp.claim_names import MAX_CLAIM_PARTS, other_metric, refusal_message, split_claims
from explainer.dialectcmp.configs import Config, shell_command, stdin_line
from explainer.dialectcmp.limits import (
    MAX_CLAIM_CHARS,
    MAX_REPRODUCE_CHARS,
    MAX_REPRODUCE_TEXT_CHARS,
    check_segment,
)
from explainer.dialectcmp.space import UNUSUAL_COST, SearchConfig, search_context
from explainer.dialectcmp.ties import Coincidence, claim_scale, coincidence, tied_implementations
from explainer.errors import ExplainerInputError

__all__ = ["reproduce", "reproduce_claims", "Reproduction", "Match", "reference_subsets", "MAX_MATCHES", "N_NEAREST",
           "finish", "searched_parts"]

MAX_MATCHES = 100       # matches listed (all are counted)
N_NEAREST = 5

_MEASURE_WORDS = {"score": "score", "bp": "brevity penalty", "precision": "precision", "recall": "recall",
                  "fmeasure": "F", "p1": "1-gram precision", "p2": "2-gram precision", "p3": "3-gram precision",
                  "p4": "4-gram precision"}


def reference_subsets(n: int) -> list[tuple[tuple, float, str]]:
    """(reference indices, cost, words): all references, the first only, each other single one."""
    out = [(tuple(range(n)), 0.0, "")]
    if n > 1:
        out.append(((0,), 1.0, "the first reference only"))
        out += [((k,), 2.0, f"reference {k + 1} only") for k in range(1, n)]
    return out


@dataclass
class Match:
    metric: str                 # what is matched: "bleu", a ROUGE type, the chrF or TER name ("chrF2", "TER")
    config: Config
    references: list[int]
    measure: str
    value: float                # as ``python -m explainer`` prints it for ``argv``
    shown: str                  # the value in the claim's form, printed with its decimals
    form: str                   # "as printed", "x100", "/100"
    rounding: str               # "round" or "truncate"
    cost: float
    settings: list[str]
    stdin: str
    lsum_split: bool = False
    distance: float = 0.0
    corpus_argv: list | None = None     # a corpus match: the command over the --hyp/--ref files
    value_path: list | None = None      # a corpus match: where the value is in that command's JSON output
    label: str = ""                     # the metric as a sentence names it ("BLEU"; default: ``metric``)

    @property
    def argv(self) -> list[str]:
        return self.corpus_argv if self.corpus_argv is not None else self.config.argv()

    @property
    def unusual(self) -> bool:
        return self.cost >= UNUSUAL_COST

    @property
    def description(self) -> str:
        label = self.config.dialect_class().short_label or self.config.dialect
        what = self.label or self.metric
        meas = "" if self.measure == "score" else f" {_MEASURE_WORDS.get(self.measure, self.measure)}"
        s = f"{label} {what}{meas}"
        if self.settings:
            s += ", " + ", ".join(self.settings)
        return s

    def to_dict(self) -> dict:
        return {"metric": self.metric, "dialect": self.config.dialect, "options": self.config.opts,
                "references": self.references, "measure": self.measure, "value": self.value, "shown": self.shown,
                "form": self.form, "rounding": self.rounding, "argv": self.argv, "stdin": self.stdin,
                "command": (shell_command(self.argv, self.stdin) if self.corpus_argv is None
                            else "python -m explainer " + shlex.join(self.argv)),
                **({"value_path": self.value_path} if self.value_path is not None else {}),
                "settings": self.settings,
                "description": self.description, "cost": self.cost, "unusual": self.unusual,
                **({"distance": self.distance} if self.distance else {})}


@dataclass
class Reproduction:
    claim: Claim
    matches: list[Match]
    truncated: list[Match]
    nearest: list[Match]
    n_matches: int
    n_configurations: int       # configurations scored (each reference subset and multi-reference rule counts)
    seconds: float
    candidate: str = ""
    references: list = field(default_factory=list)
    refused: str = ""           # the claim names a metric this tool does not compute: why it is not searched
    #: one match per implementation that prints the claim, the original script first (``ties``)
    ties: list = field(default_factory=list)
    #: how likely an unrelated configuration prints the claim at its precision (``ties.coincidence``)
    coincidence: Coincidence | None = None

    @property
    def tied(self) -> bool:
        """Several implementations print the claimed number."""
        return len(self.ties) > 1

    @property
    def verdict(self) -> str:
        """``reproduced`` (a common configuration gives it), ``unusual`` (only an unusual setting does),
        ``truncated`` (only by cutting instead of rounding), ``unreproducible``, or ``refused`` (the claim names
        a metric that is not searched: ``refused`` says which)."""
        if self.refused:
            return "refused"
        if any(not m.unusual for m in self.matches):
            return "reproduced"
        if self.matches:
            return "unusual"
        if self.truncated:
            return "truncated"
        return "unreproducible"

    @property
    def message(self) -> str:
        """The verdict in a sentence; a tie and the chance of a coincidence after it."""
        head = self.headline
        if self.verdict in ("refused", "unreproducible"):
            return head
        if self.tied:
            head += f" {len(self.ties)} implementations give it: " + _and([_tie_words(m) for m in self.ties]) + "."
        if self.coincidence is not None:
            head += " " + self.coincidence.sentence
        return head

    @property
    def headline(self) -> str:
        """The verdict in a sentence (the simplest configuration that gives the number, or the nearest)."""
        v = self.verdict
        c = self.claim.text
        if v == "refused":
            return self.refused
        if v == "reproduced":
            m = self.matches[0]
            return (f"{c!r} is reproduced by {self.n_matches} configuration(s); the simplest: {m.description} "
                    f"= {m.shown}.")
        if v == "unusual":
            m = self.matches[0]
            return (f"No common configuration gives {c!r}; only an unusual setting does: {m.description} "
                    f"= {m.shown}.")
        if v == "truncated":
            m = self.truncated[0]
            return (f"{c!r} is reproduced only by cutting the value instead of rounding it: {m.description} = "
                    f"{m.value!r}.")
        near = self.nearest[0] if self.nearest else None
        tail = f" The nearest: {near.description} = {near.value:.6g}." if near else ""
        return (f"{c!r} cannot be reproduced by any of the {self.n_configurations:,} common configurations "
                f"searched.{tail}")

    def to_dict(self) -> dict:
        if self.refused:        # not read as a BLEU or ROUGE number: no value, no parse
            return {"claim": self.claim.text, "metric": self.claim.family, "verdict": self.verdict,
                    "message": self.message, "n_matches": 0, "n_configurations": 0, "matches": [], "truncated": [],
                    "nearest": [], "judgement": self.judgement().to_dict()}
        return {"claim": self.claim.text, "value": float(self.claim.value), "decimals": self.claim.decimals,
                "significant": self.claim.significant,
                "parsed": self.claim.to_dict(), "verdict": self.verdict, "message": self.message,
                "n_matches": self.n_matches, "n_configurations": self.n_configurations,
                "seconds": round(self.seconds, 4),
                "matches": [m.to_dict() for m in self.matches], "truncated": [m.to_dict() for m in self.truncated],
                "nearest": [m.to_dict() for m in self.nearest], "judgement": self.judgement().to_dict(),
                "ties": [_tie_dict(m) for m in self.ties],
                "coincidence": self.coincidence.to_dict() if self.coincidence is not None else None}

    def judgement(self, value_here: float | None = None, *, scale: float = 1.0):
        """The three-way verdict (``explainer.dialectcmp.verdict.judge``): ``value_here`` is the value with the
        settings the claim is shown with (None: no such settings)."""
        from explainer.dialectcmp.verdict import judge

        return judge(self, value_here, scale=scale)


# ------------------------------------------------------------------------------------------------ search
class _Collector:
    def __init__(self, claim: Claim, candidate: str, references: list[str]) -> None:
        self.claim = claim
        self.candidate = candidate
        self.references = references
        self.matches: dict = {}
        self.truncated: dict = {}
        self.near: dict = {}
        self.n = 0
        self.window = 1.01 * claim.resolution
        self._stdins: dict = {}
        self.values: list[float] = []       # every value scored, on the claim's scale (the coincidence estimate)

    def add(self, metric: str, sc: SearchConfig, subset: tuple, sub_cost: float, sub_words: str, measure: str,
            value: float, native_scale: float, texts: tuple | None = None, *, label: str = "") -> None:
        claim = self.claim
        forms = [("as printed", value, 0.0)]
        forms.append(("x100", value * 100.0, 0.25) if native_scale == 1.0 else ("/100", value / 100.0, 0.25))
        cand, refs = texts or (self.candidate, self.references)
        self.values.append(claim_scale(claim, value, native_scale))
        base_cost = sc.cost + sub_cost
        words = list(sc.words) + ([sub_words] if sub_words else [])
        for form, x, fc in forms:
            dist = claim.distance(x)
            rounding = None
            if dist <= self.window:     # cheap test first: only values this close can print as the claim
                rounding = "round" if claim.rounds_to(x) else ("truncate" if claim.truncates_to(x) else None)
            cost = base_cost + fc + (0.5 if rounding == "truncate" else 0.0)
            # a cut value shows the claim's digits (cut), not the rounded ones
            shown = claim.shown if rounding == "truncate" else claim.format(x)
            key = (metric, sc.dialect, subset, measure, round(value, 12), form)
            if rounding is None:
                # nearest: keep the simplest configuration per distinct value
                nk = (metric, measure, round(x, 10))
                old = self.near.get(nk)
                if old is None or cost < old.cost:
                    self.near[nk] = Match(metric, sc.config, list(subset), measure, value, shown, form, "round", cost,
                                          words + ([_form_words(form)] if fc else []),
                                          self._stdin(cand, refs, subset), sc.lsum_split, dist, label=label)
                continue
            table = self.matches if rounding == "round" else self.truncated
            old = table.get(key)
            if old is not None and old.cost <= cost:
                continue        # an equivalent, simpler configuration gives the same value
            table[key] = Match(metric, sc.config, list(subset), measure, value, shown, form, rounding, cost,
                               words + ([_form_words(form)] if fc else []) + (["truncated, not rounded"]
                                                                              if rounding == "truncate" else []),
                               self._stdin(cand, refs, subset), sc.lsum_split, label=label)

    def _stdin(self, cand: str, refs: list, subset: tuple) -> str:
        key = (cand, id(refs), subset)
        s = self._stdins.get(key)
        if s is None:
            s = self._stdins[key] = stdin_line(cand, [refs[k] for k in subset])
        return s


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else "; ".join(items[:-1]) + "; and " + items[-1]


def _tie_words(m: Match) -> str:
    original = " (the original script)" if m.config.dialect_class().original else ""
    return f"{m.description}{original} = {m.shown}"


def _tie_dict(m: Match) -> dict:
    return {"family": m.config.family, "dialect": m.config.dialect, "options": m.config.opts,
            "description": m.description, "shown": m.shown, "value": m.value, "references": m.references,
            "original": m.config.dialect_class().original}


def _form_words(form: str) -> str:
    return {"x100": "×100 (reported on 0–100)", "/100": "÷100 (reported on 0–1)"}.get(form, "")


def _order(m: Match) -> tuple:
    return (m.cost, len(m.settings), m.config.dialect_class().rank, m.metric, m.measure, m.references)


def reproduce(candidate: str, references: Sequence[str], claim: str | Claim, *, metric: str = "any",
              progress: Callable[[int, int], None] | None = None,
              max_matches: int | None = MAX_MATCHES) -> Reproduction:
    """Search the common configurations for ``claim`` (a string such as "BLEU = 0.576", or a parsed Claim).
    ``progress(done, total)`` is called as configurations are scored (for a progress bar); ``max_matches`` caps
    the matches listed (all are counted in ``n_matches``; None lists all). A claim naming a metric that is not
    computed here ("COMET 0.82") comes back ``refused`` (``claim_names.METRIC_NAMES``); for a string with several
    numbers use ``reproduce_claims``."""
    t0 = time.perf_counter()
    refs = check_segment(candidate, references, limit=MAX_REPRODUCE_CHARS, per_text=MAX_REPRODUCE_TEXT_CHARS)
    refused = _refusal(claim)
    if refused is not None:
        return refused
    cl = claim if isinstance(claim, Claim) else parse_claim(claim, metric)
    col = _Collector(cl, candidate, refs)
    subsets = reference_subsets(len(refs))
    context = search_context([candidate] + refs, named=cl.named)
    parts = searched_parts(cl)
    tick = _ticker(progress, sum(len(p.space(cl, context)) for p in parts))
    for part in parts:
        part.search(col, cl, candidate, refs, subsets, context, tick)
    tick.finish()
    return finish(col, cl, t0, max_matches, candidate, refs)


def searched_parts(cl: Claim) -> list:
    """The parts of the families searched for a claim (registry order): the one it names, else those that search
    a bare number (BLEU and ROUGE) and read its measure words."""
    from explainer.dialectcmp.families import family_parts

    return [p for p in family_parts() if p.searches(cl)]


class _ticker:
    """``progress(done, total)`` as configurations are scored (``tick(k)``: k more)."""

    def __init__(self, progress, total: int) -> None:
        self.progress, self.total, self.done = progress, total, 0

    def __call__(self, k: int = 1) -> None:
        self.done += k
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)

    def finish(self) -> None:
        if self.progress is not None:
            self.progress(self.total, self.total)


def finish(col, cl: Claim, t0: float, max_matches: int | None, candidate="", refs=()) -> Reproduction:
    """The collected values as a Reproduction: matches and cut matches simplest first, the nearest values."""
    matches = sorted(col.matches.values(), key=_order)
    truncated = sorted((m for k, m in col.truncated.items() if not _also_rounds(col, m)), key=_order)
    nearest = sorted(col.near.values(), key=lambda m: (m.distance, m.cost))[:N_NEAREST]
    cap = slice(None) if max_matches is None else slice(max_matches)
    return Reproduction(cl, matches[cap], truncated[cap], nearest, len(matches), col.n,
                        time.perf_counter() - t0, candidate, list(refs), ties=tied_implementations(matches),
                        coincidence=coincidence(cl, col.values))


def _refusal(claim) -> Reproduction | None:
    """A refused Reproduction when the claim names a metric that is not computed here (None otherwise)."""
    if isinstance(claim, Claim) or not isinstance(claim, str):
        return None
    other = other_metric(claim)
    if other is None:
        return None
    from decimal import Decimal

    cl = Claim(claim.strip()[:MAX_CLAIM_CHARS], Decimal(0), 0, False, other.name, ())
    return Reproduction(cl, [], [], [], 0, 0, 0.0, refused=refusal_message(other, claim))


def reproduce_claims(candidate: str, references: Sequence[str], text: str, **kw) -> list[Reproduction]:
    """``reproduce`` for each number of a claim string ("R-1/R-2/R-L 44.2/21.3/41.0", "BLEU 27.3 / chrF 55.1"),
    each searched (or refused) under its own name; a claim with one number gives one Reproduction."""
    parts = claim_parts(text)
    return [reproduce(candidate, references, p, **kw) for p in parts]


def claim_parts(text) -> list:
    """The numbers of a claim string, each a claim of its own (bounded: MAX_CLAIM_CHARS, MAX_CLAIM_PARTS)."""
    if not isinstance(text, str):
        return [text]
    if len(text) > MAX_CLAIM_CHARS:
        parse_claim(text)       # the length message
    parts = split_claims(text)
    if len(parts) > MAX_CLAIM_PARTS:
        raise ExplainerInputError(f"the claim has {len(parts)} numbers; give at most {MAX_CLAIM_PARTS} at once")
    return parts


def _also_rounds(col, m: Match) -> bool:
    return any(x.config == m.config and x.references == m.references and x.metric == m.metric
               and x.measure == m.measure for x in col.matches.values())
