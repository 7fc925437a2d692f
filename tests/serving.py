"""A real `comet serve` for tests: the venv's console script on 127.0.0.1, a free port."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.clihelp import installed_comet, run_comet

START_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """`comet serve` over its embedded backend (`data`), or over PostgreSQL (`database`, a URL)."""

    def __init__(self, data: Path, port: int | None = None, database: str | None = None) -> None:
        self.data = data
        self.port = port or free_port()
        self.database = database
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data.parent / f"{data.name}.log"

    @property
    def backend_args(self) -> list[str]:
        return ["--database", self.database] if self.database else ["--data", str(self.data)]

    def create_token(self, user: str) -> str:
        """A token for `user`, made in this process (faster than `token`, which runs the CLI)."""
        if self.database is None:
            from comet_git.server.tokens import TokenStore

            return TokenStore(self.data).create(user)[0]
        import contextlib

        import psycopg

        from comet_git.server.postgres.tokens import PostgresTokenStore

        with psycopg.connect(self.database, autocommit=True) as connection:
            return PostgresTokenStore(lambda: contextlib.nullcontext(connection)).create(user)[0]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {**os.environ, "COMET_HOME": str(self.data.parent / "server-home")}
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [installed_comet(), "serve", "--port", str(self.port), *self.backend_args],
                stdout=log,
                stderr=log,
                env=env,
            )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"comet serve exited: {self.log.read_text()}")
            try:
                if self.request("GET", "/v1/health")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"comet serve did not answer within {START_SECONDS} s: {self.log.read_text()}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)
        self.process = None

    def token(self, user: str) -> str:
        result = run_comet("serve", "token", "create", "--user", user, *self.backend_args, "--json")
        assert result.exit_code == 0, result.stderr
        token: str = result.json()["token"]
        return token

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        return response.status, json.loads(raw) if raw else None
