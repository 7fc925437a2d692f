"""The provider contract (`comet.provider/v1`): status, query, apply.

Every read and write of memory goes through a Provider.  The Local provider
implements it over the files under COMET_HOME; a Remote provider speaking the
same contract can replace it without any change to the callers.
"""

# No `from __future__ import annotations` in this module: typing.NamedTuple compiles every
# annotation written as a string, and `comet task` imports these classes (their fields as
# types cost about half).  Names defined further down, or only for type checking, are quoted.

import json
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from comet_git.records.model import Evidence, Selectors
from comet_git.store import ScopeStore

if TYPE_CHECKING:  # the director is imported only by the commands that retrieve
    from comet_git.provider.candidates import Placements, Selection, TaskRequest

PROVIDER_SCHEMA = "comet.provider/v1"
# A Context Director request's defaults: characters of memory, and manifest entries, at most.
DEFAULT_BUDGET = 6000
DEFAULT_MAX_ENTRIES = 12
# The largest count a request takes (a budget, a number of entries, a page's limit and offset): far
# beyond any budget or manifest, well within what SQLite, PostgreSQL and a 64-bit integer hold.
COUNT_MAX = 1_000_000_000


class RecordView(NamedTuple):
    """A record as a provider returns it: its JSON (every key of README: The record, `text`, `state`)."""

    id: str
    state: str  # "live" | "forgotten"
    json_text: str

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.json_text)
        return data


class InvalidFileReport(NamedTuple):
    file: str
    line: int | None
    error: str

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "error": self.error}


class Query(NamedTuple):
    ids: tuple[str, ...] = ()
    scopes: tuple[str, ...] = ("global", "project")
    memory_types: tuple[str, ...] = ()
    lifecycles: tuple[str, ...] = ()
    text: str | None = None
    include_superseded: bool = False
    include_forgotten: bool = False
    with_history: bool = False
    task: "TaskRequest | None" = None  # a Context Director request: rank what applies to it
    every_row: bool = False  # with `task`: consider every record, to say why each was excluded
    similar: str | None = None  # the live records closest in wording to this text (consolidation)
    export: bool = False  # the stores' own files (records, history, tombstones): `comet memory export`
    # Whether this text (or the record `forgotten_id`) was forgotten in the one scope of `scopes`:
    # learning never learns again what the person forgot.
    forgotten_text: str | None = None
    forgotten_id: str | None = None
    memory_classes: tuple[str, ...] = ()
    authorities: tuple[str, ...] = ()
    conflicting: bool = False  # only the records linked as conflicting with others (conflictsWith)
    # A page of the listing: `offset` records skipped, at most `limit` given (None: all of them);
    # the result's `total` says how many match in all.
    offset: int = 0
    limit: int | None = None
    tally: bool = False  # also count the matching records by TALLIED fields (QueryResult.tally)
    # With `task`: where delivery will place the candidates (provider/candidates.py: Placements),
    # so that the texts of only those are read.  Not sent over the wire: a server reads the texts
    # of every candidate delivery might place.
    placements: "Placements | None" = None

    def forgotten_scope(self) -> str:
        """The one scope a forgotten-text query asks about."""
        if len(self.scopes) != 1:
            from comet_git.errors import InvalidInputError

            raise InvalidInputError(
                "a forgotten-text query asks about exactly one scope", hint="scopes: global or project"
            )
        return self.scopes[0]


# What QueryResult.tally counts by, in its rows' order (each row ends with the count).
TALLIED = ("scope", "memoryType", "memoryClass", "lifecycle", "authority")
TallyRow = tuple[str, str, str, str, str, int]


class ArchivedFile(NamedTuple):
    """One file of a store as export carries it: its path below the store, its text."""

    scope: str  # "global" | "project"
    project_key: str | None
    path: str  # records/ID.md, history/ID/..., tombstones/ID.json|.md
    text: str


class QueryResult(NamedTuple):
    """What a query found, in order, as one JSON array of records (each with its `state`).

    The array stays text until somebody asks for the records: a listing of ten
    thousand records is printed as it came, without being parsed."""

    records_json: list[bytes]  # UTF-8 pieces of one JSON array: b"".join(records_json)
    invalid: list[InvalidFileReport]
    history: dict[str, list[dict[str, Any]]]  # no default: a NamedTuple's default would be one shared dict
    selection: "Selection | None" = None  # for a `task` query: the applicable records, best first
    archive: tuple[ArchivedFile, ...] = ()  # for an `export` query
    forgotten: bool = False  # for a `forgotten_text` query
    total: int | None = None  # with a `limit` or a `tally`: how many records match in all
    tally: tuple[TallyRow, ...] | None = None  # for a `tally` query

    @property
    def records(self) -> list[RecordView]:
        return [
            RecordView(data["id"], data["state"], json.dumps(data, ensure_ascii=False))
            for data in json.loads(b"".join(self.records_json).decode("utf-8"))
        ]


# -- changes: what `apply` accepts ------------------------------------------


class Remember(NamedTuple):
    text: str
    title: str | None = None
    scope: str = "project"
    memory_type: str = "collaboration-policy"
    memory_class: str | None = None
    selectors: Selectors = Selectors()
    summary: str | None = None
    authority: str = "explicit"
    evidence: tuple[Evidence, ...] = ()
    id: str | None = None  # learning derives the id from the origin: a replay finds the same record


class Correct(NamedTuple):
    id: str
    text: str | None = None
    title: str | None = None
    summary: str | None = None
    memory_type: str | None = None
    memory_class: str | None = None
    paths: tuple[str, ...] | None = None
    tasks: tuple[str, ...] | None = None
    operations: tuple[str, ...] | None = None
    phases: tuple[str, ...] | None = None
    # The version the correction was made on (an edit in $EDITOR): if the record has moved on
    # since, the correction raced another and is refused rather than silently undoing it.
    base_version: int | None = None


class RecordOutcome(NamedTuple):
    """Feedback on one delivery of a record (README: Lifecycle): counts, and the lifecycle it moves."""

    id: str
    outcome: str
    applied_at: str
    why_applied: tuple[str, ...] = ()
    # The outcome reported earlier for the same delivery (applicationId), which this report
    # replaces: an outcome counts once per delivery, however often an agent reports it.
    replaces: str | None = None


class Amend(NamedTuple):
    """A change the system makes to a record it inferred: more evidence, narrower selectors,
    a lifecycle step, links.  `fields` are Record field names.  Never used for explicit text."""

    id: str
    fields: tuple[tuple[str, Any], ...]
    reason: str = ""
    bookkeeping: bool = False  # fresh counts, not a new version: no history snapshot, no version bump


class Forget(NamedTuple):
    id: str
    permanent: bool = False


class Rollback(NamedTuple):
    id: str


class Import(NamedTuple):
    """One record's files (its Markdown, history, tombstone) from an export, restored as they
    were: same id, versions, evidence and application counts.  Files already there with the
    same text are left; a file there with other text refuses the whole record."""

    id: str
    scope: str
    files: tuple[ArchivedFile, ...]


Change = Remember | Correct | Forget | Rollback | RecordOutcome | Amend | Import


class ChangeResult(NamedTuple):
    action: str  # created | unchanged | corrected | forgotten | rolled-back
    id: str
    record: RecordView | None = None
    permanent: bool = False
    rollback_possible: bool = False
    detail: str | None = None


class StoreStatus(NamedTuple):
    name: str
    path: str
    exists: bool
    counts_by_lifecycle: dict[str, int]
    counts_by_type: dict[str, int]
    forgotten: int
    invalid: list[InvalidFileReport]
    profile: str

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.path,
            "exists": self.exists,
            "lifecycle": self.counts_by_lifecycle,
            "memoryType": self.counts_by_type,
            "forgotten": self.forgotten,
            "invalid": [item.to_json() for item in self.invalid],
            "profile": self.profile,
        }


class StatusReport:
    """Not a NamedTuple: its `index` would hide tuple.index."""

    __slots__ = ("conflicts", "home", "index", "provider", "stores")

    def __init__(
        self,
        provider: str,
        home: str,
        index: dict[str, Any],
        stores: list[StoreStatus],
        conflicts: list[dict[str, Any]],
    ) -> None:
        self.provider = provider
        self.home = home
        self.index = index
        self.stores = stores
        self.conflicts = conflicts


class Provider(Protocol):
    """What every provider offers; callers depend on nothing else."""

    name: str

    def status(self) -> StatusReport: ...

    def query(self, query: Query) -> QueryResult: ...

    def apply(self, change: Change) -> ChangeResult: ...


class MachineProvider(Provider, Protocol):
    """A provider as this machine's commands hold it: the contract, and the stores where this
    machine keeps its journal (which stays here whichever provider holds the records)."""

    project_key: str | None

    @property
    def global_store(self) -> ScopeStore: ...

    @property
    def project_store(self) -> ScopeStore | None: ...

    def visible_stores(self) -> list[ScopeStore]: ...

    def store_for_scope(self, scope: str) -> ScopeStore: ...
