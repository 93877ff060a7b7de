"""Streamlit's frontend files (``/static/...``: its JavaScript bundles, styles and fonts) answered from memory,
compressed once, in front of Streamlit's own file serving. `serve.py` installs it (ASGI middleware of st.App).

A browser's first visit downloads about 150 of these files (11.5 MB). Streamlit serves each from disk through
Starlette's middleware stack, opening, reading (64 KB at a time) and closing the file in worker threads: about
2.8 ms of server CPU per file, 0.43 s per fresh browser — two thirds of what a student's first view of the
Explain page cost the server (issue 34). Here a file is read once per process, gzip-compressed once when it
compresses (JavaScript, CSS, JSON, SVG; not fonts or images), and every later request is two ASGI messages: about
0.4 ms. A class of thirty first visits then costs the server its page runs, not its file copies.

Only plain ``GET`` / ``HEAD`` requests for an existing file of the frontend's ``static/`` folder are answered
here, with the headers Streamlit sends (its content type, ``Cache-Control: public, immutable``, ETag,
Last-Modified); a range or conditional request, any other path or method goes to Streamlit as before. The paths
are the folder's own file names, listed once at start (nothing a request names is opened), so the memory held is
bounded by what the installed Streamlit ships (26 MB, 360 files, of which a browser fetches about 150).
"""
from __future__ import annotations

import asyncio
import email.utils
import gzip
import hashlib
import mimetypes
import os
from dataclasses import dataclass

IMMUTABLE = b"public, immutable, max-age=31536000"   # what Streamlit sends for its hashed bundles
COMPRESSIBLE = (".js", ".mjs", ".css", ".json", ".svg", ".map", ".txt", ".html")
MIN_COMPRESS_BYTES = 1024
GZIP_LEVEL = 6
_PASS_HEADERS = (b"range", b"if-none-match", b"if-modified-since", b"if-range")


@dataclass(frozen=True)
class Asset:
    headers: list[tuple[bytes, bytes]]     # without content-length / content-encoding
    body: bytes
    gzipped: bytes | None                  # None: sent as it is


def frontend_files(static_dir: str, base_url: str = "") -> dict[str, str]:
    """URL path -> file of every regular file under the frontend's ``static/`` folder (its hashed bundles)."""
    root = os.path.join(static_dir, "static")
    prefix = "/" + base_url.strip("/") + "/static/" if base_url.strip("/") else "/static/"
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                out[prefix + os.path.relpath(path, root).replace(os.sep, "/")] = path
    return out


def load_asset(path: str) -> Asset:
    """The file's bytes, its gzip form when it compresses, and Streamlit's headers for it."""
    with open(path, "rb") as f:
        body = f.read()
    st = os.stat(path)
    ctype = mimetypes.guess_type(path)[0] or "text/plain"
    if ctype.startswith("text/") and "charset=" not in ctype:
        ctype += "; charset=utf-8"
    etag = hashlib.md5(f"{st.st_mtime}-{st.st_size}".encode(), usedforsecurity=False).hexdigest()
    headers = [(b"content-type", ctype.encode("latin-1")), (b"cache-control", IMMUTABLE),
               (b"last-modified", email.utils.formatdate(st.st_mtime, usegmt=True).encode()),
               (b"etag", f'"{etag}"'.encode()), (b"accept-ranges", b"bytes"), (b"vary", b"Accept-Encoding")]
    gz = None
    if path.endswith(COMPRESSIBLE) and len(body) >= MIN_COMPRESS_BYTES:
        gz = gzip.compress(body, GZIP_LEVEL, mtime=0)
        gz = gz if len(gz) < len(body) else None
    return Asset(headers, body, gz)


def accepts_gzip(headers: list[tuple[bytes, bytes]]) -> bool:
    for name, value in headers:
        if name == b"accept-encoding":
            return any(part.split(b";")[0].strip() == b"gzip" for part in value.lower().split(b","))
    return False


class StaticAssets:
    """ASGI middleware: the frontend's files from memory (see the module's docstring)."""

    def __init__(self, app, static_dir: str | None = None, base_url: str | None = None) -> None:
        self.app = app
        if static_dir is None:
            from streamlit import file_util

            static_dir = file_util.get_static_dir()
        if base_url is None:
            from streamlit import config

            base_url = config.get_option("server.baseUrlPath") or ""
        self.files = frontend_files(static_dir, base_url)
        self._loading: dict[str, asyncio.Future] = {}

    async def __call__(self, scope, receive, send) -> None:
        if not self._mine(scope):
            await self.app(scope, receive, send)
            return
        asset = await self._asset(scope["path"])
        headers = list(asset.headers)
        body = asset.body
        if asset.gzipped is not None and accepts_gzip(scope["headers"]):
            body = asset.gzipped
            headers.append((b"content-encoding", b"gzip"))
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})

    def _mine(self, scope) -> bool:
        return (scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and scope["path"] in self.files
                and not any(name in _PASS_HEADERS for name, _ in scope["headers"]))

    async def _asset(self, path: str) -> Asset:
        """Loaded once per process, off the event loop (compressing the 4.7 MB chart bundle takes ~0.15 s);
        requests for a file still loading wait for that one load."""
        fut = self._loading.get(path)
        if fut is None:
            loop = asyncio.get_running_loop()
            fut = self._loading[path] = loop.run_in_executor(None, load_asset, self.files[path])
        try:
            return await asyncio.shield(fut)
        except Exception:
            self._loading.pop(path, None)   # a failed read is retried by the next request
            raise
