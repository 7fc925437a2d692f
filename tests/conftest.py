"""Shared fixtures: every test runs with a private COMET_HOME, a pinned git
identity, and a HOME that cannot be written to (not even by root)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.gitutil import git, make_repo
from tests.serving import Server


class YouTouchedTheRealHome(AssertionError):
    """A test reached for the user's real data directory."""


@pytest.fixture(autouse=True)
def isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    # A HOME below a regular file: any attempt to create something there fails
    # with ENOTDIR, which holds even when the tests run as root (CI does).
    blocker = tmp_path / "home-is-a-file"
    blocker.write_text("tests must not write into HOME\n")
    monkeypatch.setenv("HOME", str(blocker / "home"))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "COMET_DISABLE", "CODEX_HOME"):
        monkeypatch.delenv(name, raising=False)
    comet_home = tmp_path / "comet-home"
    monkeypatch.setenv("COMET_HOME", str(comet_home))
    # Each call in its own process: a warm process per test would outlive it by ten minutes.
    # tests/test_warm.py turns it on, and checks that it answers as the call would by itself.
    monkeypatch.setenv("COMET_WARM", "0")
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "gitconfig"))
    (tmp_path / "gitconfig").write_text(
        "[user]\n\tname = Test User\n\temail = test.user@example.com\n"
        "[init]\n\tdefaultBranch = main\n"
        '[protocol "file"]\n\tallow = always\n'
    )
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "Test User")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "test.user@example.com")

    import comet_git.store

    def refuse() -> Path:
        raise YouTouchedTheRealHome("set COMET_HOME in the test")

    monkeypatch.setattr(comet_git.store, "default_home", refuse)
    yield comet_home


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A real git repository with one commit and an origin remote."""
    path = make_repo(tmp_path / "repo", remote="https://example.com/acme/app.git")
    return path


@pytest.fixture
def comet_home(isolated_environment: Path) -> Path:
    return isolated_environment


__all__ = ["git"]


@pytest.fixture(scope="session")
def postgres() -> Iterator[object]:
    """One throwaway PostgreSQL server per test session (per xdist worker): tests/pgserver.py."""
    import shutil
    import tempfile

    from tests.pgserver import PostgresServer

    # Not below pytest's tmp_path: as root, the server runs as `postgres`, which cannot enter it.
    root = Path(tempfile.mkdtemp(prefix="comet-pg-"))
    server = PostgresServer(root).start()
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


DATABASES = itertools.count()


@pytest.fixture(scope="module")
def pg_database(postgres: Any, request: pytest.FixtureRequest) -> str:
    """An empty database of the session's PostgreSQL server for one test module; its URL."""
    module = request.module.__name__.rsplit(".", 1)[-1]
    return str(postgres.create_database(f"{module}_{next(DATABASES)}"))


@pytest.fixture(scope="module", params=["embedded", "postgres"])
def server(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Server]:
    """A `comet serve` on loopback for one test module, on each backend: its embedded stores
    (--data), and PostgreSQL (--database)."""
    database = request.getfixturevalue("pg_database") if request.param == "postgres" else None
    running = Server(tmp_path_factory.mktemp("serve") / "data", database=database).start()
    yield running
    running.stop()
