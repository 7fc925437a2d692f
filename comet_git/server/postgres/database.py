"""The connection to PostgreSQL and the schema's migrations.

Migrations are the versioned SQL files of migrations/ (NNNN_name.sql), owned by the project.
Each is applied once, in its own transaction, and recorded in schema_migrations; they run
under an advisory lock, so that two servers starting at once apply each exactly once."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from importlib import resources
from typing import TYPE_CHECKING, Any, NamedTuple

from comet_git.errors import CometError, StoreError

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

MIGRATION_NAME = re.compile(r"\A(\d{4})_([a-z0-9_]+)\.sql\Z")
# pg_advisory_lock's key for the migrations: any constant the service alone uses ("comet" in ASCII).
MIGRATION_LOCK = 0x636F6D6574
CONNECT_SECONDS = 10.0
ENVIRONMENT = "COMET_DATABASE_URL"


class Migration(NamedTuple):
    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The project's migrations, oldest first."""
    found = []
    for item in resources.files("comet_git.server.postgres").joinpath("migrations").iterdir():
        match = MIGRATION_NAME.match(item.name)
        if match is not None:
            found.append(Migration(int(match.group(1)), match.group(2), item.read_text(encoding="utf-8")))
    return sorted(found)


def psycopg_module() -> Any:
    try:
        import psycopg
        import psycopg_pool  # noqa: F401  (the pool is needed by the same servers)
    except ImportError as error:
        raise CometError(
            f"--database needs the postgres extra ({error.name} is missing)",
            hint="install it: pip install '.[postgres]' in a checkout of this repository",
        ) from None
    return psycopg


def check_url(url: str) -> str:
    if not url.startswith(("postgresql://", "postgres://")):
        raise CometError(
            f"--database {redacted(url)!r} is not a PostgreSQL URL",
            hint="pass postgresql://USER@HOST:PORT/DATABASE (or set COMET_DATABASE_URL)",
        )
    return url


def redacted(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


def unreachable(url: str, error: Exception) -> StoreError:
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return StoreError(
        f"cannot reach the database {redacted(url)}: {reason}",
        hint="check that PostgreSQL runs there and the URL (user, password, host, port, database) is right",
    )


def unavailable(error: Exception) -> StoreError:
    """A running server's database failing a request (503: the client may try again)."""
    return StoreError(
        f"the database is unreachable: {str(error).strip()[:200]}",
        hint="the service's PostgreSQL is down or overloaded; try again",
    )


@contextlib.contextmanager
def connection(url: str) -> Iterator[psycopg.Connection[Any]]:
    """One connection of its own (the commands: migrate, token), errors made clear."""
    psycopg = psycopg_module()
    try:
        opened = psycopg.connect(check_url(url), connect_timeout=int(CONNECT_SECONDS), autocommit=True)
    except psycopg.Error as error:
        raise unreachable(url, error) from None
    try:
        with opened:
            yield opened
    except psycopg.OperationalError as error:
        raise unreachable(url, error) from None


def open_pool(url: str, size: int) -> ConnectionPool[Any]:
    """The server's connection pool, opened and checked (a bad URL fails here, at start)."""
    psycopg = psycopg_module()
    from psycopg_pool import ConnectionPool, PoolTimeout

    # One connection first: a refused one fails at once, where the pool would keep trying for
    # CONNECT_SECONDS before it gave up.
    with connection(url):
        pass
    pool: ConnectionPool[Any] = ConnectionPool(
        check_url(url), min_size=1, max_size=size, open=False, timeout=CONNECT_SECONDS,
        kwargs={"connect_timeout": int(CONNECT_SECONDS), "autocommit": True},
    )  # fmt: skip
    try:
        pool.open(wait=True, timeout=CONNECT_SECONDS)
    except (PoolTimeout, psycopg.Error) as error:
        pool.close()
        raise unreachable(url, error) from None
    return pool


def applied(connection: psycopg.Connection[Any]) -> set[int]:
    exists = connection.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    if not exists or not exists[0]:
        return set()
    return {row[0] for row in connection.execute("SELECT version FROM schema_migrations")}


def pending(connection: psycopg.Connection[Any]) -> list[Migration]:
    done = applied(connection)
    return [migration for migration in migrations() if migration.version not in done]


def migrate(connection: psycopg.Connection[Any]) -> list[Migration]:
    """Apply the pending migrations (each in a transaction of its own); the ones applied.
    `connection` is in autocommit mode: the lock is the session's, each migration a transaction."""
    connection.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        with connection.transaction():
            connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
        done = applied(connection)  # read under the lock: another server may have applied some
        ran = []
        for migration in migrations():
            if migration.version in done:
                continue
            with connection.transaction():
                connection.execute(migration.sql.encode("utf-8"))  # the project's own SQL, several statements
                connection.execute(
                    "INSERT INTO schema_migrations(version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )
            ran.append(migration)
        return ran
    finally:
        connection.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
