"""profile.md: a readable projection of one scope's live records, grouped by
memory type, that the user may edit by hand.

Editing a section's title or text corrects that record, deleting a section
forgets it, and a new section without an id line becomes a new record.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from comet_git.errors import RecordFormatError
from comet_git.records.model import ID_PATTERN, MEMORY_TYPES, Record

HEADINGS = {
    "core-profile": "Core profile",
    "collaboration-policy": "Collaboration policies",
    "personal-episode": "Personal episodes",
}
_TYPE_BY_HEADING = {title.lower(): memory_type for memory_type, title in HEADINGS.items()}
_ID_LINE = re.compile(r"^<!--\s*id:\s*(?P<id>\S+)(?P<rest>.*?)-->\s*$")
_HEADING_IN_TEXT = re.compile(r"^(\\*)(#{1,6}\s)")


@functools.cache
def preamble() -> str:
    """The explanation at the top of profile.md, shipped as a template in the wheel."""
    from comet_git.resources import read_text  # importlib.resources is slow to import

    return read_text("templates", "profile-preamble.md")


@dataclass(frozen=True)
class ProfileSection:
    memory_type: str
    title: str
    text: str
    record_id: str | None
    line: int


@dataclass(frozen=True)
class ProfileEntry:
    """What the projection shows of one record."""

    id: str
    title: str
    text: str
    memory_type: str
    authority: str
    lifecycle: str

    @classmethod
    def of(cls, record: Record) -> ProfileEntry:
        return cls(
            record.id, record.title, record.text, record.memory_type, record.authority, record.lifecycle
        )


def render(title: str, records_dir: str, entries: Iterable[ProfileEntry]) -> str:
    """The projection; `entries` come in the order they should appear (oldest first)."""
    by_type: dict[str, list[ProfileEntry]] = {memory_type: [] for memory_type in MEMORY_TYPES}
    for entry in entries:
        by_type[entry.memory_type].append(entry)
    parts = [f"# Memory profile: {title}\n\n", preamble().format(records_dir=records_dir)]
    for memory_type in MEMORY_TYPES:
        parts.append(f"\n## {HEADINGS[memory_type]}\n")
        parts.extend(render_section(entry) for entry in by_type[memory_type])
    return "".join(parts)


def render_section(entry: ProfileEntry) -> str:
    return (
        f"\n### {entry.title}\n<!-- id: {entry.id} · {entry.authority} · {entry.lifecycle} -->\n\n"
        f"{_escape(entry.text)}\n"
    )


@dataclass
class ProfilePatch:
    """What changed in a projection, for patch: sections of new records inserted before the
    section of the record that follows them (None: at the end of their heading), rewritten
    in place, or removed."""

    inserted: list[tuple[ProfileEntry, str | None]] = field(default_factory=list)
    replaced: dict[str, ProfileEntry] = field(default_factory=dict)
    removed: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.inserted or self.replaced or self.removed)


def patch(content: str, change: ProfilePatch) -> str | None:
    """`content` (a profile.md this module rendered) with `change` made to its sections: the
    same text a full render would give, for a fraction of the work.  None when a section
    to rewrite, or a heading, cannot be found.  A section to remove that is not there was
    not shown (a superseded record): nothing to do."""
    for entry, before in change.inserted:
        at = _insertion_point(content, entry.memory_type, before)
        if at is None:
            return None
        content = content[:at] + render_section(entry) + content[at:]
    for entry in change.replaced.values():
        span = _section_span(content, entry.id)
        if span is None:
            return None
        content = content[: span[0]] + render_section(entry) + content[span[1] :]
    for record_id in sorted(change.removed):
        span = _section_span(content, record_id)
        if span is not None:
            content = content[: span[0]] + content[span[1] :]
    return content


def _insertion_point(content: str, memory_type: str, before: str | None) -> int | None:
    """Where a section goes: at the start of the section of `before`, or at the end of the
    heading of `memory_type`."""
    if before is not None:
        span = _section_span(content, before)
        return None if span is None else span[0]
    heading = content.find(f"\n## {HEADINGS[memory_type]}\n")
    if heading < 0:
        return None
    end = content.find("\n## ", heading + 1)
    return len(content) if end < 0 else end


def _section_span(content: str, record_id: str) -> tuple[int, int] | None:
    """Where the section of `record_id` starts (at its "###" heading) and ends, or None."""
    marker = content.find(f"\n<!-- id: {record_id} ")
    start = content.rfind("\n### ", 0, marker) if marker >= 0 else -1
    if start < 0:
        return None
    ends = [i for i in (content.find("\n### ", marker + 1), content.find("\n## ", marker + 1)) if i >= 0]
    return start, min(ends) if ends else len(content)


FORGOTTEN = "[forgotten]"


def scrub(content: str, record_id: str, texts: Iterable[str]) -> str:
    """`content` (a profile.md, as rendered or as edited) without the section of `record_id`
    and without any other occurrence of `texts` (the forgotten record's texts and titles)."""
    span = _section_span(content, record_id)
    while span is not None:
        content = content[: span[0]] + content[span[1] :]
        span = _section_span(content, record_id)
    variants = {variant.strip() for text in texts for variant in (text, _escape(text))}
    for variant in sorted(variants, key=len, reverse=True):  # a text before the title it starts with
        if variant:
            content = content.replace(variant, FORGOTTEN)
    return content


def _escape(text: str) -> str:
    # A line of the record's own text that looks like a heading would end its section.
    return "\n".join(_HEADING_IN_TEXT.sub(r"\\\1\2", line) for line in text.strip("\n").split("\n"))


def _unescape(line: str) -> str:
    match = _HEADING_IN_TEXT.match(line)
    if match and match.group(1):
        return line[1:]
    return line


def parse(content: str, file: str) -> list[ProfileSection]:
    """The sections of an edited profile.md; anything ambiguous is an error naming the line."""
    sections: list[ProfileSection] = []
    memory_type: str | None = None
    current: dict[str, object] | None = None
    body: list[str] = []

    def close() -> None:
        if current is None:
            return
        text = "\n".join(body).strip("\n").strip()
        if not text:
            raise RecordFormatError(
                f"the section '{current['title']}' has no text",
                file=file,
                line=int(str(current["line"])),
                hint="write its text below the title, or delete the whole section to forget it",
            )
        sections.append(
            ProfileSection(
                str(current["type"]),
                str(current["title"]),
                text,
                current["id"] if isinstance(current["id"], str) else None,
                int(str(current["line"])),
            )
        )

    # Split on \n only: a record's text may hold other line-break characters.
    lines = content.replace("\r\n", "\n").split("\n")
    in_comment = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if memory_type is None and current is None:
            # The title and the explanatory comment above the first section heading.
            if stripped.startswith("<!--") and "-->" in stripped:
                continue
            if stripped.startswith("<!--"):
                in_comment = True
            if in_comment:
                in_comment = "-->" not in stripped
                continue
        if line.startswith("## "):
            close()
            current, body = None, []
            heading = line[3:].strip().lower()
            if heading not in _TYPE_BY_HEADING:
                raise RecordFormatError(
                    f"unknown section heading '## {line[3:].strip()}'",
                    file=file,
                    line=number,
                    hint="the headings are: " + ", ".join("## " + h for h in HEADINGS.values()),
                )
            memory_type = _TYPE_BY_HEADING[heading]
        elif line.startswith("### "):
            close()
            body = []
            if memory_type is None:
                raise RecordFormatError(
                    "a '### ' section comes before any '## ' heading",
                    file=file,
                    line=number,
                    hint="put each section under one of: " + ", ".join("## " + h for h in HEADINGS.values()),
                )
            title = line[4:].strip()
            if not title:
                raise RecordFormatError("a section has an empty title", file=file, line=number)
            current = {"type": memory_type, "title": title, "id": None, "line": number}
        elif (
            current is not None
            and current["id"] is None
            and not body_has_text(body)
            and _ID_LINE.match(stripped)
        ):
            match = _ID_LINE.match(stripped)
            assert match is not None
            record_id = match.group("id")
            if not ID_PATTERN.match(record_id):
                raise RecordFormatError(f"'{record_id}' is not a valid id", file=file, line=number)
            current["id"] = record_id
        elif current is not None:
            body.append(_unescape(line))
        elif stripped and memory_type is not None:
            raise RecordFormatError(
                "text outside any section",
                file=file,
                line=number,
                hint="put it under a '### Title' line, or delete it",
            )
        elif stripped and not stripped.startswith("#"):
            raise RecordFormatError(
                "text before the first '## ' heading",
                file=file,
                line=number,
                hint="put it under a '### Title' line inside one of the '## ' headings",
            )
    close()
    _reject_duplicate_ids(sections, file)
    return sections


def body_has_text(body: list[str]) -> bool:
    return any(line.strip() for line in body)


def _reject_duplicate_ids(sections: list[ProfileSection], file: str) -> None:
    seen: dict[str, int] = {}
    for section in sections:
        if section.record_id is None:
            continue
        if section.record_id in seen:
            raise RecordFormatError(
                f"the id {section.record_id} appears twice (first at line {seen[section.record_id]})",
                file=file,
                line=section.line,
                hint="keep one section per id; remove the id line from a copy to make it a new record",
            )
        seen[section.record_id] = section.line
