"""Traces computed once per (texts, settings) and shared by every session of the server process.

A class opening the teacher's link at once asks thirty times for the same traces; a student clicking through
the settings asks again on every rerun. :class:`SharedResults` keeps recent results in memory, keyed on
everything that determines them, and gives every session the same (read-only) objects:

* **Keyed exactly.** The key holds the texts and every option value together with its type (``True``, ``1``
  and ``1.0`` are equal in Python but are different option values to the cores) and ``repr`` of floats (so
  ``-0.0`` is not ``0.0``).
* **Bounded.** The cache holds at most :data:`BUDGET_CHARS` characters of input in all (least recently used
  entries go first). A trace takes roughly 0.5–1 kB of memory per input character (measured: 845 characters
  → 0.4 MB, 9,286 → 8 MB, 47,701 → 17 MB for BLEU + ROUGE-1/2/L/Lsum), so the cache stays below ~100 MB
  whatever strangers type. One input larger than the budget is computed but not kept.
* **One computation per key at a time.** Sessions asking for a key that is being computed wait for it instead
  of computing it again (thirty sessions opening one link compute its traces once).
* **Memory only.** Nothing is written to disk and nothing is logged: user text lives in this process's memory
  for as long as the entry is recent, and in the visitor's URL.

Not ``st.cache_data``: it pickles every result on the way in and unpickles a copy for every session on the way
out, which for a 400-token text costs 60 % of computing the traces again (190 ms vs 320 ms measured), and it
bounds the serialised bytes of all caches of the app together rather than this one. Not ``st.cache_resource``:
it bounds the number of entries, not their size (0.4 MB to 20 MB and more per entry).

The cached objects are shared between sessions and threads, so callers must treat them as read-only (the page
and its views only read traces; the BLEU trace's lazily built n-gram records are idempotent).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable

from explainer.options import freeze  # the one key of option values (also the registry's and the dialects')
from explainer.ui.budget import view_key

__all__ = ["BUDGET_CHARS", "CORPUS_BUDGET_CHARS", "SharedResults", "cached", "corpus_reports", "family_trace",
           "freeze", "inputs_key", "shared", "traces"]

BUDGET_CHARS = 100_000
SMALL_RATIO = 64   # a result of a few numbers: its entry (the key's texts) costs 1/64 of a trace's


class _Pending:
    """A computation in progress: other callers of the same key wait on ``done``."""

    __slots__ = ("done", "value", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


class SharedResults:
    """A thread-safe LRU of computed results whose total cost (characters of input) stays within a budget."""

    def __init__(self, budget: int = BUDGET_CHARS) -> None:
        self.budget = budget
        self._lock = threading.Lock()
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._pending: dict[Hashable, _Pending] = {}
        self._total = 0
        self.hits = self.misses = 0

    def get(self, key: Hashable, cost: int, compute: Callable[[], Any]) -> Any:
        """The result for ``key``: from the cache, from a computation of the same key already running in
        another thread, or from ``compute()`` (kept when ``cost`` fits the budget). An exception of
        ``compute`` reaches every caller waiting for it and is not cached."""
        while True:
            with self._lock:
                if key in self._entries:
                    self._entries.move_to_end(key)
                    self.hits += 1
                    return self._entries[key][0]
                pending = self._pending.get(key)
                if pending is None:
                    pending = self._pending[key] = _Pending()
                    self.misses += 1
                    break
            pending.done.wait()
            if pending.error is None:
                return pending.value
            if isinstance(pending.error, Exception):
                raise pending.error
            # the computing thread was stopped (e.g. its session went away): compute here instead
        try:
            pending.value = compute()
        except BaseException as e:
            pending.error = e
            raise
        finally:
            with self._lock:
                del self._pending[key]
                if pending.error is None and cost <= self.budget:
                    self._store(key, pending.value, cost)
            pending.done.set()
        return pending.value

    def _store(self, key: Hashable, value: Any, cost: int) -> None:
        old = self._entries.pop(key, None)
        if old is not None:
            self._total -= old[1]
        self._entries[key] = (value, cost)
        self._total += cost
        while self._total > self.budget and self._entries:
            _, (_, c) = self._entries.popitem(last=False)
            self._total -= c

    def __contains__(self, key: Hashable) -> bool:
        """Whether ``key``'s result is kept (a computation under way is not)."""
        with self._lock:
            return key in self._entries

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._total = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def total_cost(self) -> int:
        return self._total


#: The process-wide cache the Explain page uses.
shared = SharedResults()

#: The Corpus page's reports, shared the same way: a report costs about 3.3 bytes per character of its test set
#: (measured: WMT22 en-de, 3 systems x 2,037 segments x 2 references, 1.1 M characters -> 3.8 MB with its
#: analyses), so 30 M characters of test sets keep at most ~100 MB.
CORPUS_BUDGET_CHARS = 30_000_000
corpus_reports = SharedResults(CORPUS_BUDGET_CHARS)


def inputs_key(candidate: str, refs: list[str], settings) -> tuple[Hashable, int]:
    """(key, cost) of a computation over these inputs: everything that determines it (texts, and ``settings``: a
    :class:`explainer.ui.settings.MetricSettings`, a family's :class:`DialectChoice`, or any hashable value of
    settings), and the input size."""
    return (candidate, tuple(refs), settings), len(candidate) + sum(len(r) for r in refs) + 1


def cached(kind: Hashable, candidate: str, refs: list[str], settings, fn: Callable[[], Any], *,
           small: bool = False) -> Any:
    """``fn()`` computed once per (kind, inputs) and shared; ``fn`` must depend on nothing but the inputs.
    ``small``: the result is a few numbers, so the entry costs about its key (the texts), not a trace."""
    key, cost = inputs_key(candidate, refs, settings)
    return shared.get((kind, key), cost // SMALL_RATIO + 1 if small else cost, fn)


def family_trace(fam, choice, candidate: str, refs: list[str], *, whole: bool = False):
    """One family's :class:`explainer.ui.families.Computed` for these texts under ``choice`` (its dialect and
    options), computed once per inputs and shared by every session: a change of one family's settings recomputes
    that family only. ``whole``: within the core's limits, not one view's (a reader asked for it)."""
    def run():
        c = fam.compute(choice, candidate, refs, whole=whole)
        if c.view_limited:
            c.inputs_key = view_key(fam.name, choice, candidate, refs)
        return c

    return cached(("trace", fam.name, whole), candidate, refs, choice, run)


def traces(candidate: str, refs: list[str], settings, whole: frozenset[str] = frozenset()) -> dict:
    """Every family's :class:`explainer.ui.families.Computed` (a trace, or the message the page shows instead),
    in display order, shared by every session; ``whole``: the families a reader asked to compute whole."""
    from explainer.ui.families import ui_families

    return {f.name: family_trace(f, settings[f.name], candidate, refs, whole=f.name in whole) for f in ui_families()}
