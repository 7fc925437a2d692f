"""The memory service over PostgreSQL: the migrations applied, a pool of connections, a
PostgresProvider per request."""

from __future__ import annotations

from urllib.parse import urlsplit

from comet_git.provider import Provider
from comet_git.server.postgres.database import migrate, open_pool
from comet_git.server.postgres.provider import PostgresProvider, refresh_terms
from comet_git.server.postgres.tokens import PostgresTokenStore

# Store calls at once: the database does most of each one's work, and psycopg lets go of the
# GIL while it waits on it, so more threads than the embedded backend's keep the database busy.
DATABASE_WORKERS = 8


class PostgresBackend:
    tokens_wait = True

    def __init__(self, url: str, workers: int = DATABASE_WORKERS) -> None:
        self.workers = workers
        # What status tells clients about where their memory is: the database's name, not its
        # host or user (the server's business).
        self.where = "postgresql:" + urlsplit(url).path.lstrip("/")
        self.pool = open_pool(url, size=workers + 2)  # and the token look-ups on the event loop's side
        with self.pool.connection() as connection:
            migrate(connection)  # under the migrations' advisory lock: servers starting at once agree
            refresh_terms(connection)  # once after an upgrade whose vocabulary differs
        self.tokens = PostgresTokenStore(self.pool.connection)

    def provider_for(self, user: str, project: str | None) -> Provider:
        return PostgresProvider(self.pool, user, project, self.where)

    def close(self) -> None:
        self.pool.close()
