"""The BLEU walkthrough as steps, read from a BLEU trace's ``to_dict()`` (docs/trace-schema-bleu.md).

Order of a lecture: the texts and their tokens → the candidate's n-grams of one order → counting each in
every reference → clipping (which reference justified it) → modified precision per order → smoothing (only
when an order has no match) → reference length and brevity penalty → geometric mean and the final score.
Every number is a trace field or a count of trace entries.
"""
from __future__ import annotations

import math
from typing import Any

from explainer.teach.answers import question
from explainer.teach.family import LessonFamily
from explainer.teach.model import Chart, Chip, Formula, Para, Result, Step, Table, TokenRow, frac, num
from explainer.teach.notes import misconception, say

__all__ = ["bleu_steps", "default_focus_order", "bleu_headline", "MAX_ROWS", "LESSON", "BleuLesson"]

MAX_ROWS = 400   # n-gram table rows in a step (a long text); the trace download has every one


def bleu_headline(score: float, scale: float) -> str:
    """The BLEU value as the Explain page shows it: 4 decimals on 0–100, 6 on 0–1 (tiny values in
    scientific notation, so NLTK's 1e-154 is not shown as 0)."""
    if score and abs(score) < (1e-4 if scale == 100 else 1e-6):
        return f"{score:.4g}"
    return f"{score:.4f}" if scale == 100 else f"{score:.6f}"


def _toks(text: dict) -> list[str]:
    return [t["text"] for t in text["tokens"]]


def _q(g: str) -> str:
    return f"‘{g}’"


def _gram(n: int) -> str:
    return {1: "unigram", 2: "bigram", 3: "trigram"}.get(n, f"{n}-gram")


def _positions(ps) -> str:
    ps = [p + 1 for p in ps]
    if not ps:
        return "—"
    if len(ps) > 8:
        return ", ".join(map(str, ps[:8])) + f", … ({len(ps)} in all)"
    return ", ".join(map(str, ps))


def _plural(n: int) -> str:
    return f"{_gram(n)}s" + (f" ({n}-grams)" if n <= 3 else "")


def default_focus_order(b: dict) -> int:
    """The order a lesson looks at closely: the lowest order where clipping removes a count (the point of
    the step), else unigrams."""
    for order in b["ngrams"]:
        if any(e["cand_count"] > e["clipped"] and e["max_ref_count"] > 0 for e in order["entries"]):
            return order["n"]
    return 1


def _token_row(label: str, toks: list[str], focus: set[int] = frozenset(), note: str | None = None) -> TokenRow:
    chips = tuple(Chip(t, "focus" if i in focus else "", str(i + 1), f"token {i + 1}") for i, t in enumerate(toks))
    return TokenRow(label, chips, f"{len(toks)} tokens" if note is None else note)


def _covered(starts, n: int) -> set[int]:
    """The token positions covered by n-grams starting at ``starts``."""
    return {p + i for p in starts for i in range(n)}


def _marked(label: str, toks: list[str], starts, n: int, gram: str) -> TokenRow:
    """A text's tokens with the occurrences of one n-gram marked (``focus``): shown with an answer about it."""
    return _token_row(label, toks, _covered(starts, n), f"{_q(gram)} marked: {len(list(starts))}×")


def _texts_given(b: dict) -> tuple:
    out = [Para(f"Candidate: “{b['candidate']['text']}”")]
    for k, r in enumerate(b["references"]):
        out.append(Para(f"Reference {k + 1}: “{r['text']}”"))
    return tuple(out)


def _occurrence_chips(b: dict, order: dict) -> tuple[Chip, ...]:
    """Every n-gram occurrence of the candidate in order: counted (the trace's assignment, labelled with the
    reference it is paired with), clipped away, or in no reference."""
    n = order["n"]
    toks = _toks(b["candidate"])
    at: dict[int, tuple[dict, int]] = {}
    for e in order["entries"]:
        for i, p in enumerate(e["cand_positions"]):
            at[p] = (e, i)
    counted = {a["cand_pos"]: a["ref"] for e in order["entries"] for a in e["assignment"]}
    chips = []
    for p in range(max(0, len(toks) - n + 1)):
        e, i = at[p]
        g = " ".join(toks[p:p + n])
        if p in counted:
            k = counted[p]
            chips.append(Chip(g, "match", f"R{k + 1}",
                              f"{_q(g)} at token {p + 1}: counted, justified by reference {k + 1}"))
        elif e["max_ref_count"] > 0:
            chips.append(Chip(g, "clip", "✂", f"{_q(g)} at token {p + 1}: occurrence {i + 1} of {e['cand_count']}, "
                                              f"beyond its {e['max_ref_count']} in one reference: clipped away"))
        else:
            chips.append(Chip(g, "", "", f"{_q(g)} at token {p + 1}: in no reference"))
    return tuple(chips)


def _refs(ks) -> str:
    """References by number, compactly: "ref 2", "refs 1–4", "refs 1, 3"; "—" for none."""
    ns = [k + 1 for k in ks]
    if not ns:
        return "—"
    if len(ns) == 1:
        return f"ref {ns[0]}"
    if len(ns) > 2 and ns == list(range(ns[0], ns[-1] + 1)):
        return f"refs {ns[0]}–{ns[-1]}"
    return "refs " + ", ".join(map(str, ns))


def _counting_table(b: dict, order: dict, emphasis=()) -> Table:
    K = len(b["references"])
    entries = order["entries"][:MAX_ROWS]
    if K <= 6:
        cols = ("n-gram", "candidate") + tuple(f"ref {k + 1}" for k in range(K))
        rows = tuple((e["text"], e["cand_count"]) + tuple(e["ref_counts"]) for e in entries)
    else:
        cols = ("n-gram", "candidate", "count in references 1…K")
        rows = tuple((e["text"], e["cand_count"], " ".join(map(str, e["ref_counts"]))) for e in entries)
    cap = f"How often each distinct candidate {order['n']}-gram occurs in the candidate and in each reference."
    if len(order["entries"]) > MAX_ROWS:
        cap += f" The first {MAX_ROWS} of {len(order['entries'])} n-grams are shown."
    return Table(cols, rows, tuple(emphasis), cap)


def _step_texts(b: dict) -> Step:
    cand = _toks(b["candidate"])
    blocks: list[Any] = [Para(f"{b['implementation']} splits every text with the {b['tokenizer']} tokenizer; "
                              f"n-grams are counted over these tokens, not over the characters typed.")]
    blocks.append(_token_row("Candidate", cand))
    for k, r in enumerate(b["references"]):
        blocks.append(_token_row(f"Reference {k + 1}", _toks(r)))
    # what preprocessing did, once per kind of change, with the texts it applies to
    texts = [("the candidate", b["candidate"])] + [(f"reference {k + 1}", r) for k, r in enumerate(b["references"])]
    changes: dict[str, list[str]] = {}
    for name, t in texts:
        for ch in t.get("changes") or []:
            changes.setdefault(f"{ch['step']} — {ch['detail']}", []).append(name)
    if changes:
        parts = [f"{what} ({'all texts' if len(names) == len(texts) and len(texts) > 1 else ', '.join(names)})"
                 for what, names in list(changes.items())[:6]]
        blocks.append(Para("Preprocessing: " + "; ".join(parts) + ("; …" if len(changes) > 6 else "") + ".", "note"))
    explanation = (f"The {b['tokenizer']} tokenizer gives {len(cand)} tokens: " + " · ".join(cand[:40]) +
                   (" · …" if len(cand) > 40 else "") + ".")
    q = question("bleu-tokens", f"How many tokens does the candidate have under the {b['tokenizer']} tokenizer?",
                 len(cand), kind="count", explanation=explanation,
                 given=(Para(f"Tokenizer: {b['tokenizer']} ({b['implementation']})."), Para(
                     f"Candidate: “{b['candidate']['text']}”")))
    extra = f"Here the candidate has {len(cand)} tokens and the references " + \
            ", ".join(str(len(r["tokens"])) for r in b["references"]) + "."
    return Step("bleu-texts", "BLEU", "The texts and their tokens", tuple(blocks), say("bleu-texts", extra),
                misconception("bleu-texts"), q)


def _step_ngrams(b: dict, order: dict) -> Step:
    n, c = order["n"], len(b["candidate"]["tokens"])
    distinct = len(order["entries"])
    if order["candidate_ngrams"] == 0:
        head = (f"A {n}-gram is {n} consecutive tokens. The candidate has only {c} token{'s' if c != 1 else ''}, "
                f"so it has no {n}-gram at all.")
    else:
        what = "a single token" if n == 1 else f"{n} consecutive tokens"
        head = (f"A {n}-gram is {what}. A candidate of c = {c} tokens has c − {n} + 1 = "
                f"{order['candidate_ngrams']} {n}-grams; {distinct} of them {'is' if distinct == 1 else 'are'} "
                "distinct.")
    blocks: list[Any] = [Para(head), TokenRow(f"Candidate {n}-grams, in order", tuple(
        Chip(" ".join(_toks(b["candidate"])[p:p + n]), "", str(p + 1), f"{n}-gram starting at token {p + 1}")
        for p in range(order["candidate_ngrams"])), f"{order['candidate_ngrams']} {n}-grams")]
    rows = tuple((e["text"], e["cand_count"], _positions(e["cand_positions"])) for e in order["entries"][:MAX_ROWS])
    if rows:
        blocks.append(Table(("n-gram", "count in candidate", "starts at token"), rows,
                            tuple(i for i, e in enumerate(order["entries"][:MAX_ROWS]) if e["cand_count"] > 1),
                            "Each distinct n-gram once, with how often it occurs (repeated ones highlighted)."))
    toks = _toks(b["candidate"])
    q = question(f"bleu-ngrams-{n}", f"How many {n}-grams does the candidate have, counting repeats?",
                 order["candidate_ngrams"], kind="count",
                 explanation=f"c = {c} tokens, and a {n}-gram starts at every token that still has {n - 1} more "
                             f"after it: max(0, c − {n} + 1) = {order['candidate_ngrams']}.",
                 given=(_token_row("Candidate", toks),))
    return Step("bleu-ngrams", "BLEU", f"The candidate's {_plural(n)}", tuple(blocks),
                say("bleu-ngrams", f"We follow order n = {n} through counting and clipping; the other orders work "
                                   "the same way."), misconception("bleu-ngrams"), q)


def _ask_count_entry(order: dict) -> tuple[dict, int] | None:
    """The n-gram a counting question is about: the one occurring most often in a single reference."""
    best = None
    for e in order["entries"]:
        if e["max_ref_count"] > 0 and (best is None or e["max_ref_count"] > best[0]["max_ref_count"] or (
                e["max_ref_count"] == best[0]["max_ref_count"] and e["cand_count"] > best[0]["cand_count"])):
            best = (e, e["max_refs"][0])
    return best


def _step_counting(b: dict, order: dict) -> Step:
    n = order["n"]
    pick = _ask_count_entry(order)
    idx = order["entries"].index(pick[0]) if pick else None
    blocks = [Para(f"Each distinct candidate {n}-gram is looked up in every reference separately: how often does "
                   "it occur there?"), _counting_table(b, order, () if idx is None else (idx,))]
    in_some = sum(1 for e in order["entries"] if e["max_ref_count"] > 0)
    blocks.append(Para(f"{in_some} of the {len(order['entries'])} distinct {n}-grams "
                       f"{'occurs' if in_some == 1 else 'occur'} in at least one reference.", "note"))
    if pick:
        e, k = pick
        ref = b["references"][k]
        q = question(f"bleu-count-{n}", f"How many times does {_q(e['text'])} occur in reference {k + 1}?",
                     e["ref_counts"][k], kind="count",
                     explanation=f"{_q(e['text'])} occurs {e['ref_counts'][k]}× in reference {k + 1}, starting at "
                                 f"token {_positions(e['ref_positions'][k])}.",
                     given=(_token_row(f"Reference {k + 1}", _toks(ref)), Para(f"The {n}-gram: {_q(e['text'])}")),
                     marked=(_marked(f"Reference {k + 1}", _toks(ref), e["ref_positions"][k], n, e["text"]),))
    else:
        q = question(f"bleu-count-{n}", f"How many of the candidate's distinct {n}-grams occur in some reference?",
                     in_some, kind="count", explanation=f"None of the {len(order['entries'])} distinct {n}-grams "
                                                        "occurs in any reference.", given=_texts_given(b))
    return Step("bleu-counting", "BLEU", f"Counting each {_gram(n)} in every reference", tuple(blocks),
                say("bleu-counting"), misconception("bleu-counting"), q)


def _step_clipping(b: dict, order: dict) -> Step:
    n = order["n"]
    entries = order["entries"][:MAX_ROWS]
    rows = []
    for e in entries:
        just = _refs(e["max_refs"])
        rows.append((e["text"], e["cand_count"], e["max_ref_count"], just, e["clipped"]))
    bites = [i for i, e in enumerate(entries) if e["cand_count"] > e["clipped"]]
    kept = order.get("clip_ref")     # a dialect keeping one reference's statistics (GLEU): clipped against it alone
    key = (f"Clipping: a candidate {n}-gram counts at most as often as it occurs in the single reference where it is "
           "most frequent — min(count in candidate, largest count in one reference)." if kept is None else
           f"Clipping: a candidate {n}-gram counts at most as often as it occurs in reference {kept + 1}, the one "
           f"{b['dialect']} keeps (the next steps show why) — min(count in candidate, count in reference {kept + 1}).")
    blocks: list[Any] = [
        Para(key, "key"),
        TokenRow(f"Candidate {n}-grams: counted (R = the reference that justified it) or clipped (✂)",
                 _occurrence_chips(b, order), f"{order['matches']} of {order['candidate_ngrams']} counted"),
        Table(("n-gram", "in candidate", "max in one ref" if kept is None else f"in ref {kept + 1}", "justified by",
               "counted"), tuple(rows),
              tuple(i for i in bites if entries[i]["max_ref_count"] > 0),
              "Highlighted: n-grams the candidate repeats more often than any single reference allows.",
              total=("total", order["candidate_ngrams"], "", "", order["matches"])),
    ]
    terms = [str(e["clipped"]) for e in order["entries"] if e["clipped"]]
    sum_text = " + ".join(terms) if 0 < len(terms) <= 12 else (f"({len(terms)} non-zero terms)" if terms else "0")
    tail = f" = {order['matches']}" if sum_text != str(order["matches"]) else ""
    blocks.append(Formula((f"m_{n} = Σ min(count, {'max ref count' if kept is None else f'count in ref {kept + 1}'})"
                           f" = {sum_text}{tail}",)))
    chosen = max((e for e in order["entries"] if e["cand_count"] > e["clipped"] and e["max_ref_count"] > 0),
                 key=lambda e: e["cand_count"] - e["clipped"], default=None)
    given = (_counting_table(b, order),)
    if chosen is not None:
        k = chosen["max_refs"][0]
        q = question(f"bleu-clip-{n}",
                     f"The candidate has {_q(chosen['text'])} {chosen['cand_count']} times. How many of them are "
                     "counted after clipping?", chosen["clipped"], kind="count", given=given,
                     mixups=_clip_mixups(chosen, len(b["references"])),
                     marked=(_marked("Candidate", _toks(b["candidate"]), chosen["cand_positions"], n, chosen["text"]),
                             _marked(f"Reference {k + 1}", _toks(b["references"][k]), chosen["ref_positions"][k], n,
                                     chosen["text"])),
                     explanation=f"{_q(chosen['text'])} occurs {chosen['cand_count']}× in the candidate (token "
                                 f"{_positions(chosen['cand_positions'])}), but at most {chosen['max_ref_count']}× "
                                 f"in one reference (reference {k + 1}, token {_positions(chosen['ref_positions'][k])}"
                                 f"): min({chosen['cand_count']}, {chosen['max_ref_count']}) = {chosen['clipped']}.")
        extra = (f"Here {_q(chosen['text'])} occurs {chosen['cand_count']}× in the candidate but only "
                 f"{chosen['max_ref_count']}× in reference {k + 1}, so it counts {chosen['clipped']}×.")
    else:
        unclipped = sum(e["cand_count"] for e in order["entries"] if e["max_ref_count"] > 0)
        q = question(f"bleu-clip-{n}", f"How many of the candidate's {n}-grams are counted after clipping (m_{n})?",
                     order["matches"], kind="count", given=given, mixups=((unclipped, UNCLIPPED),),
                     explanation=f"Adding min(count, max ref count) over the distinct {n}-grams: {sum_text} = "
                                 f"{order['matches']}.")
        extra = "Here no n-gram of this order is repeated beyond what a reference allows, so clipping changes nothing."
    return Step("bleu-clipping", "BLEU", f"Clipping the {_gram(n)} counts", tuple(blocks),
                say("bleu-clipping", extra), misconception("bleu-clipping"), q)


UNCLIPPED = ("That is the count before clipping: every occurrence in the candidate counted. Clipping counts an "
             "n-gram at most as often as it occurs in the one reference where it is most frequent.")
SUMMED = ("That adds the counts of all the references. Clipping takes the largest count in ONE reference, not the "
          "sum over the references.")


def _clip_mixups(e: dict, n_refs: int) -> tuple:
    """The clipped count's misconceptions: not clipping at all, clipping by the sum over the references."""
    out = [(e["cand_count"], UNCLIPPED)]
    if n_refs > 1:
        out.append((min(e["cand_count"], sum(e["ref_counts"])), SUMMED))
    return tuple(out)


def _precision_chart(orders: list[dict], smoothed: bool) -> Chart:
    data = [{"n": o["n"], "raw": o["precision_raw"] or 0.0, "smoothed": o["precision"] if smoothed else None,
             "matches": o["matches"], "totals": o["totals"]} for o in orders]
    alt = "; ".join(f"p{o['n']} = {frac(o['matches'], o['totals'], o['precision_raw'])}" +
                    (f" → {num(o['precision'])} after smoothing" if smoothed else "") for o in orders)
    return Chart("precision_bars", {"orders": data, "smoothed": smoothed}, "Precision per order: " + alt)


def _dialect_class(b: dict) -> type:
    """The class of the dialect a trace (as JSON) was computed with: what it does differently is its attributes."""
    from explainer.bleu import DIALECTS

    return DIALECTS[b["dialect"]]


def _step_precision(b: dict, order: dict) -> Step:
    orders = b["combination"]["orders"]
    rows = tuple((o["n"], o["matches"], o["totals"], "no n-grams" if o["precision_raw"] is None
                  else num(o["precision_raw"])) for o in orders)
    blocks = [Para("Modified precision of order n: p_n = clipped matches m_n / candidate n-grams t_n.", "key"),
              Table(("order n", "matches m_n", "n-grams t_n", "p_n = m_n / t_n"), rows,
                    tuple(i for i, o in enumerate(orders) if o["n"] == order["n"])),
              _precision_chart(orders, False)]
    if _dialect_class(b).totals_rule_notable:
        blocks.append(Para(b["totals_rule"], "note"))
    n = order["n"]
    o = next(x for x in orders if x["n"] == n)
    if o["precision_raw"] is None:
        q = None
    else:
        unclipped = sum(e["cand_count"] for e in order["entries"] if e["max_ref_count"] > 0)
        q = question(f"bleu-precision-{n}", f"What is the modified {_gram(n)} precision p_{n}?", o["precision_raw"],
                     kind="ratio", shown=frac(o["matches"], o["totals"], o["precision_raw"]),
                     mixups=((unclipped / o["totals"], "That is the precision before clipping (every occurrence "
                              "of an n-gram found in a reference counted): clip each n-gram at its largest count in "
                              "one reference first."),) if o["totals"] else (),
                     given=(_counting_table(b, order),),
                     explanation=f"Clip every {n}-gram (min of its candidate count and its largest count in one "
                                 f"reference) and add up: m_{n} = {num(o['matches'])} of t_{n} = {num(o['totals'])} "
                                 f"{n}-grams, so p_{n} = {frac(o['matches'], o['totals'], o['precision_raw'])}.")
    zero = [x["n"] for x in orders if x["matches"] == 0]
    extra = (f"Here order{'s' if len(zero) > 1 else ''} {', '.join(map(str, zero))} "
             f"{'have' if len(zero) > 1 else 'has'} no match: the next step shows what the library does about it."
             if zero else "Here every order has at least one match.")
    return Step("bleu-precision", "BLEU", "Modified precision, order by order", tuple(blocks),
                say("bleu-precision", extra), misconception("bleu-precision"), q)


def _step_smoothing(b: dict) -> Step:
    comb = b["combination"]
    orders = comb["orders"]
    zero = [o for o in orders if o["matches"] == 0]
    method = b["options"].get("smooth_method") or b["options"].get("smoothing") or (
        "smooth" if b["options"].get("smooth") else "none")
    rows = tuple((o["n"], frac(o["matches"], o["totals"]),
                  "—" if o["precision_raw"] is None else num(o["precision_raw"]), num(o["precision"]),
                  "yes" if o["included"] else "no", o["formula"]) for o in orders)
    blocks: list[Any] = [
        Para(f"Order{'s' if len(zero) > 1 else ''} {', '.join(str(o['n']) for o in zero)} "
             f"{'have' if len(zero) > 1 else 'has'} no match, so log p_n would be log 0 and the geometric mean 0. "
             f"{b['implementation']} with smoothing “{method}”:", "key"),
        Table(("order", "m/t", "before", "after", "in the mean", "formula"), rows,
              tuple(i for i, o in enumerate(orders) if o["matches"] == 0)),
    ]
    for reason in dict.fromkeys(o["reason"] for o in zero):
        blocks.append(Para(reason, "note"))
    blocks.append(_precision_chart(orders, True))
    if comb.get("early_exit"):
        blocks.append(Para(f"The library stops early: {comb['early_exit']}.", "note"))
    target = next((o for o in zero if o["included"]), None)
    if target is not None:
        q = question(f"bleu-smoothing-{target['n']}",
                     f"Order {target['n']} has {num(target['matches'])} of {num(target['totals'])} matches. What "
                     f"precision does “{method}” smoothing give it (0–1)?", target["precision"], kind="ratio",
                     given=(Table(("order", "matches", "n-grams"), tuple((o["n"], o["matches"], o["totals"])
                                                                        for o in orders)),
                            Para(f"Smoothing: {method} ({b['implementation']}).")),
                     explanation=f"{target['reason']}: {target['formula']}.")
    else:   # the library stops before smoothing (no match at any order): ask what the step is about
        q = question("bleu-zero-orders", f"How many of the {len(orders)} orders have no match at all?", len(zero),
                     kind="count", given=(Table(("order", "matches", "n-grams"), tuple(
                         (o["n"], o["matches"], o["totals"]) for o in orders)),),
                     explanation=f"Orders {', '.join(str(o['n']) for o in zero)} have 0 matches: {len(zero)}."
                     + (f" {comb['early_exit']}." if comb.get("early_exit") else ""))
    return Step("bleu-smoothing", "BLEU", "Smoothing the zero precisions", tuple(blocks), say("bleu-smoothing"),
                misconception("bleu-smoothing"), q)


def _step_bp(b: dict) -> Step:
    comb, rl = b["combination"], b["ref_length"]
    c, r = comb["c"], comb["r"]
    rows = tuple((f"ref {k + 1}", L, abs(c - L), "chosen" if k in rl["chosen"] else "")
                 for k, L in enumerate(rl["ref_lengths"]))
    blocks: list[Any] = [
        Para(f"Candidate length c = {c}. Rule: {rl['rule']} ({rl['tie_break']}). {rl['explanation']}, "
             f"so r = {r}."),
        Table(("reference", "length", "|c − length|", "chosen"), rows, tuple(rl["chosen"])),
        Formula((f"{comb['bp_branch']}:  {comb['bp_formula']}",)),
        Chart("bp_curve", {"c": c, "r": r, "bp": comb["bp"]},
              f"Brevity penalty exp(1 − r/c) against c/r for r = {r}; this candidate: c = {c}, BP = {num(comb['bp'])}"),
    ]
    q = question("bleu-bp", "What is the brevity penalty BP?", comb["bp"], kind="ratio",
                 shown=num(comb["bp"], 6), mixups=_bp_mixups(c, r, rl),
                 given=(Para(f"Candidate: c = {c} tokens. Rule for r: {rl['rule']} ({rl['tie_break']})."),
                        Table(("reference", "length"), tuple((f"ref {k + 1}", L)
                                                             for k, L in enumerate(rl["ref_lengths"]))),
                        Para("BP = 1 when c > r, else exp(1 − r/c).")),
                 explanation=f"{rl['explanation']}, so r = {r}; {comb['bp_formula']}.")
    extra = (f"Here c = {c} is shorter than r = {r}: BP = {num(comb['bp'])}." if c < r
             else f"Here c = {c} ≥ r = {r}: no penalty.")
    return Step("bleu-bp", "BLEU", "Reference length and brevity penalty", tuple(blocks), say("bleu-bp", extra),
                misconception("bleu-bp"), q)


def _bp(c: int, r: int) -> float:
    return 1.0 if c > r else (math.exp(1 - r / c) if c > 0 else 0.0)


def _bp_mixups(c: int, r: int, rl: dict) -> tuple:
    """The brevity penalty with the wrong reference length (another reference's: the shortest instead of the
    closest, or the other way round), or with c and r swapped."""
    out = []
    for k, L in enumerate(rl["ref_lengths"]):
        if L != r:
            out.append((_bp(c, L), f"That is the brevity penalty with r = {L}, the length of reference {k + 1}. The "
                                   f"rule here is: {rl['rule']} ({rl['tie_break']}) — which reference is that?"))
    if c > 0 and r > 0 and c < r:
        out.append((math.exp(1 - c / r), "That is exp(1 − c/r): the ratio is the other way round, "
                                         "BP = exp(1 − r/c) when c < r."))
    return tuple(out)


def textbook_logs(comb: dict) -> list[float | None] | None:
    """The textbook's terms w_n · log p_n with 0–1 precisions (negative logs) for a dialect that sums logs of
    percentages (sacreBLEU): the trace's smoothed precisions and weights, one term per order (None where the
    order is left out or p_n = 0). None when the trace has no log sum (an early exit)."""
    if comb.get("log_sum") is None:
        return None
    return [None if not o.get("included", True) or o["log_term"] is None or o["precision"] <= 0
            else o["weight"] * math.log(o["precision"]) for o in comb["orders"]]


def _textbook_lines(comb: dict, terms: list) -> list[str]:
    """Σ w_n log p_n with 0–1 precisions, then sacreBLEU's equivalent form with logs of percentages."""
    used = [t for t in terms if t is not None]
    total = sum(used)
    k = comb["effective_order"]
    # short lines: the terms are in the table above, and the step must fit a 1024×768 projector
    return [
        f"Textbook: Σ w_n·log p_n = {num(total)} → exp = {num(math.exp(total))} (on 0–1)",
        f"sacreBLEU: Σ log(100·p_n) / {k} = {num(comb['log_mean'])} = {num(total)} + log 100"
        f" → exp = {num(comb['geo_mean'])} (%)",
    ]


def _step_score(b: dict) -> Step:
    comb = b["combination"]
    orders = comb["orders"]
    scale = comb["scale"]
    pct = scale == 100 and _dialect_class(b).log_of_percent
    terms = textbook_logs(comb) if pct else None
    if terms is not None:
        rows = tuple((o["n"], num(o["precision"]), f"{o['weight']:g}", "—" if t is None else num(t),
                      "—" if o["log_term"] is None else num(o["log_term"])) for o, t in zip(orders, terms))
        cols = ("order", "p_n (0–1)", "weight w_n", "w_n · log p_n", "sacreBLEU: log(100 · p_n)")
    else:
        rows = tuple((o["n"], num(o["precision"]), f"{o['weight']:g}",
                      "—" if o["log_term"] is None else num(o["log_term"])) for o in orders)
        cols = ("order", "p_n", "weight w_n", "log term")
    blocks: list[Any] = [
        Para("BLEU = BP · exp(Σ w_n · log p_n): the weighted geometric mean of the precisions, times the brevity "
             "penalty.", "key"),
        Table(cols, rows)]
    lines = []
    if terms is not None:
        lines += _textbook_lines(comb, terms)
    elif comb.get("log_sum") is not None:
        if comb.get("log_mean") is not None and abs(comb["log_mean"] - comb["log_sum"]) > 1e-12:
            lines.append(f"mean of the logs = {num(comb['log_sum'])} / {comb['effective_order']} = "
                         f"{num(comb['log_mean'])}")
        else:
            lines.append(f"Σ w_n · log p_n = {num(comb['log_sum'])}")
        lines.append(f"geometric mean = exp({num(comb['log_mean'])}) = {num(comb['geo_mean'])}")
    lines.append(f"BLEU = BP · geometric mean = {num(comb['bp'])} · {num(comb['geo_mean'])} = "
                 f"{bleu_headline(comb['score'], scale)}")
    blocks.append(Formula(tuple(lines)))
    if comb.get("early_exit"):
        blocks.append(Para(f"The library returns early: {comb['early_exit']}.", "note"))
    if b.get("library_error"):
        blocks.append(Para(b["library_error"]["explanation"], "note"))
    shown = bleu_headline(b["score"], scale)
    blocks.append(Result(f"BLEU ({b['dialect']}, 0–{num(scale)})", b["score"], shown, "bleu"))
    blocks.append(Para(f"Signature: {b['signature']}", "note"))
    q = question("bleu-score", f"What is the BLEU score (0–{num(scale)})?", b["score"], kind="score", scale=scale,
                 shown=shown, given=(Table(("order", "p_n (after smoothing)", "weight"),
                                           tuple((o["n"], num(o["precision"]), f"{o['weight']:g}") for o in orders)),
                                     Para(f"BP = {num(comb['bp'])}")),
                 explanation=" ; ".join(lines) + ".")
    return Step("bleu-score", "BLEU", "Geometric mean and the final score", tuple(blocks),
                say("bleu-score", f"Here BLEU = {shown}."), misconception("bleu-score"), q)


def bleu_steps(b: dict, focus_order: int | None = None) -> list[Step]:
    """The BLEU walkthrough for one trace dict. ``focus_order`` (1..N) is the order followed through the
    n-gram, counting and clipping steps (default :func:`default_focus_order`); out of range → the default."""
    N = len(b["ngrams"])
    n = focus_order if isinstance(focus_order, int) and 1 <= focus_order <= N else default_focus_order(b)
    order = b["ngrams"][n - 1]
    steps = [_step_texts(b), _step_ngrams(b, order), _step_counting(b, order), _step_clipping(b, order)]
    if b.get("reference_pick") is not None:      # one reference's statistics (GLEU): its own last steps
        from explainer.teach.gleu_steps import gleu_steps

        return steps + gleu_steps(b)
    steps.append(_step_precision(b, order))
    if any(o["matches"] == 0 for o in b["combination"]["orders"]):
        steps.append(_step_smoothing(b))
    steps += [_step_bp(b), _step_score(b)]
    return steps


# ------------------------------------------------------------------------------------------- the lesson
class BleuLesson(LessonFamily):
    """BLEU's lesson: the steps above over its trace; the textbook's BLEU numbers; the clipping, missing-4-gram and
    short-candidate exercises."""

    name = "bleu"
    focus_what = "the n-gram order the BLEU steps 2–4 follow"
    claim_steps = {"bleu": "bleu-score", "bleu_p1": "bleu-precision", "bleu_bp": "bleu-bp"}
    exercise_kinds = ("clip", "missing4", "short")
    kind_titles = {"clip": "Repeated words (clipping)", "missing4": "A missing 4-gram", "short": "A short candidate"}
    # (kind, level) -> (the step whose question is asked, the order followed): every answer varies with the pair
    # (at easy level the 4-gram count of a missing-4-gram pair was always 0: its trigrams are asked instead)
    PLAN = {
        ("clip", "easy"): ("bleu-clipping", 1), ("clip", "medium"): ("bleu-precision", 1),
        ("clip", "hard"): ("bleu-precision", 1),
        ("missing4", "easy"): ("bleu-clipping", 3), ("missing4", "medium"): ("bleu-precision", 3),
        ("missing4", "hard"): ("bleu-smoothing", 4),
        ("short", "easy"): ("bleu-bp", None), ("short", "medium"): ("bleu-bp", None),
        ("short", "hard"): ("bleu-score", None),
    }

    def steps(self, trace: dict, focus: int | None = None) -> list[Step]:
        return bleu_steps(trace, focus)

    def max_focus(self, dialect, options) -> int:
        try:
            return min(MAX_FOCUS, self.core.bind(dialect or self.core.default_dialect, **dict(options)).max_order)
        except (ValueError, TypeError, KeyError):
            return MAX_FOCUS

    def summary(self, trace: dict) -> dict:
        return {**super().summary(trace), "score": trace["score"], "scale": trace["scale"],
                "shown": bleu_headline(trace["score"], trace["scale"])}

    def claim_shown(self, metric: str, value: float, trace: dict) -> str:
        shown = num(value)
        if metric == "bleu" and trace["scale"] != 1:
            shown += f" ({bleu_headline(trace['score'], trace['scale'])} on its 0–{trace['scale']:g} scale)"
        return shown

    def exercise(self, index, kind, level, rng, options):
        from explainer.teach.pairs import Exercise, make_pair

        step_id, order = self.PLAN[(kind, level)]
        cand, refs = make_pair(kind, level, rng)
        step = next(s for s in bleu_steps(self.trace(None, options, cand, refs), order) if s.id == step_id)
        return Exercise(index, kind, self.kind_titles[kind], cand, tuple(refs), step_id, order, step.question,
                        family=self.label, metric_family=self.name, options=dict(options))

    def exercise_source(self, options) -> str:
        return "sacreBLEU with its defaults"


MAX_FOCUS = 10   # the largest maximum n-gram order a BLEU dialect takes
LESSON = BleuLesson()
