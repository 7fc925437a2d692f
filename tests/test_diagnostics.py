"""The diagnostics log: failures are kept, and redacted like the journal."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from comet_git.diagnostics import log_failure, recent_failures
from tests.clihelp import invoke, run_comet

GITHUB_TOKEN = "ghp_" + "Zq8LrT2vXk9WmN4pB7cY1dF6hJ3sA0eGuV5i"
PASSWORD = "Tr0ub4dor-x9Qw"
TASK = f"deploy with {GITHUB_TOKEN} and password={PASSWORD} to staging"


def entries(comet_home: Path) -> list[dict[str, Any]]:
    log = comet_home / "logs" / "diagnostics.log"
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_a_failed_retrieval_logs_the_task_redacted(repo: Path, comet_home: Path) -> None:
    assert (
        invoke("memory", "remember", repo, "--text", "Deploys go through the release script.").exit_code == 0
    )
    index = comet_home / "index" / "comet.sqlite3"
    for suffix in ("-wal", "-shm"):
        Path(str(index) + suffix).unlink(missing_ok=True)
    index.write_bytes(os.urandom(64) + b"this is not a database" * 500)
    result = run_comet("task", "--task", TASK, "--json", cwd=repo)
    assert result.exit_code == 0 and result.json()["retrieval"] == "failed", result.stderr
    raw = (comet_home / "logs" / "diagnostics.log").read_text()
    assert GITHUB_TOKEN not in raw and PASSWORD not in raw
    [entry] = [e for e in entries(comet_home) if e["where"] == "task retrieval"]
    assert entry["task"] == "deploy with [REDACTED:github-token] and password=[REDACTED:secret] to staging"
    assert entry["error"]  # what went wrong is still there


def test_a_secret_in_an_error_message_or_its_trace_is_redacted(comet_home: Path) -> None:
    log = comet_home / "logs" / "diagnostics.log"
    try:
        raise ValueError(f"cannot reach https://deploy:{PASSWORD}@example.com with {GITHUB_TOKEN}")
    except ValueError as error:
        log_failure(log, "git-hook:post-commit", error, cwd=Path("/work/app"), note=f"token {GITHUB_TOKEN}")
    raw = log.read_text()
    assert GITHUB_TOKEN not in raw and PASSWORD not in raw
    [entry] = recent_failures(log)
    assert entry["where"] == "git-hook:post-commit" and entry["cwd"] == "/work/app"
    assert "[REDACTED:url-credentials]" in str(entry["error"]) and "[REDACTED:github-token]" in str(
        entry["trace"]
    )
    assert oct(log.stat().st_mode & 0o777) == "0o600"
