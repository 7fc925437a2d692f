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
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from comet_git.identity import find_repository, read_head
from comet_git.provider.freshness import folder_marks
from comet_git.store import ScopeStore, atomic_write

CACHE_NAME = ".stale-cache.json"


def stale_records(
    store: ScopeStore,
    repo: Path,
    records: Callable[[], Iterable[Mapping[str, Any]]],
    *,
    compute: bool = True,
) -> dict[str, list[str]]:
    """Record id -> why it may be stale, for the live records (`records()`, read only when the
    cache cannot answer) of a project `store` in `repo`.  Cached in the store, keyed by HEAD and
    the records' folders: recomputed only when either moved.  Without `compute`, only what the
    cache holds (empty when it cannot answer): checking every record of a large store takes
    seconds, which an agent's `comet task` must not wait for (the hook worker recomputes it
    after a commit, `comet memory status` and `list --stale` whenever they run)."""
    cache_path = store.root / CACHE_NAME
    marks = folder_marks(store)
    head = _head(repo)
    cached = _read_cache(cache_path)
    if head and marks and cached.get("head") == head and cached.get("marks") == marks:
        return {str(k): list(v) for k, v in (cached.get("stale") or {}).items()}
    if not compute:
        return {}
    from comet_git.provider.anchors import HeadTree, stale_reasons  # on a cache miss only

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
    # Read from the files where they say it plainly: a `git rev-parse` costs a process (some
    # 5 ms) at every `comet task`.
    location = find_repository(repo)
    known = read_head(location) if location is not None else None
    if known is not None:
        return known
    import subprocess

    from comet_git.journal.gitlog import git_output

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
