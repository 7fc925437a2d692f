"""Learning deltas (`comet.learning-delta/v1`): an agent, acting as semantic reflector,
proposes create / update / supersede / forget / noop; each is validated strictly and
applied through the provider.  What a delta makes is always `inferred` (and `trial`),
and a delta may never change, supersede or forget an `explicit` record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from comet_git.errors import CometError, InvalidInputError
from comet_git.learning.consolidate import joined_evidence, place, supersede
from comet_git.provider import Amend, Forget, MachineProvider, Query, Remember
from comet_git.records.model import (
    MEMORY_CLASSES,
    MEMORY_TYPES,
    Evidence,
    Selectors,
    record_from_json,
    utc_now,
)

DELTA_SCHEMA = "comet.learning-delta/v1"
RESULT_SCHEMA = "comet.apply-result/v1"
ACTIONS = ("create", "update", "supersede", "forget", "noop")
DELTA_KEYS = (
    "action", "targetId", "title", "statement", "memoryType", "memoryClass", "scope", "applicability",
    "evidence", "reason",
)  # fmt: skip
APPLICABILITY_KEYS = ("paths", "tasks", "operations", "phases")


@dataclass
class DeltaResult:
    index: int
    action: str
    status: str  # applied | noop | rejected
    id: str | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "action": self.action,
            "status": self.status,
            "id": self.id,
            "reason": self.reason,
        }


class Rejected(Exception):
    """One delta that cannot be applied; the others still are."""


def apply_deltas(provider: MachineProvider, document: Any, *, learning: bool) -> list[DeltaResult]:
    if not isinstance(document, Mapping) or document.get("schema") != DELTA_SCHEMA:
        raise InvalidInputError(
            f"not a learning delta document: the schema must be {DELTA_SCHEMA}",
            hint='{"schema": "comet.learning-delta/v1", "deltas": [...]}',
        )
    deltas = document.get("deltas")
    if not isinstance(deltas, list):
        raise InvalidInputError("'deltas' must be a list")
    results = []
    for index, delta in enumerate(deltas):
        action = str(delta.get("action")) if isinstance(delta, Mapping) else "?"
        try:
            results.append(_apply_one(provider, index, delta, learning))
        except (Rejected, CometError) as error:
            results.append(DeltaResult(index, action, "rejected", None, str(error)))
    return results


def _apply_one(provider: MachineProvider, index: int, delta: Any, learning: bool) -> DeltaResult:
    if not isinstance(delta, Mapping):
        raise Rejected("a delta must be an object")
    unknown = [key for key in delta if key not in DELTA_KEYS]
    if unknown:
        raise Rejected(f"unknown key {unknown[0]!r}; allowed: {', '.join(DELTA_KEYS)}")
    action = delta.get("action")
    if action not in ACTIONS:
        raise Rejected(f"action {action!r} is not one of {', '.join(ACTIONS)}")
    if action == "noop":
        return DeltaResult(
            index, action, "noop", delta.get("targetId"), str(delta.get("reason") or "nothing to do")
        )
    if action == "create":
        if not learning:
            return DeltaResult(
                index, action, "noop", None, "memory.learning is off: no new records are formed"
            )
        return _create(provider, index, delta, supersedes=None)
    target = _target(provider, delta)
    if action == "forget":
        provider.apply(Forget(target["id"]))
        return DeltaResult(index, action, "applied", target["id"], str(delta.get("reason") or "forgotten"))
    if action == "update":
        return _update(provider, index, delta, target)
    return _supersede(provider, index, delta, target, learning)


def _target(provider: MachineProvider, delta: Mapping[str, Any]) -> dict[str, Any]:
    target_id = delta.get("targetId")
    if not isinstance(target_id, str) or not target_id:
        raise Rejected(f"{delta.get('action')} needs a targetId")
    target = provider.query(Query(ids=(target_id,))).records[0].as_dict()
    if target["authority"] == "explicit":
        raise Rejected(
            f"{target_id} is explicit: only you can change it (a delta never overrides explicit memory)"
        )
    return target


def _selectors(delta: Mapping[str, Any]) -> Selectors:
    applicability = delta.get("applicability") or {}
    if not isinstance(applicability, Mapping):
        raise Rejected("'applicability' must be an object with paths, tasks, operations, phases")
    unknown = [key for key in applicability if key not in APPLICABILITY_KEYS]
    if unknown:
        raise Rejected(f"unknown applicability key {unknown[0]!r}")

    def values(key: str) -> tuple[str, ...]:
        items = applicability.get(key) or []
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            raise Rejected(f"applicability.{key} must be a list of strings")
        return tuple(items)

    return Selectors(values("paths"), values("tasks"), values("operations"), values("phases"))


def _evidence(delta: Mapping[str, Any]) -> tuple[Evidence, ...]:
    items = delta.get("evidence") or []
    if not isinstance(items, list):
        raise Rejected("'evidence' must be a list of {kind, summary, ref?}")
    found = []
    for item in items:
        if not isinstance(item, Mapping) or not item.get("kind") or not item.get("summary"):
            raise Rejected("each evidence item needs a kind and a summary")
        extra = [key for key in item if key not in ("kind", "summary", "ref")]
        if extra:
            raise Rejected(f"unknown evidence key {extra[0]!r}")
        found.append(
            Evidence(
                kind=str(item["kind"]),
                summary=str(item["summary"])[:500],
                event=item.get("ref"),
                at=utc_now(),
            )
        )
    return tuple(found)


def _create(
    provider: MachineProvider, index: int, delta: Mapping[str, Any], *, supersedes: str | None
) -> DeltaResult:
    statement = delta.get("statement")
    if not isinstance(statement, str) or not statement.strip():
        raise Rejected("a create needs a statement")
    memory_type = delta.get("memoryType") or "collaboration-policy"
    memory_class = delta.get("memoryClass")
    if memory_type not in MEMORY_TYPES:
        raise Rejected(f"memoryType {memory_type!r} is not one of {', '.join(MEMORY_TYPES)}")
    if memory_class is not None and memory_class not in MEMORY_CLASSES:
        raise Rejected(f"memoryClass {memory_class!r} is not one of {', '.join(MEMORY_CLASSES)}")
    scope = delta.get("scope") or ("project" if provider.project_key else "global")
    change = Remember(
        text=statement,
        title=delta.get("title"),
        scope=str(scope),
        memory_type=str(memory_type),
        memory_class=memory_class,
        selectors=_selectors(delta),
        authority="inferred",
        evidence=_evidence(delta),
    )
    placed = place(provider, change, replacing=supersedes)
    if placed.status == "noop" or placed.id is None:
        return DeltaResult(index, str(delta["action"]), "noop", placed.id, placed.reason)
    if supersedes:
        supersede(provider, placed.id, [supersedes])
    reason = delta.get("reason") if placed.action == "created" else None
    return DeltaResult(index, str(delta["action"]), "applied", placed.id, str(reason or placed.reason))


def _update(
    provider: MachineProvider, index: int, delta: Mapping[str, Any], target: dict[str, Any]
) -> DeltaResult:
    current = record_from_json(target)
    evidence = joined_evidence(current, _evidence(delta))
    wanted = _selectors(delta)
    selectors = Selectors(
        *(getattr(wanted, key) or getattr(current.selectors, key) for key in APPLICABILITY_KEYS)
    )
    result = provider.apply(Amend(current.id, (("evidence", evidence), ("selectors", selectors)), "update"))
    status = "applied" if result.action == "amended" else "noop"
    return DeltaResult(
        index, "update", status, current.id, str(delta.get("reason") or "evidence added, selectors narrowed")
    )


def _supersede(
    provider: MachineProvider, index: int, delta: Mapping[str, Any], target: dict[str, Any], learning: bool
) -> DeltaResult:
    if delta.get("statement"):
        if not learning:
            return DeltaResult(
                index, "supersede", "noop", target["id"], "memory.learning is off: no new records"
            )
        created = _create(provider, index, delta, supersedes=target["id"])
        if created.status != "applied":
            return created  # the replacement was refused: the target stays in use
        created.reason = str(delta.get("reason") or f"replaces {target['id']}")
        return created
    provider.apply(Amend(target["id"], (("lifecycle", "superseded"),), "superseded"))
    return DeltaResult(
        index, "supersede", "applied", target["id"], str(delta.get("reason") or "no longer used")
    )
