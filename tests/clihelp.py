"""Running comet from tests: in-process through click, or as the real installed command."""

from __future__ import annotations

import filecmp
import functools
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from comet_git.cli import cli


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


TREE = Path(__file__).resolve().parent.parent
# Where each part of the installed package comes from in the tree (pyproject.toml's package-dir).
PACKAGE_SOURCES = {
    "comet_git": "comet_git",
    "comet_git.hook_templates": "hooks",
    "comet_git.templates": "templates",
    "comet_git.skills": "skills",
}
# Where the interpreter finds each part, as comet_git.resources looks them up: the subpackages
# of a wheel, else (an editable install) the folders beside the package.
WHERE_ARE_THE_PARTS = """
import importlib.util, json, os, sys
import comet_git
package = os.path.dirname(os.path.abspath(comet_git.__file__))
parts = {"comet_git": package}
for name, folder in json.loads(sys.argv[1]).items():
    try:
        spec = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        spec = None
    found = spec and spec.submodule_search_locations and list(spec.submodule_search_locations)
    parts[name] = os.path.abspath(found[0]) if found else os.path.join(os.path.dirname(package), folder)
print(json.dumps(parts))
"""


def installed_comet() -> str:
    """The console script installed next to this interpreter (never one found through a shim),
    once checked to be built from the tree under test: else the session stops."""
    beside = Path(sys.executable).parent / "comet"
    if beside.exists():
        return _checked(str(beside))
    found = shutil.which("comet")
    assert found, "comet is not installed in this environment: pip install ."
    return _checked(found)


@functools.cache
def _checked(script: str) -> str:
    problem = stale_install(Path(script))
    if problem:
        pytest.exit(problem, returncode=1)
    return script


def stale_install(script: Path, tree: Path = TREE) -> str | None:
    """Why `script` does not run the code of `tree` (a venv built from another checkout, or
    before the last change of a non-editable install), or None when it does."""
    interpreter = script_interpreter(script)
    if interpreter is None:
        return f"{script} is not a Python console script (no #! line naming an interpreter)"
    done = subprocess.run(
        [interpreter, "-c", WHERE_ARE_THE_PARTS, json.dumps(PACKAGE_SOURCES)],
        cwd=script.parent,  # not the tree: its comet_git must not be found through the working directory
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode != 0:
        return f"{script} cannot import comet_git ({done.stderr.strip()[-300:]}): pip install -e '.[test]'"
    installed = {name: Path(folder) for name, folder in json.loads(done.stdout).items()}
    differing = differing_files(installed, tree)
    if not differing:
        return None
    shown = ", ".join(differing[:5]) + (f" and {len(differing) - 5} more" if len(differing) > 5 else "")
    return (
        f"the comet under test ({script}) runs comet_git from {installed['comet_git']}, which was not "
        f"built from the tree under test ({tree}): {shown} differ. Install this tree into the venv that runs "
        f"the tests: {sys.executable} -m pip install -e '{tree}[test]'"
    )


def wheel_layout(site: Path) -> Path:
    """What `pip install .` of this tree puts in site-packages: hooks/, templates/ and skills/
    become subpackages of comet_git."""
    for part, source in PACKAGE_SOURCES.items():
        target = site / Path(*part.split("."))
        shutil.copytree(
            TREE / source, target, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True
        )
    return site


def script_interpreter(script: Path) -> str | None:
    with script.open("rb") as handle:
        first = handle.readline().decode("utf-8", "replace").strip()
    if not first.startswith("#!") or not first[2:].strip():
        return None
    return first[2:].strip().split()[0]


def differing_files(installed: dict[str, Path], tree: Path) -> list[str]:
    """The tree's package files (sources, hooks, templates, skills) that the installed package
    (`installed`: each part's folder) lacks or holds with other content; none when each part is
    the tree's own folder (an editable install of this tree)."""
    differing = []
    for part, source in PACKAGE_SOURCES.items():
        if installed[part].resolve() == (tree / source).resolve():
            continue
        for path in sorted((tree / source).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts:
                continue
            relative = path.relative_to(tree / source)
            counterpart = installed[part] / relative
            if not counterpart.is_file() or not filecmp.cmp(path, counterpart, shallow=False):
                differing.append(f"{source}/{relative.as_posix()}")
    return differing


def invoke(*args: str | os.PathLike[str], cwd: Path | None = None, input: str | None = None) -> Result:
    """Run a command in-process (fast); the environment is the test's own."""
    runner = CliRunner()
    previous = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = runner.invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)
    finally:
        os.chdir(previous)
    return Result(result.exit_code, result.stdout, result.stderr)


def run_comet(
    *args: str | os.PathLike[str],
    cwd: Path | None = None,
    input: str | None = None,
    env: dict[str, str] | None = None,
) -> Result:
    """Run the real installed `comet` in a subprocess."""
    done = subprocess.run(
        [installed_comet(), *[str(a) for a in args]],
        cwd=cwd,
        input=input,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )
    return Result(done.returncode, done.stdout, done.stderr)
