"""comet config get | set."""

from __future__ import annotations

from comet_git import config
from comet_git.commands import Output
from comet_git.errors import NotARepositoryError
from comet_git.workspace import Workspace

CONFIG_SCHEMA = "comet.config/v1"


def get(ws: Workspace, key: str) -> Output:
    setting = ws.setting(config.check_key(key), strict=True)
    data = {"schema": CONFIG_SCHEMA, **setting.to_json()}
    origin = setting.source + (f", {setting.file}" if setting.file else "")
    return Output(data, f"{key} = {config.shown(setting.value)}  ({origin})\n")


def set_value(ws: Workspace, key: str, raw_value: str, *, global_scope: bool) -> Output:
    config.check_key(key)
    value = config.parse_value(key, raw_value)
    if global_scope:
        path = ws.home.ensure().user_config_path
    elif ws.project_key is None:  # never a silent switch for every project
        raise NotARepositoryError(
            f"not inside a git repository: there is no project to set {key} for",
            hint=f"run it inside the repository (or pass its PATH), or `comet config set --global {key}"
            f" {raw_value}` to set it for every project",
        )
    else:
        path = ws.home.project_store(ws.project_key).create().config_path
    config.write_setting(path, key, value)
    effective = ws.setting(key)
    data = {"schema": CONFIG_SCHEMA, **effective.to_json(), "written": str(path)}
    note = (
        ""
        if effective.value == value
        else f" (but {effective.source} sets it to {config.shown(effective.value)})"
    )
    return Output(data, f"{key} = {config.shown(value)} written to {path}{note}\n")
