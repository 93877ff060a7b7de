"""Record golden vectors from torchmetrics 1.9 (BLEUScore, SacreBLEUScore, ROUGEScore) into
tests/data/torchmetrics.jsonl.gz.

torch is too heavy for the test requirements, so this runs in a separate throwaway environment:

    python3 -m venv /tmp/tm && /tmp/tm/bin/pip install torch==2.13.0 'torchmetrics==1.9.*' sacrebleu==2.6.0 \\
        nltk==3.10.4 rouge-score==0.1.2 regex
    /tmp/tm/bin/python scripts/record_torchmetrics.py            # --check: compare with the committed file only

Inputs: tests/dialects_samples.py (English summaries, Japanese / Korean / Chinese news) plus a few edge cases.
One record per (metric, options, case): inputs, options, ``status`` ok/error, the error as "Type: message", every
value the metric returns as a Python float (torch float32 values widened exactly: ``tensor.item()``), and the
versions. Deterministic: re-running with the same versions writes the same bytes.
"""
from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "torchmetrics.jsonl.gz"


def cases() -> list[dict]:
    sys.path.insert(0, str(ROOT / "tests"))
    from dialects_samples import EN_SUMMARIES, JA_NEWS, KO_NEWS, ZH_NEWS

    out = []
    for i, (c, refs) in enumerate(EN_SUMMARIES):
        out.append({"case": f"en_summary_{i}", "preds": [c], "target": [list(refs)]})
    for name, pairs in (("ja_news", JA_NEWS), ("ko_news", KO_NEWS), ("zh_news", ZH_NEWS)):
        for i, (c, r) in enumerate(pairs):
            out.append({"case": f"{name}_{i}", "preds": [c], "target": [[r]]})
    out.append({"case": "en_corpus", "preds": [c for c, _ in EN_SUMMARIES],
                "target": [list(refs) for _, refs in EN_SUMMARIES]})
    out.append({"case": "en_corpus_one_ref", "preds": [c for c, _ in EN_SUMMARIES],
                "target": [[refs[0]] for _, refs in EN_SUMMARIES]})
    out.append({"case": "short_no_4gram", "preds": ["the cat sat"], "target": [["the cat sat down"]]})
    out.append({"case": "tie_lengths", "preds": ["a b c d e"], "target": [["a b c d", "a b c d e f"]]})
    out.append({"case": "empty_pred", "preds": [""], "target": [["the cat sat on the mat"]]})
    return out


CONFIGS = [
    ("BLEUScore", {}), ("BLEUScore", {"smooth": True}), ("BLEUScore", {"n_gram": 2}),
    ("SacreBLEUScore", {}), ("SacreBLEUScore", {"smooth": True}), ("SacreBLEUScore", {"tokenize": "intl"}),
    ("SacreBLEUScore", {"tokenize": "zh"}), ("SacreBLEUScore", {"tokenize": "char"}),
    ("SacreBLEUScore", {"lowercase": True}),
    ("ROUGEScore", {"rouge_keys": ("rouge1", "rouge2", "rougeL")}),
    ("ROUGEScore", {"rouge_keys": ("rouge1", "rouge2", "rougeL"), "accumulate": "avg"}),
    ("ROUGEScore", {"rouge_keys": ("rouge1", "rouge2", "rougeL"), "use_stemmer": True}),
    ("ROUGEScore", {"rouge_keys": ("rougeLsum",)}),
]


def record() -> list[dict]:
    import torch
    import torchmetrics
    from torchmetrics import text as tm

    out = []
    for metric, opts in CONFIGS:
        for case in cases():
            rec = {"metric": metric, "options": {k: list(v) if isinstance(v, tuple) else v for k, v in opts.items()},
                   **case, "versions": {"torchmetrics": torchmetrics.__version__, "torch": torch.__version__}}
            try:
                m = getattr(tm, metric)(**opts)
                value = m(case["preds"], case["target"])
                if isinstance(value, dict):
                    rec["values"] = {k: v.item() for k, v in sorted(value.items())}
                else:
                    rec["values"] = {"score": value.item()}
                rec["dtype"] = str(next(iter(value.values())).dtype if isinstance(value, dict) else value.dtype)
                rec["status"] = "ok"
            except Exception as e:      # recorded, as the golden files record the libraries' errors
                rec["status"] = "error"
                rec["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            out.append(rec)
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
