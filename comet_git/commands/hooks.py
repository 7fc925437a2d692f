"""comet hooks install | uninstall | status: git hooks, or with --agent the coding agents' hook settings."""

from __future__ import annotations

from pathlib import Path

from comet_git.agents.hooks import MIN_CODEX_VERSION
from comet_git.agents.settings import (
    HOSTS,
    SCHEMA,
    AgentTarget,
    agent_hooks_status,
    install_agent_hooks,
    installed_comet,
    uninstall_agent_hooks,
)
from comet_git.commands import Output
from comet_git.githooks.install import HooksReport, hooks_status, install_hooks, uninstall_hooks
from comet_git.workspace import open_workspace


def _output(report: HooksReport) -> Output:
    return Output(report.to_json(), report.render_text())


def install(path: Path, use_hooks_path: bool) -> Output:
    # The worker finds the project by the key in git config: settle it (and the store) first.
    ws = open_workspace(path)
    if ws.project_key is not None:
        ws.home.project_store(ws.project_key).create()
    return _output(install_hooks(path, use_hooks_path=use_hooks_path))


def uninstall(path: Path, use_hooks_path: bool) -> Output:
    return _output(uninstall_hooks(path, use_hooks_path=use_hooks_path))


def status(path: Path, use_hooks_path: bool) -> Output:
    return _output(hooks_status(path, use_hooks_path=use_hooks_path))


# -- the coding agents' hook settings (--agent) ----------------------------------------

AGENT_NOTES = {
    "installed": "added comet's hooks ({events}) to {path}",
    "updated": "updated comet's hooks ({events}) in {path}",
    "unchanged": "comet's hooks are already in {path}",
    "restored": "put {path} back as it was before the install",
    "removed": "removed {path}: comet had created it",
    "entries-removed": "removed comet's hooks ({events}) from {path}; your later changes are kept",
    "not-installed": "no comet hooks in {path}",
}
STATUS_NOTES = {
    "installed": "comet's hooks ({events}) are in {path}",
    "outdated": "comet's hooks in {path} are out of date: comet hooks install --agent {host} updates them",
    "not-installed": "no comet hooks in {path}",
    "invalid": "{problem}",
}
# What the host itself asks of the user before the new hooks run.
HOST_NOTES = {
    "codex": f"Codex {MIN_CODEX_VERSION} or newer runs new hooks only once you trust them:"
    " open /hooks in Codex and trust comet's; `comet hooks status --agent codex` says whether you have",
}
# Codex skips hooks the user has not trusted without a word: status says so, and how.
TRUST_NOTES = {
    "trusted": "Codex has your trust recorded for comet's hooks",
    "partly-trusted": "Codex runs only some of comet's hooks: open /hooks in Codex and trust the rest",
    "untrusted": "Codex skips comet's hooks until you trust them: open /hooks in Codex and trust them",
    "disabled": "some of comet's hooks are turned off in Codex: turn them on again in /hooks",
}


def _hosts(host: str) -> tuple[str, ...]:
    return HOSTS if host == "all" else (host,)


def _agent_output(action: str, targets: list[AgentTarget], comet: Path | None) -> Output:
    data = {
        "schema": SCHEMA,
        "action": action,
        "comet": str(comet) if comet is not None else None,
        "targets": [target.to_json() for target in targets],
    }
    lines: list[str] = []
    for target in targets:
        note = (STATUS_NOTES if action == "status" else AGENT_NOTES)[target.state].format(
            events=", ".join(target.events), path=target.path, host=target.host, problem=target.problem
        )
        lines.append(f"{target.host}: {note}")
        lines.extend(f"  {extra}" for extra in _agent_details(action, target))
    return Output(data, "\n".join(lines) + "\n")


def _agent_details(action: str, target: AgentTarget) -> list[str]:
    details = []
    if action == "install" and target.backup is not None:
        details.append(f"the file as it was before: {target.backup}")
    if target.backup is not None and target.state == "entries-removed":
        details.append(f"the file from before the install is still at {target.backup}")
    if action == "status" and target.trust is not None:
        details.append(TRUST_NOTES[target.trust])
    if action == "install" and target.state in ("installed", "updated"):
        if target.host in HOST_NOTES:
            details.append(HOST_NOTES[target.host])
        details.append(f"undo: comet hooks uninstall --agent {target.host}")
    return details


def agent_install(host: str) -> Output:
    comet = installed_comet()
    return _agent_output("install", install_agent_hooks(_hosts(host), Path.home(), comet), comet)


def agent_uninstall(host: str) -> Output:
    return _agent_output("uninstall", uninstall_agent_hooks(_hosts(host), Path.home()), None)


def agent_status(host: str) -> Output:
    comet = installed_comet()
    return _agent_output("status", agent_hooks_status(_hosts(host), Path.home(), comet), comet)
