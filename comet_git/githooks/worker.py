"""The git-hook worker: `python /abs/path/worker.py HOOK [ARGS...]`, started detached by a shim.

It turns one hook call into journal events and appends them to the project's
journal.  It never prints and always exits 0; what goes wrong is written to the
diagnostics log.  Its hot path imports only the standard library.  It is run as
a script (not with -m) so that the repository it runs in, which is the current
directory, can never shadow the installed comet_git package.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

LEARNABLE = ("repo.commit",)  # what the reflectors read


def run_hook(hook: str, args: list[str], stdin_text: str, cwd: Path) -> int:
    """Journal what happened, then learn from it; returns how many events were added."""
    from comet_git.errors import CometError
    from comet_git.identity import find_repository, read_persisted_key
    from comet_git.journal.gitlog import HookMoment, hook_events
    from comet_git.journal.log import Journal
    from comet_git.store import Home

    location = find_repository(cwd)
    if location is None:
        return 0
    key = read_persisted_key(location)
    if key is None:
        raise CometError(f"{location.worktree_root} has no comet project key", hint="run `comet init` there")
    moment = HookMoment.from_shim(
        os.environ.get("COMET_HOOK_HEAD", ""), os.environ.get("COMET_HOOK_BRANCH", "")
    )
    events = hook_events(location.worktree_root, key, hook, args, stdin_text, moment)
    store = Home.from_environment().project_store(key).create()
    added = Journal(store).append(events).added
    if any(event.type in LEARNABLE for event in added):
        learn(location.worktree_root)
    return len(added)


def learn(repository: Path) -> None:
    """`comet learn`, in this detached process: git has long returned.  A learn already
    running for the store makes this one skip it (the running one may have missed these
    events; they stay pending for the next)."""
    from comet_git.learning.learn import learn_in
    from comet_git.workspace import open_workspace

    # HEAD moved: learn_in checks the records' anchors again, so that `comet task` finds the
    # verdicts cached (it never makes the check itself).
    learn_in(open_workspace(repository))


def main(argv: list[str]) -> int:
    ticket = os.environ.get("COMET_HOOK_TICKET")
    hook = argv[0] if argv else "unknown"
    try:
        if os.environ.get("COMET_DISABLE") != "1":
            run_hook(hook, argv[1:], os.environ.get("COMET_HOOK_INPUT", ""), Path.cwd())
    except BaseException as error:  # a hook must never fail the user's git command
        with contextlib.suppress(BaseException):
            from comet_git.diagnostics import log_failure
            from comet_git.store import Home

            log_failure(
                Home.from_environment().diagnostics_log, f"git-hook:{hook}", error, cwd=str(Path.cwd())
            )
    finally:
        if ticket:
            with contextlib.suppress(OSError):
                os.unlink(ticket)
    return 0


if __name__ == "__main__":
    # Run as a script, sys.path[0] is this file's folder; the package must come from site-packages.
    sys.path[0:1] = []
    sys.exit(main(sys.argv[1:]))
