"""Uploads on the Corpus page (issue 34, items 5 and 6): the total of all files is enforced as soon as the
uploaders hold more (the files dropped from the server's memory, the uploaders emptied), the server refuses a file
over a session's limit before storing it, a closed session's files are released; and the scoring work of a test
set is bounded, its time said before the work, with a Stop."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from streamlit.runtime.caching.ttl_cache import TTLCache
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager
from streamlit.runtime.uploaded_file_manager import UploadedFileRec
from streamlit.testing.v1 import AppTest

from explainer.corpus.testset import build_testset
from explainer.ui import uploads
from explainer.ui.corpus.common import PAGE_MAX_BYTES
from explainer.ui.corpus.estimate import PAGE_MAX_WORK_CHARS, scoring_seconds, scoring_work
from tests.conftest import ROOT
from tests.corpus_data import make_testset

PAGE = str(ROOT / "explainer" / "ui" / "pages" / "corpus.py")


def new_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.run()
    at.radio(key="cp_source").set_value("Upload files").run()
    return at


def errors(at) -> str:
    return " ".join(e.value.replace("\\", "") for e in at.error)


# ----------------------------------------------------------------------------------- the total, at once
def test_files_over_the_total_are_dropped_as_soon_as_they_are_chosen():
    """The total was checked only at "Use these files": eight files of 39 MB stayed in the server's memory."""
    at = new_page()
    big = b"a b c d\n" * (PAGE_MAX_BYTES // 8 // 3 + 1)          # three of them: just over the limit
    at.file_uploader(key="cp_up_sys").set_value([(f"sys{k}.txt", big, "text/plain") for k in range(2)])
    at.file_uploader(key="cp_up_ref").set_value([("ref.txt", big, "text/plain")])
    at.run()
    assert not at.exception
    assert f"over the page's limit of {PAGE_MAX_BYTES / 1e6:.0f} MB for all files: they were dropped" in errors(at)
    keys = [u.key for u in at.get("file_uploader")]
    assert keys == ["cp_up_sys_1", "cp_up_ref_1", "cp_up_src_1"]          # new, empty uploaders
    assert all(not at.session_state[k] for k in keys if k in at.session_state)
    assert "cp_ts" not in at.session_state


def test_release_drops_the_files_from_the_upload_manager(monkeypatch):
    mgr = MemoryUploadedFileManager("/upload")
    for k in range(3):
        mgr.add_file("me", UploadedFileRec(f"f{k}", f"f{k}.txt", "text/plain", b"x" * 10))
    mgr.add_file("other", UploadedFileRec("g", "g.txt", "text/plain", b"y" * 10))
    ctx = SimpleNamespace(session_id="me", uploaded_file_mgr=mgr)
    monkeypatch.setattr("streamlit.runtime.scriptrunner.get_script_run_ctx", lambda: ctx)
    uploads.release([SimpleNamespace(file_id="f0"), SimpleNamespace(file_id="f2")])
    assert uploads.held_bytes(mgr, "me") == 10 and uploads.held_bytes(mgr, "other") == 10


def test_the_server_refuses_a_file_over_the_sessions_limit_before_storing_it():
    from starlette.exceptions import HTTPException

    mgr = MemoryUploadedFileManager("/upload")
    uploads._guard(mgr, 100)
    mgr.add_file("me", UploadedFileRec("a", "a.txt", "text/plain", b"x" * 60))
    with pytest.raises(HTTPException) as e:
        mgr.add_file("me", UploadedFileRec("b", "b.txt", "text/plain", b"x" * 41))
    assert e.value.status_code == 413
    assert uploads.held_bytes(mgr, "me") == 60                              # not stored
    mgr.add_file("you", UploadedFileRec("c", "c.txt", "text/plain", b"x" * 100))   # another session's own limit
    note = uploads.refused_note("me")
    assert "A file of 0.0 MB was refused" in note and uploads.refused_note("me") is None


def test_a_closed_sessions_files_are_released():
    """Streamlit keeps a disconnected session two minutes for a reconnect, then forgets it lazily without shutting
    it down: its files stayed in the upload manager (562 MB nine minutes after the tabs closed)."""
    files = MemoryUploadedFileManager("/upload")
    clock = [0.0]
    cache = TTLCache(maxsize=128, ttl=120, timer=lambda: clock[0])
    active: dict[str, object] = {}

    class Session:
        def __init__(self, sid):
            self.id = sid

        def shutdown(self):                  # what AppSession.shutdown does with the files
            files.remove_session_files(self.id)

    def info(sid):
        return active.get(sid) or cache.get(sid)

    mgr = SimpleNamespace(_session_storage=SimpleNamespace(_cache=cache), get_session_info=info)
    rt = SimpleNamespace(_session_mgr=mgr, uploaded_file_mgr=files)
    for sid in ("open", "closed", "reconnecting", "unknown"):
        files.add_file(sid, UploadedFileRec(sid, sid, "text/plain", b"z" * 1000))
    active["open"] = SimpleNamespace(session=Session("open"))
    cache["closed"] = SimpleNamespace(session=Session("closed"))
    clock[0] = 100.0
    cache["reconnecting"] = SimpleNamespace(session=Session("reconnecting"))
    clock[0] = 150.0                        # "closed" went 150 s ago: over the two minutes
    assert uploads.sweep(rt) == 2           # "closed" shut down, "unknown" (no session) released
    assert sorted(files.file_storage) == ["open", "reconnecting"]


# ----------------------------------------------------------------------------- the scoring work
def _upload(at, systems, refs):
    at.file_uploader(key="cp_up_sys").set_value([(n, ("\n".join(ls) + "\n").encode(), "text/plain")
                                                 for n, ls in systems])
    at.file_uploader(key="cp_up_ref").set_value([(f"ref{k}.txt", ("\n".join(r) + "\n").encode(), "text/plain")
                                                 for k, r in enumerate(refs)])
    at.run()
    at.button(key="cp_load_up").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_test_set_over_the_scoring_budget_is_refused_before_any_scoring():
    """Twenty short systems against four long references: each system is scored against the references' ~19
    million characters, 20 × that over the budget, in 20 MB of files (within the page's other limits)."""
    line = "word " * 190                                                 # 950 characters
    n = PAGE_MAX_WORK_CHARS // (20 * 4 * len(line)) + 10                 # just over the budget, well under 100 MB
    at = _upload(new_page(), [(f"sys{k}.txt", ["a"] * n) for k in range(20)], [[line] * n] * 4)
    said = errors(at)
    assert "million characters of scoring work" in said
    assert f"over the page's limit of {PAGE_MAX_WORK_CHARS // 10**6} million" in said
    assert "cp_ts" not in at.session_state


def test_the_time_is_said_before_the_work_and_what_it_took_after():
    refs, systems = make_testset(150, 1, 2, seed=8)
    ts = build_testset(systems, [("ref", refs[0])])
    at = _upload(new_page(), [(f"{n}.txt", ls) for n, ls in systems], refs)
    said = " ".join(c.value for c in at.caption)
    assert f"Scoring 2 system(s) × 150 segments ({scoring_work(ts) / 1e6:.1f} million characters of work)" in said
    assert "Scored in" in said
    assert scoring_seconds(ts, "bleu") > 0


def test_each_familys_estimate_is_its_own():
    """Every family has its weights: the semantic family's model passes (42 ms per WMT22 en-de segment, one BLAS
    thread, busy machine) and TER's shift search (2.6 ms) are not BLEU's (0.25 ms); a family left at the default
    weights would be told a few seconds for minutes of work."""
    from explainer.ui.families import ui_families

    line = "the cat sat on the mat near the door " * 5                  # 185 characters
    ts = build_testset([("sys", [line] * 100)], [("ref", [line] * 100)])
    seconds = {f.name: scoring_seconds(ts, f.name) for f in ui_families()}
    assert all(s > 0 for s in seconds.values())
    assert seconds["semantic"] >= 100 * 0.04 and seconds["ter"] >= 100 * 0.0026
    assert seconds["bleu"] < seconds["ter"] < seconds["semantic"]


def test_a_stopped_scoring_says_so_and_scores_again_on_request():
    """The Stop button's click ends the run (at the progress bar's next move); the page then computes nothing
    until asked again."""
    from explainer.ui.compute import corpus_reports
    from explainer.ui.corpus import reports

    refs, systems = make_testset(150, 1, 2, seed=9)
    at = _upload(new_page(), [(f"{n}.txt", ls) for n, ls in systems], refs)
    key = next(k for k in corpus_reports._entries if k[0] == "bleu" and at.session_state["cp_ts_key"] in k)
    corpus_reports.clear()
    at.session_state[reports.STOPPED] = key
    at.run()
    assert any("Scoring stopped." in i.value for i in at.info)
    assert not any(k[0] == "bleu" for k in corpus_reports._entries)        # nothing computed
    at.button(key="cp_score_again_bleu").click().run()
    assert not at.exception and any(k == key for k in corpus_reports._entries)
    assert not any("Scoring stopped." in i.value for i in at.info)
