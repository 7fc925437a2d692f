"""The memory service as an ASGI app (Starlette): `comet.provider/v1` over HTTP, as JSON.

Two backends serve the same contract.  The embedded one (the default): each user has a store
of their own under `--data`, `users/NAME/` laid out as a COMET_HOME is (Markdown records, the
SQLite index), and the Local provider serves it.  With `--database URL`, every user's records,
history, tombstones and tokens are rows of one PostgreSQL database (server/postgres/).
A token names its user, and a request reaches only that user's records: another user's
ids are unknown there (404), never forbidden (403), so nobody learns they exist.

Every answer is JSON of the contract's version; an error is the CLI's error shape
(`error: {kind, message, hint}`) under a real HTTP status, never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Protocol

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.schemas import SchemaGenerator

from comet_git import __version__
from comet_git.errors import CometError, ConcurrentEditError, InvalidInputError, NotFoundError, StoreError
from comet_git.identity import KEY_PATTERN
from comet_git.provider import PROVIDER_SCHEMA, Provider, wire
from comet_git.provider.local import LocalProvider
from comet_git.server.tokens import TokenStore
from comet_git.store import Home

MAX_BODY_BYTES = 4 * 1024 * 1024  # a record is a few kilobytes; a request never needs more
# Store calls run at once: they are CPU-bound Python (one GIL) besides SQLite.  More threads
# would not go faster, and a writer holding a store's lock would starve among them, making
# the other writers time out on the lock; the rest of the requests wait their turn unblocked.
STORE_WORKERS = 2
LOG = logging.getLogger("comet.serve")


class HttpError(Exception):
    def __init__(self, status: int, error: CometError) -> None:
        super().__init__(error.message)
        self.status = status
        self.error = error


def status_of(error: CometError) -> int:
    """The HTTP status of a refusal: the request was wrong (400), named nothing (404), lost a
    race (409), or was understood and refused by the store's rules (422)."""
    if isinstance(error, wire.WireError):
        return 400
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, ConcurrentEditError):
        return 409
    if isinstance(error, StoreError):
        return 503
    return 422


def error_response(status: int, error: CometError) -> Response:
    return Response(wire.dumps(wire.error_to_json(error)), status_code=status, media_type="application/json")


class Tokens(Protocol):
    def user_of(self, token: str) -> str | None: ...


class Backend(Protocol):
    """Where the users' memory is: what a token opens, and the provider of a user's records."""

    tokens: Tokens
    workers: int  # the store calls run at once
    tokens_wait: bool  # a token's look-up waits on a database: made off the event loop

    def provider_for(self, user: str, project: str | None) -> Provider: ...


class EmbeddedBackend:
    """One LocalProvider per user, over `data/users/NAME`."""

    workers = STORE_WORKERS
    tokens_wait = False  # a file, read again only when it changed

    def __init__(self, data: Path) -> None:
        self.data = data
        self.tokens = TokenStore(data)

    def provider_for(self, user: str, project: str | None) -> Provider:
        return LocalProvider(Home(self.data / "users" / user), project)


class MemoryService:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self._limiter: anyio.CapacityLimiter | None = None

    async def run(self, handler: Handler, provider: Provider, data: dict[str, Any]) -> bytes:
        if self._limiter is None:  # made in the event loop that serves
            self._limiter = anyio.CapacityLimiter(self.backend.workers)
        return await anyio.to_thread.run_sync(handler, provider, data, limiter=self._limiter)

    async def authorised_user(self, request: Request) -> str:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        user = None
        if scheme.lower() == "bearer" and self.backend.tokens_wait:
            user = await anyio.to_thread.run_sync(self.backend.tokens.user_of, token.strip())
        elif scheme.lower() == "bearer":
            user = self.backend.tokens.user_of(token.strip())
        if user is None:
            raise HttpError(
                401,
                CometError(
                    "the token is missing, unknown or revoked",
                    hint="send `Authorization: Bearer TOKEN` with a token from `comet serve token create`",
                ),
            )
        return user

    async def read_document(self, request: Request) -> dict[str, Any]:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            raise HttpError(413, _too_large())
        body = bytearray()
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY_BYTES:
                    raise HttpError(413, _too_large())
        except ClientDisconnect:
            raise HttpError(400, wire.WireError("the client went away before its request was sent")) from None
        return dict(wire.parse_document(bytes(body), "request"))

    def provider_for(self, user: str, data: dict[str, Any]) -> Provider:
        project = data.get("project")
        if project is not None and (not isinstance(project, str) or not KEY_PATTERN.match(project)):
            raise wire.WireError(f"request: {project!r} is not a project key")
        return self.backend.provider_for(user, project)


def _too_large() -> CometError:
    return InvalidInputError(
        f"the request is over {MAX_BODY_BYTES} bytes", hint="send one change or query per request"
    )


Handler = Callable[[Provider, dict[str, Any]], bytes]


def endpoint(service: MemoryService, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """An authenticated contract call: the body decoded, the handler run off the event loop
    (the store blocks on files and SQLite), any failure turned into its HTTP answer."""

    async def run(request: Request) -> Response:
        try:
            user = await service.authorised_user(request)
            data = await service.read_document(request)
            provider = service.provider_for(user, data)
            body = await service.run(handler, provider, data)
        except HttpError as refused:
            return error_response(refused.status, refused.error)
        except CometError as error:
            return error_response(status_of(error), error)
        except Exception as error:  # the client gets an error shape, the log the traceback
            LOG.exception("%s %s failed", request.method, request.url.path)
            return error_response(
                500, StoreError(f"the server failed: {type(error).__name__}", hint="see the server's log")
            )
        return Response(body, media_type="application/json")

    run.__doc__ = handler.__doc__
    return run


def handle_status(provider: Provider, data: dict[str, Any]) -> bytes:
    """
    summary: The store's status (counts by lifecycle and type, invalid files, the index).
    requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Request'}}}}
    responses:
      200: {description: '{"schema", "status": {provider, home, index, stores, conflicts}}'}
      401: {description: missing or wrong token}
    """
    return wire.dumps(wire.document(status=wire.status_to_json(provider.status())))


def handle_query(provider: Provider, data: dict[str, Any]) -> bytes:
    """
    summary: Records by filter, or the director's candidate search for a task request.
    requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Request'}}}}
    responses:
      200: {description: '{"schema", "records": [...], "invalid", "history", "selection"}'}
      400: {description: bad JSON or shape}
      401: {description: missing or wrong token}
      404: {description: unknown id}
    """
    return wire.query_result_to_bytes(provider.query(wire.query_from_json(data.get("query"))))


def handle_apply(provider: Provider, data: dict[str, Any]) -> bytes:
    """
    summary: Apply one change (remember, correct, forget, rollback, outcome, amend).
    requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Request'}}}}
    responses:
      200: {description: '{"schema", "result": {action, id, record, permanent, rollbackPossible, detail}}'}
      400: {description: bad JSON or shape}
      401: {description: missing or wrong token}
      404: {description: unknown id}
      409: {description: the record changed under this correction}
      413: {description: the body is too large}
      422: {description: the change was refused}
    """
    result = provider.apply(wire.change_from_json(data.get("change")))
    return wire.dumps(wire.document(result=wire.change_result_to_json(result)))


async def health(request: Request) -> Response:
    """
    summary: Whether the service runs, and which contract and version it speaks (no token needed).
    responses:
      200: {description: '{"schema": "comet.provider/v1", "status": "ok", "version"}'}
    """
    return JSONResponse(
        {"schema": PROVIDER_SCHEMA, "status": "ok", "server": "comet-git", "version": __version__}
    )


SCHEMAS = SchemaGenerator(
    {
        "openapi": "3.0.0",
        "info": {"title": "comet-git memory service", "version": __version__},
        "components": {
            "schemas": {
                "Request": {
                    "type": "object",
                    "required": ["schema"],
                    "properties": {
                        "schema": {"type": "string", "enum": [PROVIDER_SCHEMA]},
                        "project": {"type": "string", "nullable": True},
                        "query": {"type": "object"},
                        "change": {"type": "object"},
                    },
                }
            },
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }
)


def create_app(backend: Backend) -> Starlette:
    service = MemoryService(backend)

    async def openapi(request: Request) -> Response:
        return JSONResponse(SCHEMAS.get_schema(routes=request.app.routes))

    routes = [
        Route("/v1/health", health, methods=["GET"]),
        Route("/v1/status", endpoint(service, handle_status), methods=["POST"]),
        Route("/v1/query", endpoint(service, handle_query), methods=["POST"]),
        Route("/v1/apply", endpoint(service, handle_apply), methods=["POST"]),
        Route("/openapi.json", openapi, methods=["GET"], include_in_schema=False),
    ]

    async def not_found(request: Request, exc: Exception) -> Response:
        return error_response(
            404, NotFoundError(f"no endpoint {request.url.path}", hint="see GET /openapi.json")
        )

    async def wrong_method(request: Request, exc: Exception) -> Response:
        return error_response(
            405, InvalidInputError(f"{request.method} is not allowed on {request.url.path}")
        )

    return Starlette(routes=routes, exception_handlers={404: not_found, 405: wrong_method})
