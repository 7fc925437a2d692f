"""The derived index: incremental refresh, rebuild, FTS5 and its fallback."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

import comet_git.index
import comet_git.provider.sync
import comet_git.provider.watch
import comet_git.records.profile
from comet_git.looks import Looks, one_look
from comet_git.provider import Correct, Forget, Import, Query, Remember, Rollback
from comet_git.provider.local import LocalProvider
from comet_git.provider.repair import repair
from comet_git.provider.sync import FOLDERS, read_listing
from comet_git.provider.watch import folder_watch
from comet_git.provider.writes import StoreWriter
from comet_git.records.model import Selectors
from comet_git.store import Home, ScopeStore, read_with_state
from tests.clihelp import invoke, run_comet


@pytest.fixture
def provider(comet_home: Path) -> LocalProvider:
    return LocalProvider(Home(comet_home), "acme-app-0123abcd")


def remember_many(provider: LocalProvider, count: int, *, scope: str = "project") -> list[str]:
    return [
        provider.apply(Remember(text=f"Rule number {n}: keep module {n} small.", scope=scope)).id
        for n in range(count)
    ]


def test_unchanged_store_reads_no_record_file(
    provider: LocalProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(comet_git.index, "RACY_WINDOW_NS", 0)
    remember_many(provider, 30)
    provider.query(Query())  # settle
    reads: list[Path] = []

    def counting(path: Path) -> tuple[bytes, object]:
        reads.append(path)
        return read_with_state(path)

    monkeypatch.setattr(comet_git.provider.sync, "read_with_state", counting)
    assert len(provider.query(Query()).records) == 30
    assert reads == []


def test_one_hand_edit_reads_one_file(provider: LocalProvider, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(comet_git.index, "RACY_WINDOW_NS", 0)
    ids = remember_many(provider, 30)
    provider.query(Query())
    path = provider.project_store.record_path(ids[7])  # type: ignore[union-attr]
    path.write_text(path.read_text().replace("keep module 7 small", "keep module 7 tiny"))
    reads: list[str] = []

    def counting(target: Path) -> tuple[bytes, object]:
        reads.append(Path(target).name)
        return read_with_state(target)

    monkeypatch.setattr(comet_git.provider.sync, "read_with_state", counting)
    found = provider.query(Query(ids=(ids[7],)))
    record = found.records[0].as_dict()
    assert "tiny" in record["text"]
    assert record["version"] == 2
    assert reads.count(f"{ids[7]}.md") == 1
    assert {name for name in reads} <= {f"{ids[7]}.md", "profile.md"}


def test_text_query_uses_fts_and_substrings(provider: LocalProvider) -> None:
    provider.apply(Remember(text="Database migrations need a rollback script.", scope="project"))
    provider.apply(Remember(text="提交前先运行代码检查。", scope="project"))
    assert provider.query(Query()).records  # index built
    assert [r.as_dict()["text"] for r in provider.query(Query(text="migration")).records] == [
        "Database migrations need a rollback script."
    ]
    assert len(provider.query(Query(text="代码检查")).records) == 1
    assert provider.query(Query(text="nothing-like-this")).records == []


def test_fallback_without_fts5(comet_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(comet_git.index, "FTS5_ENABLED", False)
    provider = LocalProvider(Home(comet_home), None)
    provider.apply(Remember(text="Prefer small pull requests.", scope="global"))
    provider.apply(Remember(text="Always write the changelog entry.", scope="global"))
    assert provider.status().index["fts5"] is False
    found = provider.query(Query(text="pull small"))
    assert [r.as_dict()["text"] for r in found.records] == ["Prefer small pull requests."]
    tables = sqlite3.connect(Home(comet_home).index_path).execute(
        "SELECT name FROM sqlite_master WHERE name LIKE 'records_fts%'"
    )
    assert tables.fetchall() == []


def test_an_index_made_by_another_tokenizer_is_rebuilt(provider: LocalProvider, comet_home: Path) -> None:
    # An upgrade that changes the vocabulary changes the terms a record is indexed under: terms
    # from before would never carry the new concepts, so the index is made afresh from the files.
    provider.apply(Remember(text="Every page must pass the WCAG checks.", scope="project"))
    home = Home(comet_home)
    assert provider.query(Query()).records
    with sqlite3.connect(home.index_path) as connection:
        connection.execute("UPDATE meta SET value = 'an older tokenizer' WHERE key = 'tokenizer'")
        connection.execute("UPDATE record_texts SET terms = 'stale'")
    connection.close()
    assert comet_git.index.check_integrity(home.index_path) == (
        "its search terms were made by another tokenizer (another vocabulary or stemmer)"
    )
    fresh = LocalProvider(home, "acme-app-0123abcd")
    assert [r.as_dict()["text"] for r in fresh.query(Query(text="accessibility")).records] == [
        "Every page must pass the WCAG checks."
    ]
    assert comet_git.index.check_integrity(home.index_path) is None


def test_repair_rebuilds_into_a_new_file(provider: LocalProvider, comet_home: Path) -> None:
    ids = remember_many(provider, 5)
    home = Home(comet_home)
    before = os.stat(home.index_path).st_ino
    report = repair(home, check_only=False)
    assert report.rebuilt
    assert os.stat(home.index_path).st_ino != before
    assert sorted(r.id for r in provider.query(Query()).records) == sorted(ids)
    assert not home.index_path.with_name("comet.sqlite3.rebuild").exists()


def test_repair_check_reports_a_missing_index_without_creating_it(
    provider: LocalProvider, comet_home: Path
) -> None:
    remember_many(provider, 2)
    home = Home(comet_home)
    for suffix in ("", "-wal", "-shm"):
        Path(str(home.index_path) + suffix).unlink(missing_ok=True)
    report = repair(home, check_only=True)
    assert report.index_problem == "the index does not exist"
    assert [store.records for store in report.stores] == [2]
    assert not home.index_path.exists()


def test_a_rebuilt_index_does_not_mistake_profile_for_edits(
    provider: LocalProvider, comet_home: Path
) -> None:
    ids = remember_many(provider, 3)
    home = Home(comet_home)
    for suffix in ("", "-wal", "-shm"):
        Path(str(home.index_path) + suffix).unlink(missing_ok=True)
    assert len(provider.query(Query()).records) == 3
    assert not list(provider.project_store.root.glob("profile.md.*"))  # type: ignore[union-attr]
    assert sorted(r.id for r in provider.query(Query()).records) == sorted(ids)


def test_selectors_are_indexed_for_list_queries(provider: LocalProvider) -> None:
    provider.apply(Remember(text="Use the fixtures.", scope="project", selectors=Selectors(tasks=("flaky",))))
    assert len(provider.query(Query(text="flaky")).records) == 1


def test_cli_list_on_an_empty_store(tmp_path: Path) -> None:
    result = invoke("memory", "list", tmp_path, "--json")
    assert result.exit_code == 0
    assert result.json() == {"schema": "comet.records/v1", "records": [], "invalid": []}


def test_default_home_follows_platformdirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import platformdirs

    import comet_git.store

    monkeypatch.undo()  # the conftest guard replaces default_home; test the real one
    monkeypatch.setenv("HOME", str(tmp_path))
    for xdg in (None, str(tmp_path / "xdg")):
        if xdg is None:
            monkeypatch.delenv("XDG_DATA_HOME", raising=False)
        else:
            monkeypatch.setenv("XDG_DATA_HOME", xdg)
        expected = Path(platformdirs.user_data_dir("comet", appauthor=False))
        assert comet_git.store.default_home() == expected


def test_the_director_works_without_fts5(comet_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from comet_git.provider.candidates import TaskRequest

    monkeypatch.setattr(comet_git.index, "FTS5_ENABLED", False)
    provider = LocalProvider(Home(comet_home), None)
    wanted = provider.apply(Remember(text="Cache keys always carry a version prefix.", scope="global")).id
    provider.apply(Remember(text="Reply in short paragraphs.", scope="global"))
    result = provider.query(Query(task=TaskRequest("add a cache for the invoices endpoint")))
    assert result.selection is not None
    assert [c.id for c in result.selection.candidates] == [wanted]  # a global rule never stands
    assert "task text is relevant" in " ".join(result.selection.candidates[0].why)


# -- what a write costs: the rows stay as the folders are ---------------------------------------


def listing_digests(provider: LocalProvider, store: ScopeStore) -> list[str]:
    return [read_listing(store.root / folder, suffix)[1] for _, folder, suffix in FOLDERS]


def rows_digests(store: ScopeStore, comet_home: Path) -> list[str]:
    index = comet_git.index.Index.open(comet_home / "index" / "comet.sqlite3")
    try:
        return [index.rows_digest(store.name, kind) for kind, _, _ in FOLDERS]
    finally:
        index.close()


def test_after_each_write_the_rows_are_as_the_folders_are(
    provider: LocalProvider, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write indexes what it wrote (the record, its tombstone): the next command finds the
    folders' listings equal to the rows by their digests alone, without fetching the rows."""
    ids = remember_many(provider, 5)
    store = provider.project_store
    assert store is not None
    provider.apply(Correct(ids[0], text="Rule number 0: keep module 0 tiny."))
    provider.apply(Forget(ids[1]))
    provider.apply(Forget(ids[2], permanent=True))
    provider.apply(Rollback(ids[1]))
    assert rows_digests(store, comet_home) == listing_digests(provider, store)
    fetched: list[str] = []
    original = comet_git.index.Index.file_stats

    def counting(self: comet_git.index.Index, store_name: str, kind: str) -> dict[str, tuple[int, int, int]]:
        fetched.append(kind)
        return original(self, store_name, kind)

    monkeypatch.setattr(comet_git.index.Index, "file_stats", counting)
    assert len(provider.query(Query()).records) == 4
    assert fetched == []


def test_a_file_rewritten_within_the_same_timestamp_after_a_write_is_taken_in(
    provider: LocalProvider,
) -> None:
    """Right after a write its file is racy: an edit of the same size, with the same mtime,
    leaves the listing as indexed, and is found all the same."""
    [record_id] = remember_many(provider, 1)
    path = provider.project_store.record_path(record_id)  # type: ignore[union-attr]
    before = os.stat(path)
    path.write_text(path.read_text().replace("keep module 0 small", "keep module 0 TINY!"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size
    [view] = provider.query(Query(ids=(record_id,))).records
    assert "TINY!" in view.as_dict()["text"] and view.as_dict()["version"] == 2


def test_a_wrong_digest_of_the_rows_is_mended_by_the_next_full_look(
    provider: LocalProvider, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(comet_git.index, "RACY_WINDOW_NS", 0)
    remember_many(provider, 3)
    store = provider.project_store
    assert store is not None
    index = comet_git.index.Index.open(comet_home / "index" / "comet.sqlite3")
    try:
        index.set_meta(f"rows:{store.name}:record", "3:0000000000000000")  # as an older comet left it
    finally:
        index.close()
    assert len(provider.query(Query()).records) == 3
    assert rows_digests(store, comet_home) == listing_digests(provider, store)


# -- one look per command ------------------------------------------------------------------------


def counting_listings(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    listed: list[Path] = []
    original = comet_git.provider.sync.read_listing

    def counting(directory: Path, suffix: str) -> tuple[list[tuple[str, int, int]], str]:
        listed.append(directory)
        return original(directory, suffix)

    monkeypatch.setattr(comet_git.provider.sync, "read_listing", counting)
    return listed


def test_within_one_command_the_folders_are_listed_once(
    provider: LocalProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    remember_many(provider, 3)
    listed = counting_listings(monkeypatch)
    with one_look():
        provider.query(Query())
        first = len(listed)
        created = provider.apply(Remember(text="Rule four: name tests after behaviour."))
        provider.query(Query(ids=(created.id,)))
        provider.query(Query())
        assert first > 0 and len(listed) == first
    provider.query(Query())  # the next command looks again
    assert len(listed) > first


def test_within_one_command_the_writes_of_other_processes_are_seen(
    provider: LocalProvider, tmp_path: Path
) -> None:
    remember_many(provider, 2, scope="global")
    with one_look():
        assert len(provider.query(Query(scopes=("global",))).records) == 2
        done = run_comet(
            "memory", "remember", "--scope", "global", "--text", "Reply in English.", cwd=tmp_path
        )
        assert done.exit_code == 0, done.stderr
        texts = [view.as_dict()["text"] for view in provider.query(Query(scopes=("global",))).records]
        assert "Reply in English." in texts


def test_within_one_command_an_import_is_seen(provider: LocalProvider, comet_home: Path) -> None:
    """An import writes the files, then indexes them by a look at the folders."""
    [record_id] = remember_many(provider, 1)
    exported = provider.query(Query(export=True)).archive
    other = LocalProvider(Home(comet_home / "elsewhere"), provider.project_key)
    with one_look():
        assert other.query(Query()).records == []
        assert other.apply(Import(record_id, "project", exported)).action == "imported"
        assert [view.id for view in other.query(Query()).records] == [record_id]


# -- profile.md is patched, not rendered again ------------------------------------------------------


def test_a_remember_and_a_forget_patch_profile_md_as_a_full_render_would_write_it(
    provider: LocalProvider, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = remember_many(provider, 4)
    provider.apply(Remember(text="Reply in English.", memory_type="core-profile"))
    renders: list[str] = []
    original = comet_git.records.profile.render

    def counting(title: str, records_dir: str, entries: object) -> str:
        renders.append(title)
        return original(title, records_dir, entries)  # type: ignore[arg-type]

    monkeypatch.setattr(comet_git.records.profile, "render", counting)
    provider.apply(Remember(text="Keep the changelog short.", memory_type="personal-episode"))
    provider.apply(Remember(text="Rule five: keep module 5 small too."))
    provider.apply(Forget(ids[1]))
    provider.apply(Correct(ids[2], text="Rule number 2: keep module 2 tiny."))
    assert renders == []
    store = provider.project_store
    assert store is not None
    index = comet_git.index.Index.open(comet_home / "index" / "comet.sqlite3")
    try:
        full = StoreWriter(index, store).profile_content()
    finally:
        index.close()
    assert store.profile_path.read_text(encoding="utf-8") == full
    assert "keep module 1 small" not in full and "Keep the changelog short." in full


# -- a long-running process keeps its looks while its watch sees nothing happen ---------------------

needs_inotify = pytest.mark.skipif(comet_git.provider.watch.INotify is None, reason="no inotify here")


@needs_inotify
def test_a_watched_store_is_listed_again_only_when_something_happened_in_it(
    provider: LocalProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = remember_many(provider, 3)
    watch = folder_watch()
    assert watch is not None
    kept = Looks(watch)
    with one_look(kept):
        provider.query(Query())
    listed = counting_listings(monkeypatch)
    with one_look(kept):  # the next page: nothing happened in the folders
        assert len(provider.query(Query()).records) == 3
    assert listed == []
    path = provider.project_store.record_path(ids[1])  # type: ignore[union-attr]
    path.write_text(path.read_text().replace("keep module 1 small", "keep module 1 tiny"))  # in place
    with one_look(kept):
        [view] = provider.query(Query(ids=(ids[1],))).records
    assert "tiny" in view.as_dict()["text"] and view.as_dict()["version"] == 2
    assert listed
    watch.close()


def test_without_a_watch_a_kept_look_lasts_one_command(
    provider: LocalProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    remember_many(provider, 2)
    kept = Looks(None)
    with one_look(kept):
        provider.query(Query())
    listed = counting_listings(monkeypatch)
    with one_look(kept):
        provider.query(Query())
    assert listed
