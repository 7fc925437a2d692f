"""The `comet` console script.

`comet task [--task ...]` is the agent's hot path: an agent calls it at every task and
phase change.  It is parsed here, without importing click (about 30 ms of a ~60 ms
start), whenever its arguments are the plain ones below; anything else (another
command, --help, an unknown or malformed option) goes to the click CLI, which also
gives the usage errors.  tests/test_packaging.py checks that the two agree.
`comet --version` is answered here too, with what click's version option prints, and
so is a plain `comet memory list [PATH] [--json]`, the listing tools and people run most,
and `comet agent-hook --host HOST [EVENT]`, which the agents' hooks run at every prompt
(commands/fast.py parses these plain calls).  Those two, the calls an agent makes all the time,
are first offered to the warm process (comet_git/warm), which has everything imported already.
"""

from __future__ import annotations

import gc
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (some 6 ms of each call)
if TYPE_CHECKING:
    from comet_git.commands import Output


def _agent_hook(host: str, event: str | None) -> None:
    """What the click command `agent-hook` does (cli.py), without importing click."""
    from comet_git.commands.agent_hook import answer

    output = answer(host, event, lambda: sys.stdin.read() if sys.stdin is not None else "")
    if output.text:
        sys.stdout.write(str(output.text) + "\n")
    sys.stdout.flush()
    # Daemon threads may still hold the store: leave without waiting for them.
    os._exit(0)


# `comet task` options that are not retrieval: their values are stored or looked up.
TASK_MODE_OPTIONS = ("--application", "--expand-context", "--complete")


def is_retrieval(argv: list[str]) -> bool:
    """`comet task` or `comet memory retrieve` asking for context: it answers any argument."""
    if argv[:2] == ["memory", "retrieve"]:
        return True
    return argv[:1] == ["task"] and not any(item.partition("=")[0] in TASK_MODE_OPTIONS for item in argv)


def non_utf8_argument(argv: list[str]) -> str | None:
    """The first argument that is not UTF-8 (Python holds its bytes as lone surrogates)."""
    for item in argv:
        try:
            item.encode("utf-8")
        except UnicodeEncodeError:
            return item
    return None


def refuse_non_utf8(item: str, argv: list[str]) -> None:
    """A usage error (exit 2): memory is UTF-8 text, and what is stored must read back as written."""
    from comet_git.commands import error_report

    shown = item.encode("utf-8", "backslashreplace").decode("ascii", "replace")
    message = f"the argument '{shown}' is not valid UTF-8"
    hint = "comet stores text as UTF-8: pass the value in UTF-8 (check your terminal's or script's encoding)"
    if "--json" in argv:
        sys.stderr.write(error_report(message, hint, True))
    else:
        command = " ".join(word for word in argv[:2] if not word.startswith("-"))
        sys.stderr.write(
            f"Usage: comet {command} [OPTIONS]\nTry 'comet {command} --help' for help.\n\n"
            f"Error: {message}\n  hint: {hint}\n"
        )
    sys.exit(2)


def _write(output: Output, as_json: bool) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.writelines(output.render(as_json))
    sys.stdout.buffer.flush()
    sys.stderr.flush()


def _list_records(path: str, as_json: bool) -> None:
    """`comet memory list` without click, as the CLI would run it (errors: exit 1)."""
    from pathlib import Path

    from comet_git.commands import error_report, memory
    from comet_git.errors import CometError, environment_error
    from comet_git.workspace import open_workspace

    try:
        output = memory.list_records(
            open_workspace(Path(path)),
            scope=None,
            memory_type=None,
            lifecycle=None,
            text=None,
            include_all=False,
        )
    except OSError as error:  # as cli.run answers it
        failure = environment_error(error)
        sys.stderr.write(error_report(failure.headline(), failure.hint, as_json))
        sys.exit(1)
    except CometError as error:
        sys.stderr.write(error_report(error.headline(), error.hint, as_json))
        sys.exit(1)
    _write(output, as_json)


def main() -> None:
    # Started with stdout or stderr closed (`comet task >&-`), Python has None there: what
    # would be written there goes nowhere instead, and the command still does its work.
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (the process's stdout until it exits)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    try:
        dispatch(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (`comet task --json | head -c1`): nothing more to say.  Python
        # flushes stdout again at exit, so point it at /devnull first (the Python docs' "Note
        # on SIGPIPE").
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)


def dispatch(argv: list[str]) -> None:
    if argv == ["--version"]:
        from comet_git import __version__

        print(f"comet, version {__version__}")  # what click.version_option prints
        return
    # A short-lived process that allocates many small objects: the cyclic garbage
    # collector only costs time here.
    gc.disable()
    if argv[:1] == ["agent-hook"] or (argv[:1] == ["task"] and is_retrieval(argv)):
        from comet_git.warm import client

        code = client.answer(argv)
        if code is not None:  # answered by the warm process (comet_git/warm)
            os._exit(code)
    from comet_git.looks import one_look

    with one_look():  # one short command: each store's files are listed once
        _fast_paths(argv)


def _fast_paths(argv: list[str]) -> None:
    """The commands answered without click (each one short), else click, whose short commands
    look once each (cli.run); a long-running one (serve, mcp, dashboard) steps out of this
    look: it serves many commands."""
    from comet_git.commands.fast import parse_fast_agent_hook, parse_fast_list, parse_fast_task

    hook = parse_fast_agent_hook(argv[1:]) if argv[:1] == ["agent-hook"] else None
    if hook is not None:
        _agent_hook(*hook)
    if not is_retrieval(argv):
        rejected = non_utf8_argument(argv)
        if rejected is not None:
            refuse_non_utf8(rejected, argv)
    plain_list = parse_fast_list(argv[2:]) if argv[:2] == ["memory", "list"] else None
    if plain_list is not None:
        _list_records(*plain_list)
        return
    fast = parse_fast_task(argv[1:]) if argv[:1] == ["task"] else None
    if fast is None:
        from comet_git.cli import main as click_main
        from comet_git.looks import every_look

        with every_look():
            click_main(argv)
        return
    from pathlib import Path  # not at the top: `comet --version` needs no pathlib (~5 ms)

    from comet_git.commands import task

    path, options, as_json = fast
    output = task.context(Path(path), options, record_applications=True)
    _write(output, as_json)
    # Done, and everything is written and closed: skip the interpreter's teardown (freeing
    # every module and object, some 6 ms) as `os._exit` does.
    os._exit(0)


if __name__ == "__main__":
    main()
