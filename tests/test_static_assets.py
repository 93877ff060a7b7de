"""Streamlit's frontend files answered from memory (explainer/ui/static_assets.py, installed by serve.py): the same
bytes and headers as Streamlit's own static file handler, gzip when the browser takes it, and every other request
passed on to Streamlit untouched."""
from __future__ import annotations

import asyncio
import gzip
import os
from pathlib import Path

import pytest
from streamlit import file_util
from streamlit.web.server.starlette.starlette_static_routes import create_streamlit_static_handler

from explainer.ui.static_assets import StaticAssets, frontend_files

STATIC = file_util.get_static_dir()
FILES = frontend_files(STATIC)
ROOT = Path(__file__).resolve().parents[1]


def _largest(ext: str, below: int = 10**9) -> str:
    return max((p for p in FILES if p.endswith(ext) and os.path.getsize(FILES[p]) < below),
               key=lambda p: os.path.getsize(FILES[p]))


def run(coro):
    """``asyncio.run`` in a thread of its own: Playwright's sync API, used by the browser tests in the same
    session, leaves this thread marked as running an event loop."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def call(app, path: str, method: str = "GET", headers: tuple = ()) -> tuple[int, dict, bytes]:
    """One HTTP request through an ASGI app: (status, headers, body)."""
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(k.encode(), v.encode()) for k, v in headers], "root_path": "", "scheme": "http",
             "server": ("127.0.0.1", 8501), "client": ("127.0.0.1", 5000), "http_version": "1.1",
             "asgi": {"version": "3.0"}}
    out = {"status": None, "headers": {}, "body": b""}
    asked = []

    async def receive():   # the request, then nothing until the response is sent (as a client that waits)
        asked.append(1)
        if len(asked) > 1:
            await asyncio.Event().wait()
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(msg):
        if msg["type"] == "http.response.start":
            out["status"] = msg["status"]
            out["headers"] = {k.decode().lower(): v.decode() for k, v in msg["headers"]}
        elif msg["type"] == "http.response.body":
            out["body"] += msg.get("body", b"")

    run(app(scope, receive, send))
    return out["status"], out["headers"], out["body"]


class Recorder:
    """The app behind the middleware (Streamlit): records what reaches it."""

    def __init__(self):
        self.paths = []

    async def __call__(self, scope, receive, send):
        self.paths.append((scope["method"], scope["path"]))
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b"streamlit"})


@pytest.fixture(scope="module")
def streamlit_files():
    return create_streamlit_static_handler(directory=STATIC, base_url=None)


@pytest.mark.parametrize("ext", [".js", ".css", ".woff2"])
def test_same_bytes_and_headers_as_streamlit(streamlit_files, ext):
    path = _largest(ext)
    want_status, want, want_body = call(streamlit_files, path)
    inner = Recorder()
    status, got, body = call(StaticAssets(inner, STATIC, ""), path)
    assert inner.paths == []
    assert (status, body) == (want_status, want_body) == (200, Path(FILES[path]).read_bytes())
    for name in ("content-type", "cache-control", "etag", "last-modified", "content-length", "accept-ranges"):
        assert got[name] == want[name], name
    assert "content-encoding" not in got


def test_gzip_when_the_browser_takes_it():
    path = _largest(".js", below=500_000)
    raw = Path(FILES[path]).read_bytes()
    app = StaticAssets(Recorder(), STATIC, "")
    status, headers, body = call(app, path, headers=(("accept-encoding", "gzip, deflate, br"),))
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == raw and len(body) < len(raw) / 2
    assert int(headers["content-length"]) == len(body)
    # a font is already compressed: sent as it is
    font = _largest(".woff2")
    _, headers, body = call(app, font, headers=(("accept-encoding", "gzip"),))
    assert "content-encoding" not in headers and body == Path(FILES[font]).read_bytes()
    # gzip;q=0 and other codings only: not gzip
    _, headers, body = call(app, path, headers=(("accept-encoding", "br, deflate"),))
    assert "content-encoding" not in headers and body == raw


def test_head_sends_headers_only():
    path = _largest(".css")
    _, headers, body = call(StaticAssets(Recorder(), STATIC, ""), path, method="HEAD")
    assert body == b"" and int(headers["content-length"]) == os.path.getsize(FILES[path])


@pytest.mark.parametrize("method,path,headers", [
    ("GET", "/", ()),                                           # the page: Streamlit's index.html
    ("GET", "/static/js/not-a-bundle.js", ()),                  # no such file: Streamlit's answer
    ("GET", "/static/../index.html", ()),                       # never a path outside the listed files
    ("GET", "/static/%2e%2e/index.html", ()),
    ("POST", "JS", ()),                                         # another method
    ("GET", "JS", (("range", "bytes=0-10"),)),                  # a range: Streamlit's 206
    ("GET", "JS", (("if-none-match", '"x"'),)),                 # a conditional request: Streamlit's 304 or 200
    ("GET", "/_stcore/health", ()),
])
def test_everything_else_goes_to_streamlit(method, path, headers):
    path = _largest(".js") if path == "JS" else path
    inner = Recorder()
    status, _, body = call(StaticAssets(inner, STATIC, ""), path, method=method, headers=headers)
    assert (status, body) == (299, b"streamlit") and inner.paths == [(method, path)]


def test_websocket_goes_to_streamlit():
    inner = Recorder()
    app = StaticAssets(inner, STATIC, "")
    seen = []

    async def go():
        async def noop(*_):
            return {"type": "websocket.disconnect"}

        async def record(scope, receive, send):
            seen.append(scope["type"])

        app.app = record
        await app({"type": "websocket", "path": "/_stcore/stream", "headers": []}, noop, noop)

    run(go())
    assert seen == ["websocket"]


def test_base_url_path():
    files = frontend_files(STATIC, "/class/")
    assert files and all(p.startswith("/class/static/") for p in files)
    path = next(iter(files))
    inner = Recorder()
    status, _, body = call(StaticAssets(inner, STATIC, "class"), path)
    assert status == 200 and body == Path(files[path]).read_bytes() and inner.paths == []
    call(StaticAssets(inner, STATIC, "class"), path.removeprefix("/class"))
    assert inner.paths == [("GET", path.removeprefix("/class"))]


def test_serve_py_installs_it():
    """`make run` serves serve.py: st.App over app.py with this middleware (what the browser tests start too)."""
    src = (ROOT / "serve.py").read_text()
    assert 'st.App("app.py", middleware=[Middleware(StaticAssets)])' in src
    assert "streamlit run serve.py" in (ROOT / "Makefile").read_text()
    assert '"serve.py"' in (ROOT / "tests" / "browser" / "conftest.py").read_text()
