"""Uploaded files in the server's memory: at most a session's limit at any time, and released with the session.

Streamlit (1.67) keeps every uploaded file's bytes in its upload manager (``runtime.uploaded_file_mgr``: a dict
per session, filled by the upload route before any script runs) and, as the uploader's value, an
``UploadedFile`` over the same bytes in the session's state. It has no limit on the files of a session (only
``server.maxUploadSize`` per file), and it releases them only when a file is removed in the browser or the
session is shut down. A tab that goes away disconnects its session, which Streamlit keeps for two minutes for a
reconnect in a TTL cache (``runtime.memory_session_storage``) and then merely forgets there, lazily — never
shutting it down: its files stay in the upload manager for the life of the process (the probe: eight files of
39 MB, RSS 238 -> 549 MB, 562 MB still held nine minutes after the tabs closed).

* :func:`install` (once per process, from the Corpus page, with the page's limit for all files together) wraps
  the upload manager's ``add_file``: a file that would take the session's uploads over that limit is refused
  with HTTP 413 before it is stored (the uploader marks it red; the page says why), so a session holds at most
  that much plus the one request in flight.
* It also starts the sweep: every :data:`SWEEP_SECONDS`, on the server's event loop, the sessions whose reconnect
  time is over are taken out of the cache and shut down (what Streamlit does for a session closed while
  connected: its files released), and the files of any session the server no longer knows are released.
* :func:`release` drops files the page is done with (over the page's limit) from the manager at once.

The hooks use Streamlit's runtime objects, some of them private; each is looked up defensively, and without
them the page's own check at "Use these files" still bounds what is read.
"""
from __future__ import annotations

import gc
import threading
import time
from typing import Any, Iterable

__all__ = ["SWEEP_SECONDS", "install", "release", "held_bytes", "refused_note", "sweep"]

#: how often closed sessions are looked for (a closed tab's files go within this plus Streamlit's two minutes)
SWEEP_SECONDS = 60.0

_installed = False
_lock = threading.Lock()
_refused: dict[str, str] = {}      # session id -> the last refusal's sentence (for the page), bounded below
_MAX_NOTES = 1_000


def _runtime():
    from streamlit.runtime import Runtime

    return Runtime.instance() if Runtime.exists() else None


def held_bytes(manager: Any, session_id: str) -> int:
    """The bytes of the files ``session_id`` has in the upload manager."""
    storage = getattr(manager, "file_storage", None)
    files = storage.get(session_id) if isinstance(storage, dict) else None
    return sum(len(f.data) for f in list((files or {}).values()))


def _refusal(held: int, size: int, limit: int) -> str:
    return (f"A file of {size / 1e6:.1f} MB was refused: with the {held / 1e6:.1f} MB already uploaded it would "
            f"go over the page's limit of {limit / 1e6:.0f} MB for all files together "
            "(`python -m explainer compare` takes larger test sets).")


def _guard(manager: Any, limit: int) -> None:
    """Wrap ``manager.add_file``: over ``limit`` bytes for the session, HTTP 413 before the file is stored."""
    from starlette.exceptions import HTTPException

    add_file = manager.add_file

    def bounded_add_file(session_id: str, file: Any) -> None:
        held = held_bytes(manager, session_id)
        if held + len(file.data) > limit:
            with _lock:
                if len(_refused) >= _MAX_NOTES:
                    _refused.pop(next(iter(_refused)))
                _refused[session_id] = _refusal(held, len(file.data), limit)
            raise HTTPException(status_code=413, detail="Over the page's limit for all files together")
        add_file(session_id, file)

    manager.add_file = bounded_add_file


def refused_note(session_id: str | None) -> str | None:
    """The sentence for this session's last refused file (once), or None."""
    if session_id is None:
        return None
    with _lock:
        return _refused.pop(session_id, None)


def sweep(rt: Any) -> int:
    """Shut down the sessions whose reconnect time is over and release the files of sessions the server no longer
    knows; the number of sessions whose files went. Runs on the server's event loop (the session objects are
    not thread-safe)."""
    mgr = getattr(rt, "_session_mgr", None)
    cache = getattr(getattr(mgr, "_session_storage", None), "_cache", None)
    expired = cache.expire() if callable(getattr(cache, "expire", None)) else []
    for _, info in expired:
        try:
            info.session.shutdown()
            # a task of the server may still hold the session object: its state (the uploaders' files, the test
            # set) goes now, as no one can come back to it
            info.session.session_state.clear()
        except Exception:  # noqa: BLE001 - one session's failure must not stop the sweep
            continue
    files = rt.uploaded_file_mgr
    storage = getattr(files, "file_storage", None)
    gone = 0
    if isinstance(storage, dict) and callable(getattr(mgr, "get_session_info", None)):
        for sid in list(storage):
            if mgr.get_session_info(sid) is None:
                files.remove_session_files(sid)
                gone += 1
    if gone or expired:
        # the sessions' state (the uploaders' values over the same bytes) sits in reference cycles, and the page
        # turns Streamlit's collection after each run off (.streamlit/config.toml): collect them now
        gc.collect()
    return gone + len(expired)


def _sweeping() -> None:
    while True:
        time.sleep(SWEEP_SECONDS)
        rt = _runtime()
        if rt is None:
            continue
        try:
            rt._get_async_objs().eventloop.call_soon_threadsafe(sweep, rt)
        except Exception:  # noqa: BLE001 - the server is stopping, or its private API changed
            continue


def install(max_session_bytes: int) -> None:
    """Once per process (a no-op without a running server, e.g. under streamlit.testing): the upload guard (at
    most ``max_session_bytes`` of files per session) and the sweep of closed sessions."""
    global _installed
    with _lock:
        if _installed:
            return
        rt = _runtime()
        if rt is None:
            return
        _installed = True
    try:
        _guard(rt.uploaded_file_mgr, max_session_bytes)
    except Exception:  # noqa: BLE001 - without the guard the page's own check still bounds what is read
        pass
    threading.Thread(target=_sweeping, name="explainer-upload-sweep", daemon=True).start()


def release(files: Iterable[Any]) -> None:
    """Drop ``files`` (the uploader's ``UploadedFile`` values) from the upload manager at once."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or ctx.uploaded_file_mgr is None:
        return
    for f in files:
        file_id = getattr(f, "file_id", None)
        if file_id is not None:
            ctx.uploaded_file_mgr.remove_file(ctx.session_id, file_id)
