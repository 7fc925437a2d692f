"""Cheap signs that a store changed, for the agent's hot path (`comet task`)."""

from __future__ import annotations

import time

from comet_git.index import RACY_WINDOW_NS
from comet_git.store import ScopeStore


def folder_marks(store: ScopeStore) -> str | None:
    """The stat of the store's folders and profile.md: changes when a file is added, removed
    or renamed (as most editors save), not when one is rewritten in place.  None while any of
    them changed too recently for the timestamps to be trusted."""
    marks = []
    now = time.time_ns()
    for path in (store.records_dir, store.tombstones_dir, store.profile_path):
        try:
            stat = path.stat()
        except FileNotFoundError:
            marks.append("-")
            continue
        if now - stat.st_mtime_ns < RACY_WINDOW_NS:
            return None
        marks.append(f"{stat.st_mtime_ns}.{stat.st_size}.{stat.st_ino}")
    return ":".join(marks)


def marks_key(store: ScopeStore) -> str:
    return f"marks:{store.name}"


def scanned_key(store: ScopeStore) -> str:
    return f"scanned:{store.name}"
