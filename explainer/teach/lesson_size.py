"""The limit on a lesson's texts: a lesson is for a projector and a handout, so its texts together are limited
(checked before any work); the Explain page takes far longer texts."""
from __future__ import annotations

from typing import Sequence

__all__ = ["MAX_LESSON_CHARS", "check_size"]

MAX_LESSON_CHARS = 10_000


def check_size(candidate: str, references: Sequence[str]) -> None:
    """ValueError when the texts together are over :data:`MAX_LESSON_CHARS` (before any work)."""
    total = len(candidate) + sum(len(x) for x in references)
    if total > MAX_LESSON_CHARS:
        raise ValueError(f"the texts have {total:,} characters together; a lesson takes at most "
                         f"{MAX_LESSON_CHARS:,} (use the Explain page for longer texts)")
