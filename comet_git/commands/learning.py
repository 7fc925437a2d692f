"""comet learn and comet memory apply."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from comet_git.commands import Output
from comet_git.errors import InvalidInputError
from comet_git.learning.deltas import RESULT_SCHEMA, apply_deltas
from comet_git.learning.learn import LearnReport, learn_in
from comet_git.workspace import Workspace


def apply(ws: Workspace, source: str) -> Output:
    document = _read_delta(source)
    learning = bool(ws.setting("memory.learning").value)
    results = apply_deltas(ws.provider(), document, learning=learning)
    data = {"schema": RESULT_SCHEMA, "results": [result.to_json() for result in results]}
    text = "".join(f"{r.index}: {r.action} {r.status} {r.id or ''} ({r.reason})\n" for r in results)
    return Output(data, text or "no deltas\n")


def _read_delta(source: str) -> object:
    """The parsed JSON of the delta file (or stdin for "-"); whatever it holds, an InvalidInputError."""
    if source == "-" and sys.stdin is None:  # started with stdin closed (`<&-`)
        raise InvalidInputError(
            "stdin is closed: there is no delta to read", "pass --delta FILE, or pipe it in"
        )
    try:
        raw = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    except OSError as error:
        raise InvalidInputError(f"cannot read {source}: {error.strerror or error}") from error
    hint = "see `comet memory apply --help` for the comet.learning-delta/v1 format"
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        problem = f"the delta is not UTF-8 text: {error.reason} at byte {error.start}"
        raise InvalidInputError(problem, hint) from None
    except RecursionError:
        raise InvalidInputError("the delta nests too deeply to be a learning delta", hint) from None
    except ValueError as error:
        raise InvalidInputError(f"the delta is not valid JSON: {error}", hint) from None


def learn_now(ws: Workspace) -> Output:
    report = learn_in(ws)
    return Output(report.to_json(), render_report(report))


def render_report(report: LearnReport) -> str:
    lines = [
        f"read {report.events_read} journal events: {report.processed} processed, {len(report.failed)} failed"
        + ("" if report.learning else " (memory.learning is off: no new records)")
    ]
    for item in report.results:
        if item["status"] == "noop" and item["action"] == "update":
            continue  # a habit that still holds: not news
        lines.append(f"{item['status']:<8} {item['id'] or '-':<12} {item['source']}: {item['reason']}")
    lines += [f"failed   {item['eventId'] or '-'} {item['type']}: {item['error']}" for item in report.failed]
    lines += [f"reflect  {item['id']}: {item['reason']}" for item in report.reflect]
    lines += [f"busy     {name}: another `comet learn` is running there" for name in report.skipped]
    lines += [f"skipped  {p.file}:{p.line}: {p.kind} journal line ({p.error})" for p in report.problems]
    return "\n".join(lines) + "\n"
