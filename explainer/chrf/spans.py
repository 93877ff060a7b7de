"""Where a trace's n-grams are in the user's text, and what of the kept reference the candidate misses.

Computed on demand from a trace's texts (``ChrfTrace.spans(i)``, ``ChrfTrace.missed(i)``), so that building
thousands of segment traces stays cheap.
"""
from __future__ import annotations

from explainer.chrf.dialects import ChrfDialect

__all__ = ["candidate_spans", "missed_ngrams", "missed_all"]


def missed_all(d: ChrfDialect, trace) -> list[list[list]]:
    """``missed_ngrams`` of every order (the texts' n-grams extracted once)."""
    hc = d.extract(trace.candidate.prepared)[0]
    rc = d.extract(trace.references[trace.chosen_reference].prepared)[0]
    out = []
    for h, r in zip(hc, rc):
        out.append([[ng, c, m] for ng, c, m in zip(r, r.values(), map(h.get, r, [0] * len(r))) if m < c])
    return out


def missed_ngrams(d: ChrfDialect, trace, i: int) -> list[list]:
    """Order ``i``'s n-grams of the kept reference that the candidate does not match fully (recall's misses):
    ``[ngram, count in the reference, matched]``, in order of first occurrence in the reference."""
    h = d.extract(trace.candidate.prepared)[0][i]
    r = d.extract(trace.references[trace.chosen_reference].prepared)[0][i]
    out = []
    for ng, c in r.items():
        m = h.get(ng, 0)
        if m < c:
            out.append([ng, c, m if m < c else c])
    return out


def _prepared_map(original: str, prepared: str) -> list[int] | None:
    """For every character of ``prepared``, the index of the original character it came from."""
    if len(prepared) == len(original):
        return list(range(len(original)))
    pieces = [c.lower() for c in original]
    if "".join(pieces) != prepared:
        return None
    return [i for i, p in enumerate(pieces) for _ in p]


def candidate_spans(d: ChrfDialect, text, kind: str, n: int) -> dict[str, list[tuple[int, int]]] | None:
    """Every occurrence of every ``kind`` n-gram of order ``n`` in ``text`` (a ChrfText of the trace) as
    ``[start, end)`` in the original text: ngram -> spans in order. None when the preprocessing changed the text
    in a way that cannot be mapped back (e.g. a lowercase mapping that depends on context)."""
    pmap = _prepared_map(text.text, text.prepared)
    if pmap is None:
        return None
    out: dict[str, list[tuple[int, int]]] = {}
    p = text.prepared
    if kind == "char":
        u = text.units
        if u == p:
            umap = pmap
        else:
            idx = [j for j, c in enumerate(p) if not c.isspace()]
            if "".join(p[j] for j in idx) != u:
                return None
            umap = [pmap[j] for j in idx]
        for j in range(len(u) - n + 1):
            out.setdefault(u[j:j + n], []).append((umap[j], umap[j + n - 1] + 1))
        return out
    words = text.words if text.words else d.words(p)
    starts, ends = [], []
    pos = 0
    for w in words:
        j = p.find(w, pos)
        if j < 0 or not w:
            return None
        starts.append(j)
        ends.append(j + len(w))
        pos = j + len(w)
    for j in range(len(words) - n + 1):
        key = " ".join(words[j:j + n])
        out.setdefault(key, []).append((pmap[starts[j]], pmap[ends[j + n - 1] - 1] + 1))
    return out
