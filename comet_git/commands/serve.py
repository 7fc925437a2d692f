"""comet serve token create | list | revoke: who may reach the memory service."""

from __future__ import annotations

from pathlib import Path

from comet_git.commands import Output
from comet_git.server.tokens import TokenStore
from comet_git.store import Home

TOKEN_SCHEMA = "comet.serve-token/v1"
TOKENS_SCHEMA = "comet.serve-tokens/v1"


def default_data() -> Path:
    """Where the service keeps its users' stores unless --data says otherwise."""
    return Home.from_environment().root / "server"


def create_token(data: Path, user: str) -> Output:
    token, entry = TokenStore(data).create(user)
    text = (
        f"{token}\n"
        f"(token {entry.id} for user {entry.user}: shown once, the server keeps only its hash;"
        f" clients set COMET_REMOTE_TOKEN to it)\n"
    )
    return Output({"token": token, "id": entry.id, "user": entry.user}, text)


def list_tokens(data: Path) -> Output:
    entries = [entry.to_json() for entry in TokenStore(data).entries().values()]
    lines = [f"{item['id']}  {item['user']}  created {item['createdAt']}" for item in entries]
    return Output({"schema": TOKENS_SCHEMA, "tokens": entries}, "\n".join(lines or ["no tokens yet"]) + "\n")


def revoke_token(data: Path, token_id: str) -> Output:
    entry = TokenStore(data).revoke(token_id)
    return Output(
        {"schema": TOKEN_SCHEMA, "revoked": entry.to_json()},
        f"revoked token {entry.id} of user {entry.user}: it is refused from the next request on\n",
    )
