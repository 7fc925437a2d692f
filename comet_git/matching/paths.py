"""Path selectors: gitignore-style patterns (pathspec's), relative to the repository root.

pathspec compiles each pattern to a regular expression when a record is indexed;
the index keeps those expressions, so `comet task` matches paths without importing
pathspec on the agent's hot path: the common shapes with string operations, the rest
with `re`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

FIELD, ITEM = "\x1f", "\x1e"


def compile_patterns(patterns: Sequence[str]) -> str:
    """The index's form: pattern, "+" or "-" (include or exclude) and regex per pattern,
    joined by control characters ('' when there are none)."""
    if not patterns:
        return ""
    import pathspec

    # A pattern holding one of the separators could not be read back (records validate
    # against control characters; this guards an index written before they did).
    patterns = [pattern for pattern in patterns if FIELD not in pattern and ITEM not in pattern]
    if not patterns:
        return ""
    spec = pathspec.GitIgnoreSpec.from_lines(list(patterns))
    return ITEM.join(
        FIELD.join((source, "+" if pattern.include else "-", pattern.regex.pattern))
        for source, pattern in zip(patterns, spec.patterns, strict=False)
        if pattern.regex is not None and pattern.include is not None
    )


# How pathspec writes the common patterns, as (start, part, end) around a literal:
#   "src/auth/**"  ^src/auth/                       "docs/"  ^(?:.+/)?docs(?P<ps_d>/)
#   "src/a.py"     ^src/a\.py(?:(?P<ps_d>/)|$)      "*.py"   ^(?:.+/)?[^/]*\.py(?:(?P<ps_d>/)|$)
#   "tests/**/*.py"  ^tests(?:/.+)?/[^/]*\.py(?:(?P<ps_d>/)|$)
# Compiling a regular expression costs some 30 microseconds, and a request meets dozens of
# patterns: these shapes are matched with string operations instead (exactly as re would).
_ANYWHERE = "^(?:.+/)?"  # at the start, or after a "/" with something before it
_BELOW = "(?:/.+)?/"  # after ^ROOT: "/", then the rest as _ANYWHERE would have it
_COMPONENT_END = "[^/]*"  # the literal ends a path component
_ENDS = {"/": "/", "(?P<ps_d>/)": "/", "(?:(?P<ps_d>/)|$)": "/$"}  # what must follow the literal
_REGEX_SPECIAL = frozenset(".^$*+?{}[]|()")


class _Shape:
    """A pattern's regular expression, recognised (see _shape)."""

    __slots__ = ("anywhere", "component_end", "literal", "may_end", "root")

    def __init__(
        self, root: str | None, anywhere: bool, component_end: bool, literal: str, may_end: bool
    ) -> None:
        self.root = root  # ^ROOT(?:/.+)?/ first: the rest is matched below ROOT/
        self.anywhere = anywhere  # ^(?:.+/)? rather than ^
        self.component_end = component_end  # [^/]* before the literal
        self.literal = literal
        self.may_end = may_end  # the literal may end the path ($), not only come before a "/"

    def match(self, path: str) -> bool:
        """re.match(expression, path), for a path without a newline."""
        if self.root is not None:
            if not path.startswith(self.root + "/"):
                return False
            path = path[len(self.root) + 1 :]
        starts = [0]
        if self.anywhere:
            starts += [i + 1 for i, char in enumerate(path) if char == "/" and i > 0]
        for start in starts:
            if self.component_end:
                slash = path.find("/", start)
                end = len(path) if slash < 0 else slash
                if not path.endswith(self.literal, start, end):
                    continue
            elif path.startswith(self.literal, start):
                end = start + len(self.literal)
            else:
                continue
            if (end == len(path) and self.may_end) or path.startswith("/", end):
                return True
        return False


def _unescaped(text: str) -> str | None:
    """The literal that re.escape made `text` from, or None when `text` is more than a literal."""
    literal: list[str] = []
    escaped = False
    for char in text:
        if escaped:
            if char.isalnum() or char == "_":  # \d, \w, \A...: not an escaped literal
                return None
            literal.append(char)
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in _REGEX_SPECIAL:
            return None
        else:
            literal.append(char)
    return None if escaped else "".join(literal)


def _shape(expression: str) -> _Shape | None:
    for ending, follows in _ENDS.items():
        if not expression.endswith(ending):
            continue
        body = expression[: -len(ending)]
        anywhere = body.startswith(_ANYWHERE)
        if not anywhere and not body.startswith("^"):
            return None
        body = body[len(_ANYWHERE) :] if anywhere else body[1:]
        root = None
        if not anywhere and _BELOW in body:
            head, _, body = body.partition(_BELOW)
            root = _unescaped(head)
            if root is None:
                return None
            anywhere = True
        component_end = body.startswith(_COMPONENT_END)
        literal = _unescaped(body[len(_COMPONENT_END) :] if component_end else body)
        if literal is None or (component_end and "/" in literal):
            return None
        return _Shape(root, anywhere, component_end, literal, follows == "/$")
    return None


def _matcher(expression: str) -> Callable[[str], bool]:
    """A function telling whether re.match(expression, path) would match `path`."""
    shape = _shape(expression)
    regex = re.compile(expression) if shape is None else None
    if regex is not None:
        return lambda path: regex.match(path) is not None
    assert shape is not None

    def matches(path: str) -> bool:
        if "\n" in path:  # where "." and "$" differ from plain string tests: leave it to re
            return re.match(expression, path) is not None
        return shape.match(path)

    return matches


@functools.lru_cache(maxsize=4096)
def _parsed(compiled: str) -> tuple[tuple[str, bool, Callable[[str], bool]], ...]:
    items = []
    for item in compiled.split(ITEM):
        source, include, expression = item.split(FIELD)
        items.append((source, include == "+", _matcher(expression)))
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
    for source, include, matches in _parsed(compiled):
        if any(matches(candidate) for candidate in candidates) or (is_dir and _inside(source, path)):
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
    - "dir:src" for a pattern that floats ("**/src/auth/*.py": a folder "src" at any depth);
    - "" (every request) for anything else: negations, "*test*", wildcards in the first folder.
    """
    anchors: set[str] = set()
    for pattern in patterns:
        dir_only = pattern.endswith("/")
        body = pattern.rstrip("/")
        floating = body.startswith("**/")  # matches at any depth, not only at the root
        while body.startswith("**/"):
            body = body[3:]
        if pattern.startswith("!") or not body or "\\" in body:  # escapes: read by every request
            anchors.add("")
        elif floating and "/" in body:
            # "**/src/auth/*.py": any path it matches has a folder named "src" somewhere.
            first = body.split("/", 1)[0]
            anchors.add("" if re.search(_WILDCARD, first) else f"dir:{first}")
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
    # "*.py" matches a folder named "x.py" too, and with it everything inside.
    keys.update("ext:" + part.rsplit(".", 1)[-1] for part in parts if "." in part)
    if parts:
        keys.add(f"name:{parts[-1]}")
    return sorted(keys)


def normalize_request_path(path: str) -> str:
    """Repository-relative, with forward slashes and no leading ./ or trailing /."""
    cleaned = re.sub(r"/+", "/", path.replace("\\", "/")).strip()
    while cleaned.startswith("./"):
        cleaned = cleaned[2:]
    return cleaned.strip("/")


# Folder names that say where code lives, or what role it plays there, not what the work is about.
_PLACE_WORDS = frozenset({
    "src", "lib", "libs", "app", "apps", "main", "index", "cmd", "internal", "pkg", "packages", "source",
    "sources", "mod", "init", "components", "component", "pages", "page", "views", "view", "screens",
    "screen", "handlers", "handler", "controllers", "controller", "routes", "models", "model", "services",
    "service", "hooks", "utils", "util", "helpers", "helper", "common", "shared", "features", "feature",
    "modules",
})  # fmt: skip
_WORD_BREAK = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")  # camelCase: usePresignedUpload -> use Presigned Upload


def path_words(path: str) -> str:
    """The words of a request path that may say what the work is about ("src/features/uploads/
    usePresignedUpload.ts" -> "uploads use Presigned Upload ts")."""
    words = re.split(r"[\W_]+", _WORD_BREAK.sub(" ", path))
    return " ".join(word for word in words if word and word.lower() not in _PLACE_WORDS)
