"""comet serve token create | list | revoke, comet serve migrate: who may reach the memory
service, and its database's schema."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from comet_git.commands import Output
from comet_git.errors import CometError
from comet_git.server.tokens import TokenStore
from comet_git.store import Home

TOKEN_SCHEMA = "comet.serve-token/v1"
TOKENS_SCHEMA = "comet.serve-tokens/v1"
MIGRATIONS_SCHEMA = "comet.serve-migrations/v1"


def default_data() -> Path:
    """Where the service keeps its users' stores unless --data says otherwise."""
    return Home.from_environment().root / "server"


@contextlib.contextmanager
def token_store(data: Path, database: str | None) -> Iterator[Any]:
    """The tokens of the embedded backend (a file under `data`), or of the database (whose
    migrations are applied first, as the server applies them when it starts)."""
    if database is None:
        yield TokenStore(data)
        return
    from comet_git.server.postgres.database import connection, migrate
    from comet_git.server.postgres.tokens import PostgresTokenStore

    with connection(database) as opened:
        migrate(opened)
        yield PostgresTokenStore(lambda: contextlib.nullcontext(opened))


def create_token(data: Path, user: str, database: str | None = None) -> Output:
    with token_store(data, database) as tokens:
        token, entry = tokens.create(user)
    text = (
        f"{token}\n"
        f"(token {entry.id} for user {entry.user}: shown once, the server keeps only its hash;"
        f" clients set COMET_REMOTE_TOKEN to it)\n"
    )
    return Output({"token": token, "id": entry.id, "user": entry.user}, text)


def list_tokens(data: Path, database: str | None = None) -> Output:
    with token_store(data, database) as tokens:
        entries = [entry.to_json() for entry in tokens.entries().values()]
    lines = [f"{item['id']}  {item['user']}  created {item['createdAt']}" for item in entries]
    return Output({"schema": TOKENS_SCHEMA, "tokens": entries}, "\n".join(lines or ["no tokens yet"]) + "\n")


def revoke_token(data: Path, token_id: str, database: str | None = None) -> Output:
    with token_store(data, database) as tokens:
        entry = tokens.revoke(token_id)
    return Output(
        {"schema": TOKEN_SCHEMA, "revoked": entry.to_json()},
        f"revoked token {entry.id} of user {entry.user}: it is refused from the next request on\n",
    )


def migrate(database: str, check_only: bool) -> Output:
    """Apply the database's pending migrations; with `check_only`, list them (and fail if any)."""
    from comet_git.server.postgres import database as schema

    with schema.connection(database) as opened:
        if check_only:
            waiting = schema.pending(opened)
            names = [f"{m.version:04d}_{m.name}" for m in waiting]
            text = "\n".join(f"pending: {name}" for name in names) or "the schema is up to date"
            failure = (
                CometError(
                    f"{len(names)} migration(s) pending",
                    hint="run `comet serve migrate` (the server also does at start)",
                )
                if names
                else None
            )
            return Output(
                {"schema": MIGRATIONS_SCHEMA, "pending": names, "applied": []}, text + "\n", failure=failure
            )
        ran = [f"{m.version:04d}_{m.name}" for m in schema.migrate(opened)]
    text = "\n".join(f"applied: {name}" for name in ran) or "the schema is up to date"
    return Output({"schema": MIGRATIONS_SCHEMA, "pending": [], "applied": ran}, text + "\n")
