"""comet hooks install | uninstall | status."""

from __future__ import annotations

from pathlib import Path

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
