"""Downloads: the per-segment table as CSV, the report as JSON (pure functions, no Streamlit)."""
from __future__ import annotations

import csv
import io
import json
import math
from typing import Any, Mapping, Sequence

__all__ = ["csv_cell", "columns_csv", "write_columns_csv", "json_text", "clean_json", "with_texts", "testset_texts"]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(v: Any) -> Any:
    """A spreadsheet runs a text cell starting with = + - @ (or tab / CR) as a formula (CSV injection): such
    text gets a leading single quote, as OWASP advises. Numbers are written as they are; NaN as empty."""
    if isinstance(v, str):
        return "'" + v if v.startswith(_FORMULA_START) else v
    if isinstance(v, float) and math.isnan(v):
        return ""
    if v is None:
        return ""
    return v


def write_columns_csv(fh, cols: Mapping[str, Sequence]) -> None:
    """Write a column dict (equal-length columns) as CSV rows to a text file handle."""
    w = csv.writer(fh, lineterminator="\n")
    names = list(cols)
    w.writerow([csv_cell(n) for n in names])
    columns = [cols[n] for n in names]
    for row in zip(*columns):
        w.writerow([csv_cell(v) if isinstance(v, str) or v is None else (repr(v) if isinstance(v, float) else v)
                    for v in row])


def columns_csv(cols: Mapping[str, Sequence]) -> str:
    buf = io.StringIO()
    write_columns_csv(buf, cols)
    return buf.getvalue()


def clean_json(obj: Any) -> Any:
    """NaN / infinity are not JSON: they become null."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: clean_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean_json(v) for v in obj]
    return obj


def json_text(obj: Any, indent: int | None = 1) -> str:
    return json.dumps(clean_json(obj), ensure_ascii=False, indent=indent)


def with_texts(cols: Mapping[str, Sequence], references: Sequence[tuple[str, Any]],
               systems: Sequence[tuple[str, Any]], source: Any = None) -> dict[str, Any]:
    """The per-segment table with the texts: the source (when given), each reference stream and each system's
    output as ``<name> | text``, after the segment id and lengths. The text columns may be iterators (the
    ``compare`` CLI streams them from the files: memory stays flat)."""
    out: dict[str, Any] = {}
    keys = list(cols)
    lead = [k for k in keys if k in ("segment", "ref_len", "ref_words")]
    for k in lead:
        out[k] = cols[k]
    if source is not None:
        out["source"] = source
    for name, lines in references:
        out[name] = lines
    for name, lines in systems:
        out[f"{name} | text"] = lines
    for k in keys:
        if k not in out:
            out[k] = cols[k]
    return out


def testset_texts(ts) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]], Any]:
    """(reference columns, system columns, source) of a test set for :func:`with_texts`."""
    K = max((len(r) for r in ts.references), default=0)
    refs = [(f"reference {k + 1}", [r[k] if k < len(r) else "" for r in ts.references]) for k in range(K)]
    return refs, [(n, lines) for n, lines in ts.systems], ts.source
