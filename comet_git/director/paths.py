"""Path selectors: gitignore-style patterns (pathspec's), relative to the repository root.

pathspec compiles each pattern to a regular expression when a record is indexed;
the index keeps those expressions, so `comet task` matches paths with `re` alone
and never pays for importing pathspec on the agent's hot path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

FIELD, ITEM = "\x1f", "\x1e"


def compile_patterns(patterns: Sequence[str]) -> str:
    """The index's form: pattern, "+" or "-" (include or exclude) and regex per pattern,
    joined by control characters ('' when there are none)."""
    if not patterns:
        return ""
    import pathspec

    spec = pathspec.GitIgnoreSpec.from_lines(list(patterns))
    return ITEM.join(
        FIELD.join((source, "+" if pattern.include else "-", pattern.regex.pattern))
        for source, pattern in zip(patterns, spec.patterns, strict=False)
        if pattern.regex is not None and pattern.include is not None
    )


@functools.lru_cache(maxsize=4096)
def _parsed(compiled: str) -> tuple[tuple[str, bool, re.Pattern[str]], ...]:
    items = []
    for item in compiled.split(ITEM):
        source, include, expression = item.split(FIELD)
        items.append((source, include == "+", re.compile(expression)))
    return tuple(items)


@functools.lru_cache(maxsize=16384)
def match(compiled: str, path: str, is_dir: bool) -> str | None:
    """The pattern that makes `path` match (gitignore's rule: the last matching one
    decides, and a `!pattern` excludes), or None.  A directory matches a pattern that
    matches the directory itself or anything inside it."""
    if not compiled:
        return None
    candidates = [path, path + "/"] if is_dir else [path]
    result: str | None = None
    for source, include, regex in _parsed(compiled):
        if any(regex.match(candidate) for candidate in candidates) or (is_dir and _inside(source, path)):
            result = source if include else None
    return result


def _inside(pattern: str, directory: str) -> bool:
    """Whether a pattern names something below `directory` (src/auth/login.py under src/auth)."""
    literal = pattern.lstrip("/").split("*", 1)[0].split("?", 1)[0].split("[", 1)[0]
    return literal.startswith(directory.rstrip("/") + "/")


# As text, compiled by re on first use: only indexing needs them, not `comet task`.
_WILDCARD = r"[*?\[]"
_EXTENSION_PATTERN = r"\*\.([^*?\[/]+)"


def path_anchors(patterns: Sequence[str]) -> set[str]:
    """Index keys under which a request path could match these patterns, so that
    `comet task` reads only the records whose patterns can match its path:

    - "root:src/auth" for a pattern rooted in a folder ("src/auth/**", "src/auth/*.py");
    - "name:Dockerfile" (and "dir:Dockerfile") for a plain name that matches at any depth;
    - "dir:docs" for "docs/"; "ext:py" for "*.py" (the last suffix: "*.test.ts" -> "ext:ts");
    - "" (every request) for anything else: negations, "*test*", wildcards in the first folder.
    """
    anchors: set[str] = set()
    for pattern in patterns:
        dir_only = pattern.endswith("/")
        body = pattern.rstrip("/")
        while body.startswith("**/"):
            body = body[3:]
        if pattern.startswith("!") or not body:
            anchors.add("")
        elif "/" in body.lstrip("/"):
            literal = re.split(_WILDCARD, body.lstrip("/"), maxsplit=1)[0]
            anchors.add("root:" + literal.rsplit("/", 1)[0] if "/" in literal else "")
        elif not re.search(_WILDCARD, body):
            anchors.update({f"dir:{body}"} if dir_only else {f"name:{body}", f"dir:{body}"})
        elif (extension := re.fullmatch(_EXTENSION_PATTERN, body)) and not dir_only:
            anchors.add("ext:" + extension.group(1).rsplit(".", 1)[-1])
        else:
            anchors.add("")
    return anchors


def request_keys(path: str, is_dir: bool) -> list[str]:
    """The index keys a request path looks up (see path_anchors)."""
    parts = [part for part in path.split("/") if part]
    keys = {""}
    keys.update("root:" + "/".join(parts[:n]) for n in range(1, len(parts) + (1 if is_dir else 0)))
    keys.update(f"dir:{part}" for part in parts)
    if parts:
        last = parts[-1]
        keys.add(f"name:{last}")
        if "." in last and not is_dir:
            keys.add("ext:" + last.rsplit(".", 1)[-1])
    return sorted(keys)


def normalize_request_path(path: str) -> str:
    """Repository-relative, with forward slashes and no leading ./ or trailing /."""
    cleaned = re.sub(r"/+", "/", path.replace("\\", "/")).strip()
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    return cleaned.strip("/")
