"""`comet learn`: reflection and consolidation over the journal's pending events.

One streaming pass per store reads every event once:
- `user.signal` events still pending are processed as `comet memory signal` does;
- `task.completed`, `verification.completed` and `review.resolved` events that carry a
  lesson become personal episodes;
- `repo.commit` events feed the commit reflectors (all of them, done or not: a habit
  is a property of the whole history, and recounting it keeps `learn` idempotent and
  independent of the order the events arrived in);
- `context.outcome` events that lowered an inferred record put it on the list to
  re-reflect, for the agent acting as semantic reflector;
- the other types carry nothing to learn and are marked done.

A processing error leaves the event pending (and reported); `comet learn` or `comet
journal replay` tries again.  Records that learning creates have ids derived from
their origin (the habit, the event), so a replay finds them instead of creating them
twice, and a forgotten one (tombstoned or deleted for good) is never made again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from comet_git.errors import CometError, NotFoundError
from comet_git.journal.events import Event
from comet_git.journal.log import DONE, FAILED, Journal, JournalProblem
from comet_git.learning import consolidate
from comet_git.learning.capture import process_signal
from comet_git.learning.compaction import COMPACT_AT, compact_store
from comet_git.learning.reflectors import RIVALS, CommitReflection, Habit
from comet_git.provider import Amend, MachineProvider, Query, Remember
from comet_git.provider.remote import RemoteError
from comet_git.records.model import MAX_EVIDENCE, Evidence, Selectors, stable_record_id
from comet_git.store import ScopeStore, file_lock

if TYPE_CHECKING:
    from comet_git.workspace import Workspace

LEARN_SCHEMA = "comet.learn/v1"
EPISODE_TYPES = ("task.completed", "verification.completed", "review.resolved")
LOWERING = ("corrected", "contributed-to-failure")
COMMIT_BATCH = 2000  # processing marks are written in batches: the status file stays small per write


@dataclass
class LearnReport:
    learning: bool
    events_read: int = 0
    processed: int = 0
    results: list[dict[str, Any]] = field(default_factory=list)
    failed: list[dict[str, Any]] = field(default_factory=list)
    reflect: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # stores another `learn` was busy with
    problems: list[JournalProblem] = field(default_factory=list)  # torn or unreadable journal lines
    compacted: dict[str, dict[str, int]] = field(default_factory=dict)  # store -> sizes, past COMPACT_AT

    def note(
        self,
        source: str,
        action: str,  # what the delta was: create | update | noop
        status: str,
        record_id: str | None,
        reason: str,
        event_id: str | None = None,
    ) -> None:
        self.results.append(
            {
                "source": source,
                "eventId": event_id,
                "action": action,
                "status": status,
                "id": record_id,
                "reason": reason,
            }
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": LEARN_SCHEMA,
            "learning": self.learning,
            "events": {"read": self.events_read, "processed": self.processed, "failed": len(self.failed)},
            "results": self.results,
            "failed": self.failed,
            "reflect": self.reflect,
            "busy": self.skipped,
            "journalProblems": [problem.to_json() for problem in self.problems],
            "compacted": self.compacted,
        }


def learn_in(ws: Workspace) -> LearnReport:
    """`learn` over a workspace's provider, as its memory.learning switch says (the command and
    the git hook worker run this); then the inferred records whose anchors are gone at HEAD are
    offered for correction (the verdicts are cached on the way, for `comet task`, which never
    checks itself)."""
    report = learn(ws.provider(), learning=bool(ws.setting("memory.learning").value))
    _offer_stale(ws, report)
    return report


def _offer_stale(ws: Workspace, report: LearnReport) -> None:
    """Stale learned records go to `reflect`, for the agent acting as reflector to correct
    against the repository.  Explicit ones are the person's: shown by `status`, `list --stale`
    and the Dashboard, never offered to change."""
    stale = ws.stale()
    if not stale:
        return
    listed = {item["id"]: item for item in report.reflect}  # already there for an outcome
    for view in ws.provider().query(Query(ids=tuple(sorted(stale)), scopes=("project",))).records:
        record = view.as_dict()
        if record["authority"] != "inferred" or record["lifecycle"] == "superseded":
            continue
        reasons = stale[view.id]
        note = f"may be stale ({'; '.join(reasons[:3])})"
        if view.id in listed:
            listed[view.id].update(stale=reasons, reason=f"{listed[view.id]['reason']}; {note}")
            continue
        report.reflect.append(
            {
                "id": view.id,
                "stale": reasons,
                "reason": f"{note}: check it against the repository, then `comet memory apply` an update,"
                " a supersede or a forget",
            }
        )


def learn(provider: MachineProvider, *, learning: bool) -> LearnReport:
    report = LearnReport(learning)
    for store in provider.visible_stores():
        if store.journal_dir.is_dir():
            _learn_unless_busy(provider, store, report)
    return report


def _learn_unless_busy(provider: MachineProvider, store: ScopeStore, report: LearnReport) -> None:
    """Learn in `store` unless another process is at it.  A learner that finds the store
    busy leaves a note instead of waiting (git hooks may fire many times a second); the
    busy one, once done, sees the note and runs once more, so no event waits for the
    next commit."""
    again = store.root / ".learn.again"
    while True:
        with file_lock(store.root / ".learn.lock", wait=False) as held:
            if not held:
                again.touch(mode=0o600)
                report.skipped.append(store.name)
                return
            again.unlink(missing_ok=True)
            _learn_store(provider, store, report)
        if not again.exists():
            return


def _learn_store(provider: MachineProvider, store: ScopeStore, report: LearnReport) -> None:
    journal = Journal(store)
    statuses = journal.statuses(report.problems)
    reflection = CommitReflection()
    for summary in journal.summaries():  # compacted months: what the reflectors counted of them
        reflection.add_summary(summary.get("aggregates") or {})
    finished: list[str] = []  # pending events with nothing (more) to do
    commits: list[str] = []  # pending commit events: done once the habits are applied
    for event in journal.events(report.problems):
        report.events_read += 1
        pending = statuses.get(event.event_id, ("", None))[0] != DONE
        if event.type == "repo.checkout":  # a branch created here names the user's branches
            reflection.add_event(event.event_id, event.type, event.at, event.context)
        if event.type == "repo.commit":
            reflection.add_event(event.event_id, event.type, event.at, event.context)
            if pending:
                commits.append(event.event_id)
            continue
        if not pending:
            continue
        try:
            _process(provider, journal, event, report)
        except RemoteError as error:  # the server did not answer: the events wait for the next run
            report.failed.append({"eventId": event.event_id, "type": event.type, "error": str(error)})
            break
        except CometError as error:
            journal.mark([(event.event_id, FAILED, str(error))])
            report.failed.append({"eventId": event.event_id, "type": event.type, "error": str(error)})
            continue
        if event.type != "user.signal":  # process_signal marks its own event
            finished.append(event.event_id)
        report.processed += 1
        if len(finished) >= COMMIT_BATCH:
            journal.mark((event_id, DONE, None) for event_id in finished)
            finished.clear()
    journal.mark((event_id, DONE, None) for event_id in finished)
    if reflection.commits:
        try:
            habits = reflection.habits()
            formed = {habit.key for habit in habits}
            for habit in habits:
                retired = _retire_rivals(provider, store, habit, formed, report)
                placed = _apply_habit(provider, store, habit, report)
                if retired and placed:
                    consolidate.supersede(provider, placed, retired)
        except CometError as error:
            report.failed.append({"eventId": None, "type": "repo.commit", "error": str(error)})
            return  # the commits stay pending: the next run recounts them
    for start in range(0, len(commits), COMMIT_BATCH):
        journal.mark((event_id, DONE, None) for event_id in commits[start : start + COMMIT_BATCH])
    report.processed += len(commits)
    if journal.size() > COMPACT_AT:
        report.compacted[store.name] = compact_store(provider, store).to_json()


def _process(provider: MachineProvider, journal: Journal, event: Event, report: LearnReport) -> None:
    if event.type == "user.signal":
        result = process_signal(provider, journal, event, learning=report.learning)
        record = result.record.id if result.record else None
        action, status = ("create", "applied") if result.stored else ("noop", "noop")
        why = result.note or f"{result.decision.kind}: {result.decision.reason}"
        report.note("user.signal", action, status, record, why, event.event_id)
    elif event.type in EPISODE_TYPES:
        _episode(provider, event, report)
    elif event.type == "context.outcome":
        _outcome(provider, event, report)


# -- episodes ----------------------------------------------------------------------------


def _episode(provider: MachineProvider, event: Event, report: LearnReport) -> None:
    outcome = event.outcome or {}
    lesson = str(outcome.get("lesson") or "").strip()
    if not lesson:
        return  # a result without a lesson is history, not memory
    if not report.learning:
        report.note(
            event.type, "noop", "noop", None, "memory.learning is off: no new records", event.event_id
        )
        return
    context = event.context
    summary = str(context.get("summary") or "").strip()
    situation = str(context.get("task") or summary).strip()
    text = "\n".join(
        [
            f"Situation: {situation}",
            f"Action: {summary}",
            f"Outcome: {outcome.get('outcome', 'unknown')} ({event.type})",
            f"Lesson: {lesson}",
        ]
    )
    request_path = context.get("path")
    paths = (f"{str(request_path).rstrip('/')}/",) if request_path and request_path != "." else ()
    operation = context.get("operation")
    change = Remember(
        text=text,
        title=lesson if len(lesson) <= 80 else lesson[:77].rstrip() + "...",
        summary=lesson[:300],
        scope=event.scope,
        memory_type="personal-episode",
        memory_class="collaboration-habit",
        selectors=Selectors(paths=paths, operations=(str(operation),) if operation else ()),
        authority="inferred",
        evidence=(Evidence(kind=event.type, summary=summary[:300], event=event.event_id, at=event.at),),
    )
    placed = consolidate.place(provider, change, record_id=stable_record_id(event.event_id))
    action = "create" if placed.status == "applied" else "noop"
    report.note(event.type, action, placed.status, placed.id, f"episode: {placed.reason}", event.event_id)


# -- outcomes ----------------------------------------------------------------------------


def _outcome(provider: MachineProvider, event: Event, report: LearnReport) -> None:
    outcome = event.outcome or {}
    record_id = str(outcome.get("recordId") or "")
    if outcome.get("outcome") not in LOWERING or not record_id:
        return
    record = find_record(provider, record_id)
    if record is None or record["state"] != "live" or record["lifecycle"] == "superseded":
        return
    if record["authority"] != "inferred":
        return  # explicit memory changes only when the person changes it
    report.reflect.append(
        {
            "id": record_id,
            "outcome": outcome["outcome"],
            "eventId": event.event_id,
            "reason": (
                f"{outcome['outcome']} in use: check it against the evidence, then `comet memory apply`"
                " an update, a supersede or a forget"
            ),
        }
    )


# -- habits ------------------------------------------------------------------------------


def _habit_evidence(habit: Habit) -> tuple[Evidence, ...]:
    newest = habit.citations[0].at if habit.citations else None
    found = [Evidence(kind="reflection", summary=habit.finding, at=newest)]
    found += [
        Evidence(kind="repo.commit", summary=c.summary, event=c.event_id, at=c.at) for c in habit.citations
    ]
    return tuple(found[:MAX_EVIDENCE])


def _retire_rivals(
    provider: MachineProvider, store: ScopeStore, habit: Habit, formed: set[str], report: LearnReport
) -> list[str]:
    """Supersede the live inferred records of the habits `habit` rules out (learned from older
    commits, or the project's agreement it ranks above), when the reflection no longer forms
    them.  Returns their ids."""
    if not report.learning:
        return []
    rivals = [rival for rival in RIVALS.get(habit.key, ()) if rival not in formed]
    retired = (_retire(provider, store, rival, habit, report) for rival in rivals)
    return [record_id for record_id in retired if record_id]


def _retire(
    provider: MachineProvider, store: ScopeStore, rival: str, habit: Habit, report: LearnReport
) -> str | None:
    """The id of `rival`'s record once superseded, or None when there is none to retire (never
    learned, forgotten, already retired, or the person's own words)."""
    record_id = stable_record_id(store.name, rival)
    record = find_record(provider, record_id)
    if record is None or record["state"] != "live" or record["lifecycle"] == "superseded":
        return None
    if record["authority"] != "inferred":
        return None  # explicit memory changes only when the person changes it
    own = "your own habit ranks above the project's agreement"
    reason = f"{own if rival.startswith('project-') else 'your recent commits turned'}: {habit.finding}"
    provider.apply(Amend(record_id, (("lifecycle", "superseded"),), reason))
    report.note(f"reflector {rival}", "supersede", "applied", record_id, reason)
    return record_id


def _apply_habit(
    provider: MachineProvider, store: ScopeStore, habit: Habit, report: LearnReport
) -> str | None:
    """Create or refresh the habit's record; its id when it is live afterwards."""
    record_id = stable_record_id(store.name, habit.key)
    source = f"reflector {habit.key}"
    existing = find_record(provider, record_id)
    if existing is not None and existing["state"] == "forgotten":
        report.note(source, "create", "noop", record_id, "you forgot this habit: it is not learned again")
        return None
    if existing is not None:
        _refresh_habit(provider, habit, existing, source, report)
        return record_id if existing["lifecycle"] != "superseded" else None
    if not report.learning:
        report.note(source, "create", "noop", None, "memory.learning is off: no new records")
        return None
    change = Remember(
        text=habit.statement,
        title=habit.title,
        summary=habit.summary,
        scope=store.scope,
        memory_type="collaboration-policy",
        memory_class=habit.memory_class,
        selectors=habit.selectors,
        authority="inferred",
        evidence=_habit_evidence(habit),
    )
    # A habit forgotten for good is in no index any more: place() finds its tombstone by id.
    placed = consolidate.place(provider, change, record_id=record_id)
    report.note(source, "create", placed.status, placed.id, f"{placed.reason} ({habit.finding})")
    return placed.id if placed.status == "applied" else None


def find_record(provider: MachineProvider, record_id: str) -> dict[str, Any] | None:
    """The record's JSON (with its `state`), live or forgotten, or None."""
    try:
        found = provider.query(Query(ids=(record_id,), include_forgotten=True)).records
    except NotFoundError:
        return None
    return found[0].as_dict() if found else None


def _refresh_habit(
    provider: MachineProvider, habit: Habit, record: dict[str, Any], source: str, report: LearnReport
) -> None:
    record_id = record["id"]
    if record["lifecycle"] == "superseded":
        report.note(source, "update", "noop", record_id, "retired earlier: not brought back")
        return
    if record["authority"] == "explicit":
        report.note(source, "update", "noop", record_id, "you edited it: your text stands")
        return
    same_text = record["text"].strip() == habit.statement and record["selectors"] == habit.selectors.to_json()
    evidence = _habit_evidence(habit)
    if same_text:
        # Fresh counts and citations are bookkeeping: the record says the same, so no new
        # version (one a commit would bury its real history).
        result = provider.apply(
            Amend(record_id, (("evidence", evidence),), "more evidence", bookkeeping=True)
        )
        if result.action == "unchanged":
            report.note(source, "update", "noop", record_id, f"still holds ({habit.finding})")
            return
    else:
        fields: tuple[tuple[str, Any], ...] = (
            ("evidence", evidence),
            ("text", habit.statement),
            ("selectors", habit.selectors),
        )
        fields += (("summary", habit.summary),) if habit.summary else ()
        provider.apply(Amend(record_id, fields, "the habit changed"))
    report.note(source, "update", "applied", record_id, habit.finding)
