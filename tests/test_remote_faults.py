"""The Remote provider against servers that misbehave: a tiny fake on 127.0.0.1 in a thread plays
the server (or the proxy in front of it), and the real `comet` is the client.

A server that sends slowly cannot hold `comet task` past `memory.remote.timeout`; what a server
says never reaches the terminal as control characters; and an answer that is not the contract's
(an HTML page, nothing, `null`) says that what answered is not `comet serve`."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.clihelp import Result, invoke, run_comet

TOKEN = "comet_000000000000_" + "x" * 43
# What a terminal acts on: C0 and C1 control characters (a line break of comet's own report aside).
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")

Reply = Callable[[socket.socket], None]


def _read_request(connection: socket.socket) -> None:
    """The whole request, so that closing the connection resets nothing the client still reads."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            return
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    wanted = int(length.group(1)) if length else 0
    while len(body) < wanted:
        chunk = connection.recv(65536)
        if not chunk:
            return
        body += chunk


@contextlib.contextmanager
def fake_server(reply: Reply) -> Iterator[str]:
    """Answers every request on its connection with `reply`; its URL."""
    stopping = threading.Event()

    def answer(connection: socket.socket) -> None:
        with connection, contextlib.suppress(OSError):
            connection.settimeout(30)
            _read_request(connection)
            reply(connection)

    def serve(listener: socket.socket) -> None:
        while not stopping.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=answer, args=(connection,), daemon=True).start()

    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(0.05)
        thread = threading.Thread(target=serve, args=(listener,), daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{listener.getsockname()[1]}"
        finally:
            stopping.set()
            thread.join(5)


def answer_with(status: str, body: bytes, content_type: str = "application/json") -> Reply:
    def reply(connection: socket.socket) -> None:
        head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
        connection.sendall(head.encode() + b"Connection: close\r\n\r\n" + body)

    return reply


def use_remote(url: str, monkeypatch: pytest.MonkeyPatch, timeout: str | None = None) -> None:
    """This test's COMET_HOME set to the remote provider at `url`."""
    monkeypatch.setenv("COMET_REMOTE_TOKEN", TOKEN)
    settings = [("memory.provider", "remote"), ("memory.remote.url", url)]
    for key, value in settings + ([("memory.remote.timeout", timeout)] if timeout else []):
        assert invoke("config", "set", "--global", key, value).exit_code == 0


# -- 1. a deadline on the whole exchange -------------------------------------------------------


class Dripping:
    """Sends `head`, then `tail` one byte every 0.2 s (4 s in all: longer than the client waits)."""

    def __init__(self, head: bytes, tail: bytes) -> None:
        self.head, self.tail = head, tail
        self.client_hung_up = threading.Event()

    def __call__(self, connection: socket.socket) -> None:
        connection.sendall(self.head)
        try:
            for byte in self.tail:
                time.sleep(0.2)
                connection.sendall(bytes([byte]))
        except OSError:
            self.client_hung_up.set()


SLOW_BODY = Dripping(
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", b" " * 20
)
SLOW_HEADERS = Dripping(b"HTTP/1.1 200 OK\r\n", b"X-Padding: " + b"x" * 9)


@pytest.mark.parametrize(
    ("dripping", "said"),
    [(SLOW_BODY, "no complete answer within 0.5 s"), (SLOW_HEADERS, "no answer within 0.5 s")],
    ids=["body", "headers"],
)
def test_a_server_that_sends_slowly_cannot_hold_task_past_the_timeout(
    repo: Path, monkeypatch: pytest.MonkeyPatch, dripping: Dripping, said: str
) -> None:
    dripping.client_hung_up.clear()
    with fake_server(dripping) as url:
        use_remote(url, monkeypatch, timeout="0.5")
        answer = run_comet("task", "--task", "x", "--json", cwd=repo)
        assert answer.exit_code == 0, answer.stderr
        data = answer.json()
        assert (data["retrieval"], data["provider"]["state"]) == ("failed", "unreachable")
        assert said in data["diagnostics"][0]
        # The client went away while the server still had bytes to send (each 0.2 s apart).
        assert dripping.client_hung_up.wait(2)


# -- 2. what a server says is shown, never acted on by the terminal ----------------------------

HOSTILE = "\x1b[2J\x1b]0;title\x07 then\x00 a\x9b C1\x7f and a lone \ud800"


def calm_failure(result: Result) -> None:
    assert result.exit_code == 1, result.stdout
    assert "Traceback" not in result.stderr
    assert not CONTROL.findall(result.stderr), repr(result.stderr)


def test_an_error_from_the_server_is_shown_escaped_and_as_the_server_s(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    error = {"kind": "not-found", "message": f"no such record {HOSTILE}", "hint": f"try {HOSTILE}"}
    body = json.dumps({"schema": "comet.provider/v1", "error": error}).encode()
    with fake_server(answer_with("404 Not Found", body)) as url:
        use_remote(url, monkeypatch)
        result = run_comet("memory", "remember", "--text", "Use tabs", cwd=repo)
    calm_failure(result)
    assert f"the memory server at {url} says: no such record \\x1b[2J\\x1b]0;title\\x07" in result.stderr
    assert "\\x00 a\\x9b C1\\x7f and a lone \\ud800" in result.stderr
    assert "  hint: try \\x1b[2J" in result.stderr


def test_a_garbled_status_line_is_shown_escaped(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def garbled(connection: socket.socket) -> None:
        connection.sendall(b"HTTP/1.1 2\x00\xff\x1b[2J\x1b]0;title\x07\r\n\r\n")

    with fake_server(garbled) as url:
        use_remote(url, monkeypatch)
        result = run_comet("memory", "remember", "--text", "Use tabs", cwd=repo)
    calm_failure(result)
    assert f"remote memory {url}: unreachable" in result.stderr
    assert "BadStatusLine: HTTP/1.1 2\\x00ÿ\\x1b[2J\\x1b]0;title\\x07" in result.stderr


# -- 3. an answer that is not the contract's is not a version mismatch ------------------------


@pytest.mark.parametrize(
    ("body", "content_type"),
    [(b"<!doctype html><html><body>Welcome to nginx!</body></html>", "text/html"), (b"", "text/plain"),
     (b"null", "application/json"), (b"[1, 2]", "application/json")],
    ids=["html", "empty", "null", "array"],
)  # fmt: skip
def test_a_200_that_is_not_the_contract_s_is_not_comet_serve(
    repo: Path, monkeypatch: pytest.MonkeyPatch, body: bytes, content_type: str
) -> None:
    with fake_server(answer_with("200 OK", body, content_type)) as url:
        use_remote(url, monkeypatch)
        listed = invoke("memory", "list", repo)
        answer = invoke("task", repo, "--task", "anything", "--json")
    assert listed.exit_code == 1
    assert (
        f"remote memory {url}: unreachable: HTTP 200 from something that is not comet serve" in listed.stderr
    )
    assert "memory.remote.url" in listed.stderr and "version-mismatch" not in listed.stderr
    assert answer.exit_code == 0
    assert (answer.json()["retrieval"], answer.json()["provider"]["state"]) == ("failed", "unreachable")


def test_another_contract_version_is_still_a_version_mismatch(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = json.dumps({"schema": "comet.provider/v2", "records": []}).encode()
    with fake_server(answer_with("200 OK", body)) as url:
        use_remote(url, monkeypatch)
        listed = invoke("memory", "list", repo)
    assert listed.exit_code == 1 and "version-mismatch" in listed.stderr and "upgrade" in listed.stderr
