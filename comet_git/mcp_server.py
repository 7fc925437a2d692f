"""`comet mcp`: a stdio MCP server over the operations an agent needs, for hosts that
speak the Model Context Protocol rather than run commands.

Each tool calls the same command functions as the CLI, in the repository the server was
started for, and returns the same JSON the CLI prints with --json.  The SDK (`mcp`) is an
optional extra: `pip install '.[mcp]'` in a checkout of the repository.  It is imported only
here, so nothing else in comet pays for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from comet_git import __version__
from comet_git.commands import Output
from comet_git.errors import CometError

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp.server.mcpserver import MCPServer

INSTRUCTIONS = """\
comet-git is the user's personal memory for this repository. Call task_context at the start of a
task and at each phase change; follow the context items, expand a manifest entry with expand when
it looks relevant, record what the user states for the long term with signal, report how each
delivered item worked out with feedback (by its applicationId), and finish with complete (a lesson
makes it a memory). Never store secrets, one-off instructions or transcripts."""


def _answer(produce: Callable[[], Output]) -> dict[str, Any]:
    """The command's JSON; a user or domain error becomes a tool error whose message (and
    hint) the model reads, instead of the SDK's opaque "Error executing tool"."""
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        output = produce()
    except CometError as error:
        hint = f" ({error.hint})" if error.hint else ""
        raise ToolError(f"{error.headline()}{hint}") from error
    assert output.data is not None  # every command below answers with a JSON object
    return output.data


def build_server(repository: Path) -> MCPServer:
    from mcp.server.mcpserver import MCPServer

    from comet_git.commands import journal as journal_commands
    from comet_git.commands import memory, task
    from comet_git.records.model import Selectors
    from comet_git.workspace import open_workspace

    server = MCPServer(name="comet-git", version=__version__, instructions=INSTRUCTIONS)

    @server.tool()
    def task_context(
        task_text: str,
        path: str | None = None,
        operation: str | None = None,
        phase: str | None = None,
        session: str | None = None,
        context_budget: int = 6000,
    ) -> dict[str, Any]:
        """The memory that applies to this task (comet.task-context/v1): context items in full,
        manifest entries to expand, each with whyApplied and an applicationId. Never fails:
        retrieval problems come back as retrieval "failed" with diagnostics."""
        options = {
            "task": task_text,
            "request_path": path,
            "operation": operation,
            "phase": phase,
            "session": session,
            "budget": context_budget,
            "max_entries": 12,
        }
        return _answer(lambda: task.context(repository, options, record_applications=True))

    @server.tool()
    def expand(record_id: str) -> dict[str, Any]:
        """The full record behind a manifest entry, with its sources and evidence."""
        return _answer(lambda: task.expand(repository, record_id))

    @server.tool()
    def remember(text: str, scope: str | None = None, title: str | None = None) -> dict[str, Any]:
        """Remember an explicit, long-term statement of the user (comet.record/v1)."""
        return _answer(
            lambda: memory.remember(
                open_workspace(repository),
                text=text,
                title=title,
                scope=scope,
                memory_type="collaboration-policy",
                memory_class=None,
                selectors=Selectors(),
                summary=None,
            )
        )

    @server.tool()
    def signal(text: str, scope: str | None = None, session: str | None = None) -> dict[str, Any]:
        """Capture what the user said (comet.signal/v1): a long-term requirement becomes memory,
        a one-off ("just this time") comes back as a constraint for this task only."""
        return _answer(
            lambda: journal_commands.signal(open_workspace(repository), text, scope, None, session)
        )

    @server.tool()
    def feedback(application_id: str, outcome: str) -> dict[str, Any]:
        """How a delivered item worked out: used-successfully, ignored, overridden, corrected or
        contributed-to-failure."""
        return _answer(lambda: task.outcome(repository, application_id, outcome))

    @server.tool()
    def complete(
        summary: str, outcome: str, lesson: str | None = None, session: str | None = None
    ) -> dict[str, Any]:
        """Journal the task's completion (outcome success, failure or partial); a lesson becomes
        a personal episode at the next learning pass."""
        return _answer(lambda: task.complete(repository, summary, outcome, lesson, session))

    @server.tool()
    def forget(record_id: str) -> dict[str, Any]:
        """Forget a record (it can be rolled back with `comet memory rollback`)."""
        return _answer(lambda: memory.forget(open_workspace(repository), record_id, False))

    return server


def serve(repository: Path) -> None:
    try:
        import mcp  # noqa: F401  (only to say clearly what is missing)
    except ImportError:
        raise CometError(
            "the MCP server needs the MCP Python SDK, an optional extra",
            hint="install the extra: pip install '.[mcp]' in a checkout of comet-git",
        ) from None
    if not repository.exists():
        raise CometError(f"{repository} does not exist", hint="pass the path of a repository")
    build_server(repository.resolve()).run("stdio")
