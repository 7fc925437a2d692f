"""Running the real `comet dashboard` in tests: a server on 127.0.0.1, its launch URL, and plain HTTP."""

from __future__ import annotations

import http.client
import json
import selectors
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.clihelp import installed_comet, run_comet


@dataclass
class Dashboard:
    url: str  # the launch URL, with its token
    process: subprocess.Popen[str]

    @property
    def port(self) -> int:
        port = urlsplit(self.url).port
        assert port is not None
        return port

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def token(self) -> str:
        return urlsplit(self.url).query.removeprefix("token=")

    def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: str | None = None
    ) -> tuple[int, dict[str, str], str]:
        """One raw HTTP request (no browser rules applied): status, headers (lower-case), body."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
        finally:
            connection.close()


@contextmanager
def running_dashboard(repo: Path, *extra: str) -> Iterator[Dashboard]:
    process = subprocess.Popen(
        [installed_comet(), "dashboard", str(repo), "--no-browser", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield Dashboard(_first_line(process), process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        errors = process.stderr.read()
        process.stderr.close()
        assert "Traceback" not in errors, errors


def _first_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    with selectors.DefaultSelector() as waiting:
        waiting.register(process.stdout, selectors.EVENT_READ)
        if not waiting.select(timeout=60):
            raise AssertionError("comet dashboard printed no URL within 60 s")
    line = process.stdout.readline().strip()
    assert line.startswith("http://127.0.0.1:"), (line, process.stderr and process.stderr.read())
    return line


def remember(repo: Path, *args: str) -> dict[str, Any]:
    done = run_comet("memory", "remember", str(repo), *args, "--json")
    assert done.exit_code == 0, done.stderr
    record: dict[str, Any] = done.json()["record"]
    return record


def show(repo: Path, record_id: str) -> dict[str, Any]:
    done = run_comet("memory", "show", str(repo), "--id", record_id, "--json")
    assert done.exit_code == 0, done.stderr
    record: dict[str, Any] = done.json()["record"]
    return record


def apply_delta(repo: Path, tmp_path: Path, *deltas: dict[str, Any]) -> list[dict[str, Any]]:
    document = tmp_path / "delta.json"
    document.write_text(json.dumps({"schema": "comet.learning-delta/v1", "deltas": list(deltas)}))
    done = run_comet("memory", "apply", str(repo), "--delta", str(document), "--json")
    assert done.exit_code == 0, done.stderr
    results: list[dict[str, Any]] = done.json()["results"]
    return results
