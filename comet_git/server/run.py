"""Starting the memory service: where it listens, over what, and what it refuses to do."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any, NamedTuple

from comet_git.errors import CometError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
INSECURE_WARNING = (
    "warning: serving memory over plain HTTP on {host}: tokens and records cross the network"
    " in clear text (pass --tls-cert and --tls-key)"
)


class Listening(NamedTuple):
    host: str
    port: int
    data: Path
    tls_cert: Path | None
    tls_key: Path | None
    warnings: list[str]
    database: str | None = None  # a PostgreSQL URL: the database backend instead of the embedded one


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


def plan(
    host: str,
    port: int,
    data: Path,
    tls_cert: Path | None,
    tls_key: Path | None,
    insecure_http: bool,
    database: str | None = None,
) -> Listening:
    """How to listen; refused when memory would cross a network unencrypted without being asked."""
    if (tls_cert is None) != (tls_key is None):
        raise CometError("--tls-cert and --tls-key go together", hint="pass both, or neither")
    for given in (tls_cert, tls_key):
        if given is not None and not given.is_file():
            raise CometError(f"{given} is not a file", hint="pass the certificate's and its key's PEM files")
    warnings = []
    if tls_cert is None and not is_loopback(host):
        if not insecure_http:
            raise CometError(
                f"serving on {host} (not loopback) needs TLS",
                hint="pass --tls-cert FILE --tls-key FILE, or --insecure-http to serve in clear text anyway",
            )
        warnings.append(INSECURE_WARNING.format(host=host))
    if not 0 < port < 65536:
        raise CometError(f"--port {port} is not a TCP port", hint="pass a port from 1 to 65535")
    if database is not None:
        from comet_git.server.postgres.database import check_url

        check_url(database)
    return Listening(host, port, data, tls_cert, tls_key, warnings, database)


def serve(listening: Listening) -> None:
    """Run the service until it is stopped (SIGINT or SIGTERM: uvicorn finishes the requests
    under way first)."""
    try:
        import uvicorn

        from comet_git.server.app import EmbeddedBackend, create_app
    except ImportError as error:
        raise CometError(
            f"`comet serve` needs the server extra ({error.name} is missing)",
            hint="install the server extra: pip install '.[server]' in a checkout of this repository",
        ) from None
    if listening.database is None:
        listening.data.mkdir(parents=True, exist_ok=True, mode=0o700)
        backend: Any = EmbeddedBackend(listening.data)
    else:
        from comet_git.server.postgres.backend import PostgresBackend

        backend = PostgresBackend(listening.database)  # the migrations applied, the pool open
    try:
        uvicorn.run(
            create_app(backend),
            host=listening.host,
            port=listening.port,
            ssl_certfile=str(listening.tls_cert) if listening.tls_cert else None,
            ssl_keyfile=str(listening.tls_key) if listening.tls_key else None,
            log_level="warning",
            access_log=False,
        )
    finally:
        if listening.database is not None:
            backend.close()
