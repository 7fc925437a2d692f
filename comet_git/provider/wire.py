"""The wire format of the provider contract (`comet.provider/v1`): every request and answer
of `status`, `query` and `apply` as JSON, and back.

The Remote provider and `comet serve` speak only this; `comet memory export` writes it too.
Each encoder has its decoder beside it, and `decode(encode(x)) == x` for every shape
(tests/test_wire.py).  A decoder given anything else raises WireError, which the server
answers with 400 and the client reports as a version mismatch: neither side guesses.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from comet_git.errors import (
    CometError,
    ConcurrentEditError,
    InvalidInputError,
    NotFoundError,
    StoreError,
    printable,
    shown,
)
from comet_git.provider import (
    COUNT_MAX,
    PROVIDER_SCHEMA,
    TALLIED,
    Amend,
    ArchivedFile,
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
    TallyRow,
)
from comet_git.records.model import ID_PATTERN, Evidence, Selectors

if TYPE_CHECKING:
    from comet_git.provider.candidates import Candidate, Selection, TaskRequest


class WireError(InvalidInputError):
    """A document that is not a `comet.provider/v1` shape (or not JSON at all)."""


# A record id names files (records/ID.md, history/ID/): ids are 11 characters, far below what a
# file name may hold.
MAX_ID_LENGTH = 64


# -- helpers -------------------------------------------------------------------------------


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise WireError(f"{where}: the key {key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind in (int, float, (int, float))):
        raise WireError(f"{where}: {key!r} has the wrong type ({type(value).__name__})")
    return value


def _optional(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    return None if data.get(key) is None else _field(data, key, kind, where)


def _strings(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    values = _field(data, key, list, where)
    if not all(isinstance(value, str) for value in values):
        raise WireError(f"{where}: {key!r} must be a list of strings")
    return tuple(values)


def _optional_strings(data: Mapping[str, Any], key: str, where: str) -> tuple[str, ...] | None:
    return None if data.get(key) is None else _strings(data, key, where)


def _record_id(data: Mapping[str, Any], key: str, where: str) -> str:
    """A record id, checked before it names any file or row."""
    return _checked_id(_field(data, key, str, where), f"{where}: {key!r}")


def _checked_id(value: str, what: str) -> str:
    if len(value) > MAX_ID_LENGTH or not ID_PATTERN.fullmatch(value):
        raise WireError(f"{what} {shown(value)} is not a record id", hint="ids look like pm-7k2m9q4x")
    return value


def _optional_record_id(data: Mapping[str, Any], key: str, where: str) -> str | None:
    return None if data.get(key) is None else _record_id(data, key, where)


def _count(data: Mapping[str, Any], key: str, where: str) -> int:
    value = _field(data, key, int, where)
    if not 0 <= value <= COUNT_MAX:
        raise WireError(f"{where}: {key!r} must be a whole number from 0 to {COUNT_MAX}")
    return int(value)


def _optional_count(data: Mapping[str, Any], key: str, where: str) -> int | None:
    return None if data.get(key) is None else _count(data, key, where)


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise WireError(f"{where}: expected a JSON object")
    return value


def parse_document(body: bytes, where: str) -> Mapping[str, Any]:
    """A request or answer body: one JSON object of this schema version."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise WireError(f"{where}: not JSON ({error})", hint="send one JSON object") from None
    except RecursionError:  # no document of the contract nests more than a few levels
        raise WireError(f"{where}: the JSON nests too deeply", hint="send one JSON object") from None
    data = _mapping(data, where)
    if data.get("schema") != PROVIDER_SCHEMA:
        raise WireError(
            f"{where}: schema {data.get('schema')!r} is not {PROVIDER_SCHEMA!r}",
            hint="client and server speak different versions of the provider contract: upgrade the older",
        )
    return data


def document(**fields: Any) -> dict[str, Any]:
    return {"schema": PROVIDER_SCHEMA, **fields}


def dumps(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def selectors_to_json(selectors: Selectors) -> dict[str, list[str]]:
    return selectors.to_json()


def selectors_from_json(value: Any, where: str) -> Selectors:
    data = _mapping(value, where)
    return Selectors(*(_strings(data, key, where) for key in ("paths", "tasks", "operations", "phases")))


def evidence_from_json(value: Any, where: str) -> tuple[Evidence, ...]:
    if not isinstance(value, list):
        raise WireError(f"{where}: evidence must be a list")
    found = []
    for item in value:
        data = _mapping(item, where)
        found.append(
            Evidence(
                _field(data, "kind", str, where),
                _field(data, "summary", str, where),
                _optional(data, "event", str, where),
                _optional(data, "at", str, where),
            )
        )
    return tuple(found)


# -- queries -------------------------------------------------------------------------------


def task_request_to_json(request: TaskRequest) -> dict[str, Any]:
    return {
        "task": request.task,
        "path": request.path,
        "pathIsDir": request.path_is_dir,
        "operation": request.operation,
        "phase": request.phase,
        "budget": request.budget,
        "maxEntries": request.max_entries,
        "session": request.session,
        "alreadyGiven": sorted(request.already_given),
    }


def task_request_from_json(value: Any) -> TaskRequest:
    from comet_git.provider.candidates import TaskRequest

    where = "task request"
    data = _mapping(value, where)
    return TaskRequest(
        _field(data, "task", str, where),
        _optional(data, "path", str, where),
        _field(data, "pathIsDir", bool, where),
        _optional(data, "operation", str, where),
        _optional(data, "phase", str, where),
        _count(data, "budget", where),
        _count(data, "maxEntries", where),
        _optional(data, "session", str, where),
        frozenset(_strings(data, "alreadyGiven", where)),
    )


def query_to_json(query: Query) -> dict[str, Any]:
    return {
        "ids": list(query.ids),
        "scopes": list(query.scopes),
        "memoryTypes": list(query.memory_types),
        "lifecycles": list(query.lifecycles),
        "text": query.text,
        "includeSuperseded": query.include_superseded,
        "includeForgotten": query.include_forgotten,
        "withHistory": query.with_history,
        "task": None if query.task is None else task_request_to_json(query.task),
        "everyRow": query.every_row,
        "similar": query.similar,
        "export": query.export,
        "forgottenText": query.forgotten_text,
        "forgottenId": query.forgotten_id,
        "memoryClasses": list(query.memory_classes),
        "authorities": list(query.authorities),
        "conflicting": query.conflicting,
        "offset": query.offset,
        "limit": query.limit,
        "tally": query.tally,
    }


def query_from_json(value: Any) -> Query:
    where = "query"
    data = _mapping(value, where)
    return Query(
        ids=tuple(_checked_id(value, f"{where}: 'ids'") for value in _strings(data, "ids", where)),
        scopes=_strings(data, "scopes", where),
        memory_types=_strings(data, "memoryTypes", where),
        lifecycles=_strings(data, "lifecycles", where),
        text=_optional(data, "text", str, where),
        include_superseded=_field(data, "includeSuperseded", bool, where),
        include_forgotten=_field(data, "includeForgotten", bool, where),
        with_history=_field(data, "withHistory", bool, where),
        task=None if data.get("task") is None else task_request_from_json(data["task"]),
        every_row=_field(data, "everyRow", bool, where),
        similar=_optional(data, "similar", str, where),
        export=_field(data, "export", bool, where),
        forgotten_text=_optional(data, "forgottenText", str, where),
        forgotten_id=_optional_record_id(data, "forgottenId", where),
        # Absent from an older client's query: its defaults.
        memory_classes=_strings(data, "memoryClasses", where) if "memoryClasses" in data else (),
        authorities=_strings(data, "authorities", where) if "authorities" in data else (),
        conflicting=bool(_optional(data, "conflicting", bool, where)),
        offset=_optional_count(data, "offset", where) or 0,
        limit=_optional_count(data, "limit", where),
        tally=bool(_optional(data, "tally", bool, where)),
    )


# -- selections: the director's candidate search, answered near the data -----------------

# A candidate is sent as one array, in this order (thousands of them come back from a large store).
_CANDIDATE_SLOTS = (
    "id", "rowid", "memory_type", "lifecycle", "text_length", "manifest_length", "score", "why", "strong",
    "tier", "scope", "tasks", "reached", "title", "summary", "text",
)  # fmt: skip


def _candidate_to_json(candidate: Candidate) -> list[Any]:
    return [getattr(candidate, slot) for slot in _CANDIDATE_SLOTS]


def _candidate_from_json(value: Any) -> Candidate:
    from comet_git.provider.candidates import Candidate

    if not isinstance(value, list) or len(value) != len(_CANDIDATE_SLOTS):
        raise WireError(f"selection: a candidate must be an array of {len(_CANDIDATE_SLOTS)} values")
    (
        record_id, rowid, memory_type, lifecycle, text_length, manifest_length, score, why, strong, tier,
        scope, tasks, reached, title, summary, text,
    ) = value  # fmt: skip
    candidate = Candidate(
        record_id, rowid, memory_type, lifecycle, text_length, manifest_length, float(score), list(why),
        strong, tier, scope, tasks,
    )  # fmt: skip
    candidate.reached = bool(reached)
    candidate.title, candidate.summary, candidate.text = title, summary, text
    return candidate


def selection_to_json(selection: Selection) -> dict[str, Any]:
    return {
        "candidates": [_candidate_to_json(candidate) for candidate in selection.candidates],
        "excluded": selection.excluded,
        "alreadyGiven": selection.already_given,
        "request": task_request_to_json(selection.request),
    }


def selection_from_json(value: Any) -> Selection:
    from comet_git.provider.candidates import Selection

    where = "selection"
    data = _mapping(value, where)
    return Selection(
        [_candidate_from_json(item) for item in _field(data, "candidates", list, where)],
        dict(_field(data, "excluded", dict, where)),
        _field(data, "alreadyGiven", int, where),
        task_request_from_json(data.get("request")),
    )


# -- query results -------------------------------------------------------------------------


def invalid_from_json(value: Any) -> list[InvalidFileReport]:
    where = "invalid files"
    if not isinstance(value, list):
        raise WireError(f"{where}: expected a list")
    return [
        InvalidFileReport(
            _field(item, "file", str, where),
            _optional(item, "line", int, where),
            _field(item, "error", str, where),
        )
        for item in (_mapping(entry, where) for entry in value)
    ]


def query_result_to_bytes(result: QueryResult) -> bytes:
    """The answer to a query.  The records stay the bytes the index gave: a listing of ten
    thousand records is sent as it came, never parsed and dumped again."""
    rest = dumps(
        document(
            invalid=[item.to_json() for item in result.invalid],
            history=result.history,
            selection=None if result.selection is None else selection_to_json(result.selection),
            archive=[archived_to_json(item) for item in result.archive],
            forgotten=result.forgotten,
            total=result.total,
            tally=None if result.tally is None else [list(row) for row in result.tally],
        )
    )
    records = b"".join(result.records_json) or b"[]"
    return rest[:-1] + b',"records":' + records + b"}"


def query_result_from_json(data: Mapping[str, Any]) -> QueryResult:
    where = "query result"
    records = _field(data, "records", list, where)
    history = _field(data, "history", dict, where)
    selection = data.get("selection")
    return QueryResult(
        [dumps_array(records)],
        invalid_from_json(data.get("invalid")),
        {str(key): list(value) for key, value in history.items()},
        None if selection is None else selection_from_json(selection),
        archive_from_json(data.get("archive")),
        _field(data, "forgotten", bool, where),
        _optional(data, "total", int, where),
        tally_from_json(data.get("tally")),
    )


def tally_from_json(value: Any) -> tuple[TallyRow, ...] | None:
    """QueryResult.tally from its JSON (None from a server that does not count)."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise WireError(f"query result: 'tally' has the wrong type ({type(value).__name__})")
    rows: list[TallyRow] = []
    for row in value:
        shaped = isinstance(row, list) and len(row) == len(TALLIED) + 1
        if not shaped or not all(isinstance(item, str) for item in row[:-1]) or type(row[-1]) is not int:
            raise WireError(f"query result: a tally row is {row!r}")
        scope, memory_type, memory_class, lifecycle, authority, count = row
        rows.append((scope, memory_type, memory_class, lifecycle, authority, count))
    return tuple(rows)


def archived_to_json(item: ArchivedFile) -> dict[str, Any]:
    return {"scope": item.scope, "projectKey": item.project_key, "path": item.path, "text": item.text}


def archive_from_json(value: Any) -> tuple[ArchivedFile, ...]:
    where = "archive"
    if not isinstance(value, list):
        raise WireError(f"{where}: expected a list of files")
    return tuple(
        ArchivedFile(
            _field(item, "scope", str, where),
            _optional(item, "projectKey", str, where),
            _field(item, "path", str, where),
            _field(item, "text", str, where),
        )
        for item in (_mapping(entry, where) for entry in value)
    )


def dumps_array(items: list[Any]) -> bytes:
    return json.dumps(items, ensure_ascii=False).encode("utf-8")


# -- changes -------------------------------------------------------------------------------


def _amend_value(name: str, value: Any) -> Any:
    """An Amend field as JSON: tuples of records' values as lists, Selectors and Evidence as objects."""
    if name == "selectors":
        return selectors_to_json(value)
    if name == "evidence":
        return [item.to_json() for item in value]
    if isinstance(value, tuple):
        return list(value)
    return value


def _links_from_json(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise WireError(f"{where}: expected a list of record ids")
    return tuple(value)


def _text_from_json(value: Any, where: str) -> str | None:
    """Any other field of an Amend: one of the record's texts or names (the provider judges
    which fields an amend may change, and their values)."""
    if value is not None and not isinstance(value, str):
        raise WireError(f"{where}: expected text, got {type(value).__name__}")
    return value


_AMEND_DECODERS: dict[str, Callable[[Any, str], Any]] = {
    "selectors": selectors_from_json,
    "evidence": evidence_from_json,
    "supersedes": _links_from_json,
    "superseded_by": _links_from_json,
    "conflicts_with": _links_from_json,
}


def change_to_json(change: Change) -> dict[str, Any]:
    if isinstance(change, Remember):
        return {
            "kind": "remember",
            "text": change.text,
            "title": change.title,
            "scope": change.scope,
            "memoryType": change.memory_type,
            "memoryClass": change.memory_class,
            "selectors": selectors_to_json(change.selectors),
            "summary": change.summary,
            "authority": change.authority,
            "evidence": [item.to_json() for item in change.evidence],
            "id": change.id,
        }
    if isinstance(change, Correct):
        return {
            "kind": "correct",
            **{_camel(name): _listed(getattr(change, name)) for name in Correct._fields},
        }
    if isinstance(change, Forget):
        return {"kind": "forget", "id": change.id, "permanent": change.permanent}
    if isinstance(change, Rollback):
        return {"kind": "rollback", "id": change.id}
    if isinstance(change, Import):
        return {
            "kind": "import",
            "id": change.id,
            "scope": change.scope,
            "files": [archived_to_json(item) for item in change.files],
        }
    if isinstance(change, RecordOutcome):
        return {
            "kind": "outcome",
            "id": change.id,
            "outcome": change.outcome,
            "appliedAt": change.applied_at,
            "whyApplied": list(change.why_applied),
            "replaces": change.replaces,
        }
    return {
        "kind": "amend",
        "id": change.id,
        "fields": [[name, _amend_value(name, value)] for name, value in change.fields],
        "reason": change.reason,
        "bookkeeping": change.bookkeeping,
    }


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


def _listed(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def change_from_json(value: Any) -> Change:
    where = "change"
    data = _mapping(value, where)
    kind = data.get("kind")
    if kind == "remember":
        return Remember(
            text=_field(data, "text", str, where),
            title=_optional(data, "title", str, where),
            scope=_field(data, "scope", str, where),
            memory_type=_field(data, "memoryType", str, where),
            memory_class=_optional(data, "memoryClass", str, where),
            selectors=selectors_from_json(data.get("selectors"), where),
            summary=_optional(data, "summary", str, where),
            authority=_field(data, "authority", str, where),
            evidence=evidence_from_json(data.get("evidence"), where),
            id=_optional_record_id(data, "id", where),
        )
    if kind == "correct":
        return _correct_from_json(data)
    if kind == "forget":
        return Forget(_record_id(data, "id", where), _field(data, "permanent", bool, where))
    if kind == "rollback":
        return Rollback(_record_id(data, "id", where))
    if kind == "outcome":
        return RecordOutcome(
            _record_id(data, "id", where),
            _field(data, "outcome", str, where),
            _field(data, "appliedAt", str, where),
            _strings(data, "whyApplied", where),
            _optional(data, "replaces", str, where),
        )
    if kind == "amend":
        return _amend_from_json(data)
    if kind == "import":
        return Import(
            _record_id(data, "id", where),
            _field(data, "scope", str, where),
            archive_from_json(data.get("files")),
        )
    raise WireError(
        f"{where}: unknown kind {kind!r}",
        hint="kinds: remember, correct, forget, rollback, outcome, amend, import",
    )


def _correct_from_json(data: Mapping[str, Any]) -> Correct:
    where = "correct"
    fields: dict[str, Any] = {name: _optional(data, _camel(name), str, where) for name in _CORRECT_TEXTS}
    fields.update({name: _optional_strings(data, name, where) for name in _CORRECT_LISTS})
    fields["base_version"] = _optional(data, "baseVersion", int, where)
    return Correct(_record_id(data, "id", where), **fields)


_CORRECT_TEXTS = ("text", "title", "summary", "memory_type", "memory_class")
_CORRECT_LISTS = ("paths", "tasks", "operations", "phases")


def _amend_from_json(data: Mapping[str, Any]) -> Amend:
    where = "amend"
    fields = []
    for item in _field(data, "fields", list, where):
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], str):
            raise WireError(f"{where}: each field is a [name, value] pair")
        name, value = item
        decode: Callable[[Any, str], Any] = _AMEND_DECODERS.get(name, _text_from_json)
        fields.append((name, decode(value, f"{where} {shown(name)}")))
    return Amend(
        _record_id(data, "id", where),
        tuple(fields),
        _field(data, "reason", str, where),
        _field(data, "bookkeeping", bool, where),
    )


def view_to_json(view: RecordView) -> dict[str, Any]:
    return {"id": view.id, "state": view.state, "record": json.loads(view.json_text)}


def view_from_json(value: Any) -> RecordView:
    where = "record"
    data = _mapping(value, where)
    record = _mapping(data.get("record"), where)
    return RecordView(
        _field(data, "id", str, where),
        _field(data, "state", str, where),
        json.dumps(record, ensure_ascii=False),
    )


def change_result_to_json(result: ChangeResult) -> dict[str, Any]:
    return {
        "action": result.action,
        "id": result.id,
        "record": None if result.record is None else view_to_json(result.record),
        "permanent": result.permanent,
        "rollbackPossible": result.rollback_possible,
        "detail": result.detail,
    }


def change_result_from_json(value: Any) -> ChangeResult:
    where = "change result"
    data = _mapping(value, where)
    return ChangeResult(
        _field(data, "action", str, where),
        _field(data, "id", str, where),
        None if data.get("record") is None else view_from_json(data["record"]),
        _field(data, "permanent", bool, where),
        _field(data, "rollbackPossible", bool, where),
        _optional(data, "detail", str, where),
    )


# -- status --------------------------------------------------------------------------------


def status_to_json(report: StatusReport) -> dict[str, Any]:
    return {
        "provider": report.provider,
        "home": report.home,
        "index": report.index,
        "stores": [store.to_json() for store in report.stores],
        "conflicts": report.conflicts,
    }


def status_from_json(value: Any) -> StatusReport:
    where = "status"
    data = _mapping(value, where)
    stores = []
    for item in _field(data, "stores", list, where):
        store = _mapping(item, where)
        stores.append(
            StoreStatus(
                _field(store, "name", str, where),
                _field(store, "path", str, where),
                _field(store, "exists", bool, where),
                dict(_field(store, "lifecycle", dict, where)),
                dict(_field(store, "memoryType", dict, where)),
                _field(store, "forgotten", int, where),
                invalid_from_json(store.get("invalid")),
                _field(store, "profile", str, where),
            )
        )
    return StatusReport(
        _field(data, "provider", str, where),
        _field(data, "home", str, where),
        dict(_field(data, "index", dict, where)),
        stores,
        list(_field(data, "conflicts", list, where)),
    )


# -- errors: the CLI's error shape (message, hint) with the class that raised it -----------

ERROR_KINDS: dict[str, type[CometError]] = {
    "not-found": NotFoundError,
    "invalid-input": InvalidInputError,
    "concurrent-edit": ConcurrentEditError,
    "store": StoreError,
    "error": CometError,
}


def error_to_json(error: CometError) -> dict[str, Any]:
    kind = next((name for name, cls in ERROR_KINDS.items() if type(error) is cls), None)
    if kind is None:
        kind = next(name for name, cls in ERROR_KINDS.items() if isinstance(error, cls))
    return document(error={"kind": kind, "message": str(error.headline()), "hint": error.hint})


def error_from_json(data: Mapping[str, Any], origin: str) -> CometError:
    """The error a server answered, as the class its kind names.  The message says it is what
    `origin` says, and its texts are shown with each character that is not printable escaped
    (`\\x1b`): they reach the user's terminal, where an escape sequence would act."""
    error = _mapping(data.get("error"), "error")
    cls = ERROR_KINDS.get(str(error.get("kind")), CometError)
    message = printable(str(error.get("message", "the server gave no message")))
    hint = error.get("hint")
    return cls(f"{origin} says: {message}", hint=None if hint is None else printable(str(hint)))
