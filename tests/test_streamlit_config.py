"""The committed Streamlit settings that protect the server (read from .streamlit/config.toml)."""
import tomllib
from pathlib import Path

from explainer.ui.corpus.common import PAGE_MAX_BYTES

CONFIG = tomllib.loads((Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml").read_text("utf-8"))


def test_no_upload_larger_than_the_corpus_page_limit_reaches_the_server():
    # Streamlit's default is 200 MB per file, held in memory before the page's own check runs.
    max_mb = CONFIG["server"]["maxUploadSize"]
    assert max_mb * 1_000_000 <= PAGE_MAX_BYTES


def test_visitors_never_see_a_traceback():
    assert CONFIG["client"]["showErrorDetails"] == "none"


def test_the_server_listens_locally_and_sends_nothing_by_default():
    """Issue 17 item 8: `streamlit run app.py --server.headless true` (no --server.address) asked an outside
    service for the machine's external IP; the committed address makes every way of starting it quiet."""
    assert CONFIG["server"]["address"] == "localhost"
    assert CONFIG["browser"]["gatherUsageStats"] is False


def test_a_headless_start_without_flags_looks_nothing_up(tmp_path):
    import os
    import socket
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mark = tmp_path / "external-ip-lookup"
    code = ("import sys, streamlit.net_util as n\n"
            f"def f():\n    open({str(mark)!r}, 'w').write('asked')\n    return None\n"
            "n.get_external_ip = f\n"
            "from streamlit.web.cli import main\n"
            f"sys.argv = ['streamlit', 'run', 'app.py', '--server.headless', 'true', '--server.port', '{port}']\n"
            "main()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    log = tmp_path / "log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=root, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.time() + 60
            while time.time() < deadline and "URL" not in log.read_text(errors="replace") and proc.poll() is None:
                time.sleep(0.2)
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    text = log.read_text(errors="replace")
    assert "URL" in text, text[-2000:]
    assert not mark.exists() and "External URL" not in text and "Network URL" not in text, text[-2000:]


def test_the_server_runs_without_a_file_watcher():
    """Issue 34 item 10: with the default watcher, one idle tab cost 2.6 s CPU per 30 s while files under the
    app changed. Both ways of starting it serve without one: the committed config and `make run`'s command line."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    assert CONFIG["server"]["fileWatcherType"] == "none"
    code = ("from streamlit import config; config.get_config_options(force_reparse=True); "
            "print(config.get_option('server.fileWatcherType'))")
    r = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "none", r.stderr[-500:]     # what Streamlit itself reads from the config
    make = subprocess.run(["make", "-n", "run", "VENV=.venv"], cwd=root, capture_output=True, text=True, timeout=60)
    commands = make.stdout.replace("\\\n", " ").splitlines()         # a recipe's continued lines, joined
    run_line = next(ln for ln in commands if "streamlit run serve.py" in ln)
    assert "--server.fileWatcherType none" in run_line, make.stdout
