"""Monthly JSON Lines files under a store's journal/, appended atomically under a lock.

- Appends hold an flock on journal/.lock and write each batch with one write(2) on an
  O_APPEND descriptor, then fsync: concurrent writers (hooks from several worktrees)
  never interleave or lose an event.
- Event ids are deduplicated on ingest, so a hook retry, a history import and a
  replay of the same commit add it once.
- A torn last line (a crash mid-write) is skipped and reported, never fatal; the next
  append starts on a fresh line.
- Processing outcomes go to journal/processing.jsonl; events not marked done are pending,
  and `comet journal replay` processes them again.
- `compact` folds processed events nobody needs verbatim into one summary a month
  (journal/YYYY-MM.summary.json: counts, what learning aggregated of them, and their ids,
  which stay known: an import or a replay never adds them, nor learns from them, twice).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from comet_git.errors import RecordFormatError
from comet_git.journal.events import Event, parse_event
from comet_git.journal.redact import redact
from comet_git.records.model import utc_now
from comet_git.store import (
    FILE_MODE,
    ScopeStore,
    atomic_write,
    ensure_dir,
    file_lock,
    write_all,
    write_failure,
)

# Expressions compiled by re on first use (and cached there): an append, which every `comet task`
# makes, needs none of them.
MONTH_FILE = r"^\d{4}-\d{2}\.jsonl$"
SUMMARY_FILE = r"^(\d{4}-\d{2})\.summary\.json$"
SUMMARY_SCHEMA = "comet.journal-summary/v1"
EVENT_ID_IN_LINE = rb'"eventId":"([^"]+)"'
DONE = "done"
FAILED = "failed"


class JournalProblem(NamedTuple):
    file: str
    line: int
    kind: str  # "torn" (an unfinished last line) | "unreadable"
    error: str

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "kind": self.kind, "error": self.error}


class AppendResult:
    __slots__ = ("added", "duplicates")

    def __init__(self, added: list[Event] | None = None, duplicates: int = 0) -> None:
        self.added: list[Event] = [] if added is None else added
        self.duplicates = duplicates


def serialize(event: Event) -> bytes:
    return (json.dumps(event.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class Journal:
    def __init__(self, store: ScopeStore) -> None:
        self.store = store
        self.directory = store.journal_dir

    @property
    def lock_path(self) -> Path:
        return self.directory / ".lock"

    @property
    def processing_path(self) -> Path:
        return self.directory / "processing.jsonl"

    def month_path(self, month: str) -> Path:
        return self.directory / f"{month}.jsonl"

    def summary_path(self, month: str) -> Path:
        return self.directory / f"{month}.summary.json"

    def summaries(self) -> list[dict[str, Any]]:
        """The monthly summaries of compacted events, oldest first (an unreadable one is skipped:
        its events' ids are then unknown, which costs at most a second import of them)."""
        if not self.directory.is_dir():
            return []
        found = []
        for path in sorted(self.directory.iterdir()):
            if re.match(SUMMARY_FILE, path.name):
                with contextlib.suppress(OSError, ValueError):
                    data = json.loads(path.read_text(encoding="utf-8"))
                    if isinstance(data, dict) and data.get("schema") == SUMMARY_SCHEMA:
                        found.append(data)
        return found

    def folded_ids(self) -> set[str]:
        return {str(event_id) for summary in self.summaries() for event_id in summary.get("eventIds", ())}

    def size(self) -> int:
        """Bytes of the month files, the summaries and the processing marks."""
        if not self.directory.is_dir():
            return 0
        return sum(path.stat().st_size for path in self.directory.iterdir() if path.is_file())

    def files(self) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return sorted(path for path in self.directory.iterdir() if re.match(MONTH_FILE, path.name))

    # -- writing ----------------------------------------------------------------

    def append(
        self,
        events: Sequence[Event],
        *,
        known_ids: set[str] | None = None,
        fresh_ids: bool = False,
        durable: bool = True,
    ) -> AppendResult:
        """Redact, deduplicate and append `events`; returns what was added.

        `known_ids` (all ids already in the journal) spares a bulk import from
        re-reading the month files for every batch; it is updated in place.
        `fresh_ids` says the ids were just drawn at random (a delivery, an outcome):
        nothing to deduplicate, so the month file is not read at all.
        `durable=False` skips the fsync: the lines are written whole (a killed process loses
        nothing), only a crash of the machine itself may lose them.  For what can be lost at
        that cost: a record of what `comet task` delivered, on the agent's hot path.
        """
        result = AppendResult()
        if not events:
            return result
        ensure_dir(self.directory)
        with file_lock(self.lock_path):
            by_month: dict[str, list[Event]] = {}
            for event in events:
                by_month.setdefault(event.month, []).append(event)
            for month, batch in sorted(by_month.items()):
                path = self.month_path(month)
                if fresh_ids:
                    present: set[str] = set()
                elif known_ids is not None:
                    present = known_ids
                else:
                    present = ids_in(path) | set(self._summary(month).get("eventIds", ()))
                fresh: list[Event] = []
                for event in batch:
                    if event.event_id in present:
                        result.duplicates += 1
                        continue
                    present.add(event.event_id)
                    fresh.append(redacted(event))
                _append_lines(path, b"".join(serialize(event) for event in fresh), durable)
                result.added.extend(fresh)
        return result

    def mark(self, outcomes: Iterable[tuple[str, str, str | None]]) -> None:
        """Record processing outcomes: (eventId, "done" | "failed", error)."""
        lines = [
            json.dumps({"eventId": event_id, "status": status, "at": utc_now(), "error": error}) + "\n"
            for event_id, status, error in outcomes
        ]
        if not lines:
            return
        ensure_dir(self.directory)
        with file_lock(self.lock_path):
            _append_lines(self.processing_path, "".join(lines).encode("utf-8"))

    # -- reading ------------------------------------------------------------------

    def events(self, problems: list[JournalProblem] | None = None) -> Iterator[Event]:
        """Every readable event, oldest file first, streaming (memory stays flat).  An event a
        summary holds (a compaction stopped half-way) is not read twice."""
        folded = self.folded_ids()
        for path in self.files():
            for event in read_file(path, problems):
                if event.event_id not in folded:
                    yield event

    def problems(self) -> list[JournalProblem]:
        found: list[JournalProblem] = []
        for _ in self.events(found):
            pass
        return found

    def known_ids(self) -> set[str]:
        ids = self.folded_ids()
        for path in self.files():
            ids |= ids_in(path)
        return ids

    # -- compaction -----------------------------------------------------------------

    def _summary(self, month: str) -> dict[str, Any]:
        try:
            data = json.loads(self.summary_path(month).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if not isinstance(data, dict) or data.get("schema") != SUMMARY_SCHEMA:
            return {"schema": SUMMARY_SCHEMA, "month": month, "counts": {}, "aggregates": {}, "eventIds": []}
        return data

    def compact(
        self, fold: Callable[[Event], bool], aggregate: Callable[[dict[str, Any], Event], None]
    ) -> CompactResult:
        """Fold the events `fold` chooses into their month's summary (`aggregate` adds what
        learning needs of one to the summary's `aggregates`); the others stay verbatim.

        Crash-safe: the summary (with the folded ids) is written before the month file
        without them, and readers skip an event whose id a summary holds, so a crash in
        between leaves an event in both places, counted once."""
        result = CompactResult(size_before=self.size())
        with file_lock(self.lock_path):
            for path in self.files():
                month = path.name.removesuffix(".jsonl")
                summary = self._summary(month)
                known = set(summary["eventIds"])
                kept: list[bytes] = []
                folded = 0
                for line in path.read_bytes().splitlines(keepends=True):
                    event = _parsed(line)
                    if event is None or not fold(event):
                        kept.append(line)  # an unreadable line stays: it is reported, not lost
                        continue
                    folded += 1
                    if event.event_id not in known:
                        known.add(event.event_id)
                        summary["eventIds"].append(event.event_id)
                        summary["counts"][event.type] = summary["counts"].get(event.type, 0) + 1
                        aggregate(summary["aggregates"], event)
                if not folded:
                    continue
                atomic_write(self.summary_path(month), json.dumps(summary, ensure_ascii=False))
                atomic_write(path, b"".join(kept))
                result.folded += folded
            self._compact_statuses()
        result.size_after = self.size()
        return result

    def _compact_statuses(self) -> None:
        """processing.jsonl without what nobody reads any more: the outcomes of folded events
        (a summary's events are never pending) and all but the last outcome of each event.
        A line that does not read stays, as it would have (reported, not lost).  Written after
        the summaries: a crash before it leaves lines too many, never one too few."""
        folded = self.folded_ids()
        lines = list(self._status_lines())
        last = {str(entry["eventId"]): number for number, _, entry, _ in lines if entry is not None}

        def needed(number: int, entry: dict[str, Any] | None) -> bool:
            return entry is None or (entry["eventId"] not in folded and last[str(entry["eventId"])] == number)

        kept = [line for number, line, entry, _ in lines if needed(number, entry)]
        if len(kept) < len(lines):
            atomic_write(self.processing_path, b"".join(kept))

    def statuses(self, problems: list[JournalProblem] | None = None) -> dict[str, tuple[str, str | None]]:
        """The last processing outcome of each event id.  A line that does not read (torn,
        not UTF-8, not JSON) is skipped and reported: its event stays pending."""
        found: dict[str, tuple[str, str | None]] = {}
        for number, line, entry, error in self._status_lines():
            if entry is not None:
                found[str(entry["eventId"])] = (str(entry["status"]), entry.get("error"))
            elif problems is not None:
                kind = "torn" if not line.endswith(b"\n") else "unreadable"
                problems.append(JournalProblem(str(self.processing_path), number, kind, error))
        return found

    def _status_lines(self) -> Iterator[tuple[int, bytes, dict[str, Any] | None, str]]:
        """(line number, line, its outcome or None, why it does not read) for each line of
        processing.jsonl."""
        try:
            raw = self.processing_path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return
        for number, line in enumerate(raw.splitlines(keepends=True), start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)  # invalid UTF-8 is a ValueError (UnicodeDecodeError) too
                str(entry["eventId"]), str(entry["status"])
            except (ValueError, KeyError, TypeError) as error:
                yield number, line, None, f"not a processing outcome: {str(error)[:160]}"
                continue
            yield number, line, entry, ""

    def drop_unreadable_statuses(self) -> int:
        """Rewrite processing.jsonl without the lines that do not read (`comet repair`)."""
        with file_lock(self.lock_path):
            lines = list(self._status_lines())
            bad = sum(1 for _, _, entry, _ in lines if entry is None)
            if bad:
                kept = b"".join(line for _, line, entry, _ in lines if entry is not None)
                atomic_write(self.processing_path, kept)
        return bad

    def pending(self, types: Sequence[str] | None = None) -> Iterator[Event]:
        statuses = self.statuses()
        for event in self.events():
            if (types is None or event.type in types) and statuses.get(event.event_id, ("", None))[0] != DONE:
                yield event

    # -- forgetting for good ---------------------------------------------------------

    def scrub(self, event_ids: set[str], texts: Sequence[str]) -> int:
        """Remove the text of these events (and any event quoting one of `texts`) for good."""
        needles = [text for text in texts if text.strip()]
        changed = 0
        with file_lock(self.lock_path):
            for path in self.files():
                raw = path.read_bytes()
                lines = raw.splitlines(keepends=True)
                kept = [_scrub_line(line, event_ids, needles) for line in lines]
                if kept != lines:
                    changed += sum(1 for old, new in zip(lines, kept, strict=True) if old != new)
                    atomic_write(path, b"".join(kept))
        return changed


class CompactResult:
    def __init__(self, size_before: int = 0) -> None:
        self.size_before = size_before
        self.size_after = size_before
        self.folded = 0

    def to_json(self) -> dict[str, int]:
        return {"sizeBefore": self.size_before, "sizeAfter": self.size_after, "folded": self.folded}


def _parsed(line: bytes) -> Event | None:
    try:
        return parse_event(json.loads(line), where="<compaction>")
    except (ValueError, RecordFormatError):
        return None


def redacted(event: Event) -> Event:
    return parse_event(redact(event.to_json()), where="<redaction>")


def ids_in(path: Path) -> set[str]:
    try:
        return {match.decode("utf-8") for match in re.findall(EVENT_ID_IN_LINE, path.read_bytes())}
    except FileNotFoundError:
        return set()


def read_file(path: Path, problems: list[JournalProblem] | None = None) -> Iterator[Event]:
    with path.open("rb") as handle:
        number = 0
        for line in handle:
            number += 1
            if not line.strip():
                continue
            try:
                yield parse_event(json.loads(line), where=f"{path}:{number}")
            except (ValueError, RecordFormatError) as error:
                if problems is not None:
                    torn = not line.endswith(b"\n")
                    problems.append(
                        JournalProblem(str(path), number, "torn" if torn else "unreadable", str(error)[:200])
                    )


def _append_lines(path: Path, data: bytes, durable: bool = True) -> None:
    """Append whole lines, or nothing: an append is acknowledged only once every byte is
    written and flushed.  The caller holds the journal lock, so cutting the file back to
    its old length cannot cut another writer's lines."""
    if not data:
        return
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, FILE_MODE)
    except OSError as error:
        raise write_failure(path, error) from error
    try:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data  # leave a torn line behind on its own; start afresh
        try:
            write_all(fd, data)
            if durable:
                os.fsync(fd)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, size)  # the journal as it was: no torn fragment of ours
                os.fsync(fd)
            raise write_failure(path, error) from error
    finally:
        os.close(fd)


def _scrub_line(line: bytes, event_ids: set[str], needles: Sequence[str]) -> bytes:
    match = re.search(EVENT_ID_IN_LINE, line)
    text = line.decode("utf-8", errors="replace")
    if not (match and match.group(1).decode() in event_ids) and not any(n in text for n in needles):
        return line
    try:
        data = json.loads(text)
    except ValueError:
        return b""  # an unreadable line quoting forgotten text: drop it
    for key in ("signal", "outcome"):
        if data.get(key) is not None:
            data[key] = {"forgotten": True}
    if data.get("evidence") is not None:
        data["evidence"] = []
    data["context"] = {
        key: value for key, value in data.get("context", {}).items() if key in ("commit", "branch")
    }
    data["context"]["forgotten"] = True
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
