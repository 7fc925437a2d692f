"""`comet dashboard`: serve the Dashboard on loopback and hand the person its launch URL."""

from __future__ import annotations

import html
import os
import socket
import tempfile
import webbrowser
from collections.abc import Callable
from pathlib import Path

from comet_git.errors import CometError
from comet_git.workspace import open_workspace

HOST = "127.0.0.1"  # loopback only, never a wider address: memory is personal


def serve(path: Path, port: int, *, open_browser: bool, announce: Callable[[str], None]) -> None:
    """Run until interrupted.  `announce` receives the launch URL (with its token) once the
    socket listens, so that whoever opens it finds the server ready."""
    try:
        import uvicorn

        from comet_git.dashboard.app import create_app
        from comet_git.dashboard.security import Secrets, launch_url
    except ImportError as error:
        raise CometError(
            f"the dashboard needs the optional extra 'dashboard' ({error.name} is missing)",
            hint="in a checkout of comet-git: pip install '.[dashboard]'",
        ) from None
    ws = open_workspace(path)
    keys = Secrets.fresh()
    listener = _listen(port)
    url = launch_url(HOST, listener.getsockname()[1], keys.token)
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(ws, keys),
            log_level="warning",
            access_log=False,
            server_header=False,
            proxy_headers=False,
        )
    )
    announce(url)
    opener = launch_file(url) if open_browser else None
    try:
        if opener is not None:
            webbrowser.open(opener.as_uri())
        server.run(sockets=[listener])
    finally:
        if opener is not None:
            opener.unlink(missing_ok=True)


def launch_file(url: str) -> Path:
    """An owner-only page that sends the browser on to `url`: the browser is started with this
    file's name, not with the token, which its command line would show to every user (`ps`)."""
    handle, name = tempfile.mkstemp(prefix="comet-dashboard-", suffix=".html")  # mode 0600
    link = html.escape(url, quote=True)
    page = (
        f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={link}">'
        f'<title>comet dashboard</title><p><a href="{link}">Open the comet dashboard</a></p>\n'
    )
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        out.write(page)
    return Path(name)


def _listen(port: int) -> socket.socket:
    """The listening socket, bound before the URL is printed (port 0: a free one)."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((HOST, port))
    except OSError as error:
        listener.close()
        raise CometError(
            f"cannot listen on {HOST}:{port}: {error.strerror or error}",
            hint="pass another --port, or leave it out for a free one",
        ) from None
    listener.listen(64)
    return listener
