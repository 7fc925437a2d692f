"""Matching and ranking (SPEC §8): which records apply to a request, how well, and why.

Order of the checks: project → path → task → operation → phase.

Hard exclusions (never delivered): superseded and forgotten records, other projects'
records (none of these are even read), and a record whose `paths`, `operations` or
`phases` selector is set and does not match a value the request gives.  A selector on
a dimension the request leaves out excludes nothing.

A candidate is delivered only with at least one positive match: a selector that
matched, a `tasks` keyword the task mentions, or lexical relevance of its text to
the task; core-profile records need none.

Score (higher first); everything else equal it orders proven above trial, explicit
above inferred, project- and path-specific above global, and lets outcomes move it:

    3.0 explicit, 2.0 proven, 1.5 project scope
  + 3.0 path matched (+0.25 per literal folder of the pattern, at most +1.0)
  + 2.0 operation matched, 1.0 phase matched
  + 2.0 per tasks keyword mentioned (at most 4.0)
  + 4.0 * lexical relevance (BM25 of the task text, relative to the best record of this request)
  + 0.5 * used-successfully (at most 4 counted) - 0.25 * ignored - 1.0 * corrected
    - 1.5 * contributed-to-failure
  + 0.5 * recency (1 when updated today, halving about every four months)
"""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass, field
from typing import Any

from comet_git.director.paths import match as path_match
from comet_git.director.text import bm25_scores, fts_query, mentions

LEXICAL_FLOOR = 0.15  # relative BM25 below this is noise, not relevance


@dataclass(frozen=True)
class TaskRequest:
    task: str
    path: str | None = None
    path_is_dir: bool = False
    operation: str | None = None
    phase: str | None = None
    budget: int = 6000
    max_entries: int = 12
    session: str | None = None

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


@dataclass
class Candidate:
    id: str
    store: str
    memory_type: str
    authority: str
    lifecycle: str
    scope: str
    title: str
    summary: str
    updated_at: str
    score: float = 0.0
    why: list[str] = field(default_factory=list)
    positive: bool = False
    strong: bool = False  # a selector or keyword matched, or the text is clearly relevant
    record: dict[str, Any] | None = None


@dataclass
class Selection:
    candidates: list[Candidate]  # applicable and positively matched (or core-profile), best first
    excluded: dict[str, str]  # id -> the condition that excluded it (for explain)


def select(connection: Any, stores: list[str], request: TaskRequest, has_fts: bool) -> Selection:
    rows = connection.execute(
        "SELECT id, store, memory_type, authority, lifecycle, scope, title, summary, updated_at,"
        " sel_paths, sel_operations, sel_phases, tasks, rowid FROM records"
        f" WHERE store IN ({', '.join('?' for _ in stores)})"
        " AND state = 'live' AND lifecycle != 'superseded'",
        stores,
    ).fetchall()
    lexical = _lexical(connection, stores, request.task, has_fts)
    best = max(lexical.values(), default=0.0)
    operation = (request.operation or "").lower()
    phase = (request.phase or "").lower()
    chosen: list[Candidate] = []
    excluded: dict[str, str] = {}
    for row in rows:
        (record_id, store, memory_type, authority, lifecycle, scope, title, summary, updated_at,
         paths, operations, phases, tasks, rowid) = row  # fmt: skip
        why: list[str] = ["current project" if scope == "project" else "your global memory"]
        score = 3.0 * (authority == "explicit") + 2.0 * (lifecycle == "proven") + 1.5 * (scope == "project")
        strong = False
        if paths and request.path is not None:
            matched = path_match(paths, request.path, request.path_is_dir)
            if matched is None:
                excluded[record_id] = f"path {request.path} does not match its paths selector"
                continue
            why.append(f"path matches {matched}")
            score += 3.0 + min(0.25 * matched.strip("/").count("/"), 1.0)
            strong = True
        if operations and operation:
            if f",{operation}," not in operations:
                excluded[record_id] = f"operation {operation} is not in its operations selector"
                continue
            why.append(f"operation is {operation}")
            score += 2.0
            strong = True
        if phases and phase:
            if f",{phase}," not in phases:
                excluded[record_id] = f"phase {phase} is not in its phases selector"
                continue
            why.append(f"phase is {phase}")
            score += 1.0
            strong = True
        keywords = mentions(request.task, tasks.split()) if tasks else []
        if keywords:
            why.append("task mentions " + ", ".join(keywords[:3]))
            score += min(2.0 * len(keywords), 4.0)
            strong = True
        relevance = lexical.get(rowid, 0.0) / best if best else 0.0
        if relevance >= LEXICAL_FLOOR:
            score += 4.0 * relevance
            if not keywords:
                why.append("task text is relevant" + (" (strongly)" if relevance >= 0.5 else ""))
            strong = strong or relevance >= 0.5
        positive = strong or relevance >= LEXICAL_FLOOR
        if not positive and memory_type != "core-profile":
            excluded[record_id] = "nothing in the request matches it (no selector, keyword or relevant text)"
            continue
        if authority == "explicit":
            why.append("explicitly set by you")
        score += 0.5 * _recency(updated_at)
        fields = (record_id, store, memory_type, authority, lifecycle, scope, title, summary, updated_at)
        chosen.append(Candidate(*fields, score=score, why=why, positive=positive, strong=strong))
    _apply_history(connection, chosen)
    chosen.sort(key=lambda c: (-c.score, c.id))
    return Selection(chosen, excluded)


def _lexical(connection: Any, stores: list[str], task: str, has_fts: bool) -> dict[int, float]:
    """rowid -> BM25 relevance (higher is better) of each record to the task text."""
    if has_fts:
        query = fts_query(task)
        if query is None:
            return {}
        rows = connection.execute(
            "SELECT f.rowid, -bm25(records_fts, 0, 0, 0, 0, 1.0) FROM records_fts f"
            " JOIN records r ON r.rowid = f.rowid WHERE records_fts MATCH ?"
            f" AND r.store IN ({', '.join('?' for _ in stores)}) AND r.state = 'live'",
            [query, *stores],
        ).fetchall()
        return {rowid: score for rowid, score in rows if score > 0}
    documents = dict(
        connection.execute(
            f"SELECT rowid, terms FROM records WHERE store IN ({', '.join('?' for _ in stores)})"
            " AND state = 'live'",
            stores,
        ).fetchall()
    )
    return {int(key): value for key, value in bm25_scores(task, documents).items()}


def _apply_history(connection: Any, candidates: list[Candidate]) -> None:
    """Outcomes reported on earlier deliveries move the score (and say so)."""
    if not candidates:
        return
    by_id = {candidate.id: candidate for candidate in candidates}
    rows = connection.execute(
        f"SELECT id, json FROM records WHERE id IN ({', '.join('?' for _ in by_id)})", list(by_id)
    ).fetchall()
    for record_id, text in rows:
        record = json.loads(text)
        candidate = by_id[record_id]
        candidate.record = record
        counts = (record.get("application") or {}).get("counts") or {}
        success = min(int(counts.get("used-successfully", 0)), 4)
        candidate.score += (
            0.5 * success
            - 0.25 * int(counts.get("ignored", 0))
            - 1.0 * int(counts.get("corrected", 0))
            - 1.5 * int(counts.get("contributed-to-failure", 0))
        )
        if success:
            candidate.why.append("recently applied successfully")


def _recency(updated_at: str) -> float:
    try:
        moment = dt.datetime.fromisoformat(updated_at.replace("Z", "+00:00"))
    except ValueError:
        return 0.0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    age_days = max((dt.datetime.now(dt.timezone.utc) - moment).total_seconds() / 86400, 0.0)
    return math.exp(-age_days / 180)
