"""The provider contract (`comet.provider/v1`), the same tests against both implementations:
the Local provider, and the Remote provider talking to a real `comet serve` on 127.0.0.1."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from comet_git.director.deliver import deliver
from comet_git.errors import CometError, ConcurrentEditError, InvalidInputError, NotFoundError
from comet_git.provider import (
    Amend,
    Correct,
    Forget,
    Import,
    MachineProvider,
    Query,
    RecordOutcome,
    Remember,
    Rollback,
)
from comet_git.provider.candidates import TaskRequest
from comet_git.provider.local import LocalProvider
from comet_git.provider.remote import RemoteProvider
from comet_git.records.model import Evidence, Selectors
from comet_git.store import Home
from tests.serving import Server

PROJECT = "app-0123abcd"
USERS = itertools.count()


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve") / "data").start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def postgres_server(tmp_path_factory: pytest.TempPathFactory, pg_database: str) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve-pg") / "data", database=pg_database).start()
    yield running
    running.stop()


BACKENDS = ["local", "remote", "remote-postgres"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def server(backend: str, request: pytest.FixtureRequest) -> Server:
    """The server of the Remote providers of this test (the embedded one for Local's tests,
    which only pass it along)."""
    return request.getfixturevalue("postgres_server" if backend == "remote-postgres" else "embedded_server")


CLIENTS: list[RemoteProvider] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while CLIENTS:
        CLIENTS.pop().close()


def remote_provider(server: Server, home: Home, project: str | None = PROJECT) -> RemoteProvider:
    """A client for a user of its own: each test starts from an empty store on the server."""
    token = server.create_token(f"user{next(USERS)}")
    CLIENTS.append(RemoteProvider(home, project, server.url, token, timeout=30))
    return CLIENTS[-1]


@pytest.fixture
def provider(backend: str, request: pytest.FixtureRequest, comet_home: Path) -> MachineProvider:
    home = Home(comet_home)
    if backend == "local":
        return LocalProvider(home, PROJECT)
    return remote_provider(request.getfixturevalue("server"), home)


def same_kind(provider: MachineProvider, server: Server, home: Home, project: str | None) -> MachineProvider:
    """Another provider of the same implementation, over another store."""
    if isinstance(provider, LocalProvider):
        return LocalProvider(home, project)
    return remote_provider(server, home, project)


def remember(provider: MachineProvider, text: str, **fields: object) -> str:
    result = provider.apply(Remember(text=text, **fields))  # type: ignore[arg-type]
    assert result.action == "created", result
    return result.id


def record(provider: MachineProvider, record_id: str, **query: object) -> dict[str, object]:
    [view] = provider.query(Query(ids=(record_id,), **query)).records  # type: ignore[arg-type]
    return view.as_dict()


def test_remember_then_read_back(provider: MachineProvider) -> None:
    record_id = remember(
        provider,
        "Run ruff before committing",
        selectors=Selectors(operations=("commit",)),
        evidence=(Evidence("explicit", "said so"),),
    )
    found = record(provider, record_id)
    assert found["text"] == "Run ruff before committing"
    assert found["scope"] == "project" and found["projectKey"] == PROJECT
    assert found["selectors"]["operations"] == ["commit"]  # type: ignore[index]
    assert found["evidence"] == [{"event": None, "kind": "explicit", "at": None, "summary": "said so"}]
    assert [view.id for view in provider.query(Query()).records] == [record_id]


def test_the_same_statement_twice_is_one_record(provider: MachineProvider) -> None:
    first = remember(provider, "Use pnpm", scope="global")
    again = provider.apply(Remember(text="Use pnpm", scope="global"))
    assert (again.action, again.id) == ("unchanged", first)


def test_correct_keeps_the_id_and_the_history(provider: MachineProvider) -> None:
    record_id = remember(provider, "Indent with tabs")
    result = provider.apply(Correct(record_id, text="Indent with four spaces"))
    assert result.action == "corrected"
    found = provider.query(Query(ids=(record_id,), with_history=True))
    assert found.records[0].as_dict()["version"] == 2
    assert [entry["text"] for entry in found.history[record_id]] == [
        "Indent with tabs",
        "Indent with four spaces",
    ]


def test_a_correction_made_on_an_old_version_is_refused(provider: MachineProvider) -> None:
    record_id = remember(provider, "Squash before merging")
    provider.apply(Correct(record_id, text="Rebase before merging", base_version=1))
    with pytest.raises(ConcurrentEditError):
        provider.apply(Correct(record_id, text="Merge commits are fine", base_version=1))
    assert record(provider, record_id)["text"] == "Rebase before merging"


def test_forget_then_rollback(provider: MachineProvider) -> None:
    record_id = remember(provider, "Write commit messages in English")
    forgotten = provider.apply(Forget(record_id))
    assert (forgotten.action, forgotten.rollback_possible) == ("forgotten", True)
    assert provider.query(Query()).records == []
    assert record(provider, record_id, include_forgotten=True)["state"] == "forgotten"
    assert provider.apply(Rollback(record_id)).action == "rolled-back"
    assert record(provider, record_id)["state"] == "live"


def test_permanent_forget_leaves_no_text(provider: MachineProvider) -> None:
    record_id = remember(provider, "My API key lives in ~/.secrets")
    assert provider.apply(Forget(record_id, permanent=True)).permanent
    with pytest.raises(NotFoundError):
        provider.query(Query(ids=(record_id,), include_forgotten=True))
    [project] = [store for store in provider.status().stores if store.name == f"project:{PROJECT}"]
    assert project.forgotten == 1


def test_unknown_ids_are_not_found(provider: MachineProvider) -> None:
    for call in (
        lambda: provider.query(Query(ids=("pm-nothere1",))),
        lambda: provider.apply(Forget("pm-nothere1")),
        lambda: provider.apply(Correct("pm-nothere1", text="x")),
        lambda: provider.apply(Rollback("pm-nothere1")),
    ):
        with pytest.raises(NotFoundError):
            call()


def test_an_invalid_change_is_refused_with_its_reason(provider: MachineProvider) -> None:
    with pytest.raises(InvalidInputError, match="--type"):
        provider.apply(Remember(text="x", memory_type="no-such-type"))
    with pytest.raises(InvalidInputError, match="empty"):
        provider.apply(Remember(text="   "))
    assert provider.query(Query()).records == []


def test_project_scope_needs_a_project(provider: MachineProvider, server: Server, comet_home: Path) -> None:
    home = Home(comet_home)
    outside = (
        LocalProvider(home, None)
        if isinstance(provider, LocalProvider)
        else remote_provider(server, home, None)
    )
    with pytest.raises(CometError, match="project scope needs a git repository"):
        outside.apply(Remember(text="x", scope="project"))


def test_outcomes_and_amendments(provider: MachineProvider) -> None:
    record_id = remember(provider, "Prefer small commits", authority="inferred")
    provider.apply(RecordOutcome(record_id, "used-successfully", "2026-12-01T10:00:00Z", ("matched",)))
    found = record(provider, record_id)
    assert found["lifecycle"] == "proven"
    assert found["application"]["counts"] == {"used-successfully": 1}  # type: ignore[index]
    result = provider.apply(
        Amend(record_id, (("selectors", Selectors(paths=("src/**",))), ("conflicts_with", ())), "narrower")
    )
    assert result.action == "amended"
    assert record(provider, record_id)["selectors"]["paths"] == ["src/**"]  # type: ignore[index]


def test_status_counts(provider: MachineProvider) -> None:
    remember(provider, "Use pnpm", scope="global")
    remember(provider, "Run the tests with -n 0")
    report = provider.status()
    counts = {store.name: store.counts_by_lifecycle for store in report.stores}
    assert counts == {"global": {"proven": 1}, f"project:{PROJECT}": {"proven": 1}}


def test_similar_finds_the_neighbours(provider: MachineProvider) -> None:
    record_id = remember(provider, "Always run ruff before committing", scope="global")
    remember(provider, "Reply in English", scope="global")
    found = provider.query(Query(scopes=("global",), similar="run ruff before a commit")).records
    assert found[0].id == record_id


def test_the_director_selection_is_the_same_shape(provider: MachineProvider) -> None:
    wanted = remember(provider, "Run pytest with -n 0 in this repo", selectors=Selectors(tasks=("pytest",)))
    remember(provider, "Reply in English", scope="global", memory_type="core-profile")
    remember(provider, "Deploy on Fridays never", selectors=Selectors(operations=("deploy",)))
    request = TaskRequest("fix the failing pytest run", budget=6000, max_entries=12)
    selection = provider.query(Query(task=request)).selection
    assert selection is not None
    delivery = deliver(selection, request)
    delivered = [item["id"] for item in [*delivery.context, *delivery.manifest]]
    assert wanted in delivered and len(delivered) == 2
    assert all(item["whyApplied"] for item in delivery.context)


def test_export_then_import_is_lossless(provider: MachineProvider, server: Server, comet_home: Path) -> None:
    record_id = remember(provider, "Indent with tabs")
    provider.apply(Correct(record_id, text="Indent with spaces"))
    provider.apply(RecordOutcome(record_id, "used-successfully", "2026-12-01T10:00:00Z"))
    gone = remember(provider, "Forget me", scope="global")
    provider.apply(Forget(gone))
    exported = provider.query(Query(export=True)).archive
    before = provider.query(Query(include_forgotten=True, with_history=True))

    home = Home(comet_home / "elsewhere")
    other = (
        LocalProvider(home, PROJECT) if isinstance(provider, LocalProvider) else remote_provider(server, home)
    )
    for (scope, one), files in itertools.groupby(
        sorted(exported, key=lambda f: (f.scope, f.path.split("/")[1].split(".")[0])),
        key=lambda f: (f.scope, f.path.split("/")[1].split(".")[0]),
    ):
        assert other.apply(Import(one, scope, tuple(files))).action == "imported"
    after = other.query(Query(include_forgotten=True, with_history=True))
    assert [view.as_dict() for view in after.records] == [view.as_dict() for view in before.records]
    assert after.history == before.history
    assert sorted(other.query(Query(export=True)).archive) == sorted(exported)


def test_import_refuses_other_content_and_paths_outside_the_store(provider: MachineProvider) -> None:
    record_id = remember(provider, "Use tabs")
    [mine] = [f for f in provider.query(Query(export=True)).archive if f.path.startswith("records/")]
    with pytest.raises(InvalidInputError, match="other content"):
        provider.apply(Import(record_id, "project", (mine._replace(text=mine.text + "x"),)))
    with pytest.raises(InvalidInputError, match="not a path"):
        provider.apply(Import(record_id, "project", (mine._replace(path="../../escape.md"),)))
    assert provider.apply(Import(record_id, "project", (mine,))).action == "unchanged"


def test_what_was_forgotten_is_known_as_forgotten(provider: MachineProvider) -> None:
    record_id = remember(provider, "Always squash merge", scope="global")
    gone = remember(provider, "Sign every commit", scope="global")

    def forgotten(text: str, of: str | None = None) -> bool:
        return provider.query(Query(scopes=("global",), forgotten_text=text, forgotten_id=of)).forgotten

    assert not forgotten("Always squash merge") and not forgotten("anything", record_id)
    provider.apply(Forget(record_id))
    provider.apply(Forget(gone, permanent=True))
    assert forgotten("Always squash merge") and forgotten("Sign every commit")
    assert forgotten("anything", record_id) and not forgotten("Never forgotten")


def test_a_page_of_a_listing_with_its_total_and_tally(provider: MachineProvider) -> None:
    """A listing of ten thousand records is asked for a page at a time, and counted by the
    provider: the pages join up to the whole listing, in its order, and the tally counts
    what matches, not what the page holds."""
    for number in range(7):
        remember(provider, f"Project rule {number}: keep step {number} short.")
    for number in range(3):
        remember(
            provider, f"Global rule {number}: answer in English.", scope="global", memory_type="core-profile"
        )
    inferred = provider.apply(Remember(text="Maybe run the linter first.", authority="inferred")).id
    whole = [view.id for view in provider.query(Query()).records]
    assert len(whole) == 11
    pages = [provider.query(Query(offset=offset, limit=4)) for offset in range(0, 12, 4)]
    assert [view.id for page in pages for view in page.records] == whole  # across both stores
    assert {page.total for page in pages} == {11}
    counted = provider.query(Query(limit=0, tally=True))
    assert counted.records == [] and counted.total == 11 and counted.tally is not None
    by_type: dict[str, int] = {}
    for scope, memory_type, _, lifecycle, authority, count in counted.tally:
        by_type[f"{scope}/{memory_type}"] = by_type.get(f"{scope}/{memory_type}", 0) + count
        assert (authority, lifecycle) in {("explicit", "proven"), ("inferred", "trial")}
    assert by_type == {"project/collaboration-policy": 8, "global/core-profile": 3}
    candidates = provider.query(Query(authorities=("inferred",), lifecycles=("trial",)))
    assert [view.id for view in candidates.records] == [inferred]
    found = provider.query(Query(text="English", limit=2, tally=True))
    assert found.total == 3 and len(found.records) == 2
    assert provider.query(Query(memory_classes=("user-preference",), limit=0)).total == 3


def test_the_records_linked_as_conflicting_are_asked_for_alone(provider: MachineProvider) -> None:
    older = remember(provider, "Use tabs for indentation.")
    newer = remember(provider, "Use spaces for indentation.")
    remember(provider, "Keep the changelog short.")
    assert provider.query(Query(conflicting=True, limit=0)).total == 0
    provider.apply(Amend(newer, (("conflicts_with", (older,)),), reason="linked"))
    provider.apply(Amend(older, (("conflicts_with", (newer,)),), reason="linked"))
    linked = provider.query(Query(conflicting=True))
    assert sorted(view.id for view in linked.records) == sorted([older, newer])
