"""The course chapter's from-scratch functions, as recorded outputs (the oracle of the `textbook` dialects).

The chapter's code is course material, not part of the repository. ``scripts/refresh_test_data.py`` runs it on
every input the tests use and records each call's result, or the exception it raised, in
``tests/data/seeds/chapter_calls.jsonl.gz``. ``chapter_functions()`` returns the chapter's names
(``bleu_score``, ``modified_precision``, ``brevity_penalty``, ``rouge_n``, ``rouge_l``) as look-ups: the same
arguments give the recorded result, or raise the recorded exception again (same class name and message).
A call that was not recorded fails loudly: add its input to the script's call list and refresh."""
from __future__ import annotations

import builtins
import json
from functools import lru_cache

from tests.conftest import REFRESH_HINT, data_path, load_jsonl

NAMES = ("bleu_score", "modified_precision", "brevity_penalty", "rouge_n", "rouge_l")


def _key(name: str, args, kwargs) -> str:
    return json.dumps([name, list(args), kwargs], ensure_ascii=False, sort_keys=True)


@lru_cache(maxsize=1)
def _recordings() -> dict:
    recs = load_jsonl(str(data_path("seeds/chapter_calls.jsonl.gz")))
    return {_key(r["fn"], r["args"], r["kwargs"]): r for r in recs}


def _exception(error: dict) -> Exception:
    cls = getattr(builtins, error["type"], None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = type(error["type"], (Exception,), {})
    return cls(error["message"])


def _recorded(name: str):
    def call(*args, **kwargs):
        rec = _recordings().get(_key(name, args, kwargs))
        if rec is None:
            raise LookupError(f"the chapter's {name}{args!r} {kwargs!r} was not recorded "
                              f"(add it to scripts/refresh_test_data.py and {REFRESH_HINT})")
        if "error" in rec:
            raise _exception(rec["error"])
        return rec["result"]

    call.__name__ = name
    return call


def chapter_functions() -> dict:
    """{name: function} with the chapter's names, answering from the recordings."""
    return {name: _recorded(name) for name in NAMES}
