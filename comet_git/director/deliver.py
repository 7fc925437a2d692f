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

import os
from typing import Any

from comet_git.director.select import DIRECT_POLICIES, Candidate, Selection, TaskRequest


class Delivery:
    __slots__ = ("context", "manifest", "omitted", "used")

    def __init__(self) -> None:
        self.context: list[dict[str, Any]] = []
        self.manifest: list[dict[str, Any]] = []
        self.used = 0
        self.omitted: dict[str, int] = {}

    def omit(self, reason: str) -> None:
        self.omitted[reason] = self.omitted.get(reason, 0) + 1


def application_id() -> str:
    return "ap-" + os.urandom(8).hex()


def deliver(selection: Selection, request: TaskRequest) -> Delivery:
    delivery = Delivery()
    if selection.already_given:
        delivery.omitted["already given in this session"] = selection.already_given
    core = [c for c in selection.candidates if c.memory_type == "core-profile"]
    others = [c for c in selection.candidates if c.memory_type != "core-profile"]
    # The core profile goes first, whatever the scores; when it cannot all fit, the shorter
    # records go in full before a long one crowds them out.
    fits_whole = sum(len(_text(c)) for c in core) <= request.budget
    for candidate in core if fits_whole else sorted(core, key=lambda c: len(_text(c))):
        if not _add_context(delivery, candidate, request.budget):
            _offer_manifest(delivery, candidate, request)
    direct_left = DIRECT_POLICIES
    for candidate in others:
        if candidate.record is None:  # ranked too low to be read: beyond anything that could fit
            full = len(delivery.manifest) >= request.max_entries
            delivery.omit("beyond --max-entries" if full else "over the character budget")
            continue
        direct = (
            direct_left > 0
            and candidate.memory_type == "collaboration-policy"
            and candidate.lifecycle == "proven"
            and candidate.strong
        )
        if direct and _add_context(delivery, candidate, request.budget):
            direct_left -= 1
            continue
        _offer_manifest(delivery, candidate, request)
    return delivery


def _offer_manifest(delivery: Delivery, candidate: Candidate, request: TaskRequest) -> None:
    if len(delivery.manifest) >= request.max_entries:
        delivery.omit("beyond --max-entries")
    elif not _add_manifest(delivery, candidate, request.budget):
        delivery.omit("over the character budget")


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
