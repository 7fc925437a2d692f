"""The Dashboard's web application: server-rendered pages (Starlette + Jinja2) over one workspace.

Each page calls one function in comet_git.dashboard.pages; a CometError becomes a page that
says what went wrong and what to do next, and nothing is changed.  Writes are POST forms
with the CSRF token; after a write the browser is sent back (303) to the page it came from.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from comet_git.dashboard import pages
from comet_git.dashboard.security import CSRF_FIELD, Guard, Secrets, check_csrf
from comet_git.diagnostics import log_failure
from comet_git.errors import CometError, NotFoundError
from comet_git.looks import Looks, one_look
from comet_git.provider.watch import folder_watch
from comet_git.records.model import KNOWN_OPERATIONS, KNOWN_PHASES
from comet_git.workspace import Workspace

Page = Callable[[Request], Awaitable[Response]]
# Raw HTML in a record stays text: a record is data, never markup for this page.
MARKDOWN = MarkdownIt("commonmark", {"html": False})


def create_app(ws: Workspace, keys: Secrets) -> Starlette:
    dashboard = Dashboard(ws, keys)
    routes = [
        Route("/", dashboard.view(dashboard.overview)),
        Route("/switches", dashboard.view(dashboard.switch), methods=["POST"]),
        Route("/records", dashboard.view(dashboard.records)),
        Route("/records/{id}", dashboard.view(dashboard.record)),
        Route("/records/{id}/forget-permanently", dashboard.view(dashboard.confirm_permanent)),
        Route("/records/{id}/{action}", dashboard.view(dashboard.record_action), methods=["POST"]),
        Route("/candidates", dashboard.view(dashboard.candidates)),
        Route("/candidates/{id}/{action}", dashboard.view(dashboard.candidate_action), methods=["POST"]),
        Route("/agent", dashboard.view(dashboard.agent)),
        Route("/agent/why-not", dashboard.view(dashboard.why_not)),
        Route("/journal", dashboard.view(dashboard.journal)),
        Route("/journal/{action}", dashboard.view(dashboard.journal_action), methods=["POST"]),
        Mount("/static", StaticFiles(directory=Path(__file__).parent / "static"), name="static"),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(Guard, keys=keys)],
        exception_handlers={Exception: dashboard.failure},
    )


class Dashboard:
    def __init__(self, ws: Workspace, keys: Secrets) -> None:
        self.ws = ws
        self.keys = keys
        # One memory call at a time: the provider's index connection is not shared across threads.
        self.lock = threading.Lock()
        # A page lists a store's folders only when something happened in them since the last.
        self.looks = Looks(folder_watch())
        self.templates = jinja2.Environment(
            loader=jinja2.PackageLoader("comet_git.dashboard", "templates"),
            autoescape=True,
        )
        self.templates.filters["markdown"] = lambda text: Markup(MARKDOWN.render(str(text)))

    # -- plumbing ----------------------------------------------------------------------

    def render(self, request: Request, template: str, status_code: int = 200, **values: Any) -> Response:
        html = self.templates.get_template(template).render(
            request=request,
            csrf_field=CSRF_FIELD,
            csrf=self.keys.csrf,
            project=self.ws.project_key,
            notice=request.query_params.get("done"),
            operations=KNOWN_OPERATIONS,
            phases=KNOWN_PHASES,
            **values,
        )
        return HTMLResponse(html, status_code=status_code)

    def view(self, handler: Callable[[Request], Response]) -> Page:
        async def page(request: Request) -> Response:
            form: dict[str, str] = {}
            if request.method == "POST":
                try:
                    submitted = await request.form()
                except HTTPException as error:  # a part too large, too many fields, no boundary
                    return self.render(
                        request, "error.html", 400, message=f"the form could not be read: {error.detail}"
                    )
                if not check_csrf(self.keys, submitted.get(CSRF_FIELD)):
                    return self.render(
                        request, "error.html", 403, message="refused: missing or wrong CSRF token"
                    )
                if not all(isinstance(value, str) for value in submitted.values()):
                    return self.render(
                        request,
                        "error.html",
                        400,
                        message="the form sent a file: the dashboard takes text only",
                    )
                form = {key: str(value) for key, value in submitted.items()}
            request.state.form = form
            return await self._run(request, handler)

        return page

    async def _run(self, request: Request, handler: Callable[[Request], Response]) -> Response:
        def locked() -> Response:
            with self.lock, one_look(self.looks):  # a page is one command
                try:
                    return handler(request)
                except CometError as error:
                    status = 404 if isinstance(error, NotFoundError) else 400
                    return self.render(
                        request, "error.html", status, message=error.headline(), hint=error.hint
                    )
                except Exception as error:  # answered here: Starlette's own handler prints a traceback
                    return self.failed(request, error)

        return await run_in_threadpool(locked)

    async def failure(self, request: Request, error: Exception) -> Response:
        return self.failed(request, error)

    def failed(self, request: Request, error: Exception) -> Response:
        """A bug, not a user error: logged where `comet memory status` shows it, and said plainly."""
        log_failure(self.ws.home.diagnostics_log, "dashboard", error, path=request.url.path)
        return self.render(
            request,
            "error.html",
            500,
            heading="The dashboard failed",
            message=f"{type(error).__name__}: {error}",
            hint=f"reload the page to see what is stored now; details: {self.ws.home.diagnostics_log}",
        )

    def back(self, path: str, notice: str) -> Response:
        return RedirectResponse(f"{path}?{urlencode({'done': notice})}", status_code=303)

    # -- pages -----------------------------------------------------------------------------

    def overview(self, request: Request) -> Response:
        return self.render(request, "overview.html", page="overview", **pages.overview(self.ws))

    def switch(self, request: Request) -> Response:
        form = request.state.form
        return self.back("/", pages.set_switch(self.ws, form.get("key", ""), form.get("value", "")))

    def records(self, request: Request) -> Response:
        filters = {
            name: request.query_params.get(name, "") for name in (*pages.RECORD_FILTERS, "q", "selector")
        }
        listing = pages.list_records(self.ws, filters, _page_number(request.query_params.get("page")))
        shown = {name: value for name, value in filters.items() if value}
        return self.render(
            request,
            "records.html",
            page="records",
            listing=listing,
            filters=filters,
            choices=pages.RECORD_FILTERS,
            query_without_page=urlencode(shown),
        )

    def record(self, request: Request) -> Response:
        version = pages.whole_number(request.query_params.get("diff"))
        detail = pages.record_detail(self.ws, request.path_params["id"], version)
        return self.render(request, "record.html", page="records", **detail)

    def confirm_permanent(self, request: Request) -> Response:
        detail = pages.record_detail(self.ws, request.path_params["id"], None)
        return self.render(request, "forget_permanently.html", page="records", **detail)

    def record_action(self, request: Request) -> Response:
        record_id, action = request.path_params["id"], request.path_params["action"]
        form = request.state.form
        if action == "correct":
            notice = pages.correct(self.ws, record_id, form)
        elif action == "forget":
            notice = pages.forget(self.ws, record_id, permanent=False, form=form)
        elif action == "forget-permanently" and form.get("confirm") == record_id:
            notice = pages.forget(self.ws, record_id, permanent=True)
            return self.back("/records", notice)
        elif action == "rollback":
            notice = pages.rollback(self.ws, record_id, form)
        else:
            return self.render(
                request, "error.html", 400, message=f"unknown or unconfirmed action {action!r}"
            )
        return self.back(f"/records/{record_id}", notice)

    def candidates(self, request: Request) -> Response:
        return self.render(
            request, "candidates.html", page="candidates", candidates=pages.candidates(self.ws)
        )

    def candidate_action(self, request: Request) -> Response:
        record_id, action = request.path_params["id"], request.path_params["action"]
        if action == "confirm":
            notice = pages.confirm(self.ws, record_id, request.state.form)
        elif action == "reject":
            notice = pages.reject(self.ws, record_id)
        else:
            return self.render(request, "error.html", 400, message=f"unknown action {action!r}")
        return self.back("/candidates", notice)

    def agent(self, request: Request) -> Response:
        form = _request_form(request)
        result = pages.preview(self.ws, form) if "task" in request.query_params else None
        return self.render(request, "agent.html", page="agent", form=form, result=result)

    def why_not(self, request: Request) -> Response:
        form = _request_form(request)
        explained = pages.why_not(self.ws, request.query_params.get("id", ""), form)
        return self.render(request, "why_not.html", page="agent", form=form, explained=explained)

    def journal(self, request: Request) -> Response:
        event_type = request.query_params.get("type", "")
        episode = request.query_params.get("episode", "")
        data = pages.journal(self.ws, event_type, episode)
        return self.render(
            request,
            "journal.html",
            page="journal",
            event_type=event_type,
            episode=episode,
            result=None,
            **data,
        )

    def journal_action(self, request: Request) -> Response:
        action = request.path_params["action"]
        if action == "learn":
            result = pages.learn_now(self.ws)
        elif action == "repair":
            result = pages.repair_index()
        else:
            return self.render(request, "error.html", 400, message=f"unknown action {action!r}")
        data = pages.journal(self.ws, None, None)
        return self.render(
            request, "journal.html", page="journal", event_type="", episode="", result=result, **data
        )


def _page_number(raw: str | None) -> int:
    return pages.whole_number(raw) or 1


def _request_form(request: Request) -> dict[str, str]:
    """The preview's request fields, each present (empty when not given)."""
    return {name: request.query_params.get(name, "") for name in pages.REQUEST_FIELDS}
