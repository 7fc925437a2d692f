"""comet memory export | import | edit: moving a store between providers, and hand editing
through whichever provider holds the records.

Switching between Local and Remote never copies anything by itself: export writes the
records' own files (ids, versions, history, tombstones, evidence, application counts)
as one `comet.provider/v1` document, and import restores them, record by record,
through the provider now in use.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, NamedTuple

from comet_git.commands import Output
from comet_git.errors import CometError, InvalidInputError, NotARepositoryError, RecordFormatError
from comet_git.provider import ArchivedFile, Correct, Import, Query, wire
from comet_git.provider.archive import record_of
from comet_git.records.codec import parse_record, render_record
from comet_git.records.model import Record, record_from_json, utc_now
from comet_git.workspace import Workspace

IMPORT_SCHEMA = "comet.import/v1"


def export(ws: Workspace) -> Output:
    provider = ws.provider()
    result = provider.query(Query(export=True))
    if result.invalid:
        first = result.invalid[0]
        raise CometError(
            f"{len(result.invalid)} record files do not parse (first: {first.file}: {first.error})",
            hint="fix or remove them (`comet memory status` lists them), then export: nothing would be lost",
        )
    document = wire.document(
        export={
            "exportedAt": utc_now(),
            "provider": provider.name,
            "project": ws.project_key,
            "files": [wire.archived_to_json(item) for item in result.archive],
        }
    )
    # The same JSON with or without --json: `comet memory export > FILE` is what import reads.
    return Output(document, lambda: wire.dumps(document).decode("utf-8"))


def read_export(path: Path) -> tuple[ArchivedFile, ...]:
    try:
        body = path.read_bytes()
    except OSError as error:
        raise CometError(
            f"cannot read {path}: {error.strerror}", hint="pass the file `comet memory export` wrote"
        ) from None
    data = wire.parse_document(body, str(path))
    exported = data.get("export")
    if not isinstance(exported, dict):
        raise InvalidInputError(
            f"{path}: no `export` in it", hint="pass the file `comet memory export` wrote"
        )
    return wire.archive_from_json(exported.get("files"))


class Imported(NamedTuple):
    imported: list[str]
    unchanged: list[str]
    refused: dict[str, str]


def import_file(ws: Workspace, path: Path) -> Output:
    files = read_export(path)
    foreign = {item.project_key for item in files if item.scope == "project"} - {ws.project_key}
    if foreign:
        where = ws.project_key or "outside any repository"
        raise (NotARepositoryError if ws.project_key is None else InvalidInputError)(
            f"{path} holds records of project {', '.join(sorted(k or '?' for k in foreign))}, not of this one"
            f" ({where})",
            hint="run the import inside that project's repository; nothing was imported",
        )
    done = _import_records(ws, files)
    data: dict[str, Any] = {"schema": IMPORT_SCHEMA, **done._asdict()}
    text = f"imported {len(done.imported)} records; {len(done.unchanged)} were there already\n"
    if done.refused:
        lines = "\n".join(f"  {record_id}: {why}" for record_id, why in done.refused.items())
        raise CometError(
            text.rstrip("\n") + f"; {len(done.refused)} refused:\n{lines}",
            hint="the others are in; settle the refused ones, then import the same file again",
        )
    return Output(data, text)


def _import_records(ws: Workspace, files: tuple[ArchivedFile, ...]) -> Imported:
    provider = ws.provider()
    done = Imported([], [], {})

    def key(item: ArchivedFile) -> tuple[str, str]:
        return item.scope, record_of(item.path)

    for (scope, record_id), group in itertools.groupby(sorted(files, key=key), key=key):
        try:
            result = provider.apply(Import(record_id, scope, tuple(group)))
        except InvalidInputError as error:
            done.refused[record_id] = error.message
            continue
        (done.imported if result.action == "imported" else done.unchanged).append(record_id)
    return done


class Editable(NamedTuple):
    id: str
    record: Record  # as it was when the editor opened: the correction is made on its version
    markdown: str


def editable(ws: Workspace, record_id: str) -> Editable:
    """The record as a Markdown file (front matter and text), as the Local store keeps it."""
    [view] = ws.provider().query(Query(ids=(record_id,))).records
    record = record_from_json(view.as_dict())
    return Editable(record_id, record, render_record(record))


# What an edit may change; the rest (id, scope, version, lifecycle, evidence...) is the tool's.
EDITABLE = ("text", "title", "summary", "memory_type", "memory_class")
EDITABLE_SELECTORS = ("paths", "tasks", "operations", "phases")


def apply_edit(ws: Workspace, original: Editable, edited: str | None) -> Output:
    """The saved file as a correction of the version that was opened (refused if another
    correction came in meanwhile: nothing is silently undone)."""
    from comet_git.commands.memory import correct

    if edited is None or edited == original.markdown:
        return Output(
            {"schema": "comet.record/v1", "action": "unchanged", "id": original.id},
            f"unchanged: {original.id} (nothing was edited)\n",
        )
    try:
        record = parse_record(edited, f"the edited {original.id}")
    except RecordFormatError as error:
        raise CometError(
            str(error), hint="nothing was changed: run the edit again and fix that line"
        ) from None
    before = original.record
    fixed = [name for name in ("id", "scope", "version") if getattr(record, name) != getattr(before, name)]
    if fixed:
        raise InvalidInputError(
            f"the edit changes {', '.join(fixed)}, which the tool keeps",
            hint="edit the text, title or selectors",
        )
    changes: dict[str, Any] = {
        name: getattr(record, name) for name in EDITABLE if getattr(record, name) != getattr(before, name)
    }
    changes.update(
        {
            name: getattr(record.selectors, name)
            for name in EDITABLE_SELECTORS
            if getattr(record.selectors, name) != getattr(before.selectors, name)
        }
    )
    if not changes:
        return apply_edit(ws, original, None)
    return correct(ws, Correct(original.id, base_version=before.version, **changes))
