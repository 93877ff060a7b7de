"""A handout's "Open in the app" link (issue 31, item 8): never the loopback address the app was served on (a
student's browser would open their own machine); the public address when the server is told it."""
from __future__ import annotations

import pytest

from explainer.ui.teach import common

Q = {"example": "cat_mat", "step": 0}


@pytest.mark.parametrize("served", ["http://localhost:8501/teach", "http://127.0.0.1:8501/teach",
                                    "http://[::1]:8501/teach", "http://app.localhost/teach", ""])
def test_a_loopback_server_gives_a_relative_link(monkeypatch, served):
    monkeypatch.delenv(common.PUBLIC_URL_ENV, raising=False)
    monkeypatch.setattr(common, "_base_url", lambda: served)
    assert common.public_link(Q) == "teach?example=cat_mat&step=0"


def test_a_public_server_keeps_its_own_address(monkeypatch):
    monkeypatch.delenv(common.PUBLIC_URL_ENV, raising=False)
    monkeypatch.setattr(common, "_base_url", lambda: "https://metrics.example.org/teach")
    assert common.public_link(Q) == "https://metrics.example.org/teach?example=cat_mat&step=0"


def test_the_configured_public_address_wins(monkeypatch):
    monkeypatch.setenv(common.PUBLIC_URL_ENV, "https://course.example.edu/metrics/")
    monkeypatch.setattr(common, "_base_url", lambda: "http://localhost:8501/teach")
    assert common.public_link(Q) == "https://course.example.edu/metrics/teach?example=cat_mat&step=0"
