"""From a command's PATH to the project it is about, its store and its provider."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from comet_git.errors import CometError, RecordFormatError
from comet_git.identity import (
    ProjectFingerprint,
    ProjectIdentity,
    RepoLocation,
    find_repository,
    project_dir_name,
    read_persisted_key,
    resolve_identity,
)
from comet_git.provider.local import LocalProvider
from comet_git.records.model import utc_now
from comet_git.store import Home, atomic_write, file_lock, sha256_bytes

if TYPE_CHECKING:
    from comet_git.config import ConfigLayer, Setting
    from comet_git.provider import MachineProvider

PROJECT_FILE = "project.yaml"


class Workspace(NamedTuple):
    home: Home
    path: Path
    location: RepoLocation | None
    identity: ProjectIdentity | None

    @property
    def project_key(self) -> str | None:
        return self.identity.key if self.identity else None

    @property
    def repository_names(self) -> tuple[str, ...]:
        """What a person calls this repository: its key's readable part (from the origin remote)
        and the folders of the worktree and of the main checkout.  Empty outside a repository."""
        if self.identity is None or self.location is None:
            return ()
        names = (self.identity.slug, self.location.worktree_root.name, project_dir_name(self.location))
        return tuple(dict.fromkeys(name for name in names if name))

    def provider(self) -> MachineProvider:
        """The one place that picks where memory lives (`memory.provider`): with `remote`,
        the server is the memory and the local store is not read at all."""
        if self.setting("memory.provider").value != "remote":
            return LocalProvider(self.home, self.project_key)
        from comet_git.provider.remote import TOKEN_VARIABLE, RemoteProvider

        url = self.setting("memory.remote.url").value
        if not isinstance(url, str):
            raise CometError(
                "memory.provider is remote, but memory.remote.url is not set",
                hint="comet config set --global memory.remote.url http://HOST:8765"
                " (or `comet config set --global memory.provider local`)",
            )
        timeout = self.setting("memory.remote.timeout").value
        assert isinstance(timeout, float)
        token = os.environ.get(TOKEN_VARIABLE) or None
        return RemoteProvider(self.home, self.project_key, url, token, timeout)

    def stale(self, *, compute: bool = True) -> dict[str, list[str]]:
        """The project's records whose anchors (paths, make targets, scripts) are gone at HEAD:
        id -> the reasons (provider/staleness.py).  Empty outside a repository, and for a
        Remote provider (its records are checked where the repository is).  Without `compute`,
        only the cached verdicts (see stale_records)."""
        remote = self.setting("memory.provider").value == "remote"
        if self.location is None or self.project_key is None or remote:
            return {}
        store = self.home.project_store(self.project_key)
        if not store.records_dir.is_dir():
            return {}
        from comet_git.provider import Query
        from comet_git.provider.staleness import stale_records

        provider = self.provider()

        def records() -> list[dict[str, object]]:
            found = provider.query(Query(scopes=("project",))).records
            return [view.as_dict() for view in found]

        return stale_records(store, self.location.worktree_root, records, compute=compute)

    def config_layers(self) -> list[ConfigLayer]:
        from comet_git import config

        project_config = self.home.project_store(self.project_key).config_path if self.project_key else None
        root = self.location.worktree_root if self.location else None
        return config.layers(self.home.user_config_path, root, project_config)

    def setting(self, key: str, *, strict: bool = False) -> Setting:
        """The setting in effect.  A repository's `.comet/config.yaml` that cannot be read is
        someone's commit, not the user's choice: it is left out (and logged) rather than turning
        memory off for everyone who works in the repository.  `strict`: it is an error, as any
        other file of the user's that cannot be read is (what `config get` and `status` show)."""
        from comet_git import config

        layers = self.config_layers()
        try:
            return config.effective(key, layers)
        except RecordFormatError as error:
            shared = [str(layer.path) for layer in layers if layer.name == "repository"]
            if strict or error.file not in shared:
                raise
            _note_ignored_config(self.home, error)
            return config.effective(key, [layer for layer in layers if layer.name != "repository"])

    def setting_or_problem(self, key: str) -> dict[str, Any]:
        """The setting as JSON (Setting.to_json), or, when a config file cannot be read, what is
        wrong with it: a status shows the problem instead of failing."""
        try:
            return self.setting(key, strict=True).to_json()
        except RecordFormatError as error:
            try:  # what is in effect without a repository's file that cannot be read
                shown = self.setting(key).to_json()
            except RecordFormatError:
                shown = {"key": key, "value": None, "source": "error", "file": error.file}
            return {**shown, "error": str(error)}


_IGNORED_CONFIGS: set[str] = set()  # logged once a process


def _note_ignored_config(home: Home, error: RecordFormatError) -> None:
    if error.file in _IGNORED_CONFIGS:
        return
    _IGNORED_CONFIGS.add(error.file)
    from comet_git.diagnostics import log_failure

    log_failure(home.diagnostics_log, "repository config left out", error)


def open_workspace(path: Path | str = ".") -> Workspace:
    """Resolve PATH; outside any repository only the global scope is available."""
    target = Path(path)
    if not target.exists():
        raise CometError(
            f"{target} does not exist", hint="pass the path of a repository (or leave it out for .)"
        )
    home = Home.from_environment()
    location = find_repository(target)
    if location is None:
        return Workspace(home, target, None, None)
    if read_persisted_key(location) is not None:
        identity = resolve_identity(target)
    else:
        # Deriving and persisting the key once: comet processes started together on a
        # new repository must agree on one key (and not race on .git/config).
        lock = (
            home.ensure().root / "locks" / ("identity-" + sha256_bytes(os.fsencode(location.common_dir))[:16])
        )
        with file_lock(lock):
            identity = resolve_identity(
                target, find_known=lambda fingerprint: find_known_project(home, fingerprint)
            )
    if identity.fingerprint is not None:
        # A key was derived just now: note the repository's fingerprint for later clones.
        remember_project(home, identity, identity.fingerprint)
    return Workspace(home, target, location, identity)


def project_file(home: Home, key: str) -> Path:
    return home.project_store(key).root / PROJECT_FILE


def remember_project(home: Home, identity: ProjectIdentity, fingerprint: ProjectFingerprint) -> None:
    """Write project.yaml: what identifies this project (remotes, root commits, worktrees)."""
    import yaml

    path = project_file(home, identity.key)
    known: dict[str, object] = {}
    if path.exists():
        try:
            loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (yaml.YAMLError, UnicodeDecodeError):
            loaded = None  # a damaged machine file: written afresh from what git says now
        known = loaded if isinstance(loaded, dict) else {}
    listed = known.get("worktrees")
    earlier = {str(item) for item in listed} if isinstance(listed, list) else set()
    worktrees = sorted(earlier | set(fingerprint.worktrees))
    data = {
        "key": identity.key,
        "slug": identity.slug,
        "derivation": known.get("derivation", identity.derivation),
        "remotes": dict(fingerprint.remotes),
        "rootCommits": list(fingerprint.root_commits),
        "worktrees": worktrees,
        "createdAt": known.get("createdAt", utc_now()),
        "updatedAt": utc_now(),
    }
    atomic_write(path, yaml.safe_dump(data, sort_keys=False, allow_unicode=True))


def find_known_project(home: Home, fingerprint: ProjectFingerprint) -> str | None:
    """A project already in the store with the same remote URL (a re-clone or a copy)."""
    wanted = main_remote(fingerprint.remotes)
    if wanted is None:
        return None
    import yaml

    projects = home.root / "projects"
    if not projects.is_dir():
        return None
    for entry in sorted(os.scandir(projects), key=lambda e: e.name):
        path = Path(entry.path) / PROJECT_FILE
        if not path.exists():
            continue
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (yaml.YAMLError, UnicodeDecodeError):
            continue
        if not isinstance(data, dict):
            continue
        remotes = data.get("remotes") or {}
        if isinstance(remotes, dict) and main_remote({str(k): str(v) for k, v in remotes.items()}) == wanted:
            return str(data.get("key") or entry.name)
    return None


def main_remote(remotes: dict[str, str]) -> str | None:
    """The remote that names a project: origin, else the first by name (a fork's
    `upstream` must not make it the project it was forked from)."""
    if not remotes:
        return None
    return remotes.get("origin") or remotes[sorted(remotes)[0]]
