"""A student's results that hold: the progress a link carries and the results file a student hands in carry a
keyed checksum (HMAC-SHA256) that only the server's key makes, so a score edited by hand no longer reads back and a
teacher can check a file. Pure (no Streamlit).

The key is read by the server, never taken from a visitor: the environment variable :data:`KEY_ENV`
(``EXPLAINER_TEACH_KEY``: any text of at least :data:`MIN_KEY_CHARS` characters), else the file named by
:data:`KEY_FILE_ENV` (``EXPLAINER_TEACH_KEY_FILE``: its first line), else a random key made when the server starts
(checksums then hold while this server process runs: a restart makes the links' progress and the files unverifiable,
which the page says). The results file (CSV or JSON, for a course's LMS) lists each exercise's points; its
checksum covers every field."""
from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import os
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

__all__ = ["KEY_ENV", "KEY_FILE_ENV", "MIN_KEY_CHARS", "MAX_RESULTS_CHARS", "MAX_NAME_CHARS", "key_source",
           "progress_checksum", "progress_holds", "ResultRow", "results_record", "results_json", "results_csv",
           "read_results", "verify_results"]

KEY_ENV = "EXPLAINER_TEACH_KEY"
KEY_FILE_ENV = "EXPLAINER_TEACH_KEY_FILE"
MIN_KEY_CHARS = 16
MAX_RESULTS_CHARS = 64_000   # a results file checked on the page (20 exercises take about 2 KB)
MAX_NAME_CHARS = 80          # the student's name in a results file
CHECKSUM_CHARS = 24          # hex digits of a link's checksum (96 bits)
FORMAT = "explainer-teach-results/1"

_lock = threading.Lock()
_key: tuple[bytes, str] | None = None


def _read_key() -> tuple[bytes, str]:
    raw = os.environ.get(KEY_ENV, "")
    if raw:
        if len(raw) < MIN_KEY_CHARS:
            raise ValueError(f"{KEY_ENV} must have at least {MIN_KEY_CHARS} characters")
        return raw.encode("utf-8"), f"the environment variable {KEY_ENV}"
    path = os.environ.get(KEY_FILE_ENV, "")
    if path:
        text = Path(path).read_text(encoding="utf-8").splitlines()
        line = text[0].strip() if text else ""
        if len(line) < MIN_KEY_CHARS:
            raise ValueError(f"the first line of {KEY_FILE_ENV} ({path}) must have at least {MIN_KEY_CHARS} "
                             "characters")
        return line.encode("utf-8"), f"the key file named by {KEY_FILE_ENV}"
    return secrets.token_bytes(32), "a random key of this server process (set EXPLAINER_TEACH_KEY to keep it)"


def _the_key() -> bytes:
    global _key
    with _lock:
        if _key is None:
            _key = _read_key()
        return _key[0]


def key_source() -> str:
    """Where the key comes from, in words (the page and the docs say it)."""
    _the_key()
    return _key[1]


def _reset_key() -> None:
    """Read the key again on next use (tests set the environment)."""
    global _key
    with _lock:
        _key = None


def _mac(*parts: str) -> str:
    msg = "\x1f".join(parts).encode("utf-8")
    return hmac.new(_the_key(), msg, hashlib.sha256).hexdigest()


def progress_checksum(what: str, done: str) -> str:
    """The checksum of a link's progress ``done`` for the set or lesson ``what`` (its seed, level and lecture; or
    the lesson's id)."""
    return _mac("progress", what, done)[:CHECKSUM_CHARS]


def progress_holds(what: str, done: str, checksum: str | None) -> bool:
    """Whether ``checksum`` is this server's for that progress (a progress edited by hand is not)."""
    return isinstance(checksum, str) and hmac.compare_digest(checksum, progress_checksum(what, done))


@dataclass(frozen=True)
class ResultRow:
    number: int          # 1-based
    exercise: str        # its title
    points: int | None   # None: not answered
    of: int


def results_record(*, name: str, seed: int, level: str, lesson: str, rows: Sequence[ResultRow],
                   made: str) -> dict[str, Any]:
    """The results of one student's set, with the checksum over every field. ``name``: as the student typed it
    (at most :data:`MAX_NAME_CHARS`); ``made``: when (ISO time)."""
    record = {"format": FORMAT, "name": name[:MAX_NAME_CHARS], "seed": int(seed), "level": level, "lesson": lesson,
              "made": made, "exercises": [{"number": r.number, "exercise": r.exercise, "points": r.points,
                                           "of": r.of} for r in rows],
              "points": sum(r.points or 0 for r in rows), "of": sum(r.of for r in rows)}
    record["checksum"] = _record_mac(record)
    return record


def _record_mac(record: Mapping[str, Any]) -> str:
    body = {k: v for k, v in record.items() if k != "checksum"}
    return _mac("results", json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")))


def verify_results(record: Mapping[str, Any]) -> bool:
    """Whether a results record is as this server's key made it (no field changed)."""
    got = record.get("checksum")
    return isinstance(got, str) and hmac.compare_digest(got, _record_mac(record))


def results_json(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=2) + "\n"


_CSV_HEAD = ("name", "seed", "level", "lesson", "made", "number", "exercise", "points", "of", "total", "total_of",
             "checksum")


def _cell(v) -> str:
    """A CSV cell a spreadsheet does not run as a formula (a leading = + - @ is quoted with ')."""
    s = "" if v is None else str(v)
    return "'" + s if s[:1] in ("=", "+", "-", "@", "\t", "\r") else s


def results_csv(record: Mapping[str, Any]) -> str:
    """One row per exercise (an LMS imports rows); every row repeats the student's fields and the checksum."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(_CSV_HEAD)
    for e in record["exercises"]:
        w.writerow([_cell(x) for x in (record["name"], record["seed"], record["level"], record["lesson"],
                                       record["made"], e["number"], e["exercise"], e["points"], e["of"],
                                       record["points"], record["of"], record["checksum"])])
    return out.getvalue()


def _uncell(s: str) -> str:
    return s[1:] if s[:1] == "'" and s[1:2] in ("=", "+", "-", "@", "\t", "\r") else s


def _int(s: str) -> int | None:
    return None if s == "" else int(s)


def read_results(text: str) -> dict[str, Any]:
    """A results file (JSON or CSV, as :func:`results_json` / :func:`results_csv` write it) as a record;
    ValueError with a message for anything else."""
    if len(text) > MAX_RESULTS_CHARS:
        raise ValueError(f"the file has {len(text):,} characters; a results file has at most {MAX_RESULTS_CHARS:,}")
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            record = json.loads(stripped)
        except json.JSONDecodeError as e:
            raise ValueError(f"not a results file: {e.msg}") from None
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            raise ValueError("not a results file of the Teach page")
        return record
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(rows[0]) != _CSV_HEAD or len(rows) < 2 or any(len(r) != len(_CSV_HEAD) for r in rows[1:]):
        raise ValueError("not a results file of the Teach page (JSON, or CSV with its header row)")
    try:
        first = [_uncell(x) for x in rows[1]]
        record = {"format": FORMAT, "name": first[0], "seed": int(first[1]), "level": first[2], "lesson": first[3],
                  "made": first[4],
                  "exercises": [{"number": int(r[5]), "exercise": _uncell(r[6]), "points": _int(r[7]), "of": int(r[8])}
                                for r in rows[1:]],
                  "points": int(first[9]), "of": int(first[10]), "checksum": first[11]}
    except ValueError:
        raise ValueError("not a results file of the Teach page: a number is not a number") from None
    return record
