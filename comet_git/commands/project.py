"""comet init, comet project identity | adopt."""

from __future__ import annotations

from pathlib import Path

from comet_git import identity
from comet_git.commands import Output
from comet_git.errors import NotARepositoryError, NotFoundError
from comet_git.githooks.install import install_hooks
from comet_git.identity import resolve_identity
from comet_git.store import Home
from comet_git.workspace import find_known_project, open_workspace, remember_project

IDENTITY_SCHEMA = "comet.project-identity/v1"
INIT_SCHEMA = "comet.init/v1"


def _identity_text(data: dict[str, object]) -> str:
    lines = [f"project key: {data['key']}", f"derived from: {data['derivation']}"]
    lines.append(f"repository: {data['worktreeRoot']} (common dir {data['commonDir']})")
    remotes = data.get("remotes") or {}
    if isinstance(remotes, dict):
        lines.extend(f"remote {name}: {url}" for name, url in sorted(remotes.items()))
    return "\n".join(lines) + "\n"


def show_identity(path: Path) -> Output:
    home = Home.from_environment()
    found = resolve_identity(path, find_known=lambda fp: find_known_project(home, fp), with_fingerprint=True)
    data = {"schema": IDENTITY_SCHEMA, **found.to_json()}
    return Output(data, _identity_text(data))


def adopt(path: Path, key: str, *, new: bool = False) -> Output:
    """Relink the repository at `path` to project `key`: an existing project's memory, or with
    `new`, a new empty store.  A mistyped key would make all project memory seem to vanish."""
    home = Home.from_environment()
    before = identity.find_repository(path)
    if before is None:
        raise NotARepositoryError(
            f"{path} is not inside a git repository", hint="run it inside the clone to relink"
        )
    identity.check_key(key, "given to adopt")
    current = resolve_identity(path, find_known=lambda fp: find_known_project(home, fp)).key
    store_existed = home.project_store(key).exists()
    if not store_existed and not new:
        raise NotFoundError(f"no project {key} in {home.root / 'projects'}", hint=_known_keys_hint(home, key))
    previous = identity.read_persisted_key(before)
    adopted = identity.adopt(path, key)
    full = resolve_identity(path, with_fingerprint=True)
    assert full.fingerprint is not None
    remember_project(home, adopted, full.fingerprint)
    back = f"comet project adopt {current}" if current != key else None
    data = {"schema": IDENTITY_SCHEMA, **full.to_json(), "previousKey": previous, "goBack": back}
    known = "its existing memory" if store_existed else "a new, empty project store"
    text = f"adopted {key} ({known}); previously {previous or current + ' (derived)'}\n"
    return Output(data, text + (f"to go back: {back}\n" if back else ""))


def _known_keys_hint(home: Home, key: str) -> str:
    import difflib

    keys = home.project_keys()
    closest = difflib.get_close_matches(key, keys, n=1, cutoff=0.6)
    guess = f"did you mean {closest[0]}? " if closest else ""
    listing = f"known projects: {', '.join(keys)}; " if keys and len(keys) <= 10 else ""
    return f"{guess}{listing}pass --new to start this repository on a new, empty project store"


def init(path: Path, *, hooks: bool = True, use_hooks_path: bool = False) -> Output:
    ws = open_workspace(path)
    if ws.identity is None:
        raise NotARepositoryError(
            f"{path} is not inside a git repository",
            hint="run `git init` first; global memory needs no init (`comet memory remember --scope global`)",
        )
    home = ws.home
    store = home.project_store(ws.identity.key)
    existed = store.exists()
    full = resolve_identity(path, with_fingerprint=True)
    assert full.fingerprint is not None
    remember_project(home, ws.identity, full.fingerprint)
    store.create()
    home.global_store.create()
    hooks_report = install_hooks(path, use_hooks_path=use_hooks_path) if hooks else None
    data = {
        "schema": INIT_SCHEMA,
        "project": {"key": ws.identity.key, "derivation": ws.identity.derivation},
        "store": str(store.root),
        "created": not existed,
        "hooks": hooks_report.to_json() if hooks_report else None,
    }
    verb = "created" if not existed else "already set up"
    text = f"{verb}: project {ws.identity.key}\nstore: {store.root}\n"
    text += hooks_report.render_text() if hooks_report else "git hooks: not installed (--no-hooks)\n"
    return Output(data, text)
