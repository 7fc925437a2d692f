"""The event envelope (`comet.experience/v1`) and the one strict parser for it."""

# No `from __future__ import annotations` in this module: typing.NamedTuple compiles every
# annotation written as a string, and `comet task` imports these classes (their fields as
# types cost about half).  Names defined further down, or only for type checking, are quoted.

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

from comet_git.errors import RecordFormatError

EVENT_SCHEMA = "comet.experience/v1"
EVENT_TYPES = (
    "user.signal",
    "repo.commit",
    "repo.checkout",
    "repo.merge",
    "repo.rewrite",
    "task.started",
    "task.completed",
    "verification.completed",
    "review.resolved",
    "context.applied",
    "context.outcome",
    "memory.changed",
)
ENVELOPE_KEYS = (
    "schema",
    "eventId",
    "episodeId",
    "type",
    "at",
    "scope",
    "projectKey",
    "actor",
    "source",
    "context",
    "signal",
    "evidence",
    "outcome",
)
REQUIRED_KEYS = ("schema", "eventId", "episodeId", "type", "at", "scope", "actor", "source", "context")
SCOPES = ("global", "project")


def event_summary(event: Mapping[str, Any]) -> str:
    """One line for a person about an event (its JSON): a commit's id and subject, a
    signal's kind and text, else its plain context values."""
    context = event.get("context", {})
    if event["type"] == "repo.commit":
        return f"{str(context.get('commit', ''))[:10]} {context.get('subject', '')}"
    if event["type"] == "user.signal":
        signal = event.get("signal", {})
        return f"[{signal.get('kind', '?')}] {signal.get('text', '')}"
    return ", ".join(f"{k}={v}" for k, v in context.items() if isinstance(v, (str, int, bool)))[:120]


def readable(text: str) -> str:
    """`text` with each lone surrogate (a JSON "\\ud800" alone, or the bytes of an argument that
    was not UTF-8) as U+FFFD: one bad character must not keep a prompt or a session id out of
    the journal, whose lines are UTF-8."""
    import re

    return re.sub("[\ud800-\udfff]", "\ufffd", text)


def stable_id(prefix: str, *parts: str) -> str:
    """A deterministic id: the same source facts give the same id (hook, import, replay)."""
    digest = _sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return f"{prefix}-{digest[:20]}"


def _sha256(data: bytes) -> Any:
    """hashlib.sha256 from Python's own module when there is one: the same digest, without the
    3 to 4 ms of loading OpenSSL that `import hashlib` costs (every `comet task` journals)."""
    import importlib

    for name in ("_sha256", "_sha2"):  # Python 3.10 and 3.11; 3.12 and later
        try:
            return importlib.import_module(name).sha256(data)
        except ImportError:
            continue
    import hashlib

    return hashlib.sha256(data)


def session_episode(project_key: str | None, session: str | None, at: str) -> str:
    """The episode of one session's work in one project (`at`: an ISO time of the work): what
    the director delivers, what the user says and how the task ends all carry it, so that
    reflection sees them together.  Without a session, a project's work of one day is one episode."""
    return stable_id("ep", project_key or "global", "session", session or at[:10])


def random_id(prefix: str) -> str:
    return f"{prefix}-{os.urandom(10).hex()}"  # os.urandom, not uuid: uuid costs 6 ms to import


class Event(NamedTuple):
    event_id: str
    episode_id: str
    type: str
    at: str
    scope: str
    project_key: str | None
    actor: str
    source: str
    context: dict[str, Any]  # no default: a NamedTuple's default would be one shared dict
    signal: dict[str, Any] | None = None
    evidence: list[Any] | None = None
    outcome: dict[str, Any] | None = None

    @property
    def month(self) -> str:
        return self.at[:7]

    @property
    def signal_text(self) -> str:
        """What the user said, for a `user.signal` ("" for other events)."""
        return str((self.signal or {}).get("text", ""))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "schema": EVENT_SCHEMA,
            "eventId": self.event_id,
            "episodeId": self.episode_id,
            "type": self.type,
            "at": self.at,
            "scope": self.scope,
            "projectKey": self.project_key,
            "actor": self.actor,
            "source": self.source,
            "context": self.context,
        }
        for key, value in (("signal", self.signal), ("evidence", self.evidence), ("outcome", self.outcome)):
            if value is not None:
                data[key] = value
        return data


def parse_event(data: Any, *, where: str) -> Event:
    """Build an Event from its JSON form, rejecting anything off the envelope."""

    def fail(message: str, key: str | None = None) -> RecordFormatError:
        return RecordFormatError(message, file=where, key=key)

    if not isinstance(data, Mapping):
        raise fail("an event must be a JSON object")
    unknown = [key for key in data if key not in ENVELOPE_KEYS]
    if unknown:
        raise fail(f"unknown key '{unknown[0]}'", unknown[0])
    for key in REQUIRED_KEYS:
        if data.get(key) in (None, ""):
            raise fail(f"missing key '{key}'", key)
    if data["schema"] != EVENT_SCHEMA:
        raise fail(f"schema {data['schema']!r} is not {EVENT_SCHEMA}", "schema")
    if data["type"] not in EVENT_TYPES:
        raise fail(f"type {data['type']!r} is not one of {', '.join(EVENT_TYPES)}", "type")
    if data["scope"] not in SCOPES:
        raise fail(f"scope {data['scope']!r} is not global or project", "scope")
    if data["scope"] == "project" and not data.get("projectKey"):
        raise fail("projectKey is required for a project event", "projectKey")
    for key in ("eventId", "episodeId", "at", "actor", "source"):
        if not isinstance(data[key], str):
            raise fail(f"'{key}' must be a string", key)
    if not isinstance(data["context"], Mapping):
        raise fail("'context' must be an object", "context")
    for key, kind in (("signal", Mapping), ("outcome", Mapping), ("evidence", list)):
        if data.get(key) is not None and not isinstance(data[key], kind):
            raise fail(f"'{key}' has the wrong type", key)
    return Event(
        event_id=data["eventId"],
        episode_id=data["episodeId"],
        type=data["type"],
        at=data["at"],
        scope=data["scope"],
        project_key=data.get("projectKey"),
        actor=data["actor"],
        source=data["source"],
        context=dict(data["context"]),
        signal=dict(data["signal"]) if data.get("signal") is not None else None,
        evidence=list(data["evidence"]) if data.get("evidence") is not None else None,
        outcome=dict(data["outcome"]) if data.get("outcome") is not None else None,
    )
