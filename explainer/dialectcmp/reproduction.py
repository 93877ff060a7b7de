"""Which configurations give a claimed number? Search the common configurations for one candidate and its
references, list every one whose value prints as the claim, simplest first; the nearest ones otherwise.

>>> r = reproduce("Abandon all hope , ye who enter here", refs, "BLEU: 0.541")          # doctest: +SKIP
>>> r.verdict, r.matches[0].references, r.matches[0].argv                               # doctest: +SKIP
('reproduced', [0], ['bleu', '--jsonl', '-', '--dialect', 'sacrebleu'])

A value matches when, printed with the claim's decimals, it is the claim: as the implementation reports it,
or on the other scale (a 0–1 score ×100, a 0–100 score ÷100). Values that match only when cut instead of
rounded are listed apart (``truncated``). The search covers the configurations of ``space.py`` over every
reference subset: all references, the first only, each single one.
"""
from __future__ import annotations

import shlex
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from explainer.dialectcmp.claim import ROUGE_TYPES_SEARCHED, Claim, parse_claim
from explainer.dialectcmp.claim_names import MAX_CLAIM_PARTS, other_metric, refusal_message, split_claims
from explainer.dialectcmp.configs import Config, dialect_class, shell_command, stdin_line
from explainer.dialectcmp.engines import BleuEngine, RougeEngine
from explainer.dialectcmp.limits import (
    MAX_CLAIM_CHARS,
    MAX_REPRODUCE_CHARS,
    MAX_REPRODUCE_TEXT_CHARS,
    check_segment,
)
from explainer.dialectcmp.space import (
    UNUSUAL_COST,
    SearchConfig,
    bleu_space,
    iter_rules,
    rouge_space,
    split_sentences_per_line,
)
from explainer.errors import ExplainerInputError

__all__ = ["reproduce", "reproduce_claims", "Reproduction", "Match", "reference_subsets", "MAX_MATCHES", "N_NEAREST",
           "SEARCHERS", "finish"]

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
    metric: str                 # "bleu" or the ROUGE type
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

    @property
    def argv(self) -> list[str]:
        return self.corpus_argv if self.corpus_argv is not None else self.config.argv()

    @property
    def unusual(self) -> bool:
        return self.cost >= UNUSUAL_COST

    @property
    def description(self) -> str:
        label = self.config.dialect_class().short_label or self.config.dialect
        what = "BLEU" if self.metric == "bleu" else self.metric
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
        return {"claim": self.claim.text, "value": float(self.claim.value), "decimals": self.claim.decimals,
                "significant": self.claim.significant,
                "parsed": self.claim.to_dict(), "verdict": self.verdict, "message": self.message,
                "n_matches": self.n_matches, "n_configurations": self.n_configurations,
                "seconds": round(self.seconds, 4),
                "matches": [m.to_dict() for m in self.matches], "truncated": [m.to_dict() for m in self.truncated],
                "nearest": [m.to_dict() for m in self.nearest], "judgement": self.judgement().to_dict()}

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

    def add(self, metric: str, sc: SearchConfig, subset: tuple, sub_cost: float, sub_words: str, measure: str,
            value: float, native_scale: float, texts: tuple | None = None) -> None:
        claim = self.claim
        forms = [("as printed", value, 0.0)]
        forms.append(("x100", value * 100.0, 0.25) if native_scale == 1.0 else ("/100", value / 100.0, 0.25))
        cand, refs = texts or (self.candidate, self.references)
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
                                          self._stdin(cand, refs, subset), sc.lsum_split, dist)
                continue
            table = self.matches if rounding == "round" else self.truncated
            old = table.get(key)
            if old is not None and old.cost <= cost:
                continue        # an equivalent, simpler configuration gives the same value
            table[key] = Match(metric, sc.config, list(subset), measure, value, shown, form, rounding, cost,
                               words + ([_form_words(form)] if fc else []) + (["truncated, not rounded"]
                                                                              if rounding == "truncate" else []),
                               self._stdin(cand, refs, subset), sc.lsum_split)

    def _stdin(self, cand: str, refs: list, subset: tuple) -> str:
        key = (cand, id(refs), subset)
        s = self._stdins.get(key)
        if s is None:
            s = self._stdins[key] = stdin_line(cand, [refs[k] for k in subset])
        return s


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
    searched ("chrF 55.2") comes back ``refused`` (``claim_names.METRIC_NAMES``); for a string with several
    numbers use ``reproduce_claims``."""
    t0 = time.perf_counter()
    refs = check_segment(candidate, references, limit=MAX_REPRODUCE_CHARS, per_text=MAX_REPRODUCE_TEXT_CHARS)
    refused = _refusal(claim)
    if refused is not None:
        return refused
    cl = claim if isinstance(claim, Claim) else parse_claim(claim, metric)
    col = _Collector(cl, candidate, refs)
    subsets = reference_subsets(len(refs))
    do_bleu = cl.family in (None, "bleu") and not (cl.family is None and set(cl.measures) & {"recall", "fmeasure"})
    do_rouge = cl.family in (None, "rouge") and not (cl.family is None and set(cl.measures) & {"bp"})
    bspace = bleu_space([candidate] + refs, cl.bleu_order) if do_bleu else []
    split_c, split_r = split_sentences_per_line(candidate), [split_sentences_per_line(r) for r in refs]
    split_changes = split_c != candidate or split_r != refs
    rspace = rouge_space(split_changes=split_changes) if do_rouge else []
    total = len(bspace) + len(rspace)
    done = 0
    if do_bleu:
        _search_bleu(col, cl, bspace, subsets, candidate, refs, lambda: progress and progress(done, total))
        done += len(bspace)
        if progress:
            progress(done, total)
    if do_rouge:
        reng = RougeEngine(candidate, refs)
        for sc in rspace:
            _search_rouge(col, reng, cl, sc, subsets, (split_c, split_r) if sc.lsum_split else None)
            done += 1
            if progress and done % 8 == 0:
                progress(done, total)
    if progress:
        progress(total, total)
    return finish(col, cl, t0, max_matches, candidate, refs)


def finish(col, cl: Claim, t0: float, max_matches: int | None, candidate="", refs=()) -> Reproduction:
    """The collected values as a Reproduction: matches and cut matches simplest first, the nearest values."""
    matches = sorted(col.matches.values(), key=_order)
    truncated = sorted((m for k, m in col.truncated.items() if not _also_rounds(col, m)), key=_order)
    nearest = sorted(col.near.values(), key=lambda m: (m.distance, m.cost))[:N_NEAREST]
    cap = slice(None) if max_matches is None else slice(max_matches)
    return Reproduction(cl, matches[cap], truncated[cap], nearest, len(matches), col.n,
                        time.perf_counter() - t0, candidate, list(refs))


#: the metric families ``reproduce`` searches; a claim naming any other metric (claim_names.METRIC_NAMES) is
#: refused. A new metric's searcher is added here and named in METRIC_NAMES.
SEARCHERS = ("bleu", "rouge")


def _refusal(claim) -> Reproduction | None:
    """A refused Reproduction when the claim names a metric that is not searched (None otherwise)."""
    if isinstance(claim, Claim) or not isinstance(claim, str):
        return None
    other = other_metric(claim, SEARCHERS)
    if other is None:
        return None
    from decimal import Decimal

    cl = Claim(claim.strip()[:MAX_CLAIM_CHARS], Decimal(0), 0, False, other.name, None, (), ())
    return Reproduction(cl, [], [], [], 0, 0, 0.0, refused=refusal_message(other, claim))


def reproduce_claims(candidate: str, references: Sequence[str], text: str, **kw) -> list[Reproduction]:
    """``reproduce`` for each number of a claim string ("R-1/R-2/R-L 44.2/21.3/41.0", "BLEU 27.3 / chrF 55.1"),
    each searched (or refused) under its own name; a claim with one number gives one Reproduction."""
    parts = _parts(text)
    return [reproduce(candidate, references, p, **kw) for p in parts]


def _parts(text) -> list:
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


def _search_bleu(col, cl: Claim, space, subsets, candidate, refs, tick) -> None:
    eng = BleuEngine(candidate, refs)
    measures = cl.measures if cl.family == "bleu" else (
        ("p1", "p2", "p3", "p4") if "precision" in cl.measures else ("score",))
    measures = tuple(m for m in measures if m in ("score", "bp", "p1", "p2", "p3", "p4")) or ("score",)
    for i, sc in enumerate(space):
        opts = sc.config.opts
        for subset, sub_cost, sub_words in subsets:
            res = eng.score(sc.dialect, opts, subset)
            col.n += 1
            if res.error is not None:
                continue        # the real library fails here: it prints no number, so it explains no claim
            scale = eng.dialect(sc.dialect, opts).scale
            for m in measures:
                if m == "score":
                    col.add("bleu", sc, subset, sub_cost, sub_words, m, res.score, scale)
                elif m == "bp":
                    col.add("bleu", sc, subset, sub_cost, sub_words, m, float(res.bp), 1.0)
                else:
                    n = int(m[1])
                    if n <= len(res.precisions):
                        col.add("bleu", sc, subset, sub_cost, sub_words, m, float(res.precisions[n - 1]), 1.0)
        if i % 64 == 0:
            tick()


def rouge_l_meaning(cl: Claim, rtype: str, dialect: str, split: bool) -> tuple[float, str]:
    """(extra cost, words) of the meaning of "ROUGE-L" a value has, when the claim names ROUGE-L (finding: papers'
    ROUGE-L is rouge-score's sentence-level rougeL, ROUGE-1.5.5's summary-level union LCS, or rougeLsum)."""
    if "rougeL" not in cl.rouge_types or "rougeLsum" in cl.rouge_types:
        return 0.0, ""
    if rtype == "rougeL":
        return 0.0, "ROUGE-L as sentence-level LCS (rouge-score's rougeL)"
    if rtype != "rougeLsum":
        return 0.0, ""
    if dialect_class("rouge", dialect).rouge_l_is_summary_level:
        return 0.0, "ROUGE-L as ROUGE-1.5.5 computes it: summary-level union LCS over sentences (rougeLsum here)"
    return 0.5, ("ROUGE-L reported from rougeLsum (summary-level, sentences at "
                 + ("the sentence ends, one per line)" if split else "line breaks)"))


def _rouge_types(cl: Claim, dialect: str) -> list[str]:
    from explainer.rouge import parse_type

    wanted = list(cl.rouge_types or ROUGE_TYPES_SEARCHED)
    if "rougeL" in wanted and "rougeLsum" not in wanted:
        wanted.append("rougeLsum")      # "ROUGE-L" is summary-level in ROUGE-1.5.5 and in many papers' rougeLsum
    kinds = dialect_class("rouge", dialect).native_kinds     # what the implementation itself computes
    return [t for t in wanted if parse_type(t).kind in kinds]


def _search_rouge(col, eng: RougeEngine, cl: Claim, sc: SearchConfig, subsets, split_texts) -> None:
    types = _rouge_types(cl, sc.dialect)
    if split_texts is not None:     # the sentence split changes only the summary-level types
        types = [t for t in types if t == "rougeLsum" or t.startswith("rougeW")]
    if not types:
        return
    measures = cl.measures or ("precision", "recall", "fmeasure")
    reported = dialect_class("rouge", sc.dialect).reported_measures
    if set(reported) != {"precision", "recall", "fmeasure"}:      # e.g. HF evaluate reports F only
        measures = tuple(m for m in measures if m in reported)
        if not measures:
            return
    prepared = eng.per_reference(sc.dialect, sc.config.opts, types, split_texts)
    rules = list(iter_rules(sc.dialect)) if len(col.references) > 1 else [next(iter(iter_rules(sc.dialect)))]
    for rule, rule_cost, rule_words in rules:
        opts = dict(sc.config.opts)
        if rule != next(iter(iter_rules(sc.dialect)))[0]:
            opts["multi_ref"] = rule
        for subset, sub_cost, sub_words in subsets:
            if len(subset) == 1 and rule != next(iter(iter_rules(sc.dialect)))[0]:
                continue        # one reference: every rule gives the same numbers
            scores = eng.combine(prepared, rule, subset)
            col.n += 1
            for t, s in scores.items():
                if getattr(s, "died", None):
                    continue    # ROUGE-1.5.5 dies here (-w with an empty reference): it prints nothing
                cfg = Config.make("rouge", sc.dialect, opts, types=(t,))
                mean_cost, meaning = rouge_l_meaning(cl, t, sc.dialect, sc.lsum_split)
                sc2 = SearchConfig(cfg, sc.cost + rule_cost + mean_cost,
                                   sc.words + ((rule_words,) if rule_words else ()) + ((meaning,) if meaning else ()),
                                   lsum_split=sc.lsum_split)
                for m in measures:
                    col.add(t, sc2, subset, sub_cost, sub_words, m, float(getattr(s, m)), 1.0, split_texts)
