"""Wire `comet agent-hook` into each coding agent's own hook settings, and take it out again.

Every host reads its user-level hooks from one JSON file in the home directory (Claude Code
~/.claude/settings.json, Codex $CODEX_HOME/hooks.json with CODEX_HOME defaulting to ~/.codex,
Cursor ~/.cursor/hooks.json, Gemini CLI ~/.gemini/settings.json).  The bundled config
``hooks/<host>/<file>`` lists the events and matchers README "## Agents" documents, with
``@COMET@`` for the absolute path of the installed ``comet``.

The file is the user's: install appends comet's entries to each event's list and touches
nothing else; uninstall takes out exactly comet's entries.  Comet's entries are recognised by
their command (``…/comet agent-hook --host HOST …``), so a reinstall from a moved venv rewrites
the path in place, and entries written by hand from the README are adopted rather than doubled.

Before the first change the file as it was is copied to ``<file>.comet-backup`` beside it:
that is where a user who wants it back looks, it needs no comet (``mv`` undoes), it does not
depend on which COMET_HOME is set, and no host reads a file by that name.  Uninstall puts the
backup back, byte for byte, only when the file holds the same JSON once comet's entries are
out (nobody else changed it since); otherwise it only removes comet's entries.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from comet_git.errors import CometError
from comet_git.resources import read_text
from comet_git.store import (
    ABSENT,
    FILE_MODE,
    Absent,
    FileState,
    Home,
    atomic_write,
    file_lock,
    read_with_state,
    remove_file,
)

SCHEMA = "comet.agent-hooks/v1"
PLACEHOLDER = "@COMET@"
BACKUP_SUFFIX = ".comet-backup"
COMET_SCRIPTS = ("comet", "comet-git")

# Where each host reads its user hooks, relative to the home directory.
SETTINGS_FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "cursor": ".cursor/hooks.json",
    "gemini": ".gemini/settings.json",
}
HOSTS = tuple(SETTINGS_FILES)

_INDENT = re.compile(rb"\A\s*\{[ \t]*\r?\n([ \t]+)\S")


@dataclass(frozen=True)
class AgentTarget:
    """What happened to (or, for status, what is in) one host's settings file."""

    host: str
    path: Path
    # install: installed | updated | unchanged;  uninstall: restored | removed | entries-removed |
    # not-installed;  status: installed | outdated | not-installed | invalid
    state: str
    events: tuple[str, ...]
    backup: Path | None = None
    problem: str | None = None
    # Codex runs a hook only once the user trusted it (status only): trusted | partly-trusted |
    # untrusted | disabled, None for the other hosts.
    trust: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "path": str(self.path),
            "state": self.state,
            "events": list(self.events),
            "backup": str(self.backup) if self.backup else None,
            "problem": self.problem,
            "trust": self.trust,
        }


@dataclass
class _Change:
    """One file's planned write, made only once every host's file has been read and checked."""

    target: AgentTarget
    write_to: Path  # the file itself, through a symlink: dotfile managers keep their link
    expected: FileState | Absent
    content: bytes | None  # None: delete the file
    mode: int
    backup: bytes | None = None  # copy this to the backup first
    drop_backup: bool = False


def installed_comet() -> Path:
    """The console script beside the running interpreter: hooks run without the user's PATH or aliases."""
    comet = Path(sys.executable).parent / "comet"
    if not sys.executable or not comet.is_file():
        raise CometError(
            f"there is no `comet` script beside {sys.executable or 'this Python'}",
            hint="run the `comet` of an installed comet-git (`pip install .` in a checkout of its"
            " repository), not python -m comet_git",
        )
    return comet


def settings_path(host: str, home: Path) -> Path:
    if host == "codex":
        return codex_home(home) / "hooks.json"
    return home / SETTINGS_FILES[host]


def codex_home(home: Path) -> Path:
    """Where Codex keeps its user config: $CODEX_HOME, else ~/.codex."""
    configured = os.environ.get("CODEX_HOME", "").strip()
    return Path(configured).expanduser() if configured else home / ".codex"


def has_comet_hooks(host: str, home: Path) -> bool:
    """Whether the host's settings file holds some comet's hooks for `host` (False when unreadable)."""
    try:
        current = _read(settings_path(host, home))
    except CometError:
        return False
    return current is not None and bool(_comet_events(current[2], host))


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def bundled_config(host: str, comet: Path) -> dict[str, Any]:
    """The host's bundled config with the comet path filled in (shell-quoted: paths have spaces)."""
    template = read_text("hook_templates", f"{host}/{Path(SETTINGS_FILES[host]).name}")
    quoted = shlex.quote(str(comet))

    def fill(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(PLACEHOLDER, quoted)
        if isinstance(value, list):
            return [fill(item) for item in value]
        if isinstance(value, dict):
            return {key: fill(item) for key, item in value.items()}
        return value

    filled: dict[str, Any] = fill(json.loads(template))
    return filled


def is_comet_command(command: object, host: str) -> bool:
    """`command` runs some comet's agent hook for `host` (whichever venv it lives in)."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return (
        len(words) >= 4
        and Path(words[0]).name in COMET_SCRIPTS
        and words[1:4] == ["agent-hook", "--host", host]
    )


# -- the three operations -----------------------------------------------------------------


def install_agent_hooks(hosts: tuple[str, ...], home: Path, comet: Path) -> list[AgentTarget]:
    with _lock():
        changes = [_plan_install(host, home, comet) for host in hosts]
        return [_apply(change) for change in changes]


def uninstall_agent_hooks(hosts: tuple[str, ...], home: Path) -> list[AgentTarget]:
    with _lock():
        changes = [_plan_uninstall(host, home) for host in hosts]
        return [_apply(change) for change in changes]


def agent_hooks_status(hosts: tuple[str, ...], home: Path, comet: Path) -> list[AgentTarget]:
    return [_status(host, home, comet) for host in hosts]


def _lock() -> contextlib.AbstractContextManager[bool]:
    # Only against another comet install/uninstall: the agents do not take it, which is why
    # every write also checks that the file is still what was read.
    return file_lock(Home.from_environment().ensure().root / "agent-settings.lock")


def _plan_install(host: str, home: Path, comet: Path) -> _Change:
    path = settings_path(host, home)
    desired = bundled_config(host, comet)
    events = tuple(desired["hooks"])
    backup = backup_path(path)
    current = _read(path)
    if current is None:
        content = _render(merged({}, desired, host, path), None)
        return _Change(AgentTarget(host, path, "installed", events), path, ABSENT, content, FILE_MODE)
    raw, state, data, mode = current
    result = merged(data, desired, host, path)
    if _same(result, data):
        kept = backup if backup.exists() else None
        return _Change(AgentTarget(host, path, "unchanged", events, kept), path, state, None, mode)
    if stripped(data, host, {}, desired)[1]:
        # A reinstall (another venv, a newer config): the backup of the original stays as it is.
        kept = backup if backup.exists() else None
        target = AgentTarget(host, path, "updated", events, kept)
        return _Change(target, path.resolve(), state, _render(result, raw), mode)
    target = AgentTarget(host, path, "installed", events, backup)
    return _Change(target, path.resolve(), state, _render(result, raw), mode, backup=raw)


def _plan_uninstall(host: str, home: Path) -> _Change:
    path = settings_path(host, home)
    desired = bundled_config(host, Path("comet"))  # only its shape matters here
    backup = backup_path(path)
    current = _read(path)
    kept = backup if backup.exists() else None
    if current is None:
        return _Change(AgentTarget(host, path, "not-installed", (), kept), path, ABSENT, None, FILE_MODE)
    raw, state, data, mode = current
    original = _read_backup(backup)
    result, found = stripped(data, host, original if original is not None else {}, desired)
    if not found:
        return _Change(AgentTarget(host, path, "not-installed", (), kept), path, state, None, mode)
    events = _comet_events(data, host)
    if original is not None and _same(result, original, ordered=False):
        target = AgentTarget(host, path, "restored", events, backup)
        return _Change(target, path.resolve(), state, backup.read_bytes(), mode, drop_backup=True)
    if kept is None and result == {}:
        return _Change(AgentTarget(host, path, "removed", events), path.resolve(), state, None, mode)
    target = AgentTarget(host, path, "entries-removed", events, kept)
    return _Change(target, path.resolve(), state, _render(result, raw), mode)


def _status(host: str, home: Path, comet: Path) -> AgentTarget:
    path = settings_path(host, home)
    backup = backup_path(path)
    kept = backup if backup.exists() else None
    try:
        current = _read(path)
    except CometError as error:
        return AgentTarget(host, path, "invalid", (), kept, error.message)
    if current is None:
        return AgentTarget(host, path, "not-installed", (), kept)
    data = current[2]
    events = _comet_events(data, host)
    try:
        up_to_date = _same(merged(data, bundled_config(host, comet), host, path), data)
    except CometError as error:
        return AgentTarget(host, path, "invalid", events, kept, error.message)
    trust = codex_trust(data, path, home) if host == "codex" and events else None
    if up_to_date:
        return AgentTarget(host, path, "installed", events, kept, trust=trust)
    return AgentTarget(host, path, "outdated" if events else "not-installed", events, kept, trust=trust)


# -- Codex's trust of hooks ---------------------------------------------------------------


def codex_trust(data: dict[str, Any], path: Path, home: Path) -> str:
    """Whether Codex will run comet's hooks in `data` (the hooks.json at `path`).

    Codex skips a hook the user has not trusted, silently.  It records trust in its
    config.toml, one table per handler, keyed by the file, the event (snake case) and the
    handler's place: `[hooks.state."<hooks.json>:session_start:0:0"] trusted_hash = "sha256:…"`
    (`enabled = false` turns a trusted hook off).  comet does not recompute Codex's hash: a
    hook changed since it was trusted shows up in Codex's /hooks, not here."""
    states = _codex_hook_states(codex_home(home) / "config.toml")
    sources = {str(path), str(path.resolve())}
    trusted = disabled = total = 0
    for key_tail in _comet_handler_keys(data):
        total += 1
        keys = [f"{source}:{key_tail}" for source in sources]
        state = next((states[key] for key in keys if key in states), {})
        if state.get("enabled") is False:
            disabled += 1
        elif isinstance(state.get("trusted_hash"), str):
            trusted += 1
    if disabled:
        return "disabled"
    if trusted == total:
        return "trusted"
    return "partly-trusted" if trusted else "untrusted"


def _comet_handler_keys(data: dict[str, Any]) -> list[str]:
    """`<event>:<group>:<handler>` of each comet handler in a Codex hooks.json, as Codex keys it."""
    keys = []
    for event, groups in _hooks_of(data, Path()).items():
        if not isinstance(groups, list):
            continue
        for group_index, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for handler_index, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and is_comet_command(handler.get("command"), "codex"):
                    keys.append(f"{_snake(event)}:{group_index}:{handler_index}")
    return keys


def _snake(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def _codex_hook_states(config: Path) -> dict[str, dict[str, Any]]:
    """The [hooks.state] tables of Codex's config.toml; none when it is missing or not TOML
    (Codex itself then refuses to start, and says why)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        parsed = tomllib.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    hooks = parsed.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    if not isinstance(state, dict):
        return {}
    return {key: value for key, value in state.items() if isinstance(value, dict)}


def _apply(change: _Change) -> AgentTarget:
    if change.target.state in ("unchanged", "not-installed"):
        return change.target
    try:
        if change.backup is not None and change.target.backup is not None:
            atomic_write(change.target.backup, change.backup, mode=change.mode)
        if change.content is None:
            assert isinstance(change.expected, FileState)  # only a file that is there is removed
            remove_file(change.write_to, expected=change.expected)
        else:
            atomic_write(change.write_to, change.content, expected=change.expected, mode=change.mode)
        if change.drop_backup and change.target.backup is not None:
            remove_file(change.target.backup)
    except OSError as error:
        raise CometError(
            f"cannot write {change.target.path}: {error.strerror or error}",
            hint="check that the file and its folder are writable by you",
        ) from error
    return change.target


# -- merging ------------------------------------------------------------------------------


def merged(data: dict[str, Any], desired: dict[str, Any], host: str, path: Path) -> dict[str, Any]:
    """`data` with comet's entries for `host` as `desired` has them, everything else as it was.

    Comet's entries go where the old ones stood (a moved venv updates in place), else at the
    end of the event's list, after the user's own hooks."""
    result = dict(data)
    for key, value in desired.items():
        if key != "hooks":
            result.setdefault(key, value)  # Cursor's "version": 1
    hooks = dict(_hooks_of(result, path))
    for event, groups in desired["hooks"].items():
        existing = hooks.get(event, [])
        if not isinstance(existing, list):
            raise _shape_error(path, f'"hooks"."{event}" is not a list')
        kept, first = _without_comet(existing, host)
        at = len(kept) if first is None else first
        hooks[event] = [*kept[:at], *groups, *kept[at:]]
    for event, entries in list(hooks.items()):
        # Events an older comet hooked that this config no longer lists.
        if event not in desired["hooks"] and isinstance(entries, list):
            kept, first = _without_comet(entries, host)
            if first is not None and kept:
                hooks[event] = kept
            elif first is not None:
                del hooks[event]
    result["hooks"] = hooks
    return result


def stripped(
    data: dict[str, Any], host: str, original: dict[str, Any], desired: dict[str, Any]
) -> tuple[dict[str, Any], bool]:
    """`data` without comet's entries for `host`, and whether there were any.

    An event list, the "hooks" object or a top-level key of the bundled config (Cursor's
    "version") that is left empty is removed only when `original` (the file before the
    install) did not have it: comet created it."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return data, False
    original_hooks = original.get("hooks")
    if not isinstance(original_hooks, dict):
        original_hooks = {}
    remaining: dict[str, Any] = {}
    found = False
    for event, entries in hooks.items():
        if isinstance(entries, list):
            kept, first = _without_comet(entries, host)
            if first is not None:
                found = True
                if not kept and event not in original_hooks:
                    continue
                entries = kept
        remaining[event] = entries
    if not found:
        return data, False
    result = dict(data)
    if remaining or "hooks" in original:
        result["hooks"] = remaining
        return result, True
    del result["hooks"]
    for key, value in desired.items():
        if key != "hooks" and key not in original and result.get(key) == value:
            del result[key]
    return result, True


def _without_comet(entries: list[Any], host: str) -> tuple[list[Any], int | None]:
    """The entries without comet's, and where in the kept list comet's first one stood."""
    kept: list[Any] = []
    first: int | None = None
    for entry in entries:
        remaining = _entry_without_comet(entry, host)
        if remaining is not entry and first is None:
            first = len(kept)
        if remaining is not None:
            kept.append(remaining)
    return kept, first


def _entry_without_comet(entry: Any, host: str) -> Any:
    if not isinstance(entry, dict):
        return entry
    if is_comet_command(entry.get("command"), host):  # Cursor: the entry is the hook
        return None
    hooks = entry.get("hooks")
    if not isinstance(hooks, list):
        return entry
    # A group the user added their own command to keeps it; only comet's command goes.
    others = [
        hook for hook in hooks if not (isinstance(hook, dict) and is_comet_command(hook.get("command"), host))
    ]
    if len(others) == len(hooks):
        return entry
    return {**entry, "hooks": others} if others else None


def _comet_events(data: dict[str, Any], host: str) -> tuple[str, ...]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return ()
    return tuple(
        event
        for event, entries in hooks.items()
        if isinstance(entries, list) and _without_comet(entries, host)[1] is not None
    )


def _hooks_of(data: dict[str, Any], path: Path) -> dict[str, Any]:
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise _shape_error(path, '"hooks" is not an object')
    return hooks


# -- reading and writing the user's file --------------------------------------------------


def _read(path: Path) -> tuple[bytes, FileState, dict[str, Any], int] | None:
    try:
        raw, state = read_with_state(path)
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise CometError(
            f"cannot read {path}: {error.strerror or error}", hint="check the file's permissions"
        ) from error
    return raw, state, _parse(path, raw), mode


def _parse(path: Path, raw: bytes) -> dict[str, Any]:
    if not raw.strip():
        return {}  # an empty file (`touch`) holds no settings yet
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (UnicodeDecodeError, ValueError) as error:
        raise CometError(
            f"{path} is not valid JSON ({error}); nothing was changed",
            hint="fix the file (comments and trailing commas are not JSON), "
            "or add the entries by hand as README.md shows",
        ) from error
    if not isinstance(data, dict):
        raise _shape_error(path, "it is not a JSON object")
    return data


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _read_backup(path: Path) -> dict[str, Any] | None:
    try:
        return _parse(path, path.read_bytes())
    except (OSError, CometError):
        return None  # no usable backup: comet's entries are removed, nothing is restored


def _shape_error(path: Path, what: str) -> CometError:
    return CometError(
        f"{path}: {what}; nothing was changed",
        hint="fix the file, or add the entries by hand as README.md shows",
    )


def _render(data: dict[str, Any], like: bytes | None) -> bytes:
    """JSON in the file's own indentation, so the parts comet did not touch read as before."""
    found = _INDENT.match(like) if like else None
    indent = found.group(1).decode() if found else "  "
    newline = "\n" if like is None or not like.strip() or like.endswith(b"\n") else ""
    return (json.dumps(data, indent=indent, ensure_ascii=False) + newline).encode("utf-8")


def _same(left: dict[str, Any], right: dict[str, Any], *, ordered: bool = True) -> bool:
    # Through JSON, not ==: in Python 1 == 1.0 == True, in the file they differ.
    return json.dumps(left, sort_keys=not ordered) == json.dumps(right, sort_keys=not ordered)
