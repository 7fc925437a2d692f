"""The derived index: incremental refresh, rebuild, FTS5 and its fallback."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

import comet_git.index
import comet_git.provider.sync
from comet_git.provider import Query, Remember
from comet_git.provider.local import LocalProvider
from comet_git.provider.repair import repair
from comet_git.records.model import Selectors
from comet_git.store import Home, read_with_state
from tests.clihelp import invoke


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
