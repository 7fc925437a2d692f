"""One module per command group.  Each function does the work through the
library and returns an Output; only cli.py prints."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Output:
    """What a command produced: the JSON object (with its `schema`) and the text for people."""

    data: dict[str, Any] | None
    text: str
    json_text: str | None = None  # pre-serialised JSON, for large listings

    def render(self, as_json: bool) -> str:
        if not as_json:
            return self.text
        if self.json_text is not None:
            return self.json_text
        return json.dumps(self.data, ensure_ascii=False, indent=2)
