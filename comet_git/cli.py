"""The command line: click wiring only.  Each command calls one function in
comet_git.commands and prints its Output; a CometError becomes exit code 1
with a message that says what to do next."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from click.core import ParameterSource

from comet_git import __version__
from comet_git.commands import Output, error_report
from comet_git.errors import BadOptionError, CometError, environment_error
from comet_git.records.model import (
    KNOWN_OPERATIONS,
    KNOWN_PHASES,
    LIFECYCLES,
    MEMORY_CLASSES,
    MEMORY_TYPES,
    OUTCOMES,
)

TASK_OUTCOMES = ("success", "failure", "partial")

F = TypeVar("F", bound=Callable[..., Any])


def run(as_json: bool, produce: Callable[[], Output]) -> None:
    from comet_git.looks import one_look

    try:
        with one_look():  # one command: each store's files are listed once
            output = produce()
    except BadOptionError as error:  # a value the option's type could not check: a usage error
        detail = error.message + (f" ({error.hint})" if error.hint else "")
        raise click.BadParameter(detail, param_hint=f"'{error.option}'") from None
    except CometError as error:
        fail(error, as_json)
    except OSError as error:  # a full disk, a permission: the writes are atomic, nothing changed
        fail(environment_error(error), as_json)
    # Bytes straight to stdout: click.echo would scan megabytes of JSON for ANSI codes.
    sys.stdout.flush()
    sys.stdout.buffer.writelines(output.render(as_json))
    sys.stdout.buffer.flush()
    if output.failure is not None:
        fail(output.failure, as_json)


def fail(error: CometError, as_json: bool) -> NoReturn:
    """Exit 1 with the error (its headline, then its hint) on stderr."""
    sys.stderr.write(error_report(error.headline(), error.hint, as_json))
    sys.exit(1)


def json_option(function: F) -> F:
    return click.option(
        "--json", "as_json", is_flag=True, help="Print one JSON object (with a `schema` key)."
    )(function)


def path_argument(function: F) -> F:
    return click.argument(
        "path", required=False, default=".", type=click.Path(file_okay=True, dir_okay=True, path_type=Path)
    )(function)


def workspace(path: Path) -> Any:
    from comet_git.workspace import open_workspace

    return open_workspace(path)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="comet")
def cli() -> None:
    """comet-git: a Git-native personal memory for AI coding agents.

    Every command takes an optional repository PATH (default: the current
    directory) and --json for machine-readable output.
    """


# -- init and project identity --------------------------------------------------


@cli.command()
@path_argument
@click.option("--no-hooks", is_flag=True, help="Do not install the git hooks.")
@click.option("--use-hooks-path", is_flag=True, help="core.hooksPath is set: install the hooks there.")
@json_option
def init(path: Path, no_hooks: bool, use_hooks_path: bool, as_json: bool) -> None:
    """Resolve the project identity, create its memory store and install the git hooks (idempotent).

    Example: comet init ~/src/app
    """
    from comet_git.commands import project

    run(as_json, lambda: project.init(path, hooks=not no_hooks, use_hooks_path=use_hooks_path))


@cli.group()
def project() -> None:
    """Repository identity: how a repository maps to its project memory."""


@project.command("identity")
@path_argument
@json_option
def project_identity(path: Path, as_json: bool) -> None:
    """Show the project key and how it was derived.

    Example: comet project identity --json
    """
    from comet_git.commands import project as commands

    run(as_json, lambda: commands.show_identity(path))


@project.command("adopt")
@click.argument("key")
@path_argument
@click.option("--new", "new", is_flag=True, help="KEY is a new project: start it on an empty store.")
@json_option
def project_adopt(key: str, path: Path, new: bool, as_json: bool) -> None:
    """Relink this clone to an existing project KEY (its memory becomes this repository's).

    An unknown KEY is refused (a typo would make the project's memory seem to vanish) unless
    --new; the output says how to go back.
    Example: comet project adopt acme-app-3f9c2a1b
    """
    from comet_git.commands import project as commands

    run(as_json, lambda: commands.adopt(path, key, new=new))


# -- git hooks ----------------------------------------------------------------------


@cli.group()
def hooks() -> None:
    """Git hooks that journal commits, checkouts, merges and rewrites (in every worktree);
    with --agent, the coding agents' hooks that call `comet agent-hook`."""


def hooks_path_option(function: F) -> F:
    return click.option(
        "--use-hooks-path",
        is_flag=True,
        help="core.hooksPath is set: install into (or look at) that directory, explicitly.",
    )(function)


def agent_option(function: F) -> F:
    return click.option(
        "--agent",
        type=click.Choice(["claude", "codex", "cursor", "gemini", "all"]),
        help="Instead of git hooks: this coding agent's hook settings in your home directory"
        " (~/.claude/settings.json, ~/.codex/hooks.json, ~/.cursor/hooks.json, ~/.gemini/settings.json).",
    )(function)


def agent_only(use_hooks_path: bool) -> None:
    """--agent works on the user's agent settings: the git-hook arguments make no sense with it."""
    given_path = click.get_current_context().get_parameter_source("path") is not ParameterSource.DEFAULT
    if given_path or use_hooks_path:
        raise click.UsageError("--agent edits an agent's settings in your home: no PATH, no --use-hooks-path")


@hooks.command("install")
@path_argument
@hooks_path_option
@agent_option
@json_option
def hooks_install(path: Path, use_hooks_path: bool, agent: str | None, as_json: bool) -> None:
    """Install the post-commit, post-checkout, post-merge and post-rewrite hooks.

    A hook that is already there is kept and chained (its exit code too); uninstall
    puts it back. The hooks never slow, fail or block git; COMET_DISABLE=1 turns them off.
    With --agent, add comet's entries to the agent's hook settings instead, keeping
    everything else in the file (and the file as it was, as FILE.comet-backup).
    Example: comet hooks install --agent claude
    """
    from comet_git.commands import hooks as commands

    if agent is not None:
        agent_only(use_hooks_path)
        run(as_json, lambda: commands.agent_install(agent))
        return
    run(as_json, lambda: commands.install(path, use_hooks_path))


@hooks.command("uninstall")
@path_argument
@hooks_path_option
@agent_option
@json_option
def hooks_uninstall(path: Path, use_hooks_path: bool, agent: str | None, as_json: bool) -> None:
    """Remove comet's hooks and restore the hooks that were there before.

    With --agent, remove exactly comet's entries from the agent's settings; the file
    comes back from its backup when nothing else changed in it since the install.
    Example: comet hooks uninstall --agent all
    """
    from comet_git.commands import hooks as commands

    if agent is not None:
        agent_only(use_hooks_path)
        run(as_json, lambda: commands.agent_uninstall(agent))
        return
    run(as_json, lambda: commands.uninstall(path, use_hooks_path))


@hooks.command("status")
@path_argument
@hooks_path_option
@agent_option
@json_option
def hooks_status(path: Path, use_hooks_path: bool, agent: str | None, as_json: bool) -> None:
    """Show which hooks are installed, chained or foreign, and where git looks for them.

    With --agent, whether the agent's settings hold this comet's hooks.
    Example: comet hooks status --json
    """
    from comet_git.commands import hooks as commands

    if agent is not None:
        agent_only(use_hooks_path)
        run(as_json, lambda: commands.agent_status(agent))
        return
    run(as_json, lambda: commands.status(path, use_hooks_path))


# -- memory -----------------------------------------------------------------------


@cli.group()
def memory() -> None:
    """Remember, list, show, correct, forget and roll back memory records."""


def selector_options(function: F) -> F:
    options = [
        click.option(
            "--path",
            "paths",
            multiple=True,
            metavar="GLOB",
            help="Applies under this gitignore-style glob (repeatable).",
        ),
        click.option(
            "--task",
            "tasks",
            multiple=True,
            metavar="KW",
            help="Applies to tasks mentioning this (repeatable).",
        ),
        click.option(
            "--operation",
            "operations",
            multiple=True,
            metavar="OP",
            help="Applies to this operation: " + ", ".join(KNOWN_OPERATIONS) + " (repeatable).",
        ),
        click.option(
            "--phase",
            "phases",
            multiple=True,
            metavar="PH",
            help="Applies in this phase: " + ", ".join(KNOWN_PHASES) + " (repeatable).",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


@memory.command("remember")
@path_argument
@click.option("--text", required=True, help="What to remember, in your words.")
@click.option("--title", help="One line; derived from the text when left out.")
@click.option("--summary", help="One line for manifests; derived from the text when left out.")
@click.option(
    "--scope",
    type=click.Choice(["global", "project"]),
    help="Default: project inside a repository, else global.",
)
@click.option(
    "--type",
    "memory_type",
    type=click.Choice(MEMORY_TYPES),
    default="collaboration-policy",
    show_default=True,
)
@click.option(
    "--class",
    "memory_class",
    type=click.Choice(MEMORY_CLASSES),
    help="Default: project-agreement (project) or user-preference (global).",
)
@selector_options
@json_option
def memory_remember(path: Path, as_json: bool, **options: Any) -> None:
    """Remember an explicit, long-term statement.

    Example: comet memory remember --text "Run ruff before committing" --operation commit
    """
    from comet_git.commands import memory as commands
    from comet_git.records.model import Selectors

    def produce() -> Output:
        selectors = Selectors(
            options.pop("paths"), options.pop("tasks"), options.pop("operations"), options.pop("phases")
        )
        return commands.remember(workspace(path), selectors=selectors, **options)

    run(as_json, produce)


@memory.command("list")
@path_argument
@click.option("--scope", type=click.Choice(["global", "project"]))
@click.option("--type", "memory_type", type=click.Choice(MEMORY_TYPES))
@click.option("--lifecycle", type=click.Choice(LIFECYCLES))
@click.option(
    "--query",
    "text",
    metavar="TEXT",
    help="Records whose title, summary, text or tasks share a word (or its stem) with TEXT, best first.",
)
@click.option(
    "--all", "include_all", is_flag=True, help="Include superseded and forgotten records, each marked."
)
@click.option(
    "--stale",
    is_flag=True,
    help="Only the records whose paths, make targets or scripts are gone at HEAD, with the reasons.",
)
@json_option
def memory_list(path: Path, as_json: bool, **options: Any) -> None:
    """List the records visible here: global ones and this project's.

    Example: comet memory list --type core-profile --json
    """
    from comet_git.commands import memory as commands

    run(as_json, lambda: commands.list_records(workspace(path), **options))


@memory.command("show")
@path_argument
@click.option("--id", "record_id", required=True)
@click.option("--history", "with_history", is_flag=True, help="Add the record's earlier versions.")
@json_option
def memory_show(path: Path, record_id: str, with_history: bool, as_json: bool) -> None:
    """Show one record in full.

    Example: comet memory show --id pm-7k2m9q4x --history
    """
    from comet_git.commands import memory as commands

    run(as_json, lambda: commands.show(workspace(path), record_id, with_history))


@memory.command("correct")
@path_argument
@click.option("--id", "record_id", required=True)
@click.option("--text", help="The corrected text.")
@click.option("--title")
@click.option("--summary")
@click.option("--type", "memory_type", type=click.Choice(MEMORY_TYPES))
@click.option("--class", "memory_class", type=click.Choice(MEMORY_CLASSES))
@selector_options
@json_option
def memory_correct(path: Path, record_id: str, as_json: bool, **options: Any) -> None:
    """Correct a record: a new version with the same id; the old one stays in history.

    A selector option replaces that selector's list.
    Example: comet memory correct --id pm-7k2m9q4x --text "Run ruff and mypy before committing"
    """
    from comet_git.commands import memory as commands
    from comet_git.provider import Correct

    def produce() -> Output:
        change = Correct(
            id=record_id,
            text=options["text"],
            title=options["title"],
            summary=options["summary"],
            memory_type=options["memory_type"],
            memory_class=options["memory_class"],
            paths=options["paths"] or None,
            tasks=options["tasks"] or None,
            operations=options["operations"] or None,
            phases=options["phases"] or None,
        )
        if all(value in (None, ()) for key, value in options.items()):
            raise CometError("nothing to correct", hint="pass --text, --title or a selector option")
        return commands.correct(workspace(path), change)

    run(as_json, produce)


@memory.command("forget")
@path_argument
@click.option("--id", "record_id", required=True)
@click.option("--permanent", is_flag=True, help="Delete the content, its history and journal text for good.")
@json_option
def memory_forget(path: Path, record_id: str, permanent: bool, as_json: bool) -> None:
    """Forget a record (rollback-able), or with --permanent for good.

    Example: comet memory forget --id pm-7k2m9q4x
    """
    from comet_git.commands import memory as commands

    run(as_json, lambda: commands.forget(workspace(path), record_id, permanent))


@memory.command("rollback")
@path_argument
@click.option("--id", "record_id", required=True)
@json_option
def memory_rollback(path: Path, record_id: str, as_json: bool) -> None:
    """Undo the last correction or forget of a record.

    Example: comet memory rollback --id pm-7k2m9q4x
    """
    from comet_git.commands import memory as commands

    run(as_json, lambda: commands.rollback(workspace(path), record_id))


@memory.command("status")
@path_argument
@json_option
def memory_status(path: Path, as_json: bool) -> None:
    """Store paths, counts, invalid files, conflicts and switches.

    Example: comet memory status --json
    """
    from comet_git.commands import memory as commands

    run(as_json, lambda: commands.status(workspace(path)))


@memory.command("edit")
@path_argument
@click.option("--id", "record_id", required=True)
@json_option
def memory_edit(path: Path, record_id: str, as_json: bool) -> None:
    """Edit a record in $EDITOR (its Markdown: text, title, summary, type, selectors); saving
    applies the change as a correction, through the provider in use (Local or Remote).

    Refused, changing nothing, if another correction of the record came in meanwhile.
    Example: comet memory edit --id pm-7k2m9q4x   (with EDITOR=vim, say)
    """
    from comet_git.commands import transfer

    def produce() -> Output:
        ws = workspace(path)
        original = transfer.editable(ws, record_id)
        store = ws.provider().store_for_scope(original.record.scope)
        return transfer.apply_edit(ws, original, _edit_privately(store.root, record_id, original.markdown))

    run(as_json, produce)


def _edit_privately(folder: Path, record_id: str, text: str) -> str | None:
    """$EDITOR on `text`; None if it was not changed.  The file is in the record's own store
    (owner-only, and named as the temporaries that `forget --permanent` clears) and is removed
    however the command ends: click's own would be in /tmp, and a killed command left it there."""
    import signal

    def leave(number: int, _frame: object) -> None:
        raise SystemExit(128 + number)  # so that `finally` removes the file

    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    file = folder / f".{record_id}.{os.urandom(6).hex()}.tmp"
    descriptor = os.open(file, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    previous = {number: signal.signal(number, leave) for number in (signal.SIGTERM, signal.SIGHUP)}
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        click.edit(filename=str(file))
        edited = file.read_text(encoding="utf-8")
        return None if edited == text else edited
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        file.unlink(missing_ok=True)


@memory.command("export")
@path_argument
@json_option
def memory_export(path: Path, as_json: bool) -> None:
    """Write this project's and the global records, with their history and tombstones, to stdout.

    The provider's own JSON (comet.provider/v1), lossless; `comet memory import` reads it.
    Example: comet memory export > memory.json
    """
    from comet_git.commands import transfer

    run(as_json, lambda: transfer.export(workspace(path)))


@memory.command("import")
@click.argument("source", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE")
@click.argument("path", required=False, default=".", type=click.Path(path_type=Path))
@json_option
def memory_import(source: Path, path: Path, as_json: bool) -> None:
    """Restore the records of an export through the provider in use (the same ids and versions).

    A record already there with the same files is left as it is; one there with other content
    is refused (and listed), the others imported.
    Example: comet memory import memory.json
    """
    from comet_git.commands import transfer

    run(as_json, lambda: transfer.import_file(workspace(path), source))


@memory.command("signal")
@path_argument
@click.option("--text", required=True, help="What the user said, as they said it.")
@click.option(
    "--scope", type=click.Choice(["global", "project"]), help="Override where a long-term statement goes."
)
@click.option("--episode", help="Tie the signal to a task's episode (default: $COMET_EPISODE).")
@click.option("--session", help="The agent's session (as for `comet task --session`): its episode.")
@json_option
def memory_signal(
    path: Path, text: str, scope: str | None, episode: str | None, session: str | None, as_json: bool
) -> None:
    """Capture a user's statement: long-term ones become memory, one-offs do not.

    The statement is journaled as a user.signal. A long-term requirement ("from now
    on...", "always...", "以后...") becomes an explicit, proven record; a one-off
    ("this time...", "这次先不要...") is returned as a constraint for the current task only.
    Example: comet memory signal --text "From now on, run ruff before every commit" --json
    """
    from comet_git.commands import journal

    run(as_json, lambda: journal.signal(workspace(path), text, scope, episode, session))


# -- journal ----------------------------------------------------------------------------


@cli.group("journal")
def journal_group() -> None:
    """The Experience Journal: what happened, as append-only events."""


@journal_group.command("list")
@path_argument
@click.option("--type", "event_type", metavar="TYPE", help="Only events of this type, e.g. repo.commit.")
@click.option("--limit", type=click.IntRange(min=1), help="Only the most recent N events.")
@json_option
def journal_list(path: Path, event_type: str | None, limit: int | None, as_json: bool) -> None:
    """Show the journal's events (global and this project's), oldest first.

    Example: comet journal list --type repo.commit --limit 20
    """
    from comet_git.commands import journal

    run(as_json, lambda: journal.list_events(workspace(path), event_type, limit))


@journal_group.command("import-history")
@path_argument
@click.option("--since", metavar="REV", help="Only commits after REV (REV..HEAD).")
@click.option(
    "--max", "max_count", type=click.IntRange(min=1), metavar="N", help="Only your N most recent commits."
)
@click.option(
    "--author-email", "emails", multiple=True, help="Your author email (repeatable); default: git config."
)
@json_option
def journal_import_history(
    path: Path, since: str | None, max_count: int | None, emails: tuple[str, ...], as_json: bool
) -> None:
    """Backfill your own past commits as journal events (the hook's event ids: no duplicates).

    Commits count as yours when their author email is one of `git config --get-all
    comet.authorEmail`, else `git config user.email`, or the --author-email values.
    Example: comet journal import-history --max 500
    """
    from comet_git.commands import journal

    run(as_json, lambda: journal.import_history(workspace(path), since, max_count, emails))


@journal_group.command("replay")
@path_argument
@json_option
def journal_replay(path: Path, as_json: bool) -> None:
    """Process again the events whose processing failed or never finished.

    Example: comet journal replay
    """
    from comet_git.commands import journal

    run(as_json, lambda: journal.replay(workspace(path)))


@journal_group.command("compact")
@path_argument
@json_option
def journal_compact(path: Path, as_json: bool) -> None:
    """Fold processed events no record cites into monthly summaries (`comet learn` does it past 32 MB).

    Example: comet journal compact --json
    """
    from comet_git.commands import journal

    run(as_json, lambda: journal.compact(workspace(path)))


@journal_group.command("record")
@path_argument
@click.option(
    "--type",
    "event_type",
    required=True,
    type=click.Choice(["verification.completed", "review.resolved"]),
    help="What finished: a verification (tests, a build, a check) or a review.",
)
@click.option("--summary", required=True, help="What was verified or reviewed, in a sentence.")
@click.option(
    "--outcome",
    required=True,
    type=click.Choice(["passed", "failed", "accepted", "changes-made", "rejected"]),
    help="verification: passed|failed; review: accepted|changes-made|rejected.",
)
@click.option("--lesson", help="What to remember from it: with a lesson, `comet learn` makes it an episode.")
@click.option("--session", help="The task session it belongs to (its request becomes the situation).")
@json_option
def journal_record(
    path: Path,
    event_type: str,
    summary: str,
    outcome: str,
    lesson: str | None,
    session: str | None,
    as_json: bool,
) -> None:
    """Journal a finished verification or a resolved review.

    Example: comet journal record --type verification.completed --summary "ran e2e" --outcome failed
    """
    from comet_git.commands import task

    run(as_json, lambda: task.complete(path, summary, outcome, lesson, session, event_type))


@journal_group.command("flush")
@path_argument
@click.option("--timeout", type=float, default=30.0, show_default=True, help="Seconds to wait.")
@json_option
def journal_flush(path: Path, timeout: float, as_json: bool) -> None:
    """Wait until the git-hook workers already started have written their events.

    Example: comet journal flush --timeout 10
    """
    from comet_git.commands import journal

    run(as_json, lambda: journal.flush(workspace(path), timeout))


def request_options(function: F) -> F:
    """The request's options but --task (each command words its own), from their one declaration."""
    from comet_git.commands.request_options import REQUEST_OPTIONS
    from comet_git.provider import COUNT_MAX

    for option in reversed(REQUEST_OPTIONS):
        count: dict[str, Any] = (
            {} if option.default is None
            else {"type": click.IntRange(0, COUNT_MAX), "default": option.default, "show_default": True}
        )  # fmt: skip
        function = click.option(option.flag, option.dest, metavar=option.metavar, help=option.help, **count)(
            function
        )
    return function


@memory.command("apply")
@path_argument
@click.option(
    "--delta", "source", required=True, metavar="FILE|-", help="A comet.learning-delta/v1 document."
)
@json_option
def memory_apply(path: Path, source: str, as_json: bool) -> None:
    """Apply learning deltas from an agent acting as reflector (always inferred, never over explicit).

    Example: comet memory apply --delta deltas.json --json
    """
    from comet_git.commands import learning

    run(as_json, lambda: learning.apply(workspace(path), source))


@memory.command("retrieve")
@path_argument
@click.option("--task", help="What the task is about (none: what a session starts with).")
@request_options
@json_option
def memory_retrieve(path: Path, as_json: bool, **options: Any) -> None:
    """The Context Director's selection for a task, without recording an application.

    Example: comet memory retrieve --task "fix the login form" --path src/auth --json
    """
    from comet_git.commands import task

    run(as_json, lambda: task.context(path, options, record_applications=False))


@memory.command("explain")
@path_argument
@click.option("--id", "record_id", required=True)
@click.option("--task", required=True, help="The task to explain the decision for.")
@request_options
@json_option
def memory_explain(path: Path, record_id: str, as_json: bool, **options: Any) -> None:
    """Why one record was or was not delivered for a request: each condition checked.

    Example: comet memory explain --id pm-7k2m9q4x --task "write a migration" --path db/
    """
    from comet_git.commands import task

    run(as_json, lambda: task.explain(path, record_id, options))


@cli.command("task")
@path_argument
@click.option(
    "--task", help="What the task is about (start of a task, or a phase change); none: session start."
)
@request_options
@click.option("--session", metavar="ID", help="Never hand the same item twice within this session.")
@click.option("--expand-context", "expand_id", metavar="ID", help="The full record behind a manifest entry.")
@click.option("--application", metavar="AID", help="An applicationId to report an outcome for.")
@click.option("--outcome", type=click.Choice([*OUTCOMES, *TASK_OUTCOMES]), help="The outcome to report.")
@click.option(
    "--complete",
    is_flag=True,
    help="Journal the task's completion (with --summary, --outcome, --lesson; --task names the task"
    " when there is no --session).",
)
@click.option("--summary", help="With --complete: what the task did.")
@click.option("--lesson", help="With --complete: what to remember from it.")
@json_option
def task_command(path: Path, as_json: bool, **options: Any) -> None:
    """The agent's entry point: the memory that applies to this task, within a budget.

    Context items come in full; the rest are manifest entries to expand by id. Each
    item says why it applied and carries an applicationId to report outcomes with.
    Example: comet task . --task "Modify the authentication module" --path src/auth --phase build --json
    """
    from comet_git.commands import task

    modes = [
        bool(options["expand_id"]),
        bool(options["application"]),
        options["complete"],
        options["task"] is not None and not options["complete"],  # a completion may name its task
    ]
    if sum(modes) > 1 or (options["task"] is not None and options["outcome"] and not options["complete"]):
        raise click.UsageError(
            "give at most one of --task TEXT, --expand-context ID,"
            " --application AID --outcome OUTCOME, --complete (none: the session-start context)"
        )
    if options["expand_id"]:
        run(as_json, lambda: task.expand(path, options["expand_id"]))
    elif options["application"]:
        if options["outcome"] not in OUTCOMES:
            raise click.UsageError("--application needs --outcome " + "|".join(OUTCOMES))
        run(as_json, lambda: task.outcome(path, options["application"], options["outcome"]))
    elif options["complete"]:
        if not options["summary"] or options["outcome"] not in TASK_OUTCOMES:
            raise click.UsageError("--complete needs --summary TEXT and --outcome " + "|".join(TASK_OUTCOMES))
        run(
            as_json,
            lambda: task.complete(
                path,
                options["summary"],
                options["outcome"],
                options["lesson"],
                options["session"],
                task_text=options["task"],
            ),
        )
    else:
        run(as_json, lambda: task.context(path, options, record_applications=True))


# -- config and repair -----------------------------------------------------------------


# -- the memory service ----------------------------------------------------------------------


def data_option(function: F) -> F:
    return click.option(
        "--data",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="The service's directory: users' stores, tokens (default: $COMET_HOME/server).",
    )(function)


def database_option(function: F) -> F:
    return click.option(
        "--database",
        envvar="COMET_DATABASE_URL",
        default=None,
        metavar="URL",
        help="A PostgreSQL database (postgresql://USER@HOST/DB) for users, records and tokens,"
        " instead of --data (default: $COMET_DATABASE_URL, else --data).",
    )(function)


def _data(data: Path | None) -> Path:
    from comet_git.commands.serve import default_data

    return data if data is not None else default_data()


@cli.group("serve", invoke_without_command=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8765, show_default=True, type=int, help="The TCP port.")
@data_option
@click.option("--tls-cert", type=click.Path(dir_okay=False, path_type=Path), help="PEM certificate (HTTPS).")
@click.option("--tls-key", type=click.Path(dir_okay=False, path_type=Path), help="PEM key of --tls-cert.")
@click.option("--insecure-http", is_flag=True, help="Serve a non-loopback address without TLS (warns).")
@database_option
@click.pass_context
def serve(
    ctx: click.Context,
    host: str,
    port: int,
    data: Path | None,
    tls_cert: Path | None,
    tls_key: Path | None,
    insecure_http: bool,
    database: str | None,
) -> None:
    """Serve memory over HTTP (comet.provider/v1) for clients whose memory.provider is remote.

    Needs the server extra: pip install '.[server]' in a checkout of this repository.  One store
    per user under --data, laid out as a COMET_HOME is; or, with --database, every user in one
    PostgreSQL database (the postgres extra; its migrations are applied at start).
    GET /openapi.json describes the endpoints.
    Example: comet serve --port 8765 --data /srv/comet
    """
    if ctx.invoked_subcommand is not None:
        return
    from comet_git.server import run as server

    try:
        listening = server.plan(host, port, _data(data), tls_cert, tls_key, insecure_http, database)
        for warning in listening.warnings:
            click.echo(warning, err=True)
        scheme = "https" if listening.tls_cert else "http"
        if database is None:
            where = f"data {listening.data}"
        else:
            from comet_git.server.postgres.database import redacted

            where = f"database {redacted(database)}"
        click.echo(f"comet serve: {scheme}://{host}:{port} ({where})", err=True)
        server.serve(listening)
    except CometError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)


@serve.group("token")
def serve_token() -> None:
    """Create, list and revoke the service's tokens."""


@serve_token.command("create")
@click.option("--user", required=True, help="Whose store the token opens.")
@data_option
@database_option
@json_option
def serve_token_create(user: str, data: Path | None, database: str | None, as_json: bool) -> None:
    """Create a token for USER and print it once (the server keeps only its hash).

    Example: comet serve token create --user ana --data /srv/comet
    """
    from comet_git.commands import serve as commands

    run(as_json, lambda: commands.create_token(_data(data), user, database))


@serve_token.command("list")
@data_option
@database_option
@json_option
def serve_token_list(data: Path | None, database: str | None, as_json: bool) -> None:
    """List the live tokens (ids and users, never the tokens).

    Example: comet serve token list
    """
    from comet_git.commands import serve as commands

    run(as_json, lambda: commands.list_tokens(_data(data), database))


@serve_token.command("revoke")
@click.argument("token_id", metavar="ID")
@data_option
@database_option
@json_option
def serve_token_revoke(token_id: str, data: Path | None, database: str | None, as_json: bool) -> None:
    """Revoke a token: the server refuses it from the next request on.

    Example: comet serve token revoke 3f9a1c0b7d2e
    """
    from comet_git.commands import serve as commands

    run(as_json, lambda: commands.revoke_token(_data(data), token_id, database))


@serve.command("migrate")
@database_option
@click.option("--check", "check_only", is_flag=True, help="Only list the pending migrations; exit 1 if any.")
@json_option
def serve_migrate(database: str | None, check_only: bool, as_json: bool) -> None:
    """Apply the database's pending schema migrations (the server also applies them at start).

    Idempotent: each migration is applied once, under a lock that servers starting at once share.
    Example: comet serve migrate --database postgresql://comet@db.example/comet --check
    """
    from comet_git.commands import serve as commands

    if database is None:
        fail(
            CometError(
                "comet serve migrate needs a database",
                hint="pass --database postgresql://USER@HOST/DB or set COMET_DATABASE_URL",
            ),
            as_json,
        )
    run(as_json, lambda: commands.migrate(database, check_only))


@cli.group("config")
def config_group() -> None:
    """Settings: memory.learning, memory.retrieval, memory.provider, memory.remote.url and .timeout."""


@config_group.command("get")
@click.argument("args", nargs=-1, required=True, metavar="[PATH] KEY")
@json_option
def config_get(args: tuple[str, ...], as_json: bool) -> None:
    """Show a setting, its value and where it comes from.

    Example: comet config get memory.retrieval
    """
    from comet_git.commands import settings

    if len(args) > 2:
        raise click.UsageError("expected [PATH] KEY")
    path, key = (Path("."), args[0]) if len(args) == 1 else (Path(args[0]), args[1])
    run(as_json, lambda: settings.get(workspace(path), key))


@config_group.command("set")
@click.argument("args", nargs=-1, required=True, metavar="[PATH] KEY VALUE")
@click.option(
    "--global", "global_scope", is_flag=True, help="Set it for every project (else for this project only)."
)
@json_option
def config_set(args: tuple[str, ...], global_scope: bool, as_json: bool) -> None:
    """Set a switch for this project (or with --global, for all).

    Example: comet config set memory.learning false
    """
    from comet_git.commands import settings

    if len(args) not in (2, 3):
        raise click.UsageError("expected [PATH] KEY VALUE")
    path, key, value = (Path("."), *args) if len(args) == 2 else (Path(args[0]), args[1], args[2])
    run(as_json, lambda: settings.set_value(workspace(path), key, value, global_scope=global_scope))


@cli.command()
@path_argument
@json_option
def learn(path: Path, as_json: bool) -> None:
    """Run reflection and consolidation on the journal's pending events now.

    Signals become records, task lessons become episodes, your commits are checked
    for habits, and records that failed in use are listed for re-reflection. The
    git hooks run the same processing in the background after each event.
    Example: comet learn --json
    """
    from comet_git.commands import learning

    run(as_json, lambda: learning.learn_now(workspace(path)))


@cli.command()
@path_argument
@click.option("--check", "check_only", is_flag=True, help="Only report; change nothing.")
@json_option
def repair(path: Path, check_only: bool, as_json: bool) -> None:
    """Rebuild the index from the Markdown records (or only check them).

    Example: comet repair --check
    """
    from comet_git.commands import maintenance

    run(as_json, lambda: maintenance.repair(check_only))


@cli.command("mcp")
@path_argument
def mcp_command(path: Path) -> None:
    """A stdio MCP server over task context, expand, remember, signal, feedback, complete and forget.

    Needs the optional extra: pip install '.[mcp]' in a checkout of comet-git. The host starts it; it
    serves the repository at PATH until the host closes its stdin.
    Example: comet mcp /path/to/repo
    """
    from comet_git.mcp_server import serve

    if sys.stdin is None or sys.stdout is None:  # started with either closed: no host to serve
        click.echo("error: stdin or stdout is closed: an MCP host talks to comet mcp over both", err=True)
        sys.exit(1)
    try:
        serve(path)
    except CometError as error:  # stdout belongs to the protocol: errors go to stderr only
        click.echo(f"error: {error}", err=True)
        sys.exit(1)


@cli.command("dashboard")
@path_argument
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="The port (default: a free one).")
@click.option("--no-browser", is_flag=True, help="Print the URL only; do not open a browser.")
def dashboard_command(path: Path, port: int, no_browser: bool) -> None:
    """See, check and correct your memory in a browser, on 127.0.0.1 only.

    Prints the URL to open (it carries this launch's token) and serves until Ctrl-C.
    Needs the optional extra: pip install '.[dashboard]' in a checkout of comet-git.
    Example: comet dashboard . --no-browser
    """
    from comet_git.dashboard.run import serve

    try:
        serve(path, port, open_browser=not no_browser, announce=click.echo)
    except CometError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(1)


@cli.command()
@click.option("--keep", is_flag=True, help="Keep the temporary repository and store, and print where.")
def demo(keep: bool) -> None:
    """A self-contained tour in a temporary repository and store.

    Example: comet demo
    """
    from comet_git.demo import run_demo

    run(False, lambda: run_demo(keep=keep))


# -- coding agents ------------------------------------------------------------------------


@cli.group()
def skill() -> None:
    """The comet-memory agent skill: tells coding agents when and how to use comet."""


@skill.command("install")
@click.option("--user", "user_scope", is_flag=True, help="Into your home directory (the default).")
@click.option(
    "--project",
    type=click.Path(file_okay=False, path_type=Path),
    metavar="PATH",
    help="Into the repository at PATH (.claude/skills, .agents/skills, .cursor/skills). This writes"
    " files into your repository, which comet otherwise never does: only on your explicit request.",
)
@click.option(
    "--host",
    type=click.Choice(["claude", "codex", "cursor", "gemini", "all"]),
    default="all",
    show_default=True,
    help="Which agent's skills folder (codex and gemini share .agents/skills).",
)
@click.option("--force", is_flag=True, help="Replace a copy you changed (it is kept as a backup).")
@json_option
def skill_install(user_scope: bool, project: Path | None, host: str, force: bool, as_json: bool) -> None:
    """Copy the comet-memory skill to where coding agents look for skills.

    Idempotent: an up-to-date copy is left alone, an old untouched one is updated, and a
    copy you edited is never overwritten without --force.
    Example: comet skill install --host claude
    """
    from comet_git.commands import skill as commands

    if user_scope and project is not None:
        raise click.UsageError("give --user or --project PATH, not both")
    run(as_json, lambda: commands.install(host, project, force))


@cli.command("agent-hook", context_settings={"ignore_unknown_options": True})
@click.option("--host", metavar="claude|codex|cursor|gemini", help="The agent that calls the hook.")
@click.argument("event", required=False)
def agent_hook(host: str | None, event: str | None) -> None:
    """Answer a coding agent's hook: reads the host's hook JSON on stdin.

    Session start: the task context for the repository; a prompt: a long-term statement
    in it is remembered (one-offs are not) and the memory relevant to it is returned;
    a file about to be read or edited: the memory for that path; session end: a task
    completion is journaled.  EVENT is the host's event name (default: the payload's hook_event_name).
    Always exits 0 and answers within about a second (COMET_AGENT_HOOK_TIMEOUT), even on
    bad input or a broken store; failures go to the diagnostics log.
    Example: comet agent-hook --host claude SessionStart < payload.json
    """
    from comet_git.commands.agent_hook import answer

    output = answer(host or "", event, lambda: sys.stdin.read())
    if output.text:
        sys.stdout.write(str(output.text) + "\n")
    sys.stdout.flush()
    # Daemon threads may still hold the store: leave without waiting for them.
    os._exit(0)


def main(args: list[str]) -> None:
    """Run the click CLI on `args`; with --json a usage error is a `comet.error/v1` object too."""
    try:
        code = cli.main(args, prog_name="comet", standalone_mode=False)
    except click.ClickException as error:
        if "--json" not in args:
            error.show()
        else:
            context = getattr(error, "ctx", None)
            help_hint = f"see `{context.command_path} --help`" if context else "see `comet --help`"
            sys.stderr.write(error_report(error.format_message(), help_hint, True))
        sys.exit(error.exit_code)
    except click.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)
