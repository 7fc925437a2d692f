"""A store's own files, read for export and written back by import.

The files are the memory (the index is derived from them), so moving them moves
everything: ids, versions, history, tombstones, evidence, application counts.  Only
what is below records/, history/ and tombstones/ travels; the journal is what happened
on one machine and stays there, profile.md is rendered again from the records.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from comet_git.errors import InvalidInputError, RecordFormatError, not_utf8
from comet_git.provider import ArchivedFile
from comet_git.records.codec import parse_record, render_record
from comet_git.store import ABSENT, ScopeStore, atomic_write

ARCHIVED_DIRS = ("records", "history", "tombstones")
# What an import may write: a record, a history file of one record, a tombstone; nothing above the store.
ALLOWED_PATH = re.compile(
    r"\A(?:records/[A-Za-z0-9][A-Za-z0-9._-]*\.md"
    r"|history/[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*"
    r"|tombstones/[A-Za-z0-9][A-Za-z0-9._-]*\.(?:json|md))\Z"
)


def archived_files(store: ScopeStore) -> list[ArchivedFile]:
    """Every file of `store` that export carries, in a stable order."""
    found = []
    for directory in ARCHIVED_DIRS:
        top = store.root / directory
        if not top.is_dir():
            continue
        for folder, subfolders, names in os.walk(top):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in sorted(names):
                if name.startswith("."):
                    continue  # temp files of a write under way, editors' swap files
                path = Path(folder, name)
                relative = path.relative_to(store.root).as_posix()
                found.append(ArchivedFile(store.scope, store.project_key, relative, _text(path)))
    return found


def _text(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError as error:  # an export carries text only
        raise not_utf8(error, str(path)) from None


def record_of(path: str) -> str:
    """The record a file belongs to: records/ID.md, history/ID/..., tombstones/ID.json."""
    directory, _, rest = path.partition("/")
    if directory == "history":
        return rest.split("/", 1)[0]
    return rest.rsplit(".", 1)[0]


def check_paths(files: tuple[ArchivedFile, ...], record_id: str, project_key: str | None) -> None:
    """Refuse an import whose files are not a store's files of `record_id`, or come from another
    project than the store (`project_key`) it is imported into."""
    if any(item.project_key != project_key for item in files):
        raise InvalidInputError(
            f"import: {record_id} was exported from another project",
            hint="import a project's records from inside that project's repository",
        )
    for item in files:
        if not ALLOWED_PATH.match(item.path) or ".." in item.path:
            raise InvalidInputError(
                f"import: {item.path!r} is not a path a store holds",
                hint="import only what `comet memory export` wrote",
            )
        if record_of(item.path) != record_id:
            raise InvalidInputError(f"import: {item.path} does not belong to {record_id}")


def sound_files(files: tuple[ArchivedFile, ...], record_id: str, scope: str) -> tuple[ArchivedFile, ...]:
    """The files of an import, each record version (records/ID.md, history/ID/vNNNN.md) parsed
    by the strict parser and of `record_id` in `scope`, and stored as what is remembered is:
    without secrets.  An invalid one refuses the record: written, it would only be reported
    invalid after an import that said it succeeded."""
    return tuple(_sound(item, record_id, scope) for item in files)


def _sound(item: ArchivedFile, record_id: str, scope: str) -> ArchivedFile:
    if not item.path.endswith(".md") or item.path.startswith("tombstones/"):
        return item
    hint = "import only what `comet memory export` wrote, or fix that file in it"
    try:
        record = parse_record(item.text, item.path)
    except RecordFormatError as error:
        raise InvalidInputError(f"import: {item.path} is not a valid record: {error}", hint=hint) from None
    if record.id != record_id or record.scope != scope:
        raise InvalidInputError(
            f"import: {item.path} holds {record.scope} record {record.id}, not {scope} record {record_id}",
            hint=hint,
        )
    from comet_git.provider.local import secrets_hidden

    clean = secrets_hidden(record)
    return item if clean == record else item._replace(text=render_record(clean))


def restore(store: ScopeStore, files: tuple[ArchivedFile, ...]) -> bool:
    """Write the files that are not there yet (under the store's lock, which the caller holds);
    False when every one was there already.  Nothing is written when any differs."""
    missing = []
    for item in files:
        target = store.root / item.path
        if not target.exists():
            missing.append((target, item.text))
        elif target.read_text("utf-8") != item.text:
            raise InvalidInputError(
                f"import: {item.path} exists in {store.name} with other content",
                hint="the two stores hold different versions of this record: correct or forget one first",
            )
    for target, text in missing:
        atomic_write(target, text, expected=ABSENT)
    return bool(missing)
