"""The options of a Context Director request, declared once: cli.py makes click options of them,
and entry.py parses a plain `comet task` with them (without importing click)."""

from __future__ import annotations

from typing import NamedTuple

from comet_git.provider import DEFAULT_BUDGET, DEFAULT_MAX_ENTRIES


class RequestOption(NamedTuple):
    flag: str
    dest: str  # the keyword the command receives
    metavar: str
    help: str
    default: int | None = None  # set: a count of zero or more; unset: text, absent by default


TASK = RequestOption("--task", "task", "TEXT", "What the task is about.")  # each command words its help
SESSION = RequestOption("--session", "session", "ID", "Never hand the same item twice within this session.")
REQUEST_OPTIONS = (
    RequestOption("--path", "request_path", "PATH", "The file or folder the task is about."),
    RequestOption("--operation", "operation", "OP", "edit, test, commit, review, refactor, debug, ..."),
    RequestOption("--phase", "phase", "PH", "plan, build, verify, review, release, ..."),
    RequestOption(
        "--context-budget", "budget", "N", "Characters of memory to deliver at most.", DEFAULT_BUDGET
    ),
    RequestOption("--max-entries", "max_entries", "N", "Manifest entries at most.", DEFAULT_MAX_ENTRIES),
)
TASK_OPTIONS = (TASK, *REQUEST_OPTIONS, SESSION)  # what a plain `comet task` may give
DEFAULTS = {option.dest: option.default for option in TASK_OPTIONS if option.default is not None}
