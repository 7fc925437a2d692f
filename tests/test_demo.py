"""`comet demo` runs the whole loop, and every command it prints can be pasted into a shell."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comet_git.demo import shell_line
from tests.clihelp import installed_comet, run_comet
from tests.gitutil import make_repo


def demo(tmp_path: Path) -> tuple[list[str], Path, str]:
    """Run `comet demo --keep` (its temporary root under tmp_path): the $ lines, the root, the output."""
    temp = tmp_path / "temp"
    temp.mkdir()
    result = run_comet("demo", "--keep", cwd=tmp_path, env={"TMPDIR": str(temp)})
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr
    [root] = temp.iterdir()
    lines = [line[2:] for line in result.stdout.splitlines() if line.startswith("$ ")]
    return lines, root, result.stdout


def trap_path(tmp_path: Path) -> tuple[str, Path]:
    """A PATH whose `make` only notes that it ran (a backtick in a pasted line would run it),
    with the comet under test first."""
    bin_dir = tmp_path / "trap-bin"
    bin_dir.mkdir()
    ran = tmp_path / "make-ran"
    make = bin_dir / "make"
    make.write_text(f'#!/bin/sh\necho "$@" >> "{ran}"\n')
    make.chmod(0o755)
    return f"{Path(installed_comet()).parent}:{bin_dir}:/usr/bin:/bin", ran


def test_the_demo_runs_the_whole_loop(tmp_path: Path, comet_home: Path) -> None:
    lines, root, output = demo(tmp_path)
    home = root / "comet-home"
    assert "comet init" in lines and "comet learn" in lines
    assert "git commit -q -m 'Add the release script'" in lines
    assert re.search(r"repo\.commit +ev-\w+ +\w+ Add the release script", output)  # journaled by the hooks
    assert re.search(
        r"## Run `make lint` before every commit\.  \[pm-\w+ · [^]]*application ap-\w+\]", output
    )
    assert re.search(r"recorded used-successfully for pm-\w+", output)
    assert "episode: created" in output
    hooks = root / "app" / ".git" / "hooks"
    assert all((hooks / name).exists() for name in ("post-commit", "post-checkout", "post-merge"))
    events = [
        json.loads(line).get("type")
        for journal in home.rglob("journal/*.jsonl")
        for line in journal.read_text().splitlines()
    ]
    for kind in ("user.signal", "repo.commit", "context.applied", "context.outcome", "task.completed"):
        assert kind in events, kind
    assert not comet_home.exists()  # the demo used its own store, never the user's
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=root / "app", capture_output=True, text=True
    )
    assert status.stdout == ""  # nothing of comet's in the repository's files


def test_the_printed_lines_run_as_pasted(tmp_path: Path, comet_home: Path) -> None:
    """Every $ line is what a shell runs, nothing in it expanded; and pasted into a repository of
    one's own, the remember and signal lines keep their backticks.  (One demo run for both: it
    costs seconds.)"""
    lines, root, _output = demo(tmp_path)
    path, ran = trap_path(tmp_path)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    for line in lines:
        command, redirect, target = line.partition(" > ")
        # Let bash parse the line as a paste would; a function in place of the command prints the words.
        parsed = subprocess.run(
            ["bash", "-c", "words() { printf '%s\\0' \"$@\"; }; words " + command],
            cwd=scratch,
            env={"PATH": path},
            capture_output=True,
            text=True,
        )
        assert parsed.returncode == 0, (line, parsed.stderr)
        words = parsed.stdout.split("\0")[:-1]
        assert shell_line(*words) == command, line  # quoting round-trips: nothing was expanded
        assert words == shlex.split(command)
        if redirect:  # the file lines write what the demo wrote
            subprocess.run(["bash", "-c", line], cwd=scratch, env={"PATH": path}, check=True)
            name = shlex.split(target)[0]
            assert (scratch / name).read_bytes() == (root / "app" / name).read_bytes()

    pasted = [line for line in lines if line.startswith(("comet memory remember", "comet memory signal"))]
    assert any("`make lint`" in line for line in pasted)
    repo = make_repo(tmp_path / "mine")
    for line in pasted:
        done = subprocess.run(
            ["bash", "-c", line],
            cwd=repo,
            env={"PATH": path, "COMET_HOME": str(comet_home), "HOME": str(tmp_path / "no-home")},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, (line, done.stderr)
    listed = run_comet("memory", "list", "--json", cwd=repo).json()["records"]
    titles = {record["title"] for record in listed}
    assert "Run `make lint` before every commit." in titles
    assert not ran.exists()


WORD = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=12)


@settings(max_examples=60, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=6))
def test_shell_line_quotes_any_words_so_that_bash_gives_them_back(words: list[str]) -> None:
    parsed = subprocess.run(
        ["bash", "-c", "words() { printf '%s\\0' \"$@\"; }; words " + shell_line(*words)],
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
    )
    assert parsed.returncode == 0
    assert parsed.stdout.decode("utf-8").split("\0")[:-1] == words


@pytest.mark.parametrize("text", ["Run `make lint` first", "cost $HOME and $(id)", 'it\'s "quoted"', "a\nb"])
def test_shell_line_leaves_nothing_to_expand(text: str) -> None:
    assert shlex.split(shell_line("comet", "--text", text)) == ["comet", "--text", text]
