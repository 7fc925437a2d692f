"""Progressive delivery within a character budget (SPEC §8).

1. core-profile records: full text;
2. a few (DIRECT_POLICIES) directly matching proven collaboration policies: full text;
3. the other candidates, best first, up to --max-entries: manifest entries (title, summary).

The budget counts the `text` of context items and the `title` and `summary` of manifest
entries; `used` never exceeds `limit`.  An item whose text does not fit is offered as a
manifest entry instead; what does not fit at all is counted in `omitted`, never dropped
silently.

Where each candidate goes is decided from the lengths the index keeps (`plan`), so that
only the texts, titles and summaries actually delivered are ever read (select.py reads
them for the plan's items; `deliver` then writes them out).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # select.py imports this module: no import cycle at run time
    from comet_git.director.select import Candidate, Selection, TaskRequest

DIRECT_POLICIES = 3  # proven policies delivered in full, beyond the core profile


class Plan:
    """Where the candidates go: (candidate, in full?) in delivery order, and what is left out."""

    __slots__ = ("manifest_size", "omitted", "placed", "used")

    def __init__(self) -> None:
        self.placed: list[tuple[Candidate, bool]] = []
        self.manifest_size = 0
        self.used = 0
        self.omitted: dict[str, int] = {}

    def omit(self, reason: str) -> None:
        self.omitted[reason] = self.omitted.get(reason, 0) + 1


class Delivery:
    __slots__ = ("context", "manifest", "omitted", "used")

    def __init__(self) -> None:
        self.context: list[dict[str, Any]] = []
        self.manifest: list[dict[str, Any]] = []
        self.used = 0
        self.omitted: dict[str, int] = {}


def application_id() -> str:
    return "ap-" + os.urandom(8).hex()


def plan(candidates: list[Candidate], already_given: int, request: TaskRequest) -> Plan:
    planned = Plan()
    if already_given:
        planned.omitted["already given in this session"] = already_given
    core = [c for c in candidates if c.memory_type == "core-profile"]
    others = [c for c in candidates if c.memory_type != "core-profile"]
    # The core profile goes first, whatever the scores; when it cannot all fit, the shorter
    # records go in full before a long one crowds them out.
    fits_whole = sum(c.text_length for c in core) <= request.budget
    for candidate in core if fits_whole else sorted(core, key=lambda c: c.text_length):
        if not _add_context(planned, candidate, request.budget):
            _offer_manifest(planned, candidate, request)
    direct_left = DIRECT_POLICIES
    for candidate in others:
        if not candidate.reached:  # ranked too low to be considered: beyond anything that could fit
            full = planned.manifest_size >= request.max_entries
            planned.omit("beyond --max-entries" if full else "over the character budget")
            continue
        direct = (
            direct_left > 0
            and candidate.memory_type == "collaboration-policy"
            and candidate.lifecycle == "proven"
            and candidate.strong
        )
        if direct and _add_context(planned, candidate, request.budget):
            direct_left -= 1
            continue
        _offer_manifest(planned, candidate, request)
    return planned


def _offer_manifest(planned: Plan, candidate: Candidate, request: TaskRequest) -> None:
    if planned.manifest_size >= request.max_entries:
        planned.omit("beyond --max-entries")
    elif not _add_manifest(planned, candidate, request.budget):
        planned.omit("over the character budget")


def _add_context(planned: Plan, candidate: Candidate, budget: int) -> bool:
    if planned.used + candidate.text_length > budget:
        return False
    planned.used += candidate.text_length
    planned.placed.append((candidate, True))
    return True


def _add_manifest(planned: Plan, candidate: Candidate, budget: int) -> bool:
    if planned.used + candidate.manifest_length > budget:
        return False
    planned.used += candidate.manifest_length
    planned.manifest_size += 1
    planned.placed.append((candidate, False))
    return True


def deliver(selection: Selection, request: TaskRequest) -> Delivery:
    """The delivery select planned (and read the texts for): for the request it was given."""
    planned_for, planned = selection.planned
    if planned_for != request:
        raise ValueError("a selection is delivered for the request it was made for")
    delivery = Delivery()
    delivery.used = planned.used
    delivery.omitted = planned.omitted
    for candidate, in_full in planned.placed:
        if in_full:
            delivery.context.append(
                {
                    "id": candidate.id,
                    "title": candidate.title,
                    "memoryType": candidate.memory_type,
                    "text": candidate.text,
                    "whyApplied": candidate.why,
                    "applicationId": application_id(),
                }
            )
        else:
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
    return delivery
