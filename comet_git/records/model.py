"""The record (README: The record) as typed, immutable values, and the one strict parser
that builds them from a front-matter mapping."""

import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from comet_git.errors import RecordFormatError

SCOPES = ("global", "project")
MEMORY_TYPES = ("core-profile", "collaboration-policy", "personal-episode")
MEMORY_CLASSES = ("user-fact", "user-preference", "collaboration-habit", "project-agreement")
AUTHORITIES = ("explicit", "inferred")
LIFECYCLES = ("trial", "proven", "superseded")
OUTCOMES = ("used-successfully", "ignored", "overridden", "corrected", "contributed-to-failure")
APPLICATION_COUNTS = ("applied", *OUTCOMES)
KNOWN_OPERATIONS = (
    "edit",
    "test",
    "commit",
    "review",
    "refactor",
    "debug",
    "release",
    "docs",
    "migrate",
    "deploy",
)
KNOWN_PHASES = ("plan", "build", "verify", "review", "release")

ID_PATTERN = re.compile(r"^[a-z][a-z0-9]*-[a-z0-9]{4,32}$")
WORD_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,39}$")
MAX_TITLE = 200
# A record is read in full at every task it applies to: a few sentences, not a pasted document.
MAX_TEXT = 4000
MAX_SUMMARY = 300
MAX_EVIDENCE = 50
MAX_EVIDENCE_SUMMARY = 500
MAX_SELECTOR = 300  # characters in one path pattern or task keyword
# C0 and C1 control characters (category Cc), which no path or keyword holds; the index uses
# some of them as separators.
_CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f-\x9f]")
ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32: no i, l, o, u

# Front-matter keys in the order the tool writes them.
FIELD_ORDER = (
    "id",
    "title",
    "summary",
    "scope",
    "projectKey",
    "memoryType",
    "memoryClass",
    "selectors",
    "authority",
    "lifecycle",
    "evidence",
    "supersedes",
    "supersededBy",
    "conflictsWith",
    "application",
    "version",
    "createdAt",
    "updatedAt",
)
REQUIRED_FIELDS = (
    "id",
    "title",
    "scope",
    "memoryType",
    "memoryClass",
    "authority",
    "lifecycle",
    "version",
    "createdAt",
    "updatedAt",
)
SELECTOR_KEYS = ("paths", "tasks", "operations", "phases")
EVIDENCE_KEYS = ("event", "kind", "at", "summary")
APPLICATION_KEYS = ("lastAppliedAt", "lastWhyApplied", "lastOutcome", "counts")


def new_record_id() -> str:
    import secrets

    return "pm-" + "".join(secrets.choice(ID_ALPHABET) for _ in range(8))


def stable_record_id(*origin: str) -> str:
    """An id derived from where a learned record comes from (a habit of a project, an event):
    learning the same thing again finds the same record instead of making another."""
    import hashlib  # off the hot path: only learning derives ids

    number = int.from_bytes(hashlib.sha256("\x1f".join(origin).encode("utf-8")).digest()[:5], "big")
    return "pm-" + "".join(ID_ALPHABET[(number >> shift) & 31] for shift in range(35, -1, -5))


def utc_now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


_TIMESTAMP = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"  # as utc_now writes it


def is_timestamp(value: object) -> bool:
    """Whether `value` is a real UTC time as the tool writes it (2026-11-30T07:00:00Z)."""
    if not isinstance(value, str) or not re.fullmatch(_TIMESTAMP, value):
        return False
    try:
        dt.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
    except ValueError:
        return False
    return True


# Immutable values are NamedTuples, not frozen dataclasses: `comet task` imports this module,
# and importing `dataclasses` and building its classes costs the agent's hot path ~30 ms.
# No `from __future__ import annotations` here: typing.NamedTuple compiles every annotation
# written as a string; as types, these fields cost about half.  Later names are quoted.
class Selectors(NamedTuple):
    paths: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ()
    operations: tuple[str, ...] = ()
    phases: tuple[str, ...] = ()

    def is_empty(self) -> bool:
        return not (self.paths or self.tasks or self.operations or self.phases)

    def to_json(self) -> dict[str, list[str]]:
        return {key: list(getattr(self, key)) for key in SELECTOR_KEYS}


class Evidence(NamedTuple):
    kind: str
    summary: str
    event: str | None = None
    at: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {"event": self.event, "kind": self.kind, "at": self.at, "summary": self.summary}


class Application(NamedTuple):
    last_applied_at: str | None = None
    last_why_applied: tuple[str, ...] = ()
    last_outcome: str | None = None
    counts: tuple[tuple[str, int], ...] = ()

    def count(self, name: str) -> int:  # in place of tuple.count, which means nothing here
        return dict(self.counts).get(name, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "lastAppliedAt": self.last_applied_at,
            "lastWhyApplied": list(self.last_why_applied),
            "lastOutcome": self.last_outcome,
            "counts": dict(self.counts),
        }


class Record(NamedTuple):
    id: str
    title: str
    scope: str
    memory_type: str
    memory_class: str
    authority: str
    lifecycle: str
    version: int
    created_at: str
    updated_at: str
    text: str
    summary: str | None = None
    project_key: str | None = None
    selectors: Selectors = Selectors()
    evidence: tuple[Evidence, ...] = ()
    supersedes: tuple[str, ...] = ()
    superseded_by: tuple[str, ...] = ()
    # Records it contradicts that the tool could not settle (another place, or unsure): both stay
    # in use until the person decides, and `comet memory status` lists the pair.
    conflicts_with: tuple[str, ...] = ()
    application: Application | None = None

    @property
    def manifest_summary(self) -> str:
        # A learned rule says all it knows in its entry (its later sentences carry the detail
        # that makes it useful); your own words are summed up by their first sentence.
        return self.summary or derive_summary(self.text, fill=self.authority == "inferred")

    def evolve(self, **changes: Any) -> "Record":
        return self._replace(**changes)

    def front_matter(self) -> dict[str, Any]:
        """The front-matter mapping in FIELD_ORDER, leaving out empty optional keys."""
        values: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "scope": self.scope,
            "projectKey": self.project_key,
            "memoryType": self.memory_type,
            "memoryClass": self.memory_class,
            "selectors": {k: v for k, v in self.selectors.to_json().items() if v} or None,
            "authority": self.authority,
            "lifecycle": self.lifecycle,
            "evidence": [{k: v for k, v in item.to_json().items() if v is not None} for item in self.evidence]
            or None,
            "supersedes": list(self.supersedes) or None,
            "supersededBy": list(self.superseded_by) or None,
            "conflictsWith": list(self.conflicts_with) or None,
            "application": self.application.to_json() if self.application else None,
            "version": self.version,
            "createdAt": self.created_at,
            "updatedAt": self.updated_at,
        }
        return {key: values[key] for key in FIELD_ORDER if values[key] is not None}

    def to_json(self) -> dict[str, Any]:
        """Every front-matter key of README: The record (nulls and empty lists included) plus `text`."""
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.manifest_summary,
            "scope": self.scope,
            "projectKey": self.project_key,
            "memoryType": self.memory_type,
            "memoryClass": self.memory_class,
            "selectors": self.selectors.to_json(),
            "authority": self.authority,
            "lifecycle": self.lifecycle,
            "evidence": [item.to_json() for item in self.evidence],
            "supersedes": list(self.supersedes),
            "supersededBy": list(self.superseded_by),
            "conflictsWith": list(self.conflicts_with),
            "application": self.application.to_json() if self.application else None,
            "version": self.version,
            "createdAt": self.created_at,
            "updatedAt": self.updated_at,
            "text": self.text,
        }


def is_one_line(text: str) -> bool:
    """No line break of any kind (str.splitlines also breaks on \\r, \\x85, U+2028...)."""
    return len(text.splitlines()) <= 1 and not text.endswith(("\r", "\n"))


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


SUMMARY_LENGTH = 160
# A redaction's marker as journal/redact.py writes it ("[REDACTED:github-token]"): a title or a
# summary is never cut inside one, and its colon ends no clause.
REDACTION_MARKER = r"\[REDACTED:[^\]\s]*\]"
FILLED_LENGTH = MAX_SUMMARY - 2  # a learned rule's entry: as many of its sentences as fit, and " …"
# Compiled by re on first use (and cached there): the lookbehinds take ~0.5 ms to compile, and
# `comet task`, which imports this module, never derives a summary.
_SENTENCE_END = r"(?<=[.!?])\s|(?<=[。！？])"


def derive_summary(text: str, *, fill: bool = False) -> str:
    """The first sentence or line of the text, short enough for a manifest entry.  With `fill`
    (a learned rule, which is delivered as its entry alone), as many of its sentences as fit in
    FILLED_LENGTH, on every line: its later sentences carry what makes it useful ("Use
    type(scope): subject. You usually give a scope, e.g. cli."); where some are left out, the
    entry ends with " …", so the agent knows to expand it."""
    # The lines that say something: a heading's marks, a bullet or a rule (`---`) do not.
    lines = [said for line in text.splitlines() if (said := line.strip().lstrip("#-* ").strip())]
    if fill:
        return _filled(lines)
    first = lines[0] if lines else ""
    ends = [match.start() for match in re.finditer(_SENTENCE_END, first)]
    if ends:
        first = first[: ends[0]].rstrip()
    return shortened(first, SUMMARY_LENGTH)


def shortened(text: str, limit: int, tail: str = "...") -> str:
    """`text`, or where it is longer than `limit`, as much of it as fits with `tail`, never cut
    inside a redaction marker (half a marker reads as a word of the text)."""
    if len(text) <= limit:
        return text
    cut = limit - len(tail)
    inside = next((m for m in re.finditer(REDACTION_MARKER, text) if m.start() < cut < m.end()), None)
    return text[: cut if inside is None else inside.start()].rstrip() + tail


def _filled(lines: list[str]) -> str:
    whole = " ".join(lines)
    if len(whole) <= MAX_SUMMARY:
        return whole
    ends = [match.start() for match in re.finditer(_SENTENCE_END, whole) if match.start() <= FILLED_LENGTH]
    if ends:
        return whole[: ends[-1]].rstrip() + " …"
    head = whole[: FILLED_LENGTH + 1]  # whole words, where there are any (a marker has no space)
    return head.rsplit(" ", 1)[0].rstrip() + " …" if " " in head else shortened(whole, MAX_SUMMARY, " …")


def default_title(text: str) -> str:
    """The title a record gets when none is given: its first sentence, cut to 80 characters."""
    return shortened(derive_summary(text), 80)


def retitled(old: Record, edited_text: str, edited_title: str) -> str:
    """The title after the text changed: a title derived from the old text follows the new
    text; one the person chose, or changed in the same edit, stays."""
    if edited_title == old.title and old.title == default_title(old.text) and edited_text != old.text:
        return default_title(edited_text)
    return edited_title


LineFinder = Callable[[str], "int | None"]


class _Parser:
    """Builds a Record from a mapping, naming the file, line and key of the first problem."""

    def __init__(self, file: str, line_of: LineFinder | None) -> None:
        self.file = file
        self.line_of = line_of or (lambda key: None)

    def fail(self, key: str | None, message: str, hint: str | None = None) -> RecordFormatError:
        line = self.line_of(key) if key else None
        prefix = f"key '{key}': " if key else ""
        return RecordFormatError(prefix + message, file=self.file, line=line, key=key, hint=hint)

    def record(self, data: Mapping[str, Any], text: str) -> Record:
        if not isinstance(data, Mapping):
            raise self.fail(None, "the front-matter is not a mapping of keys to values")
        unknown = [key for key in data if key not in FIELD_ORDER]
        if unknown:
            raise self.fail(
                str(unknown[0]),
                "unknown key",
                hint="allowed keys: " + ", ".join(FIELD_ORDER),
            )
        for key in REQUIRED_FIELDS:
            if data.get(key) in (None, ""):
                raise self.fail(key, "missing required key", hint=f"add '{key}:' to the front-matter")
        scope = self.choice(data, "scope", SCOPES)
        project_key = self.optional_string(data, "projectKey")
        if scope == "project" and not project_key:
            raise self.fail("projectKey", "required when scope is project")
        if scope == "global" and project_key:
            raise self.fail("projectKey", "must be absent when scope is global")
        record_id = self.string(data, "id")
        if not ID_PATTERN.match(record_id):
            raise self.fail("id", f"{record_id!r} is not a valid id", hint="ids look like pm-7k2m9q4x")
        body = normalize_newlines(text).strip("\n")
        if not body.strip():
            raise self.fail(None, "the record has no text below the front-matter")
        return Record(
            id=record_id,
            title=self.title(data),
            summary=self.summary(data),
            scope=scope,
            project_key=project_key,
            memory_type=self.choice(data, "memoryType", MEMORY_TYPES),
            memory_class=self.choice(data, "memoryClass", MEMORY_CLASSES),
            selectors=self.selectors(data.get("selectors")),
            authority=self.choice(data, "authority", AUTHORITIES),
            lifecycle=self.choice(data, "lifecycle", LIFECYCLES),
            evidence=self.evidence(data.get("evidence")),
            supersedes=self.id_list(data, "supersedes"),
            superseded_by=self.id_list(data, "supersededBy"),
            conflicts_with=self.id_list(data, "conflictsWith"),
            application=self.application(data.get("application")),
            version=self.version(data.get("version")),
            created_at=self.timestamp(data, "createdAt"),
            updated_at=self.timestamp(data, "updatedAt"),
            text=body,
        )

    def string(self, data: Mapping[str, Any], key: str) -> str:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.fail(key, f"expected text, got {type(value).__name__}")
        return str(value).strip()

    def optional_string(self, data: Mapping[str, Any], key: str) -> str | None:
        return None if data.get(key) in (None, "") else self.string(data, key)

    def choice(self, data: Mapping[str, Any], key: str, allowed: tuple[str, ...]) -> str:
        value = self.string(data, key)
        if value not in allowed:
            raise self.fail(key, f"{value!r} is not allowed", hint="allowed values: " + ", ".join(allowed))
        return value

    def title(self, data: Mapping[str, Any]) -> str:
        title = self.string(data, "title")
        if not title:
            raise self.fail(
                "title", "is blank", hint="give a title, or leave it out to derive one from the text"
            )
        if not is_one_line(title) or len(title) > MAX_TITLE:
            raise self.fail("title", f"must be one line of at most {MAX_TITLE} characters")
        return title

    def summary(self, data: Mapping[str, Any]) -> str | None:
        summary = self.optional_string(data, "summary")
        if summary is not None and (not is_one_line(summary) or len(summary) > MAX_SUMMARY):
            raise self.fail("summary", f"must be one line of at most {MAX_SUMMARY} characters")
        return summary

    def timestamp(self, data: Mapping[str, Any], key: str) -> str:
        value = data.get(key)
        if isinstance(value, dt.datetime):
            if value.tzinfo is None:
                value = value.replace(tzinfo=dt.timezone.utc)
            return value.isoformat().replace("+00:00", "Z")
        if isinstance(value, dt.date):
            return value.isoformat()
        text = self.string(data, key)
        try:
            dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise self.fail(
                key, f"{text!r} is not an ISO-8601 time", hint="e.g. 2026-11-30T07:00:00Z"
            ) from None
        return text

    def version(self, value: Any) -> int:
        if isinstance(value, bool):
            value = None
        if isinstance(value, str) and value.isascii() and value.isdigit():
            value = int(value)
        if not isinstance(value, int) or value < 1:
            raise self.fail("version", f"{value!r} is not a positive whole number")
        return value

    def string_list(self, value: Any, key: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise self.fail(key, "expected a list of strings")
        items: list[str] = []
        for item in value:
            if isinstance(item, bool) or not isinstance(item, (str, int, float)) or not str(item).strip():
                raise self.fail(key, f"{item!r} is not a non-empty string")
            items.append(str(item).strip())
        return tuple(items)

    def id_list(self, data: Mapping[str, Any], key: str) -> tuple[str, ...]:
        ids = self.string_list(data.get(key), key)
        for record_id in ids:
            if not ID_PATTERN.match(record_id):
                raise self.fail(key, f"{record_id!r} is not a valid id")
        return ids

    def selectors(self, value: Any) -> Selectors:
        if value is None:
            return Selectors()
        if not isinstance(value, Mapping):
            raise self.fail("selectors", "expected a mapping with paths, tasks, operations, phases")
        unknown = [key for key in value if key not in SELECTOR_KEYS]
        if unknown:
            raise self.fail(
                str(unknown[0]), "unknown selector", hint="allowed selectors: " + ", ".join(SELECTOR_KEYS)
            )
        paths = self.string_list(value.get("paths"), "paths")
        for pattern in paths:
            problem = path_selector_problem(pattern)
            if problem:
                raise self.fail(
                    "paths",
                    f"{pattern!r} {problem}",
                    hint="use a gitignore-style glob relative to the repository root, e.g. src/auth/**",
                )
        tasks = self.string_list(value.get("tasks"), "tasks")
        for task in tasks:
            problem = selector_text_problem(task)
            if problem:
                raise self.fail("tasks", f"{task!r} {problem}", hint="use a keyword or a short phrase")
        operations = self.words(value.get("operations"), "operations", KNOWN_OPERATIONS)
        phases = self.words(value.get("phases"), "phases", KNOWN_PHASES)
        return Selectors(paths, tasks, operations, phases)

    def words(self, value: Any, key: str, known: tuple[str, ...]) -> tuple[str, ...]:
        items = self.string_list(value, key)
        for item in items:
            if not WORD_PATTERN.match(item):
                raise self.fail(
                    key,
                    f"{item!r} is not a single word",
                    hint="known values: " + ", ".join(known) + " (other single words are allowed)",
                )
        return items

    def evidence(self, value: Any) -> tuple[Evidence, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail("evidence", "expected a list of {event, kind, at, summary}")
        if len(value) > MAX_EVIDENCE:
            raise self.fail("evidence", f"at most {MAX_EVIDENCE} entries are kept; found {len(value)}")
        items = []
        for entry in value:
            if not isinstance(entry, Mapping):
                raise self.fail("evidence", "each entry must be a mapping with kind and summary")
            unknown = [key for key in entry if key not in EVIDENCE_KEYS]
            if unknown:
                raise self.fail(
                    "evidence", f"unknown key {unknown[0]!r}", hint="allowed: " + ", ".join(EVIDENCE_KEYS)
                )
            kind = self.string(entry, "kind") if entry.get("kind") is not None else ""
            summary = self.string(entry, "summary") if entry.get("summary") is not None else ""
            if not kind or not summary:
                raise self.fail("evidence", "each entry needs a kind and a summary")
            if len(summary) > MAX_EVIDENCE_SUMMARY:
                raise self.fail("evidence", f"a summary is capped at {MAX_EVIDENCE_SUMMARY} characters")
            at = self.timestamp(entry, "at") if entry.get("at") is not None else None
            event = self.string(entry, "event") if entry.get("event") is not None else None
            items.append(Evidence(kind=kind, summary=summary, event=event, at=at))
        return tuple(items)

    def application(self, value: Any) -> Application | None:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise self.fail("application", "expected a mapping")
        unknown = [key for key in value if key not in APPLICATION_KEYS]
        if unknown:
            raise self.fail(
                "application", f"unknown key {unknown[0]!r}", hint="allowed: " + ", ".join(APPLICATION_KEYS)
            )
        counts_value = value.get("counts") or {}
        if not isinstance(counts_value, Mapping):
            raise self.fail("counts", "expected a mapping of outcome to count")
        counts = []
        for name, number in counts_value.items():
            if name not in APPLICATION_COUNTS:
                raise self.fail(
                    "counts", f"{name!r} is not allowed", hint="allowed: " + ", ".join(APPLICATION_COUNTS)
                )
            if isinstance(number, bool) or not isinstance(number, int) or number < 0:
                raise self.fail("counts", f"{name}: {number!r} is not a count")
            counts.append((str(name), number))
        outcome = value.get("lastOutcome")
        if outcome is not None and outcome not in OUTCOMES:
            raise self.fail(
                "lastOutcome", f"{outcome!r} is not allowed", hint="allowed: " + ", ".join(OUTCOMES)
            )
        last_at = self.timestamp(value, "lastAppliedAt") if value.get("lastAppliedAt") is not None else None
        return Application(
            last_applied_at=last_at,
            last_why_applied=self.string_list(value.get("lastWhyApplied"), "lastWhyApplied"),
            last_outcome=outcome,
            counts=tuple(sorted(counts)),
        )


def selector_text_problem(text: str) -> str | None:
    """Why `text` cannot be a selector value (a path pattern, a task keyword), or None."""
    if _CONTROL_CHARACTER.search(text) or not is_one_line(text):
        return "contains a control character"
    if len(text) > MAX_SELECTOR:
        return f"is longer than {MAX_SELECTOR} characters"
    return None


def path_selector_problem(pattern: str) -> str | None:
    """Why a path selector cannot be a repository-relative gitignore-style glob, or None."""
    if not pattern.strip():
        return "is empty"
    problem = selector_text_problem(pattern)
    if problem:
        return problem
    if pattern.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", pattern) or pattern.startswith(("~", "\\")):
        return "is an absolute path (patterns containing a slash are already anchored at the repository root)"
    if ".." in pattern.replace("\\", "/").split("/"):
        return "leaves the repository (..)"
    return None


def parse_record_mapping(
    data: Mapping[str, Any], text: str, *, file: str, line_of: LineFinder | None = None
) -> Record:
    """The one strict parser: every record, from disk or from the command line, goes through it."""
    return _Parser(file, line_of).record(data, text)


def record_from_json(data: Mapping[str, Any], *, source: str = "<index>") -> Record:
    """Rebuild a Record from its JSON form (Record.to_json), through the same strict parser."""
    front = {
        key: value for key, value in data.items() if key in FIELD_ORDER and value not in (None, [], {}, "")
    }
    derived = derive_summary(str(data.get("text", "")), fill=data.get("authority") == "inferred")
    if front.get("summary") == derived:
        # to_json fills in a derived summary; it is not part of the record itself.
        front.pop("summary")
    selectors = front.get("selectors")
    if isinstance(selectors, Mapping):
        front["selectors"] = {k: v for k, v in selectors.items() if v} or None
        if front["selectors"] is None:
            del front["selectors"]
    if isinstance(front.get("evidence"), list):
        front["evidence"] = [{k: v for k, v in item.items() if v is not None} for item in front["evidence"]]
    return parse_record_mapping(front, str(data.get("text", "")), file=source)
