"""Matching and ranking (SPEC §8): which records apply to a request, how well, and why.

Order of the checks: project → path → task → operation → phase.

Hard exclusions (never delivered): superseded and forgotten records, other projects'
records (none of these are even read), and a record whose `paths`, `operations` or
`phases` selector is set and does not match a value the request gives.  A selector on
a dimension the request leaves out excludes nothing.

A candidate is delivered only with at least one positive match: a path selector that
matched, a `tasks` keyword the task mentions, text relevant to the task, or an operation
or phase selector that matched on a rule that has no path or keyword selector (such a rule
fires on its operation alone: "before committing, ..."); core-profile records need none.

Score (higher first).  How well the request matches comes first:

    path matched                     3.0 (+0.25 per literal folder of the pattern, at most +1.0)
    operation / phase matched        2.0 / 1.0 for a rule that fires on it alone, else 0.5 / 0.25
    each tasks keyword mentioned     2.0 (at most 4.0)
    text relevance                   4.0 * relevance (0..1: the idf-weighted share of the task's
                                     words the record contains, times its BM25 against the best)

then what orders records that match alike, and what outcomes taught:

    explicit 1.0, proven 1.0, project scope 0.5, recency up to 0.5 (halving every ~4 months)
    0.5 * used-successfully (at most 4 counted) - 0.25 * ignored - 1.0 * corrected
    - 1.5 * contributed-to-failure
"""

from __future__ import annotations

import json
import math
from typing import Any, NamedTuple

from comet_git.director.paths import match as path_match
from comet_git.director.paths import request_keys
from comet_git.director.text import TaskText, bm25_scores, fts_query, mentions, tokens

LEXICAL_FLOOR = 0.2  # relevance below this is noise
STRONG_RELEVANCE = 0.5  # relevance from which text alone counts as a direct match
DIRECT_POLICIES = 3  # proven policies delivered in full, beyond the core profile


class TaskRequest(NamedTuple):
    task: str
    path: str | None = None
    path_is_dir: bool = False
    operation: str | None = None
    phase: str | None = None
    budget: int = 6000
    max_entries: int = 12
    session: str | None = None
    already_given: frozenset[str] = frozenset()  # by earlier calls of the same session

    def to_json(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "path": self.path,
            "operation": self.operation,
            "phase": self.phase,
            "session": self.session,
            "contextBudget": self.budget,
            "maxEntries": self.max_entries,
        }


class Candidate:
    """A record that applies, as ranked; title, summary and record are filled in later for the
    ones delivery can reach."""

    __slots__ = (
        "authority", "id", "lifecycle", "memory_type", "record", "scope", "score", "store", "strong",
        "summary", "title", "updated_at", "why",
    )  # fmt: skip

    def __init__(
        self,
        id: str,
        store: str,
        memory_type: str,
        authority: str,
        lifecycle: str,
        scope: str,
        title: str,
        summary: str,
        updated_at: str,
        score: float = 0.0,
        why: list[str] | None = None,
        strong: bool = False,  # a selector or keyword matched, or the text is clearly relevant
        record: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.store = store
        self.memory_type = memory_type
        self.authority = authority
        self.lifecycle = lifecycle
        self.scope = scope
        self.title = title
        self.summary = summary
        self.updated_at = updated_at
        self.score = score
        self.why: list[str] = [] if why is None else why
        self.strong = strong
        self.record = record


class Selection:
    __slots__ = ("already_given", "candidates", "excluded")

    def __init__(self, candidates: list[Candidate], excluded: dict[str, str], already_given: int = 0) -> None:
        self.candidates = candidates  # applicable and positively matched (or core-profile), best first
        self.excluded = excluded  # id -> the condition that excluded it (for explain)
        self.already_given = already_given  # applicable, but given earlier in this session


DETAIL_SLACK = 24  # candidates read in full beyond what max-entries needs, for budget skips


def select(
    connection: Any, stores: list[str], request: TaskRequest, has_fts: bool, *, everything: bool = False
) -> Selection:
    """The applicable candidates, best first.  The ones delivery can reach (every core-profile
    record, then the best others) come with their title, summary and full record; the rest
    are ranked from the index's columns alone and never read.

    Only rows that could match are read: core-profile records, records a selector of the
    request could fire (operation or phase alone, a path anchor on the request path) and
    records the full-text index finds for the task text.  `everything` reads every row, so
    that `explain` can say why a record was excluded."""
    task = TaskText(request.task)
    relevance = _lexical(connection, request.task, has_fts)
    rows = _rows(connection, stores, request, [r for r, value in relevance.items() if value >= LEXICAL_FLOOR],
                 _keyword_hits(connection, request.task, has_fts), everything)  # fmt: skip
    operation = (request.operation or "").lower()
    phase = (request.phase or "").lower()
    chosen: list[Candidate] = []
    excluded: dict[str, str] = {}
    for row in rows:
        (record_id, store, memory_type, authority, lifecycle, scope, age_days,
         paths, operations, phases, tasks, rowid, outcomes) = row  # fmt: skip
        why: list[str] = ["current project" if scope == "project" else "your global memory"]
        matches = 0.0  # how well the request matches: ranks first
        strong = False
        only_operations = not paths and not tasks  # a rule that fires on its operation/phase alone
        if paths and request.path is not None:
            matched = path_match(paths, request.path, request.path_is_dir)
            if matched is None:
                excluded[record_id] = f"path {request.path} does not match its paths selector"
                continue
            why.append(f"path matches {matched}")
            matches += 3.0 + min(0.25 * matched.strip("/").count("/"), 1.0)
            strong = True
        fired = False
        if operations and operation:
            if f",{operation}," not in operations:
                excluded[record_id] = f"operation {operation} is not in its operations selector"
                continue
            why.append(f"operation is {operation}")
            matches += 2.0 if only_operations else 0.5
            fired = only_operations
        if phases and phase:
            if f",{phase}," not in phases:
                excluded[record_id] = f"phase {phase} is not in its phases selector"
                continue
            why.append(f"phase is {phase}")
            matches += 1.0 if only_operations else 0.25
            fired = fired or only_operations
        keywords = mentions(task, tasks.split("\n")) if tasks else []
        if keywords:
            why.append("task mentions " + ", ".join(keywords[:3]))
            matches += min(2.0 * len(keywords), 4.0)
            strong = True
        relevant = relevance.get(rowid, 0.0)
        if relevant >= LEXICAL_FLOOR:
            matches += 4.0 * min(relevant, 1.0)
            if not keywords:
                why.append("task text is relevant" + (" (strongly)" if relevant >= STRONG_RELEVANCE else ""))
            strong = strong or relevant >= STRONG_RELEVANCE
        positive = strong or fired or relevant >= LEXICAL_FLOOR
        if not positive and memory_type != "core-profile":
            excluded[record_id] = "nothing in the request matches it (no selector, keyword or relevant text)"
            continue
        if authority == "explicit":
            why.append("explicitly set by you")
        # Authority, lifecycle and scope order records that match alike; they do not
        # outweigh a better match.
        score = (
            matches
            + 1.0 * (authority == "explicit")
            + 1.0 * (lifecycle == "proven")
            + 0.5 * (scope == "project")
            + 0.5 * _recency(age_days)
            + _history(outcomes, why)
        )
        fields = (record_id, store, memory_type, authority, lifecycle, scope, "", "", "")
        chosen.append(Candidate(*fields, score=score, why=why, strong=strong or fired))
    chosen.sort(key=lambda c: (-c.score, c.id))
    given = [c for c in chosen if c.id in request.already_given]
    chosen = [c for c in chosen if c.id not in request.already_given]
    reach = request.max_entries + DIRECT_POLICIES + DETAIL_SLACK
    core = [c for c in chosen if c.memory_type == "core-profile"]
    others = [c for c in chosen if c.memory_type != "core-profile"]
    _add_details(connection, chosen if everything else core + others[:reach])
    return Selection(chosen, excluded, len(given))


_COLUMNS = (
    "id, store, memory_type, authority, lifecycle, scope, julianday('now') - julianday(updated_at),"
    " sel_paths, sel_operations, sel_phases, tasks, rowid, outcomes"
)


# What needs no text or path to apply: the core profile, and rules fired by an operation
# or a phase alone.  The index has a partial index on exactly this condition.
_STANDING = (
    "memory_type = 'core-profile'"
    " OR (sel_paths = '' AND tasks = '' AND (sel_operations != '' OR sel_phases != ''))"
)


def _rows(
    connection: Any,
    stores: list[str],
    request: TaskRequest,
    lexical_hits: list[int],
    keyword_hits: list[int],
    everything: bool,
) -> list[tuple[Any, ...]]:
    """The rows worth ranking.  Their rowids are gathered by indexed lookups (text hits, path
    anchors, the partial index of standing rules) and only those rows are read."""
    where = f"store IN ({', '.join('?' for _ in stores)}) AND state = 'live' AND lifecycle != 'superseded'"
    params: list[Any] = list(stores)
    if not everything:
        wanted = set(lexical_hits) | set(keyword_hits)
        wanted.update(row[0] for row in connection.execute(f"SELECT rowid FROM records WHERE {_STANDING}"))
        if request.path is not None:
            wanted.update(_anchored(connection, request.path, request.path_is_dir))
        where += " AND rowid IN (SELECT value FROM json_each(?))"
        params.append(json.dumps(sorted(wanted)))
    rows: list[tuple[Any, ...]] = connection.execute(
        f"SELECT {_COLUMNS} FROM records WHERE {where}", params
    ).fetchall()
    return rows


def _anchored(connection: Any, path: str, is_dir: bool) -> list[int]:
    """Records whose path patterns could match `path` (see paths.path_anchors)."""
    condition = "anchor IN (SELECT value FROM json_each(?))"
    params: list[Any] = [json.dumps(request_keys(path, is_dir))]
    if is_dir:  # a folder also gets what is rooted inside it
        condition += " OR anchor LIKE ? ESCAPE '\\'"
        params.append("root:" + path.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%")
    return [
        row[0] for row in connection.execute(f"SELECT record FROM path_anchors WHERE {condition}", params)
    ]


def _history(outcomes: str, why: list[str]) -> float:
    """Outcomes reported on earlier deliveries move the score (and say so)."""
    if not outcomes:
        return 0.0
    success, ignored, corrected, failed = (int(n) for n in outcomes.split())
    if success:
        why.append("recently applied successfully")
    return 0.5 * min(success, 4) - 0.25 * ignored - 1.0 * corrected - 1.5 * failed


def _add_details(connection: Any, candidates: list[Candidate]) -> None:
    if not candidates:
        return
    by_id = {candidate.id: candidate for candidate in candidates}
    rows = connection.execute(
        f"SELECT id, title, summary, json FROM records WHERE id IN ({', '.join('?' for _ in by_id)})",
        list(by_id),
    ).fetchall()
    for record_id, title, summary, text in rows:
        candidate = by_id[record_id]
        candidate.title, candidate.summary, candidate.record = title, summary, json.loads(text)


LEXICAL_TOP = 400  # the best BM25 matches considered; a listing never shows more than a few dozen


def _lexical(connection: Any, task: str, has_fts: bool) -> dict[int, float]:
    """rowid -> relevance of a record's text to the task text, in 0..1.

    Relevance is coverage (the share of the task's information, idf-weighted, that the
    record's text contains) times the record's BM25 relative to the best one (between
    0.5 and 1): one shared filler word covers little of a task, however well it scores.
    With FTS5 only the LEXICAL_TOP best BM25 matches are weighed, so the cost does not
    grow with the number of records that share a common word with the task."""
    wanted = list(dict.fromkeys(tokens(task)))
    if not wanted:
        return {}
    if not has_fts:
        return _lexical_without_fts(connection, task, wanted)
    total = connection.execute("SELECT count(*) FROM records").fetchone()[0]  # counted from an index
    frequency = dict(
        connection.execute(
            "SELECT term, doc FROM records_vocab"
            " WHERE col = 'terms' AND term IN (SELECT value FROM json_each(?))",
            [json.dumps(wanted)],
        ).fetchall()
    )
    idf = {token: math.log(1 + (total - df + 0.5) / (df + 0.5)) for token, df in frequency.items() if df}
    weight = sum(idf.values())
    if not weight:
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
    relevance = {}
    for rowid, score in best:
        present = set(terms.get(rowid, "").split())
        covered = sum(value for token, value in idf.items() if token in present)
        relevance[rowid] = (covered / weight) * (0.5 + 0.5 * score / top)
    return relevance


def _lexical_without_fts(connection: Any, task: str, wanted: list[str]) -> dict[int, float]:
    total, postings = _postings(connection, wanted)
    idf = {
        token: math.log(1 + (total - len(rows) + 0.5) / (len(rows) + 0.5))
        for token, rows in postings.items()
        if rows
    }
    weight = sum(idf.values())
    if not weight:
        return {}
    covered: dict[int, float] = {}
    for token, rows in postings.items():
        for rowid in rows:
            covered[rowid] = covered.get(rowid, 0.0) + idf.get(token, 0.0)
    documents = dict(
        connection.execute(
            f"SELECT record, terms FROM record_texts WHERE record IN ({', '.join('?' for _ in covered)})",
            list(covered),
        ).fetchall()
    )
    bm25 = {int(key): value for key, value in bm25_scores(task, documents).items()}
    best = max(bm25.values(), default=0.0) or 1.0
    return {
        rowid: (value / weight) * (0.5 + 0.5 * bm25.get(rowid, 0.0) / best)
        for rowid, value in covered.items()
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
    if not has_fts or query is None:
        return [row[0] for row in connection.execute("SELECT rowid FROM records WHERE tasks != ''")]
    rows = connection.execute(
        "SELECT rowid, bm25(records_fts, 0, 0, 0, 1.0, 0) AS score FROM records_fts"
        " WHERE records_fts MATCH ? ORDER BY score LIMIT ?",
        [query, LEXICAL_TOP],
    )
    return [row[0] for row in rows]


def _recency(age_days: float | None) -> float:
    """1 for a record updated today, halving about every four months."""
    return math.exp(-max(age_days or 0.0, 0.0) / 180)
