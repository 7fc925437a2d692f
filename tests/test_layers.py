"""The layers of pyproject.toml's [tool.importlinter] hold: a module imports only from the layers
below its own (import-linter, run as its console script on this tree)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    # import-linter reads the package from the current directory first.
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", str(REPO / "pyproject.toml")],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_module_imports_only_downwards() -> None:
    done = lint(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    shutil.copytree(REPO / "comet_git", tmp_path / "comet_git", ignore=shutil.ignore_patterns("__pycache__"))
    store = tmp_path / "comet_git" / "store.py"
    store.write_text(
        store.read_text() + "\n\ndef _upward() -> None:\n    import comet_git.director.service\n"
    )
    done = lint(tmp_path)
    assert done.returncode == 1
    assert "comet_git.store -> comet_git.director.service" in done.stdout
