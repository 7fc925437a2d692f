"""Who may talk to the Dashboard: the browser the person opened with the launch URL, and nobody else.

Memory is personal.  The server listens on loopback only, and every request must
- name this server in its Host header (127.0.0.1:PORT or localhost:PORT): a page on another
  site whose name was rebound to 127.0.0.1 (DNS rebinding) sends its own name;
- come from this origin: a browser marks cross-site requests (Origin, Sec-Fetch-Site);
- carry the per-launch token, once in the URL that the command printed (or the owner-only page
  it opened the browser with), which is traded for an HttpOnly, SameSite=Strict cookie (and taken
  out of the address bar);
- for a write, be a POST whose form carries the per-launch CSRF token.
Every response forbids framing and caching, and none allows another origin to read it.
"""

from __future__ import annotations

import hashlib
import html
import secrets
from typing import NamedTuple
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_PARAMETER = "token"
CSRF_FIELD = "csrf"
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
SAFE_METHODS = ("GET", "HEAD")
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
        " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # "no-referrer" would make the browser send `Origin: null`
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
}


class Secrets(NamedTuple):
    token: str  # in the launch URL, then in the cookie
    csrf: str  # in every form

    @classmethod
    def fresh(cls) -> Secrets:
        return cls(secrets.token_urlsafe(32), secrets.token_urlsafe(32))

    @property
    def cookie_name(self) -> str:
        # Cookies ignore ports: two dashboards on one machine each keep their own.
        return "comet_dashboard_" + hashlib.sha256(self.token.encode()).hexdigest()[:12]


def launch_url(host: str, port: int, token: str) -> str:
    return f"http://{host}:{port}/?{urlencode({TOKEN_PARAMETER: token})}"


class Guard:
    """ASGI middleware: refuses every request that is not from the person's own browser tab."""

    def __init__(self, app: ASGIApp, keys: Secrets) -> None:
        self.app = app
        self.keys = keys

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self._refusal(request)
        if refusal is not None:
            await _with_headers(PlainTextResponse(refusal, status_code=403))(scope, receive, send)
            return
        given = request.query_params.get(TOKEN_PARAMETER)
        if given is not None:
            await _with_headers(self._trade_token(request))(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _refusal(self, request: Request) -> str | None:
        if not _host_is_this_server(request):
            return "refused: the Host header does not name this dashboard (open the URL comet printed)"
        given = request.query_params.get(TOKEN_PARAMETER)
        # The launch page (run.launch_file) is a file, another origin to the browser: the one
        # request it sends is a GET that trades the token, which whoever sends it already holds.
        trade = given is not None and request.method == "GET"
        if not trade and not _same_origin(request):
            return "refused: the request comes from another site"
        if given is not None:
            valid = secrets.compare_digest(given, self.keys.token)
        else:
            valid = secrets.compare_digest(request.cookies.get(self.keys.cookie_name, ""), self.keys.token)
        if not valid:
            return "refused: no valid dashboard token (open the URL `comet dashboard` printed)"
        if request.method not in SAFE_METHODS and request.method != "POST":
            return f"refused: {request.method} is not used by the dashboard"
        return None

    def _trade_token(self, request: Request) -> Response:
        """The launch URL: set the cookie and show the same page without the token."""
        rest = [(k, v) for k, v in request.query_params.multi_items() if k != TOKEN_PARAMETER]
        target = request.url.path + (f"?{urlencode(rest)}" if rest else "")
        response: Response
        if _same_origin(request):
            response = RedirectResponse(target, status_code=303)
        else:
            # Sent on from the launch page (another origin): a redirect would carry on as a
            # cross-site request, without the SameSite=Strict cookie.  This page, of this
            # origin, goes on itself, so the next request is same-origin and has the cookie.
            link = html.escape(target, quote=True)
            response = HTMLResponse(
                f'<!doctype html><meta http-equiv="refresh" content="0;url={link}">'
                f'<p><a href="{link}">Open the dashboard</a></p>\n'
            )
        response.set_cookie(
            self.keys.cookie_name, self.keys.token, httponly=True, samesite="strict", path="/"
        )
        return response


def _host_is_this_server(request: Request) -> bool:
    server = request.scope.get("server")
    if not server:
        return False
    port = server[1]
    host = request.headers.get("host", "")
    return host in {f"{name}:{port}" for name in LOOPBACK_NAMES}


def _same_origin(request: Request) -> bool:
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    return origin is None or origin == f"http://{request.headers.get('host', '')}"


def check_csrf(keys: Secrets, submitted: object) -> bool:
    return isinstance(submitted, str) and secrets.compare_digest(submitted, keys.csrf)


def _with_headers(response: Response) -> Response:
    response.headers.update(HEADERS)
    return response
