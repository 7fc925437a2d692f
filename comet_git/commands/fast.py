"""The plain calls that the console script (entry.py) and the warm process (warm/server.py)
answer without click: their arguments parsed here, once for both.  tests/test_packaging.py
checks that these parsers and click agree."""

from __future__ import annotations

from comet_git.commands.request_options import DEFAULTS, TASK_OPTIONS
from comet_git.provider import COUNT_MAX


def parse_fast_task(argv: list[str]) -> tuple[str, dict[str, object], bool] | None:
    """(PATH, options, --json) for a plain `comet task` call, or None to let click decide."""
    destination = {option.flag: option.dest for option in TASK_OPTIONS}
    options: dict[str, object] = {"task": "", **DEFAULTS}
    seen: set[str] = set()
    path: str | None = None
    as_json = False
    items = iter(argv)
    for item in items:
        if item == "--json":
            as_json = True
            continue
        name, has_value, value = item.partition("=")
        if name in destination and name not in seen:
            if not has_value:
                value = next(items, "")
            if not value or (not has_value and value.startswith("--")):
                return None
            seen.add(name)
            options[destination[name]] = value
        elif not item.startswith("-") and path is None:
            path = item
        else:
            return None
    for key in DEFAULTS:  # the counts
        given = options[key]
        if isinstance(given, str):
            if not given.isdigit() or int(given) > COUNT_MAX:  # click says what is wrong
                return None
            options[key] = int(given)
    return path or ".", options, as_json


def parse_fast_list(argv: list[str]) -> tuple[str, bool] | None:
    """(PATH, --json) for a plain `comet memory list [PATH] [--json]`, or None for click."""
    path: str | None = None
    as_json = False
    for item in argv:
        if item == "--json" and not as_json:
            as_json = True
        elif not item.startswith("-") and path is None:
            path = item
        else:
            return None
    return path or ".", as_json


def parse_fast_agent_hook(argv: list[str]) -> tuple[str, str | None] | None:
    """(HOST, EVENT) for `comet agent-hook --host HOST [EVENT]`, as the installed hooks call it."""
    if len(argv) in (2, 3) and argv[0] == "--host" and not argv[1].startswith("-"):
        event = argv[2] if len(argv) == 3 else None
        if event is None or not event.startswith("-"):
            return argv[1], event
    return None
