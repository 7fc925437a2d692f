"""Small helpers to drive real git in tests."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def commit(
    repo: Path, name: str = "README.md", content: str | None = None, message: str | None = None
) -> str:
    target = repo / name
    target.parent.mkdir(parents=True, exist_ok=True)
    previous = target.read_text() if target.exists() else ""
    target.write_text(content if content is not None else previous + "line\n")
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", message or f"change {name}")
    return git(repo, "rev-parse", "HEAD")


def make_repo(path: Path, *, remote: str | None = None, commits: int = 1) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    for _ in range(commits):
        commit(path)
    if remote:
        git(path, "remote", "add", "origin", remote)
    return path
