"""Running comet from tests: in-process through click, or as the real installed command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from comet_git.cli import cli


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


def installed_comet() -> str:
    """The console script installed next to this interpreter (never one found through a shim)."""
    beside = Path(sys.executable).parent / "comet"
    if beside.exists():
        return str(beside)
    found = shutil.which("comet")
    assert found, "comet is not installed in this environment: pip install ."
    return found


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
