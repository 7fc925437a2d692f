"""From a user's statement to memory: journal the `user.signal`, then, when it is
a long-term requirement, make it an explicit, proven record.

A one-off statement is journaled and returned as a constraint for the current
task only; it never becomes memory.  When the record cannot be written, the
event stays pending (failed) and `comet journal replay` processes it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from comet_git.errors import CometError
from comet_git.journal.events import Event, random_id, stable_id
from comet_git.journal.log import DONE, FAILED, Journal
from comet_git.journal.redact import redact_text
from comet_git.learning.consolidate import place
from comet_git.learning.signals import LONG_TERM, SignalDecision, classify_signal
from comet_git.provider import Query, RecordView, Remember
from comet_git.provider.local import LocalProvider
from comet_git.records.model import Evidence, Selectors, utc_now

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
            "constraint": None if long_term else str((self.event.signal or {}).get("text", "")),
        }


def signal_event(
    text: str, decision: SignalDecision, scope: str, project_key: str | None, episode: str | None
) -> Event:
    at = utc_now()
    return Event(
        event_id=random_id("ev"),
        episode_id=episode or stable_id("ep", project_key or "global", "signals", at[:10]),
        type="user.signal",
        at=at,
        scope=scope,
        project_key=project_key if scope == "project" else None,
        actor="user",
        source="comet memory signal",
        context={"scopeReason": decision.scope_reason},
        signal={
            "text": text,
            "kind": decision.kind,
            "reason": decision.reason,
            "cues": list(decision.cues),
        },
    )


def capture_signal(
    provider: LocalProvider,
    text: str,
    *,
    scope: str | None = None,
    learning: bool = True,
    episode: str | None = None,
) -> SignalResult:
    if not text.strip():
        raise CometError("the statement is empty", hint='pass --text "what the user said"')
    text = redact_text(text)  # nothing derived from it (title, tasks) may carry a secret either
    decision = classify_signal(text)
    chosen = scope or decision.scope
    if chosen == "project" and provider.project_key is None:
        chosen = "global"  # outside a repository only the person's own memory exists
    store = provider.store_for_scope(chosen)
    event = signal_event(text, decision, chosen, provider.project_key, episode)
    journal = Journal(store.create())
    journal.append([event])
    return process_signal(provider, journal, event, learning=learning, decision=decision)


def process_signal(
    provider: LocalProvider,
    journal: Journal,
    event: Event,
    *,
    learning: bool = True,
    decision: SignalDecision | None = None,
) -> SignalResult:
    """Make a journaled long-term signal a record (idempotent: remembering twice is a no-op)."""
    text = str((event.signal or {}).get("text", ""))
    decision = decision or classify_signal(text)
    if decision.kind != LONG_TERM:
        journal.mark([(event.event_id, DONE, None)])
        return SignalResult(event, decision, event.scope, None, False, "one-off: returned as a constraint")
    if not learning:
        journal.mark([(event.event_id, DONE, None)])
        return SignalResult(event, decision, event.scope, None, False, "memory.learning is off: not stored")
    try:
        placed = place(
            provider,
            Remember(
                text=text,
                title=decision.title,
                scope=event.scope,
                memory_type=decision.memory_type,
                memory_class=decision.memory_class,
                selectors=Selectors(decision.paths, decision.tasks, decision.operations, decision.phases),
                evidence=(
                    Evidence(kind="user.signal", summary=text[:300], event=event.event_id, at=event.at),
                ),
            ),
        )
        assert placed.id is not None  # an explicit statement always ends in a record
        [view] = provider.query(Query(ids=(placed.id,))).records
    except CometError as error:
        journal.mark([(event.event_id, FAILED, str(error))])
        raise
    journal.mark([(event.event_id, DONE, None)])
    note = None if placed.action == "created" and not placed.superseded else placed.reason
    return SignalResult(event, decision, event.scope, view, True, note)
