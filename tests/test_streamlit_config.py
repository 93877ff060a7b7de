"""The committed Streamlit settings that protect the server (read from .streamlit/config.toml)."""
import tomllib
from pathlib import Path

from explainer.ui.corpus_page import PAGE_MAX_BYTES

CONFIG = tomllib.loads((Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml").read_text("utf-8"))


def test_no_upload_larger_than_the_corpus_page_limit_reaches_the_server():
    # Streamlit's default is 200 MB per file, held in memory before the page's own check runs.
    max_mb = CONFIG["server"]["maxUploadSize"]
    assert max_mb * 1_000_000 <= PAGE_MAX_BYTES


def test_visitors_never_see_a_traceback():
    assert CONFIG["client"]["showErrorDetails"] == "none"
