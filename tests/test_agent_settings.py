"""comet hooks install|uninstall|status --agent HOST: comet's entries in the agents' own settings,
everything of the user's kept, and the file put back as it was."""

from __future__ import annotations

import json
import re
import shlex
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from comet_git.agents.settings import install_agent_hooks
from tests.clihelp import installed_comet, invoke, run_comet

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data" / "agent-hooks"
HOSTS = ("claude", "codex", "cursor", "gemini")
FILES = {
    "claude": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "cursor": ".cursor/hooks.json",
    "gemini": ".gemini/settings.json",
}
# The events and matchers README "## Agents" documents, written out independently of hooks/<host>/.
EVENTS: dict[str, list[tuple[str, str | None]]] = {
    "claude": [
        ("SessionStart", None),
        ("UserPromptSubmit", None),
        # Read too: a file's memory arrives before the first edit, when the agent reads it.
        ("PreToolUse", "Read|Edit|Write"),
        ("SessionEnd", None),
    ],
    "codex": [
        ("SessionStart", None),
        ("UserPromptSubmit", None),
        ("PreToolUse", "apply_patch"),
        # Codex's Stop fires after every turn; a session ends once.
        ("SessionEnd", None),
    ],
    "cursor": [("sessionStart", None), ("beforeSubmitPrompt", None), ("sessionEnd", None)],
    "gemini": [
        ("SessionStart", None),
        ("BeforeAgent", None),
        ("AfterTool", "read_file|write_file|replace"),
        ("SessionEnd", None),
    ],
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    writable = tmp_path / "home"
    writable.mkdir()
    monkeypatch.setenv("HOME", str(writable))
    return writable


# Codex gives a SessionEnd hook 1 s unless told otherwise (3 s at most): comet's hook takes up to 1 s.
TIMEOUTS = {("codex", "SessionEnd"): {"timeout": 3}}


def comet_entries(host: str, comet: str) -> dict[str, list[dict[str, Any]]]:
    entries: dict[str, list[dict[str, Any]]] = {}
    for event, matcher in EVENTS[host]:
        command = f"{comet} agent-hook --host {host} {event}"
        if host == "cursor":
            entries[event] = [{"command": command}]
        else:
            handler = {"type": "command", "command": command, **TIMEOUTS.get((host, event), {})}
            group: dict[str, Any] = {"hooks": [handler]}
            entries[event] = [{"matcher": matcher, **group}] if matcher else [group]
    return entries


def comet_only(host: str, comet: str) -> dict[str, Any]:
    head = {"version": 1} if host == "cursor" else {}
    return {**head, "hooks": comet_entries(host, comet)}


def users_hook(host: str, command: str) -> dict[str, Any]:
    return {"command": command} if host == "cursor" else {"hooks": [{"type": "command", "command": command}]}


def users_settings(host: str) -> dict[str, Any]:
    """A file the user already has: other keys, a hook on one of comet's events, one on another event."""
    first_event = EVENTS[host][0][0]
    return {
        **({"version": 1} if host == "cursor" else {}),
        "model": "their-model",
        "permissions": {"allow": ["Bash(npm test)"], "deny": []},
        "hooks": {
            first_event: [users_hook(host, "~/bin/their-start-hook --flag")],
            "Notification": [users_hook(host, "notify-send 'agent waits'")],
        },
        "éditeur": "vim ✓",
    }


def merged_by_hand(host: str, settings: dict[str, Any], comet: str) -> dict[str, Any]:
    expected = json.loads(json.dumps(settings))
    for event, groups in comet_entries(host, comet).items():
        expected["hooks"].setdefault(event, []).extend(groups)
    return expected


def install(host: str, *extra: str) -> dict[str, Any]:
    done = invoke("hooks", "install", "--agent", host, "--json", *extra)
    assert done.exit_code == 0, done.stderr
    data: dict[str, Any] = done.json()
    assert data["schema"] == "comet.agent-hooks/v1" and data["action"] == "install"
    return data


def uninstall(host: str) -> dict[str, Any]:
    done = invoke("hooks", "uninstall", "--agent", host, "--json")
    assert done.exit_code == 0, done.stderr
    data: dict[str, Any] = done.json()
    assert data["schema"] == "comet.agent-hooks/v1" and data["action"] == "uninstall"
    return data


def states(report: dict[str, Any]) -> dict[str, str]:
    return {target["host"]: target["state"] for target in report["targets"]}


def write_settings(path: Path, data: dict[str, Any], mode: int = 0o640) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()
    path.write_bytes(raw)
    path.chmod(mode)
    return raw


@pytest.mark.parametrize("host", HOSTS)
def test_install_into_an_empty_home_writes_the_documented_entries(host: str, home: Path) -> None:
    report = install(host)
    path = home / FILES[host]
    assert states(report) == {host: "installed"}
    assert report["targets"][0]["backup"] is None
    assert json.loads(path.read_text()) == comet_only(host, installed_comet())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert not (home / f"{FILES[host]}.comet-backup").exists()


@pytest.mark.parametrize("host", HOSTS)
def test_the_bundled_config_is_the_one_readme_shows(host: str, home: Path) -> None:
    install(host)
    readme = (ROOT / "README.md").read_text()
    block = re.search(rf"comet hooks install --agent {host}\b.*?```json\n(.*?)```", readme, re.S)
    assert block, f"README shows no JSON for {host}"
    shown = json.loads(block.group(1).replace("/ABS/bin/comet", installed_comet()))
    assert json.loads((home / FILES[host]).read_text()) == shown


@pytest.mark.parametrize("host", HOSTS)
def test_install_keeps_the_users_settings_and_hooks(host: str, home: Path) -> None:
    path = home / FILES[host]
    original = write_settings(path, users_settings(host))

    report = install(host)

    assert states(report) == {host: "installed"}
    # Untouched parts byte for byte: the same indentation, key order and characters.
    expected = merged_by_hand(host, users_settings(host), installed_comet())
    assert path.read_bytes() == (json.dumps(expected, indent=2, ensure_ascii=False) + "\n").encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    backup = home / f"{FILES[host]}.comet-backup"
    assert report["targets"][0]["backup"] == str(backup)
    assert backup.read_bytes() == original


@pytest.mark.parametrize("host", HOSTS)
def test_reinstalling_changes_nothing(host: str, home: Path) -> None:
    path = home / FILES[host]
    write_settings(path, users_settings(host))
    install(host)
    first = path.read_bytes()

    assert states(install(host)) == {host: "unchanged"}
    assert path.read_bytes() == first
    assert states(install("all"))[host] == "unchanged"
    assert path.read_bytes() == first


@pytest.mark.parametrize("host", HOSTS)
def test_a_moved_venv_updates_the_path_in_place(host: str, home: Path) -> None:
    path = home / FILES[host]
    settings = users_settings(host)
    write_settings(path, settings)
    install(host)
    backup = (home / f"{FILES[host]}.comet-backup").read_bytes()
    # The user adds a hook after comet's on one of comet's events.
    data = json.loads(path.read_text())
    last_event = EVENTS[host][-1][0]
    data["hooks"][last_event].append(users_hook(host, "their-stop-hook"))
    path.write_text(json.dumps(data, indent=2))

    moved = Path("/home/me/my venvs/new/bin/comet")
    (target,) = install_agent_hooks((host,), home, moved)

    assert target.state == "updated"
    result = json.loads(path.read_text())
    expected = merged_by_hand(host, settings, shlex.quote(str(moved)))
    expected["hooks"][last_event].append(users_hook(host, "their-stop-hook"))
    assert result == expected
    assert (home / f"{FILES[host]}.comet-backup").read_bytes() == backup  # still the original


@pytest.mark.parametrize("host", HOSTS)
def test_uninstall_restores_the_original_byte_for_byte(host: str, home: Path) -> None:
    path = home / FILES[host]
    path.parent.mkdir()
    # Formatting of the user's own, which a JSON round trip would not reproduce.
    original = json.dumps(users_settings(host), separators=(",", ":")).encode()
    path.write_bytes(original)
    path.chmod(0o644)
    install(host)

    assert states(uninstall(host)) == {host: "restored"}
    assert path.read_bytes() == original
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert not (home / f"{FILES[host]}.comet-backup").exists()
    assert states(uninstall(host)) == {host: "not-installed"}
    assert path.read_bytes() == original


@pytest.mark.parametrize("host", HOSTS)
def test_uninstall_removes_a_file_comet_created(host: str, home: Path) -> None:
    install(host)
    assert states(uninstall(host)) == {host: "removed"}
    assert not (home / FILES[host]).exists()
    assert states(uninstall(host)) == {host: "not-installed"}


@pytest.mark.parametrize("host", HOSTS)
def test_uninstall_after_the_user_added_a_hook_keeps_theirs(host: str, home: Path) -> None:
    path = home / FILES[host]
    write_settings(path, users_settings(host))
    install(host)
    data = json.loads(path.read_text())
    second_event = EVENTS[host][1][0]
    data["hooks"][second_event].append(users_hook(host, "their-prompt-hook"))
    data["theme"] = "dark"
    path.write_text(json.dumps(data, indent=2) + "\n")

    assert states(uninstall(host)) == {host: "entries-removed"}

    expected = users_settings(host)
    expected["hooks"][second_event] = [users_hook(host, "their-prompt-hook")]
    expected["theme"] = "dark"
    assert json.loads(path.read_text()) == expected  # lists only comet filled are gone
    assert (home / f"{FILES[host]}.comet-backup").exists()
    assert states(uninstall(host)) == {host: "not-installed"}


@pytest.mark.parametrize("host", HOSTS)
def test_invalid_json_is_refused_and_nothing_changes(host: str, home: Path) -> None:
    path = home / FILES[host]
    path.parent.mkdir()
    broken = b'{\n  // my settings\n  "model": "x",\n}\n'
    path.write_bytes(broken)

    for command in ("install", "uninstall"):
        done = invoke("hooks", command, "--agent", "all")
        assert done.exit_code == 1
        assert f"{path} is not valid JSON" in done.stderr and "nothing was changed" in done.stderr
        assert path.read_bytes() == broken
        assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file()) == [FILES[host]]
    status = invoke("hooks", "status", "--agent", host, "--json")
    assert status.exit_code == 0 and states(status.json()) == {host: "invalid"}


def test_a_hooks_key_of_the_wrong_shape_is_refused(home: Path) -> None:
    path = home / FILES["claude"]
    original = write_settings(path, {"hooks": {"SessionStart": {"hooks": []}}})
    done = invoke("hooks", "install", "--agent", "claude")
    assert done.exit_code == 1 and '"hooks"."SessionStart" is not a list' in done.stderr
    assert path.read_bytes() == original


def test_status_says_installed_outdated_or_not(home: Path) -> None:
    def status() -> dict[str, str]:
        done = invoke("hooks", "status", "--agent", "all", "--json")
        assert done.exit_code == 0, done.stderr
        return states(done.json())

    assert status() == dict.fromkeys(HOSTS, "not-installed")
    install("claude")
    assert status()["claude"] == "installed"
    install_agent_hooks(("codex",), home, Path("/elsewhere/bin/comet"))
    assert status()["codex"] == "outdated"
    assert "comet hooks install --agent codex" in invoke("hooks", "status", "--agent", "codex").stdout


def test_a_symlinked_settings_file_stays_a_link(home: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    original = write_settings(dotfiles, {"model": "x"})
    (home / ".claude").mkdir()
    (home / FILES["claude"]).symlink_to(dotfiles)

    install("claude")
    assert (home / FILES["claude"]).is_symlink()
    assert "agent-hook" in dotfiles.read_text()
    uninstall("claude")
    assert (home / FILES["claude"]).is_symlink() and dotfiles.read_bytes() == original


def test_text_output_says_which_file_changed_and_how_to_undo(home: Path) -> None:
    write_settings(home / FILES["claude"], {"model": "x"})
    done = invoke("hooks", "install", "--agent", "claude")
    assert done.exit_code == 0
    assert str(home / FILES["claude"]) in done.stdout
    assert f"{home / FILES['claude']}.comet-backup" in done.stdout
    assert "undo: comet hooks uninstall --agent claude" in done.stdout


def test_agent_takes_no_git_hook_arguments(home: Path, repo: Path) -> None:
    for extra in ([str(repo)], ["--use-hooks-path"]):
        done = invoke("hooks", "install", "--agent", "claude", *extra)
        assert done.exit_code == 2 and "--agent" in done.stderr
    assert not (home / ".claude").exists()


def test_the_installed_claude_hooks_run_this_comet(home: Path, repo: Path) -> None:
    """End to end: the real `comet` installs, and each command it wrote answers a sample payload."""
    done = run_comet("hooks", "install", "--agent", "claude")
    assert done.exit_code == 0, done.stderr
    settings = json.loads((home / FILES["claude"]).read_text())
    comet = installed_comet()
    assert Path(comet).is_absolute()
    for event, _ in EVENTS["claude"]:
        (command,) = [hook["command"] for group in settings["hooks"][event] for hook in group["hooks"]]
        argv = shlex.split(command)
        assert argv == [comet, "agent-hook", "--host", "claude", event]
        payload = (DATA / f"claude-{event}.json").read_text()
        payload = payload.replace("@CWD@", str(repo)).replace("@PROMPT@", "fix the login test")
        answered = subprocess.run(argv, input=payload, capture_output=True, text=True, cwd=repo, timeout=120)
        assert answered.returncode == 0, answered.stderr


def test_codex_hooks_go_where_codex_home_says(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    codex_home = tmp_path / "elsewhere" / "codex"
    monkeypatch.setenv("CODEX_HOME", str(codex_home))
    assert states(install("codex")) == {"codex": "installed"}
    assert json.loads((codex_home / "hooks.json").read_text()) == comet_only("codex", installed_comet())
    assert not (home / ".codex").exists()
    assert states(uninstall("codex")) == {"codex": "removed"}


def codex_status() -> tuple[str | None, str]:
    done = invoke("hooks", "status", "--agent", "codex", "--json")
    assert done.exit_code == 0, done.stderr
    [target] = done.json()["targets"]
    return target["trust"], invoke("hooks", "status", "--agent", "codex").stdout


def trust_codex_hooks(config: Path, hooks_json: Path, events: list[str], **extra: str) -> None:
    """What Codex's /hooks writes when the user trusts a hook: one table per handler."""
    tables = [
        f'[hooks.state."{hooks_json}:{event}:0:0"]\ntrusted_hash = "sha256:{"ab" * 32}"\n'
        + "".join(f"{key} = {value}\n" for key, value in extra.items())
        for event in events
    ]
    config.write_text('model = "gpt-5"\n\n' + "\n".join(tables))


def test_codex_status_says_whether_the_user_trusted_the_hooks(home: Path) -> None:
    install("codex")
    hooks_json, config = home / ".codex" / "hooks.json", home / ".codex" / "config.toml"
    trust, text = codex_status()
    assert trust == "untrusted" and "open /hooks in Codex and trust them" in text
    trust_codex_hooks(config, hooks_json, ["session_start", "user_prompt_submit"])
    assert codex_status()[0] == "partly-trusted"
    every = ["session_start", "user_prompt_submit", "pre_tool_use", "session_end"]
    trust_codex_hooks(config, hooks_json, every)
    trust, text = codex_status()
    assert trust == "trusted" and "Codex has your trust recorded" in text
    trust_codex_hooks(config, hooks_json, every, enabled="false")
    assert codex_status()[0] == "disabled"
    config.write_text("this is [not toml")
    assert codex_status()[0] == "untrusted"
    claude = invoke("hooks", "status", "--agent", "claude", "--json").json()["targets"][0]
    assert claude["trust"] is None


def test_installing_for_codex_names_the_minimum_version_and_the_trust_step(home: Path) -> None:
    done = invoke("hooks", "install", "--agent", "codex")
    assert done.exit_code == 0, done.stderr
    assert "Codex 0.146 or newer" in done.stdout and "/hooks" in done.stdout
