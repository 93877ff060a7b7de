"""The statistics of a BLEU result as the tool reports them (``python -m explainer bleu`` prints exactly this; the
dialect comparison's rows carry it): where the real library fails, it returns no numbers, so every statistic is
null and a note says why."""
from __future__ import annotations

__all__ = ["STATISTICS", "stats_dict"]

#: the statistics that are null where the real library fails
STATISTICS = ("score", "bleu", "counts", "totals", "precisions", "bp", "sys_len", "ref_len", "ratio")


def stats_dict(stats) -> dict:
    """A ``BleuStats`` (segment or corpus; ``trace.stats_summary()``) as a JSON-ready dict, without the
    per-segment vectors; null statistics and a note where the real library fails."""
    d = stats.to_dict()
    d.pop("segment_stats", None)
    err = d.get("library_error")
    if err:
        for k in STATISTICS:
            if k in d:
                d[k] = None
        d["notes"] = list(d.get("notes") or []) + [
            f"the real library returns no statistics for this input ({err['type']}: {err['message']}), so they "
            "are null; --full shows the steps up to the failure"]
    return d
