"""`comet serve --database`: what the PostgreSQL backend adds to the contract suite
(tests/test_provider_contract.py and tests/test_remote.py run over this backend too; the
latter's director test finds the same deliveries as Local's on the labelled sets): a store
moves Local -> PostgreSQL -> Local losslessly, one user
never reaches another's records, races are settled by the database, a permanent forget leaves
nothing behind, and the migrations and a bad database are handled as the CLI promises."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import psycopg
import pytest

from comet_git.errors import ConcurrentEditError, NotFoundError
from comet_git.provider import ArchivedFile, Correct, Forget, Import, Query, Remember
from comet_git.provider.local import LocalProvider, build_record
from comet_git.provider.remote import RemoteProvider
from comet_git.records.codec import render_record
from comet_git.records.model import Selectors, new_record_id
from comet_git.store import Home
from tests.clihelp import run_comet
from tests.serving import Server, free_port

PROJECT = "app-0123abcd"
USERS = itertools.count()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, pg_database: str) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve-pg") / "data", database=pg_database).start()
    yield running
    running.stop()


@pytest.fixture
def clients() -> Iterator[list[RemoteProvider]]:
    made: list[RemoteProvider] = []
    yield made
    for client in made:
        client.close()


def client(
    server: Server, clients: list[RemoteProvider], home: Path, project: str | None = PROJECT, user: str = ""
) -> RemoteProvider:
    """A Remote provider for `user` (a new user unless named)."""
    token = server.create_token(user or f"user{next(USERS)}")
    clients.append(RemoteProvider(Home(home), project, server.url, token, timeout=30))
    return clients[-1]


def by_record(files: Sequence[ArchivedFile]) -> dict[tuple[str, str], tuple[ArchivedFile, ...]]:
    """An export's files grouped as Import takes them: (scope, record id) -> files."""
    from comet_git.provider.archive import record_of

    grouped: dict[tuple[str, str], list[ArchivedFile]] = {}
    for item in files:
        grouped.setdefault((item.scope, record_of(item.path)), []).append(item)
    return {key: tuple(items) for key, items in grouped.items()}


def copy_store(source: Any, target: Any, scopes: tuple[str, ...] = ("global", "project")) -> None:
    for (scope, record_id), files in by_record(
        source.query(Query(scopes=scopes, export=True)).archive
    ).items():
        assert target.apply(Import(record_id, scope, files)).action in ("imported", "unchanged")


# -- moving a store ----------------------------------------------------------------------------


def test_a_store_moves_from_local_to_postgres_and_back_losslessly(
    server: Server, clients: list[RemoteProvider], comet_home: Path
) -> None:
    local = LocalProvider(Home(comet_home / "laptop"), PROJECT)
    kept = local.apply(Remember(text="Indent with tabs")).id
    local.apply(Correct(kept, text="Indent with four spaces"))
    local.apply(Correct(kept, text="Indent with two spaces", title="Indentation"))
    forgotten = local.apply(Remember(text="Deploy on Fridays", scope="global")).id
    local.apply(Forget(forgotten))
    erased = local.apply(Remember(text="My token is in ~/.secrets", scope="global")).id
    local.apply(Forget(erased, permanent=True))
    local.apply(Remember(text="用中文回复", scope="global", memory_type="core-profile"))
    exported = sorted(local.query(Query(export=True)).archive)
    before = local.query(Query(include_forgotten=True, with_history=True))

    remote = client(server, clients, comet_home / "desk")
    copy_store(local, remote)
    assert sorted(remote.query(Query(export=True)).archive) == exported
    after = remote.query(Query(include_forgotten=True, with_history=True))
    assert [v.as_dict() for v in after.records] == [v.as_dict() for v in before.records]
    assert after.history == before.history

    back = LocalProvider(Home(comet_home / "back"), PROJECT)
    copy_store(remote, back)
    assert sorted(back.query(Query(export=True)).archive) == exported
    assert [v.as_dict() for v in back.query(Query(include_forgotten=True)).records] == [
        v.as_dict() for v in before.records
    ]


# -- the candidate search -------------------------------------------------------------------------

SUBJECTS = ("the auth module", "database migrations", "error handling", "the API client", "the release notes",
            "integration tests", "the billing service", "structured logging")  # fmt: skip
RULES = ("Always run ruff before committing changes to {}.", "Ask before rewriting {}.",
         "When a test of {} fails, show the failing assertion first.", "Keep {} free of print statements.",
         "Document {} with one example each.", "Prefer small commits when touching {}.")  # fmt: skip
PATHS = ("src/auth/**", "src/billing/**", "tests/api/**/*.py", "docs/*.md")
OPERATIONS = ("edit", "test", "commit", "release", "migrate")
PHASES = ("plan", "build", "verify", "release")


def generated(number: int) -> Remember:
    """The `number`th record of a store where many records share words (so that BM25 ranks
    more than LEXICAL_TOP of them) and selectors of every kind (keywords on few of them)."""
    rules = [RULES[(number * 7 + k) % len(RULES)].format(SUBJECTS[(number + 3 * k) % len(SUBJECTS)])
             for k in range(1 + number % 3)]  # fmt: skip
    selectors = Selectors(
        paths=(PATHS[number % len(PATHS)],) if number % 3 == 0 else (),
        tasks=(("flaky test",) if number % 2 else ("hotfix",)) if number % 11 == 0 else (),
        operations=(OPERATIONS[number % len(OPERATIONS)],) if number % 4 == 1 else (),
        phases=(PHASES[number % len(PHASES)],) if number % 5 == 2 else (),
    )
    kind = (
        "core-profile"
        if number % 29 == 0
        else "personal-episode"
        if number % 13 == 0
        else "collaboration-policy"
    )
    return Remember(
        text=f"{' '.join(rules)} (rule {number})",
        title=f"Rule {number} for {SUBJECTS[number % len(SUBJECTS)]}",
        scope="global" if number % 9 == 0 else "project",
        memory_type=kind,
        selectors=selectors,
    )


def test_the_candidate_search_equals_locals_candidate_by_candidate(
    pg_database: str, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What PostgreSQL computes near the data (BM25 from the postings, the rows from the partial
    indexes) is what the local index computes: every candidate, in order, with its tier, score,
    reasons and texts.  The clock is pinned: recency moves every score as time passes."""
    from comet_git.provider.candidates import SqliteRows, TaskRequest
    from comet_git.server.postgres.backend import PostgresBackend
    from comet_git.server.postgres.candidates import PostgresRows

    local = written_store(comet_home / "laptop", 300)
    backend = PostgresBackend(pg_database)
    try:
        database = backend.provider_for("searcher", PROJECT)
        copy_store(local, database)
        today = 2461376.5
        monkeypatch.setattr(SqliteRows, "now", lambda self: today)
        monkeypatch.setattr(PostgresRows, "now", lambda self: today)
        requests = [
            TaskRequest(
                "Refactor the auth module error handling", "src/auth/login.py", False, "edit", "build"
            ),
            TaskRequest("Write database migrations for billing", "src/billing", True, "migrate", "plan"),
            TaskRequest("Fix the flaky integration tests of the API client", "tests/api/test_client.py"),
            TaskRequest("ruff before committing", operation="commit", phase="verify"),
            TaskRequest(""),  # a session start
        ]
        for request in requests:
            ours = local.query(Query(task=request)).selection
            theirs = database.query(Query(task=request)).selection
            assert ours is not None and theirs is not None
            assert len(ours.candidates) > 20, request
            assert candidates_of(theirs) == candidates_of(ours), request
    finally:
        backend.close()


def written_store(home: Path, count: int) -> LocalProvider:
    """A Local store of `count` generated records, their files written as an editor would (a
    remember each would take a minute), each updated an hour before the next: records updated
    in the same second tie on recency, and which of them a LIMIT keeps is each index's walk."""
    local = LocalProvider(Home(home), PROJECT)
    started = datetime.now(timezone.utc)
    for number in range(count):
        change = generated(number)
        store = local.store_for_scope(change.scope)
        record = build_record(
            new_record_id(), change.text, change.title, store, change.memory_type, None, change.selectors,
            None, change.authority, (),
        )  # fmt: skip
        stamp = (started - timedelta(hours=number)).strftime("%Y-%m-%dT%H:%M:%SZ")
        store.records_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = store.records_dir / f"{record.id}.md"
        path.write_text(render_record(record.evolve(created_at=stamp, updated_at=stamp)), encoding="utf-8")
    return local


def candidates_of(selection: Any) -> list[tuple[Any, ...]]:
    """Everything about each candidate, the score to the last few bits (the sums may differ
    in order, as two BM25 implementations do)."""
    return [
        (c.id, c.tier, round(c.score, 9), c.why, c.strong, c.reached, c.title, c.summary, c.text)
        for c in selection.candidates
    ]


# -- isolation, races, erasure ------------------------------------------------------------------


def test_one_user_never_reaches_another_users_records(
    server: Server, clients: list[RemoteProvider], comet_home: Path
) -> None:
    ana = client(server, clients, comet_home / "ana")
    bob = client(server, clients, comet_home / "bob")
    hers = ana.apply(Remember(text="Ana's rule: squash before merging", scope="global")).id
    forgotten = ana.apply(Remember(text="Ana's forgotten rule")).id
    ana.apply(Forget(forgotten))
    bob.apply(Remember(text="Bob's rule: rebase before merging", scope="global"))

    for record_id in (hers, forgotten):
        with pytest.raises(NotFoundError):
            bob.query(Query(ids=(record_id,), include_forgotten=True))
        for change in (Correct(record_id, text="taken over"), Forget(record_id), Forget(record_id, True)):
            with pytest.raises(NotFoundError):
                bob.apply(change)
    listed = bob.query(Query(include_forgotten=True, text="rule")).records
    assert [v.as_dict()["text"] for v in listed] == ["Bob's rule: rebase before merging"]
    assert not bob.query(Query(similar="squash before merging")).records or all(
        "Ana" not in v.as_dict()["text"] for v in bob.query(Query(similar="squash before merging")).records
    )
    assert not bob.query(Query(forgotten_text="Ana's forgotten rule", scopes=("project",))).forgotten
    assert all(f.text.count("Ana") == 0 for f in bob.query(Query(export=True)).archive)
    # The same statement is a record of each user: remembering it is no duplicate across users.
    assert bob.apply(Remember(text="Ana's rule: squash before merging", scope="global")).action == "created"
    assert ana.query(Query(ids=(hers,))).records[0].as_dict()["text"] == "Ana's rule: squash before merging"


def test_status_names_the_database_not_its_host(
    server: Server, clients: list[RemoteProvider], comet_home: Path
) -> None:
    report = client(server, clients, comet_home).status()
    paths = [store.path for store in report.stores]
    assert paths and all(path.startswith("postgresql:") for path in paths)
    shown = json.dumps([report.index, paths])
    assert "127.0.0.1" not in shown and "postgres@" not in shown


def test_of_two_corrections_on_one_version_the_database_lets_one_win(
    server: Server, clients: list[RemoteProvider], comet_home: Path
) -> None:
    name = f"racer{next(USERS)}"
    first = client(server, clients, comet_home / "one", user=name)
    second = client(server, clients, comet_home / "two", user=name)
    record_id = first.apply(Remember(text="Squash before merging")).id
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def correct(provider: RemoteProvider, text: str) -> None:
        start.wait()
        try:
            outcomes.append(provider.apply(Correct(record_id, text=text, base_version=1)).action)
        except ConcurrentEditError:
            outcomes.append("refused")

    racers = [
        threading.Thread(target=correct, args=(p, t)) for p, t in ((first, "Rebase"), (second, "Merge"))
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert sorted(outcomes) == ["corrected", "refused"]
    found = first.query(Query(ids=(record_id,), with_history=True))
    assert found.records[0].as_dict()["version"] == 2
    assert [entry["version"] for entry in found.history[record_id]] == [1, 2]


def test_remembering_at_once_makes_one_record(
    server: Server, clients: list[RemoteProvider], comet_home: Path
) -> None:
    name = f"twin{next(USERS)}"
    machines = [client(server, clients, comet_home / f"m{n}", user=name) for n in range(4)]
    start = threading.Barrier(len(machines))
    ids: list[str] = []

    def remember(provider: RemoteProvider) -> None:
        start.wait()
        ids.append(provider.apply(Remember(text="Run the linter before committing")).id)

    threads = [threading.Thread(target=remember, args=(m,)) for m in machines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(ids)) == 1 and len(machines[0].query(Query()).records) == 1


def rows_holding(url: str, text: str) -> list[str]:
    """The tables any of whose rows holds `text` (each row as its text)."""
    with psycopg.connect(url) as connection:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            )
        ]
        return [
            table
            for table in tables
            if connection.execute(
                f"SELECT count(*) FROM {table} t WHERE strpos(t::text, %s) > 0", (text,)
            ).fetchone()
            != (0,)
        ]


def test_a_permanent_forget_leaves_no_trace_in_any_table(
    server: Server, clients: list[RemoteProvider], comet_home: Path
) -> None:
    assert server.database is not None
    remote = client(server, clients, comet_home)
    record_id = remote.apply(Remember(text="The staging password is hunter2-zebra", scope="global")).id
    remote.apply(Correct(record_id, text="The staging password is hunter3-zebra"))
    assert rows_holding(server.database, "zebra")  # the content is there before
    remote.apply(Forget(record_id))
    remote.apply(Forget(record_id, permanent=True))
    assert rows_holding(server.database, "zebra") == []
    assert rows_holding(server.database, record_id) == ["tombstones"]  # its id and content hash only
    with pytest.raises(NotFoundError, match="forgotten permanently"):  # and no rollback is offered
        remote.query(Query(scopes=("global",), ids=(record_id,)))
    assert remote.query(
        Query(scopes=("global",), forgotten_text="The staging password is hunter3-zebra")
    ).forgotten


# -- migrations and a bad database --------------------------------------------------------------


def schema_versions(url: str) -> list[int]:
    with psycopg.connect(url) as connection:
        return [row[0] for row in connection.execute("SELECT version FROM schema_migrations ORDER BY 1")]


def test_migrate_applies_once_and_check_says_when_one_is_pending(postgres: Any) -> None:
    url = postgres.create_database(f"migrations_{next(USERS)}")
    pending = run_comet("serve", "migrate", "--check", "--database", url, "--json")
    every = ["0001_initial", "0002_listing_filters", "0003_candidate_indexes", "0004_server_settings"]
    assert pending.exit_code == 1 and json.loads(pending.stdout)["pending"] == every
    assert "comet serve migrate" in pending.stderr
    # Two at once (servers starting together): the advisory lock lets one apply, the other finds it done.
    both = [
        subprocess.Popen(
            [*installed(), "serve", "migrate", "--database", url, "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    applied = [json.loads(process.communicate(timeout=60)[0])["applied"] for process in both]
    assert sorted(applied) == [[], every]
    assert schema_versions(url) == [1, 2, 3, 4]
    again = run_comet("serve", "migrate", "--check", "--database", url)
    assert again.exit_code == 0 and "up to date" in again.stdout


def test_terms_made_by_another_tokenizer_are_made_again_when_a_server_starts(
    postgres: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # After an upgrade whose vocabulary differs, a record's stored terms lack the new concepts:
    # the server derives them again, once, before it serves (reading the records a batch at a time).
    from comet_git.server.postgres import provider as postgres_provider
    from comet_git.server.postgres.backend import PostgresBackend

    monkeypatch.setattr(postgres_provider, "REFRESH_BATCH", 2)
    url = postgres.create_database(f"tokenizer_{next(USERS)}")
    backend = PostgresBackend(url, workers=1)
    others = [f"Name the {thing} after what it holds." for thing in ("table", "queue", "bucket", "topic")]
    try:
        provider = backend.provider_for("ana", PROJECT)
        for text in ["Every page must pass the WCAG checks.", *others]:
            provider.apply(Remember(text=text, scope="project"))
    finally:
        backend.close()
    with psycopg.connect(url) as connection:
        connection.execute("UPDATE server_settings SET value = 'an older tokenizer'")
        connection.execute("UPDATE records SET terms = 'stale', terms_vector = ''::tsvector")
        connection.execute("DELETE FROM postings")
    backend = PostgresBackend(url, workers=1)
    try:
        found = backend.provider_for("ana", PROJECT).query(Query(text="accessibility")).records
        assert [r.as_dict()["text"] for r in found] == ["Every page must pass the WCAG checks."]
        named = backend.provider_for("ana", PROJECT).query(Query(text="holds")).records
        assert sorted(r.as_dict()["text"] for r in named) == sorted(others)
    finally:
        backend.close()
    with psycopg.connect(url) as connection:
        assert connection.execute("SELECT count(*) FROM postings").fetchone() != (0,)


def installed() -> list[str]:
    from tests.clihelp import installed_comet

    return [installed_comet()]


def test_tokens_live_in_the_database(postgres: Any) -> None:
    url = postgres.create_database(f"tokens_{next(USERS)}")
    made = run_comet("serve", "token", "create", "--user", "ana", "--json", env={"COMET_DATABASE_URL": url})
    assert made.exit_code == 0, made.stderr
    token = made.json()
    listed = run_comet("serve", "token", "list", "--database", url, "--json").json()["tokens"]
    assert [(t["id"], t["user"]) for t in listed] == [(token["id"], "ana")]
    with psycopg.connect(url) as connection:
        stored = connection.execute("SELECT digest FROM tokens").fetchall()
    assert token["token"] not in json.dumps(stored)  # an HMAC of it, never the token
    assert run_comet("serve", "token", "revoke", token["id"], "--database", url).exit_code == 0
    assert run_comet("serve", "token", "list", "--database", url, "--json").json()["tokens"] == []


def test_a_revoked_token_is_refused_by_a_running_server(server: Server) -> None:
    token = server.token(f"short{next(USERS)}")
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    body = json.dumps({"schema": "comet.provider/v1"}).encode()
    assert server.request("POST", "/v1/status", body, headers)[0] == 200
    token_id = token.split("_")[1]
    assert run_comet("serve", "token", "revoke", token_id, *server.backend_args).exit_code == 0
    assert server.request("POST", "/v1/status", body, headers)[0] == 401


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mysql://root@localhost/comet", "is not a PostgreSQL URL"),
        ("postgresql://nobody@127.0.0.1:1/comet", "cannot reach the database"),
    ],
)
def test_a_bad_database_is_a_clear_error(url: str, said: str, tmp_path: Path) -> None:
    for args in (
        ("serve", "migrate", "--database", url),
        ("serve", "token", "create", "--user", "ana", "--database", url),
        ("serve", "--port", str(free_port()), "--database", url),
    ):
        result = run_comet(*args)
        assert result.exit_code == 1, (args, result.stdout, result.stderr)
        assert said in result.stderr and "Traceback" not in result.stderr, result.stderr


def test_migrate_without_a_database_says_how_to_give_one() -> None:
    result = run_comet("serve", "migrate", env={"COMET_DATABASE_URL": ""})
    assert (
        result.exit_code == 1 and "COMET_DATABASE_URL" in result.stderr and "Traceback" not in result.stderr
    )


def test_the_password_never_reaches_a_message() -> None:
    result = run_comet("serve", "migrate", "--database", "postgresql://ana:s3cret-pw@127.0.0.1:1/comet")
    assert result.exit_code == 1 and "s3cret-pw" not in result.stderr and "***" in result.stderr


def test_psycopg_is_imported_only_for_a_database() -> None:
    """The embedded backend, the CLI and the Remote client never load the PostgreSQL driver."""
    probe = (
        "import sys, comet_git.cli, comet_git.server.app, comet_git.server.run, comet_git.commands.serve;"
        " from comet_git.commands.serve import token_store; import pathlib;"
        " token_store(pathlib.Path('unused'), None).__enter__();"
        " print(sorted(m for m in sys.modules if m.startswith(('psycopg', 'comet_git.server.postgres'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
