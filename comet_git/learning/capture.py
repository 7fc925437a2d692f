"""From a user's statement to memory: journal the `user.signal`, then, when it is
a long-term requirement, make its rule an explicit, proven record.

The whole statement is journaled; only its rule is remembered (a prompt that also
asks for the work at hand, "always use uv here; now add httpx", keeps "now add
httpx" in the journal only).  A one-off statement is journaled in the project it
was said in, in the episode of the session, and returned as a constraint for the
current task only; it never becomes memory.  When the record cannot be written,
the event stays pending (failed) and `comet journal replay` processes it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from comet_git.errors import CometError
from comet_git.journal.events import Event, random_id, session_episode
from comet_git.journal.log import DONE, FAILED, Journal
from comet_git.journal.redact import redact_text
from comet_git.learning.consolidate import Placement, place
from comet_git.learning.signals import LONG_TERM, SignalDecision, classify_signal
from comet_git.provider import MachineProvider, Query, RecordView, Remember
from comet_git.records.model import MAX_TEXT, Evidence, Selectors, utc_now

SIGNAL_SCHEMA = "comet.signal/v1"


@dataclass(frozen=True)
class SignalResult:
    event: Event
    decision: SignalDecision
    scope: str
    record: RecordView | None
    stored: bool
    note: str | None

    def to_json(self) -> dict[str, Any]:
        long_term = self.decision.kind == LONG_TERM
        constraint = " ".join(self.decision.constraints) if long_term else self.event.signal_text
        return {
            "schema": SIGNAL_SCHEMA,
            "eventId": self.event.event_id,
            "kind": self.decision.kind,
            "reason": self.decision.reason,
            "cues": list(self.decision.cues),
            "scope": self.scope if long_term else None,
            "scopeReason": self.decision.scope_reason if long_term else None,
            "stored": self.stored,
            "note": self.note,
            "record": self.record.as_dict() if self.record else None,
            "constraint": constraint or None,
        }


def signal_event(
    text: str,
    decision: SignalDecision,
    scope: str,
    project_key: str | None,
    episode: str | None,
    session: str | None = None,
    event_id: str | None = None,
) -> Event:
    at = utc_now()
    signal: dict[str, Any] = {
        "text": text,
        "kind": decision.kind,
        "reason": decision.reason,
        "cues": list(decision.cues),
    }
    if decision.rest:
        signal["rule"] = decision.rule  # what was remembered of it
    return Event(
        event_id=event_id or random_id("ev"),
        episode_id=episode or session_episode(project_key, session, at),
        type="user.signal",
        at=at,
        scope=scope,
        project_key=project_key if scope == "project" else None,
        actor="user",
        source="comet memory signal",
        context={"scopeReason": decision.scope_reason},
        signal=signal,
    )


def journal_scope(decision: SignalDecision, scope: str | None, project_key: str | None) -> str:
    """Where a statement is journaled: a long-term one where its record goes; a one-off in the
    project it was said in, beside the task it limits, where reflection looks for it."""
    chosen = scope or (decision.scope if decision.kind == LONG_TERM else "project")
    return "global" if chosen == "project" and project_key is None else chosen


def capture_signal(
    provider: MachineProvider,
    text: str,
    *,
    scope: str | None = None,
    learning: bool = True,
    episode: str | None = None,
    session: str | None = None,
    event_id: str | None = None,
    repository_names: tuple[str, ...] = (),
) -> SignalResult:
    """Journal `text` (`episode`, else the episode of `session` in this project) and store its
    rule when it is long-term.  `event_id` (a stable id) makes a second capture of the same
    statement, by a process that finishes what a cut-short one began, journal nothing twice.
    `repository_names` are the names of the repository it was said in (see classify_signal)."""
    if not text.strip():
        raise CometError("the statement is empty", hint='pass --text "what the user said"')
    text = redact_text(text)  # nothing derived from it (title, tasks) may carry a secret either
    decision = classify_signal(text, repository_names)
    chosen = journal_scope(decision, scope, provider.project_key)
    store = provider.store_for_scope(chosen)
    event = signal_event(text, decision, chosen, provider.project_key, episode, session, event_id)
    journal = Journal(store.create())
    journal.append([event])
    return process_signal(provider, journal, event, learning=learning, decision=decision)


def process_signal(
    provider: MachineProvider,
    journal: Journal,
    event: Event,
    *,
    learning: bool = True,
    decision: SignalDecision | None = None,
) -> SignalResult:
    """Make a journaled long-term signal a record (idempotent: remembering twice is a no-op)."""
    text = event.signal_text
    decision = decision or classify_signal(text)
    if decision.kind != LONG_TERM:
        journal.mark([(event.event_id, DONE, None)])
        return SignalResult(event, decision, event.scope, None, False, "one-off: returned as a constraint")
    if not learning:
        journal.mark([(event.event_id, DONE, None)])
        return SignalResult(event, decision, event.scope, None, False, "memory.learning is off: not stored")
    rule = decision.rule if decision.rest else text  # unsplit, the statement keeps its own line breaks
    if len(rule) > MAX_TEXT:  # a pasted document is no rule: journaled (nothing lost), not remembered
        journal.mark([(event.event_id, DONE, None)])
        note = f"too long for a rule: {len(rule):,} characters (a record holds at most {MAX_TEXT:,})"
        return SignalResult(event, decision, event.scope, None, False, note)
    try:
        placed = place(
            provider,
            Remember(
                text=rule,
                title=decision.title,
                scope=event.scope,
                memory_type=decision.memory_type,
                memory_class=decision.memory_class,
                # No keywords: the rule's own words are matched as text, and a rule that names no
                # place, operation or phase stands for the whole project (or all your memory).
                selectors=Selectors(decision.paths, (), decision.operations, decision.phases),
                evidence=(
                    Evidence(kind="user.signal", summary=rule[:300], event=event.event_id, at=event.at),
                ),
            ),
        )
        assert placed.id is not None  # an explicit statement always ends in a record
        [view] = provider.query(Query(ids=(placed.id,))).records
    except CometError as error:
        journal.mark([(event.event_id, FAILED, str(error))])
        raise
    journal.mark([(event.event_id, DONE, None)])
    return SignalResult(event, decision, event.scope, view, True, _note(decision, placed))


QUOTED_REST_MAX = 200  # what the note quotes of the words left out of the rule


def _note(decision: SignalDecision, placed: Placement) -> str | None:
    """What the person should know beyond "remembered": what consolidation did, what was left out."""
    plain = placed.action == "created" and not (placed.superseded or placed.conflicts)
    notes = [] if plain else [placed.reason]
    if decision.rest:
        left_out = " ".join(decision.rest)
        if len(left_out) > QUOTED_REST_MAX:  # pasted material: its size says what it was
            left_out = f"the other {len(left_out):,} characters"
        notes.append("remembered the rule only; journaled, not remembered: " + left_out)
    return "; ".join(notes) or None
