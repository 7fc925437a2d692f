"""The Remote provider: the provider contract over HTTP, against a `comet serve`.

With it the machine's memory is the server's: nothing is read from or written to the
local store, and a server that is down, slow or refuses the token is an error that
says which (`RemoteError.state`), never a quiet fallback to local records.  The journal
stays on the machine (it is what happened here); what learning makes of it is applied
through this provider, so it lands on the server.

The standard library's http.client does the HTTP: one keep-alive connection per
provider, no dependency on the agent's hot path.  Each exchange has one deadline for all of
it, connecting, sending and reading the answer: a socket's own timeout holds for one read
only, and a server that sends a byte at a time never trips it.
"""

from __future__ import annotations

import functools
import http.client
import io
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast
from urllib.parse import urlsplit

from comet_git.errors import CometError, printable
from comet_git.provider import PROVIDER_SCHEMA, Change, ChangeResult, Query, QueryResult, StatusReport, wire

if TYPE_CHECKING:
    import socket

    from _typeshed import WriteableBuffer

    from comet_git.store import Home, ScopeStore

T = TypeVar("T")
TOKEN_VARIABLE = "COMET_REMOTE_TOKEN"
DEFAULT_TIMEOUT = 2.0  # seconds: what `comet task` waits at most (memory.remote.timeout)
COMMAND_TIMEOUT = 30.0  # seconds: explicit commands may wait for a busy server this long

UNREACHABLE = "unreachable"
UNAUTHORISED = "unauthorised"
VERSION_MISMATCH = "version-mismatch"


class RemoteError(CometError):
    """The memory service did not answer as the contract says; nothing was changed here."""

    def __init__(self, state: str, url: str, message: str, hint: str | None = None) -> None:
        # The message may quote the server (a status line, a value of its answer): shown escaped.
        super().__init__(printable(f"remote memory {url}: {state}: {message}"), hint)
        self.state = state
        self.url = url

    def to_json(self) -> dict[str, Any]:
        return {"provider": "remote", "url": self.url, "state": self.state, "answered": False}


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CometError(
            f"memory.remote.url {url!r} is not an http(s) URL",
            hint="for example: comet config set --global memory.remote.url http://127.0.0.1:8765",
        )
    return url.rstrip("/")


class RemoteProvider:
    name = "remote"

    def __init__(
        self,
        home: Home,
        project_key: str | None,
        url: str,
        token: str | None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        from comet_git.provider.local import LocalProvider

        self.home = home
        self.project_key = project_key
        self.url = check_url(url)
        self.token = token
        self.timeout = timeout
        # Only for where this machine's journal is: the Local provider's stores are never read here.
        self._machine = LocalProvider(home, project_key)
        self._connection: http.client.HTTPConnection | None = None
        self.server_version: str | None = None

    # -- this machine's journal ----------------------------------------------------------

    @property
    def global_store(self) -> ScopeStore:
        return self._machine.global_store

    @property
    def project_store(self) -> ScopeStore | None:
        return self._machine.project_store

    def visible_stores(self) -> list[ScopeStore]:
        return self._machine.visible_stores()

    def store_for_scope(self, scope: str) -> ScopeStore:
        return self._machine.store_for_scope(scope)

    # -- the contract --------------------------------------------------------------------

    def status(self) -> StatusReport:
        health = self._exchange("GET", "/v1/health", None, COMMAND_TIMEOUT)
        self.server_version = printable(str(health.get("version")))
        data = self._call("/v1/status", {}, COMMAND_TIMEOUT)
        report = self._decoded_value(lambda: wire.status_from_json(data.get("status")))
        report.provider, report.home = self.name, self.url  # the server's own paths stay in `stores`
        return report

    def query(self, query: Query) -> QueryResult:
        timeout = self.timeout if query.task is not None else max(self.timeout, COMMAND_TIMEOUT)
        data = self._call("/v1/query", {"query": wire.query_to_json(query)}, timeout)
        return self._decoded_value(lambda: wire.query_result_from_json(data))

    def apply(self, change: Change) -> ChangeResult:
        data = self._call(
            "/v1/apply", {"change": wire.change_to_json(change)}, max(self.timeout, COMMAND_TIMEOUT)
        )
        return self._decoded_value(lambda: wire.change_result_from_json(data.get("result")))

    # -- HTTP ----------------------------------------------------------------------------

    def _decoded_value(self, decode: Callable[[], T]) -> T:
        try:
            return decode()
        except wire.WireError as error:
            raise self._mismatch(error.message) from None

    def _call(self, path: str, fields: dict[str, Any], timeout: float) -> dict[str, Any]:
        if not self.token:
            raise RemoteError(
                UNAUTHORISED,
                self.url,
                f"no token: {TOKEN_VARIABLE} is not set",
                hint=f"export {TOKEN_VARIABLE}=... with a token from `comet serve token create --user NAME`",
            )
        body = wire.dumps(wire.document(project=self.project_key, **fields))
        return self._exchange("POST", path, body, timeout)

    def _exchange(self, method: str, path: str, body: bytes | None, timeout: float) -> dict[str, Any]:
        status, answer = self._send(method, path, body, timeout)
        if status == 401:
            raise RemoteError(
                UNAUTHORISED,
                self.url,
                "the server refused the token",
                hint=f"check {TOKEN_VARIABLE}: `comet serve token list` on the server shows the live tokens",
            )
        try:
            data = dict(wire.parse_document(answer, f"the answer to {path}"))
        except wire.WireError as error:
            if not _speaks_the_contract(answer):  # an HTML page, nothing, `null`: a proxy, another service
                raise RemoteError(
                    UNREACHABLE,
                    self.url,
                    f"HTTP {status} from something that is not comet serve",
                    hint="check memory.remote.url (`comet config get memory.remote.url`):"
                    " it should be where `comet serve` listens",
                ) from None
            raise self._mismatch(error.message) from None
        if status != 200:
            raise self._decoded_value(lambda: wire.error_from_json(data, f"the memory server at {self.url}"))
        return data

    def _send(self, method: str, path: str, body: bytes | None, timeout: float) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        deadline = time.monotonic() + timeout  # the whole exchange, retry included: `timeout` at most
        for attempt in (1, 2):
            reused = self._connection is not None and self._connection.sock is not None
            answered = False  # the status line and headers read
            try:
                connection = self._connect(deadline)
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                answered = True
                return response.status, response.read()
            except (OSError, http.client.HTTPException) as error:
                self.close()
                # A kept-alive connection the server closed meanwhile fails at once: a new one is
                # tried, once.  A timeout is never retried.
                stale = isinstance(
                    error, (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError)
                )
                if reused and attempt == 1 and stale:
                    continue
                raise RemoteError(
                    UNREACHABLE,
                    self.url,
                    _describe(error, timeout, answered),
                    hint="is `comet serve` running there? `comet memory status` shows what it answers",
                ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _connect(self, deadline: float) -> http.client.HTTPConnection:
        """The connection, open, its socket given what is left until `deadline` for sending the
        request, and its answer read through a _DeadlineReader."""
        if self._connection is None:
            parts = urlsplit(self.url)
            factory = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
            self._connection = factory(parts.hostname or "", parts.port)
        connection = self._connection
        if connection.sock is None:
            connection.timeout = _left(deadline)
            connection.connect()
        connection.sock.settimeout(_left(deadline))
        answer = functools.partial(_DeadlineResponse, deadline=deadline)
        connection.response_class = cast("type[http.client.HTTPResponse]", answer)
        return connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __del__(self) -> None:  # callers hold a provider for one command: its connection ends with it
        self.close()

    def _mismatch(self, detail: str) -> RemoteError:
        return RemoteError(
            VERSION_MISMATCH,
            self.url,
            f"the server does not speak {PROVIDER_SCHEMA} as this client does ({detail})",
            hint="upgrade comet-git on the older side",
        )


def _left(deadline: float) -> float:
    return max(deadline - time.monotonic(), 0.001)


def _describe(error: BaseException, timeout: float, answered: bool) -> str:
    if isinstance(error, TimeoutError):
        return f"no {'complete ' if answered else ''}answer within {timeout:g} s"
    return f"{type(error).__name__}: {error}"


def _speaks_the_contract(answer: bytes) -> bool:
    """Whether an answer that did not decode is a JSON object at all: one of another version of
    the contract, or not of its shape, is a version mismatch; anything else is not comet serve."""
    return answer.lstrip().startswith(b"{")


class _DeadlineReader(io.RawIOBase):
    """An answer's bytes from the socket, each read allowed only the time left until `deadline`."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        super().__init__()
        self._sock = sock
        self._bytes = sock.makefile("rb", buffering=0)  # as http.client's own: the socket stays open for it
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int | None:
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the deadline passed")
        self._sock.settimeout(left)
        return self._bytes.readinto(buffer)

    def close(self) -> None:
        self._bytes.close()
        super().close()


class _DeadlineResponse(http.client.HTTPResponse):
    """http.client's answer, its status line, headers and body read through a _DeadlineReader."""

    def __init__(self, sock: socket.socket, *args: Any, deadline: float, **kwargs: Any) -> None:
        super().__init__(sock, *args, **kwargs)
        self.fp.close()  # http.client's own reader of the socket, before it read anything
        self.fp = io.BufferedReader(_DeadlineReader(sock, deadline))
