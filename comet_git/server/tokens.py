"""The service's tokens: one per client, for one user; the server keeps only an HMAC of each.

A token reads `comet_<id>_<secret>`.  The id finds the entry; the entry holds
HMAC-SHA256(server key, token), the server key being random bytes in `--data`
(owner-only) that never leave the server: a stolen tokens file lets nobody in.
The file is read again whenever it changes on disk, so a revocation holds from the
next request on, even for a server that is running.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any, NamedTuple

from comet_git.errors import InvalidInputError, NotFoundError
from comet_git.records.model import utc_now
from comet_git.store import atomic_write, ensure_dir, file_lock

TOKEN_PATTERN = re.compile(r"\Acomet_([0-9a-f]{12})_([A-Za-z0-9_-]{43})\Z")
USER_PATTERN = re.compile(r"\A[a-z0-9][a-z0-9._-]{0,62}\Z")
RACY_NS = 2_000_000_000  # a file time this recent may hide a later change (coarse file-system clocks)


class TokenEntry(NamedTuple):
    id: str
    user: str
    digest: str
    created_at: str

    def to_json(self) -> dict[str, Any]:
        """What `token list` shows: never the digest."""
        return {"id": self.id, "user": self.user, "createdAt": self.created_at}


def check_user(user: str) -> str:
    if not USER_PATTERN.match(user):
        raise InvalidInputError(
            f"--user {user!r} is not a user name",
            hint="lower-case letters, digits, '.', '_' and '-', starting with a letter or digit",
        )
    return user


def new_token() -> tuple[str, str]:
    """A new token's id, and the token (`comet_<id>_<secret>`)."""
    token_id = secrets.token_hex(6)
    return token_id, f"comet_{token_id}_{secrets.token_urlsafe(32)}"


class TokenStore:
    def __init__(self, data: Path) -> None:
        self.data = data
        self.path = data / "tokens.json"
        self.key_path = data / "server.key"
        # (inode, mtime, size) of the file read, its entries, and whether it was read after its
        # time had settled (see entries)
        self._cached: tuple[tuple[int, int, int], dict[str, TokenEntry], bool] | None = None
        self._key: bytes | None = None

    def _server_key(self) -> bytes:
        if self._key is None:
            ensure_dir(self.data)
            with file_lock(self.data / ".tokens.lock"):
                if not self.key_path.exists():
                    atomic_write(self.key_path, secrets.token_hex(32))
            self._key = bytes.fromhex(self.key_path.read_text(encoding="ascii").strip())
        return self._key

    def _digest(self, token: str) -> str:
        return hmac.new(self._server_key(), token.encode("ascii"), hashlib.sha256).hexdigest()

    def entries(self) -> dict[str, TokenEntry]:
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return {}
        mark = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        # A file changed within the clock's granularity of when it was read may have changed again
        # since with the same time and size (a revocation and a creation in one tick): until its
        # time is safely past, it is read each time (as git treats a "racily clean" index).
        settled = time.time_ns() - stat.st_mtime_ns > RACY_NS
        if self._cached is None or self._cached[0] != mark or not self._cached[2]:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            found = {item["id"]: TokenEntry(**item) for item in data.get("tokens", [])}
            self._cached = (mark, found, settled)
        return self._cached[1]

    def _write(self, entries: dict[str, TokenEntry]) -> None:
        listed = [entry._asdict() for entry in entries.values()]
        atomic_write(self.path, json.dumps({"tokens": listed}, indent=2) + "\n")

    def create(self, user: str) -> tuple[str, TokenEntry]:
        """A new token for `user`: the token itself is returned once and stored nowhere."""
        check_user(user)
        token_id, token = new_token()
        entry = TokenEntry(token_id, user, self._digest(token), utc_now())
        with file_lock(self.data / ".tokens.lock"):
            entries = dict(self.entries())
            entries[token_id] = entry
            self._write(entries)
        return token, entry

    def revoke(self, token_id: str) -> TokenEntry:
        with file_lock(self.data / ".tokens.lock"):
            entries = dict(self.entries())
            entry = entries.pop(token_id, None)
            if entry is None:
                raise NotFoundError(
                    f"no token {token_id}", hint="`comet serve token list` shows the ids of the tokens"
                )
            self._write(entries)
        return entry

    def user_of(self, token: str) -> str | None:
        """The user a presented token belongs to, or None for anything that is not a live token."""
        match = TOKEN_PATTERN.match(token)
        if match is None:
            return None
        entry = self.entries().get(match.group(1))
        if entry is None or not hmac.compare_digest(entry.digest, self._digest(token)):
            return None
        return entry.user
