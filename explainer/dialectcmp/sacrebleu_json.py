"""A claim read from sacreBLEU's own JSON output (``sacrebleu … -f json``), as WMT publishes its official numbers:
one object ``{"name": "BLEU", "score": 31.2, "signature": …}``, a list of them (``-m bleu chrf ter``), or, for
several systems, a list of ``{"system": …, "BLEU": "31.2", "chrF2": "55.1"}`` rows. The claim is what the object
states, as ``reproduce`` reads a typed claim ("BLEU 31.2 / chrF2 55.1 / TER 60.1": each number a claim of its own;
a metric this tool does not compute is refused by name).
"""
from __future__ import annotations

import json
from typing import Any

from explainer.errors import ExplainerInputError

__all__ = ["looks_like_json", "claim_from_sacrebleu_json", "MAX_JSON_CHARS"]

MAX_JSON_CHARS = 1_000_000      # sacreBLEU's output for one system is a few hundred characters


def looks_like_json(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


def _number(v: Any, where: str) -> str:
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise ExplainerInputError(f"sacreBLEU's JSON: {where} is not a number")
    s = str(v).strip()
    try:
        float(s)
    except ValueError:
        raise ExplainerInputError(f"sacreBLEU's JSON: {where} is not a number ({s[:30]!r})") from None
    return s


def _from_scores(items: list) -> list[str]:
    out = []
    for k, x in enumerate(items):
        if not isinstance(x, dict) or not isinstance(x.get("name"), str) or "score" not in x:
            raise ExplainerInputError(f"sacreBLEU's JSON: entry {k + 1} has no \"name\" and \"score\"")
        out.append(f"{x['name'][:40]} {_number(x['score'], x['name'][:40] + ' score')}")
    return out


def _from_systems(rows: list, system: str | None) -> list[str]:
    names = [str(r.get("system", ""))[:80] for r in rows]
    pick = [r for r in rows if system is not None and str(r.get("system")) in (system, system.rsplit("/", 1)[-1])]
    if len(pick) != 1:
        raise ExplainerInputError("sacreBLEU's JSON holds several systems (" + ", ".join(names[:10]) + "): give the "
                                  "output of the system compared (--hyp with the same file name), or its number")
    return [f"{k[:40]} {_number(v, k[:40])}" for k, v in pick[0].items() if k != "system"]


def claim_from_sacrebleu_json(text: str, *, system: str | None = None) -> str:
    """The claim sacreBLEU's JSON output states (``system``: the file name of the system compared, when the output
    holds several). ExplainerInputError, naming what is wrong, for anything else."""
    if len(text) > MAX_JSON_CHARS:
        raise ExplainerInputError(f"sacreBLEU's JSON: {len(text):,} characters, over the limit of {MAX_JSON_CHARS:,}")
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ExplainerInputError(f"the claim looks like JSON but is not ({str(e)[:80]})") from None
    if isinstance(obj, dict):
        obj = [obj]
    if not isinstance(obj, list) or not obj or len(obj) > 50:
        raise ExplainerInputError("sacreBLEU's JSON: expected an object or a list of up to 50 objects")
    if all(isinstance(x, dict) and "system" in x for x in obj):
        parts = _from_systems(obj, system)
    else:
        parts = _from_scores(obj)
    if not parts:
        raise ExplainerInputError("sacreBLEU's JSON states no score")
    return " / ".join(parts)
