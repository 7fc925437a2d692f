"""One module per command group.  Each function does the work through the
library and returns an Output; only cli.py prints."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable

    from comet_git.errors import CometError


ERROR_SCHEMA = "comet.error/v1"


def error_report(message: str, hint: str | None, as_json: bool) -> str:
    """How a failed command says so on stderr: with --json one `comet.error/v1` object, else
    "error: ..." and "  hint: ..." lines."""
    if as_json:
        return json.dumps({"schema": ERROR_SCHEMA, "error": message, "hint": hint}, ensure_ascii=False) + "\n"
    return f"error: {message}\n" + (f"  hint: {hint}\n" if hint else "")


class Output(NamedTuple):
    """What a command produced: the JSON object (with its `schema`) and the text for people.

    Large listings give `json_pieces` ready-made and their text as a function, so
    that neither form is built when the other one is asked for."""

    data: dict[str, Any] | None
    text: str | Callable[[], str]
    json_pieces: list[bytes] | None = None  # UTF-8, ready-made, to be written one after another
    # A report that is also a failure (`comet repair --check` finding the index unreadable):
    # printed like any output, then the command exits 1 with this error.
    failure: CometError | None = None

    def render(self, as_json: bool) -> list[bytes]:
        if as_json and self.json_pieces is not None:
            return [*self.json_pieces, b"\n"]
        if as_json:
            rendered = json.dumps(self.data, ensure_ascii=False, indent=2)
        else:
            rendered = self.text if isinstance(self.text, str) else self.text()
        # A non-UTF-8 argument (Python keeps its bytes as lone surrogates) comes back as an
        # escape, "\udcff": valid JSON and readable text, never an encoding error.
        return [rendered.encode("utf-8", "backslashreplace"), b"" if rendered.endswith("\n") else b"\n"]


def invalid_line(item: dict[str, Any]) -> str:
    """An invalid file as the commands print it: FILE[:LINE]: what is wrong."""
    where = f"{item['file']}:{item['line']}" if item.get("line") else item["file"]
    return f"{where}: {item['error']}"
