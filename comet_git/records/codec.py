"""The one front-matter codec.

Reading goes through PyYAML's C loader (bulk reads of thousands of files must
be fast).  A fresh file is rendered with PyYAML too.  Updating a file that may
have been written by hand goes through ruamel.yaml's round-trip mode, so the
user's comments and key order survive the tool's edits.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Mapping
from typing import Any

from comet_git.errors import RecordFormatError
from comet_git.records.model import FIELD_ORDER, LineFinder, Record, parse_record_mapping

FENCE = "---"
BOM = "\ufeff"


@functools.cache
def _yaml() -> tuple[Any, Any, Any]:
    """(yaml module, loader, dumper), imported on first use: a warm `comet memory list`
    reads no record file and should not pay for PyYAML."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # without libyaml: slower, same results
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml, loader, dumper


def split_front_matter(raw: str, file: str) -> tuple[str, str, int]:
    """Return (front-matter YAML, body, line number where the body starts).

    A fence is a line that is exactly `---` (a BOM before the first one is allowed).
    """
    if raw.startswith(BOM):
        raw = raw[len(BOM) :]
    lines = raw.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n") != FENCE:
        raise RecordFormatError(
            "the file does not start with a '---' front-matter fence",
            file=file,
            line=1,
            hint="a record is YAML front-matter between two '---' lines, then the text",
        )
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n") == FENCE:
            front = "".join(lines[1:index])
            body = "".join(lines[index + 1 :])
            return front, body, index + 2
    raise RecordFormatError(
        "the front-matter has no closing '---' line",
        file=file,
        line=len(lines),
        hint="add a line '---' after the last key",
    )


def _key_line_finder(front: str) -> LineFinder:
    lines = front.splitlines()

    def line_of(key: str) -> int | None:
        pattern = re.compile(rf"^\s*-?\s*{re.escape(key)}\s*:")
        for number, line in enumerate(lines, start=2):  # line 1 is the opening fence
            if pattern.match(line):
                return number
        return len(lines) + 2  # a missing key: point at the closing fence, where it would go

    return line_of


_TOP_LEVEL_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:")


def _reject_duplicate_keys(front: str, file: str) -> None:
    """YAML loaders keep the last of two equal keys without a word; a record must not."""
    seen: dict[str, int] = {}
    for number, line in enumerate(front.splitlines(), start=2):
        match = _TOP_LEVEL_KEY.match(line)
        if not match:
            continue
        key = match.group(1)
        if key in seen:
            raise RecordFormatError(
                f"key '{key}' appears twice (first at line {seen[key]})",
                file=file,
                line=number,
                key=key,
                hint="keep one of them",
            )
        seen[key] = number


def load_front_matter(front: str, file: str) -> Any:
    yaml, loader, _ = _yaml()
    try:
        return yaml.load(front, Loader=loader) or {}
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or str(error)
        line = mark.line + 2 if mark is not None else None
        raise RecordFormatError(
            f"the front-matter is not valid YAML: {problem}",
            file=file,
            line=line,
            hint="fix the YAML (quote values that contain ': ' or start with a special character)",
        ) from None


def parse_record(raw: str, file: str) -> Record:
    front, body, _ = split_front_matter(raw, file)
    _reject_duplicate_keys(front, file)
    data = load_front_matter(front, file)
    if not isinstance(data, Mapping):
        raise RecordFormatError("the front-matter is not a mapping of keys to values", file=file, line=2)
    return parse_record_mapping(data, body, file=file, line_of=_key_line_finder(front))


def render_record(record: Record) -> str:
    """A new record file."""
    yaml, _, dumper = _yaml()
    front = yaml.dump(record.front_matter(), Dumper=dumper, sort_keys=False, allow_unicode=True, width=100)
    return f"{FENCE}\n{front}{FENCE}\n{record.text.strip(chr(10))}\n"


def update_record_text(raw: str, record: Record) -> str:
    """`raw` rewritten to hold `record`, keeping the user's comments, key order and body bytes."""
    return _replace_scalar_lines(raw, record) or _round_trip_update(raw, record)


# Top-level keys whose value is one scalar on its own line in any file we can read.
_SCALAR_KEYS = frozenset(
    (
        "title",
        "summary",
        "memoryType",
        "memoryClass",
        "authority",
        "lifecycle",
        "version",
        "createdAt",
        "updatedAt",
    )
)


def _replace_scalar_lines(raw: str, record: Record) -> str | None:
    """The common update (a version bump, a new text) as a plain edit of the lines
    concerned, which spares ruamel's import and round trip.  None when the change
    needs the full round trip (nested values, added or removed keys, odd layout)."""
    try:
        current = parse_record(raw, "<record>")
    except RecordFormatError:
        return None
    have, want = current.front_matter(), record.front_matter()
    changed = {key for key in have.keys() | want.keys() if have.get(key) != want.get(key)}
    if not changed <= _SCALAR_KEYS or not changed <= have.keys() & want.keys():
        return None
    front, body, _ = split_front_matter(raw, "<record>")
    lines = front.split("\n")
    for key in changed:
        pattern = re.compile(rf"^{re.escape(key)}:[ \t]*(?P<value>[^#\n]*?)(?P<comment>[ \t]+#.*)?$")
        hits = [index for index, line in enumerate(lines) if pattern.match(line)]
        if len(hits) != 1:
            return None
        match = pattern.match(lines[hits[0]])
        assert match is not None
        lines[hits[0]] = f"{key}: {_scalar(want[key])}{match.group('comment') or ''}"
    new_body = body if body.strip("\n") == record.text.strip("\n") else record.text.strip("\n") + "\n"
    prefix = BOM if raw.startswith(BOM) else ""
    updated = f"{prefix}{FENCE}\n" + "\n".join(lines) + f"{FENCE}\n{new_body}"
    try:
        return updated if parse_record(updated, "<record>") == record else None
    except RecordFormatError:
        return None


def _scalar(value: object) -> str:
    """One YAML scalar that our reader reads back as `value`."""
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9 ._/-]*", text) and not text.endswith(" ") and _reads_back(text):
        return text
    return "'" + text.replace("'", "''") + "'"


def _round_trip_update(raw: str, record: Record) -> str:
    from ruamel.yaml import YAML

    front, body, _ = split_front_matter(raw, "<record>")
    round_trip = YAML(typ="rt")
    round_trip.preserve_quotes = True
    round_trip.width = 100
    document = round_trip.load(front)
    if not isinstance(document, dict):
        return render_record(record)
    _merge_mapping(document, record.front_matter(), FIELD_ORDER)
    stream = io.StringIO()
    round_trip.dump(document, stream)
    new_body = body if body.strip("\n") == record.text.strip("\n") else record.text.strip("\n") + "\n"
    prefix = BOM if raw.startswith(BOM) else ""
    return f"{prefix}{FENCE}\n{stream.getvalue()}{FENCE}\n{new_body}"


def _merge_mapping(target: Any, wanted: Mapping[str, Any], order: tuple[str, ...] | None) -> None:
    """Make `target` (a ruamel CommentedMap) equal to `wanted`, touching only what differs."""
    for key in [key for key in target if key not in wanted]:
        del target[key]
    for key, value in wanted.items():
        if key in target:
            current = target[key]
            if isinstance(value, Mapping) and isinstance(current, dict):
                _merge_mapping(current, value, None)
            elif _plain(current) != value:
                target[key] = _yaml11_safe(value)
            continue
        position = _insert_position(target, key, order)
        target.insert(position, key, _yaml11_safe(value))


def _reads_back(text: str) -> bool:
    """Whether `text`, written as a plain YAML scalar, reads back as the same string."""
    yaml, loader, _ = _yaml()
    try:
        return bool(yaml.load(text, Loader=loader) == text)
    except yaml.YAMLError:
        return False


def _yaml11_safe(value: Any) -> Any:
    """Quote strings that ruamel (YAML 1.2) would write bare but PyYAML (YAML 1.1,
    our reader) would read as something else: `yes`, `off`, `1:20`..."""
    from ruamel.yaml.scalarstring import SingleQuotedScalarString

    if isinstance(value, str):
        return value if _reads_back(value) else SingleQuotedScalarString(value)
    if isinstance(value, list):
        return [_yaml11_safe(item) for item in value]
    if isinstance(value, Mapping):
        return {key: _yaml11_safe(item) for key, item in value.items()}
    return value


def _insert_position(target: Any, key: str, order: tuple[str, ...] | None) -> int:
    """Where a new key goes: right after the nearest key that precedes it in `order`."""
    if not order or key not in order:
        return len(target)
    existing = list(target)
    for earlier in reversed(order[: order.index(key)]):
        if earlier in existing:
            return existing.index(earlier) + 1
    return 0


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value
