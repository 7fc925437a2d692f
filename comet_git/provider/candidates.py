"""The candidate search behind the provider contract (README: The Context Director): which records apply to a
request, how well, and why.  It runs where the records are (the local index, or the server's),
and hands the director the applicable records, best first, with the texts delivery may need.

Order of the checks: project → path → task → operation → phase.

Hard exclusions (never delivered): superseded and forgotten records, other projects'
records (none of these are even read), and a record whose `paths`, `operations` or
`phases` selector is set and does not match a value the request gives.  A selector on
a dimension the request leaves out excludes nothing.

A candidate is delivered only with at least one positive match, and candidates rank by the
kind of match (their tier) first (for a task, SELECTED and STANDING rank together: _rank_class):

    DIRECT    a path selector that matched, a `tasks` keyword the task mentions (or names through
              its concept) or the request path's words do, text relevant to the task, or an
              operation or phase selector that matched on a rule with no path or keyword selector
              (it fires on its operation alone)
    SELECTED  an operation or phase selector that matched, on a rule with keywords or paths; or
              a keyword of several words that the task or its path names only in part
    STANDING  a project's explicit, proven rule with no selector at all ("current project"); at
              session start, any proven project rule with no path or keyword selector; core profile
    COMMON    as SELECTED, on an operation or phase that most such rules carry (common_selectors); or
              a path that matched, on a rule about something else (the task names none of its
              keywords, its text is not relevant): most rules of a project carry its main folder
    USED      at session start, the rules used successfully before

Score within a tier (higher first).  How well the request matches comes first:

    path matched                     2.0 (+0.5 per literal folder of the pattern, at most +2.0)
    operation / phase matched        2.0 / 1.0 for a rule that fires on it alone, else 1.0 / 0.5
    each tasks keyword mentioned     2.0 (at most 4.0); named through its concept 1.5 (at most 3.0);
                                     else named by the path's words 1.0 (at most 2.0); else a
                                     keyword of several words named in part 1.0 (at most 2.0)
    text relevance                   4.0 * relevance (0..1: the idf-weighted share of the task's
                                     words the record contains, times its BM25 against the best);
                                     a match from LEXICAL_FLOOR, an order among the others below it

then what orders records that match alike, and what outcomes taught:

    below the direct matches, 2.0 * the relevance of the record's text to the `tasks` keywords of
    the best direct matches (_order_by_seeds: what they are about, often in both languages)
    explicit 1.0, proven 1.0, project scope 0.5, recency up to 0.5 (halving every ~4 months)
    0.5 * used-successfully (at most 4 counted) - 0.25 * ignored - 1.0 * corrected
    - 1.5 * contributed-to-failure

Last, the best candidates delivery can show (not the core profile) are ordered once more by what
they are about together (_regroup, matching/coherence.py): a task concerns a group of rules about
one thing more often than rules scattered over several.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from operator import attrgetter
from typing import Any, NamedTuple, Protocol

from comet_git.matching.coherence import regroup
from comet_git.matching.paths import match as path_match
from comet_git.matching.paths import path_words, request_keys
from comet_git.matching.text import (
    Slot,
    TaskText,
    bm25_scores,
    coverage,
    fts_query,
    mentions,
    named_in_part,
    unique_slots,
)
from comet_git.provider import DEFAULT_BUDGET, DEFAULT_MAX_ENTRIES

# Tiers: what kind of match a candidate has.  Candidates rank by tier, then score.
DIRECT = 4  # a path, a keyword, relevant text, or an operation/phase on a rule that fires on it alone
SELECTED = 3  # an operation or phase selector matched, on a rule whose keywords the task does not name
STANDING = 2  # a proven rule with no narrowing selector: "current project"
COMMON = 1  # as SELECTED, on an operation or phase that most rules carry (edit): it tells little
USED = 0  # at session start: any other rule that was applied successfully before

DIRECT_POLICIES = 3  # proven policies delivered in full, beyond the core profile (director/deliver.py)
LEXICAL_FLOOR = 0.2  # relevance below this is no match by itself (it still orders other matches)
STRONG_RELEVANCE = 0.5  # relevance from which text alone counts as a direct match


class TaskRequest(NamedTuple):
    task: str
    path: str | None = None
    path_is_dir: bool = False
    operation: str | None = None
    phase: str | None = None
    budget: int = DEFAULT_BUDGET
    max_entries: int = DEFAULT_MAX_ENTRIES
    session: str | None = None
    already_given: frozenset[str] = frozenset()  # by earlier calls of the same session

    @property
    def session_start(self) -> bool:
        """No task text: what an agent should know from the first moment of a session."""
        return not self.task.strip()

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task or None,
            "kind": "session-start" if self.session_start else "task",
            "path": self.path,
            "operation": self.operation,
            "phase": self.phase,
            "session": self.session,
            "contextBudget": self.budget,
            "maxEntries": self.max_entries,
        }


class Candidate:
    """A record that applies, as ranked.  Delivery is planned from its lengths; title, summary
    and text are read only for the candidates ranked high enough to be placed (`reached`)."""

    __slots__ = (
        "id", "lifecycle", "manifest_length", "memory_type", "reached", "rowid", "scope", "score", "strong",
        "summary", "tasks", "text", "text_length", "tier", "title", "why",
    )  # fmt: skip

    def __init__(
        self,
        id: str,
        rowid: int,
        memory_type: str,
        lifecycle: str,
        text_length: int,
        manifest_length: int,  # title plus summary
        score: float,
        why: list[str],
        strong: bool,  # a selector or keyword matched, or the text is clearly relevant
        tier: int,  # DIRECT, SELECTED, STANDING, COMMON or USED: ranks before the score
        scope: str,
        tasks: str,  # its `tasks` keywords, one a line (for the kin of the best matches)
    ) -> None:
        self.id = id
        self.rowid = rowid
        self.memory_type = memory_type
        self.lifecycle = lifecycle
        self.text_length = text_length
        self.manifest_length = manifest_length
        self.score = score
        self.why = why
        self.strong = strong
        self.tier = tier
        self.scope = scope
        self.tasks = tasks
        self.reached = True  # ranked high enough for delivery to consider it
        self.title = self.summary = self.text = ""


class Selection:
    __slots__ = ("already_given", "candidates", "excluded", "request")

    def __init__(
        self,
        candidates: list[Candidate],
        excluded: dict[str, str],
        already_given: int,
        request: TaskRequest,
    ) -> None:
        self.candidates = candidates  # applicable and positively matched (or core-profile), best first
        self.excluded = excluded  # id -> the condition that excluded it (for explain; see select)
        self.already_given = already_given  # applicable, but given earlier in this session
        self.request = request  # what it was selected for


DETAIL_SLACK = 24  # candidates considered beyond what max-entries needs, for budget skips

# Where delivery places a selection's candidates (director/deliver.py's plan): (candidate, in
# full?) for each one placed, from the candidates best first, how many were given earlier in the
# session, and the request.  It needs only what ranking sets, none of the texts.
Placements = Callable[[list[Candidate], int, TaskRequest], list[tuple[Candidate, bool]]]
SEARCH_APART_FROM = 30_000  # records from which the full-text search runs in a thread


# (rowid, title, summary, text, conflictsWith): what delivery reads of the candidates it may place.
TextRow = tuple[int, str, str, str, "list[str] | None"]


class CandidateRows(Protocol):
    """Where the candidate search reads its rows: the local SQLite index (SqliteRows), or the
    server's database.  A row is a tuple of _COLUMNS; its rowid is the source's key for it.
    Which rows to read is decided here; the source reads them near the data."""

    def now(self) -> float:
        """The Julian day now (what the rows' updated_jd is counted in)."""

    def lexical(self, task: str) -> dict[int, float]:
        """rowid -> relevance of the record's text to the task text, in 0..1 (see _lexical)."""

    def keyword_hits(self, task: str) -> list[int]:
        """Rows whose `tasks` keywords share a word with the task (checked exactly later)."""

    def common_selectors(self, stores: list[str], request: TaskRequest) -> frozenset[str]:
        """See common_selectors."""

    def rows(
        self,
        stores: list[str],
        request: TaskRequest,
        hits: list[int],
        everything: bool,
        *,
        standing: bool = True,
    ) -> list[tuple[Any, ...]]:
        """See _rows."""

    def texts(self, rowids: list[int], in_full: list[int]) -> list[TextRow]:
        """(rowid, title, summary, text or '' unless in `in_full`, conflictsWith or None) of `rowids`."""

    def terms(self, rowids: list[int]) -> dict[int, str]:
        """rowid -> the record's indexed terms (matching.text.record_terms), for `rowids`."""

    def live_ids(self, ids: list[str]) -> set[str]:
        """Which of `ids` are live, current records."""

    def search_apart(self) -> Callable[[str], dict[int, float]] | None:
        """`lexical` on a connection of its own, to run in a thread beside the rows' reads (a
        large local index), or None."""


def select(
    connection: Any,
    stores: list[str],
    request: TaskRequest,
    has_fts: bool,
    *,
    everything: bool = False,
    search: Callable[[], Any] | None = None,
    placements: Placements | None = None,
) -> Selection:
    """select_from over the local index (`connection`); `search` opens another connection to it:
    on a large index the full-text search then runs on it in a thread while this connection
    reads the rows that need no search (SQLite lets go of the GIL while it works, so the two
    take about the time of the longer)."""
    source = SqliteRows(connection, has_fts, search)
    return select_from(source, stores, request, everything=everything, placements=placements)


def select_from(
    source: CandidateRows,
    stores: list[str],
    request: TaskRequest,
    *,
    everything: bool = False,
    placements: Placements | None = None,
) -> Selection:
    """The applicable candidates, best first, with the title, summary and text of the ones
    delivery plans to deliver (every core-profile record and the best others are considered;
    the rest are ranked from the index's narrow columns alone and counted).  With `placements`
    (where delivery puts the candidates: Query.placements), only the texts of the candidates it
    places are read, and a text in full only for those it gives in full.

    Only rows that could match are read: core-profile records, rules that the request's
    operation or phase fires, records anchored on the request path and records the full-text
    index finds for the task text; rows that an operation or phase selector excludes are
    passed over by the source.  `everything` reads every row, so that `explain` can say why a
    record was excluded (only then is `excluded` complete)."""
    search = source.search_apart()
    ranker = _Ranker(request, source.now(), source.common_selectors(stores, request))
    ranked: dict[int, tuple[str, Candidate | str]] = {}  # rowid -> (id, candidate or why excluded)
    read: list[tuple[Any, ...]] = []  # rows ranked before the last ones (the threaded search)
    if search is None:
        relevance, keyword_hits = source.lexical(request.task), source.keyword_hits(_keyword_words(request))
        rows = source.rows(stores, request, _hits(relevance, keyword_hits), everything)
    else:
        # The rows that need no search are read and ranked (as if no text were relevant)
        # while the text search runs; the few that the text turns out to be relevant to are
        # ranked again, and the search's other
        # hits read and ranked after.
        searching = _Background(search, request.task)
        rows = source.rows(stores, request, [], everything)
        standing = {row[_ROWID]: row for row in rows}
        read = rows
        for row in rows:
            ranked[row[_ROWID]] = (row[0], ranker.rank(row, 0.0))
        keyword_hits = source.keyword_hits(_keyword_words(request))
        relevance = searching.result()
        relevant = [rowid for rowid, value in relevance.items() if value > 0]  # ranked again
        rows = [standing[rowid] for rowid in relevant if rowid in standing]
        if not everything:
            hits = [rowid for rowid in _hits(relevance, keyword_hits) if rowid not in standing]
            rows += source.rows(stores, request, hits, everything, standing=False)
    for row in rows:
        ranked[row[_ROWID]] = (row[0], ranker.rank(row, relevance.get(row[_ROWID], 0.0)))
    if not everything and not request.session_start:
        _rank_kin(source, stores, request, ranker, ranked, [*read, *rows], relevance)
    chosen = [outcome for _, outcome in ranked.values() if isinstance(outcome, Candidate)]
    excluded = {record_id: outcome for record_id, outcome in ranked.values() if isinstance(outcome, str)}
    # Best first: by tier, then score; equal scores by id (stable sorts: faster than a key of tuples).
    chosen.sort(key=attrgetter("id"))
    chosen.sort(key=attrgetter("score"), reverse=True)
    chosen.sort(key=_rank_class if not request.session_start else attrgetter("tier"), reverse=True)
    given = [c for c in chosen if c.id in request.already_given]
    chosen = [c for c in chosen if c.id not in request.already_given]
    if not request.session_start:
        _regroup(source, chosen, request)
    if not everything:
        # Delivery considers the best others only; the rest could never fit.
        reach = request.max_entries + DIRECT_POLICIES + DETAIL_SLACK
        others = [c for c in chosen if c.memory_type != "core-profile"]
        for candidate in others[reach:]:
            candidate.reached = False
    if placements is not None and not everything:
        placed = placements(chosen, len(given), request)
        _read_texts(source, [c for c, _ in placed], request, [c.rowid for c, in_full in placed if in_full])
    else:
        _read_texts(source, [c for c in chosen if c.reached], request)
    return Selection(chosen, excluded, len(given), request)


def _keyword_words(request: TaskRequest) -> str:
    """The words whose `tasks` keywords make a row worth reading: the task's and, for a task
    done on a path, the path's (see _Ranker.place)."""
    if request.path is None or request.session_start:
        return request.task
    return f"{request.task} {path_words(request.path)}"


def _rank_class(candidate: Candidate) -> int:
    """What a task request ranks a candidate by before its score: its tier, except that the
    project's standing rules and the rules whose operation or phase matched (neither says the
    task is about them) rank together, by score: a standing rule whose text is near the task,
    or near what the best matches are about, before an operation rule about something else."""
    return SELECTED if candidate.tier == STANDING else candidate.tier


class SqliteRows:
    """The candidate rows of the local index (index.py's tables)."""

    def __init__(self, connection: Any, has_fts: bool, search: Callable[[], Any] | None = None) -> None:
        self.connection = connection
        self.has_fts = has_fts
        self.search = search

    def now(self) -> float:
        return float(self.connection.execute("SELECT julianday('now')").fetchone()[0])

    def search_apart(self) -> Callable[[str], dict[int, float]] | None:
        if self.search is None:
            return None
        # The thread costs a connection and some to-and-fro of the GIL (a millisecond or
        # two): it pays only on a large index.  The highest rowid is a cheap estimate.
        size = self.connection.execute("SELECT max(rowid) FROM records").fetchone()[0] or 0
        if size < SEARCH_APART_FROM:
            return None
        connect, has_fts = self.search, self.has_fts
        return lambda task: _lexical_apart(connect, task, has_fts)

    def lexical(self, task: str) -> dict[int, float]:
        return _lexical(self.connection, task, self.has_fts)

    def keyword_hits(self, task: str) -> list[int]:
        return _keyword_hits(self.connection, task, self.has_fts)

    def common_selectors(self, stores: list[str], request: TaskRequest) -> frozenset[str]:
        return common_selectors(self.connection, stores, request)

    def rows(
        self,
        stores: list[str],
        request: TaskRequest,
        hits: list[int],
        everything: bool,
        *,
        standing: bool = True,
    ) -> list[tuple[Any, ...]]:
        return _rows(self.connection, stores, request, hits, everything, standing=standing)

    def texts(self, rowids: list[int], in_full: list[int]) -> list[TextRow]:
        # conflicts_with: the ids (which hold no space) of the record's conflictsWith, or ''.
        rows = self.connection.execute(
            "SELECT r.rowid, r.title, r.summary,"
            " CASE WHEN r.rowid IN (SELECT value FROM json_each(?))"
            " THEN (SELECT body FROM record_texts t WHERE t.record = r.rowid) ELSE '' END,"
            " r.conflicts_with FROM records r WHERE r.rowid IN (SELECT value FROM json_each(?))",
            [json.dumps(in_full), json.dumps(rowids)],
        ).fetchall()
        return [(rowid, title, summary, text, linked.split() if linked else None)
                for rowid, title, summary, text, linked in rows]  # fmt: skip

    def terms(self, rowids: list[int]) -> dict[int, str]:
        return dict(
            self.connection.execute(
                "SELECT record, terms FROM record_texts WHERE record IN (SELECT value FROM json_each(?))",
                [json.dumps(rowids)],
            ).fetchall()
        )

    def live_ids(self, ids: list[str]) -> set[str]:
        return {
            row[0]
            for row in self.connection.execute(
                "SELECT id FROM records WHERE id IN (SELECT value FROM json_each(?))"
                " AND state = 'live' AND lifecycle != 'superseded'",
                [json.dumps(ids)],
            )
        }


class _Ranker:
    """One request's rules (see the module docstring) applied to rows of _COLUMNS."""

    def __init__(self, request: TaskRequest, now: float, common: frozenset[str] = frozenset()) -> None:
        self.request = request
        self.task = TaskText(request.task)
        self.operation = (request.operation or "").lower()
        self.phase = (request.phase or "").lower()
        self.now = now  # the Julian day
        self.session_start = request.session_start
        self.common = common  # the request's operation or phase, when most rules carry it
        self.kin: TaskText | None = None  # the keywords of the best direct matches (see _rank_kin)
        # The path a task is done on tells what it is about ("src/uploads/…" concerns uploads),
        # less surely than the task's own words: a keyword only it names counts half.
        self.place = TaskText(path_words(request.path)) if request.path and not self.session_start else None
        self.words = self.task.words | (self.place.words if self.place is not None else frozenset())
        self.on_path: set[int] = set()  # rows whose paths selector matched the request path
        self.seeds: set[int] = set()  # rows whose keywords are the kin's (see _rank_kin)

    def rank(self, row: tuple[Any, ...], relevant: float) -> Candidate | str:
        """The candidate a row makes, or why it is excluded; `relevant` is its text relevance."""
        (record_id, memory_type, authority, lifecycle, scope, updated_jd, paths, operations, phases,
         tasks, rowid, outcomes, text_length, manifest_length) = row  # fmt: skip
        request = self.request
        why: list[str] = ["current project" if scope == "project" else "your global memory"]
        matches = 0.0  # how well the request matches: ranks first
        strong = False
        path_matched = False
        only_operations = not paths and not tasks  # a rule that fires on its operation/phase alone
        if paths and request.path is not None:
            try:
                matched = path_match(paths, request.path, request.path_is_dir)
            except (ValueError, re.error):  # one row the index holds badly costs only itself
                return "its paths selector cannot be read (`comet repair` rebuilds the index)"
            if matched is None:
                return f"path {request.path} does not match its paths selector"
            why.append(f"path matches {matched}")
            self.on_path.add(rowid)
            matches += 2.0 + min(0.5 * matched.strip("/").count("/"), 2.0)
            path_matched = True
        selected = False  # an operation or phase selector matched
        telling = False  # ... one that most rules do not carry (see common_selectors)
        operation, phase = self.operation, self.phase
        if operations and operation:
            if f",{operation}," not in operations:
                return f"operation {operation} is not in its operations selector"
            why.append(f"operation is {operation}")
            matches += 2.0 if only_operations else 1.0
            selected, telling = True, operation not in self.common
        if phases and phase:
            if f",{phase}," not in phases:
                return f"phase {phase} is not in its phases selector"
            why.append(f"phase is {phase}")
            matches += 1.0 if only_operations else 0.5
            selected, telling = True, telling or phase not in self.common
        fired = selected and only_operations
        said, meant = mentions(self.task, tasks.split("\n")) if tasks else ([], [])
        kin = mentions(self.kin, tasks.split("\n"))[0] if tasks and self.kin is not None else []
        if said:
            why.append("task mentions " + ", ".join(said[:3]))
            matches += min(2.0 * len(said), 4.0)
            strong = True
        elif meant:
            why.append("task is about " + ", ".join(meant[:3]))
            matches += min(1.5 * len(meant), 3.0)
            strong = True
        named_by_path: list[str] = []
        if tasks and not said and not meant and self.place is not None:
            found_by_path = mentions(self.place, tasks.split("\n"))
            named_by_path = [keyword for found in found_by_path for keyword in found]
            if named_by_path:
                why.append("the path is about " + ", ".join(named_by_path[:3]))
                matches += min(1.0 * len(named_by_path), 2.0)
                strong = True
        # A keyword of several words that the task (or its path) names in part ("invariant" of
        # "invariant suite"): less sure than the whole, it ranks with the operation matches.
        named = bool(said or meant or named_by_path)
        in_part = named_in_part(self.words, tasks.split("\n")) if tasks and not named else []
        if in_part:
            why.append("the task names part of " + ", ".join(in_part[:3]))
            matches += min(1.0 * len(in_part), 2.0)
            selected, telling = True, True
        aside = False  # a rule about something else, on the path of the request
        if path_matched:
            # A rule with keywords is about something: on a path it matches, a task about something
            # else meets half of it (the path), which says as little as a common operation: many
            # rules of a project carry its main folder.
            if tasks and not named and not in_part and relevant < LEXICAL_FLOOR:
                selected, aside = True, True
            else:
                strong = True
        # Text too faintly relevant to count as a match still orders the records that match
        # only by an operation or as standing rules: the ones nearer the task first.
        matches += 4.0 * min(relevant, 1.0)
        if relevant >= LEXICAL_FLOOR:
            if not said and not meant:
                why.append("task text is relevant" + (" (strongly)" if relevant >= STRONG_RELEVANCE else ""))
            strong = strong or relevant >= STRONG_RELEVANCE
        direct = strong or fired or relevant >= LEXICAL_FLOOR
        if kin and not direct:
            if rowid in self.seeds:  # a rule of the path that tells what the task is about
                why.append("the best match on this path (" + ", ".join(kin[:3]) + ")")
            else:
                why.append("shares keywords with the best match (" + ", ".join(kin[:3]) + ")")
            matches += min(1.0 * len(kin), 2.0)
            selected, telling = True, True
        elif aside:
            telling = False  # whatever its operation: it ranks below the standing rules
        standing = self.standing(row)
        tier = self.tier(direct, selected, telling, memory_type, authority, lifecycle, standing, outcomes)
        if tier is None:
            return "nothing in the request matches it (no selector, keyword or relevant text)"
        if tier == STANDING and memory_type != "core-profile":
            why.append(
                "a standing rule of this project" if scope == "project" else "a standing rule of yours"
            )
        elif tier == USED:
            why.append("often used in this project")
        if authority == "explicit":
            why.append("explicitly set by you")
        # Authority, lifecycle and scope order records that match alike; they do not
        # outweigh a better match.
        score = (
            matches
            + 1.0 * (authority == "explicit")
            + 1.0 * (lifecycle == "proven")
            + 0.5 * (scope == "project")
            + 0.5 * _recency(None if updated_jd is None else self.now - updated_jd)
            + _history(outcomes, why)
        )
        strong = strong or fired
        return Candidate(
            record_id,
            rowid,
            memory_type,
            lifecycle,
            text_length,
            manifest_length,
            score,
            why,
            strong,
            tier,
            scope,
            tasks,
        )

    def standing(self, row: tuple[Any, ...]) -> bool:
        """A project's policy with no narrowing selector, explicit: it matches the current
        project whatever the request.  At session start, where the request gives no operation
        or phase, a proven policy that waits only for one stands too, whoever formed it.

        Global rules never stand: "your global memory" says nothing about a request (what
        should reach every request everywhere is core profile), and a rule about one
        repository taken for a global one would otherwise reach every other repository."""
        (_, memory_type, authority, _, scope, _, paths, operations, phases, tasks, *_) = row
        if scope != "project" or memory_type != "collaboration-policy" or paths or tasks:
            return False
        return self.session_start or (authority == "explicit" and not operations and not phases)

    def tier(
        self,
        direct: bool,
        selected: bool,
        telling: bool,
        memory_type: str,
        authority: str,
        lifecycle: str,
        standing: bool,
        outcomes: str,
    ) -> int | None:
        """What kind of match a candidate has (None: none at all)."""
        if direct:
            return DIRECT
        if selected and telling:
            return SELECTED
        if memory_type == "core-profile" or (standing and lifecycle == "proven"):
            return STANDING
        if selected:  # only on an operation (or phase) that most rules carry, such as edit
            return COMMON
        if self.session_start and outcomes and not outcomes.startswith("0 "):
            return USED
        return None


def _regroup(source: CandidateRows, chosen: list[Candidate], request: TaskRequest) -> None:
    """The best candidates other than the core profile (as many as delivery shows), ordered
    again by what they are about together (matching.coherence), in the places they held."""
    places = [i for i, c in enumerate(chosen) if c.memory_type != "core-profile"]
    places = places[: request.max_entries + DIRECT_POLICIES]
    if len(places) < 3:
        return
    best = [chosen[i] for i in places]
    terms = source.terms([c.rowid for c in best])
    regrouped = regroup(request.task, [terms.get(c.rowid, "") for c in best])
    for index in regrouped.with_best:
        best[index].why.append("about the same thing as the best matches")
    for place, index in zip(places, regrouped.order, strict=True):
        chosen[place] = best[index]


KIN_SEEDS = 2  # the best direct matches whose keywords find their kin


def _rank_kin(
    source: CandidateRows,
    stores: list[str],
    request: TaskRequest,
    ranker: _Ranker,
    ranked: dict[int, tuple[str, Candidate | str]],
    rows: list[tuple[Any, ...]],
    relevance: dict[int, float],
) -> None:
    """Query expansion from the records' own `tasks` vocabulary: the rules that share keywords
    with the best direct matches (a task that names a flag rule's words also concerns the other
    flag rules, whatever they are worded in) become matches too, below the direct ones."""
    direct = [c for _, c in ranked.values() if isinstance(c, Candidate) and c.tier == DIRECT
              and c.memory_type != "core-profile"]  # fmt: skip
    if len(direct) >= request.max_entries + DIRECT_POLICIES:
        return  # direct matches fill everything delivery could hold: kin, ranked below them, would not show
    best = sorted((c for c in direct if c.tasks and c.strong), key=attrgetter("score"), reverse=True)[
        :KIN_SEEDS
    ]
    if len(best) < KIN_SEEDS:
        # A task that names too few rules: what the work is about is told by the rules whose path
        # matched it ("internal/http/**: authorise in the handler" for a handler being written).
        on_path = [c for _, c in ranked.values() if isinstance(c, Candidate) and c.tier in (SELECTED, COMMON)
                   and c.tasks and c.rowid in ranker.on_path]  # fmt: skip
        best += sorted(on_path, key=attrgetter("score"), reverse=True)[: KIN_SEEDS - len(best)]
    keywords = sorted({keyword for c in best for keyword in c.tasks.split("\n")})
    if not keywords:
        return
    ranker.seeds = {c.rowid for c in best}
    seeds = " ".join(keywords)
    ranker.kin = TaskText(seeds)
    # A row may have been read twice (by several of _rows's queries): rank each once.
    known = {row[_ROWID]: row for row in rows}
    hits = [rowid for rowid in source.keyword_hits(seeds) if rowid not in known]
    for row in source.rows(stores, request, hits, False, standing=False) if hits else []:
        known[row[_ROWID]] = row
    _order_by_seeds(ranked, source.lexical(seeds))
    for row in known.values():
        tasks = row[_TASKS]
        if not tasks or not mentions(ranker.kin, tasks.split("\n"))[0]:
            continue  # shares no keyword (in any form of its words): ranked as it was
        outcome = ranked.get(row[_ROWID], ("", ""))[1]
        if isinstance(outcome, Candidate) and outcome.tier == DIRECT:
            continue
        ranked[row[_ROWID]] = (row[0], ranker.rank(row, relevance.get(row[_ROWID], 0.0)))


SEED_WEIGHT = 2.0  # how much the best matches' keywords order the candidates that match less well


def _order_by_seeds(ranked: dict[int, tuple[str, Candidate | str]], relevance: dict[int, float]) -> None:
    """The candidates below the direct matches (standing rules, operation matches), ordered
    also by how relevant their text is to the keywords of the best matches: a standing rule
    has no keywords of its own, but its text is often about what the best matches are about,
    in either language (keywords are often given in both)."""
    for rowid, (_, outcome) in ranked.items():
        value = min(relevance.get(rowid, 0.0), 1.0)
        if (
            not isinstance(outcome, Candidate)
            or outcome.tier == DIRECT
            or outcome.memory_type == "core-profile"
        ):
            continue
        outcome.score += SEED_WEIGHT * value
        if value >= LEXICAL_FLOOR:
            outcome.why.append("its text is about what the best matches are about")


COMMON_SHARE = 0.3  # an operation or phase that this share of the selected rules carry says little
COMMON_FROM = 10  # ... once there are this many such rules to tell


def asked_selectors(request: TaskRequest) -> list[tuple[str, str]]:
    """(index column, lowercased value) of the operation and phase the request gives."""
    return [(column, value.lower()) for column, value in
            (("sel_operations", request.operation), ("sel_phases", request.phase)) if value]  # fmt: skip


def standing_condition(request: TaskRequest) -> str:
    """The SQL condition (both backends' column names) that narrows the project's proven rules
    with no path or keyword selector to the standing ones (_Ranker.standing): at session start
    all of them, else the explicit ones with no selector at all."""
    if request.session_start:
        return ""
    return " AND authority = 'explicit' AND sel_operations = '' AND sel_phases = ''"


def common_of(asked: list[tuple[str, str]], counts: tuple[int, ...] | None) -> frozenset[str]:
    """The `asked` values that are common: `counts` is the number of selected rules, then how
    many of them carry each asked value (a backend counts them its own way)."""
    if counts is None or counts[0] < COMMON_FROM:
        return frozenset()
    total, carrying = counts[0], counts[1:]
    return frozenset(
        value for (_, value), count in zip(asked, carrying, strict=True) if count >= COMMON_SHARE * total
    )


def common_selectors(connection: Any, stores: list[str], request: TaskRequest) -> frozenset[str]:
    """The request's operation and phase, as far as most rules with keywords and an operation or
    phase selector carry them ("edit", usually): a match on such a value alone ranks below the
    project's standing rules."""
    asked = asked_selectors(request)
    if not asked:
        return frozenset()
    in_stores = ", ".join("?" for _ in stores)
    carrying = ", ".join(f"sum(instr({column}, ?) > 0)" for column, _ in asked)
    row = connection.execute(
        f"SELECT count(*), {carrying} FROM records INDEXED BY records_selected"
        " WHERE memory_type != 'core-profile' AND (tasks != '' OR sel_paths != '')"
        " AND (sel_operations != '' OR sel_phases != '')"
        f" AND store IN ({in_stores}) AND state = 'live' AND lifecycle != 'superseded'",
        [*(f",{value}," for _, value in asked), *stores],
    ).fetchone()
    return common_of(asked, row)


def _hits(relevance: dict[int, float], keyword_hits: list[int]) -> list[int]:
    """The rows the text search found worth reading: relevance that fainter than LEXICAL_FLOOR
    only orders rows read for another match (an operation, a standing rule)."""
    return [rowid for rowid, value in relevance.items() if value >= LEXICAL_FLOOR] + keyword_hits


_COLUMNS = (
    "id, memory_type, authority, lifecycle, scope, updated_jd, sel_paths, sel_operations, sel_phases, tasks,"
    " rowid, outcomes, text_length, manifest_length"
)
_TASKS, _ROWID = 9, 10  # their places in _COLUMNS


def _rows(
    connection: Any,
    stores: list[str],
    request: TaskRequest,
    hits: list[int],
    everything: bool,
    *,
    standing: bool = True,
) -> list[tuple[Any, ...]]:
    """The current rows worth ranking, in _COLUMNS: `hits` and, when `standing`, the core profile,
    the rules the operation or phase fires and the rows anchored on the request path (a row
    may come twice).  With `everything`, every current row of the stores."""
    in_stores = ", ".join("?" for _ in stores)
    current = "state = 'live' AND lifecycle != 'superseded'"
    if everything:
        sql = f"SELECT {_COLUMNS} FROM records WHERE store IN ({in_stores}) AND {current}"
        return list(connection.execute(sql, stores).fetchall())
    # Rows whose operation or phase selector excludes them are never read (nor reported:
    # `excluded` is complete only with `everything`).
    selectors = [(column, f",{value.lower()},") for column, value in
                 (("sel_operations", request.operation), ("sel_phases", request.phase)) if value]  # fmt: skip
    applicable = [f"({column} = '' OR instr({column}, ?) > 0)" for column, _ in selectors]
    keys = [key for _, key in selectors]
    # Looked up by rowid.  The "+" keeps SQLite from walking the (store, state) index over
    # every record of the stores instead.
    wanted = ["SELECT value FROM json_each(?)"]
    params: list[Any] = [json.dumps(hits)]
    if standing and request.path is not None:
        anchors, anchor_params = _anchored(request.path, request.path_is_dir)
        wanted.append(f"SELECT record FROM path_anchors WHERE {anchors}")
        params += anchor_params
    conditions = " AND ".join([f"+store IN ({in_stores})", "+state = 'live'", "lifecycle != 'superseded'",
                               *applicable])  # fmt: skip
    by_rowid = " UNION ALL ".join(wanted)
    selects = [f"SELECT {_COLUMNS} FROM records WHERE rowid IN ({by_rowid}) AND {conditions}"]
    params += stores + keys
    if standing:
        # Read from the covering indexes records_core and records_rules (index.py), whose
        # conditions are repeated word for word, as a partial index needs.  INDEXED BY:
        # left to itself, SQLite would rather walk the (store, state) index.
        conditions = " AND ".join([f"store IN ({in_stores})", current, *applicable])
        selects.append(
            f"SELECT {_COLUMNS} FROM records INDEXED BY records_core"
            f" WHERE memory_type = 'core-profile' AND {conditions}"
        )
        params += stores + keys
        if keys:
            fires = " OR ".join(f"instr({column}, ?) > 0" for column, _ in selectors)
            selects.append(
                f"SELECT {_COLUMNS} FROM records INDEXED BY records_rules"
                " WHERE memory_type != 'core-profile' AND sel_paths = '' AND tasks = ''"
                f" AND (sel_operations != '' OR sel_phases != '') AND {conditions} AND ({fires})"
            )
            params += stores + keys + keys
            # Rules with keywords (or, when the request names no path, paths) whose operation
            # or phase selector matched: they rank below every direct match, so only the best
            # few, by what orders them (explicit, proven, project, recent), can be delivered.
            unanchored = "" if request.path is None else " AND sel_paths = ''"
            selects.append(
                f"SELECT * FROM (SELECT {_COLUMNS} FROM records INDEXED BY records_selected"
                " WHERE memory_type != 'core-profile' AND (tasks != '' OR sel_paths != '')"
                f" AND (sel_operations != '' OR sel_phases != ''){unanchored} AND {conditions} AND ({fires})"
                " ORDER BY (authority = 'explicit') + (lifecycle = 'proven') + 0.5 * (scope = 'project')"
                " DESC, updated_jd DESC LIMIT ?)"
            )
            params += [*stores, *keys, *keys, request.max_entries + DETAIL_SLACK]
        # Standing rules: the project's proven policies with no path or keyword selector (see
        # standing_condition).
        narrow = standing_condition(request)
        # They rank below every direct match, so only the best few (project first, then the
        # most recent) can be delivered.
        selects.append(
            f"SELECT * FROM (SELECT {_COLUMNS} FROM records INDEXED BY records_standing"
            " WHERE memory_type != 'core-profile' AND sel_paths = '' AND tasks = '' AND lifecycle = 'proven'"
            " AND scope = 'project'"
            f" AND {conditions}{narrow} ORDER BY scope = 'project' DESC, updated_jd DESC LIMIT ?)"
        )
        params += [*stores, *keys, request.max_entries + DETAIL_SLACK]
        if request.session_start:
            # The rules used successfully before (ranked after the standing ones).
            selects.append(
                f"SELECT * FROM (SELECT {_COLUMNS} FROM records INDEXED BY records_used"
                " WHERE memory_type != 'core-profile' AND outcomes != '' AND outcomes NOT LIKE '0 %'"
                f" AND {conditions}"
                " ORDER BY CAST(outcomes AS INTEGER) DESC LIMIT ?)"
            )
            params += [*stores, *keys, request.max_entries + DETAIL_SLACK]
    return list(connection.execute(" UNION ALL ".join(selects), params).fetchall())


def _anchored(path: str, is_dir: bool) -> tuple[str, list[Any]]:
    """The condition on path_anchors of the records whose patterns could match `path`
    (see paths.path_anchors)."""
    condition = "anchor IN (SELECT value FROM json_each(?))"
    params: list[Any] = [json.dumps(request_keys(path, is_dir))]
    if is_dir:  # a folder also gets what is rooted inside it: anchors that start with root:PATH/
        prefix = f"root:{path}/"
        condition += " OR (anchor >= ? AND anchor < ?)"
        params += [prefix, prefix[:-1] + chr(ord("/") + 1)]
    return condition, params


class _Background:
    """A function run in a thread; `result` waits for it (and raises what it raised)."""

    def __init__(self, function: Callable[..., Any], *args: Any) -> None:
        import threading  # only large indexes search in a thread (see select)

        self._outcome: tuple[bool, Any] = (False, None)
        self._thread = threading.Thread(target=self._run, args=(function, *args), daemon=True)
        self._thread.start()

    def _run(self, function: Callable[..., Any], *args: Any) -> None:
        try:
            self._outcome = (True, function(*args))
        except BaseException as error:  # handed to the caller by result()
            self._outcome = (False, error)

    def result(self) -> Any:
        self._thread.join()
        done, value = self._outcome
        if not done:
            raise value
        return value


def _lexical_apart(connect: Callable[[], Any], task: str, has_fts: bool) -> dict[int, float]:
    """_lexical on a connection of its own (closed after)."""
    connection = connect()
    try:
        return _lexical(connection, task, has_fts)
    finally:
        connection.close()


def _history(outcomes: str, why: list[str]) -> float:
    """Outcomes reported on earlier deliveries move the score (and say so)."""
    if not outcomes:
        return 0.0
    success, ignored, corrected, failed = (int(n) for n in outcomes.split())
    if success:
        why.append("recently applied successfully")
    return 0.5 * min(success, 4) - 0.25 * ignored - 1.0 * corrected - 1.5 * failed


def may_be_given_in_full(candidate: Candidate, request: TaskRequest) -> bool:
    """Whether delivery may give this candidate's text in full, budget allowing (director/deliver.py
    decides from this): the core profile; a directly matching proven policy; at session start,
    the project's standing rules.  The search reads the text of no other candidate."""
    if candidate.memory_type == "core-profile":
        return True
    if request.session_start:
        return candidate.tier == STANDING and candidate.scope == "project"
    return (
        candidate.memory_type == "collaboration-policy"
        and candidate.lifecycle == "proven"
        and candidate.strong
    )


def _read_texts(
    source: CandidateRows, candidates: list[Candidate], request: TaskRequest, in_full: list[int] | None = None
) -> None:
    """Title and summary of the candidates delivery may place (the ones reached: of the rest it
    needs only the lengths), and the text of those it may give in full (or of the rowids
    `in_full`); and, for each that contradicts a live record the tool could not settle, a
    whyApplied that says so."""
    if not candidates:
        return
    by_rowid = {candidate.rowid: candidate for candidate in candidates}
    if in_full is None:
        in_full = [c.rowid for c in candidates if may_be_given_in_full(c, request)]
    conflicts: dict[int, list[str]] = {}
    for rowid, title, summary, text, linked in source.texts(list(by_rowid), in_full):
        candidate = by_rowid[rowid]
        candidate.title, candidate.summary, candidate.text = title, summary, text
        if linked:
            conflicts[rowid] = linked
    if conflicts:
        live = source.live_ids([i for ids in conflicts.values() for i in ids])
        for rowid, ids in conflicts.items():
            by_rowid[rowid].why += [
                f"conflicts with {other} (unsettled: ask which holds)" for other in ids if other in live
            ]


LEXICAL_TOP = 400  # the best BM25 matches considered; a listing never shows more than a few dozen


def _lexical(connection: Any, task: str, has_fts: bool) -> dict[int, float]:
    """rowid -> relevance of a record's text to the task text, in 0..1.

    Relevance is coverage (the share of the task's words, idf-weighted, that the record's
    text contains, a word found only through its concept counting a little less) times the
    record's BM25 relative to the best one (between 0.5 and 1): one shared filler word covers
    little of a task, however well it scores.  With FTS5 only the LEXICAL_TOP best BM25
    matches are weighed, so the cost does not grow with the number of records that share a
    common word with the task."""
    wanted = unique_slots(task)
    if not wanted:
        return {}
    if not has_fts:
        return _lexical_without_fts(connection, task, wanted)
    total = connection.execute("SELECT count(*) FROM records").fetchone()[0]  # counted from an index
    every = list(dict.fromkeys(t for slot in wanted for t in (slot.token, *slot.concepts)))
    frequency = dict(
        connection.execute(
            "SELECT term, doc FROM records_vocab"
            " WHERE col = 'terms' AND term IN (SELECT value FROM json_each(?))",
            [json.dumps(every)],
        ).fetchall()
    )
    idf = {token: math.log(1 + (total - df + 0.5) / (df + 0.5)) for token, df in frequency.items() if df}
    if not idf:
        return {}
    best = connection.execute(
        "SELECT rowid, -bm25(records_fts, 0, 0, 0, 0, 1.0) AS score FROM records_fts"
        " WHERE records_fts MATCH ? ORDER BY score DESC LIMIT ?",
        [fts_query(task), LEXICAL_TOP],
    ).fetchall()
    if not best:
        return {}
    top = best[0][1] or 1.0
    terms = dict(
        connection.execute(
            "SELECT record, terms FROM record_texts WHERE record IN (SELECT value FROM json_each(?))",
            [json.dumps([rowid for rowid, _ in best])],
        ).fetchall()
    )
    return {
        rowid: coverage(wanted, idf, terms.get(rowid, "")) * (0.5 + 0.5 * score / top)
        for rowid, score in best
    }


def _lexical_without_fts(connection: Any, task: str, wanted: list[Slot]) -> dict[int, float]:
    every = list(dict.fromkeys(t for slot in wanted for t in (slot.token, *slot.concepts)))
    total, postings = _postings(connection, every)
    idf = {
        token: math.log(1 + (total - len(rows) + 0.5) / (len(rows) + 0.5))
        for token, rows in postings.items()
        if rows
    }
    if not idf:
        return {}
    found = {rowid for rows in postings.values() for rowid in rows}
    documents = dict(
        connection.execute(
            f"SELECT record, terms FROM record_texts WHERE record IN ({', '.join('?' for _ in found)})",
            list(found),
        ).fetchall()
    )
    bm25 = {int(key): value for key, value in bm25_scores(task, documents).items()}
    best = max(bm25.values(), default=0.0) or 1.0
    return {
        rowid: coverage(wanted, idf, documents.get(rowid, "")) * (0.5 + 0.5 * bm25.get(rowid, 0.0) / best)
        for rowid in found
    }


def _postings(connection: Any, wanted: list[str]) -> tuple[int, dict[str, set[int]]]:
    """How many records there are, and which live ones contain each token (without FTS5)."""
    total = connection.execute("SELECT count(*) FROM records").fetchone()[0]
    postings: dict[str, set[int]] = {token: set() for token in wanted}
    live = (
        "SELECT t.record, t.terms FROM record_texts t JOIN records r ON r.rowid = t.record"
        " WHERE r.state = 'live'"
    )
    for rowid, terms in connection.execute(live):
        present = set(terms.split())
        for token in wanted:
            if token in present:
                postings[token].add(rowid)
    return total, postings


def _keyword_hits(connection: Any, task: str, has_fts: bool) -> list[int]:
    """Rows whose `tasks` keywords share a word with the task (checked exactly later)."""
    query = fts_query(task, column="tasks")
    if query is None:
        return []  # no word to mention a keyword with (a session start)
    if not has_fts:
        return [row[0] for row in connection.execute("SELECT rowid FROM records WHERE tasks != ''")]
    # Most tasks share a word with the keywords of fewer than LEXICAL_TOP records: those are all
    # the hits, and ranking them by BM25 first (for every one of them) would choose nothing.
    hits = connection.execute(
        "SELECT rowid FROM records_fts WHERE records_fts MATCH ? LIMIT ?", [query, LEXICAL_TOP + 1]
    ).fetchall()
    if len(hits) > LEXICAL_TOP:
        hits = connection.execute(
            "SELECT rowid, bm25(records_fts, 0, 0, 0, 1.0, 0) AS score FROM records_fts"
            " WHERE records_fts MATCH ? ORDER BY score LIMIT ?",
            [query, LEXICAL_TOP],
        ).fetchall()
    return [row[0] for row in hits]


def _recency(age_days: float | None) -> float:
    """1 for a record updated today, halving about every four months."""
    return math.exp(-max(age_days or 0.0, 0.0) / 180)
