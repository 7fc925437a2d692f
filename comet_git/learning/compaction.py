"""`comet journal compact`: processed events nobody needs verbatim are folded into monthly
summaries; `comet learn` runs it once a journal passes COMPACT_AT bytes.

Kept verbatim: events still pending or failed, every event a record cites as evidence
(live, superseded or forgotten: a record's chain of evidence stays whole), and the latest
commits the reflectors judge habits on (`KEEP_*`).  Folded: everything else, counted by
type; of the user's commits, what the whole-history reflectors count (co-change, branches)
goes into the summary, so `learn` forms the same habits after a compaction as before.
The folded events' ids stay known: an import or a replay never adds them again.
"""

from __future__ import annotations

import heapq
from typing import Any

from comet_git.journal.events import Event
from comet_git.journal.log import DONE, CompactResult, Journal
from comet_git.learning.reflectors import (
    PATH_COMMITS,
    PROJECT_COMMITS,
    RECENT_COMMITS,
    aggregate_commit,
)
from comet_git.provider import MachineProvider, Query
from comet_git.store import ScopeStore

COMPACT_AT = 32 * 1024 * 1024  # bytes of journal before `learn` compacts it
KEEP_USER_COMMITS = max(RECENT_COMMITS, PATH_COMMITS) * 2  # room for reverts, bumps, merges
KEEP_PROJECT_COMMITS = PROJECT_COMMITS * 2


def cited_events(provider: MachineProvider, store: ScopeStore) -> set[str]:
    """The ids of the events any record of `store` cites, forgotten ones included."""
    query = Query(scopes=(store.scope,), include_superseded=True, include_forgotten=True)
    cited: set[str] = set()
    for view in provider.query(query).records:
        record = view.as_dict()
        cited.update(str(item["event"]) for item in record.get("evidence") or () if item.get("event"))
    return cited


def _latest_commits(journal: Journal) -> set[str]:
    """The ids of the latest commit events: the user's and everyone's, as the reflectors' windows."""
    mine: list[tuple[str, str]] = []
    everyone: list[tuple[str, str]] = []
    for event in journal.events():
        if event.type != "repo.commit":
            continue
        entry = (event.at, event.event_id)
        _keep_newest(everyone, entry, KEEP_PROJECT_COMMITS)
        if event.context.get("authorIsUser") is True:
            _keep_newest(mine, entry, KEEP_USER_COMMITS)
    return {event_id for _, event_id in mine + everyone}


def _keep_newest(heap: list[tuple[str, str]], entry: tuple[str, str], limit: int) -> None:
    if len(heap) < limit:
        heapq.heappush(heap, entry)
    elif entry > heap[0]:
        heapq.heapreplace(heap, entry)


def compact_store(provider: MachineProvider, store: ScopeStore) -> CompactResult:
    journal = Journal(store)
    statuses = journal.statuses()
    keep = cited_events(provider, store) | _latest_commits(journal)

    def fold(event: Event) -> bool:
        return event.event_id not in keep and statuses.get(event.event_id, ("", None))[0] == DONE

    def aggregate(aggregates: dict[str, Any], event: Event) -> None:
        if event.type == "repo.commit":
            aggregate_commit(aggregates, event.event_id, event.at, event.context)
        elif event.type == "repo.checkout" and event.context.get("created") is True:
            branches = aggregates.setdefault("branches", {})
            name = str(event.context.get("branch") or "")
            if name and (name not in branches or event.at < branches[name][0]):
                branches[name] = [event.at, "", event.event_id, str(event.context.get("via") or "")]

    return journal.compact(fold, aggregate)
