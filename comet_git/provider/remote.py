"""The Remote provider: the provider contract over HTTP, against a `comet serve`.

With it the machine's memory is the server's: nothing is read from or written to the
local store, and a server that is down, slow or refuses the token is an error that
says which (`RemoteError.state`), never a quiet fallback to local records.  The journal
stays on the machine (it is what happened here); what learning makes of it is applied
through this provider, so it lands on the server.

The standard library's http.client does the HTTP: one keep-alive connection per
provider, no dependency on the agent's hot path.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from comet_git.errors import CometError
from comet_git.provider import PROVIDER_SCHEMA, Change, ChangeResult, Query, QueryResult, StatusReport, wire

if TYPE_CHECKING:
    import http.client

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
        super().__init__(f"remote memory {url}: {state}: {message}", hint)
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
        self.server_version = str(health.get("version"))
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
            if status == 200 or answer.lstrip().startswith(b"{"):
                raise self._mismatch(error.message) from None
            raise RemoteError(
                UNREACHABLE, self.url, f"HTTP {status} from something that is not comet serve"
            ) from None
        if status != 200:
            raise wire.error_from_json(data)
        return data

    def _send(self, method: str, path: str, body: bytes | None, timeout: float) -> tuple[int, bytes]:
        import http.client

        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        deadline = time.monotonic() + timeout  # connecting and answering together: `timeout` at most
        for attempt in (1, 2):
            reused = self._connection is not None and self._connection.sock is not None
            connection = self._connect(_left(deadline))
            try:
                connection.request(method, path, body=body, headers=headers)
                if connection.sock is not None:
                    connection.sock.settimeout(_left(deadline))
                response = connection.getresponse()
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
                    _describe(error, timeout),
                    hint="is `comet serve` running there? `comet memory status` shows what it answers",
                ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _connect(self, timeout: float) -> http.client.HTTPConnection:
        import http.client

        if self._connection is None:
            parts = urlsplit(self.url)
            factory = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
            self._connection = factory(parts.hostname or "", parts.port, timeout=timeout)
        self._connection.timeout = timeout
        if self._connection.sock is not None:
            self._connection.sock.settimeout(timeout)
        return self._connection

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


def _describe(error: BaseException, timeout: float) -> str:
    if isinstance(error, TimeoutError):
        return f"no answer within {timeout:g} s"
    return f"{type(error).__name__}: {error}"
