"""comet memory apply."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from comet_git.commands import Output
from comet_git.errors import InvalidInputError
from comet_git.learning.deltas import RESULT_SCHEMA, apply_deltas
from comet_git.workspace import Workspace


def apply(ws: Workspace, source: str) -> Output:
    try:
        raw = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidInputError(f"cannot read {source}: {error.strerror or error}") from error
    try:
        document = json.loads(raw)
    except ValueError as error:
        raise InvalidInputError(
            f"the delta is not valid JSON: {error}", hint="see `comet memory apply --help`"
        ) from None
    learning = bool(ws.setting("memory.learning").value)
    results = apply_deltas(ws.provider(), document, learning=learning)
    data = {"schema": RESULT_SCHEMA, "results": [result.to_json() for result in results]}
    text = "".join(f"{r.index}: {r.action} {r.status} {r.id or ''} ({r.reason})\n" for r in results)
    return Output(data, text or "no deltas\n")
