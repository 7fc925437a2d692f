"""Evidence that stays true: the paths, make targets, npm scripts and package-manager files a
record names, checked against the repository at HEAD.

A record whose anchors are gone (the folder moved, the script was renamed) is *stale*: it is
flagged where it is listed and delivered ("may be stale: src/auth/ no longer exists"), never
changed: the person or the reflector corrects it.  The check is cheap: one `git ls-tree` per
HEAD, and the verdicts are cached in the store, keyed by HEAD and the records' folders.

What counts as an anchor (precision first: a false "stale" is worse than a missed one):
- a `paths` selector (`src/auth/`, `*.py`: a pattern with a wildcard is not checked);
- in the text, a path in backticks, or a plain word with a slash that ends in `/` or has a
  file suffix (`src/auth/`, `docs/index.md`, never "and/or"), or a well-known project file
  (`pyproject.toml`, `package.json`, `Makefile`...);
- `make TARGET` (a rule of the Makefile at HEAD) and `npm run SCRIPT` / `yarn SCRIPT` /
  `pnpm run SCRIPT` (a script of package.json at HEAD).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comet_git.journal.gitlog import git_output
from comet_git.provider.freshness import folder_marks
from comet_git.store import ScopeStore, atomic_write

CACHE_NAME = ".stale-cache.json"
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


def stale_records(
    store: ScopeStore, repo: Path, records: Callable[[], Iterable[Mapping[str, Any]]]
) -> dict[str, list[str]]:
    """Record id -> why it may be stale, for the live records (`records()`, read only when the
    cache cannot answer) of a project `store` in `repo`.  Cached in the store, keyed by HEAD and
    the records' folders: recomputed only when either moved."""
    cache_path = store.root / CACHE_NAME
    marks = folder_marks(store)
    head = _head(repo)
    cached = _read_cache(cache_path)
    if head and marks and cached.get("head") == head and cached.get("marks") == marks:
        return {str(k): list(v) for k, v in (cached.get("stale") or {}).items()}
    tree = HeadTree.read(repo)
    if tree is None:
        return {}
    stale = {}
    for record in records():
        reasons = stale_reasons(record, tree)
        if reasons:
            stale[str(record["id"])] = reasons
    if marks:  # a racy folder is not cached: the next call sees its settled state
        atomic_write(cache_path, json.dumps({"head": tree.head, "marks": marks, "stale": stale}))
    return stale


def _head(repo: Path) -> str | None:
    try:
        return git_output(repo, "rev-parse", "-q", "--verify", "HEAD").strip() or None
    except (subprocess.CalledProcessError, OSError):
        return None


def _read_cache(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def stale_note(reasons: list[str]) -> str:
    """The whyApplied item of a stale record."""
    return "may be stale: " + "; ".join(reasons[:3]) + ("; ..." if len(reasons) > 3 else "")
