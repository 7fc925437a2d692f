"""`comet demo`: a self-contained tour in a temporary repository and store.

Every step runs the real `comet` command (this interpreter, `-m comet_git`)
with COMET_HOME pointing at a temporary directory, and shows what it printed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from comet_git.commands import Output
from comet_git.errors import CometError

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
        self.env = {**os.environ, **GIT_IDENTITY, "COMET_HOME": str(self.home)}
        self.transcript: list[str] = []

    def say(self, text: str) -> None:
        self.transcript.append(f"\n# {text}")

    def git(self, *args: str) -> None:
        subprocess.run(["git", *args], cwd=self.repo, env=self.env, check=True, capture_output=True)

    def comet(self, *args: str, show: bool = True) -> str:
        shown = " ".join(_quote(a) for a in args)
        done = subprocess.run(
            [sys.executable, "-m", "comet_git", *args],
            cwd=self.repo,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise CometError(f"the demo step `comet {shown}` failed: {done.stderr.strip()}")
        if show:
            self.transcript.append(f"$ comet {shown}\n{done.stdout.rstrip()}")
        return done.stdout

    def remember(self, *args: str) -> str:
        output = self.comet("memory", "remember", *args, "--json", show=False)
        record = json.loads(output)["record"]
        shown = " ".join(_quote(a) for a in args)
        self.transcript.append(
            f"$ comet memory remember {shown}\nremembered {record['id']}: {record['title']}"
        )
        return str(record["id"])


def _quote(arg: str) -> str:
    return arg if re.fullmatch(r"[\w./:=@*-]+", arg) else json.dumps(arg, ensure_ascii=False)


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
    tour.repo.mkdir()
    tour.git("init", "-q")
    (tour.repo / "README.md").write_text("# app\n")
    tour.git("add", "README.md")
    tour.git("commit", "-q", "-m", "Initial commit")
    tour.git("remote", "add", "origin", "https://example.com/acme/app.git")

    tour.say("A git repository gets a stable project identity and a private memory store.")
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
