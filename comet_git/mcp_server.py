"""`comet mcp`: a stdio MCP server over the operations an agent needs, for hosts that
speak the Model Context Protocol rather than run commands.

Each tool calls the same command functions as the CLI, in the repository the server was
started for, and returns the same JSON the CLI prints with --json.  The SDK (`mcp`) is an
optional extra: `pip install '.[mcp]'` in a checkout of the repository.  It is imported only
here, so nothing else in comet pays for it.
"""

# No `from __future__ import annotations`: the SDK reads the tools' parameter types at run
# time, and those (enums, descriptions) are defined inside build_server, which imports the SDK.
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


def _answer(produce: "Callable[[], Output]") -> dict[str, Any]:
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


def build_server(repository: Path) -> "MCPServer":
    """The server, its tools described for the model: every parameter has a description, the
    closed vocabularies are enums, and each tool says whether it only reads (annotations).
    comet's own modules (but the contract's defaults) are imported by the first call that needs
    them, not at startup."""
    from typing import Annotated, Literal

    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations
    from pydantic import Field

    from comet_git.provider import DEFAULT_BUDGET

    def described(text: str, **constraints: Any) -> Any:
        return Field(description=text, **constraints)

    # The record model's own vocabularies (records/model.py KNOWN_OPERATIONS, KNOWN_PHASES,
    # OUTCOMES; cli.py TASK_OUTCOMES), spelled out because a Literal needs them literally; a
    # test keeps the two in step.
    Operation = Literal[
        "edit", "test", "commit", "review", "refactor", "debug", "release", "docs", "migrate", "deploy"
    ]
    Phase = Literal["plan", "build", "verify", "review", "release"]
    Scope = Literal["project", "global"]
    ItemOutcome = Literal["used-successfully", "ignored", "overridden", "corrected", "contributed-to-failure"]
    TaskOutcome = Literal["success", "failure", "partial"]
    Session = Annotated[
        str | None,
        described(
            "A stable name for this conversation (e.g. its id), the same in every call of the task:"
            " items already delivered in the session are not delivered again."
        ),
    ]
    RecordId = Annotated[str, described("A record id as comet gave it, e.g. pm-7k2m9q4x.", min_length=1)]

    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    journals = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    stores = ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    )
    removes = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)

    server = MCPServer(name="comet-git", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(annotations=journals)
    def task_context(
        task_text: Annotated[
            str,
            described(
                "What the task is, in the user's words, e.g. 'Add rate limiting to login'.", min_length=1
            ),
        ],
        path: Annotated[
            str | None, described("The file or folder the task is about, relative to the repository root.")
        ] = None,
        operation: Annotated[Operation | None, described("What kind of work the task is.")] = None,
        phase: Annotated[
            Phase | None, described("The phase the task is in; call again when it changes.")
        ] = None,
        session: Session = None,
        context_budget: Annotated[
            int, described("At most this many characters of context items in full.", ge=200, le=50_000)
        ] = DEFAULT_BUDGET,
    ) -> dict[str, Any]:
        """The memory that applies to this task (comet.task-context/v1): context items in full,
        manifest entries to expand, each with whyApplied and an applicationId. It journals what
        it delivered (that is all it writes). Retrieval problems come back as retrieval "failed"
        with diagnostics, never as an error."""
        if not task_text.strip():
            raise ToolError("task_text is empty: say what the task is, in the user's words")
        from comet_git.commands import task

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

    @server.tool(annotations=reads)
    def expand(record_id: RecordId) -> dict[str, Any]:
        """The full record behind a manifest entry, with its sources and evidence."""
        from comet_git.commands import task

        return _answer(lambda: task.expand(repository, record_id))

    @server.tool(annotations=stores)
    def remember(
        text: Annotated[
            str, described("The user's explicit long-term statement, as they said it.", min_length=1)
        ],
        scope: Annotated[
            Scope | None,
            described("project: this repository only; global: everywhere. Default: project in a repository."),
        ] = None,
        title: Annotated[str | None, described("A short title; default: derived from the text.")] = None,
    ) -> dict[str, Any]:
        """Remember an explicit, long-term statement of the user (comet.record/v1). The same
        statement twice returns the existing record."""
        from comet_git.commands import memory
        from comet_git.records.model import Selectors
        from comet_git.workspace import open_workspace

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

    @server.tool(annotations=journals)
    def signal(
        text: Annotated[
            str, described("What the user said, their whole message, not rephrased.", min_length=1)
        ],
        scope: Annotated[
            Scope | None, described("Where a long-term rule goes; default: decided from the words.")
        ] = None,
        session: Session = None,
    ) -> dict[str, Any]:
        """Capture what the user said (comet.signal/v1): a long-term requirement becomes memory,
        a one-off ("just this time") comes back as a constraint for this task only."""
        from comet_git.commands import journal as journal_commands
        from comet_git.workspace import open_workspace

        return _answer(
            lambda: journal_commands.signal(open_workspace(repository), text, scope, None, session)
        )

    @server.tool(annotations=journals)
    def feedback(
        application_id: Annotated[
            str, described("The applicationId of a delivered context item or manifest entry.", min_length=1)
        ],
        outcome: Annotated[ItemOutcome, described("How the delivered item worked out.")],
    ) -> dict[str, Any]:
        """How a delivered item worked out: used-successfully, ignored, overridden, corrected or
        contributed-to-failure."""
        from comet_git.commands import task

        return _answer(lambda: task.outcome(repository, application_id, outcome))

    @server.tool(annotations=journals)
    def complete(
        summary: Annotated[str, described("One line: what was done.", min_length=1)],
        outcome: Annotated[TaskOutcome, described("How the task ended.")],
        lesson: Annotated[
            str | None,
            described("Something worth remembering next time (a cause, a trap, a fix); omit when none."),
        ] = None,
        session: Session = None,
    ) -> dict[str, Any]:
        """Journal the task's completion; a lesson becomes a personal episode at the next
        learning pass."""
        from comet_git.commands import task

        return _answer(lambda: task.complete(repository, summary, outcome, lesson, session))

    @server.tool(annotations=removes)
    def forget(record_id: RecordId) -> dict[str, Any]:
        """Forget a record (it can be rolled back with `comet memory rollback`)."""
        from comet_git.commands import memory
        from comet_git.workspace import open_workspace

        return _answer(lambda: memory.forget(open_workspace(repository), record_id, False))

    return server


def serve(repository: Path) -> None:
    """Serve until the host closes stdin.  Ctrl-C (SIGINT) from the host or the terminal ends
    the server the same way, while it starts or while it serves: quietly, exit 0, nothing
    half-written (each tool call's writes are atomic)."""
    try:
        _serve(repository)
    except KeyboardInterrupt:
        return


def _serve(repository: Path) -> None:
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
