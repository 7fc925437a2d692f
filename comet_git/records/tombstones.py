"""Tombstones: forgetting is kept apart from the lifecycle.

tombstones/<id>.json says that <id> was forgotten (with a hash of its content,
so a replay of old events cannot bring it back); tombstones/<id>.md keeps the
content for rollback, and is deleted by a permanent forget.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from comet_git.records.model import Record, is_timestamp, utc_now
from comet_git.store import ScopeStore, atomic_write


def content_hash(text: str) -> str:
    normalized = " ".join(text.split()).lower()
    return "sha256:" + hashlib.sha256(normalized.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Tombstone:
    id: str
    forgotten_at: str
    content_hash: str
    permanent: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "forgottenAt": self.forgotten_at,
            "contentHash": self.content_hash,
            "permanent": self.permanent,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tombstone:
        return cls(
            str(data["id"]), str(data["forgottenAt"]), str(data["contentHash"]), bool(data["permanent"])
        )


def is_tombstone(data: object, record_id: str) -> bool:
    """Whether `data` (tombstones/ID.json, read) is a tombstone of `record_id` as `write` makes it."""
    return (
        isinstance(data, dict)
        and set(data) == {"id", "forgottenAt", "contentHash", "permanent"}
        and data["id"] == record_id
        and is_timestamp(data["forgottenAt"])
        and isinstance(data["contentHash"], str)
        and re.fullmatch(r"sha256:[0-9a-f]{64}", data["contentHash"]) is not None
        and isinstance(data["permanent"], bool)
    )


def metadata_path(store: ScopeStore, record_id: str) -> Path:
    return store.tombstones_dir / f"{record_id}.json"


def content_path(store: ScopeStore, record_id: str) -> Path:
    return store.tombstones_dir / f"{record_id}.md"


def read(store: ScopeStore, record_id: str) -> Tombstone | None:
    path = metadata_path(store, record_id)
    if not path.exists():
        return None
    return Tombstone.from_json(json.loads(path.read_text(encoding="utf-8")))


def write(store: ScopeStore, record: Record, raw_content: str, *, permanent: bool) -> Tombstone:
    tombstone = Tombstone(record.id, utc_now(), content_hash(record.text), permanent)
    if not permanent:
        atomic_write(content_path(store, record.id), raw_content)
    atomic_write(metadata_path(store, record.id), json.dumps(tombstone.to_json(), indent=2) + "\n")
    return tombstone


def make_permanent(store: ScopeStore, tombstone: Tombstone) -> Tombstone:
    permanent = Tombstone(tombstone.id, tombstone.forgotten_at, tombstone.content_hash, True)
    atomic_write(metadata_path(store, tombstone.id), json.dumps(permanent.to_json(), indent=2) + "\n")
    with contextlib.suppress(FileNotFoundError):
        content_path(store, tombstone.id).unlink()
    return permanent


def remove(store: ScopeStore, record_id: str) -> None:
    for path in (metadata_path(store, record_id), content_path(store, record_id)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def forgotten_hashes(store: ScopeStore) -> set[str]:
    """The content hashes of everything forgotten in `store`, for good or not."""
    if not store.tombstones_dir.is_dir():
        return set()
    hashes: set[str] = set()
    for path in store.tombstones_dir.glob("*.json"):
        try:
            hashes.add(str(json.loads(path.read_bytes()).get("contentHash")))
        except (ValueError, AttributeError):
            continue  # reported as an invalid tombstone by the sync
    return hashes


def forgotten_before(store: ScopeStore, text: str, record_id: str | None) -> bool:
    """Whether the person forgot this statement (or the record with this id) before: the
    tombstones keep ids and content hashes, even after a permanent forget."""
    if record_id is not None and read(store, record_id) is not None:
        return True
    return content_hash(text) in forgotten_hashes(store)
