"""What a record names that the repository must still hold (provider/staleness.py): paths,
make targets, npm scripts and package-manager files, read from the record, and the repository's
tree at HEAD to check them against.  Imported only when the staleness cache cannot answer."""

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


@dataclass
class HeadTree:
    """What the repository holds at one commit: its files, make rules and npm scripts."""

    head: str
    files: frozenset[str]
    directories: frozenset[str] = field(default_factory=frozenset)
    make_targets: frozenset[str] | None = None  # None: no Makefile
    npm_scripts: frozenset[str] | None = None  # None: no package.json

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
        if "Makefile" in files:
            tree.make_targets = frozenset(_make_targets(_show(repo, "Makefile")))
        if "package.json" in files:
            tree.npm_scripts = frozenset(_npm_scripts(_show(repo, "package.json")))
        return tree

    def path_exists(self, path: str) -> bool:
        path = path.removeprefix("./")
        if path.endswith("/"):
            return path.rstrip("/") in self.directories
        return path in self.files or path in self.directories


def _parents(path: str) -> Iterable[str]:
    parts = path.split("/")[:-1]
    return ("/".join(parts[: end + 1]) for end in range(len(parts)))


def _show(repo: Path, path: str) -> str:
    try:
        return git_output(repo, "show", f"HEAD:{path}")
    except (subprocess.CalledProcessError, OSError):
        return ""


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
    return reasons
