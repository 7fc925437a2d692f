"""`comet repair`: rebuild the derived index from the Markdown stores, or only report."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comet_git.errors import RecordFormatError, StoreError
from comet_git.index import (
    Index,
    build_fresh,
    check_integrity,
    index_leftovers,
    out_of_space,
    remove_index_leftovers,
    swap_in,
)
from comet_git.journal.log import Journal
from comet_git.provider.sync import StoreSync, scan
from comet_git.records.codec import parse_record
from comet_git.records.model import Record, record_from_json
from comet_git.store import Home, ScopeStore, all_or_nothing, file_lock, remove_temporaries, write_failure

REPAIR_SCHEMA = "comet.repair/v1"


@dataclass
class StoreReport:
    name: str
    path: str
    records: int = 0
    forgotten: int = 0
    invalid: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.path,
            "records": self.records,
            "forgotten": self.forgotten,
            "invalid": self.invalid,
            "notes": self.notes,
        }


@dataclass
class RepairReport:
    check_only: bool
    index_path: str
    index_problem: str | None
    rebuilt: bool
    stores: list[StoreReport]
    leftovers: list[str]  # files a killed repair left (--check only: a repair removes them)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": REPAIR_SCHEMA,
            "checkOnly": self.check_only,
            "index": {
                "path": self.index_path,
                "problem": self.index_problem,
                "rebuilt": self.rebuilt,
                "leftovers": self.leftovers,
            },
            "stores": [store.to_json() for store in self.stores],
            "unrecoverable": [item for store in self.stores for item in store.invalid],
        }


def all_stores(home: Home) -> list[ScopeStore]:
    stores = [home.global_store] if home.global_store.exists() else []
    stores.extend(home.project_store(key) for key in home.project_keys())
    return [store for store in stores if store.exists()]


def repair(home: Home, *, check_only: bool) -> RepairReport:
    problem = check_integrity(home.index_path) if home.index_path.exists() else "the index does not exist"
    if check_only:
        stores = [check_store(s) for s in all_stores(home)]
        leftovers = [str(path) for path in index_leftovers(home.index_path)]
        return RepairReport(True, str(home.index_path), problem, False, stores, leftovers)
    home.ensure()
    with file_lock(home.index_path.parent / ".lock"):
        notes: dict[str, list[str]] = {}
        for store in all_stores(home):
            with store.lock():
                notes[store.name] = _clean_store(store)
        remove_index_leftovers(home.index_path)
        last_good: dict[str, dict[str, Record]] = {}
        try:
            if problem is None:
                _take_in_pending_edits(home, notes)
                last_good = _served_versions(home)
            reports = _rebuild(home, last_good, notes)
        except sqlite3.DatabaseError as error:
            raise _rebuild_failure(home, error) from error
    return RepairReport(False, str(home.index_path), problem, True, reports, [])


def _rebuild_failure(home: Home, error: sqlite3.DatabaseError) -> StoreError:
    if out_of_space(home.index_path, error):
        return write_failure(home.index_path, OSError(errno.ENOSPC, "no space"))
    return StoreError(
        f"the index {home.index_path} could not be rebuilt: {error}",
        hint="the index was left as it was; run `comet repair` again, or delete the index (it is made "
        "again from your Markdown records on first use)",
    )


def _take_in_pending_edits(home: Home, notes: dict[str, list[str]]) -> None:
    """Hand edits made since the last command are corrections: take them in before the old index
    goes, each one said in the report."""
    index = Index.open(home.index_path)
    try:
        for store in all_stores(home):
            with store.lock():
                found = scan(index, store)
                with all_or_nothing(), index.transaction():
                    notes[store.name].extend(StoreSync(index, store).run(found).notes)
    finally:
        index.close()


def _clean_store(store: ScopeStore) -> list[str]:
    """Remove the temporaries of killed commands and unreadable processing lines.  The caller
    holds the store lock; the journal lock is taken here: nobody is writing them."""
    journal = Journal(store)
    with file_lock(journal.lock_path):
        removed = remove_temporaries(store.root)
    dropped = journal.drop_unreadable_statuses()
    notes = [f"removed {removed} temporary file(s) left by killed commands"] if removed else []
    if dropped:
        notes.append(f"dropped {dropped} unreadable line(s) of {journal.processing_path.name}")
    return notes


def _served_versions(home: Home) -> dict[str, dict[str, Record]]:
    """The live records the old index serves, by store and file: for a file that became
    invalid, the version that stays served after the rebuild."""
    index = Index.open(home.index_path)
    try:
        found: dict[str, dict[str, Record]] = {}
        invalid = {(item.store, item.name) for item in index.invalid_files(s.name for s in all_stores(home))}
        for store in all_stores(home):
            for item in index.records_in(store.name):
                if item.state == "live" and (store.name, item.file) in invalid:
                    found.setdefault(store.name, {})[item.file] = record_from_json(item.as_dict())
        return found
    finally:
        index.close()


def _rebuild(
    home: Home, last_good: dict[str, dict[str, Record]], notes: dict[str, list[str]]
) -> list[StoreReport]:
    fresh_path = home.index_path.with_name(home.index_path.name + ".rebuild")
    reports: list[StoreReport] = []
    try:
        index = build_fresh(fresh_path)
        try:
            _carry_over_profile_hashes(home, index)
            for store in all_stores(home):
                with store.lock():
                    found = scan(index, store)
                    sync = StoreSync(index, store, absorb_edits=False, last_good=last_good.get(store.name))
                    with index.transaction():
                        result = sync.run(found)
                reports.append(_store_report(index, store, notes.get(store.name, []) + result.notes))
        finally:
            index.close()
        swap_in(fresh_path, home.index_path)
    except BaseException:
        # A failed rebuild (a full disk) leaves the old index as it was; its half-built successor,
        # which may hold any record's text, goes with it rather than waiting for the next repair.
        remove_index_leftovers(home.index_path)
        raise
    return reports


def _carry_over_profile_hashes(home: Home, fresh: Index) -> None:
    """What profile.md was last rendered as, so a rebuild does not mistake it for a hand edit."""
    if check_integrity(home.index_path) is not None:
        return
    old = Index.open(home.index_path)
    try:
        rows = old.connection.execute("SELECT key, value FROM meta WHERE key LIKE 'profile:%'").fetchall()
    finally:
        old.close()
    with fresh.transaction():
        for key, value in rows:
            fresh.set_meta(key, value)


def _store_report(index: Index, store: ScopeStore, notes: list[str]) -> StoreReport:
    report = StoreReport(store.name, str(store.root), notes=notes)
    for _, state, _, _, count in index.counts([store.name]):
        if state == "live":
            report.records += count
        else:
            report.forgotten += count
    report.invalid = [item.to_json(store.root) for item in index.invalid_files([store.name])]
    return report


def check_store(store: ScopeStore) -> StoreReport:
    """Read every record file of `store` and report, changing nothing."""
    report = StoreReport(store.name, str(store.root))
    seen: dict[str, str] = {}
    with contextlib.suppress(FileNotFoundError):
        for entry in sorted(os.scandir(store.records_dir), key=lambda e: e.name):
            if not entry.name.endswith(".md") or entry.name.startswith("."):
                continue
            try:
                record = parse_record(Path(entry.path).read_text(encoding="utf-8"), entry.path)
            except (RecordFormatError, UnicodeDecodeError) as error:
                line = getattr(error, "line", None)
                report.invalid.append(
                    {"file": entry.path, "line": line, "error": getattr(error, "message", str(error))}
                )
                continue
            if record.id in seen:
                report.invalid.append(
                    {
                        "file": entry.path,
                        "line": None,
                        "error": f"the id {record.id} is already used by {seen[record.id]}",
                    }
                )
                continue
            seen[record.id] = entry.name
            report.records += 1
    if store.tombstones_dir.is_dir():
        report.forgotten = sum(1 for _ in store.tombstones_dir.glob("*.json"))
    return report
