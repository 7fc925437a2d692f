"""The project's own promises: documented commands, shipped data, clean lint and types."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from comet_git.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def leaf_commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found.extend(leaf_commands(command, (*prefix, name)))
        else:
            found.append((*prefix, name))
    return found


@pytest.mark.parametrize("path", leaf_commands(cli), ids=" ".join)
def test_every_command_is_in_the_readme_and_has_an_example(path: tuple[str, ...]) -> None:
    readme = (ROOT / "README.md").read_text()
    *groups, name = path
    pattern = (
        r"comet " + "".join(re.escape(g) + " " for g in groups) + r"(?:[a-z-]+\|)*" + re.escape(name) + r"\b"
    )
    assert re.search(pattern, readme), f"`comet {' '.join(path)}` is not documented in README.md"
    command: click.Command = cli
    for part in path:
        assert isinstance(command, click.Group)
        command = command.commands[part]
    assert "Example: comet " in (command.help or ""), f"`comet {' '.join(path)}` has no example in its help"


def test_quickstart_has_exactly_two_commands_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text()
    quickstart = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", quickstart, re.S)
    assert len(blocks) == 2 and all(block.count("\n") == 1 for block in blocks)
    assert "comet demo" in blocks[0]
    assert blocks[1].strip() in (ROOT / ".ci" / "run").read_text()


def test_ruff_is_clean() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "comet_git", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_fast_version_prints_what_click_prints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`comet --version` is answered without importing click, exactly as click would."""
    from click.testing import CliRunner

    from comet_git import entry

    monkeypatch.setattr(sys, "argv", ["comet", "--version"])
    entry.main()
    clicked = CliRunner().invoke(cli, ["--version"])
    assert clicked.exit_code == 0
    assert capsys.readouterr().out == clicked.output


def test_every_subpackage_ships_in_the_wheel() -> None:
    # pyproject lists packages by hand (hooks/, skills/ and templates/ are mapped into the
    # package): a new folder of modules must be listed too, or the wheel leaves it out.
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(path.parent.relative_to(ROOT).parts) for path in (ROOT / "comet_git").rglob("__init__.py")
    }
    assert on_disk <= listed, f"add to [tool.setuptools] packages: {sorted(on_disk - listed)}"


def test_the_wheel_holds_the_templates_and_hooks(tmp_path: Path) -> None:
    """Built from the files git tracks (as CI's fresh clone would), the wheel ships the
    package data the installed tool reads at run time."""
    import zipfile

    source = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(source)], check=True)
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    build += ["-w", str(tmp_path)]
    done = subprocess.run([*build, "."], cwd=source, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = tmp_path.glob("comet_git-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "comet_git/templates/profile-preamble.md" in names
    assert "comet_git/hook_templates/git/shim.sh" in names
    assert "comet_git/githooks/worker.py" in names
    for config in ("claude/settings.json", "codex/hooks.json", "cursor/hooks.json", "gemini/settings.json"):
        assert f"comet_git/hook_templates/{config}" in names
    assert "comet_git/skills/comet-memory/SKILL.md" in names


def test_the_fast_task_entry_knows_every_option_it_takes() -> None:
    """`comet task` is parsed without click when its arguments are plain; every option it
    does not parse itself must make it hand over to click (which then parses it fully)."""
    from comet_git.commands.fast import parse_fast_task
    from comet_git.commands.request_options import TASK_OPTIONS

    fast_options = {option.flag for option in TASK_OPTIONS}

    command = cli.commands["task"]
    value_options = {name for param in command.params if isinstance(param, click.Option) and not param.is_flag
                     for name in param.opts}  # fmt: skip
    for name in value_options - fast_options:
        assert parse_fast_task(["--task", "x", name, "v"]) is None, name
    assert fast_options <= value_options
    for flag in ("--complete", "--help", "-h", "--unknown"):
        assert parse_fast_task(["--task", "x", flag]) is None
    assert parse_fast_task(["--path", "src"]) == (
        ".",
        {"task": "", "budget": 6000, "max_entries": 12, "request_path": "src"},
        False,
    )  # no --task: session start
    assert parse_fast_task(["--task", "x", "--context-budget", "abc"]) is None
    parsed = parse_fast_task(["repo", "--task=fix it", "--context-budget", "10", "--json"])
    assert parsed is not None
    path, options, as_json = parsed
    assert (str(path), options["task"], options["budget"], as_json) == ("repo", "fix it", 10, True)


def test_the_fast_list_entry_takes_only_a_path_and_json() -> None:
    from comet_git.commands.fast import parse_fast_list

    assert parse_fast_list([]) == (".", False)
    assert parse_fast_list(["repo", "--json"]) == ("repo", True)
    for argv in (["--all"], ["--scope", "global"], ["a", "b"], ["--json", "--json"], ["-h"], ["--query=x"]):
        assert parse_fast_list(argv) is None, argv
