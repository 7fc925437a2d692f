"""The diagnostics log: where failures that must not interrupt the user go.

A git hook and agent-facing retrieval never fail visibly; what went wrong is
appended here, one JSON object a line, and `comet memory status` points to it.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from comet_git.records.model import utc_now
from comet_git.store import FILE_MODE, ensure_dir

MAX_LOG_BYTES = 1_000_000


def log_failure(log: Path, where: str, error: BaseException, **context: object) -> None:
    """Append one failure, redacted like the journal (the context holds what the user typed,
    `--task` text with its tokens and passwords, and an error message may quote it); never
    raises (there is nowhere left to report to)."""
    import traceback  # 3 ms, and only a failure needs it: not imported by every `comet task`

    from comet_git.journal.redact import redact

    entry = {
        "at": utc_now(),
        "where": where,
        "error": f"{type(error).__name__}: {error}",
        "trace": traceback.format_exception(type(error), error, error.__traceback__)[-3:],
        **context,
    }
    with contextlib.suppress(Exception):
        entry = redact(json.loads(json.dumps(entry, ensure_ascii=False, default=str)))
        ensure_dir(log.parent)
        if log.exists() and log.stat().st_size > MAX_LOG_BYTES:
            os.replace(log, log.with_suffix(".log.1"))
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
        with os.fdopen(fd, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, ensure_ascii=False, default=str) + "\n")


def recent_failures(log: Path, limit: int = 20) -> list[dict[str, object]]:
    if not log.exists():
        return []
    entries = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines()[-limit:]:
        with contextlib.suppress(ValueError):
            entries.append(json.loads(line))
    return entries
