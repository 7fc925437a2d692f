"""The machine index: a SQLite database derived entirely from the Markdown
records and tombstones.  Deleting it loses nothing; `comet repair` rebuilds it
into a new file and swaps it in atomically."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from comet_git.errors import StoreError
from comet_git.matching.paths import compile_patterns, path_anchors
from comet_git.matching.text import record_terms, tokenizer_digest
from comet_git.records.model import Record
from comet_git.store import FILE_MODE, FileState, ensure_dir, file_lock, fsync_dir, write_failure

SCHEMA_VERSION = 18  # 18: a learned rule's summary holds all that fits; 17: listing_digest, racy rows
BUSY_TIMEOUT_MS = 15_000
PURGE_WAIT_MS = 1_000

# Forced off by tests to exercise the plain fallback.
FTS5_ENABLED = True

_TABLES = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(
    store TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,
    racy INTEGER NOT NULL DEFAULT 0, record_id TEXT,
    PRIMARY KEY(store, name));
-- The few files a scan must look into even when their folder's listing is as indexed.
CREATE INDEX IF NOT EXISTS files_racy ON files(store, kind) WHERE racy = 1;
-- Narrow columns first: SQLite reads a row only as far as the last column asked for, so
-- the Context Director's scan never reaches the JSON at the end.  updated_jd (the Julian day
-- of updated_at), text_length and manifest_length (title plus summary, in characters) are
-- computed here once, so that ranking and the budget need neither dates parsed nor texts read.
CREATE TABLE IF NOT EXISTS records(
    id TEXT PRIMARY KEY, store TEXT NOT NULL, file TEXT NOT NULL, state TEXT NOT NULL,
    scope TEXT NOT NULL, project_key TEXT, memory_type TEXT NOT NULL,
    memory_class TEXT NOT NULL, authority TEXT NOT NULL, lifecycle TEXT NOT NULL,
    version INTEGER NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    sel_paths TEXT NOT NULL, sel_operations TEXT NOT NULL, sel_phases TEXT NOT NULL, tasks TEXT NOT NULL,
    outcomes TEXT NOT NULL, updated_jd REAL, text_length INTEGER NOT NULL, manifest_length INTEGER NOT NULL,
    title TEXT NOT NULL, summary TEXT NOT NULL, conflicts_with TEXT NOT NULL,
    json TEXT NOT NULL);
-- Counting without reading the wide rows (Index.tally, Index.counts).
CREATE INDEX IF NOT EXISTS records_tally ON records(
    store, state, lifecycle, scope, memory_type, memory_class, authority);
-- The few records linked as conflicting (`comet memory status`, the Dashboard's overview).
CREATE INDEX IF NOT EXISTS records_conflicting ON records(store) WHERE conflicts_with != '';
-- The long texts live beside the records, so that the rows a listing and the director read
-- stay small: the record's text (also inside json) and its search terms.
CREATE TABLE IF NOT EXISTS record_texts(record INTEGER PRIMARY KEY, body TEXT NOT NULL, terms TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS records_in_order ON records(store, state, memory_type, updated_at DESC, id);
-- What the director reads without any text or path: the current core profile, and the current
-- rules that fire on an operation or a phase alone.  Each index holds every column the director
-- asks for (select.py: _COLUMNS), so that these rows are read from the index alone, a few
-- dozen to a page, instead of one lookup each in the wide rows above.
CREATE INDEX IF NOT EXISTS records_core ON records(
    store, memory_type, state, lifecycle, id, authority, scope, updated_jd, sel_paths, sel_operations,
    sel_phases, tasks, outcomes, text_length, manifest_length)
    WHERE memory_type = 'core-profile' AND state = 'live' AND lifecycle != 'superseded';
CREATE INDEX IF NOT EXISTS records_rules ON records(
    store, sel_operations, sel_phases, memory_type, sel_paths, tasks, state, lifecycle, id, authority, scope,
    updated_jd, outcomes, text_length, manifest_length)
    WHERE memory_type != 'core-profile' AND sel_paths = '' AND tasks = ''
    AND (sel_operations != '' OR sel_phases != '') AND state = 'live' AND lifecycle != 'superseded';
-- The rules with keywords or paths whose operation or phase selector may match a request.
CREATE INDEX IF NOT EXISTS records_selected ON records(
    store, memory_type, state, lifecycle, sel_operations, sel_phases, sel_paths, tasks, authority, scope,
    updated_jd, id, outcomes, text_length, manifest_length)
    WHERE memory_type != 'core-profile' AND (tasks != '' OR sel_paths != '')
    AND (sel_operations != '' OR sel_phases != '') AND state = 'live' AND lifecycle != 'superseded';
-- The records with outcomes reported (the most used ones are offered at session start).
CREATE INDEX IF NOT EXISTS records_used ON records(
    store, state, lifecycle, memory_type, outcomes, id, authority, scope, updated_jd, sel_paths,
    sel_operations, sel_phases, tasks, text_length, manifest_length)
    WHERE outcomes != '' AND state = 'live' AND lifecycle != 'superseded';
-- The proven rules with no path or keyword selector, which stand for the whole project.
CREATE INDEX IF NOT EXISTS records_standing ON records(
    store, memory_type, sel_paths, tasks, state, lifecycle, authority, sel_operations, sel_phases, id, scope,
    updated_jd, outcomes, text_length, manifest_length)
    WHERE memory_type != 'core-profile' AND sel_paths = '' AND tasks = '' AND state = 'live'
    AND lifecycle = 'proven';
CREATE TABLE IF NOT EXISTS invalid(
    store TEXT NOT NULL, name TEXT NOT NULL, line INTEGER, error TEXT NOT NULL,
    PRIMARY KEY(store, name));
CREATE TABLE IF NOT EXISTS forgotten_ids(id TEXT PRIMARY KEY, store TEXT NOT NULL);
-- The folders a record's path selectors are rooted at ('' for patterns that match at any
-- depth): `comet task` reads only the records anchored on the request's path.
CREATE TABLE IF NOT EXISTS path_anchors(record INTEGER NOT NULL, anchor TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS path_anchors_by_anchor ON path_anchors(anchor);
CREATE INDEX IF NOT EXISTS path_anchors_by_record ON path_anchors(record);
"""

_FTS_TABLE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5("
    "title, summary, body, tasks, terms, tokenize='unicode61 remove_diacritics 2')"
)


# A file whose mtime is this close to the moment we looked at it may still be
# changed within the same timestamp tick; such "racy" files are re-hashed next time.
RACY_WINDOW_NS = 2_000_000_000

# The kinds of file whose folder a scan lists (sync.py), each with a digest of its rows.
LISTED_KINDS = ("record", "tombstone")
_DIGEST_MASK = (1 << 64) - 1


def listing_entry(bare_name: str, mtime_ns: int, size: int) -> int:
    """One file's share of its folder's digest.  The digest is the sum of the shares (mod
    2**64) and the count: order does not matter, and one file's change is added and
    subtracted without looking at the others."""
    data = f"{bare_name}\0{mtime_ns}\0{size}".encode("utf-8", "surrogateescape")
    return int.from_bytes((_blake2b or _import_blake2b())(data, digest_size=8).digest(), "little")


# hashlib is imported when a folder is first listed: it loads OpenSSL (some 4 ms), which a
# command that finds the index up to date (the agent's `comet task`) never needs.
_blake2b: Callable[..., Any] | None = None


def _import_blake2b() -> Callable[..., Any]:
    global _blake2b
    import hashlib

    _blake2b = hashlib.blake2b
    return _blake2b


def listing_digest(count: int, total: int) -> str:
    return f"{count}:{total & _DIGEST_MASK:016x}"


def _parse_digest(text: str | None) -> tuple[int, int]:
    count, _, total = (text or "").partition(":")
    try:
        return int(count), int(total, 16)
    except ValueError:
        return 0, 0


class FileRow(NamedTuple):
    name: str
    kind: str
    mtime_ns: int
    size: int
    sha256: str
    racy: bool
    record_id: str | None

    @classmethod
    def of(cls, name: str, kind: str, state: FileState, record_id: str | None) -> FileRow:
        racy = time.time_ns() - state.mtime_ns < RACY_WINDOW_NS
        return cls(name, kind, state.mtime_ns, state.size, state.sha256, racy, record_id)


class IndexedRecord(NamedTuple):
    """A record as the index knows it: its JSON (kept ready to print) and where it lives.

    A NamedTuple: a listing builds ten thousand of them."""

    id: str
    store: str
    file: str
    state: str  # "live" | "forgotten"
    json_text: str

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = json.loads(self.json_text)
        return data


RecordFile = tuple[str, str, int | None, int | None, int | None]  # see Index.record_files


class RecordFilter(NamedTuple):
    """Which records a listing wants (Index.select, count, tally)."""

    ids: Sequence[str] = ()
    memory_types: Sequence[str] = ()
    lifecycles: Sequence[str] = ()
    memory_classes: Sequence[str] = ()
    authorities: Sequence[str] = ()
    states: Sequence[str] = ("live",)
    text: str | None = None
    include_superseded: bool = True
    conflicting: bool = False  # only the records linked as conflicting with others


Page = tuple[int, int]  # (offset, limit): a page of a listing


class InvalidFile(NamedTuple):
    store: str
    name: str
    line: int | None
    error: str

    def to_json(self, root: Path) -> dict[str, object]:
        return {"file": str(root / self.name), "line": self.line, "error": self.error}


def fts5_available(connection: sqlite3.Connection) -> bool:
    if not FTS5_ENABLED:
        return False
    try:
        connection.execute("CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x)")
        connection.execute("DROP TABLE temp.fts5_probe")
    except sqlite3.OperationalError:
        return False
    return True


def record_json(record: Record, state: str) -> str:
    data = record.to_json()
    data["state"] = state
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class Index:
    """One open connection to the index database."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self.connection = connection
        self.path = path
        self.has_fts = self.get_meta("fts5") == "1"
        self._purge_pending = False
        self.purge_incomplete = False  # deleted text may still be in the files (see transaction)
        self.fresh = False
        # Changes to the digests of the file rows (rows_digest), written when the transaction
        # commits: a rebuild puts ten thousand rows, and the digest once.
        self._digest_changes: dict[tuple[str, str], list[int]] = {}
        self._in_transaction = False

    @classmethod
    def open(cls, path: Path, *, memory_map: bool = True) -> Index:
        """Open (creating when missing) the index; a corrupt file is a StoreError naming the fix.

        `memory_map` reads pages through a memory map: a listing touches megabytes in a cold
        process.  The director reads a few thousand scattered rows, no faster that way, and
        unmapping what it touched costs more at close (some 6 ms at 100,000 records)."""
        ensure_dir(path.parent)
        try:
            # Processes that start together on a new store must not create the database, or
            # switch it to WAL, at the same time: SQLite answers "database is locked" at once.
            with file_lock(path.with_name(path.name + ".open-lock")):
                connection = _connect(path, memory_map)
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, SCHEMA_VERSION) or (version and not _same_tokenizer(connection)):
                    # A derived cache written by another version of comet (or whose terms another
                    # tokenizer made): start it afresh.
                    connection.close()
                    _remove_database(path)
                    connection = _connect(path, memory_map)
                    version = 0
                if version == 0:
                    _create_schema(connection)
        except sqlite3.DatabaseError as error:
            if out_of_space(path, error):
                raise write_failure(path, OSError(errno.ENOSPC, "no space")) from error
            raise StoreError(
                f"the index {path} is unreadable: {error}",
                hint="run `comet repair` to rebuild it from your Markdown records (nothing is lost)",
            ) from error
        return cls(connection, path)

    def close(self) -> None:
        self.connection.close()

    def reader(self) -> sqlite3.Connection:
        """Another connection to this index, read-only (for a search run in a thread)."""
        uri = Path(os.path.abspath(self.path)).as_uri() + "?mode=ro"
        return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)

    def get_meta(self, key: str) -> str | None:
        row = self.connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self.connection.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            self._in_transaction = True
            yield
            self._write_digests()
            self.connection.execute("COMMIT")
        except BaseException:
            self._digest_changes.clear()
            with contextlib.suppress(sqlite3.Error):
                self.connection.execute("ROLLBACK")
            raise
        finally:
            self._in_transaction = False
        if self._purge_pending:
            # Old pages of deleted text may still sit in the WAL: fold it into the
            # database (where secure_delete has zeroed them) and truncate it.
            self._purge_pending = False
            self.purge_incomplete = not self.checkpoint_truncate()

    def checkpoint_truncate(self) -> bool:
        """Whether the WAL was folded in and emptied.  A reader of another process holding an
        older snapshot keeps those pages alive: we wait for it a little, not the 15 s of a write."""
        self.connection.execute(f"PRAGMA busy_timeout = {PURGE_WAIT_MS}")
        try:
            busy, _, _ = self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            self.connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return bool(busy == 0)

    def purge_deleted_content(self) -> None:
        """Leave no trace of deleted text in the database files (a permanent forget)."""
        if self.has_fts:
            # FTS5 keeps deleted tokens in old segments until they are merged.
            self.connection.execute("INSERT INTO records_fts(records_fts) VALUES('optimize')")
        self._purge_pending = True

    # -- files --------------------------------------------------------------

    def file_rows(self, store: str, names: Sequence[str] | None = None) -> dict[str, FileRow]:
        """The rows of `store`'s files (only those `names`, when given)."""
        sql = "SELECT name, kind, mtime_ns, size, sha256, racy, record_id FROM files WHERE store = ?"
        params: list[object] = [store]
        if names is not None:
            sql += " AND name IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(list(names)))
        rows = self.connection.execute(sql, params)
        return {row[0]: FileRow(row[0], row[1], row[2], row[3], row[4], bool(row[5]), row[6]) for row in rows}

    def racy_files(self, store: str, kind: str) -> list[str]:
        """The bare names of `store`'s files of `kind` that were racy when last seen."""
        rows = self.connection.execute(
            "SELECT substr(name, instr(name, '/') + 1) FROM files WHERE store = ? AND kind = ? AND racy = 1",
            (store, kind),
        )
        return [row[0] for row in rows]

    def rows_digest(self, store: str, kind: str) -> str:
        """The digest (listing_entry) of `store`'s rows of one LISTED_KINDS kind: equal to the
        digest of the folder's listing when the index has every file as it is on disk."""
        count, total = _parse_digest(self.get_meta(_digest_key(store, kind)))
        pending = self._digest_changes.get((store, kind), [0, 0])
        return listing_digest(count + pending[0], total + pending[1])

    def reset_rows_digest(self, store: str, kind: str, seen: str, digest: str) -> None:
        """Set the digest of the rows to `digest` (that of a listing found equal to them), unless
        another process changed it since it was `seen`."""
        if self.rows_digest(store, kind) == seen:
            self._digest_changes.pop((store, kind), None)
            self.set_meta(_digest_key(store, kind), digest)

    def _uncount_file(self, store: str, name: str) -> None:
        """Take the row of `name`, if any, out of its digest (it is about to change or go)."""
        row = self.connection.execute(
            "SELECT kind, mtime_ns, size FROM files WHERE store = ? AND name = ?", (store, name)
        ).fetchone()
        if row is not None:
            self._count_file(store, row[0], name, row[1], row[2], -1)

    def _count_file(self, store: str, kind: str, name: str, mtime_ns: int, size: int, sign: int) -> None:
        if kind in LISTED_KINDS:
            change = self._digest_changes.setdefault((store, kind), [0, 0])
            change[0] += sign
            change[1] += sign * listing_entry(name.partition("/")[2], mtime_ns, size)

    def _write_digests(self) -> None:
        for (store, kind), (count, total) in self._digest_changes.items():
            known_count, known_total = _parse_digest(self.get_meta(_digest_key(store, kind)))
            self.set_meta(_digest_key(store, kind), listing_digest(known_count + count, known_total + total))
        self._digest_changes.clear()

    def file_stats(self, store: str, kind: str) -> dict[str, tuple[int, int, int]]:
        """Bare file name -> (mtime_ns, size, racy) of one kind of file: all a scan needs."""
        rows = self.connection.execute(
            "SELECT substr(name, instr(name, '/') + 1), mtime_ns, size, racy FROM files"
            " WHERE store = ? AND kind = ?",
            (store, kind),
        )
        return {row[0]: (row[1], row[2], row[3]) for row in rows}

    def record_files(self, ids: Sequence[str]) -> dict[str, RecordFile]:
        """id -> (store, file, and the file's mtime_ns, size and racy flag as indexed, or Nones)."""
        rows = self.connection.execute(
            "SELECT r.id, r.store, r.file, f.mtime_ns, f.size, f.racy FROM records r"
            " LEFT JOIN files f ON f.store = r.store AND f.name = r.file"
            " WHERE r.id IN (SELECT value FROM json_each(?))",
            [json.dumps(list(ids))],
        )
        return {row[0]: row[1:] for row in rows}

    def put_file(self, store: str, row: FileRow) -> None:
        self._uncount_file(store, row.name)
        self.connection.execute(
            "INSERT OR REPLACE INTO files(store, name, kind, mtime_ns, size, sha256, racy, record_id)"
            " VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
            (store, row.name, row.kind, row.mtime_ns, row.size, row.sha256, int(row.racy), row.record_id),
        )
        self._count_file(store, row.kind, row.name, row.mtime_ns, row.size, 1)
        self._written_outside_transaction()

    def drop_file(self, store: str, name: str) -> None:
        self._uncount_file(store, name)
        self.connection.execute("DELETE FROM files WHERE store = ? AND name = ?", (store, name))
        self._written_outside_transaction()

    def _written_outside_transaction(self) -> None:
        if not self._in_transaction:
            self._write_digests()  # SQLite commits each statement at once: so does the digest

    # -- records ------------------------------------------------------------

    def put_record(self, store: str, file: str, record: Record, state: str) -> None:
        if not self.fresh:
            self.drop_record(record.id)
        selectors = record.selectors
        summary = record.manifest_summary  # derived from the text unless the record has one
        terms, keyword_terms = record_terms(record.title, record.summary, record.text, selectors.tasks)
        cursor = self.connection.execute(
            "INSERT INTO records(id, store, file, state, scope, project_key, memory_type, memory_class,"
            " authority, lifecycle, title, summary, tasks, version, created_at, updated_at, json,"
            " sel_paths, sel_operations, sel_phases, outcomes, updated_jd, text_length, manifest_length,"
            " conflicts_with)"
            " VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, julianday(?), ?, ?, ?)",
            (
                record.id, store, file, state, record.scope, record.project_key, record.memory_type,
                record.memory_class, record.authority, record.lifecycle, record.title,
                summary, "\n".join(selectors.tasks),
                record.version, record.created_at, record.updated_at, record_json(record, state),
                compile_patterns(selectors.paths), word_set(selectors.operations),
                word_set(selectors.phases), outcome_counts(record), record.updated_at,
                len(record.text), len(record.title) + len(summary), " ".join(record.conflicts_with),
            ),
        )  # fmt: skip
        self.connection.execute(
            "INSERT INTO record_texts(record, body, terms) VALUES(?, ?, ?)",
            (cursor.lastrowid, record.text, terms),
        )
        self.connection.executemany(
            "INSERT INTO path_anchors(record, anchor) VALUES(?, ?)",
            [(cursor.lastrowid, anchor) for anchor in path_anchors(selectors.paths)],
        )
        if self.has_fts:
            # The FTS row shares the record row's rowid, so it can be found without a scan.
            self.connection.execute(
                "INSERT INTO records_fts(rowid, title, summary, body, tasks, terms) VALUES(?, ?, ?, ?, ?, ?)",
                (
                    cursor.lastrowid,
                    record.title,
                    summary,
                    record.text,
                    keyword_terms,
                    terms,
                ),
            )

    def drop_record(self, record_id: str) -> None:
        row = self.connection.execute("SELECT rowid FROM records WHERE id = ?", (record_id,)).fetchone()
        if row is None:
            return
        self.connection.execute("DELETE FROM records WHERE rowid = ?", (row[0],))
        self.connection.execute("DELETE FROM path_anchors WHERE record = ?", (row[0],))
        self.connection.execute("DELETE FROM record_texts WHERE record = ?", (row[0],))
        if self.has_fts:
            self.connection.execute("DELETE FROM records_fts WHERE rowid = ?", (row[0],))

    def is_forgotten(self, record_id: str) -> bool:
        row = self.connection.execute("SELECT 1 FROM forgotten_ids WHERE id = ?", (record_id,)).fetchone()
        return row is not None

    def record(self, record_id: str) -> IndexedRecord | None:
        row = self.connection.execute(
            "SELECT id, store, file, state, json FROM records WHERE id = ?", (record_id,)
        ).fetchone()
        return None if row is None else IndexedRecord(*row)

    def profile_entries(self, store: str) -> list[tuple[str, str, str, str, str, str]]:
        """(id, title, body, memory_type, authority, lifecycle) of the live, current records, oldest first."""
        rows = self.connection.execute(
            "SELECT r.id, r.title, t.body, r.memory_type, r.authority, r.lifecycle"
            " FROM records r JOIN record_texts t ON t.record = r.rowid"
            " WHERE r.store = ? AND r.state = 'live' AND r.lifecycle != 'superseded'"
            " ORDER BY r.created_at, r.id",
            (store,),
        )
        return [tuple(row) for row in rows]

    def next_of_type(self, store: str, record: Record) -> str | None:
        """The id of the record that follows `record` among those of its type, in
        profile_entries' order; None when it comes last."""
        row = self.connection.execute(
            "SELECT id FROM records WHERE store = ? AND state = 'live' AND lifecycle != 'superseded'"
            " AND memory_type = ? AND (created_at > ? OR (created_at = ? AND id > ?))"
            " ORDER BY created_at, id LIMIT 1",
            (store, record.memory_type, record.created_at, record.created_at, record.id),
        ).fetchone()
        return None if row is None else str(row[0])

    def same_text(self, store: str, text: str) -> list[IndexedRecord]:
        rows = self.connection.execute(
            "SELECT r.id, r.store, r.file, r.state, r.json"
            " FROM records r JOIN record_texts t ON t.record = r.rowid"
            " WHERE r.store = ? AND r.state = 'live' AND t.body = ?",
            (store, text.strip("\n")),
        )
        return [IndexedRecord(*row) for row in rows]

    def similar(self, stores: Sequence[str], text: str, limit: int = 25) -> list[bytes]:
        """The live, current records of `stores` that share words with `text`, closest first
        (BM25 over the indexed terms), as pieces of one JSON array.  Without FTS5, every
        live record of those stores: the caller compares them all."""
        from comet_git.matching.text import fts_query  # the same tokens the records were indexed with

        clauses = [_in_clause("r.store", stores), "r.state = 'live'", "r.lifecycle != 'superseded'"]
        params: list[object] = [*stores]
        order = "r.id"
        query = fts_query(text)
        if query is None:
            return [b"[]"]
        if self.has_fts:
            sql = (
                "SELECT CAST(r.json AS BLOB) FROM records_fts f JOIN records r ON r.rowid = f.rowid"
                f" WHERE records_fts MATCH ? AND {' AND '.join(clauses)} ORDER BY bm25(records_fts) LIMIT ?"
            )
            rows = self.connection.execute(sql, [query, *params, limit]).fetchall()
        else:
            sql = f"SELECT CAST(r.json AS BLOB) FROM records r WHERE {' AND '.join(clauses)} ORDER BY {order}"
            rows = self.connection.execute(sql, params).fetchall()
        return [b"[", b",".join(row[0] for row in rows), b"]"]

    def records_in(self, store: str) -> list[IndexedRecord]:
        rows = self.connection.execute(
            "SELECT id, store, file, state, json FROM records WHERE store = ? ORDER BY id", (store,)
        )
        return [IndexedRecord(*row) for row in rows]

    def select(self, stores: Sequence[str], where: RecordFilter, page: Page | None = None) -> list[bytes]:
        """The matching records as pieces of one JSON array (UTF-8; b"".join them),
        project scope first, then by type and recency; with a text, best match first;
        with `page`, only those (offset, limit) of them.

        One query per store, so that the (store, state, memory_type, updated_at)
        index delivers rows in order without sorting megabytes of JSON."""
        pieces = [b"["]
        if where.text and where.text.strip():
            pieces += self._select_ranked(stores, where, page)
        else:
            offset, limit = page or (0, -1)  # SQLite: LIMIT -1 is no limit
            for store in sorted(stores, key=lambda name: name == "global"):
                if limit == 0:
                    break
                if offset:
                    size = self.count([store], where)
                    if offset >= size:  # the page starts in the next store
                        offset -= size
                        continue
                found = self._select_store(store, where, (offset, limit))
                pieces += found
                offset = 0
                limit = limit if limit < 0 else limit - len(found)
        if len(pieces) > 1:
            pieces[-1] = pieces[-1][:-1]  # each record comes with a trailing comma
        pieces.append(b"]")
        return pieces

    def count(self, stores: Sequence[str], where: RecordFilter) -> int:
        """How many records `select` would give without a page."""
        return sum(row[-1] for row in self.tally(stores, where))

    def tally(self, stores: Sequence[str], where: RecordFilter) -> list[tuple[str, str, str, str, str, int]]:
        """How many of the matching records there are by (scope, memory type, memory class,
        lifecycle, authority): a status page counts ten thousand records without reading one."""
        clauses, params = self._clauses(where)
        joined, head = "", list[object]()
        if where.text and where.text.strip():
            joined, head, hits, hit_params = self._text_match(where.text)
            clauses.append(f"({' OR '.join(hits) or '0'})")
            params += hit_params
        # Grouped in the order of records_tally, so that SQLite counts as it reads the index
        # (no temporary b-tree); the stores and states are summed up here.
        sql = (
            "SELECT r.scope, r.memory_type, r.memory_class, r.lifecycle, r.authority, count(*)"
            f" FROM records r{_conflicting_index(where)}{joined}"
            f" WHERE {_in_clause('r.store', stores)} AND {' AND '.join(clauses)}"
            " GROUP BY r.store, r.state, r.lifecycle, r.scope, r.memory_type, r.memory_class, r.authority"
        )
        summed: Counter[tuple[str, str, str, str, str]] = Counter()
        for *fields, count in self.connection.execute(sql, [*head, *stores, *params]):
            summed[tuple(fields)] += count
        return [(*fields, count) for fields, count in summed.items()]

    def _clauses(self, where: RecordFilter) -> tuple[list[str], list[object]]:
        clauses = [_in_clause("r.state", where.states)]
        params: list[object] = [*where.states]
        if not where.include_superseded:
            clauses.append("r.lifecycle != 'superseded'")
        if where.conflicting:
            clauses.append("r.conflicts_with != ''")
        for column, values in (
            ("r.id", where.ids),
            ("r.memory_type", where.memory_types),
            ("r.lifecycle", where.lifecycles),
            ("r.memory_class", where.memory_classes),
            ("r.authority", where.authorities),
        ):
            if values:
                clauses.append(_in_clause(column, values))
                params.extend(values)
        return clauses, params

    def _select_store(self, store: str, where: RecordFilter, page: Page) -> list[bytes]:
        clauses, params = self._clauses(where)
        sql = (
            f"SELECT CAST(r.json || ',' AS BLOB) FROM records r{_conflicting_index(where)}"
            " WHERE r.store = ? AND "
            + " AND ".join(clauses)
            + " ORDER BY r.memory_type, r.updated_at DESC, r.id LIMIT ? OFFSET ?"
        )
        # Bytes, written out piece by piece: decoding and joining ten thousand strings,
        # some of them Chinese, widens megabytes to UCS-4 and costs more than the query.
        return [row[0] for row in self.connection.execute(sql, [store, *params, page[1], page[0]]).fetchall()]

    def _select_ranked(self, stores: Sequence[str], where: RecordFilter, page: Page | None) -> list[bytes]:
        """The records that contain any word of the text, best first: most query words, then BM25
        (FTS5, over the words as typed and their stems), then the most recent.  Requiring every
        word found nothing when one word was missing.

        Words in scripts without spaces (Chinese, Japanese) are matched as substrings, since
        unicode61 keeps a whole run of them as one token; so is every word without FTS5."""
        assert where.text is not None
        clauses, params = self._clauses(where)
        joined, head, hits, hit_params = self._text_match(where.text)
        substring_hits = [hit for hit in hits if hit == _SUBSTRING_HIT]
        order = [f"({' + '.join(substring_hits)}) DESC"] if substring_hits else []
        order += ["coalesce(m.score, 0)"] if joined else []
        offset, limit = page or (0, -1)
        sql = (
            f"SELECT CAST(r.json || ',' AS BLOB) FROM records r{joined} WHERE {_in_clause('r.store', stores)}"
            f" AND {' AND '.join(clauses)} AND ({' OR '.join(hits) or '0'})"
            f" ORDER BY {', '.join([*order, 'r.updated_at DESC', 'r.id'])} LIMIT ? OFFSET ?"
        )
        substring_params = hit_params[: len(substring_hits) * 4]
        all_params = [*head, *stores, *params, *hit_params, *substring_params, limit, offset]
        return [row[0] for row in self.connection.execute(sql, all_params).fetchall()]

    def _text_match(self, text: str) -> tuple[str, list[object], list[str], list[object]]:
        """How a text search matches: (the join of the FTS5 match, its parameter, the clauses
        of which any must hold, their parameters)."""
        words = list(dict.fromkeys(word.lower() for word in re.split(r"\s+", text.strip()) if word))
        fts_words = [w for w in words if self.has_fts and _is_fts_word(w)]
        substring_words = [word for word in words if word not in fts_words]
        fts_match = self._fts_match(fts_words)
        joined = (
            " LEFT JOIN (SELECT rowid, bm25(records_fts) AS score FROM records_fts WHERE records_fts MATCH ?)"
            " m ON m.rowid = r.rowid"
            if fts_match
            else ""
        )
        hits = [_SUBSTRING_HIT for _ in substring_words] + (["(m.rowid IS NOT NULL)"] if fts_match else [])
        hit_params: list[object] = [value for word in substring_words for value in [word] * 4]
        return joined, [fts_match] if fts_match else [], hits, hit_params

    @staticmethod
    def _fts_match(words: Sequence[str]) -> str | None:
        """Any of `words` as typed (a prefix, in any column) or as its stem (`pins` finds "pin");
        not through the director's concepts: a listing names what it lists by its own words."""
        if not words:
            return None
        from comet_git.matching.text import slots  # the stems the records were indexed with

        typed = ['"' + word.replace('"', '""') + '"*' for word in words]
        stems = [f'"{stem}"' for stem in dict.fromkeys(slot.token for slot in slots(" ".join(words)))]
        return " OR ".join(typed) + (f" OR terms : ({' OR '.join(stems)})" if stems else "")

    def counts(self, stores: Sequence[str]) -> list[tuple[str, str, str, str, int]]:
        sql = (
            "SELECT store, state, lifecycle, memory_type, count(*) FROM records WHERE "
            + _in_clause("store", stores)
            + " GROUP BY store, state, lifecycle, memory_type"
        )
        return [tuple(row) for row in self.connection.execute(sql, list(stores))]

    def store_of(self, record_id: str) -> str | None:
        row = self.connection.execute("SELECT store FROM records WHERE id = ?", (record_id,)).fetchone()
        if row is None:
            row = self.connection.execute(
                "SELECT store FROM forgotten_ids WHERE id = ?", (record_id,)
            ).fetchone()
        return None if row is None else str(row[0])

    def forget_id(self, store: str, record_id: str) -> None:
        self.connection.execute(
            "INSERT OR REPLACE INTO forgotten_ids(id, store) VALUES(?, ?)", (record_id, store)
        )

    def clear_forgotten_id(self, record_id: str) -> None:
        self.connection.execute("DELETE FROM forgotten_ids WHERE id = ?", (record_id,))

    # -- invalid files -------------------------------------------------------

    def set_invalid(self, store: str, name: str, line: int | None, error: str) -> None:
        self.connection.execute(
            "INSERT OR REPLACE INTO invalid(store, name, line, error) VALUES(?, ?, ?, ?)",
            (store, name, line, error),
        )

    def clear_invalid(self, store: str, name: str) -> None:
        self.connection.execute("DELETE FROM invalid WHERE store = ? AND name = ?", (store, name))

    def invalid_files(self, stores: Iterable[str]) -> list[InvalidFile]:
        stores = list(stores)
        sql = (
            "SELECT store, name, line, error FROM invalid WHERE "
            + _in_clause("store", stores)
            + " ORDER BY store, name"
        )
        return [InvalidFile(*row) for row in self.connection.execute(sql, stores)]


def _conflicting_index(where: RecordFilter) -> str:
    """The few records linked as conflicting are found by their partial index: without
    statistics, SQLite would rather walk the whole store in order."""
    return " INDEXED BY records_conflicting" if where.conflicting else ""


def _digest_key(store: str, kind: str) -> str:
    return f"rows:{store}:{kind}"


def outcome_counts(record: Record) -> str:
    """The outcome counts ranking needs, as "used-successfully ignored corrected failure"."""
    if record.application is None:
        return ""
    counts = record.application
    names = ("used-successfully", "ignored", "corrected", "contributed-to-failure")
    return " ".join(str(counts.count(name)) for name in names)


def word_set(values: Sequence[str]) -> str:
    """',edit,commit,': lowercase words a SQL instr() can look for (selectors match case-insensitively)."""
    return "," + ",".join(value.lower() for value in values) + "," if values else ""


# A word found as a substring of a record's title, summary, tasks or text (1) or not (0).
_SUBSTRING_HIT = (
    "(instr(lower(r.title), ?) > 0 OR instr(lower(r.summary), ?) > 0 OR instr(lower(r.tasks), ?) > 0"
    " OR r.rowid IN (SELECT record FROM record_texts WHERE instr(lower(body), ?) > 0))"
)


def _is_fts_word(word: str) -> bool:
    return all(ord(char) < 0x2E80 for char in word) and any(char.isalnum() for char in word)


def _in_clause(column: str, values: Sequence[object]) -> str:
    if not values:
        return "0"
    return f"{column} IN ({', '.join('?' for _ in values)})"


def _connect(path: Path, memory_map: bool = True) -> sqlite3.Connection:
    created = not path.exists()
    connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    if created:
        os.chmod(path, FILE_MODE)
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute("PRAGMA secure_delete = ON")
    if memory_map:  # see Index.open
        connection.execute("PRAGMA mmap_size = 268435456")
    # The default page cache (2 MB), even for the director, which reads ~350 of its ~2,400 pages
    # twice: the fresh memory of a larger cache costs it more (page faults, zeroing) than the re-reads.
    return connection


def _create_schema(connection: sqlite3.Connection) -> None:
    connection.executescript(_TABLES)
    has_fts = fts5_available(connection)
    if has_fts:
        connection.execute(_FTS_TABLE)
        # Document frequencies of the search terms, for the director's idf weights.
        connection.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS records_vocab USING fts5vocab(records_fts, 'col')"
        )
    connection.executemany(
        "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)",
        [("fts5", "1" if has_fts else "0"), ("tokenizer", tokenizer_digest())],
    )
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _same_tokenizer(connection: sqlite3.Connection) -> bool:
    """Whether the index's terms were made by this tokenizer (text.tokenizer_digest)."""
    row = connection.execute("SELECT value FROM meta WHERE key = 'tokenizer'").fetchone()
    return row is not None and row[0] == tokenizer_digest()


def _remove_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(path) + suffix)


def build_fresh(path: Path) -> Index:
    """Open a brand-new index at `path` (any leftover file there is removed first).

    Marked fresh: a record is put once, so there is no earlier row to look for."""
    _remove_database(path)
    index = Index.open(path)
    index.fresh = True
    return index


def swap_in(new_path: Path, live_path: Path) -> None:
    """Replace the live index by the freshly built one in one rename.

    The caller holds the exclusive index lock, so no connection is open on the
    old file; its WAL and shared-memory files are removed first because SQLite
    would otherwise replay the old WAL into the new database.
    """
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(live_path) + suffix)
    os.replace(new_path, live_path)
    fsync_dir(live_path.parent)


SQLITE_FULL = 13
SQLITE_IOERR = 10
LOW_SPACE_BYTES = 1 << 20  # below this, an I/O error of SQLite is taken for a full disk


def out_of_space(path: Path, error: sqlite3.Error) -> bool:
    """Whether SQLite failed for want of disk space (SQLITE_FULL, or an I/O error, e.g. of
    its shared-memory file, on a disk with next to nothing left): not a damaged index."""
    code = (getattr(error, "sqlite_errorcode", None) or 0) & 0xFF
    if code == SQLITE_FULL or "disk is full" in str(error):
        return True
    if code != SQLITE_IOERR and "disk I/O error" not in str(error):
        return False
    try:
        stats = os.statvfs(path.parent)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < LOW_SPACE_BYTES


# Index files found sound, by path: the state of the database and its WAL when they were.
_FOUND_SOUND: dict[str, tuple[tuple[int, int, int] | None, ...]] = {}


def check_integrity(path: Path) -> str | None:
    """None when the index file is sound, else what is wrong with it.

    PRAGMA quick_check reads every page (80 ms at 10,000 records): a process that asks
    again (the Dashboard, at each overview) is answered from the last check while neither
    the database nor its WAL changed since."""
    if not path.exists():
        return "the index does not exist yet"
    state = _file_states(path)
    if _FOUND_SOUND.get(str(path)) == state:
        return None
    problem = _checked(path)
    if problem is None and state[0] is not None:
        _FOUND_SOUND[str(path)] = state
    return problem


def _file_states(path: Path) -> tuple[tuple[int, int, int] | None, ...]:
    states: list[tuple[int, int, int] | None] = []
    for suffix in ("", "-wal"):
        try:
            stat = os.stat(str(path) + suffix)
        except FileNotFoundError:
            states.append(None)
            continue
        states.append((stat.st_ino, stat.st_size, stat.st_mtime_ns))
    return tuple(states)


def _checked(path: Path) -> str | None:
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = connection.execute("PRAGMA quick_check").fetchone()[0]
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            tokenized = version != SCHEMA_VERSION or _same_tokenizer(connection)
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        return f"unreadable: {error}"
    if result != "ok":
        return f"damaged: {result}"
    if version != SCHEMA_VERSION:
        return f"written by another version (schema {version}, expected {SCHEMA_VERSION})"
    if not tokenized:
        return "its search terms were made by another tokenizer (another vocabulary or stemmer)"
    return None


def index_leftovers(index_path: Path) -> list[Path]:
    """What a killed repair left: its half-built index and that index's WAL, which may hold the
    text of any record (its lock file holds nothing)."""
    found = index_path.parent.glob(index_path.name + ".rebuild*")
    return sorted(path for path in found if not path.name.endswith(".open-lock"))


def remove_index_leftovers(index_path: Path) -> None:
    """index_leftovers, removed.  The caller holds the index lock, so no repair is running."""
    for leftover in index_leftovers(index_path):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
