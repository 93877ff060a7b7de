"""The ROUGE walkthrough as steps, read from a ROUGE trace's ``to_dict()`` (docs/trace-schema-rouge.md).

Order of a lecture: ROUGE-1 and ROUGE-2 overlaps → precision / recall / F → the LCS table filled in → the
alignment → ROUGE-L → ROUGE-Lsum's union hits → (several references) which reference was kept. Each step
looks at the reference the dialect kept for that type (the first one when counts are pooled).
"""
from __future__ import annotations

from typing import Any

from explainer.teach.answers import question
from explainer.teach.family import LessonFamily
from explainer.teach.model import Chart, Chip, Formula, LcsGrid, Para, Result, Step, Table, TokenRow, frac, num
from explainer.teach.notes import misconception, say

__all__ = ["rouge_steps", "LABELS", "GRID_MAX", "LESSON_TYPES", "LESSON", "RougeLesson"]

LABELS = {"rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum"}
GRID_MAX = 24      # the LCS table is shown with at most this many rows and columns (evenly spaced beyond)
MAX_ROWS = 400


def _forms(view: dict) -> list[str]:
    """The forms ROUGE compares: the stem when stemming, else the token."""
    return [t.get("stem", t["text"]) for t in view["tokens"]]


def _surface(view: dict) -> list[str]:
    return [t["text"] for t in view["tokens"]]


def _chip(view: dict, i: int, kind: str = "", label: str | None = None, title: str = "") -> Chip:
    t = view["tokens"][i]
    stem = t.get("stem")
    lab = label if label is not None else (stem if stem is not None and stem != t["text"] else "")
    extra = f" (compared as ‘{stem}’)" if stem is not None and stem != t["text"] else ""
    return Chip(t["text"], kind, lab, (title or f"token {i + 1}") + extra)


def _plain_row(label: str, view: dict) -> TokenRow:
    n = len(view["tokens"])
    return TokenRow(label, tuple(_chip(view, i) for i in range(n)), f"{n} tokens")


def _marked_row(label: str, view: dict, focus: set[int], what: str) -> TokenRow:
    """A text's tokens with those an answer talks about marked (``focus`` chips): shown with the answer."""
    n = len(view["tokens"])
    return TokenRow(label, tuple(_chip(view, i, "focus" if i in focus else "") for i in range(n)),
                    f"{len(focus & set(range(n)))} of {n} tokens marked: {what}")


def _covered(starts, n: int) -> set[int]:
    return {p + i for p in starts for i in range(n)}


def _ref_for(r: dict, t: str) -> int:
    k = r["chosen_reference"].get(t)
    return k if isinstance(k, int) and 0 <= k < len(r["references"]) else 0


def _res(r: dict, t: str, k: int) -> dict | None:
    if k < len(r["per_reference"]):
        return r["per_reference"][k].get(t)
    return None


def _which(r: dict, t: str, k: int) -> str:
    """"against reference k" + why that one, when there are several."""
    if len(r["references"]) == 1:
        return "the reference"
    if r["chosen_reference"].get(t) is None:
        return f"reference {k + 1} (the counts of all references are pooled; see the last step)"
    return f"reference {k + 1} (the one {r['dialect_label']} keeps for {LABELS.get(t, t)})"


def _cand_status(res: dict) -> dict[int, tuple[str, str]]:
    """Candidate n-gram occurrences: the first ``overlap`` occurrences of a shared n-gram overlap; further ones
    are beyond the reference's count (clipped); the rest are in no reference."""
    status: dict[int, tuple[str, str]] = {}
    for g in res["detail"]["ngrams"]:
        text = " ".join(g["ngram"])
        for i, p in enumerate(g["cand_positions"]):
            if i < g["overlap"]:
                status[p] = ("match", f"‘{text}’: overlaps")
            elif g["ref_count"] > 0:
                status[p] = ("clip", f"‘{text}’: occurrence {i + 1}, beyond the reference's {g['ref_count']}: "
                                     "not counted")
            else:
                status[p] = ("", f"‘{text}’: not in the reference")
    return status


def _occurrence_row(label: str, view: dict, status: dict, n: int) -> TokenRow:
    toks = _surface(view)
    chips = []
    for p in range(max(0, len(toks) - n + 1)):
        kind, title = status.get(p, ("", ""))
        if n == 1:
            chips.append(_chip(view, p, kind, "✂" if kind == "clip" else None, title))
        else:
            chips.append(Chip(" ".join(toks[p:p + n]), kind, "✂" if kind == "clip" else "", title))
    hits = sum(1 for k, _ in status.values() if k == "match")
    return TokenRow(label, tuple(chips), f"{hits} of {max(0, len(toks) - n + 1)} overlap")


def _text_notes(r: dict) -> list[str]:
    """The trace's notes, each once; a tokenizer's message about one text (also among the notes) says which."""
    rest = list(r.get("notes") or [])
    labelled = []
    views = [("Candidate", r["candidate"])] + [(f"Reference {i + 1}", v) for i, v in enumerate(r["references"])]
    for side, view in views:
        message = view.get("message")
        if message:
            names_it = f"this {side.lower()} " in message   # "all 3 words of this reference 2 (...) were removed"
            labelled.append(message if names_it else f"{side}: {message}")
            if message in rest:
                rest.remove(message)
    return labelled + rest


def _step_ngram(r: dict, t: str) -> Step | None:
    k = _ref_for(r, t)
    res = _res(r, t, k)
    if res is None or not res.get("detail") or "ngrams" not in res["detail"]:
        return None
    n = res["detail"]["n"]
    ref = r["references"][k]
    cs = _cand_status(res)
    rs: dict[int, tuple[str, str]] = {}
    for g in res["detail"]["ngrams"]:
        text = " ".join(g["ngram"])
        for i, p in enumerate(g["ref_positions"]):
            rs[p] = ("match", f"‘{text}’: overlaps") if i < g["overlap"] else ("", f"‘{text}’: not matched")
    gram = "unigram" if n == 1 else ("bigram" if n == 2 else f"{n}-gram")
    rows = tuple((" ".join(g["ngram"]), g["cand_count"], g["ref_count"], g["overlap"])
                 for g in res["detail"]["ngrams"][:MAX_ROWS])
    blocks: list[Any] = []
    if n == 1:
        stem = f", compared after stemming with {r['stemmer']}" if r.get("stemmer") else ""
        blocks.append(Para(f"ROUGE uses its own tokens ({r['tokenizer']}{stem}). ROUGE-1 counts the unigrams the "
                           f"candidate shares with {_which(r, t, k)}: each at most as often as in the other text."))
    else:
        blocks.append(Para(f"ROUGE-{n} does the same with {gram}s — pairs of adjacent tokens — against "
                           f"{_which(r, t, k)}."))
    blocks += [_occurrence_row(f"Candidate {gram}s", r["candidate"], cs, n),
               _occurrence_row(f"Reference {k + 1} {gram}s", ref, rs, n),
               Table((gram, "candidate", f"ref {k + 1}", "overlap = min"), rows,
                     tuple(i for i, g in enumerate(res["detail"]["ngrams"][:MAX_ROWS]) if g["overlap"]),
                     total=("hits", res["cand_total"], res["ref_total"], res["hits"]))]
    if n == 1:
        blocks += [Para(note, "note") for note in _text_notes(r)]
    shared = [" ".join(g["ngram"]) for g in res["detail"]["ngrams"] if g["overlap"]]
    q = question(f"rouge{n}-hits", f"How many {gram} hits (overlapping {gram}s) do the candidate and reference "
                                   f"{k + 1} share?", res["hits"], kind="count",
                 given=(_plain_row("Candidate", r["candidate"]), _plain_row(f"Reference {k + 1}", ref)) +
                       ((Para(f"Tokens are compared after stemming ({r['stemmer']})."),) if r.get("stemmer") else ()),
                 marked=(_marked_row("Candidate", r["candidate"], _covered(
                     [p for p, (kind, _) in cs.items() if kind == "match"], n), f"the overlapping {gram}s"),
                         _marked_row(f"Reference {k + 1}", ref, _covered(
                             [p for p, (kind, _) in rs.items() if kind == "match"], n), f"the overlapping {gram}s")),
                 explanation=(f"Shared {gram}s, each counted min(candidate count, reference count) times: " +
                              (", ".join(f"‘{s}’" for s in shared[:20]) + (", …" if len(shared) > 20 else "")
                               if shared else "none") + f" — {num(res['hits'])} in all."))
    sid = "rouge-1" if n == 1 else "rouge-2"
    extra = f"Here {num(res['hits'])} of the candidate's {num(res['cand_total'])} {gram}s overlap."
    return Step(sid, "ROUGE", f"ROUGE-{n}: shared {gram}s", tuple(blocks), say(sid, extra), misconception(sid), q)


def _f_formula(r: dict, p: float, rc: float, f: float) -> str:
    alpha = r["options"].get("alpha")
    if alpha is not None and abs(alpha - 0.5) > 1e-12:
        return f"F = 1 / (α/P + (1 − α)/R) with α = {num(alpha)} = {num(f)}"
    if p + rc == 0:
        return "F = 0 (P and R are both 0)"
    return f"F = 2·P·R / (P + R) = 2·{num(p)}·{num(rc)} / ({num(p)} + {num(rc)}) = {num(f)}"


def _final_note(r: dict, t: str, res: dict) -> Para | None:
    """When the score the dialect reports is not this reference's (pooled counts), say so with its numbers."""
    s = r["scores"].get(t)
    if s is None:
        return None
    if abs(s["fmeasure"] - res["fmeasure"]) > 1e-12 or abs(s["recall"] - res["recall"]) > 1e-12:
        pool = (r.get("pooled") or {}).get(t)
        rule = pool.get("rule", "the counts summed over the references") if pool else ""
        how = (f" ({rule}: hits {num(pool['hits'])}, reference size {num(pool['ref_total'])}, candidate "
               f"size {num(pool['cand_total'])})") if pool else ""
        lead = "The counts of all references are pooled: the" if pool else "The"
        return Para(f"{lead} reported {LABELS.get(t, t)} is P {num(s['precision'])}, R {num(s['recall'])}, "
                    f"F {num(s['fmeasure'])}{how}.", "note")
    return None


def _step_prf(r: dict) -> Step | None:
    rows, lines, chart = [], [], []
    first = None
    for t in ("rouge1", "rouge2"):
        if t not in r["types"]:
            continue
        k = _ref_for(r, t)
        res = _res(r, t, k)
        if res is None:
            continue
        rows.append((LABELS[t], num(res["hits"]), num(res["cand_total"]), num(res["ref_total"]), num(res["precision"]),
                     num(res["recall"]), num(res["fmeasure"])))
        if first is None:   # the arithmetic of ROUGE-1 (ROUGE-2 is the same with bigrams: see the table)
            lines.append(f"{LABELS[t]}:  P = {frac(res['hits'], res['cand_total'], res['precision'])},  "
                         f"R = {frac(res['hits'], res['ref_total'], res['recall'])}")
            lines.append(_f_formula(r, res["precision"], res["recall"], res["fmeasure"]))
        first = first or (t, k, res)
        chart.append({"label": LABELS[t], "p": res["precision"], "r": res["recall"], "f": res["fmeasure"]})
    if first is None:
        return None
    t, k, res = first
    blocks: list[Any] = [
        Para("Precision divides the hits by the candidate's n-grams, recall by the reference's; F is their "
             "harmonic mean.", "key"),
        Table(("type", "hits", "cand. n-grams", "ref. n-grams", "P", "R", "F"), tuple(rows)),
        Formula(tuple(lines)),
        Chart("prf_bars", {"rows": chart}, "Precision, recall and F: " + "; ".join(
            f"{c['label']} P {num(c['p'])} R {num(c['r'])} F {num(c['f'])}" for c in chart))]
    for tt in ("rouge1", "rouge2"):
        if tt in r["types"] and _res(r, tt, _ref_for(r, tt)) is not None:
            note = _final_note(r, tt, _res(r, tt, _ref_for(r, tt)))
            if note:
                blocks.append(note)
            s = r["scores"][tt]
            blocks.append(Result(f"{LABELS[tt]} F", s["fmeasure"], num(s["fmeasure"]), f"{tt}_f"))
    q = question("rouge1-f", f"ROUGE-1 against reference {k + 1}: what is the F-measure?", res["fmeasure"],
                 kind="ratio", shown=num(res["fmeasure"]),
                 given=(Table(("type", "hits", "candidate unigrams", "reference unigrams"),
                              ((LABELS[t], num(res["hits"]), num(res["cand_total"]), num(res["ref_total"])),)),),
                 explanation=f"P = {frac(res['hits'], res['cand_total'], res['precision'])}, R = "
                             f"{frac(res['hits'], res['ref_total'], res['recall'])}; "
                             f"{_f_formula(r, res['precision'], res['recall'], res['fmeasure'])}.")
    return Step("rouge-prf", "ROUGE", "Precision, recall and F", tuple(blocks), say("rouge-prf"),
                misconception("rouge-prf"), q)


def _grid(r: dict, k: int, d: dict) -> LcsGrid:
    table = d["table"]
    ref, cand = r["references"][k], r["candidate"]
    rows, cols = list(table["row_index"]), list(table["col_index"])
    values = [list(v) for v in table["values"]]
    note = "" if table["kind"] == "full" else (
        f"The table has {table['rows'] + 1} × {table['cols'] + 1} cells; the trace keeps exact values at evenly "
        "spaced rows and columns.")
    # at most GRID_MAX + 1 rows / columns on screen: keep row 0, the last one and evenly spaced ones between
    def pick(idx: list[int]) -> list[int]:
        if len(idx) <= GRID_MAX + 1:
            return list(range(len(idx)))
        step = (len(idx) - 1) / GRID_MAX
        return sorted({0, len(idx) - 1} | {round(i * step) for i in range(GRID_MAX + 1)})
    ra, ca = pick(rows), pick(cols)
    if len(ra) < len(rows) or len(ca) < len(cols):
        note = (f"The table has {table['rows'] + 1} × {table['cols'] + 1} cells; {len(ra)} × {len(ca)} of them are "
                "shown (evenly spaced rows and columns, exact values).")
    path = frozenset((ri + 1, ci + 1) for ri, ci in d.get("pairs", []))
    return LcsGrid(ref_tokens=tuple(_surface(ref)), cand_tokens=tuple(_surface(cand)),
                   row_index=tuple(rows[a] for a in ra), col_index=tuple(cols[b] for b in ca),
                   values=tuple(tuple(values[a][b] for b in ca) for a in ra), path=path,
                   full=table["kind"] == "full" and len(ra) == len(rows) and len(ca) == len(cols),
                   ref_forms=tuple(_forms(ref)), cand_forms=tuple(_forms(cand)), note=note)


def _step_lcs_table(r: dict) -> Step | None:
    k = _ref_for(r, "rougeL")
    res = _res(r, "rougeL", k)
    if res is None or not (res.get("detail") or {}).get("table"):
        return None
    d = res["detail"]
    grid = _grid(r, k, d)
    blocks = [Para(f"Rows: the tokens of {_which(r, 'rougeL', k)}; columns: the candidate's. A cell holds the LCS "
                   "of the tokens up to its row and column: equal tokens → the diagonal cell + 1, otherwise the "
                   "larger of the cell above and the cell to the left.", "text"), grid]
    q = question("rougeL-lcs", f"How long is the longest common subsequence of the candidate and reference {k + 1} "
                               "(in tokens)?", d["lcs_length"], kind="count",
                 given=(_plain_row("Candidate", r["candidate"]), _plain_row(f"Reference {k + 1}", r["references"][k])),
                 marked=(_marked_row("Candidate", r["candidate"], {c for _, c in d.get("pairs", [])}, "one LCS"),
                         _marked_row(f"Reference {k + 1}", r["references"][k], {ri for ri, _ in d.get("pairs", [])},
                                     "one LCS")),
                 off_by_one="Off by one: the LCS is the bottom-right cell of the table — count the matched pairs "
                            "of one alignment, each token used at most once and both texts read left to right (no "
                            "clipping here: a token matches one token of the other text).",
                 explanation=f"The bottom-right cell of the table: {num(d['lcs_length'])}. One LCS: " +
                             " ".join(f"‘{_surface(r['candidate'])[c]}’" for _, c in d.get("pairs", [])[:30]) + ".")
    return Step("rouge-lcs-table", "ROUGE", "ROUGE-L: the LCS table, cell by cell", tuple(blocks),
                say("rouge-lcs-table", f"Here the bottom-right cell is {num(d['lcs_length'])}."),
                misconception("rouge-lcs-table"), q)


def _lcs_row(label: str, view: dict, rank: dict[int, int], n_pairs: int) -> TokenRow:
    """A text's tokens, those on the LCS labelled with their rank in it ("L3" = third LCS token)."""
    n = len(view["tokens"])
    chips = tuple(_chip(view, i, "lcs" if i in rank else "", f"L{rank[i]}" if i in rank else "",
                        f"token {i + 1}" + (f": LCS token {rank[i]}" if i in rank else ": not on the LCS"))
                  for i in range(n))
    return TokenRow(label, chips, f"{n_pairs} of {n} on the LCS")


def _step_alignment(r: dict) -> Step | None:
    k = _ref_for(r, "rougeL")
    res = _res(r, "rougeL", k)
    if res is None or "pairs" not in (res.get("detail") or {}):
        return None
    d = res["detail"]
    ref, cand = r["references"][k], r["candidate"]
    pairs = d["pairs"]
    cand_rank = {c: i + 1 for i, (_, c) in enumerate(pairs)}
    ref_rank = {ri: i + 1 for i, (ri, _) in enumerate(pairs)}
    crow = _lcs_row("Candidate", cand, cand_rank, len(pairs))
    rrow = _lcs_row(f"Reference {k + 1}", ref, ref_rank, len(pairs))
    blocks: list[Any] = [
        Para("Walking back from the bottom-right cell gives the tokens of one longest common subsequence: the "
             "same tokens, in the same order, gaps allowed."),
        Chart("alignment", {"cand": _surface(cand), "ref": _surface(ref), "pairs": [list(p) for p in pairs]},
              "Alignment along the LCS: " + "; ".join(f"candidate token {c + 1} ‘{_surface(cand)[c]}’ ↔ reference "
                                                       f"token {ri + 1}" for ri, c in pairs[:30])),
        crow, rrow]
    if d.get("alternative_lcs_exists"):
        blocks.append(Para(f"Another LCS of the same length exists; the backtrace picks this one ({d['tie_rule']}).",
                           "note"))
    missing = len(cand["tokens"]) - len(pairs)
    unaligned = [f"‘{_surface(cand)[i]}’" for i in range(len(cand["tokens"])) if i not in cand_rank]
    q = question("rougeL-unaligned", "How many candidate tokens are NOT on the longest common subsequence?",
                 missing, kind="count",
                 given=(_plain_row("Candidate", cand), _plain_row(f"Reference {k + 1}", ref),
                        Para(f"The LCS has {num(d['lcs_length'])} tokens.")),
                 marked=(_marked_row("Candidate", cand, set(range(len(cand["tokens"]))) - set(cand_rank),
                                     "not on the LCS"),),
                 explanation=f"{len(cand['tokens'])} candidate tokens, {len(pairs)} of them on the LCS: "
                             f"{missing} left out" + (": " + ", ".join(unaligned[:20]) if unaligned else "") + ".")
    return Step("rouge-alignment", "ROUGE", "ROUGE-L: the alignment", tuple(blocks), say("rouge-alignment"),
                misconception("rouge-alignment"), q)


def _step_rouge_l(r: dict) -> Step | None:
    k = _ref_for(r, "rougeL")
    res = _res(r, "rougeL", k)
    if res is None:
        return None
    lcs = res["hits"]
    w = _rouge_l_words(r)
    lines = [f"P = {w['hits']} / {w['cand']} = {frac(lcs, res['cand_total'], res['precision'])}",
             f"R = {w['hits']} / {w['ref']} = {frac(lcs, res['ref_total'], res['recall'])}",
             _f_formula(r, res["precision"], res["recall"], res["fmeasure"])]
    blocks: list[Any] = [Para(w["key"], "key"), Formula(tuple(lines))]
    one = (res.get("detail") or {}).get("lcs_length")
    if one is not None and one != lcs:
        blocks.append(Para(f"One LCS of the whole texts (the table above) has {num(one)} tokens; "
                           f"{r['dialect_label']} counts {num(lcs)}.", "note"))
    if w["note"]:
        blocks.append(Para(w["note"], "note"))
    compare = []
    for t in ("rouge1", "rouge2", "rougeL"):
        kk = _ref_for(r, t)
        x = _res(r, t, kk)
        if t in r["types"] and x is not None:
            compare.append((LABELS[t], num(x["hits"]), num(x["precision"]), num(x["recall"]), num(x["fmeasure"])))
    if len(compare) > 1:
        blocks.append(Table(("type", "hits", "P", "R", "F"), tuple(compare), (len(compare) - 1,),
                            "Same texts, three ROUGEs: what the word order costs."))
    note = _final_note(r, "rougeL", res)
    if note:
        blocks.append(note)
    s = r["scores"]["rougeL"]
    blocks.append(Result("ROUGE-L F", s["fmeasure"], num(s["fmeasure"]), "rougeL_f"))
    q = question("rougeL-f", f"ROUGE-L against reference {k + 1}: what is the F-measure?", res["fmeasure"],
                 kind="ratio", given=(Para(f"{w['hits'][:1].upper() + w['hits'][1:]} = {num(lcs)}; "
                                           f"{w['cand']}: {num(res['cand_total'])}; {w['ref']} (reference {k + 1}): "
                                           f"{num(res['ref_total'])}."),),
                 explanation="; ".join(lines) + ".")
    extra = ""
    one = _res(r, "rouge1", _ref_for(r, "rouge1"))
    if one is not None:
        extra = f"Here ROUGE-1 F is {num(one['fmeasure'])} and ROUGE-L F {num(res['fmeasure'])}."
    return Step("rouge-l", "ROUGE", "ROUGE-L", tuple(blocks), say("rouge-l", extra), misconception("rouge-l"), q)


def _rouge_l_words(r: dict) -> dict:
    """The dialect's own words for its ROUGE-L (``RougeDialect.rouge_l_words``): what the hits are, what P and R
    divide by, and how the implementation's own "ROUGE-L" differs."""
    from explainer.rouge import DIALECTS

    return DIALECTS[r["dialect"]].rouge_l_words(r.get("options") or {})


def _sentence_rows(view: dict, label: str, marks: dict[int, dict[int, tuple[str, str]]] | None = None):
    rows = []
    for s in view.get("sentences") or []:
        toks = s["tokens"]
        start = s.get("token_start")
        chips = []
        for i, form in enumerate(toks):
            text = view["tokens"][start + i]["text"] if start is not None and start + i < len(view["tokens"]) else form
            kind, lab = (marks or {}).get(s["index"], {}).get(i, ("", ""))
            chips.append(Chip(text, kind, lab, f"sentence {s['index'] + 1}, token {i + 1}"))
        rows.append(TokenRow(f"{label} sentence {s['index'] + 1}", tuple(chips), f"{len(toks)} tokens"))
    return rows


def _step_lsum(r: dict) -> Step | None:
    k = _ref_for(r, "rougeLsum")
    res = _res(r, "rougeLsum", k)
    if res is None or not res.get("detail"):
        return None
    d = res["detail"]
    ref = r["references"][k]
    marks: dict[int, dict[int, tuple[str, str]]] = {}
    rows = []
    for ps in d.get("per_ref_sentence", []):
        toks = ps.get("tokens", [])
        counted = {c["ref_index"] for c in ps.get("clipping", []) if c.get("counted")}
        clipped = {c["ref_index"] for c in ps.get("clipped", [])}
        marks[ps["ref_sentence"]] = {i: ("match", "✓") if i in counted else ("clip", "✂") for i in ps.get("union", [])
                                     if i in counted or i in clipped}
        per = "; ".join(f"cand. sentence {x['cand_sentence'] + 1}: " +
                        (" ".join(toks[i] for i in x["ref_indices"]) or "—")
                        for x in ps.get("lcs_per_cand_sentence", []))
        rows.append((ps["ref_sentence"] + 1, per, " ".join(toks[i] for i in ps.get("union", [])) or "—",
                     ps.get("hits", 0)))
    blocks: list[Any] = [Para("ROUGE-Lsum: for each reference sentence, the union of its LCS matches with every "
                              "candidate sentence (one sentence per line).", "key")]
    blocks += _sentence_rows(r["candidate"], "Candidate")
    blocks += _sentence_rows(ref, f"Reference {k + 1}", marks)
    nc, nr = len(r["candidate"].get("sentences") or []), len(ref.get("sentences") or [])
    one_line = nc <= 1 and nr <= 1
    if rows and not one_line:   # one line each: the table would repeat the marked reference row
        blocks.append(Table(("ref. sentence", "LCS with each candidate sentence", "union", "hits"), tuple(rows),
                            caption="Each token of the union counts at most as often as it occurs in either text.",
                            total=("total", "", "", d.get("hits", res["hits"]))))
    if d.get("note"):
        blocks.append(Para(d["note"], "note"))
    if one_line:
        blocks.append(Para(f"Both texts are one line, so ROUGE-Lsum is ROUGE-L here: the union is the LCS, "
                           f"{num(d.get('hits', res['hits']))} hits (marked ✓ above). Put one sentence per line to "
                           "see the difference.", "note"))
    blocks.append(Formula((f"P = {frac(res['hits'], res['cand_total'], res['precision'])},  R = "
                           f"{frac(res['hits'], res['ref_total'], res['recall'])},  "
                           + _f_formula(r, res["precision"], res["recall"], res["fmeasure"]),)))
    note = _final_note(r, "rougeLsum", res)
    if note:
        blocks.append(note)
    s = r["scores"]["rougeLsum"]
    blocks.append(Result("ROUGE-Lsum F", s["fmeasure"], num(s["fmeasure"]), "rougeLsum_f"))
    q = question("rougeLsum-hits", f"How many union LCS hits does ROUGE-Lsum count against reference {k + 1}?",
                 res["hits"], kind="count",
                 given=tuple(_sentence_rows(r["candidate"], "Candidate") + _sentence_rows(ref, f"Reference {k + 1}")),
                 marked=tuple(_sentence_rows(ref, f"Reference {k + 1}", {
                     ps["ref_sentence"]: {i: ("focus", "") for i in ps.get("union", [])}
                     for ps in d.get("per_ref_sentence", [])})),
                 explanation="Per reference sentence, the union of its LCS tokens with every candidate sentence: " +
                             "; ".join(f"sentence {x[0]}: {x[2]} ({x[3]})" for x in rows[:8]) +
                             f" — {num(res['hits'])} hits.")
    return Step("rouge-lsum", "ROUGE", "ROUGE-Lsum: union of the LCS hits", tuple(blocks), say("rouge-lsum"),
                misconception("rouge-lsum"), q)


def _step_refs(r: dict) -> Step | None:
    if len(r["references"]) < 2:
        return None
    rows = []
    for t in r["types"]:
        if t not in LABELS:
            continue
        per = []
        for pr in r["per_reference"]:
            x = pr.get(t)
            per.append(num(x["fmeasure"]) if x else "—")
        kept = r["chosen_reference"].get(t)
        rows.append((LABELS[t],) + tuple(per) + ("pooled" if kept is None else f"ref {kept + 1}",
                                                 num(r["scores"][t]["fmeasure"])))
    cols = ("type",) + tuple(f"F vs ref {j + 1}" for j in range(len(r["per_reference"]))) + ("kept", "reported F")
    blocks: list[Any] = [Para(r["multi_ref_note"], "key"), Table(cols, tuple(rows))]
    for t, pool in (r.get("pooled") or {}).items():
        if t in LABELS:
            blocks.append(Para(f"{LABELS[t]} pooled: hits {num(pool['hits'])}, "
                               f"reference size {num(pool['ref_total'])}, candidate size {num(pool['cand_total'])} "
                               f"— {pool.get('rule', '')}", "note"))
    q = None
    kept = r["chosen_reference"].get("rougeL")
    if isinstance(kept, int):
        q = question("rougeL-kept", "Which reference does ROUGE-L keep? (its number)", kept + 1, kind="count",
                     given=tuple(Para(f"Reference {j + 1}: F = {num(pr['rougeL']['fmeasure'])}")
                                 for j, pr in enumerate(r["per_reference"]) if pr.get("rougeL")) +
                           (Para(r["multi_ref_note"]),),
                     explanation=f"{r['multi_ref_note']} For ROUGE-L that is reference {kept + 1}.")
    return Step("rouge-refs", "ROUGE", "Several references: which one counts", tuple(blocks), say("rouge-refs"),
                misconception("rouge-refs"), q)


def rouge_steps(r: dict) -> list[Step]:
    """The ROUGE walkthrough for one trace dict (types rouge1, rouge2, rougeL, rougeLsum as available)."""
    out: list[Step | None] = []
    if "rouge1" in r["types"]:
        out.append(_step_ngram(r, "rouge1"))
    if "rouge2" in r["types"]:
        out.append(_step_ngram(r, "rouge2"))
    out.append(_step_prf(r))
    if "rougeL" in r["types"]:
        out += [_step_lcs_table(r), _step_alignment(r), _step_rouge_l(r)]
    if "rougeLsum" in r["types"]:
        out.append(_step_lsum(r))
    out.append(_step_refs(r))
    return [s for s in out if s is not None]


# ------------------------------------------------------------------------------------------- the lesson
#: the ROUGE types a lesson teaches (those the dialect supports): the page's type choice does not apply
LESSON_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


class RougeLesson(LessonFamily):
    """ROUGE's lesson: the steps above over a trace of the lesson's types; the textbook's ROUGE numbers; the
    reordering exercise (ROUGE-L's in-order subsequence)."""

    name = "rouge"
    claim_steps = {"rouge1_hits": "rouge-1", "rouge1_p": "rouge-prf", "rouge1_r": "rouge-prf",
                   "rouge1_f": "rouge-prf", "rouge2_r": "rouge-prf", "rouge2_f": "rouge-prf", "rougeL_r": "rouge-l",
                   "rougeL_f": "rouge-l", "lcs": "rouge-lcs-table", "lsum_hits": "rouge-lsum"}
    exercise_kinds = ("reorder",)
    kind_titles = {"reorder": "A reordering (ROUGE-L)"}
    PLAN = {("reorder", "easy"): "rouge-lcs-table", ("reorder", "medium"): "rouge-l", ("reorder", "hard"): "rouge-l"}

    def trace_options(self, dialect, options) -> dict:
        from explainer.rouge import get_dialect, parse_type

        kinds = get_dialect(dialect).supported_kinds
        opts = {k: v for k, v in options.items() if k != "types"}
        return {**opts, "types": tuple(t for t in LESSON_TYPES if parse_type(t).kind in kinds)}

    def steps(self, trace: dict, focus: int | None = None) -> list[Step]:
        return rouge_steps(trace)

    def summary(self, trace: dict) -> dict:
        return {**super().summary(trace), "scores": trace["scores"]}

    def implementation(self, trace: dict) -> str:
        return trace.get("dialect_label") or trace.get("dialect", "")

    def exercise(self, index, kind, level, rng, options):
        from explainer.teach.pairs import Exercise, make_pair

        step_id = self.PLAN[(kind, level)]
        cand, refs = make_pair(kind, level, rng)
        step = next(s for s in rouge_steps(self.trace(None, options, cand, refs)) if s.id == step_id)
        return Exercise(index, kind, self.kind_titles[kind], cand, tuple(refs), step_id, None, step.question,
                        family=self.label, metric_family=self.name, options=dict(options))

    def exercise_source(self, options) -> str:
        return "rouge-score with its defaults"


LESSON = RougeLesson()
