"""The local provider's writes to one store: create, correct, forget, rollback
and the profile.md projection.

Callers hold the store lock and an open index transaction.  Each operation
checks everything it can before it writes the first file, and writes the
record file last-but-one, under compare-before-replace, so that a failure
leaves the store as it was.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from comet_git.errors import (
    CometError,
    ConcurrentEditError,
    InvalidInputError,
    NotFoundError,
    RecordFormatError,
    not_utf8,
    shown,
)
from comet_git.index import FileRow, Index, remove_index_leftovers
from comet_git.provider import Amend, RecordOutcome
from comet_git.records import profile, tombstones
from comet_git.records.codec import parse_record, render_record, update_record_text
from comet_git.records.history import RecordHistory
from comet_git.records.model import (
    MAX_EVIDENCE,
    MAX_TEXT,
    OUTCOMES,
    Application,
    Evidence,
    Record,
    Selectors,
    is_timestamp,
    new_record_id,
    parse_record_mapping,
    utc_now,
)
from comet_git.store import (
    ABSENT,
    Absent,
    FileState,
    ScopeStore,
    atomic_write,
    file_lock,
    read_with_state,
    remove_file,
    remove_temporaries,
    sha256_bytes,
)

LOWERING_OUTCOMES = ("corrected", "contributed-to-failure")
# What an amend may change (README: Correction, forgetting, replay): what learning changes in a
# record it inferred (learning/: evidence, selectors, text, summary, lifecycle, links) and the
# Dashboard's confirmation (authority).  Never the id, scope, version, times or outcome counts.
AMENDABLE = (
    "evidence", "selectors", "text", "summary", "lifecycle", "authority", "supersedes", "superseded_by",
    "conflicts_with",
)  # fmt: skip
LINKS = ("supersedes", "superseded_by", "conflicts_with")
PERSONS_TEXT = ("text", "summary")  # an explicit record's words are the person's: no amend changes them
RETIRING_NEGATIVES = 3  # negative outcomes that retire an inferred record (with more of them than successes)


def _retirement(record: Record, counts: dict[str, int]) -> Evidence | None:
    """The evidence that retires an inferred record after repeated negative outcomes, or None."""
    negative = {name: counts.get(name, 0) for name in LOWERING_OUTCOMES}
    total = sum(negative.values())
    if record.authority != "inferred" or record.lifecycle == "superseded" or total < RETIRING_NEGATIVES:
        return None
    if total <= counts.get("used-successfully", 0):
        return None
    said = ", ".join(f"{name} {count}" for name, count in negative.items() if count)
    return Evidence(
        kind="lifecycle", summary=f"retired after {total} negative outcomes ({said})", at=utc_now()
    )


def _counted(record: Record, outcome: RecordOutcome) -> dict[str, int]:
    """The record's outcome counts with `outcome` in, and the report it replaces taken out."""
    counts = dict(record.application.counts) if record.application else {}
    if outcome.replaces is not None and counts.get(outcome.replaces, 0) > 0:
        counts[outcome.replaces] -= 1
    counts[outcome.outcome] = counts.get(outcome.outcome, 0) + 1
    return {name: count for name, count in counts.items() if count}


def _lifecycle_after(record: Record, outcome: RecordOutcome, counts: dict[str, int]) -> str:
    """(README: Lifecycle) A success promotes a trial record, a correction or a failure lowers an inferred
    proven one.  A report that replaces an earlier one also takes back what that one did when
    nothing else in the counts still stands for it."""
    lifecycle = record.lifecycle
    inferred = record.authority == "inferred"
    if outcome.outcome == "used-successfully" and lifecycle == "trial":
        return "proven"
    if outcome.outcome in LOWERING_OUTCOMES and inferred and lifecycle == "proven":
        return "trial"  # lowered until it proves itself again
    took_back_success = outcome.replaces == "used-successfully" and not counts.get("used-successfully")
    if took_back_success and inferred and lifecycle == "proven":
        return "trial"
    took_back_lowering = outcome.replaces in LOWERING_OUTCOMES and not any(
        counts.get(name) for name in LOWERING_OUTCOMES
    )
    if took_back_lowering and inferred and lifecycle == "trial" and counts.get("used-successfully"):
        return "proven"
    return lifecycle


def read_back(record: Record, what: str) -> Record:
    """`record` as the strict parser reads its file back, or why it would not parse: nothing is
    written that would make the record's file invalid."""
    try:
        return parse_record_mapping(record.front_matter(), record.text, file=what)
    except RecordFormatError as error:
        raise InvalidInputError(f"{what}: {error.message}", hint=error.hint) from None


def _strings(value: Any) -> bool:
    return isinstance(value, (tuple, list)) and all(isinstance(item, str) for item in value)


def _well_typed(name: str, value: Any) -> bool:
    """Whether an amend's value has the type of the record's field (the strict parser judges
    the value itself)."""
    if name == "evidence":
        return isinstance(value, (tuple, list)) and all(isinstance(item, Evidence) for item in value)
    if name == "selectors":
        return isinstance(value, Selectors) and all(_strings(group) for group in value)
    if name in LINKS:
        return _strings(value)
    return isinstance(value, str) or (name == "summary" and value is None)


def _refuse_amend_field(current: Record, name: str, value: Any) -> None:
    what = f"amend of {current.id}"
    if name not in AMENDABLE:
        raise InvalidInputError(
            f"{what}: {shown(name)} is not a field an amend may change",
            hint="an amend changes " + ", ".join(AMENDABLE),
        )
    if not _well_typed(name, value):
        raise InvalidInputError(f"{what}: {name} has the wrong type ({type(value).__name__})")
    if name in PERSONS_TEXT and current.authority == "explicit":
        raise InvalidInputError(
            f"{what}: the record is explicit: its {name} is the person's, and an amend never changes it",
            hint=f"`comet memory correct --id {current.id}` changes it",
        )
    if name == "authority" and current.authority == "explicit" and value != "explicit":
        raise InvalidInputError(f"{what}: an amend never makes a person's record inferred")
    if name == "text" and len(value) > MAX_TEXT:
        raise InvalidInputError(f"{what}: the text has {len(value):,} characters; at most {MAX_TEXT:,}")


def amended_version(current: Record, amend: Amend) -> Record | None:
    """What `amend` makes of `current` (a new version, unless it is bookkeeping), or None when
    it changes nothing.  Refused when it touches a field an amend never changes, gives a value
    the record cannot hold, or rewrites a person's words."""
    for name, value in amend.fields:
        _refuse_amend_field(current, name, value)
    candidate = read_back(current.evolve(**dict(amend.fields)), f"amend of {current.id}")
    if candidate == current:
        return None
    if amend.bookkeeping:
        return candidate
    return candidate.evolve(version=current.version + 1, updated_at=utc_now())


def _refuse_outcome(outcome: RecordOutcome) -> None:
    for key, value in (("outcome", outcome.outcome), ("replaces", outcome.replaces)):
        if value is not None and value not in OUTCOMES:
            raise InvalidInputError(
                f"outcome of {outcome.id}: {key} {shown(value)} is not an outcome",
                hint="outcomes: " + ", ".join(OUTCOMES),
            )
    if not is_timestamp(outcome.applied_at):
        raise InvalidInputError(
            f"outcome of {outcome.id}: appliedAt {shown(outcome.applied_at)} is not a time",
            hint="a UTC time as the tool writes it, e.g. 2026-11-30T07:00:00Z",
        )


def outcome_applied(current: Record, outcome: RecordOutcome) -> tuple[Record, bool]:
    """The record with `outcome` counted and its lifecycle moved, and whether that retired it
    (then it is a new version, to keep in history; else bookkeeping over the current one).
    Refused when it is not a known outcome at a real time."""
    _refuse_outcome(outcome)
    counts = _counted(current, outcome)
    updated = current.evolve(
        lifecycle=_lifecycle_after(current, outcome, counts),
        application=Application(
            last_applied_at=outcome.applied_at,
            last_why_applied=outcome.why_applied,
            last_outcome=outcome.outcome,
            counts=tuple(sorted(counts.items())),
        ),
    )
    updated = read_back(updated, f"outcome of {current.id}")
    retirement = _retirement(updated, counts)
    if retirement is None:
        return updated, False
    retired = updated.evolve(
        lifecycle="superseded",
        evidence=(*updated.evidence, retirement)[-MAX_EVIDENCE:],
        version=current.version + 1,
        updated_at=utc_now(),
    )
    return retired, True


def refuse_forgetting_again(existing: tombstones.Tombstone, permanent: bool) -> None:
    """A forgotten record can be forgotten again only permanently, and only once."""
    if existing.permanent or not permanent:
        raise CometError(
            f"{existing.id} is already forgotten" + (" permanently" if existing.permanent else ""),
            hint=None if existing.permanent else f"`comet memory rollback --id {existing.id}` brings it back",
        )


def corrected_version(current: Record, change: dict[str, object]) -> Record | None:
    """The next version `change` (Record field names) makes of `current`, or None when it
    changes nothing."""
    candidate = current.evolve(**change)
    if candidate == current:
        return None
    return candidate.evolve(version=current.version + 1, updated_at=utc_now())


def restored_version(old: Record, current: Record) -> Record:
    """What a rollback of a correction writes: the old version's content as the next version,
    with the current counts and the longer evidence."""
    return old.evolve(
        version=current.version + 1,
        updated_at=utc_now(),
        application=current.application,
        evidence=current.evidence if len(current.evidence) > len(old.evidence) else old.evidence,
    )


def record_name(path: Path, store: ScopeStore) -> str:
    return path.relative_to(store.root).as_posix()


class StoreWriter:
    def __init__(self, index: Index, store: ScopeStore) -> None:
        self.index = index
        self.store = store
        # What profile.md needs: an empty patch nothing, a patch the sections to change, None a
        # full render.
        self.profile_changes: profile.ProfilePatch | None = profile.ProfilePatch()

    def profile_changed(self, record: Record | None = None, previous: Record | None = None) -> None:
        """Note a change the projection must show: a record whose section can be patched in
        place (same type, still shown), or anything else (None), which needs a full render."""
        if self.profile_changes is None:
            return
        same_place = (
            record is not None
            and previous is not None
            and record.memory_type == previous.memory_type
            and "superseded" not in (record.lifecycle, previous.lifecycle)
        )
        if same_place and record is not None:
            self.profile_changes.replaced[record.id] = profile.ProfileEntry.of(record)
        else:
            self.profile_changes = None

    def _profile_created(self, record: Record) -> None:
        """A new record's section goes before the section that follows it (the projection
        lists each type oldest first): at the end of its heading, unless another was created
        in the same second."""
        if self.profile_changes is None:
            return
        if record.lifecycle == "superseded":
            return  # not shown
        following = self.index.next_of_type(self.store.name, record)
        self.profile_changes.inserted.append((profile.ProfileEntry.of(record), following))

    def _profile_removed(self, record_id: str) -> None:
        if self.profile_changes is not None:
            self.profile_changes.removed.add(record_id)

    # -- reading what is there ------------------------------------------------

    def live_file(self, record_id: str) -> tuple[Path, str, FileState, Record]:
        """The record's file as it is on disk now, or NotFoundError."""
        indexed = self.index.record(record_id)
        if indexed is None or indexed.store != self.store.name or indexed.state != "live":
            raise NotFoundError(f"no live record {record_id} in {self.store.name}")
        path = self.store.root / indexed.file
        data, state = read_with_state(path)
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise not_utf8(error, str(path)) from None
        return path, raw, state, parse_record(raw, str(path))

    def id_taken(self, record_id: str) -> bool:
        """Whether `record_id` was ever used: ids are never reused, not even after a forget."""
        return (
            self.index.store_of(record_id) is not None
            or (self.store.history_dir / record_id).exists()
            or tombstones.metadata_path(self.store, record_id).exists()
        )

    def unique_id(self) -> str:
        while True:
            candidate = new_record_id()
            if not self.id_taken(candidate):
                return candidate

    # -- create ---------------------------------------------------------------

    def create(self, record: Record, source: str = "command") -> Record:
        path = self.store.record_path(record.id)
        written = atomic_write(path, render_record(record), expected=ABSENT)
        self._index_file(path, record, written)
        self._profile_created(record)
        RecordHistory(self.store, record.id).log("create", source, None, record.version)
        return record

    # -- correct --------------------------------------------------------------

    def correct(
        self, record_id: str, change: dict[str, object], source: str = "command"
    ) -> tuple[Record, bool]:
        """Apply `change` (Record field names) as a new version; returns (record, changed)."""
        path, raw, state, current = self.live_file(record_id)
        updated = corrected_version(current, change)
        if updated is None:
            return current, False
        self.replace_version(path, raw, state, current, updated, source)
        return updated, True

    def amend(self, change: Amend) -> tuple[Record, bool]:
        """What learning changes in a record (amended_version): bookkeeping is written into the
        current version (like outcome counts), anything else is a new version; whether it changed."""
        path, raw, state, current = self.live_file(change.id)
        updated = amended_version(current, change)
        if updated is None:
            return current, False
        if change.bookkeeping:
            self._write_in_place(path, raw, state, current, updated)
        else:
            self.replace_version(path, raw, state, current, updated, "learning")
        return updated, True

    def _write_in_place(
        self, path: Path, raw: str, state: FileState, current: Record, updated: Record
    ) -> None:
        """Bookkeeping over the current version (no history snapshot, no version bump)."""
        written = atomic_write(path, update_record_text(raw, updated), expected=state)
        self._index_file(path, updated, written)
        self.profile_changed(updated, current)

    def replace_version(
        self, path: Path, raw: str, state: FileState, previous: Record, updated: Record, source: str
    ) -> FileState:
        """Keep `previous` in history, then write `updated` over `path` (if nobody changed it)."""
        history = RecordHistory(self.store, previous.id)
        snapshot = history.snapshot_path(previous.version)
        existed = snapshot.exists()
        history.keep(previous)
        try:
            written = atomic_write(path, update_record_text(raw, updated), expected=state)
        except CometError:
            if not existed:
                with contextlib.suppress(FileNotFoundError):
                    snapshot.unlink()
            raise
        history.log("correct", source, previous.version, updated.version)
        self._index_file(path, updated, written)
        self.profile_changed(updated, previous)
        return written

    # -- forget ---------------------------------------------------------------

    def forget(self, record_id: str, *, permanent: bool, source: str = "command") -> tombstones.Tombstone:
        self._profile_removed(record_id)
        if permanent:
            self._remove_leftovers()
        existing = tombstones.read(self.store, record_id)
        if existing is not None:
            refuse_forgetting_again(existing, permanent)
            versions = self._all_versions(record_id, self._forgotten_content(record_id))
            stone = tombstones.make_permanent(self.store, existing)
            self._index_tombstone(record_id)
            return self._erase(record_id, stone, versions)
        path, raw, state, current = self.live_file(record_id)
        stone = tombstones.write(self.store, current, raw, permanent=permanent)
        try:
            remove_file(path, expected=state)
        except ConcurrentEditError:
            tombstones.remove(self.store, record_id)
            raise
        self._drop_file(path)
        self._index_tombstone(record_id)
        if permanent:
            return self._erase(record_id, stone, self._all_versions(record_id, current))
        RecordHistory(self.store, record_id).log("forget", source, current.version, None)
        self.index.put_record(
            self.store.name,
            record_name(tombstones.content_path(self.store, record_id), self.store),
            current,
            "forgotten",
        )
        self.index.forget_id(self.store.name, record_id)
        return stone

    def forget_from_snapshot(self, record: Record, source: str) -> None:
        """A record whose file the user deleted by hand: tombstone it from the index's copy."""
        self._profile_removed(record.id)
        tombstones.write(self.store, record, render_record(record), permanent=False)
        self._index_tombstone(record.id)
        RecordHistory(self.store, record.id).log("forget", source, record.version, None)
        self.index.put_record(
            self.store.name,
            record_name(tombstones.content_path(self.store, record.id), self.store),
            record,
            "forgotten",
        )
        self.index.forget_id(self.store.name, record.id)

    def _forgotten_content(self, record_id: str) -> Record | None:
        path = tombstones.content_path(self.store, record_id)
        return parse_record(path.read_text(encoding="utf-8"), str(path)) if path.exists() else None

    def _all_versions(self, record_id: str, current: Record | None) -> list[Record]:
        older = RecordHistory(self.store, record_id).versions()
        return [*older, current] if current is not None else older

    def _erase(
        self, record_id: str, stone: tombstones.Tombstone, versions: list[Record]
    ) -> tombstones.Tombstone:
        """What a permanent forget leaves: the tombstone's id and content hash, nothing else.

        The journal events that carried the record's text (the signals and task
        results it came from) keep their ids and types but lose the text, and so
        does any event that quotes one of its versions."""
        from comet_git.journal.log import Journal

        # A commit cited as evidence is a fact of the repository (git keeps it anyway), not the
        # forgotten content: scrubbing it would only blind the reflectors to the user's history.
        events = {
            item.event
            for version in versions
            for item in version.evidence
            if item.event and item.kind != "repo.commit"
        }
        texts = sorted({version.text for version in versions} | {version.title for version in versions})
        Journal(self.store).scrub(events, texts)
        self._scrub_profile_copies(record_id, texts)
        RecordHistory(self.store, record_id).erase()
        self.index.drop_record(record_id)
        self.index.drop_file(self.store.name, f"tombstones/{record_id}.md")
        self.index.forget_id(self.store.name, record_id)
        self.index.purge_deleted_content()
        return stone

    def _remove_leftovers(self) -> None:
        """Files of killed commands that may hold the content: temporaries of the store (we
        hold its lock; the journal's is taken), and a killed repair's half-built index (we
        hold the index lock shared, so no repair is running).  Removed before this command
        writes anything, so that its own undo copies are not among them."""
        from comet_git.journal.log import Journal

        with file_lock(Journal(self.store).lock_path):
            remove_temporaries(self.store.root)
        remove_index_leftovers(self.index.path)

    def _scrub_profile_copies(self, record_id: str, texts: list[str]) -> None:
        """The copies of profile.md kept aside (profile.md.<time>.orig) and a rejected edit
        still in place: the forgotten record's section and text go, the rest stays."""
        rejected = self.index.get_meta(f"profile-rejected:{self.store.name}")
        copies = sorted(self.store.root.glob("profile.md.*.orig"))
        if rejected and self.store.profile_path.exists():
            copies.append(self.store.profile_path)
        for path in copies:
            data = path.read_bytes()
            scrubbed = profile.scrub(data.decode("utf-8", "surrogateescape"), record_id, texts)
            cleaned = scrubbed.encode("utf-8", "surrogateescape")
            if cleaned == data:
                continue
            atomic_write(path, cleaned)
            if path == self.store.profile_path and sha256_bytes(data) == rejected:
                self.index.set_meta(f"profile-rejected:{self.store.name}", sha256_bytes(cleaned))

    # -- feedback ---------------------------------------------------------------

    def record_outcome(self, outcome: RecordOutcome) -> Record:
        """Count the outcome and move the lifecycle (README: Lifecycle).  Bookkeeping, not a new
        version, except when repeated failures retire an inferred record: that is a
        change of what the record is, kept in its history."""
        path, raw, state, current = self.live_file(outcome.id)
        updated, retired = outcome_applied(current, outcome)
        if retired:
            self.replace_version(path, raw, state, current, updated, "outcomes")
        else:
            self._write_in_place(path, raw, state, current, updated)
        return updated

    # -- rollback -------------------------------------------------------------

    def rollback(self, record_id: str) -> tuple[str, Record]:
        """Undo the last correction or forget of `record_id`; returns (what was undone, record)."""
        stone = tombstones.read(self.store, record_id)
        if stone is not None and stone.permanent:
            raise CometError(
                f"{record_id} was forgotten permanently; its content no longer exists",
                hint="remember it again with `comet memory remember` if you still want it",
            )
        history = RecordHistory(self.store, record_id)
        last = history.last_undoable()
        if last is None:
            raise CometError(
                f"{record_id} has no correction or forget to roll back",
                hint=f"`comet memory show --id {record_id} --history` lists its versions",
            )
        if last.action == "forget":
            return "forget", self._restore_forgotten(record_id, history)
        return "correct", self._restore_version(record_id, history, last.from_version)

    def _restore_forgotten(self, record_id: str, history: RecordHistory) -> Record:
        self.profile_changed()
        source = tombstones.content_path(self.store, record_id)
        if not source.exists():
            raise NotFoundError(f"the tombstone of {record_id} has no content to restore")
        raw = source.read_text(encoding="utf-8")
        record = parse_record(raw, str(source))
        target = self.store.record_path(record_id)
        written = atomic_write(target, raw, expected=ABSENT)
        tombstones.remove(self.store, record_id)
        self.index.drop_file(self.store.name, f"tombstones/{record_id}.md")
        self.index.drop_file(self.store.name, f"tombstones/{record_id}.json")
        self.index.clear_forgotten_id(record_id)
        history.log("rollback", "command", None, record.version)
        self._index_file(target, record, written)
        return record

    def _restore_version(self, record_id: str, history: RecordHistory, version: int | None) -> Record:
        if version is None:
            raise CometError(f"the history of {record_id} does not say which version to restore")
        old = history.version(version)
        path, raw, state, current = self.live_file(record_id)
        restored = restored_version(old, current)
        history.keep(current)
        written = atomic_write(path, update_record_text(raw, restored), expected=state)
        history.log("rollback", "command", current.version, restored.version)
        self._index_file(path, restored, written)
        self.profile_changed(restored, current)
        return restored

    # -- profile.md -------------------------------------------------------------

    def render_profile(self) -> None:
        """Bring profile.md up to date with the changes noted, unless the user changed it
        since we last wrote it (the next sync reads their edit first)."""
        if self.profile_changes is not None and not self.profile_changes and self.store.profile_path.exists():
            return
        key = f"profile:{self.store.name}"
        path = self.store.profile_path
        on_disk = path.read_bytes() if path.exists() else None
        rendered_hash = self.index.get_meta(key)
        if on_disk is not None:
            on_disk_hash = sha256_bytes(on_disk)
            if on_disk_hash == self.index.get_meta(f"profile-rejected:{self.store.name}"):
                return  # the user's unparseable edit stays until they fix it
            if rendered_hash is not None and on_disk_hash != rendered_hash:
                return
        data = self._patched_profile(on_disk) if rendered_hash is not None else None
        if data is None:
            data = self.profile_content().encode("utf-8")
        if on_disk != data:
            expected: FileState | Absent = ABSENT
            if on_disk is not None:
                expected = FileState.of_bytes(on_disk, os.stat(path))
            try:
                atomic_write(path, data, expected=expected)
            except ConcurrentEditError:
                return
        self.profile_changes = profile.ProfilePatch()
        self.index.set_meta(key, sha256_bytes(data))
        self.index.set_meta(f"profile-rejected:{self.store.name}", "")
        self.index.put_file(
            self.store.name,
            FileRow.of("profile.md", "profile", FileState.of_bytes(data, os.stat(path)), None),
        )

    def _patched_profile(self, on_disk: bytes | None) -> bytes | None:
        """profile.md with only the changed sections rewritten, or None when a full render is needed."""
        if on_disk is None or not self.profile_changes:
            return None
        patched = profile.patch(on_disk.decode("utf-8"), self.profile_changes)
        return None if patched is None else patched.encode("utf-8")

    def profile_content(self) -> str:
        entries = [profile.ProfileEntry(*row) for row in self.index.profile_entries(self.store.name)]
        title = "global" if self.store.scope == "global" else f"project {self.store.project_key}"
        return profile.render(title, str(self.store.records_dir), entries)

    # -- index bookkeeping ----------------------------------------------------------

    def _index_file(self, path: Path, record: Record, written: FileState) -> None:
        name = record_name(path, self.store)
        self.index.put_file(self.store.name, FileRow.of(name, "record", written, record.id))
        self.index.put_record(self.store.name, name, record, "live")
        self.index.clear_invalid(self.store.name, name)

    def _index_tombstone(self, record_id: str) -> None:
        """The tombstone just written, as a scan would index it: the next one need not read it."""
        path = tombstones.metadata_path(self.store, record_id)
        _, state = read_with_state(path)
        row = FileRow.of(record_name(path, self.store), "tombstone", state, record_id)
        self.index.put_file(self.store.name, row)

    def _drop_file(self, path: Path) -> None:
        self.index.drop_file(self.store.name, record_name(path, self.store))
