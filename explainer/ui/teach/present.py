"""Presenting a lesson from two windows: the projector window (the step only: no notes, no answers, no control)
and the presenter window (the step as the class sees it, the next one, the notes, the answers, a clock), kept in
one room.

A room is in the server's memory, keyed by a random room id in both windows' links (``room=…``). It holds
everything that changes what the class sees, as the presenter's link has it (:func:`publish`: the lesson and its
families, the worked example or the own text, the settings, the step, the demo step, the LCS table's fill, the blank
screen — the parameters of the Teach page's link, at most :data:`MAX_STATE_CHARS` characters: own texts are in it
as they are in the presenter's address bar), a version and two times; never a note, an answer or anything a
student typed. Rooms are bounded (:data:`MAX_ROOMS`, the oldest dropped first) and expire (:data:`ROOM_TTL` seconds
without a move); nothing is written to disk or logged. The projector polls its room every :data:`POLL_SECONDS` (a
fragment) and shows the room's state when its version moved; a projector opened late shows the room as it is.

Only a window with the room's control key changes the room (:func:`may_control`, the one check): the presenter's
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
           "control_key", "may_control", "valid_state", "MAX_STATE_CHARS", "MAX_STATE_VALUES"]

MAX_ROOMS = 256
ROOM_TTL = 6 * 3600.0
#: a room's state: the presenter's link parameters (own texts up to the link's 6,000 characters, and the rest)
MAX_STATE_CHARS = 16_000
MAX_STATE_VALUES = 64
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


def valid_state(state) -> dict[str, list[str]] | None:
    """A room's state as it is kept: link parameters (name -> list of strings), bounded in size, or None."""
    if not isinstance(state, dict) or len(state) > MAX_STATE_VALUES:
        return None
    out: dict[str, list[str]] = {}
    size = 0
    for k, v in state.items():
        vals = [v] if isinstance(v, str) else v
        if not isinstance(k, str) or not isinstance(vals, (list, tuple)) or len(vals) > MAX_STATE_VALUES or not all(
                isinstance(x, str) for x in vals):
            return None
        out[k] = list(vals)
        size += len(k) + sum(len(x) for x in vals)
    return out if size <= MAX_STATE_CHARS else None


def publish(room: str, state: dict, *, key: str | None, now: float | None = None) -> int:
    """Set the room to ``state`` (the presenter's link parameters) with its control ``key``; the new version.
    ValueError: not a room id, or a state that is not link parameters within the bounds."""
    if valid_room(room) is None:
        raise ValueError("not a room id")
    if not may_control(room, key):
        raise PermissionError("not this room's control key")
    kept = valid_state(state)
    if kept is None:
        raise ValueError("a room's state is link parameters of at most "
                         f"{MAX_STATE_CHARS:,} characters")
    now = time.time() if now is None else now
    with _lock:
        old = _rooms.pop(room, None)
        version = (old["version"] + 1) if old else 1
        _rooms[room] = {"state": kept, "version": version, "t": now, "opened": old["opened"] if old else now}
        _expire(now)
        return version


def current(room: str, *, now: float | None = None) -> dict | None:
    """{state, version, t, opened} of the room (a copy), or None (unknown or expired)."""
    now = time.time() if now is None else now
    with _lock:
        _expire(now)
        got = _rooms.get(room)
        if not got:
            return None
        return {**got, "state": {k: list(v) for k, v in got["state"].items()}}


def clear() -> None:
    with _lock:
        _rooms.clear()
