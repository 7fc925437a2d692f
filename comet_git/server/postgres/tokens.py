"""The service's tokens in PostgreSQL: as server/tokens.py keeps them in a file (an HMAC of each
token under a server key that never leaves the server), in the tables `tokens` and `server_key`.
Every request reads its token's row, so a revocation holds from the next request on."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import TYPE_CHECKING, Any

from comet_git.errors import NotFoundError
from comet_git.records.model import utc_now
from comet_git.server.postgres.database import unavailable
from comet_git.server.tokens import TOKEN_PATTERN, TokenEntry, check_user, new_token

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    import psycopg


class PostgresTokenStore:
    def __init__(self, connect: Callable[[], AbstractContextManager[psycopg.Connection[Any]]]) -> None:
        self.connect = connect  # a connection in autocommit mode (the pool's, or one of its own)
        self._key: bytes | None = None

    def _server_key(self, connection: psycopg.Connection[Any]) -> bytes:
        if self._key is None:
            connection.execute(
                "INSERT INTO server_key (key) VALUES (%s) ON CONFLICT DO NOTHING", (secrets.token_bytes(32),)
            )
            row = connection.execute("SELECT key FROM server_key").fetchone()
            assert row is not None  # inserted just above, or there already
            self._key = bytes(row[0])
        return self._key

    def _digest(self, connection: psycopg.Connection[Any], token: str) -> str:
        return hmac.new(self._server_key(connection), token.encode("ascii"), hashlib.sha256).hexdigest()

    def entries(self) -> dict[str, TokenEntry]:
        with self.connect() as connection:
            rows = connection.execute(
                "SELECT id, owner, digest, created_at FROM tokens ORDER BY created_at, id"
            )
            return {row[0]: TokenEntry(*row) for row in rows}

    def create(self, user: str) -> tuple[str, TokenEntry]:
        check_user(user)
        token_id, token = new_token()
        with self.connect() as connection:
            entry = TokenEntry(token_id, user, self._digest(connection, token), utc_now())
            connection.execute(
                "INSERT INTO tokens (id, owner, digest, created_at) VALUES (%s, %s, %s, %s)", tuple(entry)
            )
        return token, entry

    def revoke(self, token_id: str) -> TokenEntry:
        with self.connect() as connection:
            row = connection.execute(
                "DELETE FROM tokens WHERE id = %s RETURNING id, owner, digest, created_at", (token_id,)
            ).fetchone()
        if row is None:
            raise NotFoundError(
                f"no token {token_id}", hint="`comet serve token list` shows the ids of the tokens"
            )
        return TokenEntry(*row)

    def user_of(self, token: str) -> str | None:
        import psycopg

        match = TOKEN_PATTERN.match(token)
        if match is None:
            return None
        try:
            with self.connect() as connection:
                row = connection.execute(
                    "SELECT owner, digest FROM tokens WHERE id = %s", (match.group(1),)
                ).fetchone()
                if row is None or not hmac.compare_digest(row[1], self._digest(connection, token)):
                    return None
        except psycopg.OperationalError as error:
            raise unavailable(error) from None
        return str(row[0])
