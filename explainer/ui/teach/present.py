"""Presenting a lesson from two windows: the projector window (the step only: no notes, no answers, the
toolbar hidden, clicker keys) and the presenter window (notes, answers, the next step, a clock), kept in step.

The channel is in the server's memory, keyed by a random room id in both windows' links (``room=…``): a room
holds only the step number, a version and two times — never a text. Rooms are bounded (:data:`MAX_ROOMS`, the
oldest dropped first) and expire (:data:`ROOM_TTL` seconds without a move). Each window polls its room every
:data:`POLL_SECONDS` (a fragment) and moves when the room moved.

Only a window with the room's control key moves the room (:func:`may_control`, the one check): the presenter's
link carries it (``key=…``), the projector's only the room id — which the class sees on the projector, so
anyone may follow the room, no one else may move it. The key is an HMAC of the room id under a secret of this
server process (no state to race for: a room's key exists before the room does). No external service; both
windows must be served by the same server process (one machine)."""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import OrderedDict

__all__ = ["new_room", "valid_room", "publish", "current", "MAX_ROOMS", "ROOM_TTL", "POLL_SECONDS", "clear",
           "control_key", "may_control"]

MAX_ROOMS = 256
ROOM_TTL = 6 * 3600.0
POLL_SECONDS = 0.5
_ROOM = re.compile(r"[0-9a-f]{16}")
_KEY = re.compile(r"[0-9a-f]{32}")
_SECRET = secrets.token_bytes(32)   # this process's: rooms live in its memory only

_lock = threading.Lock()
_rooms: OrderedDict[str, dict] = OrderedDict()


def new_room() -> str:
    return secrets.token_hex(8)


def valid_room(raw) -> str | None:
    """The room id of a link, or None (anything but 16 lowercase hex digits is refused before it is used)."""
    return raw if isinstance(raw, str) and _ROOM.fullmatch(raw) else None


def control_key(room: str) -> str:
    """The key that moves ``room`` (for the presenter's link)."""
    if valid_room(room) is None:
        raise ValueError("not a room id")
    return hmac.new(_SECRET, room.encode("ascii"), hashlib.sha256).hexdigest()[:32]


def may_control(room, key) -> bool:
    """Whether ``key`` moves ``room`` (anything but a room id and 32 lowercase hex digits is no key)."""
    if valid_room(room) is None or not (isinstance(key, str) and _KEY.fullmatch(key)):
        return False
    return hmac.compare_digest(key, control_key(room))


def _expire(now: float) -> None:
    for k in [k for k, v in _rooms.items() if now - v["t"] > ROOM_TTL]:
        del _rooms[k]
    while len(_rooms) > MAX_ROOMS:
        _rooms.popitem(last=False)


def publish(room: str, step: int, *, key: str | None, now: float | None = None) -> int:
    """Move the room to ``step`` (an int) with its control ``key``; the new version."""
    if valid_room(room) is None:
        raise ValueError("not a room id")
    if not may_control(room, key):
        raise PermissionError("not this room's control key")
    now = time.time() if now is None else now
    with _lock:
        old = _rooms.pop(room, None)
        version = (old["version"] + 1) if old else 1
        _rooms[room] = {"step": int(step), "version": version, "t": now,
                        "opened": old["opened"] if old else now}
        _expire(now)
        return version


def current(room: str, *, now: float | None = None) -> dict | None:
    """{step, version, t, opened} of the room, or None (unknown or expired)."""
    now = time.time() if now is None else now
    with _lock:
        _expire(now)
        got = _rooms.get(room)
        return dict(got) if got else None


def clear() -> None:
    with _lock:
        _rooms.clear()
