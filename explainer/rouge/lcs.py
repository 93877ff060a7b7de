"""Longest common subsequence: exact bit-parallel length, rouge-score's exact backtrace, table forms.

Rows of the DP table are **reference** tokens (i), columns candidate tokens (j), as in rouge-score's
``_lcs_table(ref, can)``. Row i of the table is stored as one Python int ``V_i`` over the candidate
positions (Hyyrö's bit-vector LCS: ``U = V & M[x]; V = (V + U) | (V - U)``); then
``c[i][j] = j - popcount(V_i & (2^j - 1))`` is the number of zero bits of ``V_i`` below bit j. That gives
every table value in O(n/64) without building the m*n table, so a 5,000 x 5,000 alignment needs 5,000 ints.

``backtrack`` reproduces ``rouge_score.rouge_scorer._backtrack_norec`` exactly: on equal tokens go diagonal;
else if ``c[i][j-1] > c[i-1][j]`` drop a candidate token, otherwise (ties included) drop a reference token.
ROUGE-1.5.5 and the other ports make the same choice (docs/dialects-rouge.md).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    import numpy as np  # imported where a table is read (the scores never need NumPy)

__all__ = ["LcsResult", "BitRows", "lcs_length", "lcs", "lcs_pairs", "masks_of", "backtrack", "table_form",
           "alternative_exists", "FULL_TABLE_MAX_CELLS", "SAMPLED_TABLE_MAX"]

FULL_TABLE_MAX_CELLS = 160_000   # up to ~400 x 400 the trace carries the whole table
SAMPLED_TABLE_MAX = 200          # above it: at most 200 x 200 sampled rows/columns (exact values)
CHOSEN_MATRIX_MAX_CELLS = 4_000_000  # alternative_exists: boolean matrix of the chosen pairs up to this size
SMALL_PAIR_CELLS = 40_000            # alternative_exists: plain popcounts below this, NumPy row blocks above


def masks_of(can: Sequence[str]) -> dict[str, int]:
    masks: dict[str, int] = {}
    for j, tok in enumerate(can):
        masks[tok] = masks.get(tok, 0) | (1 << j)
    return masks


ROWS_KEEP_ALL_MAX_BYTES = 32 * 2**20   # above this, keep every B-th row and recompute blocks on demand


class BitRows:
    """The bit rows V_0..V_m of the LCS table (V_0 = all ones over the n candidate positions), indexable like a list.

    Small tables keep every row. Large ones (a 35,000 x 35,000-token pair would need ~150 MB) keep only every
    B-th row (B ~ sqrt(m)) and recompute one block of B rows when it is accessed; the backtrace, the sampled
    table and the alternative-LCS scan all walk the rows monotonically, so each block is recomputed about once.
    """

    def __init__(self, ref: Sequence[str], can: Sequence[str], *, max_bytes: int | None = None):
        if max_bytes is None:
            max_bytes = ROWS_KEEP_ALL_MAX_BYTES
        self._ref = ref
        self._n = n = len(can)
        self._m = m = len(ref)
        self._full = (1 << n) - 1
        self._masks = masks_of(can)
        row_bytes = n // 8 + 1
        self._all: list[int] | None = None
        if (m + 1) * row_bytes <= max_bytes:
            v = self._full
            rows = [v]
            get = self._masks.get
            full = self._full
            for tok in ref:
                u = v & get(tok, 0)
                v = ((v + u) | (v - u)) & full
                rows.append(v)
            self._all = rows
            self.last = v
            return
        self._B = B = max(1, int(m ** 0.5))
        self._ckpt: list[int] = []
        v = self._full
        get = self._masks.get
        full = self._full
        for i, tok in enumerate(ref):
            if i % B == 0:
                self._ckpt.append(v)
            u = v & get(tok, 0)
            v = ((v + u) | (v - u)) & full
        if m % B == 0:
            self._ckpt.append(v)
        self.last = v
        self._block_id = -1
        self._block: list[int] = []

    def __len__(self) -> int:
        return self._m + 1

    def _row(self, i: int) -> int:
        if self._all is not None:
            return self._all[i]
        if i < 0:
            i += self._m + 1
        b = i // self._B
        if b != self._block_id:
            v = self._ckpt[b]
            block = [v]
            get = self._masks.get
            full = self._full
            for tok in self._ref[b * self._B: min(self._m, (b + 1) * self._B - 1)]:
                u = v & get(tok, 0)
                v = ((v + u) | (v - u)) & full
                block.append(v)
            self._block_id, self._block = b, block
        return self._block[i - b * self._B]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._row(k) for k in range(*i.indices(self._m + 1))]
        return self._row(i)


def lcs_length(ref: Sequence[str], can: Sequence[str]) -> int:
    """Exact LCS length, bit-parallel (no table)."""
    if not ref or not can:
        return 0
    n = len(can)
    full = (1 << n) - 1
    masks = masks_of(can)
    v = full
    get = masks.get
    for tok in ref:
        u = v & get(tok, 0)
        v = ((v + u) | (v - u)) & full
    return n - v.bit_count()


def backtrack(rows: list[int], ref: Sequence[str], can: Sequence[str], *,
              drop_candidate_on_ties: bool = False) -> list[tuple[int, int]]:
    """rouge-score's ``_backtrack_norec`` on the bit rows; returns (ref index, cand index) pairs in order.

    ``drop_candidate_on_ties=True`` is the other rule (pltrdy's): on a tie drop a candidate token instead; used
    only to show when the tie rule changes a summary-level number."""
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
            if left > up or (drop_candidate_on_ties and left == up):
                j -= 1
            else:
                i -= 1
    pairs.reverse()
    return pairs


@dataclass
class LcsResult:
    length: int
    pairs: list[tuple[int, int]]   # (reference index, candidate index) of the chosen LCS
    rows: "list[int] | BitRows"    # bit rows (internal; not serialised)
    masks: dict | None = None      # candidate token -> bit mask of its positions (internal)

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
    br = BitRows(ref, can)
    rows = br._all if br._all is not None else br   # plain list when every row is kept (faster indexing)
    n = len(can)
    length = n - br.last.bit_count()
    return LcsResult(length, backtrack(rows, ref, can), rows, br._masks)


def lcs_pairs(ref: Sequence[str], can: Sequence[str], masks: dict | None = None, *,
              drop_candidate_on_ties: bool = False) -> list[tuple[int, int]]:
    """``lcs(ref, can).pairs`` (the same bit rows and backtrace), without building an ``LcsResult``: short pairs
    (summary-level types compare thousands of them) keep their few rows in a list. ``masks``: ``masks_of(can)``,
    when the caller has it. ``drop_candidate_on_ties``: the other tie rule (``backtrack``)."""
    if not ref or not can:
        return []
    if len(ref) * len(can) > SMALL_PAIR_CELLS:
        br = BitRows(ref, can)
        return backtrack(br._all if br._all is not None else br, ref, can,
                         drop_candidate_on_ties=drop_candidate_on_ties)
    full = (1 << len(can)) - 1
    get = (masks if masks is not None else masks_of(can)).get
    v = full
    rows = [v]
    for tok in ref:
        u = v & get(tok, 0)
        v = ((v + u) | (v - u)) & full
        rows.append(v)
    return backtrack(rows, ref, can, drop_candidate_on_ties=drop_candidate_on_ties)


def _rows_values(rows: Sequence[int], n: int) -> np.ndarray:
    """c[i][0..n] for several bit rows at once: zero bits below j, counted with one cumsum."""
    import numpy as np

    nbytes = (n + 8) // 8
    buf = b"".join(v.to_bytes(nbytes, "little") for v in rows)
    bits = np.unpackbits(np.frombuffer(buf, dtype=np.uint8).reshape(len(rows), nbytes), axis=1,
                         bitorder="little")[:, :n]
    out = np.zeros((len(rows), n + 1), dtype=np.int32)          # values <= n: half the memory of int64
    np.cumsum(1 - bits, axis=1, dtype=np.int32, out=out[:, 1:])
    return out


def table_form(res: LcsResult, m: int, n: int, *, max_cells: int = FULL_TABLE_MAX_CELLS,
               sample: int = SAMPLED_TABLE_MAX) -> dict:
    """The DP table for a trace: whole when (m+1)(n+1) <= max_cells, else exact values at <= sample x sample
    evenly spaced rows and columns (always including the first and last), for a UI to downsample further."""
    import numpy as np

    if (m + 1) * (n + 1) <= max_cells:
        ri = list(range(m + 1))
        ci = list(range(n + 1))
        kind = "full"
    else:
        ri = sorted(set(np.linspace(0, m, min(sample, m + 1)).round().astype(int).tolist()))
        ci = sorted(set(np.linspace(0, n, min(sample, n + 1)).round().astype(int).tolist()))
        kind = "sampled"
    if n == 0 or m == 0:
        values = [[0] * len(ci) for _ in ri]
    else:
        cols = np.asarray(ci, dtype=np.int64)
        values = []
        for k in range(0, len(ri), 256):
            chunk = _rows_values([res.rows[i] for i in ri[k:k + 256]], n)
            values.extend(chunk[:, cols].tolist())
    return {"kind": kind, "rows": m, "cols": n, "row_index": ri, "col_index": ci, "values": values}


def alternative_exists(ref: Sequence[str], can: Sequence[str], res: LcsResult) -> bool:
    """True when some LCS of the same length uses a different set of (ref, cand) index pairs.

    A matching pair (i, j) lies on some LCS iff c(ref[:i], can[:j]) + 1 + c(ref[i+1:], can[j+1:]) == L.
    If every such pair is in the chosen alignment, the chosen alignment is the only LCS (it already has L
    pairs); otherwise an LCS through the other pair differs from it.
    """
    if res.length == 0:
        return False
    rev = BitRows(ref[::-1], can[::-1])           # rev[k]: LCS of the last k ref tokens with can suffixes
    if len(ref) * len(can) <= SMALL_PAIR_CELLS:
        return _other_pair_small(ref, can, res, rev)
    return _other_pair_blocks(ref, can, res, rev)


def _other_pair_small(ref: Sequence[str], can: Sequence[str], res: LcsResult, rev: BitRows) -> bool:
    """Small sentence pairs (the common case in rougeLsum): visit the matching cells with popcounts."""
    L, m, n = res.length, len(ref), len(can)
    masks = res.masks if res.masks is not None else masks_of(can)
    chosen_pairs = set(res.pairs)
    rows = res.rows
    for i in range(m):
        mask = masks.get(ref[i], 0)
        if not mask:
            continue
        row, srow = rows[i], rev[m - i - 1]
        while mask:
            low = mask & -mask
            j = low.bit_length() - 1
            mask ^= low
            k = n - 1 - j
            tot = (j - (row & ((1 << j) - 1)).bit_count()) + 1 + (k - (srow & ((1 << k) - 1)).bit_count())
            if tot == L and (i, j) not in chosen_pairs:
                return True
    return False


def _other_pair_blocks(ref: Sequence[str], can: Sequence[str], res: LcsResult, rev: BitRows) -> bool:
    """Large pairs: the table values of blocks of rows with NumPy, compared with the chosen pairs."""
    import numpy as np

    L, m, n = res.length, len(ref), len(can)
    chosen = np.zeros((m, n), dtype=bool) if m * n <= CHOSEN_MATRIX_MAX_CELLS else None
    chosen_set = set(res.pairs)
    ids: dict[str, int] = {}
    rid = np.array([ids.setdefault(t, len(ids)) for t in ref], dtype=np.int64)
    cid = np.array([ids.get(t, -1) for t in can], dtype=np.int64)
    if chosen is not None:
        for i, j in res.pairs:
            chosen[i, j] = True
    most = max(1, min(512, 2_000_000 // max(n, 1)))
    step = min(16, most)           # small blocks first: in a repetitive text another LCS shows in the first rows
    i1 = 0
    while i1 < m:
        i0, i1 = i1, min(m, i1 + step)
        step = min(2 * step, most)
        eq = rid[i0:i1, None] == cid[None, :]
        rows = np.flatnonzero(eq.any(axis=1)) + i0                    # only rows with a matching token
        if not len(rows):
            continue
        eq = eq[rows - i0]
        pre = _rows_values([res.rows[i] for i in rows], n)[:, :n]     # c(ref[:i], can[:j]) for j < n
        suf = _rows_values([rev[m - i - 1] for i in rows], n)         # [k] = LCS(ref[i+1:], last k of can)
        # the suffix after candidate j is the last n-j-1 tokens: column n-1-j, the columns reversed (a view)
        tot = pre + suf[:, n - 1::-1]
        on = eq & (tot == L - 1)
        if chosen is not None:
            if (on & ~chosen[rows]).any():
                return True
        else:
            for a, b in zip(*np.nonzero(on)):
                if (int(rows[a]), int(b)) not in chosen_set:
                    return True
    return False
