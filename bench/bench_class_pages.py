"""A class of thirty opening one Teach or Dialects link at once, against the real server (bench_first_view.py's
approach, for the other pages).

Starts ``streamlit run app.py`` on a free localhost port (nothing leaves the machine), then thirty websocket
clients speaking Streamlit's own protocol (what a browser sends: one ``rerun_script`` with the link's query string
and the page's URL path) connect at the same moment:

* **the same link** (what a class does: the teacher's link): the pages compute the lesson / the comparison once
  for every session (``explainer.ui.compute.cached``) and only render it thirty times;
* **thirty different links** (no sharing possible: each session its own texts), for scale.

Per page and mode: the time from connecting to the page's first content (Teach: the step's title; Dialects: the
side-by-side table) and to the end of the run, per session (median, max), and the server's CPU time in all and
per view, with — for scale, measured in the same run — the CPU time of sacreBLEU + rouge-score computing the bare
scores of the same texts, as a ratio. Each session must show its own link's content (Teach: its candidate's
tokens; Dialects: sacreBLEU's score of its texts in the first row); a session showing another's fails the run.

Options: ``--page teach|dialects|all``, ``--class N`` (default 30), ``--root DIR`` (the app to serve, e.g. an
older checkout, to compare before and after a change), ``--dialects bleu|rouge|claim|all`` (what the Dialects
links show: the BLEU table, the ROUGE table, or the BLEU table and a claim, so every session runs the reproduce
search; default all).
"""
from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import sys
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_first_view import Server, libraries_seconds, make_texts  # noqa: E402

TIMEOUT_S = 180.0
CLAIM = "BLEU = 0.35"


def link(page: str, candidate: str, refs: list[str], variant: str = "bleu") -> str:
    q = [("candidate", candidate)] + [("ref", r) for r in refs]
    if page == "teach":
        q.append(("step", "1"))      # the texts and their tokens: the session's own words are on screen
    elif variant == "rouge":
        q.append(("metric", "rouge"))
    elif variant == "claim":
        q.append(("claim", CLAIM))
    return urllib.parse.urlencode(q, quote_via=urllib.parse.quote)


def expected(page: str, candidate: str, refs: list[str], variant: str = "bleu") -> str:
    """What the session must show: Teach — the candidate's last word (in its tokens); Dialects — the first row's
    number as the table prints it: sacreBLEU's score of these texts, or rouge-score's ROUGE-1 F."""
    from explainer.ui.dialects.view import _num

    if page == "teach":
        return candidate.split()[-1]
    if variant == "rouge":
        from rouge_score import rouge_scorer

        return _num(rouge_scorer.RougeScorer(["rouge1"]).score_multi(refs, candidate)["rouge1"].fmeasure)
    from sacrebleu.metrics import BLEU

    return _num(BLEU().corpus_score([candidate], [[r] for r in refs]).score)


async def ws_view(port: int, page: str, qs: str, timeout: float = TIMEOUT_S) -> dict:
    """One first view of ``page`` through Streamlit's websocket protocol: connect, one rerun_script with the
    link, read the deltas until the run finished. Returns the time to the first content and to the end, and
    what the content showed."""
    import pyarrow as pa
    import websockets
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    t0 = time.perf_counter()
    out = {"content_s": None, "finished_s": None, "shown": "", "errors": []}
    back = BackMsg()
    back.rerun_script.query_string = qs
    back.rerun_script.page_script_hash = ""
    back.rerun_script.page_name = page
    back.rerun_script.context_info.url = f"http://127.0.0.1:{port}/{page}?{qs}"
    back.rerun_script.context_info.timezone = "UTC"
    async with websockets.connect(f"ws://127.0.0.1:{port}/_stcore/stream", subprotocols=["streamlit"],
                                  max_size=None, open_timeout=timeout, ping_interval=None) as ws:
        await ws.send(back.SerializeToString())

        async def read() -> None:
            while True:
                msg = ForwardMsg()
                msg.ParseFromString(await ws.recv())
                kind = msg.WhichOneof("type")
                if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                    el = msg.delta.new_element
                    which = el.WhichOneof("type")
                    if which == "exception":
                        out["errors"].append(el.exception.message)
                    elif out["content_s"] is None and page == "teach" and which == "html" \
                            and 'class="tc-title"' in el.html.body:
                        out["content_s"] = time.perf_counter() - t0
                    elif page == "teach" and which == "html" and "tc-" in el.html.body:
                        out["shown"] += el.html.body
                    elif out["content_s"] is None and page == "dialects" and which == "dataframe":
                        out["content_s"] = time.perf_counter() - t0
                        table = pa.ipc.open_stream(io.BytesIO(el.dataframe.arrow_data.data)).read_all().to_pandas()
                        out["shown"] = str(table[table.columns[1]].iloc[0])   # "score" or "rouge1 F"
                elif kind == "script_finished":
                    out["finished_s"] = time.perf_counter() - t0
                    return

        await asyncio.wait_for(read(), timeout)
    return out


async def ws_class(port: int, page: str, queries: list[str]) -> list[dict]:
    return await asyncio.gather(*(ws_view(port, page, q) for q in queries))


def fmt(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.2f} s, max {max(xs):.2f} s" if xs else "none"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--page", choices=("teach", "dialects", "all"), default="all")
    ap.add_argument("--class", dest="n", type=int, default=30, help="sessions at once (default 30)")
    ap.add_argument("--root", type=Path, default=ROOT, help="the app to serve (default: this checkout)")
    ap.add_argument("--dialects", choices=("bleu", "rouge", "claim", "all"), default="all",
                    help="what the Dialects links show (claim: the BLEU table and a reproduce search)")
    args = ap.parse_args()
    variants = ("bleu", "rouge", "claim") if args.dialects == "all" else (args.dialects,)
    pages = [("teach", "")] if args.page in ("teach", "all") else []
    pages += [("dialects", v) for v in variants] if args.page in ("dialects", "all") else []
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared; times are wall clock); "
          f"app: {args.root}")
    server = Server(args.root)
    failures: list[str] = []
    try:
        for page, variant in pages:
            warm = asyncio.run(ws_view(server.port, page, link(page, *make_texts(40, 4, seed=999), variant)))
            assert warm["finished_s"] is not None and not warm["errors"], warm
            same = make_texts(40, 4, seed=1)
            modes = (("the same link", [same] * args.n),
                     (f"{args.n} different links", [make_texts(40, 4, seed=100 + i) for i in range(args.n)]))
            lib = libraries_seconds(*same)
            for label, texts in modes:
                c0 = server.cpu()
                t0 = time.perf_counter()
                res = asyncio.run(ws_class(server.port, page, [link(page, c, r, variant) for c, r in texts]))
                wall = time.perf_counter() - t0
                cpu = server.cpu() - c0
                for k, ((c, r), x) in enumerate(zip(texts, res)):
                    want = expected(page, c, r, variant)
                    if x["errors"]:
                        failures.append(f"{page}, {label}, session {k + 1}: {x['errors'][0][:200]}")
                    elif want not in x["shown"]:
                        failures.append(f"{page}, {label}, session {k + 1}: does not show {want!r}")
                cs = [x["content_s"] for x in res if x["content_s"] is not None]
                fs = [x["finished_s"] for x in res if x["finished_s"] is not None]
                what = "step title" if page == "teach" else "side-by-side table"
                shows = {"bleu": " (BLEU table)", "rouge": " (ROUGE table)", "claim": " (BLEU table + claim search)",
                         "": ""}[variant]
                print(f"\n[{page}{shows}: {args.n} sessions at once, {label}] (4 references x 40 tokens)")
                print(f"  {what} received: {fmt(cs)}")
                print(f"  runs finished:      {fmt(fs)}; all {args.n} done in {wall:.2f} s")
                print(f"  server CPU: {cpu:.2f} s in all, {cpu / args.n:.3f} s per view "
                      f"({cpu / args.n / lib:.0f}x sacreBLEU + rouge-score's bare scores, {1000 * lib:.1f} ms)")
                if len(fs) < args.n:
                    failures.append(f"{page} {variant}, {label}: {args.n - len(fs)} sessions did not finish")
    finally:
        server.stop()
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    for f in failures[:20]:
        print("FAIL", f)
    print("PASS" if not failures else f"FAIL ({len(failures)} problems)")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
