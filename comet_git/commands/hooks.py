"""comet hooks install | uninstall | status."""

from __future__ import annotations

from pathlib import Path

from comet_git.commands import Output
from comet_git.githooks.install import HooksReport, hooks_status, install_hooks, uninstall_hooks


def _output(report: HooksReport) -> Output:
    return Output(report.to_json(), report.render_text())


def install(path: Path, use_hooks_path: bool) -> Output:
    return _output(install_hooks(path, use_hooks_path=use_hooks_path))


def uninstall(path: Path, use_hooks_path: bool) -> Output:
    return _output(uninstall_hooks(path, use_hooks_path=use_hooks_path))


def status(path: Path, use_hooks_path: bool) -> Output:
    return _output(hooks_status(path, use_hooks_path=use_hooks_path))
