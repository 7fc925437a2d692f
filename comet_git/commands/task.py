"""comet task, comet memory retrieve, comet memory explain."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from comet_git.commands import Output
from comet_git.diagnostics import log_failure
from comet_git.director import service
from comet_git.provider import DEFAULT_BUDGET, DEFAULT_MAX_ENTRIES
from comet_git.provider.candidates import TaskRequest
from comet_git.store import Home
from comet_git.workspace import Workspace, open_workspace


def _request(ws: Workspace, options: dict[str, Any]) -> TaskRequest:
    return service.make_request(
        ws,
        options["task"] or "",
        path=options.get("request_path"),
        operation=options.get("operation"),
        phase=options.get("phase"),
        budget=options.get("budget", DEFAULT_BUDGET),
        max_entries=options.get("max_entries", DEFAULT_MAX_ENTRIES),
        session=options.get("session"),
    )


def context(path: Path, options: dict[str, Any], *, record_applications: bool) -> Output:
    """Retrieval never fails the agent: even a bad PATH or --path gives an empty, valid answer."""
    try:
        ws = open_workspace(path)
        request = _request(ws, options)
    except Exception as error:  # the retrieval boundary (README: Failure isolation): logged, never raised
        with contextlib.suppress(Exception):
            log_failure(Home.from_environment().diagnostics_log, "task retrieval", error, path=str(path))
        request = TaskRequest(
            options["task"] or "",
            options.get("request_path"),
            operation=options.get("operation"),
            phase=options.get("phase"),
            budget=options.get("budget", DEFAULT_BUDGET),
            max_entries=options.get("max_entries", DEFAULT_MAX_ENTRIES),
            session=options.get("session"),
        )
        data = service.empty_answer(None, request, "failed", [f"{type(error).__name__}: {error}"])
        return Output(data, service.render_text(data))
    data = service.task_context(ws, request, record_applications=record_applications)
    return Output(data, lambda: service.render_text(data))


def expand(path: Path, record_id: str) -> Output:
    data = service.expand(open_workspace(path), record_id)
    record = data["record"]
    text = f"{record['id']}  {record['title']}\n{record['text']}\n"
    if record["evidence"]:
        text += "evidence:\n" + "".join(f"  - {e['kind']}: {e['summary']}\n" for e in record["evidence"])
    return Output(data, text)


def outcome(path: Path, application: str, result: str) -> Output:
    data = service.record_outcome(open_workspace(path), application, result)
    replaced = f"; it replaces the earlier report, {data['replaced']}" if data["replaced"] else ""
    return Output(data, f"recorded {result} for {data['id']} (application {application}{replaced})\n")


def complete(
    path: Path,
    summary: str,
    result: str,
    lesson: str | None,
    session: str | None,
    event_type: str = "task.completed",
    *,
    task_text: str | None = None,
) -> Output:
    data = service.complete(open_workspace(path), summary, result, lesson, session, event_type, task_text)
    return Output(data, f"{event_type} journaled as {data['eventId']}\n")


def explain(path: Path, record_id: str, options: dict[str, Any]) -> Output:
    ws = open_workspace(path)
    data = service.explain(ws, record_id, _request(ws, options))
    lines = [f"{record_id}: {data['verdict']}"]
    lines += [f"  {c['result']:>4}  {c['check']}: {c['detail']}" for c in data["checks"]]
    return Output(data, "\n".join(lines) + "\n")
