"""The Local provider: the provider contract over the Markdown files under COMET_HOME."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import sqlite3
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from comet_git.errors import (
    BadOptionError,
    CometError,
    ConcurrentEditError,
    InvalidInputError,
    NotFoundError,
    OtherProjectError,
    RecordFormatError,
    StoreError,
)
from comet_git.index import LISTED_KINDS, Index, IndexedRecord, RecordFilter, out_of_space
from comet_git.looks import forget_look, looked_digests, note_looked, start_looking
from comet_git.provider import (
    Amend,
    Change,
    ChangeResult,
    Correct,
    Forget,
    Import,
    InvalidFileReport,
    Query,
    QueryResult,
    RecordOutcome,
    RecordView,
    Remember,
    Rollback,
    StatusReport,
    StoreStatus,
)
from comet_git.provider.freshness import folder_marks, marks_key, scanned_key
from comet_git.records.model import (
    AUTHORITIES,
    MAX_TEXT,
    Evidence,
    Record,
    Selectors,
    default_title,
    parse_record_mapping,
    utc_now,
)
from comet_git.store import Home, ScopeStore, all_or_nothing, file_lock, write_failure

if TYPE_CHECKING:
    from comet_git.provider.candidates import Placements, Selection, TaskRequest
    from comet_git.provider.sync import Scan
    from comet_git.provider.writes import StoreWriter

FULL_SCAN_SECONDS = 60.0  # the hot path rescans every file at most this often (in the background)
VERIFIED_EXTRA = 8  # beyond --max-entries: the best candidates whose files are checked by stat


def refresh_in_background(home: Home, project_key: str | None) -> None:
    """Start a detached full refresh of the visible stores.  Never raises."""
    module = ["-m", "comet_git.provider.background", *([project_key] if project_key else [])]
    env = {**os.environ, "COMET_HOME": str(home.root)}
    with contextlib.suppress(OSError, NotImplementedError):
        if sys.version_info >= (3, 11) and hasattr(os, "posix_spawn"):
            # What the Popen below does, without importing subprocess (some 13 ms with locale,
            # signal and threading), which the agent's hot path would pay whenever the last
            # full scan is a minute old.  -P: the repository (the current directory) must
            # never shadow the package; descriptors are not inherited (Python and SQLite
            # open theirs close-on-exec).
            devnull = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
            os.posix_spawn(
                sys.executable, [sys.executable, "-P", *module], env, file_actions=devnull, setsid=True
            )
            return
    import subprocess

    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, *module],
            cwd=home.root,  # not the repository: its own files must never shadow the package
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=env,
        )


# The source of a record built from command-line options (else a file and line, or a delta).
COMMAND_LINE = "<command line>"

# Which command-line flag sets which record key, for error messages.
FLAG_OF_KEY = {
    "memoryType": "--type",
    "memoryClass": "--class",
    "paths": "--path",
    "tasks": "--task",
    "operations": "--operation",
    "phases": "--phase",
    "title": "--title",
    "summary": "--summary",
    "scope": "--scope",
    "authority": "authority",
}


def default_class(scope: str) -> str:
    return "project-agreement" if scope == "project" else "user-preference"


def build_record(
    record_id: str,
    text: str,
    title: str | None,
    store: ScopeStore,
    memory_type: str,
    memory_class: str | None,
    selectors: Selectors | None,
    summary: str | None,
    authority: str,
    evidence: tuple[Evidence, ...],
    *,
    source: str = COMMAND_LINE,
) -> Record:
    """A new record, validated by the one strict parser; bad values name the flag to fix."""
    now = utc_now()
    fields: dict[str, Any] = {
        "id": record_id,
        "title": title if title else default_title(text),
        "summary": summary,
        "scope": store.scope,
        "projectKey": store.project_key,
        "memoryType": memory_type,
        "memoryClass": memory_class or default_class(store.scope),
        "selectors": {k: v for k, v in (selectors or Selectors()).to_json().items() if v} or None,
        "authority": authority,
        "lifecycle": "proven" if authority == "explicit" else "trial",
        "evidence": [{k: v for k, v in e.to_json().items() if v is not None} for e in evidence] or None,
        "version": 1,
        "createdAt": now,
        "updatedAt": now,
    }
    if authority not in AUTHORITIES:
        raise InvalidInputError(f"authority {authority!r} is not one of {', '.join(AUTHORITIES)}")
    return _validated({k: v for k, v in fields.items() if v is not None}, text, source)


def _validated(fields: dict[str, Any], text: str, source: str) -> Record:
    """The record, or an error naming the flag to fix (a BadOptionError for the command line)."""
    error_type = _option_error if source == COMMAND_LINE else _input_error
    if not text.strip():
        raise error_type("--text", "the text is empty", "pass --text with what to remember")
    if len(text) > MAX_TEXT:
        raise error_type(
            "--text",
            f"the text has {len(text):,} characters; a record holds at most {MAX_TEXT:,}",
            "remember one statement in a few sentences: memory is what an agent reads at every task",
        )
    try:
        return parse_record_mapping(fields, text, file=source)
    except RecordFormatError as error:
        flag = FLAG_OF_KEY.get(error.key or "", error.key or "value")
        message = error.message.removeprefix(f"key '{error.key}': ")
        raise error_type(flag, message, error.hint) from None


def _option_error(option: str, message: str, hint: str | None) -> InvalidInputError:
    return BadOptionError(option, message, hint)


def _input_error(option: str, message: str, hint: str | None) -> InvalidInputError:
    return InvalidInputError(f"{option}: {message}", hint=hint)


def store_for_scope(global_store: ScopeStore, project_store: ScopeStore | None, scope: str) -> ScopeStore:
    """The store a change of `scope` goes to, or why there is none."""
    if scope == "global":
        return global_store
    if scope != "project":
        raise InvalidInputError(f"--scope: {scope!r} is not allowed", hint="allowed values: global, project")
    if project_store is None:
        raise CometError(
            "project scope needs a git repository, and this path is not inside one",
            hint="run the command inside a repository (or pass its PATH), or use --scope global",
        )
    return project_store


def missing_record(
    record_id: str, owner: str | None, visible: list[str], *, permanent: bool = False
) -> CometError:
    """Why `record_id` is not among the records found: another project's, forgotten (for good if
    `permanent`), or unknown (`owner`: the store that holds it, live or forgotten, if any)."""
    if owner is not None and owner not in visible:
        return OtherProjectError(
            f"{record_id} belongs to another project ({owner})",
            hint="run the command from that repository, or pass its path",
        )
    if owner is not None and permanent:
        return NotFoundError(
            f"no record {record_id} (it was forgotten permanently; its content no longer exists)",
            hint="remember it again with `comet memory remember` if you still want it",
        )
    forgotten = owner is not None
    return NotFoundError(
        f"no record {record_id}" + (" (it was forgotten)" if forgotten else ""),
        hint="`comet memory list --all` shows the ids you have"
        + (f"; `comet memory rollback --id {record_id}` restores it" if forgotten else ""),
    )


class LocalProvider:
    name = "local"

    def __init__(self, home: Home, project_key: str | None) -> None:
        self.home = home
        self.project_key = project_key

    # -- stores -----------------------------------------------------------------

    @property
    def global_store(self) -> ScopeStore:
        return self.home.global_store

    @property
    def project_store(self) -> ScopeStore | None:
        return self.home.project_store(self.project_key) if self.project_key else None

    def visible_stores(self) -> list[ScopeStore]:
        stores = [self.global_store]
        if self.project_store is not None:
            stores.append(self.project_store)
        return stores

    def store_for_scope(self, scope: str) -> ScopeStore:
        return store_for_scope(self.global_store, self.project_store, scope)

    # -- sessions ---------------------------------------------------------------

    @contextlib.contextmanager
    def _open_index(self, *, memory_map: bool = True) -> Iterator[Index]:
        self.home.ensure()
        with file_lock(self.home.index_path.parent / ".lock", shared=True):
            index = Index.open(self.home.index_path, memory_map=memory_map)
            try:
                yield index
            except sqlite3.DatabaseError as error:
                if out_of_space(self.home.index_path, error):
                    raise write_failure(self.home.index_path, OSError(errno.ENOSPC, "no space")) from error
                if not isinstance(error, sqlite3.OperationalError):
                    raise _damaged(self.home, error) from error
                if "locked" not in str(error) and "busy" not in str(error):
                    raise _damaged(self.home, error) from error
                raise StoreError(
                    f"the index {self.home.index_path} stayed busy: {error}",
                    hint="another comet process held it for a long time; run the command again",
                ) from error
            finally:
                index.close()

    @contextlib.contextmanager
    def session(self) -> Iterator[Index]:
        """An open index, refreshed from the visible stores' files."""
        with self._open_index() as index:
            for store in self.visible_stores():
                self.refresh(index, store, held=False)
            yield index

    @contextlib.contextmanager
    def write_session(self, store: ScopeStore) -> Iterator[StoreWriter]:
        """A writer for `store`: the store locked, the index refreshed and in a transaction."""
        from comet_git.provider.writes import StoreWriter

        with self._open_index() as index:
            store.create()
            with store.lock():
                for visible in self.visible_stores():
                    self.refresh(index, visible, held=visible == store)
                # A write that fails half-way (a full disk) leaves no file of it behind.
                with all_or_nothing(), index.transaction():
                    writer = StoreWriter(index, store)
                    yield writer
                    writer.render_profile()
                # What was written is indexed as written: this command need not list it again.
                note_looked(str(index.path), store.name, _rows_digests(index, store))

    def refresh(self, index: Index, store: ScopeStore, *, held: bool, quick: bool = False) -> list[str]:
        """Bring the index up to date with `store`'s files; returns notes on hand edits taken in.

        `quick` (the agent's hot path) trusts the index when the store's folders and
        profile.md are as the last full scan left them and that scan is recent; an older
        scan is redone in the background, so the agent is served at once.  Within one
        command (freshness.one_look) the folders are listed once."""
        if not store.exists():
            return []
        if quick and self._quick_check(index, store):
            return []
        from comet_git.provider.sync import StoreSync  # not on the hot path

        found, listed = self._scan(index, store)
        if found.clean and store.profile_path.exists():
            if listed:
                self._note_clean_scan(index, store, found)
            note_looked(str(index.path), store.name, _rows_digests(index, store))
            return []
        with contextlib.ExitStack() as stack:
            if not held and not stack.enter_context(store.lock(wait=False)):
                stack.enter_context(store.lock())
                found, _ = self._scan(index, store)  # another process was writing: look again
            with all_or_nothing(), index.transaction():  # a hand edit is taken in whole, or not
                _mend_digests(index, store, found)
                notes = StoreSync(index, store).run(found).notes
            note_looked(str(index.path), store.name, _rows_digests(index, store))
            return notes
        return []

    def _scan(self, index: Index, store: ScopeStore) -> tuple[Scan, bool]:
        """The scan, and whether it listed the folders: not when this command already found
        them as indexed and no other process changed the index's rows since."""
        from comet_git.provider.sync import scan

        folders = [str(store.root), str(store.records_dir), str(store.tombstones_dir)]
        listed = looked_digests(str(index.path), store.name, folders) != _rows_digests(index, store)
        if listed:
            start_looking(folders)
        return scan(index, store, listed=listed), listed

    def _note_clean_scan(self, index: Index, store: ScopeStore, found: Scan) -> None:
        """Remember what a clean full scan saw, writing only what changed: a write on every
        read-only command would leave WAL pages for each process to checkpoint on close."""
        now = time.time()
        wanted = {marks_key(store): folder_marks(store) or ""}
        if now - float(index.get_meta(scanned_key(store)) or 0) > FULL_SCAN_SECONDS / 2:
            wanted[scanned_key(store)] = str(now)
        changes = {key: value for key, value in wanted.items() if index.get_meta(key) != value}
        if changes or found.mended:
            with index.transaction():
                _mend_digests(index, store, found)
                for key, value in changes.items():
                    index.set_meta(key, value)

    def _quick_check(self, index: Index, store: ScopeStore) -> bool:
        marks = folder_marks(store)
        if marks is None or index.get_meta(marks_key(store)) != marks:
            return False
        scanned = float(index.get_meta(scanned_key(store)) or 0)
        if time.time() - scanned > FULL_SCAN_SECONDS:
            refresh_in_background(self.home, self.project_key)
        return True

    def verify_files(self, index: Index, ids: list[str]) -> bool:
        """Whether these records' files are as indexed (a hand edit in place would show here)."""
        roots = {store.name: store.root for store in self.visible_stores()}
        indexed = index.record_files(ids)
        for record_id in ids:
            if record_id not in indexed:
                return False
            store, file, mtime_ns, size, racy = indexed[record_id]
            if store not in roots or mtime_ns is None or racy:
                return False
            try:
                stat = os.stat(os.path.join(roots[store], file))
            except FileNotFoundError:
                return False
            if (mtime_ns, size) != (stat.st_mtime_ns, stat.st_size):
                return False
        return True

    # -- the contract ------------------------------------------------------------

    def query(self, query: Query) -> QueryResult:
        stores = [s for s in self.visible_stores() if s.scope in query.scopes]
        names = [s.name for s in stores]
        if query.task is not None:
            return self._select(query.task, stores, query.every_row, query.placements)
        if query.forgotten_text is not None:
            from comet_git.records.tombstones import forgotten_before

            store = self.store_for_scope(query.forgotten_scope())
            return QueryResult(
                [], [], {}, forgotten=forgotten_before(store, query.forgotten_text, query.forgotten_id)
            )
        if query.export:
            from comet_git.provider.archive import archived_files

            with self.session() as index:  # the files as the index has them: no hand edit half taken in
                invalid = self._invalid(index, stores)
            archive = tuple(item for store in stores for item in archived_files(store))
            return QueryResult([], invalid, {}, archive=archive)
        if query.similar is not None:
            with self.session() as index:
                return QueryResult(index.similar(names, query.similar), [], {})
        states = ("live", "forgotten") if query.include_forgotten else ("live",)
        where = RecordFilter(
            ids=query.ids,
            memory_types=query.memory_types,
            lifecycles=query.lifecycles,
            memory_classes=query.memory_classes,
            authorities=query.authorities,
            states=states,
            text=query.text,
            include_superseded=query.include_superseded or bool(query.ids),
            conflicting=query.conflicting,
        )
        paged = query.limit is not None or query.offset > 0
        page = (max(query.offset, 0), -1 if query.limit is None else max(query.limit, 0)) if paged else None
        with self.session() as index:
            found = index.select(names, where, page)
            tally = tuple(index.tally(names, where)) if query.tally else None
            total = sum(row[-1] for row in tally) if tally is not None else None
            if paged and total is None:
                total = index.count(names, where)
            result = QueryResult(found, self._invalid(index, stores), {}, total=total, tally=tally)
            if query.ids:
                found_ids = {view.id for view in result.records}
                if len(found_ids) < len(set(query.ids)):
                    self._explain_missing(index, query.ids, found_ids, names)
        if query.with_history:
            result.history.update({view.id: self._history(view) for view in result.records})
        return result

    def _select(
        self,
        request: TaskRequest,
        stores: list[ScopeStore],
        every_row: bool,
        placements: Placements | None = None,
    ) -> QueryResult:
        from comet_git.provider.candidates import select

        names = [s.name for s in stores]
        with self._open_index(memory_map=False) as index:

            def selected() -> Selection:
                return select(
                    index.connection,
                    names,
                    request,
                    index.has_fts,
                    everything=every_row,
                    search=index.reader,
                    placements=placements,
                )

            for store in self.visible_stores():
                self.refresh(index, store, held=False, quick=True)
            selection = selected()
            shown = [c.id for c in selection.candidates[: request.max_entries + VERIFIED_EXTRA]]
            if not self.verify_files(index, shown):
                for store in self.visible_stores():
                    forget_look(str(index.path), store.name)  # a file changed since: look again
                    self.refresh(index, store, held=False)
                selection = selected()
            return QueryResult([], self._invalid(index, stores), {}, selection)

    def _explain_missing(self, index: Index, ids: tuple[str, ...], found: set[str], names: list[str]) -> None:
        from comet_git.records import tombstones

        for record_id in ids:
            if record_id not in found:
                owner = index.store_of(record_id)
                stores = {store.name: store for store in self.visible_stores()}
                stone = None
                with contextlib.suppress(OSError, ValueError, KeyError, TypeError):  # a damaged tombstone
                    stone = tombstones.read(stores[owner], record_id) if owner in stores else None
                raise missing_record(record_id, owner, names, permanent=stone is not None and stone.permanent)

    def _history(self, view: RecordView) -> list[dict[str, Any]]:
        from comet_git.records.history import RecordHistory

        data = view.as_dict()
        store = self.store_for_scope(str(data["scope"]))
        entries = [
            {
                "version": old.version,
                "text": old.text,
                "title": old.title,
                "updatedAt": old.updated_at,
                "lifecycle": "superseded",
            }
            for old in RecordHistory(store, view.id).versions()
            if old.version != data["version"]
        ]
        entries.append(
            {
                "version": data["version"],
                "text": data["text"],
                "title": data["title"],
                "updatedAt": data["updatedAt"],
                "lifecycle": data["lifecycle"],
                "current": True,
            }
        )
        return entries

    def _invalid(self, index: Index, stores: list[ScopeStore]) -> list[InvalidFileReport]:
        roots = {s.name: s.root for s in stores}
        return [
            InvalidFileReport(str(roots[item.store] / item.name), item.line, item.error)
            for item in index.invalid_files(roots)
        ]

    def apply(self, change: Change) -> ChangeResult:
        change = without_secrets(change)
        if isinstance(change, Remember):
            return self._remember(change)
        if isinstance(change, Import):
            return self._import(change)
        store = self._store_of(change.id)
        if isinstance(change, Forget) and change.permanent:
            return self._forget_permanently(store, change.id)
        with self.write_session(store) as writer:
            index = writer.index
            if isinstance(change, Correct):
                return self._correct(writer, change)
            if isinstance(change, Forget):
                stone = writer.forget(change.id, permanent=change.permanent)
                return ChangeResult("forgotten", change.id, None, stone.permanent, not stone.permanent)
            if isinstance(change, Amend):
                updated, changed = writer.amend(change)
                return ChangeResult(
                    "amended" if changed else "unchanged", updated.id, _view_of(index, updated.id)
                )
            if isinstance(change, RecordOutcome):
                record = writer.record_outcome(change)
                return ChangeResult("recorded", change.id, _view_of(index, record.id))
            if isinstance(change, Rollback):
                undone, record = writer.rollback(change.id)
                return ChangeResult(
                    "rolled-back", change.id, _view_of(index, record.id), detail=f"undid the last {undone}"
                )
        raise InvalidInputError(f"unknown change {type(change).__name__}")

    def _forget_permanently(self, store: ScopeStore, record_id: str) -> ChangeResult:
        """Forget for good: once this returns, no byte of the content is left under COMET_HOME."""
        with self.write_session(store) as writer:
            stone = writer.forget(record_id, permanent=True)
            index = writer.index
        if index.purge_incomplete and not self._purge_alone():
            # A process other than comet holds a read transaction open, keeping old pages of the
            # index alive: build a new index from the files (which no longer hold the content)
            # and swap it in.
            from comet_git.provider.repair import repair

            try:
                repair(self.home, check_only=False)
            except CometError as error:
                raise StoreError(
                    f"{record_id} is forgotten, but the index may still hold its text: {error.message}",
                    hint="run `comet repair` once the other comet processes are done",
                ) from error
        return ChangeResult("forgotten", record_id, None, stone.permanent, not stone.permanent)

    def _purge_alone(self) -> bool:
        """Empty the index's WAL once no other comet process has the index open (they hold its
        lock shared while they read); whether that worked."""
        with file_lock(self.home.index_path.parent / ".lock"):
            index = Index.open(self.home.index_path)
            try:
                return index.checkpoint_truncate()
            finally:
                index.close()

    def _store_of(self, record_id: str) -> ScopeStore:
        """Which visible store holds `record_id` (live or forgotten)."""
        with self.session() as index:
            owner = index.store_of(record_id)
        for store in self.visible_stores():
            if store.name == owner:
                return store
        if owner is not None:
            raise OtherProjectError(
                f"{record_id} belongs to another project ({owner})",
                hint="run the command from that repository, or pass its path",
            )
        raise NotFoundError(f"no record {record_id}", hint="`comet memory list --all` shows the ids you have")

    def _remember(self, change: Remember) -> ChangeResult:
        store = self.store_for_scope(change.scope)
        with self.write_session(store) as writer:
            index = writer.index
            if change.id is not None and writer.id_taken(change.id):
                return ChangeResult(
                    "unchanged", change.id, _view_of(index, change.id), detail=f"{change.id} exists already"
                )
            record = build_record(
                change.id or writer.unique_id(),
                change.text,
                change.title,
                store,
                change.memory_type,
                change.memory_class,
                change.selectors,
                change.summary,
                change.authority,
                change.evidence,
            )
            duplicate = _same_statement(index, store, record)
            if duplicate is not None:
                return ChangeResult(
                    "unchanged",
                    duplicate.id,
                    _view(duplicate),
                    detail="the same statement is already remembered",
                )
            writer.create(record)
            return ChangeResult("created", record.id, _view_of(index, record.id))

    def _import(self, change: Import) -> ChangeResult:
        from comet_git.provider.archive import check_paths, restore, sound_files

        store = self.store_for_scope(change.scope)
        check_paths(change.files, change.id, store.project_key)
        files = sound_files(change.files, change.id, store.scope)
        with self._open_index() as index:
            store.create()
            with store.lock():
                for visible in self.visible_stores():
                    self.refresh(index, visible, held=visible == store)
                owner = index.store_of(change.id)
                if owner is not None and owner != store.name:
                    raise InvalidInputError(f"import: {change.id} is already used in {owner}")
                written = restore(store, files)
                if written:
                    forget_look(str(index.path), store.name)  # files the index does not have yet
                    self.refresh(index, store, held=True)
            return ChangeResult("imported" if written else "unchanged", change.id, _view_of(index, change.id))

    def _correct(self, writer: StoreWriter, change: Correct) -> ChangeResult:
        _, _, _, current = writer.live_file(change.id)
        updated, changed = writer.correct(change.id, corrected_fields(current, change))
        return ChangeResult(
            "corrected" if changed else "unchanged", updated.id, _view_of(writer.index, updated.id)
        )

    def status(self) -> StatusReport:
        from comet_git.index import check_integrity

        problem = check_integrity(self.home.index_path) if self.home.index_path.exists() else None
        stores: list[StoreStatus] = []
        conflicts: list[dict[str, Any]] = []
        with self.session() as index:
            for store in self.visible_stores():
                stores.append(self._store_status(index, store))
            has_fts = index.has_fts
        for store_status in stores:
            conflicts.extend(
                {"kind": "duplicate-id", "file": item.file, "line": item.line, "error": item.error}
                for item in store_status.invalid
                if "already used by" in item.error
            )
        return StatusReport(
            provider=self.name,
            home=str(self.home.root),
            index={"path": str(self.home.index_path), "fts5": has_fts, "problem": problem},
            stores=stores,
            conflicts=conflicts,
        )

    def _store_status(self, index: Index, store: ScopeStore) -> StoreStatus:
        lifecycles: dict[str, int] = {}
        types: dict[str, int] = {}
        forgotten = 0
        for _, state, lifecycle, memory_type, count in index.counts([store.name]):
            if state == "forgotten":
                forgotten += count
                continue
            lifecycles[lifecycle] = lifecycles.get(lifecycle, 0) + count
            types[memory_type] = types.get(memory_type, 0) + count
        return StoreStatus(
            name=store.name,
            path=str(store.root),
            exists=store.exists(),
            counts_by_lifecycle=lifecycles,
            counts_by_type=types,
            forgotten=forgotten + _permanent_count(store),
            invalid=self._invalid(index, [store]),
            profile=str(store.profile_path),
        )


def _rows_digests(index: Index, store: ScopeStore) -> tuple[str, ...]:
    return tuple(index.rows_digest(store.name, kind) for kind in LISTED_KINDS)


def _mend_digests(index: Index, store: ScopeStore, found: Scan) -> None:
    """Digests of the rows found wrong (an index of an older comet, a killed command): set to
    those of the listings found equal to the rows.  The caller holds a transaction."""
    for kind, (seen, digest) in found.mended.items():
        index.reset_rows_digest(store.name, kind, seen, digest)


def corrected_fields(current: Record, change: Correct) -> dict[str, Any]:
    """What a person's correction changes in `current` (Record field names), validated; refused
    when it was made on an older version, or the record is superseded."""
    if change.base_version is not None and current.version != change.base_version:
        raise ConcurrentEditError(
            f"{change.id} is at version {current.version} now, not {change.base_version}:"
            " another correction came first",
            hint=f"`comet memory show --id {change.id}` shows it; edit that version",
        )
    if current.lifecycle == "superseded":
        replacement = ", ".join(current.superseded_by) or "its replacement"
        raise CometError(
            f"{change.id} is superseded: correcting it would not bring it back into use",
            hint=f"correct {replacement} instead, or `comet memory rollback --id {change.id}`",
        )
    selectors = Selectors(
        paths=current.selectors.paths if change.paths is None else change.paths,
        tasks=current.selectors.tasks if change.tasks is None else change.tasks,
        operations=current.selectors.operations if change.operations is None else change.operations,
        phases=current.selectors.phases if change.phases is None else change.phases,
    )
    fields = current.front_matter()
    title_was_derived = current.title == default_title(current.text)
    new_title = change.title or (
        default_title(change.text) if change.text and title_was_derived else current.title
    )
    fields.update(
        {
            "title": new_title,
            "summary": change.summary if change.summary is not None else current.summary,
            "memoryType": change.memory_type or current.memory_type,
            "memoryClass": change.memory_class or current.memory_class,
            "selectors": {k: v for k, v in selectors.to_json().items() if v} or None,
            "authority": "explicit",
            "lifecycle": "proven" if current.lifecycle == "trial" else current.lifecycle,
        }
    )
    candidate = _validated(
        {k: v for k, v in fields.items() if v is not None}, change.text or current.text, COMMAND_LINE
    )
    return {
        "title": candidate.title,
        "summary": candidate.summary,
        "memory_type": candidate.memory_type,
        "memory_class": candidate.memory_class,
        "selectors": candidate.selectors,
        "authority": candidate.authority,
        "lifecycle": candidate.lifecycle,
        "text": candidate.text,
    }


def without_secrets(change: Change) -> Change:
    """What a person, an agent or a learning step asks to store is redacted like the journal: no
    record, history version, profile.md or index row ever holds the secret."""
    from comet_git.journal.redact import redact_text

    if isinstance(change, Remember):
        return secrets_hidden(change)
    if isinstance(change, Correct):
        return secrets_hidden(change)
    if isinstance(change, Amend):
        return change._replace(
            fields=tuple((name, _value_hidden(name, value)) for name, value in change.fields)
        )
    if isinstance(change, RecordOutcome):
        return change._replace(why_applied=tuple(redact_text(why) for why in change.why_applied))
    return change


_Redacted = TypeVar("_Redacted", Remember, Correct, Record)


def secrets_hidden(item: _Redacted) -> _Redacted:
    """`item` with the secrets of its text, title, summary, path and task selectors and evidence
    redacted (operations and phases are names from a fixed list)."""
    fields: dict[str, Any] = {
        name: _value_hidden(name, getattr(item, name)) for name in ("text", "title", "summary")
    }
    if isinstance(item, Correct):
        fields.update(  # None: the correction leaves them as they are
            paths=None if item.paths is None else _each_hidden(item.paths, glob=True),
            tasks=None if item.tasks is None else _each_hidden(item.tasks),
        )
    else:
        fields["evidence"] = _value_hidden("evidence", item.evidence)
        fields["selectors"] = _value_hidden("selectors", item.selectors)
    return item._replace(**fields)


def _value_hidden(name: str, value: Any) -> Any:
    """A record field's value (as a Record holds it) with its secrets redacted: the texts, the
    path and task selectors, every string of the evidence.  Other fields (ids, names from fixed
    lists, counts, times) are left for the strict parser to judge."""
    from comet_git.journal.redact import redact_text

    if isinstance(value, str) and name in ("text", "title", "summary"):
        return redact_text(value)
    if name == "selectors" and isinstance(value, Selectors):
        return value._replace(paths=_each_hidden(value.paths, glob=True), tasks=_each_hidden(value.tasks))
    if name == "evidence" and isinstance(value, tuple):
        return tuple(_evidence_hidden(each) if isinstance(each, Evidence) else each for each in value)
    return value


def _evidence_hidden(evidence: Evidence) -> Evidence:
    from comet_git.journal.redact import redact_text

    return evidence._replace(
        kind=redact_text(evidence.kind),
        summary=redact_text(evidence.summary),
        event=None if evidence.event is None else redact_text(evidence.event),
    )


def _each_hidden(values: tuple[str, ...], *, glob: bool = False) -> tuple[str, ...]:
    """Each value redacted.  A value with a control character is left as it came, for the parser
    to refuse (redact_text would quietly drop the character, and a selector so changed is not
    what was asked for).  With `glob` (path patterns), the pattern's ending (`/**`, `/*`, `**`)
    that a secret's redaction took along is put back: `dir/password=…/**` still matches under it."""
    from comet_git.journal.redact import redact_text

    def hidden(value: str) -> str:
        if not value.isprintable():
            return value
        redacted = redact_text(value)
        ending = _GLOB_ENDING.search(value) if glob and redacted != value else None
        return redacted + ending.group() if ending and not redacted.endswith(ending.group()) else redacted

    return tuple(hidden(value) for value in values)


_GLOB_ENDING = re.compile(r"/?\*\*?(?:/\*\*?)*\Z")  # "/**", "/*", "**", "/**/*"


def _permanent_count(store: ScopeStore) -> int:
    """Permanently forgotten records leave only a tombstone, which the index does not list."""
    if not store.tombstones_dir.is_dir():
        return 0
    return sum(1 for path in store.tombstones_dir.glob("*.json") if not path.with_suffix(".md").exists())


def _damaged(home: Home, error: sqlite3.DatabaseError) -> StoreError:
    return StoreError(
        f"the index {home.index_path} is damaged: {error}",
        hint="run `comet repair` to rebuild it from your Markdown records (nothing is lost)",
    )


def _view(item: IndexedRecord) -> RecordView:
    return RecordView(item.id, item.state, item.json_text)


def _view_of(index: Index, record_id: str) -> RecordView | None:
    item = index.record(record_id)
    return None if item is None else _view(item)


def _same_statement(index: Index, store: ScopeStore, record: Record) -> IndexedRecord | None:
    """A live record of the same store with the same text and selectors: remembering twice is a no-op."""
    for item in index.same_text(store.name, record.text):
        data = item.as_dict()
        same = data["memoryType"] == record.memory_type and data["authority"] == record.authority
        if same and data["selectors"] == record.selectors.to_json():
            return item  # an explicit statement is never merged into an inferred guess, or back
    return None
