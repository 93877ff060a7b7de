"""Reports computed ahead, in the background, while the server is idle (issue 33, item 9): after a test set's first
view, every chosen family whose dialect has a ``tokenize`` option gets its report for the other tokenizers, so
that a change of the tokenizer in the sidebar finds its report computed (a WMT test set's BLEU statistics take
seconds; the click should answer at once).

One worker thread for the server. It works only when no page run is in progress (the Corpus page counts its runs:
:func:`page_run`) and a second has passed since the last one ended, and pauses inside a computation as soon as a run
starts (the computation's progress callback waits): the visitor's clicks always come first. The results go into the
page's shared results (``explainer.ui.compute.corpus_reports``) under the very key the page computes them with, so
a page run takes them as its own; they are bounded as every report is. Nothing is written to disk or logged.
"""
from __future__ import annotations

import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import Callable

__all__ = ["page_run", "schedule", "drain", "pending", "IDLE_SECONDS", "MAX_QUEUED"]

IDLE_SECONDS = 1.0      # quiet time after a page run before the worker starts or resumes
MAX_QUEUED = 16         # reports waiting (each a test set x a tokenizer); older ones are dropped first

_lock = threading.Condition()
_active = 0             # page runs in progress
_last_end = 0.0
_jobs: deque = deque()
_queued: set = set()
_worker: threading.Thread | None = None


@contextmanager
def page_run():
    """A page run: the worker pauses while any is in progress."""
    global _active, _last_end
    with _lock:
        _active += 1
    try:
        yield
    finally:
        with _lock:
            _active -= 1
            _last_end = time.monotonic()
            _lock.notify_all()


def _wait_idle() -> None:
    """Block until no page run is in progress and the last one ended IDLE_SECONDS ago."""
    with _lock:
        while True:
            quiet = time.monotonic() - _last_end
            if _active == 0 and quiet >= IDLE_SECONDS:
                return
            _lock.wait(timeout=max(0.05, IDLE_SECONDS - quiet) if _active == 0 else 0.5)


def paused_progress(frac: float = 0.0, msg: str = "") -> None:
    """A computation's progress callback: it waits while the server has a page run to do."""
    _wait_idle()


def schedule(key: tuple, compute: Callable[[], object]) -> None:
    """Queue ``compute`` (it stores its result itself, e.g. into the shared results) under ``key`` (each key once),
    to run when the server is idle."""
    global _worker
    with _lock:
        if key in _queued:
            return
        _queued.add(key)
        _jobs.append((key, compute))
        while len(_jobs) > MAX_QUEUED:
            old, _ = _jobs.popleft()
            _queued.discard(old)
        if _worker is None or not _worker.is_alive():
            _worker = threading.Thread(target=_work, name="corpus-warmup", daemon=True)
            _worker.start()
        _lock.notify_all()


def _next():
    with _lock:
        while not _jobs:
            _lock.wait(timeout=60)
            if not _jobs:
                return None
        return _jobs.popleft()


def _work() -> None:
    while True:
        job = _next()
        if job is None:
            return
        key, compute = job
        _wait_idle()
        try:
            compute()
        except Exception:  # noqa: BLE001 - a report the page would refuse: the page says so when it is asked for
            pass
        finally:
            with _lock:
                _queued.discard(key)


def pending() -> int:
    with _lock:
        return len(_jobs)


def drain(timeout: float = 600.0) -> bool:
    """Wait until every queued report is computed (tests); False when the time ran out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with _lock:
            if not _jobs and not _queued:
                return True
        time.sleep(0.05)
    return False
