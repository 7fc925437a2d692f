"""Refreshing the derived index from one store's files.

An unchanged file is recognised by its stat (mtime, size) alone, so a command
on an unchanged store of 10,000 records reads no record file.  A changed file
is hashed and, if its content changed, parsed.  A record the user edited by
hand becomes an explicit correction (version bump, old version kept in
history); a record file deleted by hand becomes a forget that can be rolled
back; profile.md edits are turned into corrections, forgets and new records.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from comet_git.errors import CometError, RecordFormatError, not_utf8
from comet_git.index import FileRow, Index, listing_digest, listing_entry
from comet_git.provider.writes import StoreWriter, record_name
from comet_git.records import profile, tombstones
from comet_git.records.codec import parse_record
from comet_git.records.model import Record, record_from_json, retitled, utc_now
from comet_git.store import FileState, ScopeStore, atomic_write, read_with_state, sha256_bytes

RECORD = "record"
TOMBSTONE = "tombstone"
PROFILE = "profile"


@dataclass
class SyncReport:
    changed: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Scan:
    """Which files differ (by stat) from what the index last saw."""

    changed: list[tuple[str, str]]  # (kind, name)
    missing: list[tuple[str, str]]
    profile_changed: bool
    # Folders whose listing equals the rows, though the digest of the rows said otherwise:
    # kind -> (the digest of the rows as seen, the listing's digest), for the index to mend.
    mended: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not (self.changed or self.missing or self.profile_changed)


Listing = list[tuple[str, int, int]]  # (name, mtime_ns, size), in no particular order
FOLDERS = ((RECORD, "records", ".md"), (TOMBSTONE, "tombstones", ".json"))


def scan(index: Index, store: ScopeStore, *, listed: bool = True) -> Scan:
    """Compare the store's files with the index by stat alone; no file is read.

    Each folder's listing (names, mtimes, sizes) is digested; when the digest is the one of
    the index's rows (index.rows_digest, kept up to date by every write), the folder is
    unchanged and its ten thousand rows need not even be fetched: only the few files that
    were "racy" when last seen are looked at again.  Without `listed` the folders are not
    listed at all (the caller knows they are as indexed): only the racy files and
    profile.md are looked at."""
    changed: list[tuple[str, str]] = []
    missing: list[tuple[str, str]] = []
    mended: dict[str, tuple[str, str]] = {}
    for kind, directory, suffix in FOLDERS:
        seen = index.rows_digest(store.name, kind)
        if listed:
            listing, digest = read_listing(store.root / directory, suffix)
        if not listed or digest == seen:
            changed.extend((kind, f"{directory}/{name}") for name in index.racy_files(store.name, kind))
            continue
        new, gone, equal = _compare(listing, index.file_stats(store.name, kind))
        changed.extend((kind, f"{directory}/{name}") for name in new)
        missing.extend((kind, f"{directory}/{name}") for name in gone)
        if equal:
            mended[kind] = (seen, digest)
    profile_row = index.file_rows(store.name, ["profile.md"]).get("profile.md")
    return Scan(sorted(changed), sorted(missing), _profile_changed(profile_row, store.profile_path), mended)


def read_listing(directory: Path, suffix: str) -> tuple[Listing, str]:
    """The folder's files and their digest (index.listing_entry).  This loop runs over every
    record at least once a command; it is kept lean on purpose."""
    listing: Listing = []
    total = 0
    try:
        entries = os.scandir(directory)
    except FileNotFoundError:
        return listing, listing_digest(0, 0)
    with entries:
        for entry in entries:
            name = entry.name
            if name.endswith(suffix) and name[0] != ".":
                stat = entry.stat()
                listing.append((name, stat.st_mtime_ns, stat.st_size))
                total += listing_entry(name, stat.st_mtime_ns, stat.st_size)
    return listing, listing_digest(len(listing), total)


def _compare(listing: Listing, known: dict[str, tuple[int, int, int]]) -> tuple[list[str], list[str], bool]:
    """(new or changed names, vanished names, whether the stats are all as indexed); a
    "racy" row counts as changed (its content is looked at again), not as a different stat."""
    changed: list[str] = []
    different = False
    lookup = known.get
    for name, mtime_ns, size in listing:
        row = lookup(name)
        if row is None or row[0] != mtime_ns or row[1] != size:
            changed.append(name)
            different = True
        elif row[2]:
            changed.append(name)
    if len(listing) - len([1 for name, _, _ in listing if name not in known]) == len(known):
        return changed, [], not different
    present = {name for name, _, _ in listing}
    return changed, sorted(name for name in known if name not in present), False


def _profile_changed(row: FileRow | None, path: Path) -> bool:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return row is not None
    return row is None or row.racy or row.mtime_ns != stat.st_mtime_ns or row.size != stat.st_size


class StoreSync:
    """Applies one Scan to the index.  The caller holds the store lock and a transaction."""

    def __init__(
        self,
        index: Index,
        store: ScopeStore,
        *,
        absorb_edits: bool = True,
        last_good: dict[str, Record] | None = None,
    ) -> None:
        self.index = index
        self.store = store
        self.absorb_edits = absorb_edits
        # A rebuild's fresh index knows no record yet: for a file that no longer validates,
        # the version the old index served (by file name) stays served until it is fixed.
        self.last_good = last_good or {}
        self.writer = StoreWriter(index, store)
        self.report = SyncReport()

    def run(self, found: Scan) -> SyncReport:
        # Full rows (hashes, record ids) only of the files that did change.
        names = [name for _, name in found.changed + found.missing]
        self.known = self.index.file_rows(self.store.name, names)
        # Tombstones first, so that a record file next to its own tombstone is recognised.
        for kind, name in found.changed:
            if kind == TOMBSTONE:
                self._tombstone_changed(name)
        for kind, name in found.missing:
            if kind == TOMBSTONE:
                self._tombstone_missing(name)
        # Files that were invalid come last: a duplicate id stays with the file that had it.
        for kind, name in sorted(found.changed, key=lambda item: item[1] in self.last_good):
            if kind == RECORD:
                self._record_changed(name)
        for kind, name in found.missing:
            if kind == RECORD:
                self._record_missing(name)
        if found.profile_changed:
            self._profile_changed()
        if not self.store.profile_path.exists():
            self.writer.profile_changed()
        self.writer.render_profile()
        return self.report

    # -- records ------------------------------------------------------------------

    def _record_changed(self, name: str) -> None:
        path = self.store.root / name
        try:
            data, state = read_with_state(path)
        except FileNotFoundError:
            return
        except OSError as error:  # unreadable (its mode, say): named, and the others still served
            # Its row is left as it was, so that the file is read again once it can be.
            self.index.set_invalid(self.store.name, name, None, f"cannot be read: {error.strerror or error}")
            return
        known = self.known.get(name)
        row = FileRow.of(name, RECORD, state, known.record_id if known else None)
        if known is not None and known.sha256 == state.sha256:
            self.index.put_file(self.store.name, row)  # touched, not changed
            return
        self.report.changed += 1
        try:
            record = self._valid_record(data, name)
        except RecordFormatError as error:
            self._keep_last_good(name, state)
            self.index.set_invalid(self.store.name, name, error.line, _message(error))
            return
        previous = self.index.record(record.id)
        absorbed = False
        if self.absorb_edits and previous is not None and previous.state == "live" and previous.file == name:
            old = record_from_json(previous.as_dict())
            if _content(old) != _content(record):
                record, state = self._absorb_hand_edit(path, data.decode("utf-8"), state, old, record)
                absorbed = True
        if not absorbed:
            self.writer.profile_changed()
        self.index.put_file(self.store.name, FileRow.of(name, RECORD, state, record.id))
        self.index.put_record(self.store.name, name, record, "live")
        self.index.clear_invalid(self.store.name, name)

    def _keep_last_good(self, name: str, state: FileState) -> None:
        """An invalid file: the index goes on serving the version it had (or, in a rebuild,
        the one the old index had), named as coming from that file."""
        known = self.known.get(name)
        good = self.last_good.get(name)
        if good is not None and self.index.record(good.id) is None:
            self.index.put_record(self.store.name, name, good, "live")
            self.writer.profile_changed()
        record_id = good.id if good is not None else known.record_id if known else None
        self.index.put_file(self.store.name, FileRow.of(name, RECORD, state, record_id))

    def _valid_record(self, data: bytes, name: str) -> Record:
        file = str(self.store.root / name)
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise not_utf8(error, file) from None
        record = parse_record(raw, file)
        if record.scope != self.store.scope:
            raise RecordFormatError(
                f"scope is {record.scope}, but the file is in the {self.store.scope} store",
                file=file,
                key="scope",
                hint=f"set scope: {self.store.scope}, or move the file to the right store",
            )
        if self.store.scope == "project" and record.project_key != self.store.project_key:
            raise RecordFormatError(
                f"projectKey is {record.project_key}, but the file is in the store of "
                f"{self.store.project_key}",
                file=file,
                key="projectKey",
            )
        owner = self.index.record(record.id)
        if (
            owner is not None
            and (owner.file != name or owner.store != self.store.name)
            and owner.state == "live"
            and (self.index_root_of(owner.store) / owner.file).exists()
        ):
            raise RecordFormatError(
                f"the id {record.id} is already used by {owner.file} ({owner.store})",
                file=file,
                key="id",
                hint="give this record a new id, e.g. by `comet memory remember` instead",
            )
        if self.index.is_forgotten(record.id):  # tombstones are synced before records
            raise RecordFormatError(
                f"the id {record.id} was forgotten",
                file=file,
                key="id",
                hint="ids are never reused: remember it as a new record, or roll the forget back",
            )
        return record

    def index_root_of(self, store_name: str) -> Path:
        # Stores sit side by side: global/ and projects/<key>/ under COMET_HOME.
        home = self.store.root.parent if self.store.scope == "global" else self.store.root.parent.parent
        if store_name == "global":
            return home / "global"
        return home / "projects" / store_name.split(":", 1)[1]

    def _absorb_hand_edit(
        self, path: Path, raw: str, state: FileState, old: Record, edited: Record
    ) -> tuple[Record, FileState]:
        """A hand edit is an explicit correction: bump the version, keep the old one in history."""
        updated = edited.evolve(
            title=retitled(old, edited.text, edited.title),
            version=max(edited.version, old.version + 1),
            updated_at=utc_now(),
            authority="explicit",
            lifecycle="proven"
            if edited.lifecycle == "trial" and old.authority == "inferred"
            else edited.lifecycle,
        )
        written = self.writer.replace_version(path, raw, state, old, updated, "hand-edit")
        self.report.notes.append(
            f"{edited.id}: your edit of {path.name} was taken as version {updated.version}"
        )
        return updated, written

    def _record_missing(self, name: str) -> None:
        self.writer.profile_changed()
        known = self.known.get(name)
        self.index.drop_file(self.store.name, name)
        self.index.clear_invalid(self.store.name, name)
        if known is None or known.record_id is None:
            return
        indexed = self.index.record(known.record_id)
        if indexed is None or indexed.file != name:
            return
        self.report.changed += 1
        record = record_from_json(indexed.as_dict())
        if self.absorb_edits and tombstones.read(self.store, record.id) is None:
            self.writer.forget_from_snapshot(record, "hand-delete")
            self.report.notes.append(
                f"{record.id}: its file was deleted, so it was forgotten (rollback-able)"
            )
        else:
            self.index.drop_record(record.id)

    # -- tombstones -----------------------------------------------------------------

    def _tombstone_changed(self, name: str) -> None:
        path = self.store.root / name
        try:
            data, state = read_with_state(path)
        except FileNotFoundError:
            return
        known = self.known.get(name)
        if known is not None and known.sha256 == state.sha256:
            self.index.put_file(self.store.name, FileRow.of(name, TOMBSTONE, state, known.record_id))
            return  # touched (or racy when last seen), not changed
        try:
            stone = tombstones.Tombstone.from_json(json.loads(data))
        except (ValueError, KeyError, TypeError) as error:
            self.index.set_invalid(self.store.name, name, None, f"not a valid tombstone: {error}")
            return
        self.report.changed += 1
        self.writer.profile_changed()
        self.index.put_file(self.store.name, FileRow.of(name, TOMBSTONE, state, stone.id))
        self.index.forget_id(self.store.name, stone.id)
        content = tombstones.content_path(self.store, stone.id)
        if stone.permanent or not content.exists():
            self.index.drop_record(stone.id)
            return
        try:
            record = parse_record(content.read_text(encoding="utf-8"), str(content))
        except RecordFormatError as error:
            self.index.set_invalid(
                self.store.name, record_name(content, self.store), error.line, _message(error)
            )
            return
        self.index.put_record(self.store.name, record_name(content, self.store), record, "forgotten")

    def _tombstone_missing(self, name: str) -> None:
        self.writer.profile_changed()
        known = self.known.get(name)
        self.index.drop_file(self.store.name, name)
        if known is None or known.record_id is None:
            return
        self.report.changed += 1
        self.index.clear_forgotten_id(known.record_id)
        indexed = self.index.record(known.record_id)
        if indexed is not None and indexed.state == "forgotten":
            self.index.drop_record(known.record_id)

    # -- profile.md -------------------------------------------------------------------

    def _profile_changed(self) -> None:
        path = self.store.profile_path
        if not path.exists():
            # Deleting profile.md asks for a fresh one, not to forget everything.
            self.index.drop_file(self.store.name, "profile.md")
            self._profile_accepted()
            return
        data, state = read_with_state(path)
        rendered = self.index.get_meta(f"profile:{self.store.name}")
        if state.sha256 == rendered or not self.absorb_edits:
            self.index.put_file(self.store.name, FileRow.of("profile.md", PROFILE, state, None))
            self._profile_accepted()
            return
        if rendered is None:
            self._set_aside_unknown_profile(path, data)
            return
        try:
            sections = profile.parse(data.decode("utf-8"), str(path))
            self._apply_profile(sections, str(path))
        except (RecordFormatError, UnicodeDecodeError) as error:
            message = _message(error) if isinstance(error, RecordFormatError) else "not UTF-8 text"
            line = error.line if isinstance(error, RecordFormatError) else None
            self.index.set_invalid(self.store.name, "profile.md", line, message)
            self.index.set_meta(f"profile-rejected:{self.store.name}", state.sha256)
            self.index.put_file(self.store.name, FileRow.of("profile.md", PROFILE, state, None))
            return
        self.index.clear_invalid(self.store.name, "profile.md")
        self.index.set_meta(f"profile:{self.store.name}", state.sha256)  # consumed; render replaces it
        self.writer.profile_changed()
        self.report.changed += 1

    def _profile_accepted(self) -> None:
        if self.index.get_meta(f"profile-rejected:{self.store.name}"):
            # While it was rejected, changes to the records were not shown: show them now.
            self.writer.profile_changed()
        self.index.clear_invalid(self.store.name, "profile.md")
        self.index.set_meta(f"profile-rejected:{self.store.name}", "")

    def _set_aside_unknown_profile(self, path: Path, data: bytes) -> None:
        """The index does not know what we last rendered (it was rebuilt): if the file is
        not what we would render now, keep it aside rather than guess what was edited."""
        self.index.set_meta(f"profile:{self.store.name}", sha256_bytes(data))
        self.writer.profile_changed()
        if self.writer.profile_content().encode("utf-8") == data:
            return
        keep = path.with_name(f"profile.md.{utc_now().replace(':', '')}.orig")
        atomic_write(keep, data)
        self.report.notes.append(f"profile.md could not be compared with your records; kept as {keep.name}")
        self.report.changed += 1

    def _apply_profile(self, sections: list[profile.ProfileSection], file: str) -> None:
        from comet_git.journal.redact import redact_text

        # What is typed into profile.md is stored like what is remembered: without its secrets
        # (the profile is then written again from the records, so the file loses them too).
        sections = [
            replace(section, text=redact_text(section.text), title=redact_text(section.title))
            for section in sections
        ]
        live = {
            view.id: record_from_json(view.as_dict())
            for view in self.index.records_in(self.store.name)
            if view.state == "live" and view.as_dict().get("lifecycle") != "superseded"
        }
        for section in sections:
            if section.record_id is not None and section.record_id not in live:
                raise RecordFormatError(
                    f"no live record {section.record_id} in this store",
                    file=file,
                    line=section.line,
                    hint="remove the id line to make the section a new record",
                )
        # Validate every new record before changing anything.
        from comet_git.provider.local import build_record

        new_records = [
            build_record(
                self.writer.unique_id(),
                section.text,
                section.title,
                self.store,
                section.memory_type,
                None,
                None,
                None,
                "explicit",
                (),
                source=f"{file}:{section.line}",
            )
            for section in sections
            if section.record_id is None
        ]
        kept = {section.record_id for section in sections}
        for section in sections:
            if section.record_id is None:
                continue
            record = live[section.record_id]
            change: dict[str, object] = {}
            if section.text != record.text.strip():
                change["text"] = section.text
            title = retitled(record, section.text, section.title) if "text" in change else section.title
            if title != record.title:
                change["title"] = title
            if section.memory_type != record.memory_type:
                change["memory_type"] = section.memory_type
            if change:
                change["authority"] = "explicit"
                self.writer.correct(record.id, change, source="profile")
        for record_id in live:
            if record_id not in kept:
                self.writer.forget(record_id, permanent=False, source="profile")
        for record in new_records:
            self.writer.create(record, source="profile")


def _content(record: Record) -> Record:
    """What a hand edit changes (everything but the bookkeeping fields)."""
    return record.evolve(version=0, updated_at="")


def _message(error: CometError) -> str:
    return error.message + (f" ({error.hint})" if error.hint else "")
