"""Fuzzing every command's arguments through the installed `comet`: whatever the arguments,
the exit code is 0, 1 or 2, no Python traceback reaches the user, and a refusal (1 or 2)
leaves the store as it was.

The commands come from the click group itself, so a new command or option is fuzzed too.
Each example is a subprocess (the real console script, its fast paths included), so the
example count stays modest.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import click
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from comet_git.cli import cli
from tests.clihelp import installed_comet
from tests.gitutil import make_repo
from tests.test_bad_input import snapshot
from tests.test_packaging import leaf_commands

# Not fuzzed here: the servers and hook answers read stdin until the host closes it, the
# dashboard serves until it is stopped (`comet serve` is a group: only its token commands are
# leaves), and the demo builds its own repository (each has tests of its own for bad input).
SKIPPED = {("mcp",), ("agent-hook",), ("demo",), ("dashboard",)}
COMMANDS = [path for path in leaf_commands(cli) if path not in SKIPPED]

AWKWARD = [
    "",
    " ",
    "-",
    "--",
    "..",
    "/",
    "a" * 300,
    "a" * 300 + "/b.py",
    "comit",
    "pm-zzzzzzzz",
    "ap-0000000000000000",
    "../../etc/passwd",
    "从现在开始，提交前先运行测试",
    "From now on, always run the linters.",
    "{]",
    "-1",
    "1e309",
    "\t\n",
]
NOT_UTF8 = st.binary(min_size=1, max_size=12).map(os.fsdecode)
TEXT = st.one_of(
    st.sampled_from(AWKWARD),
    st.text(st.characters(blacklist_characters="\x00"), max_size=40),
    NOT_UTF8,
).filter(lambda value: "\x00" not in value)


def command_of(path: tuple[str, ...]) -> click.Command:
    command: click.Command = cli
    for part in path:
        assert isinstance(command, click.Group)
        command = command.commands[part]
    return command


def value_for(draw: Any, parameter: click.Parameter) -> str:
    kind = parameter.type
    if isinstance(kind, click.Choice) and draw(st.booleans()):
        return str(draw(st.sampled_from(list(kind.choices))))
    if isinstance(kind, (click.types.IntParamType, click.types.FloatParamType)) and draw(st.booleans()):
        return str(draw(st.integers(min_value=-3, max_value=3)))  # small: --timeout waits that long
    if isinstance(parameter, click.Argument) and draw(st.booleans()):
        return "."
    return str(draw(TEXT))


@st.composite
def invocations(draw: Any) -> list[str]:
    path = draw(st.sampled_from(COMMANDS))
    args = list(path)
    for parameter in command_of(path).params:
        if parameter.name == "help" or (not parameter.required and draw(st.booleans())):
            continue
        if isinstance(parameter, click.Option):
            args.append(parameter.opts[0])
            if not parameter.is_flag:
                args.append(value_for(draw, parameter))
        else:
            args.extend(value_for(draw, parameter) for _ in range(1 if parameter.nargs == 1 else 2))
    extra = draw(st.lists(TEXT, max_size=1))  # a stray argument, or an unknown option
    order = draw(st.permutations(args[len(path) :]))
    return [*path, *order, *extra]


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same examples on every run: a failure here is a real, repeatable one
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(args=invocations())
# The calls that answered with a traceback once (issue 11), always among the examples.
@example(args=["task", "--path", "a" * 300 + "/b.py", "--json"])
@example(args=["memory", "remember", "--text", os.fsdecode(b"caf\xe9")])
@example(args=["memory", "signal", "--text", os.fsdecode(b"\xff")])
@example(args=["memory", "explain", "--id", os.fsdecode(b"\xff"), "--task", "x"])
@example(args=["memory", "rollback", "--id", os.fsdecode(b"\xff")])
def test_no_command_answers_with_a_traceback(tmp_path: Path, comet_home: Path, args: list[str]) -> None:
    repo = tmp_path / "repo"
    if not repo.exists():
        make_repo(repo, remote="https://example.com/acme/app.git")
        comet = installed_comet()
        for seed in (
            ["memory", "remember", "--text", "Run the linters before pushing."],
            ["memory", "remember", "--scope", "global", "--text", "Answer in English."],
            ["memory", "list"],  # settled: the index and profile.md as every later read leaves them
        ):
            subprocess.run([comet, *seed], cwd=repo, check=True, capture_output=True)
    before = snapshot(comet_home)
    done = subprocess.run(
        [installed_comet(), *args], cwd=repo, stdin=subprocess.DEVNULL, capture_output=True, timeout=60
    )
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode in (0, 1, 2), (args, done.returncode, stderr)
    assert "Traceback" not in stderr, (args, stderr)
    if done.returncode in (1, 2):
        assert store_content(snapshot(comet_home)) == store_content(before), (args, stderr)


def store_content(files: dict[str, Any]) -> dict[str, Any]:
    """The store's content: not its diagnostics log (a refusal may say there why it refused) nor
    its lock files (taken before the refusal was known, empty, and no memory)."""
    return {
        name: content
        for name, content in files.items()
        if not name.startswith(("logs/", "locks/")) and not Path(name).name.endswith(".lock")
    }
