"""Longest common subsequence: exact bit-parallel length, rouge-score's exact backtrace, table forms.

Rows of the DP table are **reference** tokens (i), columns candidate tokens (j), as in rouge-score's
``_lcs_table(ref, can)``. Row i of the table is stored as one Python int ``V_i`` over the candidate
positions (Hyyrö's bit-vector LCS: ``U = V & M[x]; V = (V + U) | (V - U)``); then
``c[i][j] = j - popcount(V_i & (2^j - 1))`` is the number of zero bits of ``V_i`` below bit j. That gives
every table value in O(n/64) without building the m*n table, so a 5,000 x 5,000 alignment needs 5,000 ints.

``backtrack`` reproduces ``rouge_score.rouge_scorer._backtrack_norec`` exactly: on equal tokens go diagonal;
else if ``c[i][j-1] > c[i-1][j]`` drop a candidate token, otherwise (ties included) drop a reference token.
ROUGE-1.5.5 and the other ports make the same choice (rouge-dialects.md §5.2).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

__all__ = ["LcsResult", "lcs_rows", "lcs_length", "lcs", "backtrack", "table_value", "table_form",
           "alternative_exists", "FULL_TABLE_MAX_CELLS", "SAMPLED_TABLE_MAX"]

FULL_TABLE_MAX_CELLS = 160_000   # up to ~400 x 400 the trace carries the whole table
SAMPLED_TABLE_MAX = 200          # above it: at most 200 x 200 sampled rows/columns (exact values)


def _masks(can: Sequence[str]) -> dict[str, int]:
    masks: dict[str, int] = {}
    for j, tok in enumerate(can):
        masks[tok] = masks.get(tok, 0) | (1 << j)
    return masks


def lcs_rows(ref: Sequence[str], can: Sequence[str]) -> list[int]:
    """Bit rows V_0..V_m (V_0 = all ones over the n candidate positions)."""
    n = len(can)
    full = (1 << n) - 1
    masks = _masks(can)
    v = full
    rows = [v]
    get = masks.get
    for tok in ref:
        u = v & get(tok, 0)
        v = ((v + u) | (v - u)) & full
        rows.append(v)
    return rows


def lcs_length(ref: Sequence[str], can: Sequence[str]) -> int:
    """Exact LCS length, bit-parallel (no table)."""
    if not ref or not can:
        return 0
    n = len(can)
    full = (1 << n) - 1
    masks = _masks(can)
    v = full
    get = masks.get
    for tok in ref:
        u = v & get(tok, 0)
        v = ((v + u) | (v - u)) & full
    return n - v.bit_count()


def table_value(rows: list[int], i: int, j: int) -> int:
    """c[i][j] = LCS(ref[:i], can[:j])."""
    return j - (rows[i] & ((1 << j) - 1)).bit_count()


def backtrack(rows: list[int], ref: Sequence[str], can: Sequence[str]) -> list[tuple[int, int]]:
    """rouge-score's ``_backtrack_norec`` on the bit rows; returns (ref index, cand index) pairs in order."""
    i, j = len(ref), len(can)
    pairs: list[tuple[int, int]] = []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            pairs.append((i - 1, j - 1))
            i -= 1
            j -= 1
        else:
            # c[i][j-1] > c[i-1][j] ?
            left = (j - 1) - (rows[i] & ((1 << (j - 1)) - 1)).bit_count()
            up = j - (rows[i - 1] & ((1 << j) - 1)).bit_count()
            if left > up:
                j -= 1
            else:
                i -= 1
    pairs.reverse()
    return pairs


@dataclass
class LcsResult:
    length: int
    pairs: list[tuple[int, int]]   # (reference index, candidate index) of the chosen LCS
    rows: list[int]                # bit rows (internal; not serialised)

    @property
    def ref_indices(self) -> list[int]:
        return [p[0] for p in self.pairs]

    @property
    def cand_indices(self) -> list[int]:
        return [p[1] for p in self.pairs]


def lcs(ref: Sequence[str], can: Sequence[str]) -> LcsResult:
    """Length and rouge-score's alignment. Empty input: length 0, no pairs."""
    if not ref or not can:
        return LcsResult(0, [], [0] * (len(ref) + 1))
    rows = lcs_rows(ref, can)
    n = len(can)
    length = n - rows[-1].bit_count()
    return LcsResult(length, backtrack(rows, ref, can), rows)


def _row_values(v: int, n: int) -> np.ndarray:
    """c[i][0..n] for a bit row."""
    nbytes = (n + 8) // 8 or 1
    bits = np.unpackbits(np.frombuffer(v.to_bytes(nbytes, "little"), dtype=np.uint8), bitorder="little")[:n]
    out = np.zeros(n + 1, dtype=np.int64)
    out[1:] = np.cumsum(1 - bits.astype(np.int64))
    return out


def table_form(res: LcsResult, m: int, n: int, *, max_cells: int = FULL_TABLE_MAX_CELLS,
               sample: int = SAMPLED_TABLE_MAX) -> dict:
    """The DP table for a trace: whole when (m+1)(n+1) <= max_cells, else exact values at <= sample x sample
    evenly spaced rows and columns (always including the first and last), for a UI to downsample further."""
    if not res.rows or len(res.rows) != m + 1:
        res = LcsResult(res.length, res.pairs, [0] * (m + 1)) if m == 0 or n == 0 else res
    if (m + 1) * (n + 1) <= max_cells:
        ri = list(range(m + 1))
        ci = list(range(n + 1))
        kind = "full"
    else:
        ri = sorted(set(np.linspace(0, m, min(sample, m + 1)).round().astype(int).tolist()))
        ci = sorted(set(np.linspace(0, n, min(sample, n + 1)).round().astype(int).tolist()))
        kind = "sampled"
    cols = np.asarray(ci, dtype=np.int64)
    values = []
    for i in ri:
        if n == 0 or m == 0:
            values.append([0] * len(ci))
        else:
            values.append(_row_values(res.rows[i], n)[cols].tolist())
    return {"kind": kind, "rows": m, "cols": n, "row_index": ri, "col_index": ci, "values": values}


def alternative_exists(ref: Sequence[str], can: Sequence[str], res: LcsResult) -> bool:
    """True when some LCS of the same length uses a different set of (ref, cand) index pairs.

    A matching pair (i, j) lies on some LCS iff c(ref[:i], can[:j]) + 1 + c(ref[i+1:], can[j+1:]) == L.
    If every such pair is in the chosen alignment, the chosen alignment is the only LCS (it already has L
    pairs); otherwise an LCS through the other pair differs from it.
    """
    L = res.length
    if L == 0:
        return False
    m, n = len(ref), len(can)
    rev = lcs_rows(ref[::-1], can[::-1])          # rev[k] row covers ref[m-k:], bits over reversed can
    chosen = set(res.pairs)
    masks = _masks(can)
    for i in range(m):
        mask = masks.get(ref[i], 0)
        if not mask:
            continue
        pre = _row_values(res.rows[i], n)                  # pre[j] = c(ref[:i], can[:j])
        suf_rev = _row_values(rev[m - i - 1], n)           # suf_rev[k] = c(ref[i+1:], last k of can)
        js = np.nonzero(np.unpackbits(np.frombuffer(mask.to_bytes((n + 8) // 8, "little"), dtype=np.uint8),
                                      bitorder="little")[:n])[0]
        # suffix after candidate j = last n-j-1 tokens
        tot = pre[js] + 1 + suf_rev[n - js - 1]
        for j in js[tot == L].tolist():
            if (i, j) not in chosen:
                return True
    return False
