"""One module per command group.  Each function does the work through the
library and returns an Output; only cli.py prints."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable


class Output(NamedTuple):
    """What a command produced: the JSON object (with its `schema`) and the text for people.

    Large listings give `json_pieces` ready-made and their text as a function, so
    that neither form is built when the other one is asked for."""

    data: dict[str, Any] | None
    text: str | Callable[[], str]
    json_pieces: list[bytes] | None = None  # UTF-8, ready-made, to be written one after another

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
