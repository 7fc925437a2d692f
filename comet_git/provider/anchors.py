"""What a record names that the repository must still hold (provider/staleness.py): paths,
make targets, npm scripts, package-manager files and tools, read from the record, and the
repository's tree at HEAD to check them against.  Imported only when the staleness cache cannot
answer."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comet_git.journal.gitlog import git_output

_PROJECT_FILE_TEXT = """
    pyproject.toml setup.py setup.cfg tox.ini noxfile.py requirements.txt Pipfile Pipfile.lock
    poetry.lock uv.lock package.json package-lock.json yarn.lock pnpm-lock.yaml Cargo.toml go.mod
    Gemfile Makefile justfile Dockerfile .pre-commit-config.yaml .eslintrc.json .flake8
    ruff.toml mypy.ini pytest.ini"""
PROJECT_FILES = frozenset(_PROJECT_FILE_TEXT.split())
BACKTICKED = re.compile(r"`([^`\s]+)`")
PLAIN_PATH = re.compile(r"(?<![\w/.:-])((?:[\w.-]+/)+(?:[\w-]+\.[A-Za-z0-9]{1,8})?)(?![\w/])")
PROJECT_FILE = re.compile(
    r"(?<![\w/.-])(" + "|".join(re.escape(name) for name in sorted(PROJECT_FILES)) + r")\b"
)
MAKE_TARGET = re.compile(r"\bmake ([A-Za-z][\w.-]*)")
NPM_SCRIPT = re.compile(r"\b(?:npm run|pnpm run|yarn run|yarn) ([A-Za-z][\w:.-]*)")
MAKE_RULE = re.compile(r"^([A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*)*)\s*::?(?!=)", re.MULTILINE)
YARN_COMMANDS = frozenset({"add", "install", "remove", "upgrade", "init", "why", "dlx", "run", "set"})

# Tools that replace one another.  A record naming one is stale when the repository shows another
# of its kind and nothing of it: "run `black .`" where pyproject.toml now configures only ruff.
TOOL_KINDS: dict[str, tuple[str, ...]] = {
    "Python linter": ("ruff", "flake8", "pylint"),
    "Python formatter": ("black", "ruff", "yapf", "autopep8"),
    "Python type checker": ("mypy", "pyright", "pytype"),
    "JavaScript linter": ("eslint", "biome", "oxlint"),
    "JavaScript formatter": ("prettier", "biome", "dprint"),
    "JavaScript test runner": ("jest", "vitest", "mocha"),
    "JavaScript package manager": ("npm", "yarn", "pnpm", "bun"),
    "Python package manager": ("poetry", "uv", "pipenv", "pdm"),
}
# What shows a tool besides its name in the configuration: its own files, or its lockfile (the one
# sign of a package manager: any of them may be named in a README or a script).
TOOL_FILES: dict[str, tuple[str, ...]] = {
    "ruff": ("ruff.toml", ".ruff.toml"),
    "flake8": (".flake8",),
    "pylint": (".pylintrc", "pylintrc"),
    "mypy": ("mypy.ini", ".mypy.ini"),
    "pyright": ("pyrightconfig.json",),
    "eslint": (
        ".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml",
        "eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts",
    ),
    "biome": ("biome.json", "biome.jsonc"),
    "prettier": (
        ".prettierrc", ".prettierrc.json", ".prettierrc.js", ".prettierrc.yml", "prettier.config.js",
    ),
    "jest": ("jest.config.js", "jest.config.ts", "jest.config.mjs"),
    "vitest": ("vitest.config.ts", "vitest.config.js", "vitest.config.mts"),
    "npm": ("package-lock.json",),
    "yarn": ("yarn.lock",),
    "pnpm": ("pnpm-lock.yaml",),
    "bun": ("bun.lockb", "bun.lock"),
    "poetry": ("poetry.lock",),
    "uv": ("uv.lock",),
    "pipenv": ("Pipfile.lock",),
    "pdm": ("pdm.lock",),
}  # fmt: skip
PACKAGE_MANAGERS = frozenset(TOOL_KINDS["JavaScript package manager"] + TOOL_KINDS["Python package manager"])
# The files whose text names the tools a project runs.
CONFIG_FILES = (
    "pyproject.toml", "setup.cfg", "tox.ini", "noxfile.py", ".pre-commit-config.yaml", "package.json",
    "requirements-dev.txt", "requirements.txt", "Makefile", "justfile",
)  # fmt: skip
# Tool names that are English words too ("black", "bun"): named as a tool only in backticks or
# after a verb that runs or uses it.
_WORDLIKE = frozenset({"black", "uv", "bun", "yarn", "mocha", "biome", "jest", "npm"})
_TOOL_WORD = re.compile(
    r"(?<![\w-])(" + "|".join(sorted({t for k in TOOL_KINDS.values() for t in k})) + r")(?![\w-])", re.I
)
_RUN_BEFORE = re.compile(r"(?:`|\b(?:run|runs|use|uses|using|with|via|by|through)\s+)$", re.I)


@dataclass
class HeadTree:
    """What the repository holds at one commit: its files, make rules and npm scripts."""

    head: str
    files: frozenset[str]
    directories: frozenset[str] = field(default_factory=frozenset)
    make_targets: frozenset[str] | None = None  # None: no Makefile
    npm_scripts: frozenset[str] | None = None  # None: no package.json
    tools: frozenset[str] = frozenset()  # the tools of TOOL_KINDS the configuration shows

    @classmethod
    def read(cls, repo: Path) -> HeadTree | None:
        """The tree at HEAD, or None when there is no commit yet."""
        try:
            head = git_output(repo, "rev-parse", "-q", "--verify", "HEAD").strip()
            listing = git_output(repo, "-c", "core.quotepath=off", "ls-tree", "-r", "--name-only", "HEAD")
        except (subprocess.CalledProcessError, OSError):
            return None
        files = frozenset(listing.splitlines())
        directories = {parent for path in files for parent in _parents(path)}
        tree = cls(head, files, frozenset(directories))
        configuration = _show(repo, [name for name in CONFIG_FILES if name in files])
        if "Makefile" in files:
            tree.make_targets = frozenset(_make_targets(configuration.get("Makefile", "")))
        if "package.json" in files:
            tree.npm_scripts = frozenset(_npm_scripts(configuration.get("package.json", "")))
        tree.tools = frozenset(_configured_tools(files, configuration))
        return tree

    def path_exists(self, path: str) -> bool:
        path = path.removeprefix("./")
        if path.endswith("/"):
            return path.rstrip("/") in self.directories
        return path in self.files or path in self.directories


def _parents(path: str) -> Iterable[str]:
    parts = path.split("/")[:-1]
    return ("/".join(parts[: end + 1]) for end in range(len(parts)))


def _show(repo: Path, paths: list[str]) -> dict[str, str]:
    """The text at HEAD of each of `paths` (files of the tree), read by one git process."""
    if not paths:
        return {}
    try:
        done = subprocess.run(
            ["git", "cat-file", "--batch"],
            cwd=repo,
            input="".join(f"HEAD:{path}\n" for path in paths).encode("utf-8"),
            capture_output=True,
            check=True,
        )
    except (subprocess.CalledProcessError, OSError):
        return {}
    texts, out, at = {}, done.stdout, 0
    for path in paths:  # "<oid> blob <size>\n<content>\n", or "<name> missing\n"
        end = out.find(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if len(header) == 3 and header[2].isdigit():
            size = int(header[2])
            texts[path] = out[at : at + size].decode("utf-8", "replace")
            at += size + 1
    return texts


def _configured_tools(files: frozenset[str], configuration: dict[str, str]) -> set[str]:
    """The tools the repository's configuration shows at HEAD: by their own files, and (but for
    package managers) by their names in the configuration's text."""
    shown = {tool for tool, names in TOOL_FILES.items() if any(name in files for name in names)}
    text = "\n".join(configuration.values())
    named = {match.group(1).lower() for match in _TOOL_WORD.finditer(text)}
    return shown | (named - PACKAGE_MANAGERS)


def named_tools(text: str) -> set[str]:
    """The tools of TOOL_KINDS a record's text names (a word-like name only as a tool)."""
    found = set()
    for match in _TOOL_WORD.finditer(text):
        tool = match.group(1).lower()
        if tool not in _WORDLIKE or _RUN_BEFORE.search(text[: match.start()]):
            found.add(tool)
    return found


def _replaced_tools(text: str, tree: HeadTree) -> list[str]:
    """One reason for each tool the text names that another of its kind has replaced."""
    reasons = []
    for tool in sorted(named_tools(text) - tree.tools):
        instead = sorted(
            {other for kind in TOOL_KINDS.values() if tool in kind for other in kind} & tree.tools
        )
        if instead:
            reasons.append(f"`{tool}`: the repository shows {' and '.join(instead)}, not {tool}")
    return reasons


def _make_targets(makefile: str) -> set[str]:
    return {target for match in MAKE_RULE.finditer(makefile) for target in match.group(1).split()}


def _npm_scripts(package: str) -> set[str]:
    try:
        scripts = json.loads(package).get("scripts") or {}
    except (ValueError, AttributeError):
        return set()
    return {str(name) for name in scripts} if isinstance(scripts, dict) else set()


def _looks_like_path(token: str) -> bool:
    if "://" in token or token.startswith(("-", "@", "$", "~", "/")) or any(c in token for c in "*?[]{}<>()"):
        return False
    return "/" in token or token in PROJECT_FILES


def text_paths(text: str) -> set[str]:
    """The paths a text names (see the module's docstring)."""
    found = {token.rstrip(".,;:") for token in BACKTICKED.findall(text)}
    found = {token for token in found if _looks_like_path(token)}
    for match in PLAIN_PATH.finditer(BACKTICKED.sub(" ", text)):
        token = match.group(1)
        if _looks_like_path(token) and (token.endswith("/") or "." in token.rsplit("/", 1)[-1]):
            found.add(token)
    found.update(PROJECT_FILE.findall(text))
    return found


def stale_reasons(record: Mapping[str, Any], tree: HeadTree) -> list[str]:
    """Why a record (its JSON) may be stale at `tree`: one reason an anchor that is gone."""
    text = str(record.get("text") or "")
    selectors = record.get("selectors") or {}
    paths = {str(p) for p in selectors.get("paths") or () if not any(c in str(p) for c in "*?[!")}
    paths |= text_paths(text)
    reasons = [f"{path} no longer exists" for path in sorted(paths) if not tree.path_exists(path)]
    for target in sorted(set(MAKE_TARGET.findall(text))):
        if tree.make_targets is None:
            reasons.append(f"`make {target}`: there is no Makefile")
        elif target not in tree.make_targets:
            reasons.append(f"`make {target}`: the Makefile has no {target} target")
    for script in sorted(set(NPM_SCRIPT.findall(text)) - YARN_COMMANDS):
        if tree.npm_scripts is None:
            reasons.append(f"`npm run {script}`: there is no package.json")
        elif script not in tree.npm_scripts:
            reasons.append(f"`npm run {script}`: package.json has no {script} script")
    reasons += _replaced_tools(text, tree)
    return reasons
