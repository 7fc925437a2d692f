"""Progressive delivery within a character budget (SPEC §8).

1. core-profile records: full text;
2. a few (DIRECT_POLICIES) directly matching proven collaboration policies: full text;
3. the other candidates, best first, up to --max-entries: manifest entries (title, summary).

The budget counts the `text` of context items and the `title` and `summary` of manifest
entries; `used` never exceeds `limit`.  An item whose text does not fit is offered as a
manifest entry instead; what does not fit at all is counted in `omitted`, never dropped
silently.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from comet_git.director.select import Candidate, TaskRequest

DIRECT_POLICIES = 3


@dataclass
class Delivery:
    context: list[dict[str, Any]] = field(default_factory=list)
    manifest: list[dict[str, Any]] = field(default_factory=list)
    used: int = 0
    omitted: dict[str, int] = field(default_factory=dict)

    def omit(self, reason: str) -> None:
        self.omitted[reason] = self.omitted.get(reason, 0) + 1


def application_id() -> str:
    return "ap-" + uuid.uuid4().hex[:16]


def deliver(candidates: list[Candidate], request: TaskRequest, already_given: set[str]) -> Delivery:
    delivery = Delivery()
    direct_left = DIRECT_POLICIES
    for candidate in candidates:
        if candidate.id in already_given:
            delivery.omit("already given in this session")
            continue
        full = candidate.memory_type == "core-profile" or (
            direct_left > 0
            and candidate.memory_type == "collaboration-policy"
            and candidate.lifecycle == "proven"
            and candidate.strong
        )
        if full and _add_context(delivery, candidate, request.budget):
            if candidate.memory_type != "core-profile":
                direct_left -= 1
            continue
        if len(delivery.manifest) >= request.max_entries:
            delivery.omit("beyond --max-entries")
        elif not _add_manifest(delivery, candidate, request.budget):
            delivery.omit("over the character budget")
    return delivery


def _text(candidate: Candidate) -> str:
    return str((candidate.record or {}).get("text", ""))


def _add_context(delivery: Delivery, candidate: Candidate, budget: int) -> bool:
    text = _text(candidate)
    if delivery.used + len(text) > budget:
        return False
    delivery.used += len(text)
    delivery.context.append(
        {
            "id": candidate.id,
            "title": candidate.title,
            "memoryType": candidate.memory_type,
            "text": text,
            "whyApplied": candidate.why,
            "applicationId": application_id(),
        }
    )
    return True


def _add_manifest(delivery: Delivery, candidate: Candidate, budget: int) -> bool:
    cost = len(candidate.title) + len(candidate.summary)
    if delivery.used + cost > budget:
        return False
    delivery.used += cost
    delivery.manifest.append(
        {
            "id": candidate.id,
            "title": candidate.title,
            "summary": candidate.summary,
            "memoryType": candidate.memory_type,
            "whyApplied": candidate.why,
            "applicationId": application_id(),
        }
    )
    return True
