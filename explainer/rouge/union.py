"""Summary-level (union) LCS: rouge-score's ``_summary_level_lcs`` = ROUGE-1.5.5's ROUGE-L.

For each reference sentence, the LCS positions chosen (rouge-score's exact tie-breaking, see ``lcs.py``)
against every candidate sentence are united; walking the union left to right, a position counts as a hit
only while both whole-summary unigram budgets of its token are > 0, and both are decremented
(docs/dialects-rouge.md). R = hits / reference tokens, P = hits / candidate tokens.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from explainer.rouge.lcs import alternative_exists, backtrack, lcs, lcs_pairs, masks_of

__all__ = ["union_lcs", "union_lcs_hits", "tie_rule_check"]


def union_lcs_hits(ref_sents: Sequence[Sequence[str]], cand_sents: Sequence[Sequence[str]]) -> tuple[int, int, int]:
    """(hits, reference tokens, candidate tokens), scores only."""
    m = sum(map(len, ref_sents))
    n = sum(map(len, cand_sents))
    if not ref_sents or not cand_sents or not m or not n:
        return 0, m, n
    br, bc = _budgets(ref_sents), _budgets(cand_sents)
    cands = [(c, masks_of(c)) for c in cand_sents if c]     # each candidate sentence's bit masks, once
    unions = [_union_positions(r, cands) for r in ref_sents]
    return _budget_walk(ref_sents, unions, br, bc), m, n


def _union_positions(r: Sequence[str], cands: list) -> set[int]:
    """The reference positions rouge-score's backtrace chooses against any candidate sentence (their union)."""
    union: set[int] = set()
    if not r:
        return union
    rset = set(r)
    for c, masks in cands:
        if not rset.isdisjoint(masks):
            union.update(p[0] for p in lcs_pairs(r, c, masks))
    return union


def union_lcs(ref_sents: Sequence[Sequence[str]], cand_sents: Sequence[Sequence[str]]) -> dict:
    """Every step of the union LCS for a trace."""
    m = sum(map(len, ref_sents))
    n = sum(map(len, cand_sents))
    out = {"ref_tokens": m, "cand_tokens": n, "hits": 0, "per_ref_sentence": [],
           "ref_budget": {}, "cand_budget": {}}
    if not ref_sents or not cand_sents or not m or not n:
        out["note"] = ("no reference sentences with tokens" if not m or not ref_sents
                       else "no candidate sentences with tokens") + ": rouge-score returns 0"
        out["hits_with_other_tie_rule"] = 0
        out["tie_rule_changes_hits"] = False
        return out
    br, bc = _budgets(ref_sents), _budgets(cand_sents)
    out["ref_budget"] = dict(br)
    out["cand_budget"] = dict(bc)
    budgets0 = (Counter(br), Counter(bc))
    alt_unions: list[set[int]] = []
    for ri, r in enumerate(ref_sents):
        record, alt_union = _union_sentence(ri, r, cand_sents, br, bc)
        out["per_ref_sentence"].append(record)
        out["hits"] += record["hits"]
        alt_unions.append(alt_union)
    # The same walk with the other tie rule (drop a candidate token on ties): shows whether rouge-score's tie
    # rule changed this number (docs/dialects-rouge.md).
    alt_hits = _budget_walk(ref_sents, alt_unions, *budgets0)
    out["hits_with_other_tie_rule"] = alt_hits
    out["tie_rule_changes_hits"] = alt_hits != out["hits"]
    return out


def _budgets(sents: Sequence[Sequence[str]]) -> Counter:
    """The whole text's unigram counts: how often each token may still count as a hit."""
    budget: Counter = Counter()
    for s in sents:
        budget.update(s)
    return budget


def _union_sentence(ri: int, r: Sequence[str], cand_sents: Sequence[Sequence[str]], br: Counter,
                    bc: Counter) -> tuple[dict, set[int]]:
    """One reference sentence: its LCS with every candidate sentence, their union, and the budget walk over it
    (``br``/``bc`` are spent). Returns the trace record and the union under the other tie rule."""
    per_c = []
    union: set[int] = set()
    alt_union: set[int] = set()
    for ci, c in enumerate(cand_sents):
        res = lcs(r, c)
        alt = res.length > 0 and alternative_exists(r, c, res)
        per_c.append({"cand_sentence": ci, "lcs_length": res.length,
                      "ref_indices": res.ref_indices, "cand_indices": res.cand_indices,
                      "alternative_lcs_exists": alt})
        union.update(res.ref_indices)
        if alt:
            alt_union.update(p[0] for p in backtrack(res.rows, r, c, drop_candidate_on_ties=True))
        else:
            alt_union.update(res.ref_indices)
    steps = []
    for k in sorted(union):
        t = r[k]
        ok = bc[t] > 0 and br[t] > 0
        steps.append({"ref_index": k, "token": t, "cand_budget_before": bc[t], "ref_budget_before": br[t],
                      "counted": ok})
        if ok:
            bc[t] -= 1
            br[t] -= 1
    record = {"ref_sentence": ri, "tokens": list(r), "lcs_per_cand_sentence": per_c, "union": sorted(union),
              "clipping": steps, "hits": sum(1 for s in steps if s["counted"]),
              "clipped": [{"ref_index": s["ref_index"], "token": s["token"]} for s in steps if not s["counted"]]}
    return record, alt_union


def _budget_walk(ref_sents, unions, br: Counter, bc: Counter) -> int:
    """Hits of the union walk: a union position counts while both unigram budgets of its token are > 0."""
    hits = 0
    for r, u in zip(ref_sents, unions):
        for k in sorted(u):
            t = r[k]
            if bc[t] > 0 and br[t] > 0:
                hits += 1
                bc[t] -= 1
                br[t] -= 1
    return hits


def tie_rule_check(ref_sents: Sequence[Sequence[str]], cand_sents: Sequence[Sequence[str]], ref_budget: Counter,
                   cand_budget: Counter) -> tuple[list[list[bool]], int]:
    """For a union walk whose alignments use the rouge-score / ROUGE-1.5.5 ``markLCS`` tie rule (a dialect that
    computes the union itself, e.g. rouge155): per [reference sentence][candidate sentence] whether another LCS
    exists, and the hits of the same walk (fresh copies of the given budgets) when ties drop a candidate token."""
    flags: list[list[bool]] = []
    unions: list[set[int]] = []
    for r in ref_sents:
        row, u = [], set()
        for c in cand_sents:
            if not r or not c:
                row.append(False)
                continue
            res = lcs(r, c)
            alt = res.length > 0 and alternative_exists(r, c, res)
            row.append(alt)
            if alt:
                u.update(p[0] for p in backtrack(res.rows, r, c, drop_candidate_on_ties=True))
            else:
                u.update(res.ref_indices)
        flags.append(row)
        unions.append(u)
    return flags, _budget_walk(ref_sents, unions, Counter(ref_budget), Counter(cand_budget))
