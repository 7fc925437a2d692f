"""Processing journal events again: the ones whose processing failed or never finished."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from comet_git.errors import CometError
from comet_git.journal.log import Journal
from comet_git.learning.capture import process_signal
from comet_git.provider.local import LocalProvider

# Event types with a processor today; the others wait for reflection.
PROCESSED_TYPES = ("user.signal",)


@dataclass
class ReplayReport:
    processed: list[dict[str, Any]] = field(default_factory=list)
    failed: list[dict[str, Any]] = field(default_factory=list)
    waiting: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": "comet.replay/v1",
            "processed": self.processed,
            "failed": self.failed,
            "waiting": self.waiting,
        }


def replay(provider: LocalProvider, *, learning: bool) -> ReplayReport:
    report = ReplayReport()
    for store in provider.visible_stores():
        journal = Journal(store)
        for event in journal.pending():
            if event.type not in PROCESSED_TYPES:
                report.waiting += 1
                continue
            try:
                result = process_signal(provider, journal, event, learning=learning)
            except CometError as error:
                report.failed.append({"eventId": event.event_id, "error": str(error)})
                continue
            report.processed.append(
                {
                    "eventId": event.event_id,
                    "kind": result.decision.kind,
                    "recordId": result.record.id if result.record else None,
                }
            )
    return report
