"""Files that ship with comet-git: templates/, hooks/ and skills/.

They sit at the top of the repository and are installed inside the wheel as
the subpackages comet_git.templates and comet_git.hook_templates.  Running
from a checkout (tests, `python -m comet_git` in the source tree) the
subpackages do not exist, so we read the top-level folders instead.
"""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

FOLDERS = {"templates": "templates", "hook_templates": "hooks", "skills": "skills"}


def data_dir(kind: str) -> Traversable:
    try:
        return resources.files(f"comet_git.{kind}")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / FOLDERS[kind]


def read_text(kind: str, name: str) -> str:
    return data_dir(kind).joinpath(name).read_text(encoding="utf-8")
