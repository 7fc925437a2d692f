"""Path selectors: the string matching of common pattern shapes agrees with the regular
expressions pathspec compiles them to (comet_git/matching/paths.py)."""

from __future__ import annotations

import itertools
import random
import re

import pathspec

from comet_git.matching import paths

PATTERNS = [
    "src/auth/**", "src/auth/", "src/auth", "/src/auth", "src/auth/*.py", "tests/**/*.py", "docs/core.md",
    "*.py", "*.test.ts", "Dockerfile", "/Dockerfile", "docs/", "/docs/", "**/docs", "**/docs/", "**/a/b",
    "**/a/**", "a/**/b", "a/**/", "*test*", "a?b", "[ab].py", "**", "*", "a\\*b", "foo bar", "a.b.c",
    "a+b/c(d)", "ü/x", "\\#x", "!src/auth/login.py", "x/*", "*/b", ".py", "*.", "a/b/", "a/**/*.py",
    "src/**/auth", "src/**/a/b", "a/**/b/", "x/**/*.b.py", "src/**/a/*.py", "a.b/**/c", "**/a/**/b",
]  # fmt: skip
PATHS = [
    "", "a", "a/", "/a", "a/b", "src", "src/", "src/auth", "src/auth/", "src/auth/login.py", "src/authx",
    "lib/src/auth/login.py", "Dockerfile", "app/Dockerfile", "Dockerfile/x", "/Dockerfile", "x/Dockerfilex",
    "docs", "docs/", "docs/core.md", "docs/a/b.md", "a/docs", "a/docs/b", "/docs", "//docs", "a//docs",
    "a.py", "a/b.py", "a.py/b", ".py", "a/.py", "/.py", "x.test.ts", "a/b", "x/a/b", "x/a/b/c", "a/x/b",
    "atestb", "a/test", "axb", "a.py\n", "a\nb/docs", "docs\n", "a*b", "foo bar", "a+b/c(d)", "ü/x", "#x",
    "x/y", "x/", "z/b", "/b", "a.b.c", "a/b/", "a/b/c.py", "a/c/b.py", "a/x/y/b", "x/q.b.py", "x/.b.py",
    "src/x/auth", "src/auth/x", "src//auth", "a.b/c", "a.b/x/c", "a/q/b/", "src/a/b/c", "ax/b.py",
]  # fmt: skip


def expressions(patterns: list[str]) -> list[str]:
    spec = pathspec.GitIgnoreSpec.from_lines(patterns)
    return [p.regex.pattern for p in spec.patterns if p.regex is not None]


def test_string_matching_agrees_with_the_regular_expressions() -> None:
    checked = 0
    for expression in expressions(PATTERNS):
        matches = paths._matcher(expression)
        for path in PATHS:
            assert matches(path) == (re.match(expression, path) is not None), (expression, path)
            checked += 1
    assert checked > 1000


def test_random_paths_and_patterns_agree() -> None:
    rng = random.Random(7)
    alphabet = ["a", "b", "/", ".", "py", "x", "*", "**", "**/", "?", "\n", " "]
    patterns = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(400)]
    names = ["".join(rng.choice(["a", "b", "/", ".", "py", "x", "\n"]) for _ in range(rng.randint(0, 7)))
             for _ in range(300)]  # fmt: skip
    shaped = 0
    for pattern in patterns:
        for expression in expressions([pattern.replace("\n", "")]):
            shaped += paths._shape(expression) is not None
            matches = paths._matcher(expression)
            for path in names:
                assert matches(path) == (re.match(expression, path) is not None), (pattern, expression, path)
    assert shaped > 50  # the string matching was exercised, not only the fallback


def test_the_common_shapes_are_recognised() -> None:
    shaped = ("src/auth/**", "docs/core.md", "*.py", "Dockerfile", "docs/", "/src", "**/a/b", "tests/**/*.py")
    for pattern in shaped:
        (expression,) = expressions([pattern])
        assert paths._shape(expression) is not None, pattern
    for pattern in ("*test*", "a?b", "[ab].py", "src/**/a/*.py"):
        (expression,) = expressions([pattern])
        assert paths._shape(expression) is None, pattern


def test_match_keeps_gitignore_order_and_folders() -> None:
    compiled = paths.compile_patterns(["src/**", "!src/auth/**"])
    assert paths.match(compiled, "src/cli/main.py", False) == "src/**"
    assert paths.match(compiled, "src/auth/login.py", False) is None
    assert paths.match(paths.compile_patterns(["src/auth/login.py"]), "src", True) == "src/auth/login.py"
    for pattern, path, is_dir in itertools.product(PATTERNS[:12], PATHS[:20], (False, True)):
        compiled = paths.compile_patterns([pattern])
        assert paths.match(compiled, path, is_dir) == _by_regex(pattern, path, is_dir), (pattern, path)


def _by_regex(pattern: str, path: str, is_dir: bool) -> str | None:
    """What match() answered before the string matching (regular expressions only)."""
    spec = pathspec.GitIgnoreSpec.from_lines([pattern])
    result = None
    for item in spec.patterns:
        if item.regex is None or item.include is None:
            continue
        candidates = [path, path + "/"] if is_dir else [path]
        if any(item.regex.match(c) for c in candidates) or (is_dir and paths._inside(pattern, path)):
            result = pattern if item.include else None
    return result


def test_every_path_a_pattern_matches_finds_it_through_the_index_anchors() -> None:
    """`comet task` reads only the records whose anchors its path looks up: an anchor
    that a matching path does not look up is a rule silently never delivered."""
    requests = [p for p in PATHS if p and "\n" not in p and not p.startswith("/") and "//" not in p]
    requests += ["svc/src/auth/login.py", "x/y/src/auth/a.py", "deep/docs/core.md", "q/a/b/c.py"]
    rng = random.Random(11)
    pieces = ["a", "b", "/", ".", "py", "x", "*", "**", "**/", "?", "src"]
    names = ["a", "b", "x.py", "src", "a.b", "py"]
    requests += ["/".join(rng.choice(names) for _ in range(rng.randint(1, 4))) for _ in range(150)]
    valid = [p for p in PATTERNS if not p.startswith("/")]
    valid += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(300)]
    valid = [p for p in valid if p.strip() and not p.startswith("/")]
    checked = 0
    for pattern in valid:
        anchors = paths.path_anchors([pattern])
        compiled = paths.compile_patterns([pattern])
        for request in requests:
            path = paths.normalize_request_path(request)
            for is_dir in (False, True):
                if paths.match(compiled, path, is_dir) is not None:
                    checked += 1
                    keys = set(paths.request_keys(path, is_dir))
                    inside = is_dir and any(a.startswith(f"root:{path}/") for a in anchors)  # see select
                    assert anchors & keys or inside, (pattern, path, is_dir, anchors)
    assert checked > 200


def test_path_words_keep_what_the_path_is_about() -> None:
    assert paths.path_words("src/features/uploads/usePresignedUpload.ts") == "uploads use Presigned Upload ts"
    assert paths.path_words("internal/http/handlers/webhooks.go") == "http webhooks go"
    assert paths.path_words("pipeline/io/read_rows-v2.py") == "pipeline io read rows v2 py"
    assert paths.path_words("文档/发布说明.md") == "文档 发布说明 md"
    assert paths.path_words("src/lib/") == ""
