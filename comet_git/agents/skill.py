"""Install the comet-memory agent skill where each host looks for skills.

A copy is never overwritten once the user changed it (unless forced, and then the
old copy is kept as a backup): what comet installed is remembered as a hash
manifest in $COMET_HOME, so an untouched old copy can be upgraded silently while an
edited one is left alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

from comet_git.errors import CometError
from comet_git.records.model import utc_now
from comet_git.resources import data_dir
from comet_git.store import DIR_MODE, FILE_MODE, Home, atomic_write, ensure_dir, file_lock

SKILL_NAME = "comet-memory"
INSTALL_SCHEMA = "comet.skill-install/v1"

# Where each host reads skills, relative to the home directory (user) or the repository
# root (project).  Codex and Gemini CLI both read the shared .agents/skills folder.
SKILL_DIRS = {
    "claude": ".claude/skills",
    "codex": ".agents/skills",
    "gemini": ".agents/skills",
    "cursor": ".cursor/skills",
}
HOST_CHOICES = (*SKILL_DIRS, "all")


@dataclass(frozen=True)
class SkillTarget:
    hosts: tuple[str, ...]
    directory: Path
    state: str  # installed | updated | unchanged | kept-modified | replaced
    backup: Path | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "hosts": list(self.hosts),
            "path": str(self.directory),
            "state": self.state,
            "backup": str(self.backup) if self.backup else None,
        }


def packaged_files() -> dict[str, bytes]:
    """The skill as shipped: relative path -> content."""
    files: dict[str, bytes] = {}

    def walk(node: Traversable, prefix: str) -> None:
        for child in node.iterdir():
            name = f"{prefix}{child.name}"
            if child.is_dir():
                walk(child, name + "/")
            elif child.is_file() and child.name != "__init__.py":
                files[name] = child.read_bytes()

    walk(data_dir("skills").joinpath(SKILL_NAME), "")
    if "SKILL.md" not in files:
        raise CometError(
            "the comet-memory skill is missing from this installation", hint="reinstall comet-git"
        )
    return files


def targets(hosts: tuple[str, ...], base: Path) -> dict[Path, tuple[str, ...]]:
    """Skill folder -> the hosts that read it (several hosts may share one folder)."""
    found: dict[Path, tuple[str, ...]] = {}
    for host in hosts:
        directory = base / SKILL_DIRS[host] / SKILL_NAME
        found[directory] = (*found.get(directory, ()), host)
    return found


def install_skill(hosts: tuple[str, ...], base: Path, *, private: bool, force: bool) -> list[SkillTarget]:
    files = packaged_files()
    home = Home.from_environment().ensure()
    manifest_path = home.root / "skills" / "installed.json"
    ensure_dir(manifest_path.parent)
    results = []
    with file_lock(manifest_path.with_suffix(".lock")):
        manifest = _read_manifest(manifest_path)
        for directory, readers in targets(hosts, base).items():
            try:
                recorded = manifest.get(str(directory))
                result = _install_one(directory, readers, files, recorded, private, force, home.root)
            except OSError as error:
                raise CometError(
                    f"cannot install the skill into {directory}: {error.strerror}",
                    hint="check that the folder is writable, or choose another --host or --project",
                ) from error
            if result.state != "kept-modified":
                manifest[str(directory)] = {"files": _hashes(files), "installedAt": utc_now()}
            results.append(result)
        atomic_write(manifest_path, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return results


def _install_one(
    directory: Path,
    readers: tuple[str, ...],
    files: dict[str, bytes],
    recorded: dict[str, Any] | None,
    private: bool,
    force: bool,
    comet_home: Path,
) -> SkillTarget:
    if not directory.exists():
        _write(directory, files, private)
        return SkillTarget(readers, directory, "installed")
    present = _hashes(_read_tree(directory))
    if present == _hashes(files):
        return SkillTarget(readers, directory, "unchanged")
    if recorded is not None and present == recorded.get("files"):
        # Our own earlier copy, untouched since: safe to upgrade in place.
        _replace(directory, files, private)
        return SkillTarget(readers, directory, "updated")
    if not force:
        return SkillTarget(readers, directory, "kept-modified")
    # The backup goes to the store, not beside the copy: a host would load it as a second skill.
    label = hashlib.sha256(str(directory).encode()).hexdigest()[:12]
    backup = ensure_dir(comet_home / "skills" / "backups") / f"{label}-{utc_now().replace(':', '')}"
    shutil.move(str(directory), backup)
    _write(directory, files, private)
    return SkillTarget(readers, directory, "replaced", backup)


def _replace(directory: Path, files: dict[str, bytes], private: bool) -> None:
    staging = directory.with_name(f".{directory.name}.comet-new")
    shutil.rmtree(staging, ignore_errors=True)
    _write(staging, files, private)
    old = directory.with_name(f".{directory.name}.comet-old")
    shutil.rmtree(old, ignore_errors=True)
    os.replace(directory, old)
    os.replace(staging, directory)
    shutil.rmtree(old, ignore_errors=True)


def _write(directory: Path, files: dict[str, bytes], private: bool) -> None:
    # A user install is personal (0700/0600, as the store); a project install is part of
    # a repository other people read, so it gets ordinary permissions.
    dir_mode, file_mode = (DIR_MODE, FILE_MODE) if private else (0o755, 0o644)
    for name, content in sorted(files.items()):
        target = directory / name
        missing = [parent for parent in target.parents if not parent.exists()]
        for parent in reversed(missing):
            parent.mkdir(mode=dir_mode)
            os.chmod(parent, dir_mode)  # mkdir's mode is masked by the umask
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, file_mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.chmod(target, file_mode)


def _read_tree(directory: Path) -> dict[str, bytes]:
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in directory.rglob("*")
        if path.is_file()
    }


def _hashes(files: dict[str, bytes]) -> dict[str, str]:
    return {name: hashlib.sha256(content).hexdigest() for name, content in sorted(files.items())}


def _read_manifest(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except ValueError:
        return {}  # a damaged manifest only means we treat every copy as possibly modified
    return data if isinstance(data, dict) else {}
