"""comet skill install."""

from __future__ import annotations

from pathlib import Path

from comet_git.agents.skill import INSTALL_SCHEMA, SKILL_DIRS, install_skill
from comet_git.commands import Output
from comet_git.errors import CometError

NOTES = {
    "installed": "installed",
    "updated": "updated (the earlier copy was untouched)",
    "unchanged": "already up to date",
    "kept-modified": "kept: you changed this copy; --force replaces it (and keeps yours as a backup)",
    "replaced": "replaced; your copy is at {backup}",
}


def install(host: str, project: Path | None, force: bool) -> Output:
    hosts = tuple(SKILL_DIRS) if host == "all" else (host,)
    base = _project_root(project) if project is not None else Path.home()
    results = install_skill(hosts, base, private=project is None, force=force)
    data = {
        "schema": INSTALL_SCHEMA,
        "scope": "project" if project is not None else "user",
        "targets": [result.to_json() for result in results],
    }
    lines = [
        f"{result.directory}  ({', '.join(result.hosts)}): {NOTES[result.state].format(backup=result.backup)}"
        for result in results
    ]
    return Output(data, "\n".join(lines) + "\n")


def _project_root(path: Path) -> Path:
    from comet_git.identity import find_repository

    if not path.is_dir():
        raise CometError(f"{path} is not a directory", hint="pass the repository to install the skill into")
    location = find_repository(path)
    return location.worktree_root if location is not None else path.resolve()
