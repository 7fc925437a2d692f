"""Progressive delivery within a character budget (README: The Context Director).

1. core-profile records: full text;
2. a few (DIRECT_POLICIES) directly matching proven collaboration policies: full text;
3. the other candidates, best first, up to --max-entries: manifest entries (title, summary), or
   where an entry does not fit, its title alone (cut to COMPACT characters, no summary).

The budget counts the `text` of context items and the `title` and `summary` of manifest
entries; `used` never exceeds `limit`.  An item whose text does not fit is offered as a
manifest entry instead; what does not fit at all is counted in `omitted`, never dropped
silently.

Where each candidate goes is decided from the lengths the index keeps (`plan`); the candidate
search (provider/candidates.py) reads texts, titles and summaries only for the candidates
ranked high enough to be placed.
"""

from __future__ import annotations

import os
from typing import Any

from comet_git.provider.candidates import (
    DIRECT_POLICIES,
    SELECTED,
    Candidate,
    Selection,
    TaskRequest,
    may_be_given_in_full,
)

RESERVED = 5  # the best matches whose manifest entries keep their room under budget pressure
COMPACT = 48  # at most this many characters of a title, as the entry whose full one does not fit


class Plan:
    """Where the candidates go: (candidate, in full?) in delivery order, and what is left out."""

    __slots__ = ("compact", "manifest_size", "omitted", "placed", "used")

    def __init__(self) -> None:
        self.placed: list[tuple[Candidate, bool]] = []
        self.compact: set[str] = set()  # ids of the manifest entries given as their title alone
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
    # Under budget pressure the best matches must not vanish behind core items that do not
    # concern the request, nor behind a few texts in full: room for the manifest entries of the
    # RESERVED best is kept before the core profile and the policies in full take the rest, and
    # core items that did not fit in full become manifest entries last.
    ahead = [c for c in others if c.reached and c.tier >= SELECTED][:RESERVED]
    # (at most half the budget: the core profile keeps the other half; where their entries in
    # full would not fit in it, the room of their titles alone)
    fits = [c for c in ahead if c.manifest_length <= request.budget]
    room = _entry_length if sum(map(_entry_length, fits)) <= request.budget // 2 else _compact_length
    reserve = min(sum(map(room, fits)), request.budget // 2)
    if sum(c.text_length for c in core) + reserve <= request.budget:
        order = core
    else:  # the core items that concern the request first, then the shorter ones
        order = sorted(core, key=lambda c: (not c.strong, c.text_length))
    deferred = [c for c in order if not _add_context(planned, c, request.budget - reserve)]
    in_full_left = request.max_entries if request.session_start else DIRECT_POLICIES
    for candidate in others:
        if not candidate.reached:  # ranked too low to be considered: beyond anything that could fit
            full = planned.manifest_size >= request.max_entries
            planned.omit("beyond --max-entries" if full else "over the character budget")
            continue
        if candidate in ahead:
            reserve -= room(candidate)
        # In full only with room left for the manifest entries of the direct matches to come.
        if (
            in_full_left > 0
            and may_be_given_in_full(candidate, request)
            and _add_context(planned, candidate, request.budget - max(reserve, 0))
        ):
            in_full_left -= 1
            continue
        _offer_manifest(planned, candidate, request)
    for candidate in deferred:
        _offer_manifest(planned, candidate, request)
    return planned


def _offer_manifest(planned: Plan, candidate: Candidate, request: TaskRequest) -> None:
    """An entry, or where its title and summary do not fit, its title alone (cut to COMPACT):
    under a tight budget a few more rules that apply are named rather than left out."""
    if planned.manifest_size >= request.max_entries:
        planned.omit("beyond --max-entries")
    elif _add_manifest(planned, candidate, request.budget, candidate.manifest_length):
        return
    elif candidate.manifest_length > COMPACT and _add_manifest(
        planned, candidate, request.budget, _compact_length(candidate)
    ):
        planned.compact.add(candidate.id)
    else:
        planned.omit("over the character budget")


def _entry_length(candidate: Candidate) -> int:
    return candidate.manifest_length


def _compact_length(candidate: Candidate) -> int:
    """At most what the entry costs as its title alone (the title is part of manifest_length)."""
    return min(candidate.manifest_length, COMPACT)


def _add_context(planned: Plan, candidate: Candidate, budget: int) -> bool:
    if planned.used + candidate.text_length > budget:
        return False
    planned.used += candidate.text_length
    planned.placed.append((candidate, True))
    return True


def _add_manifest(planned: Plan, candidate: Candidate, budget: int, length: int) -> bool:
    if planned.used + length > budget:
        return False
    planned.used += length
    planned.manifest_size += 1
    planned.placed.append((candidate, False))
    return True


def deliver(selection: Selection, request: TaskRequest) -> Delivery:
    """What reaches the agent: the selection's candidates placed within the request's budget."""
    if selection.request != request:
        raise ValueError("a selection is delivered for the request it was made for")
    planned = plan(selection.candidates, selection.already_given, request)
    delivery = Delivery()
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
            compact = candidate.id in planned.compact
            delivery.manifest.append(
                {
                    "id": candidate.id,
                    "title": _cut(candidate.title) if compact else candidate.title,
                    "summary": "" if compact else candidate.summary,
                    "memoryType": candidate.memory_type,
                    "whyApplied": candidate.why,
                    "applicationId": application_id(),
                }
            )
    # What the items hold (the plan counted a compact title at its most).
    delivery.used = sum(len(item["text"]) for item in delivery.context) + sum(
        len(item["title"]) + len(item["summary"]) for item in delivery.manifest
    )
    return delivery


def _cut(title: str) -> str:
    return title if len(title) <= COMPACT else title[: COMPACT - 1].rstrip() + "…"
