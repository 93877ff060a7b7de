"""How the model's work uses the machine's cores: OpenBLAS on one thread, and the explainer's own worker threads.

OpenBLAS (NumPy's BLAS) splits every matrix product over all cores by default, and its threads wait for each
other, spinning: on a busy 2-core machine a sentence pair's small products took 2–5 s of wall time instead of
0.1 s, and a corpus block took 50 % more CPU on two BLAS threads than on one for no gain in wall time (the
threads waited for a core to be free). So the semantic code runs its products on one BLAS thread
(``one_blas_thread``) and uses the cores its own way: a large run of the model is cut into chunks of texts, each
a whole forward pass on one thread (``WORKERS`` threads, one per core, at most 4, shared by every caller of the
process). NumPy releases the GIL inside its operations, so the chunks run in parallel and wait for each other only
when a run ends.

The BLAS setting is the process's: OpenBLAS (with its pthreads layer, as NumPy's wheels ship it) has one thread
pool and one thread count for the process; NumPy has no API for it, and ``OPENBLAS_NUM_THREADS`` counts only
before NumPy is loaded (a Streamlit server has loaded it long before), so ``threadpoolctl`` reaches it. The first
caller sets it to one thread and the last one to leave restores it (a count under a lock), so overlapping calls
from several sessions never undo each other's setting. threadpoolctl lets only one "controlling" thread change
OpenBLAS's count and silently ignores the others, whereas here the thread that restores is often not the one
that set; the count is the arbiter, so control is handed back around each change
(``OpenBLASController.clear_controlling_thread(force=True)``).
"""
from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator

__all__ = ["WORKERS", "one_blas_thread", "pool"]

#: the worker threads of a large run (one per core, at most 4)
WORKERS = max(1, min(4, os.cpu_count() or 1))

_LOCK = threading.Lock()
_USERS = 0
_LIMITER = None
_CONTROLLER = None
_POOL: ThreadPoolExecutor | None = None


def _as_any_thread(change):
    """``change()`` with threadpoolctl's OpenBLAS control free before and after (called under ``_LOCK``)."""
    from threadpoolctl import OpenBLASController

    OpenBLASController.clear_controlling_thread(force=True)
    try:
        return change()
    finally:
        OpenBLASController.clear_controlling_thread(force=True)


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS on one thread while any caller is inside (re-entrant, thread-safe)."""
    global _USERS, _LIMITER, _CONTROLLER
    with _LOCK:
        if _USERS == 0:
            if _CONTROLLER is None:
                from threadpoolctl import ThreadpoolController

                _CONTROLLER = ThreadpoolController()
            _LIMITER = _as_any_thread(lambda: _CONTROLLER.limit(limits=1, user_api="blas"))
        _USERS += 1
    try:
        yield
    finally:
        with _LOCK:
            _USERS -= 1
            if _USERS == 0 and _LIMITER is not None:
                _as_any_thread(_LIMITER.restore_original_limits)
                _LIMITER = None


def pool() -> ThreadPoolExecutor:
    """The process's worker threads (created on first use). Its tasks never wait for other tasks of the pool."""
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="semantic")
        return _POOL
