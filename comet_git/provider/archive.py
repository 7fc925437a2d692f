"""A store's own files, read for export and written back by import.

The files are the memory (the index is derived from them), so moving them moves
everything: ids, versions, history, tombstones, evidence, application counts.  Only
what is below records/, history/ and tombstones/ travels; the journal is what happened
on one machine and stays there, profile.md is rendered again from the records.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from comet_git.errors import InvalidInputError, RecordFormatError, not_utf8
from comet_git.provider import ArchivedFile
from comet_git.records import history, tombstones
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
    """The files of an import, each checked as what it claims to be, and stored as what is
    remembered is: without secrets.  Every record version (records/ID.md, history/ID/vNNNN.md,
    the forgotten content tombstones/ID.md) is parsed by the strict parser and must be of
    `record_id` in `scope`; a tombstone (tombstones/ID.json) and a history log
    (history/ID/actions.jsonl) must hold exactly what the product writes there, no other file
    is taken.  An invalid one refuses the record: written, it would only be reported invalid
    after an import that said it succeeded, and a file taken unread could carry a secret past
    the redaction (a rollback would bring a tombstone's content back as the live record)."""
    sound = tuple(_sound(item, record_id, scope) for item in files)
    _check_tombstone(files, record_id)
    return sound


_HINT = "import only what `comet memory export` wrote, or fix that file in it"
_VERSION_FILE = re.compile(r"v[0-9]{4,}\.md")


def _sound(item: ArchivedFile, record_id: str, scope: str) -> ArchivedFile:
    name = item.path.rsplit("/", 1)[-1]
    if item.path.startswith("history/") and name == "actions.jsonl":
        _check_actions(item)
        return item
    if item.path.startswith("tombstones/") and name.endswith(".json"):
        return item  # _check_tombstone reads it with the content it stands for
    if item.path.startswith("history/") and not _VERSION_FILE.fullmatch(name):
        raise InvalidInputError(f"import: {item.path} is no file a record's history holds", hint=_HINT)
    try:
        record = parse_record(item.text, item.path)
    except RecordFormatError as error:
        raise InvalidInputError(f"import: {item.path} is not a valid record: {error}", hint=_HINT) from None
    if record.id != record_id or record.scope != scope:
        raise InvalidInputError(
            f"import: {item.path} holds {record.scope} record {record.id}, not {scope} record {record_id}",
            hint=_HINT,
        )
    from comet_git.provider.local import secrets_hidden

    clean = secrets_hidden(record)
    return item if clean == record else item._replace(text=render_record(clean))


def _check_actions(item: ArchivedFile) -> None:
    """Every line of a history log is an action as RecordHistory.log writes it: nothing else."""
    for number, line in enumerate(item.text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            ok = history.is_action(json.loads(line))
        except ValueError:
            ok = False
        if not ok:
            raise InvalidInputError(f"import: {item.path}:{number} is not a history action", hint=_HINT)


def _check_tombstone(files: tuple[ArchivedFile, ...], record_id: str) -> None:
    """A tombstone holds the id, a time, the hash of the forgotten content and whether the
    forget was permanent; its content (tombstones/ID.md), if it comes too, is the one it hashed
    and is there only for a forget that can be rolled back."""
    by_path = {item.path: item for item in files}
    stone = by_path.get(f"tombstones/{record_id}.json")
    content = by_path.get(f"tombstones/{record_id}.md")
    if stone is None:
        if content is not None:
            raise InvalidInputError(f"import: {content.path} comes without its tombstone", hint=_HINT)
        return
    try:
        data = json.loads(stone.text)
    except ValueError:
        data = None
    if not tombstones.is_tombstone(data, record_id):
        raise InvalidInputError(f"import: {stone.path} is not a tombstone of {record_id}", hint=_HINT)
    if content is not None:
        if data["permanent"]:
            raise InvalidInputError(
                f"import: {content.path} is content a permanent forget erased", hint=_HINT
            )
        if tombstones.content_hash(parse_record(content.text, content.path).text) != data["contentHash"]:
            raise InvalidInputError(
                f"import: {content.path} is not the content its tombstone names", hint=_HINT
            )


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
