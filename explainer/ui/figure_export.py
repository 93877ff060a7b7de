"""Figures as image files: PNG (at 2×) and SVG, drawn by Plotly's own renderer (plotly.js, the one the browser
uses) in a headless Chromium on the server, through kaleido 1.x.

One Chromium serves every export (started at the first one, kept for the next: the first export of a server
takes a few seconds, the others under a second); exports are made one at a time. Nothing is fetched from the
network: plotly.js is the copy that comes with plotly.py and MathJax is off. The browser is the one named by
``EXPLAINER_CHROMIUM`` or ``BROWSER_PATH``, else ``chromium`` / ``google-chrome`` on the PATH; without one,
:func:`unavailable` says so and a page offers the chart's own camera button (the browser draws the image) instead.
"""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

__all__ = ["to_png", "to_svg", "unavailable", "browser_path", "ExportError", "EXPORT_TIMEOUT", "PNG_SCALE"]

EXPORT_TIMEOUT = 60.0    # seconds one image may take (a loaded machine)
PNG_SCALE = 2            # a PNG has twice the figure's pixels (sharp on a slide or a retina screen)
_LOCK = threading.Lock()
_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


class ExportError(RuntimeError):
    """The image could not be drawn (no browser, or it failed): the message names the cause, never the figure."""


def browser_path() -> str | None:
    for env in ("EXPLAINER_CHROMIUM", "BROWSER_PATH"):
        p = os.environ.get(env)
        if p and Path(p).is_file():
            return p
    for name in _BROWSERS:
        p = shutil.which(name)
        if p:
            return p
    return None


def unavailable() -> str | None:
    """Why images cannot be exported here (None: they can)."""
    try:
        import kaleido  # noqa: F401
    except ImportError:
        return "the kaleido package is not installed"
    if browser_path() is None:
        return "no Chromium or Chrome was found on the server (install chromium, or set EXPLAINER_CHROMIUM)"
    return None


def _render(fig, fmt: str, width: int, height: int, scale: float) -> bytes:
    import kaleido
    from kaleido import _sync_server

    opts = {"format": fmt, "width": int(width), "height": int(height), "scale": scale}
    for attempt in (1, 2):
        if not _sync_server.GlobalKaleidoServer().is_running():
            kaleido.start_sync_server(path=browser_path(), mathjax=False, timeout=EXPORT_TIMEOUT,
                                      silence_warnings=True)
        try:
            return kaleido.calc_fig_sync(fig, opts=opts)
        except Exception as e:  # noqa: BLE001 - a crashed browser: start a new one once
            kaleido.stop_sync_server(silence_warnings=True)
            if attempt == 2:
                raise ExportError(f"the figure could not be drawn as {fmt.upper()} ({type(e).__name__})") from None
    raise AssertionError("unreachable")


def _export(fig, fmt: str, width: int, height: int, scale: float) -> bytes:
    why = unavailable()
    if why:
        raise ExportError(why)
    with _LOCK:
        return _render(fig, fmt, width, height, scale)


def to_png(fig, width: int = 1280, height: int = 720, scale: float = PNG_SCALE) -> bytes:
    """The figure as a PNG of ``width`` × ``height`` CSS pixels at ``scale`` (2: 2560 × 1440 pixels)."""
    return _export(fig, "png", width, height, scale)


def to_svg(fig, width: int = 1280, height: int = 720) -> bytes:
    """The figure as an SVG of ``width`` × ``height``."""
    return _export(fig, "svg", width, height, 1)
