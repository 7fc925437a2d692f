"""Old versions of a record and the log of what was done to it, so that a
correction or a forget can be rolled back."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from comet_git.errors import NotFoundError
from comet_git.records.codec import parse_record, render_record
from comet_git.records.model import Record, is_timestamp, utc_now
from comet_git.store import ScopeStore, atomic_write, remove_tree

UNDOABLE = ("correct", "forget")
ACTIONS = ("create", "correct", "forget", "rollback", "update")
# Who made a version: a command, a hand edit of its file or of profile.md, learning, outcomes
# (a record retired by them).
SOURCES = ("command", "hand-edit", "profile", "learning", "outcomes")


@dataclass(frozen=True)
class Action:
    action: str  # one of ACTIONS
    at: str
    source: str  # one of SOURCES
    from_version: int | None = None
    to_version: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "at": self.at,
            "source": self.source,
            "fromVersion": self.from_version,
            "toVersion": self.to_version,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        return cls(
            data["action"],
            data["at"],
            data.get("source", "command"),
            data.get("fromVersion"),
            data.get("toVersion"),
        )


class RecordHistory:
    """history/<id>/v0001.md ... and history/<id>/actions.jsonl."""

    def __init__(self, store: ScopeStore, record_id: str) -> None:
        self.directory = store.history_dir / record_id
        self.record_id = record_id

    def snapshot_path(self, version: int) -> Path:
        return self.directory / f"v{version:04d}.md"

    @property
    def log_path(self) -> Path:
        return self.directory / "actions.jsonl"

    def keep(self, record: Record) -> None:
        """Keep `record` (a version that is about to be replaced) for history and rollback."""
        atomic_write(self.snapshot_path(record.version), render_record(record))

    def version(self, version: int) -> Record:
        path = self.snapshot_path(version)
        if not path.exists():
            raise NotFoundError(f"version {version} of {self.record_id} is not in its history")
        return parse_record(path.read_text(encoding="utf-8"), str(path))

    def versions(self) -> list[Record]:
        if not self.directory.is_dir():
            return []
        return [
            parse_record(path.read_text(encoding="utf-8"), str(path))
            for path in sorted(self.directory.glob("v*.md"))
        ]

    def actions(self, problems: list[str] | None = None) -> list[Action]:
        """The log, oldest first; a line that does not read (torn, not UTF-8) is skipped and
        reported in `problems`."""
        try:
            lines = self.log_path.read_bytes().splitlines()
        except (FileNotFoundError, NotADirectoryError):
            return []
        found: list[Action] = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                found.append(Action.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError) as error:
                if problems is not None:
                    problems.append(f"{self.log_path}:{number}: line skipped ({str(error)[:160]})")
        return found

    def log(self, action: str, source: str, from_version: int | None, to_version: int | None) -> None:
        try:
            existing = self.log_path.read_bytes()
        except FileNotFoundError:
            existing = b""
        atomic_write(self.log_path, appended(existing, action_line(action, source, from_version, to_version)))

    def last_undoable(self) -> Action | None:
        """The most recent correction or forget that no rollback has undone yet."""
        return last_undoable(self.actions())

    def erase(self) -> None:
        remove_tree(self.directory)


def last_undoable(actions: list[Action]) -> Action | None:
    """Of `actions` (oldest first), the most recent correction or forget no rollback undid yet."""
    stack: list[Action] = []
    for entry in actions:
        if entry.action in UNDOABLE:
            stack.append(entry)
        elif entry.action == "rollback" and stack:
            stack.pop()
    return stack[-1] if stack else None


def is_action(data: object) -> bool:
    """Whether `data` (a line of actions.jsonl, read) is an action as `log` writes it: nothing else
    (an import takes no line it could not have written)."""
    return (
        isinstance(data, dict)
        and set(data) <= {"action", "at", "source", "fromVersion", "toVersion"}
        and data.get("action") in ACTIONS
        and data.get("source", "command") in SOURCES
        and is_timestamp(data.get("at"))
        and all(_is_version(data.get(key)) for key in ("fromVersion", "toVersion"))
    )


def _is_version(value: object) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and 0 < value < 10**9)


def action_line(action: str, source: str, from_version: int | None, to_version: int | None) -> bytes:
    """One line of actions.jsonl, as `log` appends it."""
    entry = Action(action, utc_now(), source, from_version, to_version)
    return (json.dumps(entry.to_json()) + "\n").encode("utf-8")


def appended(existing: bytes, line: bytes) -> bytes:
    """actions.jsonl with `line` appended: a torn last line stays on its own."""
    if existing and not existing.endswith(b"\n"):
        existing += b"\n"
    return existing + line
