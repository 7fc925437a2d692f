"""`comet demo`: the whole loop, in a throwaway repository and store it creates.

Every step runs the real command (git, and `comet` as this interpreter's `-m comet_git`)
with COMET_HOME pointing at a temporary directory, and shows it as a shell line, quoted
with shlex, that can be pasted as it is: the transcript starts with the `export` and `cd`
that put a shell where the demo works, so with --keep it can be replayed there.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from comet_git.commands import Output
from comet_git.errors import CometError

PRINTF_LINES = "%s\\n"  # printf's format that writes each argument as a line

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Demo User",
    "GIT_AUTHOR_EMAIL": "demo@example.com",
    "GIT_COMMITTER_NAME": "Demo User",
    "GIT_COMMITTER_EMAIL": "demo@example.com",
}


class Tour:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.repo = root / "app"
        self.home = root / "comet-home"
        # Each call by itself: a warm process (comet_git/warm) would outlive the demo's store.
        self.env = {**os.environ, **GIT_IDENTITY, "COMET_HOME": str(self.home), "COMET_WARM": "0"}
        self.transcript: list[str] = []

    def say(self, text: str) -> None:
        self.transcript.append(f"\n# {text}")

    def shell(self, *words: str | Path) -> None:
        """Show a command the demo ran itself (no output of interest)."""
        self.transcript.append("$ " + shell_line(*words))

    def git(self, *args: str, show: bool = True) -> None:
        done = subprocess.run(["git", *args], cwd=self.repo, env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise CometError(f"the demo step `{shell_line('git', *args)}` failed: {done.stderr.strip()}")
        if show:
            self.transcript.append("$ " + shell_line("git", *args) + _shown(done.stdout))

    def comet(self, *args: str, show: bool = True) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "comet_git", *args],
            cwd=self.repo,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise CometError(f"the demo step `{shell_line('comet', *args)}` failed: {done.stderr.strip()}")
        if show:
            self.transcript.append("$ " + shell_line("comet", *args) + _shown(done.stdout))
        return done.stdout

    def remember(self, *args: str) -> str:
        return _first(r"created: (pm-\w+)", self.comet("memory", "remember", *args))

    def write(self, name: str, content: str) -> None:
        """Write a file of the repository, shown as the shell line that writes it."""
        (self.repo / name).write_text(content, encoding="utf-8")
        lines = content.rstrip("\n").split("\n")
        self.transcript.append(f"$ {shell_line('printf', PRINTF_LINES, *lines)} > {shlex.quote(name)}")


def _first(pattern: str, output: str) -> str:
    found = re.search(pattern, output)
    if found is None:
        raise CometError(
            f"the demo did not find {pattern!r} in the output of its last step: {output.strip()}"
        )
    return found.group(1)


def shell_line(*words: str | Path) -> str:
    """`words` as one line a POSIX shell runs as it is: no backtick, $ or quote is interpreted."""
    return " ".join(shlex.quote(str(word)) for word in words)


def _shown(output: str) -> str:
    return f"\n{output.rstrip()}" if output.strip() else ""


def run_demo(*, keep: bool = False) -> Output:
    if shutil.which("git") is None:
        raise CometError("the demo needs git on PATH", hint="install git, then run `comet demo` again")
    root = Path(tempfile.mkdtemp(prefix="comet-demo-"))
    try:
        tour = Tour(root)
        _run(tour)
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    ending = (
        f"\nThe demo repository and store are kept in {root}."
        if keep
        else "\nThe demo's temporary repository and store are deleted; nothing else was touched."
    )
    return Output(None, "\n".join(tour.transcript) + "\n" + ending + "\n")


def _run(tour: Tour) -> None:
    tour.say(
        "The demo works in a throwaway repository and store it creates. Every line that starts"
        " with $ is the command it ran, as it can be pasted into a shell."
    )
    tour.shell("export", f"COMET_HOME={tour.home}")
    tour.repo.mkdir()
    tour.shell("mkdir", tour.repo)
    tour.shell("cd", tour.repo)
    tour.git("init", "-q")
    tour.write("README.md", "# app\n")
    tour.git("add", "README.md")
    tour.git("commit", "-q", "-m", "Initial commit")
    tour.git("remote", "add", "origin", "https://example.com/acme/app.git")

    tour.say(
        "A git repository gets a stable project identity, a private memory store, and git hooks"
        " (in .git, never in your files) that journal what happens in it."
    )
    tour.comet("init")

    tour.say("Remember long-term wishes: one about you (global), two about this project.")
    tour.remember("--scope", "global", "--type", "core-profile", "--text", "Reply to me in English, briefly.")
    lint = tour.remember("--text", "Run `make lint` before every commit.", "--operation", "commit")
    fixtures = tour.remember(
        "--text",
        "API tests use the recorded HTTP fixtures, never the live service.",
        "--path",
        "tests/api/**",
    )

    tour.say("What the user says to an agent is a signal: a long-term one becomes memory at once.")
    tour.comet("memory", "signal", "--text", "From now on, release notes list every breaking change first.")

    tour.say("A commit goes through the installed hooks into the journal.")
    tour.write("release.sh", "#!/bin/sh\nmake lint && make dist\n")
    tour.git("add", "release.sh")
    tour.git("commit", "-q", "-m", "Add the release script")
    tour.comet("journal", "flush", "--timeout", "30")
    tour.comet("journal", "list", "--type", "repo.commit")

    tour.say("An agent starts a task: comet task delivers the memory that applies to it.")
    answer = tour.comet("task", "--task", "Commit the release script change", "--operation", "commit")
    application = _first(rf"\[{lint} · [^]]*application (ap-\w+)\]", answer)

    tour.say("The agent reports how the delivered rule worked out: an outcome.")
    tour.comet("task", "--application", application, "--outcome", "used-successfully")

    tour.say("The task ends with a lesson; learn turns the journal into memory (the hooks run it too).")
    tour.comet(
        "task",
        "--complete",
        "--summary",
        "Released 1.2.0 with the release script",
        "--outcome",
        "success",
        "--lesson",
        "Tag the release only after make dist has passed.",
    )
    tour.comet("learn")
    tour.comet("memory", "list")

    tour.say("Correct a record: same id, new version, the old one kept in history.")
    tour.comet(
        "memory",
        "correct",
        "--id",
        lint,
        "--text",
        "Run `make lint` and `make typecheck` before every commit.",
    )
    tour.comet("memory", "show", "--id", lint, "--history")

    tour.say("Forget a record, see it marked with --all, then roll the forget back.")
    tour.comet("memory", "forget", "--id", fixtures)
    tour.comet("memory", "list", "--all")
    tour.comet("memory", "rollback", "--id", fixtures)

    tour.say("Edit memory by hand: change a section of profile.md; the next command takes it in.")
    profile = next((tour.home / "projects").glob("*/profile.md"))
    content = profile.read_text(encoding="utf-8")
    profile.write_text(content.replace("never the live service.", "never the live service or staging."))
    tour.comet("memory", "show", "--id", fixtures)

    tour.say("Forget for good: nothing of the text is left anywhere in the store.")
    tour.comet("memory", "forget", "--id", fixtures, "--permanent")
    leftovers = [
        str(path.relative_to(tour.home))
        for path in tour.home.rglob("*")
        if path.is_file() and b"recorded HTTP fixtures" in path.read_bytes()
    ]
    tour.transcript.append(f"files under the store that still contain the text: {leftovers or 'none'}")

    tour.say("Where everything lives, and what the store holds now.")
    tour.comet("memory", "status")
