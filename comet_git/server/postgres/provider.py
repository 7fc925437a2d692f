"""The provider contract over PostgreSQL, for one user of the memory service.

The rules are Local's (provider/local.py, provider/writes.py: what a correction changes, what an
outcome does, what a rollback restores); here they write rows instead of files.  Every statement
names the user (`owner`), so a request reaches only that user's rows: another user's ids are
unknown (404).  Each apply is one transaction, and the writes to one store of one user are
serialised by a transaction-scoped advisory lock (as Local serialises them with the store's
lock): remembering the same statement twice at once makes one record, and a correction made on
an old version loses its race with a ConcurrentEditError (409).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from comet_git.errors import CometError, InvalidInputError, NotFoundError, StoreError
from comet_git.index import record_json
from comet_git.matching.text import slots, tokens
from comet_git.provider import (
    TALLIED,
    Amend,
    ArchivedFile,
    Change,
    ChangeResult,
    Correct,
    Forget,
    Import,
    Query,
    QueryResult,
    RecordOutcome,
    RecordView,
    Remember,
    Rollback,
    StatusReport,
    StoreStatus,
    TallyRow,
)
from comet_git.provider.archive import check_paths, sound_files
from comet_git.provider.candidates import Selection, TaskRequest, select_from
from comet_git.provider.local import (
    build_record,
    corrected_fields,
    missing_record,
    store_for_scope,
    without_secrets,
)
from comet_git.provider.writes import (
    amended_version,
    corrected_version,
    outcome_applied,
    refuse_forgetting_again,
    restored_version,
)
from comet_git.records.codec import parse_record, render_record, update_record_text
from comet_git.records.history import Action, action_line, appended, last_undoable
from comet_git.records.model import Record, new_record_id, utc_now
from comet_git.records.tombstones import Tombstone, content_hash
from comet_git.server.postgres.candidates import PostgresRows
from comet_git.server.postgres.database import unavailable
from comet_git.server.postgres.rows import RECORD_COLUMNS, UNICODE61_WORD, any_of, quoted, record_values
from comet_git.store import ScopeStore

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool


SIMILAR_LIMIT = 25  # as the local index's `similar`
LISTING_ORDER = 'memory_type COLLATE "C", updated_at COLLATE "C" DESC, id COLLATE "C"'
# A word of a listing's text that the full-text search does not split (Chinese, Japanese): found
# as a substring, as the local index finds it.
SUBSTRING_HIT = (
    "(strpos(lower(title), %s) > 0 OR strpos(lower(summary), %s) > 0 OR strpos(lower(tasks), %s) > 0"
    " OR strpos(lower(body), %s) > 0)"
)
WORDS_VECTOR = "to_tsvector('simple', title || ' ' || summary || ' ' || body || ' ' || tasks)"


def snapshot_name(version: int) -> str:
    return f"v{version:04d}.md"


def tombstone_text(stone: Tombstone) -> str:
    return json.dumps(stone.to_json(), indent=2) + "\n"


class PostgresProvider:
    name = "postgres"

    def __init__(self, pool: ConnectionPool[Any], owner: str, project_key: str | None, where: str) -> None:
        self.pool = pool
        self.owner = owner
        self.project_key = project_key
        self.where = where  # the database, for status: postgresql:NAME
        self.global_store = ScopeStore(Path("global"), "global")
        self.project_store = (
            ScopeStore(Path("projects", project_key), "project", project_key) if project_key else None
        )

    def visible_stores(self) -> list[ScopeStore]:
        return [self.global_store, *([self.project_store] if self.project_store else [])]

    def store_for_scope(self, scope: str) -> ScopeStore:
        return store_for_scope(self.global_store, self.project_store, scope)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        import psycopg

        try:
            with self.pool.connection() as connection, connection.transaction():
                yield connection
        except psycopg.errors.QueryCanceled as error:
            raise StoreError(f"the database took too long: {error}", hint="try again") from None
        except psycopg.OperationalError as error:
            raise unavailable(error) from None

    # -- reading -----------------------------------------------------------------

    def _store_of(self, connection: psycopg.Connection[Any], record_id: str) -> str | None:
        """The store that holds `record_id` (live, forgotten or forgotten permanently)."""
        row = connection.execute(
            "SELECT store FROM records WHERE owner = %s AND id = %s"
            " UNION ALL SELECT store FROM tombstones WHERE owner = %s AND id = %s LIMIT 1",
            (self.owner, record_id, self.owner, record_id),
        ).fetchone()
        return None if row is None else str(row[0])

    def _forgotten_for_good(self, connection: psycopg.Connection[Any], record_id: str) -> bool:
        row = connection.execute(
            "SELECT permanent FROM tombstones WHERE owner = %s AND id = %s", (self.owner, record_id)
        ).fetchone()
        return bool(row and row[0])

    def _view(self, connection: psycopg.Connection[Any], record_id: str) -> RecordView | None:
        row = connection.execute(
            "SELECT state, json FROM records WHERE owner = %s AND id = %s", (self.owner, record_id)
        ).fetchone()
        return None if row is None else RecordView(record_id, row[0], row[1])

    def query(self, query: Query) -> QueryResult:
        stores = [s for s in self.visible_stores() if s.scope in query.scopes]
        names = [s.name for s in stores]
        with self._transaction() as connection:
            if query.task is not None:
                return QueryResult([], [], {}, self._select(connection, query.task, names, query.every_row))
            if query.forgotten_text is not None:
                store = self.store_for_scope(query.forgotten_scope())
                return QueryResult(
                    [], [], {}, forgotten=self._forgotten_before(connection, store.name, query)
                )
            if query.export:
                return QueryResult([], [], {}, archive=tuple(self._archive(connection, stores)))
            if query.similar is not None:
                return QueryResult(self._similar(connection, names, query.similar), [], {})
            result = self._listing(connection, names, query)
            if query.ids:
                found = {view.id for view in result.records}
                for record_id in query.ids:
                    if record_id not in found:
                        raise missing_record(
                            record_id,
                            self._store_of(connection, record_id),
                            names,
                            permanent=self._forgotten_for_good(connection, record_id),
                        )
            if query.with_history:
                for view in result.records:
                    result.history[view.id] = self._history(connection, view)
            return result

    def _listing(self, connection: psycopg.Connection[Any], names: list[str], query: Query) -> QueryResult:
        """As LocalProvider's listing (index.Index.select): project scope first, then by type and
        recency; with `text`, the records with any of its words, most words first; a page of them
        (`offset`, `limit`) with the `total`, and the `tally`, counted in the database."""
        states = ["live", "forgotten"] if query.include_forgotten else ["live"]
        clauses = ["owner = %s", "state = ANY(%s)"]
        params: list[Any] = [self.owner, states]
        if not (query.include_superseded or query.ids):
            clauses.append("lifecycle <> 'superseded'")
        if query.conflicting:
            clauses.append("cardinality(conflicts_with) > 0")
        for column, values in (("id", query.ids), ("memory_type", query.memory_types),
                               ("lifecycle", query.lifecycles), ("memory_class", query.memory_classes),
                               ("authority", query.authorities)):  # fmt: skip
            if values:
                clauses.append(f"{column} = ANY(%s)")
                params.append(list(values))
        paged = query.limit is not None or query.offset > 0
        offset, limit = max(query.offset, 0), None if query.limit is None else max(query.limit, 0)
        if query.text and query.text.strip():
            found = self._ranked_listing(connection, names, clauses, params, query.text)
            tally = _tally_of(found) if query.tally else None
            total = len(found) if paged or query.tally else None
            page = found[offset:] if limit is None else found[offset : offset + limit]
            return QueryResult(_array(page), [], {}, total=total, tally=tally)
        tally = None
        if query.tally:
            tally = tuple(
                (str(scope), str(kind), str(klass), str(lifecycle), str(authority), int(count))
                for scope, kind, klass, lifecycle, authority, count in connection.execute(
                    "SELECT scope, memory_type, memory_class, lifecycle, authority, count(*) FROM records"
                    f" WHERE {' AND '.join(clauses)} AND store = ANY(%s)"
                    " GROUP BY scope, memory_type, memory_class, lifecycle, authority",
                    [*params, names],
                )
            )
        total = None
        if tally is not None:
            total = sum(row[-1] for row in tally)
        elif paged:
            row = connection.execute(
                f"SELECT count(*) FROM records WHERE {' AND '.join(clauses)} AND store = ANY(%s)",
                [*params, names],
            ).fetchone()
            total = int(row[0]) if row else 0
        # Project scope first: the global store sorts last.
        rows = connection.execute(
            f"SELECT json FROM records WHERE {' AND '.join(clauses)} AND store = ANY(%s)"
            f" ORDER BY store = 'global', {LISTING_ORDER} OFFSET %s LIMIT %s",
            [*params, names, offset, limit],
        )
        return QueryResult(_array([row[0] for row in rows]), [], {}, total=total, tally=tally)

    def _ranked_listing(
        self, connection: psycopg.Connection[Any], names: list[str], clauses: list[str], params: list[Any],
        text: str,
    ) -> list[str]:  # fmt: skip
        """Any word as typed (a prefix of a word of the record) or as its stem; words of scripts
        without spaces as substrings.  Ordered by how many words were found as substrings, then
        by ts_rank (where the local index orders by BM25), then the most recent."""
        words = list(dict.fromkeys(word.lower() for word in text.split() if word))
        searched = [w for w in words if all(ord(c) < 0x2E80 for c in w) and any(c.isalnum() for c in w)]
        substrings = [w for w in words if w not in searched]
        prefixes = [f"{quoted(lexeme)}:*" for w in searched for lexeme in _simple_words(w)]
        stems = [slot.token for slot in slots(" ".join(searched))]
        hit_count = " + ".join(f"({SUBSTRING_HIT})::int" for _ in substrings)
        hits = [f"({SUBSTRING_HIT})" for _ in substrings]
        substring_params = [value for word in substrings for value in [word] * 4]
        prefix_query = " | ".join(prefixes) or None
        stem_query = any_of(stems)
        if prefix_query:
            hits.append(f"{WORDS_VECTOR} @@ %s::tsquery")
        if stem_query:
            hits.append("terms_vector @@ %s::tsquery")
        if not hits:
            return []
        rank = " + ".join(
            [*([f"ts_rank({WORDS_VECTOR}, %s::tsquery)"] if prefix_query else []),
             *(["ts_rank(terms_vector, %s::tsquery)"] if stem_query else [])]
        )  # fmt: skip
        searches = [q for q in (prefix_query, stem_query) if q]
        sql = (
            f"SELECT json FROM records WHERE {' AND '.join(clauses)} AND store = ANY(%s)"
            f" AND ({' OR '.join(hits)})"
            " ORDER BY "
            + "".join(f"({term}) DESC, " for term in (hit_count, rank) if term)
            + 'updated_at COLLATE "C" DESC, id COLLATE "C"'
        )
        rows = connection.execute(
            sql, [*params, names, *substring_params, *searches, *substring_params, *searches]
        )
        return [row[0] for row in rows]

    def _similar(self, connection: psycopg.Connection[Any], names: list[str], text: str) -> list[bytes]:
        """The live, current records that share tokens with `text`, closest first (ts_rank over the
        same tokens the local index ranks by BM25)."""
        wanted = any_of(tokens(text))
        if wanted is None:
            return [b"[]"]
        rows = connection.execute(
            "SELECT json FROM records WHERE owner = %s AND store = ANY(%s) AND state = 'live'"
            " AND lifecycle <> 'superseded' AND terms_vector @@ %s::tsquery"
            ' ORDER BY ts_rank(terms_vector, %s::tsquery) DESC, id COLLATE "C" LIMIT %s',
            (self.owner, names, wanted, wanted, SIMILAR_LIMIT),
        )
        return [("[" + ",".join(row[0] for row in rows) + "]").encode("utf-8")]

    def _history(self, connection: psycopg.Connection[Any], view: RecordView) -> list[dict[str, Any]]:
        data = view.as_dict()
        rows = connection.execute(
            "SELECT name, text FROM history_files WHERE owner = %s AND id = %s AND name LIKE 'v%%.md'"
            ' ORDER BY name COLLATE "C"',
            (self.owner, view.id),
        )
        entries: list[dict[str, Any]] = []
        for name, text in rows:
            old = parse_record(text, f"history/{view.id}/{name}")
            if old.version != data["version"]:
                entries.append({"version": old.version, "text": old.text, "title": old.title,
                                "updatedAt": old.updated_at, "lifecycle": "superseded"})  # fmt: skip
        current = {key: data[key] for key in ("version", "text", "title", "updatedAt", "lifecycle")}
        entries.append({**current, "current": True})
        return entries

    def _forgotten_before(self, connection: psycopg.Connection[Any], store: str, query: Query) -> bool:
        """As tombstones.forgotten_before: this id, or this statement, was forgotten in `store`."""
        row = connection.execute(
            "SELECT 1 FROM tombstones WHERE owner = %s AND store = %s AND (id = %s OR content_hash = %s)"
            " LIMIT 1",
            (self.owner, store, query.forgotten_id or "", content_hash(query.forgotten_text or "")),
        ).fetchone()
        return row is not None

    def _archive(self, connection: psycopg.Connection[Any], stores: list[ScopeStore]) -> list[ArchivedFile]:
        """Every store's files as Local keeps them (provider/archive.py): records/, history/, tombstones/."""
        found: list[ArchivedFile] = []
        for store in stores:
            found += self._files(connection, store, None)
        return found

    def _files(
        self, connection: psycopg.Connection[Any], store: ScopeStore, record_id: str | None
    ) -> list[ArchivedFile]:
        """The files of `store` (of one record, with `record_id`), in archived_files's order."""
        one = "" if record_id is None else " AND id = %s"
        params = [self.owner, store.name, *([record_id] if record_id else [])]
        paths: list[tuple[str, str]] = [
            (f"records/{rid}.md", text)
            for rid, text in connection.execute(
                f"SELECT id, markdown FROM records WHERE owner = %s AND store = %s AND state = 'live'{one}",
                params,
            )
        ]
        paths += [
            (f"history/{rid}/{name}", text)
            for rid, name, text in connection.execute(
                f"SELECT id, name, text FROM history_files WHERE owner = %s AND store = %s{one}", params
            )
        ]
        paths += [
            (f"tombstones/{rid}.json", text)
            for rid, text in connection.execute(
                f"SELECT id, json FROM tombstones WHERE owner = %s AND store = %s{one}", params
            )
        ]
        paths += [
            (f"tombstones/{rid}.md", text)
            for rid, text in connection.execute(
                "SELECT id, markdown FROM records WHERE owner = %s AND store = %s AND state = 'forgotten'"
                + one,
                params,
            )
        ]
        return [
            ArchivedFile(store.scope, store.project_key, path, text)
            for path, text in sorted(paths, key=lambda item: _walk_order(item[0]))
        ]

    def _select(
        self, connection: psycopg.Connection[Any], request: TaskRequest, names: list[str], everything: bool
    ) -> Selection:
        return select_from(PostgresRows(connection, self.owner), names, request, everything=everything)

    # -- writing -----------------------------------------------------------------

    def apply(self, change: Change) -> ChangeResult:
        change = without_secrets(change)
        with self._transaction() as connection:
            if isinstance(change, Remember):
                return self._remember(connection, change)
            if isinstance(change, Import):
                return self._import(connection, change)
            store = self._locked_store_of(connection, change.id)
            if isinstance(change, Correct):
                current, raw = self._live(connection, store, change.id)
                _, changed = self._correct(connection, store, current, raw, corrected_fields(current, change))
                action = "corrected" if changed else "unchanged"
                return ChangeResult(action, change.id, self._view(connection, change.id))
            if isinstance(change, Forget):
                stone = self._forget(connection, store, change.id, change.permanent)
                return ChangeResult("forgotten", change.id, None, stone.permanent, not stone.permanent)
            if isinstance(change, Amend):
                action = "amended" if self._amend(connection, store, change) else "unchanged"
                return ChangeResult(action, change.id, self._view(connection, change.id))
            if isinstance(change, RecordOutcome):
                self._record_outcome(connection, store, change)
                return ChangeResult("recorded", change.id, self._view(connection, change.id))
            if isinstance(change, Rollback):
                detail = f"undid the last {self._rollback(connection, store, change.id)}"
                return ChangeResult(
                    "rolled-back", change.id, self._view(connection, change.id), detail=detail
                )
        raise InvalidInputError(f"unknown change {type(change).__name__}")

    def _amend(self, connection: psycopg.Connection[Any], store: ScopeStore, change: Amend) -> bool:
        """As Local's: bookkeeping in place, else a new version (from learning); whether it changed."""
        current, raw = self._live(connection, store, change.id)
        updated = amended_version(current, change)
        if updated is None:
            return False
        if change.bookkeeping:
            self._put(connection, store, updated, "live", update_record_text(raw, updated))
        else:
            self._replace_version(connection, store, current, raw, updated, "learning")
        return True

    def _record_outcome(
        self, connection: psycopg.Connection[Any], store: ScopeStore, outcome: RecordOutcome
    ) -> None:
        """Counted in place, or, when it retires the record, a new version kept in history."""
        current, raw = self._live(connection, store, outcome.id)
        updated, retired = outcome_applied(current, outcome)
        if retired:
            self._replace_version(connection, store, current, raw, updated, "outcomes")
        else:
            self._put(connection, store, updated, "live", update_record_text(raw, updated))

    def _lock(self, connection: psycopg.Connection[Any], store: str) -> None:
        """One writer at a time on one store of this user, until the transaction ends."""
        connection.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{self.owner}\n{store}",)
        )

    def _locked_store_of(self, connection: psycopg.Connection[Any], record_id: str) -> ScopeStore:
        owner = self._store_of(connection, record_id)
        for store in self.visible_stores():
            if store.name == owner:
                self._lock(connection, store.name)
                return store
        raise missing_record(record_id, owner, [])  # another project's, or nobody's

    def _live(
        self, connection: psycopg.Connection[Any], store: ScopeStore, record_id: str
    ) -> tuple[Record, str]:
        row = connection.execute(
            "SELECT markdown FROM records WHERE owner = %s AND id = %s AND store = %s AND state = 'live'",
            (self.owner, record_id, store.name),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"no live record {record_id} in {store.name}")
        return parse_record(row[0], f"records/{record_id}.md"), str(row[0])

    def _put(
        self,
        connection: psycopg.Connection[Any],
        store: ScopeStore,
        record: Record,
        state: str,
        markdown: str,
    ) -> None:
        values = record_values(store.name, record, state, markdown)
        anchors = values.pop("anchors")
        columns = [*RECORD_COLUMNS, "terms_vector", "tasks_vector"]
        casts = {"terms_vector": "::tsvector", "tasks_vector": "::tsvector"}
        placeholders = ", ".join(f"%({c})s{casts.get(c, '')}" for c in columns)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns)
        row = connection.execute(
            f"INSERT INTO records (owner, id, {', '.join(columns)})"
            f" VALUES (%(owner)s, %(id)s, {placeholders})"
            f" ON CONFLICT (owner, id) DO UPDATE SET {updates} RETURNING rowid",
            {**values, "owner": self.owner, "id": record.id},
        ).fetchone()
        assert row is not None  # RETURNING of the row inserted or updated
        _write_postings(connection, self.owner, row[0], values)
        connection.execute("DELETE FROM path_anchors WHERE owner = %s AND id = %s", (self.owner, record.id))
        if anchors:
            with connection.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO path_anchors (owner, id, anchor) VALUES (%s, %s, %s)",
                    [(self.owner, record.id, anchor) for anchor in sorted(anchors)],
                )

    def _put_file(
        self, connection: psycopg.Connection[Any], store: ScopeStore, record_id: str, name: str, text: str
    ) -> None:
        connection.execute(
            "INSERT INTO history_files (owner, id, store, name, text) VALUES (%s, %s, %s, %s, %s)"
            " ON CONFLICT (owner, id, name) DO UPDATE SET text = EXCLUDED.text",
            (self.owner, record_id, store.name, name, text),
        )

    def _log(
        self,
        connection: psycopg.Connection[Any],
        store: ScopeStore,
        record_id: str,
        action: str,
        source: str,
        from_version: int | None,
        to_version: int | None,
    ) -> None:
        row = connection.execute(
            "SELECT text FROM history_files WHERE owner = %s AND id = %s AND name = 'actions.jsonl'",
            (self.owner, record_id),
        ).fetchone()
        existing = row[0].encode("utf-8") if row else b""
        line = action_line(action, source, from_version, to_version)
        self._put_file(
            connection, store, record_id, "actions.jsonl", appended(existing, line).decode("utf-8")
        )

    def _actions(self, connection: psycopg.Connection[Any], record_id: str) -> list[Action]:
        row = connection.execute(
            "SELECT text FROM history_files WHERE owner = %s AND id = %s AND name = 'actions.jsonl'",
            (self.owner, record_id),
        ).fetchone()
        found = []
        for line in (row[0] if row else "").splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError):
                if line.strip():
                    found.append(Action.from_json(json.loads(line)))
        return found

    def _id_taken(self, connection: psycopg.Connection[Any], record_id: str) -> bool:
        """Ids are never reused, not even after a permanent forget."""
        row = connection.execute(
            "SELECT 1 FROM records WHERE owner = %s AND id = %s"
            " UNION ALL SELECT 1 FROM tombstones WHERE owner = %s AND id = %s"
            " UNION ALL SELECT 1 FROM history_files WHERE owner = %s AND id = %s LIMIT 1",
            (self.owner, record_id) * 3,
        ).fetchone()
        return row is not None

    def _remember(self, connection: psycopg.Connection[Any], change: Remember) -> ChangeResult:
        store = self.store_for_scope(change.scope)
        self._lock(connection, store.name)
        if change.id is not None and self._id_taken(connection, change.id):
            return ChangeResult("unchanged", change.id, self._view(connection, change.id),
                                detail=f"{change.id} exists already")  # fmt: skip
        record_id = change.id
        while record_id is None or self._id_taken(connection, record_id):
            record_id = new_record_id()
        record = build_record(
            record_id, change.text, change.title, store, change.memory_type, change.memory_class,
            change.selectors, change.summary, change.authority, change.evidence,
        )  # fmt: skip
        duplicate = self._same_statement(connection, store, record)
        if duplicate is not None:
            return ChangeResult("unchanged", duplicate.id, duplicate,
                                detail="the same statement is already remembered")  # fmt: skip
        self._put(connection, store, record, "live", render_record(record))
        self._log(connection, store, record.id, "create", "command", None, record.version)
        return ChangeResult("created", record.id, self._view(connection, record.id))

    def _same_statement(
        self, connection: psycopg.Connection[Any], store: ScopeStore, record: Record
    ) -> RecordView | None:
        """As local._same_statement: the same text and selectors, an explicit statement never merged
        into an inferred one."""
        rows = connection.execute(
            "SELECT id, json FROM records WHERE owner = %s AND store = %s AND state = 'live' AND body = %s",
            (self.owner, store.name, record.text.strip("\n")),
        )
        for record_id, text in rows:
            data = json.loads(text)
            same = data["memoryType"] == record.memory_type and data["authority"] == record.authority
            if same and data["selectors"] == record.selectors.to_json():
                return RecordView(record_id, "live", text)
        return None

    def _correct(
        self, connection: psycopg.Connection[Any], store: ScopeStore, current: Record, raw: str,
        change: dict[str, Any], source: str = "command",
    ) -> tuple[Record, bool]:  # fmt: skip
        updated = corrected_version(current, change)
        if updated is None:
            return current, False
        self._replace_version(connection, store, current, raw, updated, source)
        return updated, True

    def _replace_version(
        self, connection: psycopg.Connection[Any], store: ScopeStore, previous: Record, raw: str,
        updated: Record, source: str,
    ) -> None:  # fmt: skip
        self._put_file(
            connection, store, previous.id, snapshot_name(previous.version), render_record(previous)
        )
        self._log(connection, store, previous.id, "correct", source, previous.version, updated.version)
        self._put(connection, store, updated, "live", update_record_text(raw, updated))

    def _forget(
        self, connection: psycopg.Connection[Any], store: ScopeStore, record_id: str, permanent: bool
    ) -> Tombstone:
        existing = self._tombstone(connection, record_id)
        if existing is not None:
            refuse_forgetting_again(existing, permanent)
            stone = Tombstone(existing.id, existing.forgotten_at, existing.content_hash, True)
            return self._erase(connection, store, stone)
        current, _ = self._live(connection, store, record_id)
        stone = Tombstone(record_id, utc_now(), content_hash(current.text), permanent)
        if permanent:
            return self._erase(connection, store, stone)
        self._write_tombstone(connection, store, stone)
        self._log(connection, store, record_id, "forget", "command", current.version, None)
        connection.execute(
            "UPDATE records SET state = 'forgotten', json = %s WHERE owner = %s AND id = %s",
            (record_json(current, "forgotten"), self.owner, record_id),
        )
        return stone

    def _erase(self, connection: psycopg.Connection[Any], store: ScopeStore, stone: Tombstone) -> Tombstone:
        """What a permanent forget leaves: the tombstone's id and content hash, nothing else (the
        record's row, its path anchors, its versions and its log go)."""
        connection.execute("DELETE FROM records WHERE owner = %s AND id = %s", (self.owner, stone.id))
        connection.execute("DELETE FROM history_files WHERE owner = %s AND id = %s", (self.owner, stone.id))
        self._write_tombstone(connection, store, stone)
        return stone

    def _tombstone(self, connection: psycopg.Connection[Any], record_id: str) -> Tombstone | None:
        row = connection.execute(
            "SELECT json FROM tombstones WHERE owner = %s AND id = %s", (self.owner, record_id)
        ).fetchone()
        return None if row is None else Tombstone.from_json(json.loads(row[0]))

    def _write_tombstone(
        self, connection: psycopg.Connection[Any], store: ScopeStore, stone: Tombstone
    ) -> None:
        connection.execute(
            "INSERT INTO tombstones (owner, id, store, content_hash, permanent, json)"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (owner, id) DO UPDATE SET"
            " content_hash = EXCLUDED.content_hash, permanent = EXCLUDED.permanent, json = EXCLUDED.json",
            (self.owner, stone.id, store.name, stone.content_hash, stone.permanent, tombstone_text(stone)),
        )

    def _rollback(self, connection: psycopg.Connection[Any], store: ScopeStore, record_id: str) -> str:
        stone = self._tombstone(connection, record_id)
        if stone is not None and stone.permanent:
            raise CometError(
                f"{record_id} was forgotten permanently; its content no longer exists",
                hint="remember it again with `comet memory remember` if you still want it",
            )
        last = last_undoable(self._actions(connection, record_id))
        if last is None:
            raise CometError(
                f"{record_id} has no correction or forget to roll back",
                hint=f"`comet memory show --id {record_id} --history` lists its versions",
            )
        if last.action == "forget":
            row = connection.execute(
                "SELECT markdown FROM records WHERE owner = %s AND id = %s AND state = 'forgotten'",
                (self.owner, record_id),
            ).fetchone()
            if row is None:
                raise NotFoundError(f"the tombstone of {record_id} has no content to restore")
            record = parse_record(row[0], f"tombstones/{record_id}.md")
            connection.execute("DELETE FROM tombstones WHERE owner = %s AND id = %s", (self.owner, record_id))
            self._log(connection, store, record_id, "rollback", "command", None, record.version)
            self._put(connection, store, record, "live", row[0])
            return "forget"
        if last.from_version is None:
            raise CometError(f"the history of {record_id} does not say which version to restore")
        row = connection.execute(
            "SELECT text FROM history_files WHERE owner = %s AND id = %s AND name = %s",
            (self.owner, record_id, snapshot_name(last.from_version)),
        ).fetchone()
        if row is None:
            raise NotFoundError(f"version {last.from_version} of {record_id} is not in its history")
        old = parse_record(row[0], f"history/{record_id}/{snapshot_name(last.from_version)}")
        current, raw = self._live(connection, store, record_id)
        restored = restored_version(old, current)
        self._put_file(connection, store, record_id, snapshot_name(current.version), render_record(current))
        self._log(connection, store, record_id, "rollback", "command", current.version, restored.version)
        self._put(connection, store, restored, "live", update_record_text(raw, restored))
        return "correct"

    def _import(self, connection: psycopg.Connection[Any], change: Import) -> ChangeResult:
        """As Local's import: the files not there yet are written, the ones there with the same
        text left; one there with other text refuses the whole record."""
        store = self.store_for_scope(change.scope)
        check_paths(change.files, change.id, store.project_key)
        files = sound_files(change.files, change.id, store.scope)
        self._lock(connection, store.name)
        owner = self._store_of(connection, change.id)
        if owner is not None and owner != store.name:
            raise InvalidInputError(f"import: {change.id} is already used in {owner}")
        there = {item.path: item.text for item in self._files(connection, store, change.id)}
        missing = []
        for item in files:
            if item.path not in there:
                missing.append(item)
            elif there[item.path] != item.text:
                raise InvalidInputError(
                    f"import: {item.path} exists in {store.name} with other content",
                    hint="the two stores hold different versions of this record: correct or forget one first",
                )
        for item in missing:
            self._restore(connection, store, change.id, item)
        return ChangeResult(
            "imported" if missing else "unchanged", change.id, self._view(connection, change.id)
        )

    def _restore(
        self, connection: psycopg.Connection[Any], store: ScopeStore, record_id: str, item: ArchivedFile
    ) -> None:
        folder, _, rest = item.path.partition("/")
        if folder == "history":
            self._put_file(connection, store, record_id, rest.split("/", 1)[1], item.text)
        elif item.path.endswith(".json"):
            try:
                stone = Tombstone.from_json(json.loads(item.text))
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                raise InvalidInputError(f"import: {item.path} is not a tombstone: {error}") from None
            connection.execute(
                "INSERT INTO tombstones (owner, id, store, content_hash, permanent, json)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                (self.owner, record_id, store.name, stone.content_hash, stone.permanent, item.text),
            )
        else:
            record = parse_record(item.text, item.path)
            if record.id != record_id:
                raise InvalidInputError(f"import: {item.path} holds the record {record.id}")
            self._put(connection, store, record, "live" if folder == "records" else "forgotten", item.text)

    # -- status ------------------------------------------------------------------

    def status(self) -> StatusReport:
        with self._transaction() as connection:
            stores = [self._store_status(connection, store) for store in self.visible_stores()]
        return StatusReport(
            provider=self.name,
            home=f"{self.where} (user {self.owner})",
            index={"path": self.where, "fts5": True, "problem": None},
            stores=stores,
            conflicts=[],
        )

    def _store_status(self, connection: psycopg.Connection[Any], store: ScopeStore) -> StoreStatus:
        lifecycles: dict[str, int] = {}
        types: dict[str, int] = {}
        forgotten = 0
        rows = connection.execute(
            "SELECT state, lifecycle, memory_type, count(*) FROM records WHERE owner = %s AND store = %s"
            " GROUP BY state, lifecycle, memory_type",
            (self.owner, store.name),
        )
        for state, lifecycle, memory_type, count in rows:
            if state == "forgotten":
                forgotten += count
                continue
            lifecycles[lifecycle] = lifecycles.get(lifecycle, 0) + count
            types[memory_type] = types.get(memory_type, 0) + count
        permanent = connection.execute(
            "SELECT count(*) FROM tombstones WHERE owner = %s AND store = %s AND permanent",
            (self.owner, store.name),
        ).fetchone()
        forgotten += int(permanent[0]) if permanent else 0
        return StoreStatus(
            name=store.name,
            path=f"{self.where}#{self.owner}/{store.name}",
            exists=bool(lifecycles or forgotten),
            counts_by_lifecycle=lifecycles,
            counts_by_type=types,
            forgotten=forgotten,
            invalid=[],
            profile="",
        )


def _simple_words(word: str) -> list[str]:
    """The lexemes PostgreSQL's `simple` parser makes of a word (letters and digits, lower-cased)."""
    return UNICODE61_WORD.findall(word.lower())


def _walk_order(path: str) -> tuple[int, str]:
    """archived_files's order: records/, history/, tombstones/, each sorted."""
    folder = path.split("/", 1)[0]
    return (("records", "history", "tombstones").index(folder), path)


def _array(records_json: list[str]) -> list[bytes]:
    """Records' JSON texts as the pieces of one JSON array (QueryResult.records_json)."""
    return [("[" + ",".join(records_json) + "]").encode("utf-8")]


def _tally_of(records_json: list[str]) -> tuple[TallyRow, ...]:
    """QueryResult.tally of a few records already read (a text search's)."""
    counts: dict[tuple[str, ...], int] = {}
    for text in records_json:
        record = json.loads(text)
        key = tuple(str(record.get(field) or "") for field in TALLIED)
        counts[key] = counts.get(key, 0) + 1
    return tuple((key[0], key[1], key[2], key[3], key[4], count) for key, count in counts.items())


def _write_postings(
    connection: psycopg.Connection[Any], owner: str, rowid: int, values: dict[str, Any]
) -> None:
    """The postings of one records row (its `terms` and `fts_length` in `values`), afresh."""
    counts: dict[str, int] = {}
    for token in values["terms"].split():
        counts[token] = counts.get(token, 0) + 1
    connection.execute("DELETE FROM postings WHERE rowid = %s", (rowid,))
    connection.execute(
        "INSERT INTO postings (owner, token, rowid, tf, length)"
        " SELECT %s, token, %s, tf, %s FROM unnest(%s::text[], %s::int[]) t(token, tf)",
        (owner, rowid, values["fts_length"], list(counts), list(counts.values())),
    )


REFRESH_BATCH = 500  # records read at a time when their terms are derived again


def refresh_terms(connection: psycopg.Connection[Any]) -> int:
    """Derive every record's search terms and postings again when they were made by another
    tokenizer (a comet whose vocabulary differs): as the local index is rebuilt, or a record
    stored before a new vocabulary line would never carry that line's concept; the derived
    summary is made again with them (a release that derives it otherwise also raises
    text.TOKENIZER_REVISION, as the local index's SCHEMA_VERSION is raised).  One transaction,
    under the migrations' lock (servers starting at once do it once); the rows redone.
    `connection` is in autocommit mode."""
    from comet_git.matching.text import tokenizer_digest
    from comet_git.server.postgres.database import MIGRATION_LOCK

    digest = tokenizer_digest()
    connection.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        made = connection.execute("SELECT value FROM server_settings WHERE key = 'tokenizer'").fetchone()
        if made is not None and made[0] == digest:
            return 0
        done = 0
        # Read through a server-side cursor, a batch at a time: a large database's records would
        # not all fit in the server's memory at once.  It sees the rows as they were when opened.
        with connection.transaction(), connection.cursor(name="comet_refresh_terms") as rows:
            rows.itersize = REFRESH_BATCH
            rows.execute("SELECT rowid, owner, store, state, id, markdown FROM records")
            for rowid, owner, store, state, record_id, markdown in rows:
                done += 1
                try:
                    record = parse_record(markdown, f"records/{record_id}.md")
                except CometError:  # a row the database holds badly keeps its terms; never the start
                    continue
                values = record_values(store, record, state, markdown)
                connection.execute(
                    "UPDATE records SET terms = %(terms)s, fts_length = %(fts_length)s,"
                    " summary = %(summary)s, manifest_length = %(manifest_length)s,"
                    " terms_vector = %(terms_vector)s::tsvector, tasks_vector = %(tasks_vector)s::tsvector"
                    " WHERE rowid = %(rowid)s",
                    {**values, "rowid": rowid},
                )
                _write_postings(connection, owner, rowid, values)
            connection.execute(
                "INSERT INTO server_settings (key, value) VALUES ('tokenizer', %s)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                (digest,),
            )
        return done
    finally:
        connection.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
