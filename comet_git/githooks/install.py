"""Install, inspect and remove comet's git hooks (README: Git hooks).

Each hook is a small shell shim rendered from ``hooks/git/shim.sh``.  A marker line
(``# comet-git-hook: N``) tells our own scripts, of any version, from everybody else's.
A foreign hook found at install time is kept as ``NAME.comet-legacy`` and chained by the
shim; uninstall puts it back, so the hooks directory ends up exactly as it was.

The shims go into the hooks directory of the repository's common dir, which every linked
worktree shares.  ``core.hooksPath`` sends git elsewhere (a hooks manager, a shared
directory): we never write there unless asked to, and never pretend we did not see it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from comet_git import resources, store
from comet_git.errors import CometError, InvalidInputError, NotARepositoryError
from comet_git.identity import find_repository

HOOK_NAMES = ("post-commit", "post-checkout", "post-merge", "post-rewrite")
SHIM_VERSION = 1
SHIM_MODE = 0o755
LEGACY_SUFFIX = ".comet-legacy"
SCHEMA = "comet.hooks/v1"

_MARKER = re.compile(rb"^# comet-git-hook: (\d+)$", re.MULTILINE)
_PLACEHOLDER = re.compile(r"@(HOOK|PYTHON|WORKER)@")
_MARKER_SEARCH_BYTES = 4096

HookState = Literal["installed", "installed-chained", "absent", "foreign", "outdated"]
Kind = Literal["absent", "ours", "foreign"]
Action = Literal["installed", "updated", "chained-legacy", "removed", "restored-legacy"]


@dataclass(frozen=True)
class HookStatus:
    name: str
    state: HookState
    legacy: bool  # a chained NAME.comet-legacy sits beside it

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "state": self.state, "legacy": self.legacy}


@dataclass(frozen=True)
class Change:
    name: str
    action: Action

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "action": self.action}

    def describe(self) -> str:
        return {
            "installed": f"wrote the {self.name} shim",
            "updated": f"rewrote the {self.name} shim",
            "chained-legacy": f"kept the existing {self.name} as {self.name}{LEGACY_SUFFIX} (chained)",
            "removed": f"removed the {self.name} shim",
            "restored-legacy": f"put {self.name}{LEGACY_SUFFIX} back as {self.name}",
        }[self.action]


@dataclass(frozen=True)
class HooksReport:
    directory: Path
    hooks_path: Path | None  # core.hooksPath, resolved, when it is set
    hooks: tuple[HookStatus, ...]
    changed: tuple[Change, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def redirected(self) -> bool:
        """git runs the hooks of another directory than this one."""
        return self.hooks_path is not None and self.hooks_path != self.directory

    def to_json(self) -> dict[str, object]:
        return {
            "schema": SCHEMA,
            "directory": str(self.directory),
            "hooksPath": None if self.hooks_path is None else str(self.hooks_path),
            "hooks": [hook.to_json() for hook in self.hooks],
            "changed": [change.to_json() for change in self.changed],
            "notes": list(self.notes),
        }

    def render_text(self) -> str:
        lines = [f"git hooks in {self.directory}"]
        width = max(len(name) for name in HOOK_NAMES)
        lines += [f"  {hook.name:<{width}}  {_describe_state(hook)}" for hook in self.hooks]
        lines += [f"changed: {change.describe()}" for change in self.changed]
        lines += [f"note: {note}" for note in self.notes]
        return "\n".join(lines)


def _describe_state(hook: HookStatus) -> str:
    legacy = f"{hook.name}{LEGACY_SUFFIX}"
    chained = f", chains {legacy}" if hook.legacy else ""
    return {
        "installed": "installed",
        "installed-chained": f"installed{chained}",
        "absent": f"absent, {legacy} left over" if hook.legacy else "absent",
        "foreign": "not comet's hook",
        "outdated": f"outdated, run `comet hooks install` again{chained}",
    }[hook.state]


# --- where the hooks live ---------------------------------------------------------


@dataclass(frozen=True)
class HooksLocation:
    worktree_root: Path
    common_hooks: Path  # <common dir>/hooks, shared by every worktree
    hooks_path: Path | None  # where core.hooksPath sends git instead, when set


def locate_hooks(repo: Path) -> HooksLocation:
    location = find_repository(repo)
    if location is None:
        raise NotARepositoryError(
            f"{repo} is not inside a git work tree",
            hint="run this inside a git repository, or pass the repository's path",
        )
    root = location.worktree_root
    common_dir, effective = _git(root, "rev-parse", "--git-common-dir", "--git-path", "hooks").splitlines()
    common_hooks = (root / common_dir / "hooks").resolve()
    # With core.hooksPath set, --git-path resolves it exactly as git does when it runs a hook.
    configured = _git(root, "config", "--get", "core.hooksPath", allowed_codes=(0, 1))
    hooks_path = (root / effective).resolve() if configured else None
    return HooksLocation(worktree_root=root, common_hooks=common_hooks, hooks_path=hooks_path)


def _git(root: Path, *args: str, allowed_codes: tuple[int, ...] = (0,)) -> str:
    try:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
    except OSError as error:
        raise CometError(f"cannot run git: {error}", hint="install git and put it on PATH") from error
    if done.returncode not in allowed_codes:
        raise CometError(
            f"`git {' '.join(args)}` failed in {root}: {done.stderr.strip()}",
            hint="check that git can use this repository (try `git status` there)",
        )
    return done.stdout.strip()


def _install_directory(where: HooksLocation, use_hooks_path: bool) -> Path:
    if where.hooks_path is None or where.hooks_path == where.common_hooks:
        return where.common_hooks
    if use_hooks_path:
        return where.hooks_path
    raise CometError(
        f"core.hooksPath points to {where.hooks_path}, so git does not run the hooks in "
        f"{where.common_hooks}; comet did not install anything",
        hint="that directory may belong to a hooks manager (husky, a shared hooks dir): "
        "to install comet's hooks there anyway, pass --use-hooks-path",
    )


def _inspected_directory(where: HooksLocation, use_hooks_path: bool) -> Path:
    if use_hooks_path and where.hooks_path is not None:
        return where.hooks_path
    return where.common_hooks


# --- our scripts and theirs --------------------------------------------------------


def default_worker() -> Path:
    return Path(__file__).resolve().parent / "worker.py"


def render_shim(hook: str, python: str, worker: Path) -> str:
    values = {"HOOK": hook, "PYTHON": shlex.quote(python), "WORKER": shlex.quote(str(worker))}
    template = resources.read_text("hook_templates", "git/shim.sh")
    return _PLACEHOLDER.sub(lambda match: values[match[1]], template)


def shim_version(path: Path) -> int | None:
    """The version of comet's shim at `path`, or None for anything that is not ours."""
    if not path.is_file():
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(_MARKER_SEARCH_BYTES)
    except OSError:
        return None
    found = _MARKER.search(head)
    return int(found[1]) if found else None


def legacy_path(hook: Path) -> Path:
    return hook.with_name(hook.name + LEGACY_SUFFIX)


def _kind(path: Path) -> Kind:
    if not os.path.lexists(path):
        return "absent"
    return "foreign" if shim_version(path) is None else "ours"


def _hook_status(directory: Path, name: str) -> HookStatus:
    path = directory / name
    legacy = os.path.lexists(legacy_path(path))
    version = shim_version(path)
    state: HookState
    if not os.path.lexists(path):
        state = "absent"
    elif version is None:
        state = "foreign"
    elif version < SHIM_VERSION or not _shim_targets_exist(path):
        state = "outdated"
    else:
        state = "installed-chained" if legacy else "installed"
    return HookStatus(name=name, state=state, legacy=legacy)


def _shim_targets_exist(path: Path) -> bool:
    """The interpreter and worker a current shim starts are still there (else it does nothing)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    targets = [re.search(rf"^comet_{name}=(.+)$", text, re.MULTILINE) for name in ("python", "worker")]
    try:
        paths = [shlex.split(found[1]) for found in targets if found]
    except ValueError:
        return False
    return len(paths) == 2 and all(len(words) == 1 and Path(words[0]).is_file() for words in paths)


# --- all-or-nothing changes ----------------------------------------------------------


@dataclass
class _Changes:
    """File operations in a hooks directory, each of which can be undone."""

    done: list[Change] = field(default_factory=list)
    _undo: list[Callable[[], None]] = field(default_factory=list)

    def make_directory(self, directory: Path) -> None:
        if directory.is_dir():
            return
        directory.mkdir(parents=True, mode=SHIM_MODE)
        self._undo.append(directory.rmdir)

    def rename(self, source: Path, target: Path) -> None:
        os.rename(source, target)
        self._undo.append(lambda: os.rename(target, source))

    def write(self, path: Path, data: bytes) -> None:
        previous = _snapshot(path)
        _write_executable(path, data, SHIM_MODE)
        self._undo.append(lambda: _restore(path, previous))

    def remove(self, path: Path) -> None:
        previous = _snapshot(path)
        path.unlink()
        self._undo.append(lambda: _restore(path, previous))

    def rollback(self) -> None:
        for undo in reversed(self._undo):
            with contextlib.suppress(OSError):
                undo()
        self._undo.clear()
        self.done.clear()


@contextlib.contextmanager
def _all_or_nothing(directory: Path) -> Iterator[_Changes]:
    changes = _Changes()
    try:
        yield changes
    except BaseException as error:
        changes.rollback()
        if isinstance(error, OSError):
            raise CometError(
                f"cannot change the git hooks in {directory}: {error.strerror or error}",
                hint=f"make {directory} a writable directory and run the command again; nothing was changed",
            ) from error
        raise


def _snapshot(path: Path) -> tuple[bytes, int] | None:
    if not os.path.lexists(path):
        return None
    return path.read_bytes(), stat.S_IMODE(path.stat().st_mode)


def _restore(path: Path, previous: tuple[bytes, int] | None) -> None:
    if previous is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    else:
        _write_executable(path, *previous)


def _write_executable(path: Path, data: bytes, mode: int) -> None:
    """Atomically: git never sees a half-written hook, nor one without its mode."""
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        raise


# --- the three operations ----------------------------------------------------------


def install_hooks(
    repo: Path,
    *,
    use_hooks_path: bool = False,
    python: str | None = None,
    worker: Path | None = None,
    comet_home: Path | None = None,
) -> HooksReport:
    """Write comet's shims, chaining any foreign hook; all of them or, on failure, none."""
    where = locate_hooks(repo)
    directory = _install_directory(where, use_hooks_path)
    interpreter = _interpreter(python)
    worker_path = Path(os.path.abspath(worker or default_worker()))
    kinds = {name: _kind(directory / name) for name in HOOK_NAMES}
    _check_installable(directory, kinds)
    store.ensure_dir((comet_home or store.comet_home()) / "run" / "pending")
    with _all_or_nothing(directory) as changes:
        changes.make_directory(directory)
        for name in HOOK_NAMES:
            shim = render_shim(name, interpreter, worker_path).encode("utf-8")
            _install_one(changes, directory / name, kinds[name], shim)
    return _report(where, directory, changes.done)


def uninstall_hooks(repo: Path, *, use_hooks_path: bool = False) -> HooksReport:
    """Remove comet's shims and put back the hooks they chained; leave everything else alone."""
    where = locate_hooks(repo)
    directory = _inspected_directory(where, use_hooks_path)
    with _all_or_nothing(directory) as changes:
        for name in HOOK_NAMES:
            _uninstall_one(changes, directory / name)
    return _report(where, directory, changes.done)


def hooks_status(repo: Path, *, use_hooks_path: bool = False) -> HooksReport:
    where = locate_hooks(repo)
    return _report(where, _inspected_directory(where, use_hooks_path), [])


def _interpreter(python: str | None) -> str:
    # Never `python3` through PATH: the shim must start the interpreter comet is installed in.
    interpreter = python if python is not None else sys.executable
    if not interpreter or not os.path.isabs(interpreter):
        raise InvalidInputError(
            f"the hooks need the absolute path of a Python interpreter, not {interpreter!r}",
            hint="run comet with the Python it is installed in",
        )
    return interpreter


def _check_installable(directory: Path, kinds: dict[str, Kind]) -> None:
    if os.path.lexists(directory) and not directory.is_dir():
        raise CometError(
            f"the git hooks directory {directory} is not a directory; nothing was changed",
            hint=f"move {directory} out of the way, then run the command again",
        )
    if directory.is_dir() and not os.access(directory, os.W_OK | os.X_OK):
        raise CometError(
            f"cannot write to the git hooks directory {directory}; nothing was changed",
            hint=f"make {directory} writable for you, then run the command again",
        )
    for name, kind in kinds.items():
        legacy = legacy_path(directory / name)
        if kind == "foreign" and os.path.lexists(legacy):
            raise CometError(
                f"{directory / name} is not comet's hook and {legacy.name} already exists beside it; "
                "comet will not overwrite either, so it installed nothing",
                hint=f"merge or remove one of {name} and {legacy.name}, then run the command again",
            )


def _install_one(changes: _Changes, path: Path, kind: Kind, shim: bytes) -> None:
    if kind == "foreign":
        changes.rename(path, legacy_path(path))
        changes.done.append(Change(path.name, "chained-legacy"))
    elif kind == "ours" and _snapshot(path) == (shim, SHIM_MODE):
        return
    changes.write(path, shim)
    changes.done.append(Change(path.name, "updated" if kind == "ours" else "installed"))


def _uninstall_one(changes: _Changes, path: Path) -> None:
    kind = _kind(path)
    if kind == "foreign":
        return  # somebody replaced our shim: theirs now, and so is any .comet-legacy beside it
    if kind == "ours":
        changes.remove(path)
        changes.done.append(Change(path.name, "removed"))
    legacy = legacy_path(path)
    if os.path.lexists(legacy):
        changes.rename(legacy, path)
        changes.done.append(Change(path.name, "restored-legacy"))


def _report(where: HooksLocation, directory: Path, changed: list[Change]) -> HooksReport:
    hooks = tuple(_hook_status(directory, name) for name in HOOK_NAMES)
    return HooksReport(
        directory=directory,
        hooks_path=where.hooks_path,
        hooks=hooks,
        changed=tuple(changed),
        notes=tuple(_notes(directory, where.hooks_path, hooks)),
    )


def _notes(directory: Path, hooks_path: Path | None, hooks: tuple[HookStatus, ...]) -> Iterator[str]:
    if hooks_path is not None and hooks_path != directory:
        yield (
            f"core.hooksPath points to {hooks_path}: git runs the hooks there, "
            f"so the ones in {directory} do not run (--use-hooks-path acts on that directory instead)"
        )
    for hook in hooks:
        if hook.state == "foreign" and hook.legacy:
            yield (
                f"{hook.name} is not comet's hook; {hook.name}{LEGACY_SUFFIX} beside it was left alone "
                "(put it back yourself if you want it)"
            )
