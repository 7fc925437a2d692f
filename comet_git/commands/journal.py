"""comet journal list | import-history | replay | flush, and comet memory signal."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from comet_git.commands import Output
from comet_git.errors import CometError, NotARepositoryError
from comet_git.journal.events import EVENT_TYPES, event_summary
from comet_git.journal.log import Journal, JournalProblem
from comet_git.learning.capture import capture_signal
from comet_git.workspace import Workspace

JOURNAL_SCHEMA = "comet.journal/v1"
IMPORT_SCHEMA = "comet.import-history/v1"
STALE_TICKET_SECONDS = 120


def _journals(ws: Workspace) -> list[tuple[str, Journal]]:
    provider = ws.provider()
    return [(store.name, Journal(store)) for store in provider.visible_stores()]


def list_events(ws: Workspace, event_type: str | None, limit: int | None) -> Output:
    if event_type is not None and event_type not in EVENT_TYPES:
        raise CometError(f"unknown event type {event_type!r}", hint="types: " + ", ".join(EVENT_TYPES))
    events: list[dict[str, Any]] = []
    problems: list[JournalProblem] = []
    for _, journal in _journals(ws):
        statuses = journal.statuses(problems)
        for event in journal.events(problems):
            if event_type and event.type != event_type:
                continue
            data = event.to_json()
            data["processing"] = statuses.get(event.event_id, ("pending", None))[0]
            events.append(data)
    events.sort(key=lambda item: (item["at"], item["eventId"]))
    if limit is not None:
        events = events[-limit:]
    data = {"schema": JOURNAL_SCHEMA, "events": events, "problems": [p.to_json() for p in problems]}
    lines = [f"{e['at']}  {e['type']:<14} {e['eventId']}  {event_summary(e)}" for e in events]
    if not lines:
        lines.append("no events" + (f" of type {event_type}" if event_type else " yet"))
    lines.extend(f"problem: {p.file}:{p.line}: {p.kind} line skipped ({p.error})" for p in problems)
    return Output(data, "\n".join(lines) + "\n")


def import_history(
    ws: Workspace, since: str | None, max_count: int | None, emails: tuple[str, ...]
) -> Output:
    from comet_git.journal.history import import_commits

    if ws.location is None or ws.project_key is None:
        raise NotARepositoryError(
            f"{ws.path} is not inside a git repository", hint="run it inside a repository"
        )
    store = ws.home.project_store(ws.project_key).create()
    result = import_commits(
        ws.location.worktree_root,
        ws.project_key,
        Journal(store),
        since=since,
        max_count=max_count,
        emails=emails,
    )
    data = {"schema": IMPORT_SCHEMA, **result.to_json()}
    authors = ", ".join(sorted(result.emails)) or "none"
    text = (
        f"imported {result.added} commit events ({result.duplicates} already in the journal) "
        f"from {result.matched} of your commits; authors matched: {authors}\n"
    )
    return Output(data, text)


def compact(ws: Workspace) -> Output:
    """Compact the journal of every store visible here (learning/compaction.py)."""
    from comet_git.learning.compaction import compact_store

    provider = ws.provider()
    stores = {}
    for store in provider.visible_stores():
        if store.journal_dir.is_dir():
            stores[store.name] = compact_store(provider, store).to_json()
    data = {"schema": "comet.journal-compact/v1", "stores": stores}
    text = "".join(
        f"{name}: {sizes['folded']} events folded into monthly summaries;"
        f" journal {sizes['sizeBefore']} -> {sizes['sizeAfter']} bytes\n"
        for name, sizes in stores.items()
    )
    return Output(data, text or "no journal to compact\n")


def replay(ws: Workspace) -> Output:
    """Process the pending and failed events again: the same processing as `comet learn`."""
    from comet_git.commands.learning import render_report
    from comet_git.learning.learn import learn_in

    report = learn_in(ws)
    data = {
        "schema": "comet.replay/v1",
        "processed": [
            {"eventId": item["eventId"], "kind": item["action"], "recordId": item["id"]}
            for item in report.results
            if item["eventId"]
        ],
        "failed": report.failed,
        "learn": report.to_json(),
    }
    return Output(data, render_report(report))


def flush(ws: Workspace, timeout: float) -> Output:
    """Wait until the detached hook workers that were started have finished."""
    pending_dir = ws.home.root / "run" / "pending"
    deadline = time.monotonic() + timeout
    while True:
        tickets = _live_tickets(pending_dir)
        if not tickets or time.monotonic() >= deadline:
            break
        time.sleep(0.01)
    data = {"schema": "comet.flush/v1", "waitingWorkers": len(tickets), "timedOut": bool(tickets)}
    if tickets:
        raise CometError(
            f"{len(tickets)} hook workers were still running after {timeout:.0f} s",
            hint=f"see {ws.home.diagnostics_log}; run `comet journal flush` again",
        )
    return Output(data, "all hook workers have finished\n")


def _live_tickets(directory: Path) -> list[Path]:
    try:
        tickets = list(directory.iterdir())
    except FileNotFoundError:
        return []
    live = []
    for ticket in tickets:
        try:
            age = time.time() - ticket.stat().st_mtime
        except FileNotFoundError:
            continue
        if age > STALE_TICKET_SECONDS:
            ticket.unlink(missing_ok=True)  # its worker died without cleaning up
        else:
            live.append(ticket)
    return live


def signal(
    ws: Workspace, text: str, scope: str | None, episode: str | None, session: str | None = None
) -> Output:
    learning = bool(ws.setting("memory.learning").value)
    result = capture_signal(
        ws.provider(),
        text,
        scope=scope,
        learning=learning,
        episode=episode or os.environ.get("COMET_EPISODE"),
        session=session,
        repository_names=ws.repository_names,
    )
    data = result.to_json()
    if result.record is not None:
        text_out = (
            f"long-term: remembered as {result.record.id} ({data['scope']} scope)\n  why: {data['reason']}\n"
        ) + (f"  note: {result.note}\n" if result.note else "")
    elif result.decision.kind == "long-term":
        text_out = f"long-term, but not stored: {result.note}\n"
    else:
        text_out = f"one-off: a constraint for this task only, not stored\n  why: {data['reason']}\n"
    return Output(data, text_out)
