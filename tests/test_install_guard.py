"""The process tests run the `comet` built from the tree under test, never a stale one: a venv
built from another checkout, or a non-editable install older than the tree, stops the session."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.clihelp import PACKAGE_SOURCES, TREE, _checked, installed_comet, stale_install, wheel_layout

IGNORED = shutil.ignore_patterns("__pycache__")


def console_script(tmp_path: Path, site: Path) -> Path:
    """A `comet` console script whose interpreter finds comet_git in `site` first."""
    python = tmp_path / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{site}" exec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    script = python.with_name("comet")
    script.write_text(f"#!{python}\nfrom comet_git.entry import main\nmain()\n")
    script.chmod(0o755)
    return script


def other_checkout(root: Path) -> Path:
    """A second checkout of the same project, installed editable (the folders beside the package)."""
    for source in PACKAGE_SOURCES.values():
        shutil.copytree(TREE / source, root / source, ignore=IGNORED)
    return root


def test_the_comet_under_test_is_built_from_this_tree() -> None:
    assert stale_install(Path(installed_comet())) is None


def test_a_non_editable_install_of_this_tree_passes(tmp_path: Path) -> None:
    script = console_script(tmp_path, wheel_layout(tmp_path / "site"))
    assert stale_install(script) is None


def test_an_install_older_than_the_tree_is_refused(tmp_path: Path) -> None:
    site = wheel_layout(tmp_path / "site")
    redact = site / "comet_git" / "journal" / "redact.py"
    redact.write_text(redact.read_text() + "\n# an older version\n")
    (site / "comet_git" / "hook_templates" / "git" / "shim.sh").unlink()
    problem = stale_install(console_script(tmp_path, site))
    assert problem is not None
    assert "comet_git/journal/redact.py" in problem and "hooks/git/shim.sh" in problem
    assert str(site / "comet_git") in problem and "pip install -e" in problem


def test_a_venv_built_from_another_checkout_is_refused_and_stops_the_session(tmp_path: Path) -> None:
    other = other_checkout(tmp_path / "other")
    skill = next((other / "skills").rglob("*.md"))
    skill.write_text("an older skill\n")
    script = console_script(tmp_path, other)
    problem = stale_install(script)
    assert problem is not None and f"skills/{skill.relative_to(other / 'skills').as_posix()}" in problem
    with pytest.raises(pytest.exit.Exception) as stopped:
        _checked(str(script))
    assert "was not built from the tree under test" in str(stopped.value)


def test_a_script_without_an_interpreter_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "comet"
    script.write_bytes(b"\x7fELF not a script")
    assert "not a Python console script" in str(stale_install(script))
