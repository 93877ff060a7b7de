"""ROUGE's reproduce search for one segment: every configuration of the ROUGE dialects' search space, each text
prepared once per dialect and token options and each type scored once per reference (``engines.RougeEngine``),
then every multi-reference rule the dialect declares (``search_multi_ref``) over every reference subset; the
meanings of "ROUGE-L" papers print are named (``rouge_l_meaning``)."""
from __future__ import annotations

from typing import Iterable

from explainer.dialectcmp.configs import Config, dialect_class
from explainer.dialectcmp.engines import RougeEngine
from explainer.dialectcmp.space import SearchConfig, split_sentences_per_line

__all__ = ["search_segment", "rouge_l_meaning", "rouge_types", "iter_rules", "ROUGE_TYPES_SEARCHED"]

#: ROUGE types searched when the claim names none
ROUGE_TYPES_SEARCHED = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def iter_rules(dialect: str) -> Iterable[tuple[str, float, str]]:
    """The multi-reference rules searched for a ROUGE dialect, the dialect's own rule first (its
    ``search_multi_ref``: rule, cost, words)."""
    return dialect_class("rouge", dialect).search_multi_ref


def rouge_l_meaning(cl, rtype: str, dialect: str, split: bool) -> tuple[float, str]:
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


def rouge_types(cl, dialect: str) -> list[str]:
    """The types searched for the claim under a dialect: those the claim names (ROUGE-L: rougeLsum too), else
    every common one; only those the implementation itself computes."""
    from explainer.rouge import parse_type

    wanted = list(cl.rouge_types or ROUGE_TYPES_SEARCHED)
    if "rougeL" in wanted and "rougeLsum" not in wanted:
        wanted.append("rougeLsum")      # "ROUGE-L" is summary-level in ROUGE-1.5.5 and in many papers' rougeLsum
    cls = dialect_class("rouge", dialect)
    kinds = cls.native_kinds     # what the implementation itself computes
    max_n = getattr(cls, "max_n", 9)        # the rouge package: rouge-1 .. rouge-5 only
    return [t for t in wanted if parse_type(t).kind in kinds and parse_type(t).n <= max_n]


def search_segment(col, cl, measures_all, space, subsets, candidate: str, refs: list[str], tick) -> None:
    """Every configuration of ``space`` for one segment (its Lsum-split ones over the split texts)."""
    split_c, split_r = split_sentences_per_line(candidate), [split_sentences_per_line(r) for r in refs]
    eng = RougeEngine(candidate, refs)
    for i, sc in enumerate(space):
        _search_one(col, eng, cl, measures_all, sc, subsets, (split_c, split_r) if sc.lsum_split else None)
        if i % 8 == 7:
            tick(8)
    tick(len(space) % 8)


def _search_one(col, eng: RougeEngine, cl, measures_all, sc: SearchConfig, subsets, split_texts) -> None:
    types = rouge_types(cl, sc.dialect)
    if split_texts is not None:     # the sentence split changes only the summary-level types
        types = [t for t in types if t == "rougeLsum" or t.startswith("rougeW")]
    if not types:
        return
    measures = measures_all
    reported = dialect_class("rouge", sc.dialect).reported_measures
    if set(reported) != {"precision", "recall", "fmeasure"}:      # e.g. HF evaluate reports F only
        measures = tuple(m for m in measures if m in reported)
        if not measures:
            return
    # a package that takes one reference per candidate (the rouge package, rouge-chinese) on single references only
    several_ok = getattr(dialect_class("rouge", sc.dialect), "multi_reference", True)
    prepared = eng.per_reference(sc.dialect, sc.config.opts, types, split_texts)
    first_rule = next(iter(iter_rules(sc.dialect)))[0]
    rules = list(iter_rules(sc.dialect)) if len(col.references) > 1 else [next(iter(iter_rules(sc.dialect)))]
    for rule, rule_cost, rule_words in rules:
        opts = dict(sc.config.opts)
        if rule != first_rule:
            opts["multi_ref"] = rule
        for subset, sub_cost, sub_words in subsets:
            if len(subset) == 1 and rule != first_rule:
                continue        # one reference: every rule gives the same numbers
            if len(subset) > 1 and not several_ok:
                continue
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
