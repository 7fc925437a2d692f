"""Path selectors: gitignore-style patterns (pathspec's), relative to the repository root.

pathspec compiles each pattern to a regular expression when a record is indexed;
the index keeps those expressions, so `comet task` matches paths with `re` alone
and never pays for importing pathspec on the agent's hot path.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Sequence


def compile_patterns(patterns: Sequence[str]) -> str:
    """JSON [[pattern, include, regex], ...] for the index ('' when there are none)."""
    if not patterns:
        return ""
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(list(patterns))
    compiled = [
        [source, bool(pattern.include), pattern.regex.pattern]
        for source, pattern in zip(patterns, spec.patterns, strict=False)
        if pattern.regex is not None and pattern.include is not None
    ]
    return json.dumps(compiled, ensure_ascii=False)


@functools.lru_cache(maxsize=4096)
def _regex(expression: str) -> re.Pattern[str]:
    return re.compile(expression)


def match(compiled: str, path: str, is_dir: bool) -> str | None:
    """The pattern that makes `path` match (gitignore's rule: the last matching one
    decides, and a `!pattern` excludes), or None.  A directory matches a pattern that
    matches the directory itself or anything inside it."""
    if not compiled:
        return None
    candidates = [path, path + "/"] if is_dir else [path]
    result: str | None = None
    for source, include, expression in json.loads(compiled):
        regex = _regex(expression)
        if any(regex.match(candidate) for candidate in candidates) or (is_dir and _inside(source, path)):
            result = source if include else None
    return result


def _inside(pattern: str, directory: str) -> bool:
    """Whether a pattern names something below `directory` (src/auth/login.py under src/auth)."""
    literal = pattern.lstrip("/").split("*", 1)[0].split("?", 1)[0].split("[", 1)[0]
    return literal.startswith(directory.rstrip("/") + "/")


def normalize_request_path(path: str) -> str:
    """Repository-relative, with forward slashes and no leading ./ or trailing /."""
    cleaned = re.sub(r"/+", "/", path.replace("\\", "/")).strip()
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    return cleaned.strip("/")
