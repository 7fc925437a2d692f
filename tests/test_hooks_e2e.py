"""End to end: the real `comet` command installs the hooks, real `git` runs them, the real worker journals.

Every git command here is a real subprocess.  `COMET_HOOK_SYNC=1` makes the shim run the worker in the
foreground where a test needs determinism; the detached mode is always followed by `comet journal flush`,
which waits for the tickets the shims left, so no test sleeps.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from comet_git.githooks.install import default_worker, install_hooks
from comet_git.journal.events import Event, stable_id
from comet_git.journal.log import FAILED, Journal
from comet_git.records.model import utc_now
from comet_git.store import Home
from tests.clihelp import run_comet
from tests.gitutil import git

SYNC = {"COMET_HOOK_SYNC": "1"}
HEAVY_MODULES = ("click", "yaml", "ruamel", "pygit2", "pathspec", "platformdirs")
OTHER_EMAIL = "someone@else.example"
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"  # ghp_ + 36 alphanumerics


# --- helpers --------------------------------------------------------------------------------------


def run_git(
    cwd: Path, *args: str, env: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["git", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if check:
        assert done.returncode == 0, f"git {' '.join(args)} failed: {done.stderr}"
    return done


def commit_file(
    repo: Path,
    name: str,
    content: str | bytes,
    message: str,
    *,
    env: dict[str, str] | None = None,
    quiet: bool = True,
) -> subprocess.CompletedProcess[str]:
    target = repo / name
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        target.write_bytes(content)
    else:
        target.write_text(content)
    run_git(repo, "add", name)
    return run_git(repo, "commit", *(["-q"] if quiet else []), "-m", message, env=env)


def comet_ok(*args: str | os.PathLike[str], cwd: Path, env: dict[str, str] | None = None) -> Any:
    """Run the real `comet ... --json`, require exit 0, return the parsed JSON."""
    result = run_comet(*args, "--json", cwd=cwd, env=env)
    assert result.exit_code == 0, f"comet {args} exited {result.exit_code}: {result.stderr}"
    return result.json()


def init_project(repo: Path, *options: str) -> str:
    data = comet_ok("init", *options, cwd=repo)
    key = data["project"]["key"]
    assert git(repo, "config", "--get", "comet.projectKey") == key
    return str(key)


def flush(repo: Path) -> None:
    data = comet_ok("journal", "flush", "--timeout", "60", cwd=repo)
    assert data["waitingWorkers"] == 0, data


def listing(repo: Path, event_type: str | None = None, env: dict[str, str] | None = None) -> dict[str, Any]:
    args = ["journal", "list"] + (["--type", event_type] if event_type else [])
    data: dict[str, Any] = comet_ok(*args, cwd=repo, env=env)
    return data


def events_of(repo: Path, event_type: str, env: dict[str, str] | None = None) -> list[dict[str, Any]]:
    return list(listing(repo, event_type, env)["events"])


def project_journal(comet_home: Path, key: str) -> Path:
    return comet_home / "projects" / key / "journal"


def month_files(comet_home: Path, key: str) -> list[Path]:
    return sorted(project_journal(comet_home, key).glob("????-??.jsonl"))


def journal_text(comet_home: Path, key: str) -> str:
    return "".join(path.read_text(encoding="utf-8") for path in month_files(comet_home, key))


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD")


def pending_tickets(comet_home: Path) -> list[str]:
    pending = comet_home / "run" / "pending"
    return sorted(p.name for p in pending.iterdir()) if pending.is_dir() else []


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {
        path.name: (path.read_bytes(), stat.S_IMODE(path.lstat().st_mode))
        for path in sorted(directory.iterdir())
    }


def import_history(repo: Path, *options: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = comet_ok("journal", "import-history", *options, cwd=repo, env=env)
    return data


# Twin repositories: the same commits at the same pinned dates give the same ids and the same output,
# so a hooked repository's `git commit` output can be compared byte for byte with a hook-less one's.


def pinned(moment: int) -> dict[str, str]:
    date = f"2026-01-0{moment} 12:00:00 +0000"
    return {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}


def make_twins(tmp_path: Path) -> tuple[Path, Path]:
    twins = []
    for name in ("hooked", "plain"):
        path = tmp_path / name / "repo"
        path.mkdir(parents=True)
        run_git(path, "init", "-q")
        commit_file(path, "README.md", "hello\n", "docs: start", env=pinned(1))
        twins.append(path)
    return twins[0], twins[1]


def twin_commit(
    repo: Path, moment: int, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A non-quiet commit (so git has something to print), exactly the same in both twins."""
    return commit_file(
        repo,
        "notes.txt",
        f"note {moment}\n",
        f"feat: note {moment}",
        env={**pinned(moment), **(env or {})},
        quiet=False,
    )


def assert_same_commit(
    hooked: subprocess.CompletedProcess[str], plain: subprocess.CompletedProcess[str]
) -> None:
    assert (hooked.returncode, hooked.stdout, hooked.stderr) == (plain.returncode, plain.stdout, plain.stderr)
    assert hooked.returncode == 0
    assert hooked.stdout.strip(), "the comparison needs git to print something"


# --- 1. concurrency across worktrees --------------------------------------------------------------


PER_WORKTREE = 20  # 40 commits race for the one journal: enough to show a lost or doubled event


def commit_concurrently(repo: Path, linked: Path, env: dict[str, str] | None) -> None:
    """Two threads, each making PER_WORKTREE commits in its own worktree, started together."""
    start = threading.Barrier(2)
    failures: list[str] = []

    def commit_many(worktree: Path, name: str) -> None:
        try:
            start.wait(timeout=30)
            for number in range(PER_WORKTREE):
                (worktree / f"{name}.txt").write_text(f"{name} {number}\n")
                for args in (["add", f"{name}.txt"], ["commit", "-q", "-m", f"feat: {name} {number}"]):
                    done = run_git(worktree, *args, env=env, check=False)
                    if done.returncode != 0:
                        failures.append(f"{name}: git {args[0]}: {done.stderr}")
                        return
        except BaseException as error:  # reported by the main thread
            failures.append(f"{name}: {error!r}")

    threads = [
        threading.Thread(target=commit_many, args=(repo, "main")),
        threading.Thread(target=commit_many, args=(linked, "linked")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures
    assert not any(thread.is_alive() for thread in threads)


def assert_one_event_per_commit_in_one_journal(repo: Path, linked: Path, comet_home: Path, key: str) -> None:
    assert pending_tickets(comet_home) == []
    data = listing(linked, "repo.commit")
    events = data["events"]
    assert data["problems"] == []
    made = set(git(repo, "rev-list", "main", "side", "--not", f"main~{PER_WORKTREE}").split())
    assert len(made) == 2 * PER_WORKTREE
    assert {event["context"]["commit"] for event in events} == made
    assert len(events) == 2 * PER_WORKTREE
    assert len({event["eventId"] for event in events}) == 2 * PER_WORKTREE
    assert {event["projectKey"] for event in events} == {key}
    branches = [event["context"]["branch"] for event in events]
    assert branches.count("main") == branches.count("side") == PER_WORKTREE
    assert [path.name for path in (comet_home / "projects").iterdir()] == [key]
    # Every line of the project's journal is a whole event: nothing interleaved or lost.
    lines = [line for line in journal_text(comet_home, key).splitlines() if '"repo.commit"' in line]
    assert len(lines) == 2 * PER_WORKTREE


def test_concurrent_detached_commits_from_two_worktrees_land_once_each_in_one_project_journal(
    repo: Path, tmp_path: Path, comet_home: Path
) -> None:
    key = init_project(repo)
    linked = tmp_path / "linked"
    run_git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    commit_concurrently(repo, linked, env=None)  # detached workers
    flush(repo)
    assert_one_event_per_commit_in_one_journal(repo, linked, comet_home, key)


def test_concurrent_foreground_workers_from_two_worktrees_share_one_journal_safely(
    repo: Path, tmp_path: Path, comet_home: Path
) -> None:
    """The same load with the worker in the foreground: the two worktrees' workers still race for
    the one journal (each commit's worker finishes before that worktree's next commit)."""
    key = init_project(repo)
    linked = tmp_path / "linked"
    run_git(repo, "worktree", "add", "-q", "-b", "side", str(linked))
    commit_concurrently(repo, linked, env=SYNC)
    assert_one_event_per_commit_in_one_journal(repo, linked, comet_home, key)


def slow_start(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose Python processes (the real worker, too) wait at start-up until the
    returned path exists: a worker that starts late, deterministically."""
    gate = tmp_path / "gate"
    gate.mkdir()
    opened = tmp_path / "gate-open"
    (gate / "sitecustomize.py").write_text(
        "import os, time\n"
        "deadline = time.monotonic() + 30\n"
        f"while not os.path.exists({str(opened)!r}) and time.monotonic() < deadline:\n"
        "    time.sleep(0.01)\n"
    )
    return {"PYTHONPATH": str(gate)}, opened


def test_a_late_starting_worker_still_journals_the_commit_it_was_started_for(
    repo: Path, tmp_path: Path, comet_home: Path
) -> None:
    init_project(repo)
    slow, opened = slow_start(tmp_path)
    try:
        commit_file(repo, "a.txt", "a\n", "feat: first", env=slow)
        first = head(repo)
        commit_file(repo, "b.txt", "b\n", "feat: second", env=slow)
        second = head(repo)
        assert len(pending_tickets(comet_home)) == 2, "both workers are waiting to start"
    finally:
        opened.write_text("open\n")
    flush(repo)
    events = events_of(repo, "repo.commit")
    assert sorted(event["context"]["commit"] for event in events) == sorted([first, second])


# --- 2. chaining a foreign hook, and restoring it -------------------------------------------------


def test_a_foreign_hook_keeps_running_and_uninstall_restores_the_directory_byte_for_byte(
    repo: Path, tmp_path: Path
) -> None:
    hooks = repo / ".git" / "hooks"
    marker = tmp_path / "foreign-marker"
    foreign = hooks / "post-commit"
    foreign.write_text(f'#!/bin/sh\ngit rev-parse HEAD >> "{marker}"\nexit 0\n')
    foreign.chmod(0o750)
    before = snapshot(hooks)
    assert any(name.endswith(".sample") for name in before), "git's sample hooks belong in the snapshot"

    init_project(repo, "--no-hooks")
    assert snapshot(hooks) == before
    installed = comet_ok("hooks", "install", cwd=repo)
    assert {hook["name"]: hook["state"] for hook in installed["hooks"]}["post-commit"] == "installed-chained"

    commit_file(repo, "a.txt", "a\n", "feat: with a foreign hook")  # detached worker
    flush(repo)
    sha = head(repo)
    assert marker.read_text().split() == [sha]
    assert [event["context"]["commit"] for event in events_of(repo, "repo.commit")] == [sha]

    comet_ok("hooks", "uninstall", cwd=repo)
    assert snapshot(hooks) == before


def test_hooks_installed_without_init_still_journal_commits(repo: Path) -> None:
    assert comet_ok("hooks", "install", cwd=repo)["hooks"][0]["state"] == "installed"
    commit_file(repo, "a.txt", "a\n", "feat: hooks only", env=SYNC)
    assert [event["context"]["commit"] for event in events_of(repo, "repo.commit")] == [head(repo)]


# --- 3. history import after the hooks ------------------------------------------------------------


def test_import_history_after_the_hooks_adds_nothing_and_gives_the_same_ids(
    tmp_path: Path, comet_home: Path
) -> None:
    repo = tmp_path / "fresh"
    repo.mkdir()
    run_git(repo, "init", "-q")
    key = init_project(repo)
    for number in range(4):
        commit_file(repo, f"f{number}.txt", f"{number}\n", f"feat: step {number}", env=SYNC)
    hooked = {event["context"]["commit"]: event["eventId"] for event in events_of(repo, "repo.commit")}
    assert set(hooked) == set(git(repo, "rev-list", "HEAD").split())
    before = journal_text(comet_home, key)

    data = import_history(repo)
    assert (data["matched"], data["added"], data["duplicates"]) == (4, 0, 4)
    assert journal_text(comet_home, key) == before

    # The same commits imported into an empty home get exactly the hook's event ids.
    other_home = tmp_path / "other-home"
    data = import_history(repo, env={"COMET_HOME": str(other_home)})
    assert (data["added"], data["duplicates"]) == (4, 0)
    imported = events_of(repo, "repo.commit", env={"COMET_HOME": str(other_home)})
    assert {event["context"]["commit"]: event["eventId"] for event in imported} == hooked
    assert all(event["source"] == "import-history" for event in imported)


# --- 4. an unwritable or broken store -------------------------------------------------------------


def test_an_unwritable_store_leaves_git_commit_exactly_as_without_hooks(
    tmp_path: Path, comet_home: Path
) -> None:
    hooked, plain = make_twins(tmp_path)
    key = init_project(hooked)
    blocker = tmp_path / "file"
    blocker.write_text("a regular file: nothing can be created below it\n")
    unwritable = {"COMET_HOME": str(blocker / "home")}

    # Foreground worker (it really runs, and fails), then the detached one.
    assert_same_commit(twin_commit(hooked, 2, {**unwritable, **SYNC}), twin_commit(plain, 2))
    assert_same_commit(twin_commit(hooked, 3, unwritable), twin_commit(plain, 3))
    assert head(hooked) == head(plain)
    assert blocker.read_text() == "a regular file: nothing can be created below it\n"

    # The hooks are live: with a writable home the next commit is journaled.
    twin_commit(hooked, 4, SYNC)
    assert [event["context"]["commit"] for event in events_of(hooked, "repo.commit")] == [head(hooked)]
    assert project_journal(comet_home, key).is_dir()


def test_a_broken_journal_leaves_git_commit_unchanged_and_is_logged_for_memory_status(
    tmp_path: Path, comet_home: Path
) -> None:
    hooked, plain = make_twins(tmp_path)
    key = init_project(hooked)
    journal_dir = project_journal(comet_home, key)
    shutil.rmtree(journal_dir)
    journal_dir.write_text("not a directory\n")  # appends can only fail now
    status = comet_ok("memory", "status", cwd=hooked)
    assert status["diagnostics"]["recentFailures"] == []

    assert_same_commit(twin_commit(hooked, 2, SYNC), twin_commit(plain, 2))
    assert journal_dir.read_text() == "not a directory\n"

    status = comet_ok("memory", "status", cwd=hooked)
    log = Path(status["diagnostics"]["log"])
    assert log.is_file()
    assert log == comet_home / "logs" / "diagnostics.log"
    failures = status["diagnostics"]["recentFailures"]
    assert len(failures) == 1
    assert failures[0]["where"] == "git-hook:post-commit"
    assert "journal" in failures[0]["error"]


# --- 5. comet removed -----------------------------------------------------------------------------


@pytest.mark.parametrize("removed", ["python", "worker"])
def test_a_removed_interpreter_or_worker_makes_the_hook_silent(
    tmp_path: Path, comet_home: Path, removed: str
) -> None:
    hooked, plain = make_twins(tmp_path)
    init_project(hooked, "--no-hooks")
    gone = tmp_path / "gone"
    gone.mkdir()
    python = gone / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    worker = gone / "worker.py"
    shutil.copyfile(default_worker(), worker)
    install_hooks(hooked, python=str(python), worker=worker)

    # While both exist, the hook works through them.
    twin_commit(hooked, 2, SYNC)
    twin_commit(plain, 2)
    assert [event["context"]["commit"] for event in events_of(hooked, "repo.commit")] == [head(hooked)]

    (python if removed == "python" else worker).unlink()
    assert_same_commit(twin_commit(hooked, 3, SYNC), twin_commit(plain, 3))
    assert_same_commit(twin_commit(hooked, 4), twin_commit(plain, 4))
    assert pending_tickets(comet_home) == []
    assert len(events_of(hooked, "repo.commit")) == 1
    assert not (comet_home / "logs" / "diagnostics.log").exists()


# --- 6. COMET_DISABLE -----------------------------------------------------------------------------


def test_comet_disable_journals_nothing(repo: Path, comet_home: Path) -> None:
    init_project(repo)
    commit_file(repo, "a.txt", "a\n", "feat: disabled", env={**SYNC, "COMET_DISABLE": "1"})
    commit_file(repo, "b.txt", "b\n", "feat: disabled, detached", env={"COMET_DISABLE": "1"})
    assert pending_tickets(comet_home) == []
    flush(repo)
    assert events_of(repo, "repo.commit") == []

    commit_file(repo, "c.txt", "c\n", "feat: enabled", env=SYNC)
    assert [event["context"]["commit"] for event in events_of(repo, "repo.commit")] == [head(repo)]


# --- 7. the worker runs in the background ---------------------------------------------------------


def test_a_piped_commit_returns_while_the_worker_is_still_blocked(repo: Path, comet_home: Path) -> None:
    key = init_project(repo)
    lock = project_journal(comet_home, key) / ".lock"
    (repo / "piped.txt").write_text("piped\n")
    run_git(repo, "add", "piped.txt")
    # Holding the journal's lock stalls the real worker at its append: if the shim waited for the
    # worker, or the worker kept git's stdout or stderr open, the pipeline below could not finish.
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        done = subprocess.run(
            ["sh", "-c", "git commit -q -m 'feat: piped' | cat"],
            cwd=repo,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=10,
        )
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
        assert len(pending_tickets(comet_home)) == 1, "the worker is still running"
        assert events_of(repo, "repo.commit") == []
    finally:
        os.close(fd)
    flush(repo)
    assert pending_tickets(comet_home) == []
    assert [event["context"]["commit"] for event in events_of(repo, "repo.commit")] == [head(repo)]


# --- 8. what a commit event holds -----------------------------------------------------------------


def test_a_commit_event_holds_structured_facts_and_no_diff_text(repo: Path, comet_home: Path) -> None:
    key = init_project(repo)
    parent = head(repo)
    distinctive = "ZEBRA-QUOKKA-distinctive-line-7741"
    (repo / "src").mkdir()
    (repo / "src" / "parser.py").write_text(f"# {distinctive}\ndef parse():\n    return 1\n")
    (repo / "README.md").write_text("hello\nworld\n")  # was "line\n": 2 added, 1 deleted
    (repo / "logo.bin").write_bytes(bytes(range(256)) * 4)
    run_git(repo, "add", "src/parser.py", "README.md", "logo.bin")
    message = (
        "feat(parser): support nested selectors\n\n"
        "Nested selectors now parse. Fixes #12\n\n"
        "Signed-off-by: Test User <test.user@example.com>\n"
        "Co-authored-by: Pair Programmer <pair@example.com>\n"
    )
    message_file = repo.parent / "message.txt"
    message_file.write_text(message)
    run_git(repo, "commit", "-q", "-F", str(message_file), env=SYNC)
    sha = head(repo)

    [event] = events_of(repo, "repo.commit")
    assert event["schema"] == "comet.experience/v1"
    assert event["eventId"] == stable_id("ev", key, "repo.commit", sha)
    assert (event["scope"], event["projectKey"], event["actor"]) == ("project", key, "user")
    assert event["source"] == "git-hook:post-commit"
    context = event["context"]
    assert context["commit"] == sha
    assert context["parents"] == [parent]
    assert context["branch"] == "main"
    assert context["authorIsUser"] is True
    assert context["subject"] == "feat(parser): support nested selectors"
    assert context["trailers"]["signedOff"] is True
    assert context["trailers"]["coAuthors"] == 1
    assert context["issues"] == ["#12"]
    files = {item["path"]: (item["added"], item["deleted"]) for item in context["files"]}
    assert files == {"src/parser.py": (3, 0), "README.md": (2, 1), "logo.bin": (None, None)}
    assert (context["filesChanged"], context["added"], context["deleted"]) == (3, 5, 1)

    raw = journal_text(comet_home, key)
    assert distinctive not in raw
    assert "def parse" not in raw


# --- 9. secrets -----------------------------------------------------------------------------------


def test_secrets_in_commit_subjects_are_redacted_before_they_reach_the_journal(
    repo: Path, comet_home: Path
) -> None:
    key = init_project(repo)
    assert len(GITHUB_TOKEN) == len("ghp_") + 36
    secrets = ["AKIAIOSFODNN7EXAMPLE", GITHUB_TOKEN, "hunter2hunter2"]
    subjects = [
        "fix: rotate the key AKIAIOSFODNN7EXAMPLE",
        f"chore: ci uses {GITHUB_TOKEN} for releases",
        "chore: dev db password=hunter2hunter2 for now",
    ]
    for number, subject in enumerate(subjects):
        commit_file(repo, f"s{number}.txt", f"{number}\n", subject, env=SYNC)
    assert git(repo, "log", "-1", "--format=%s") == subjects[-1]  # git itself keeps what it was given

    raw = journal_text(comet_home, key)
    assert raw.count('"repo.commit"') == 3
    for secret in secrets:
        assert secret not in raw
    assert "[REDACTED" in raw
    listed = [event["context"]["subject"] for event in events_of(repo, "repo.commit")]
    assert sorted(listed) == sorted(
        [
            "fix: rotate the key [REDACTED:aws-access-key]",
            "chore: ci uses [REDACTED:github-token] for releases",
            "chore: dev db password=[REDACTED:secret] for now",
        ]
    )


# --- 10. whose commit is it -----------------------------------------------------------------------


def test_another_authors_commit_is_journaled_as_theirs_and_not_imported_as_yours(repo: Path) -> None:
    init_project(repo)
    commit_file(repo, "mine.txt", "mine\n", "feat: mine", env=SYNC)
    mine = head(repo)
    commit_file(repo, "theirs.txt", "theirs\n", "feat: theirs", env={**SYNC, "GIT_AUTHOR_EMAIL": OTHER_EMAIL})
    theirs = head(repo)
    assert git(repo, "log", "-1", "--format=%ae") == OTHER_EMAIL

    by_commit = {event["context"]["commit"]: event for event in events_of(repo, "repo.commit")}
    assert set(by_commit) == {mine, theirs}
    assert (by_commit[mine]["actor"], by_commit[mine]["context"]["authorIsUser"]) == ("user", True)
    assert (by_commit[theirs]["actor"], by_commit[theirs]["context"]["authorIsUser"]) == (
        "other-author",
        False,
    )

    # Yours: the fixture's first commit and `mine`; never `theirs`.
    data = import_history(repo)
    assert data["authorEmails"] == ["test.user@example.com"]
    assert (data["matched"], data["added"], data["duplicates"]) == (2, 1, 1)
    assert len(events_of(repo, "repo.commit")) == 3

    # --author-email says who you are for one import (same event id as the hook gave).
    data = import_history(repo, "--author-email", OTHER_EMAIL.upper())
    assert data["authorEmails"] == [OTHER_EMAIL]
    assert (data["matched"], data["added"], data["duplicates"]) == (1, 0, 1)

    # comet.authorEmail says it for the hooks and the imports from now on.
    run_git(repo, "config", "comet.authorEmail", OTHER_EMAIL)
    commit_file(repo, "after.txt", "after\n", "feat: after the switch", env=SYNC)
    after = head(repo)
    event = next(e for e in events_of(repo, "repo.commit") if e["context"]["commit"] == after)
    assert (event["actor"], event["context"]["authorIsUser"]) == ("other-author", False)
    data = import_history(repo)
    assert data["authorEmails"] == [OTHER_EMAIL]
    assert data["matched"] == 1
    run_git(repo, "config", "--add", "comet.authorEmail", "test.user@example.com")
    data = import_history(repo)
    assert data["authorEmails"] == sorted([OTHER_EMAIL, "test.user@example.com"])
    assert (data["matched"], data["added"]) == (4, 0)


# --- 11. checkout, merge, amend, rebase -----------------------------------------------------------


def test_checkout_merge_amend_and_rebase_events(repo: Path) -> None:
    init_project(repo)
    base = head(repo)

    def count(event_type: str) -> int:
        return len(events_of(repo, event_type))

    run_git(repo, "checkout", "-q", "-b", "feature", env=SYNC)
    [checkout] = events_of(repo, "repo.checkout")
    assert checkout["context"]["branch"] == "feature"
    assert (checkout["context"]["from"], checkout["context"]["to"]) == (base, base)

    (repo / "README.md").write_text("scribble\n")
    run_git(repo, "checkout", "--", "README.md", env=SYNC)  # a file checkout is no event
    assert (repo / "README.md").read_text() == "line\n"
    assert count("repo.checkout") == 1

    commit_file(repo, "feature.txt", "feature\n", "feat: feature", env=SYNC)
    run_git(repo, "checkout", "-q", "main", env=SYNC)
    assert count("repo.checkout") == 2
    run_git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature", env=SYNC)
    [merge] = events_of(repo, "repo.merge")
    merged = head(repo)
    assert merge["context"]["commit"] == merged
    assert merge["context"]["parents"] == git(repo, "rev-list", "--parents", "-n", "1", "HEAD").split()[1:]
    assert len(merge["context"]["parents"]) == 2
    assert (merge["context"]["branch"], merge["context"]["squash"]) == ("main", False)

    commit_file(repo, "amend.txt", "first\n", "feat: to amend", env=SYNC)
    before_amend = head(repo)
    run_git(repo, "commit", "-q", "--amend", "-m", "feat: amended", env=SYNC)
    [amend] = events_of(repo, "repo.rewrite")
    assert amend["context"]["kind"] == "amend"
    assert amend["context"]["rewritten"] == [[before_amend, head(repo)]]
    assert amend["context"]["count"] == 1

    # Two commits on a topic branch, rebased onto a main that moved on.
    run_git(repo, "checkout", "-q", "-b", "topic", base, env=SYNC)
    commit_file(repo, "t1.txt", "1\n", "feat: topic one", env=SYNC)
    commit_file(repo, "t2.txt", "2\n", "feat: topic two", env=SYNC)
    old = git(repo, "rev-list", "--reverse", f"{base}..topic").split()
    run_git(repo, "rebase", "-q", "main", env=SYNC)
    new = git(repo, "rev-list", "--reverse", "main..topic").split()
    rewrites = [event for event in events_of(repo, "repo.rewrite") if event["context"]["kind"] == "rebase"]
    assert len(rewrites) == 1
    assert rewrites[0]["context"]["rewritten"] == [list(pair) for pair in zip(old, new, strict=True)]
    assert rewrites[0]["context"]["count"] == 2
    assert rewrites[0]["context"]["branch"] == "topic"


def test_every_branch_switch_is_journaled(repo: Path) -> None:
    init_project(repo)
    switches = [["-b", "x"], ["-b", "y"], ["main"], ["x"], ["main"]]
    for args in switches:  # five switches at one commit: at least two share a second
        run_git(repo, "checkout", "-q", *args, env=SYNC)
    branches = sorted(event["context"]["branch"] for event in events_of(repo, "repo.checkout"))
    assert branches == ["main", "main", "x", "x", "y"]


# --- 12. a torn line ------------------------------------------------------------------------------


def test_a_torn_last_line_is_reported_and_the_next_hook_event_starts_afresh(
    repo: Path, comet_home: Path
) -> None:
    key = init_project(repo)
    commit_file(repo, "a.txt", "a\n", "feat: before the crash", env=SYNC)
    first = head(repo)
    [month] = month_files(comet_home, key)
    with month.open("a", encoding="utf-8") as handle:
        handle.write('{"schema":"comet.experience/v1","eventId":"ev-torn","type":"repo.co')

    data = listing(repo)
    assert [event["context"]["commit"] for event in data["events"] if event["type"] == "repo.commit"] == [
        first
    ]
    [problem] = data["problems"]
    assert problem["kind"] == "torn"
    assert Path(problem["file"]) == month
    assert problem["line"] == 2

    commit_file(repo, "b.txt", "b\n", "feat: after the crash", env=SYNC)
    second = head(repo)
    lines = month.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    assert lines[1].endswith('"type":"repo.co')
    assert json.loads(lines[2])["context"]["commit"] == second
    data = listing(repo, "repo.commit")
    # Both in the same second, maybe: the listing orders them by time, then by event id.
    assert sorted(event["context"]["commit"] for event in data["events"]) == sorted([first, second])
    assert len(data["problems"]) == 1  # the torn line stays skipped and reported


# --- 13. the worker's imports ---------------------------------------------------------------------


def test_the_worker_hot_path_imports_only_the_standard_library(repo: Path, comet_home: Path) -> None:
    key = init_project(repo, "--no-hooks")
    commit_file(repo, "a.txt", "a\n", "feat: no hooks ran")
    worker = str(default_worker())
    wrapper = (
        "import json, runpy, sys\n"
        f"sys.argv = [{worker!r}, 'post-commit']\n"
        "try:\n"
        f"    runpy.run_path({worker!r}, run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper], cwd=repo, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout)
    assert "comet_git.journal.gitlog" in modules  # it really went down the hot path
    heavy = sorted(name for name in modules if name.split(".")[0] in HEAVY_MODULES)
    assert heavy == []
    assert [event["context"]["commit"] for event in events_of(repo, "repo.commit")] == [head(repo)]
    assert f'"projectKey":"{key}"' in journal_text(comet_home, key)


# --- 14. import-history's range options -----------------------------------------------------------


def test_import_history_max_since_and_an_empty_repository(repo: Path, tmp_path: Path) -> None:
    init_project(repo, "--no-hooks")
    for number in range(6):
        commit_file(repo, f"m{number}.txt", f"{number}\n", f"feat: mine {number}")
        if number == 3:
            commit_file(repo, "x.txt", "x\n", "feat: theirs", env={"GIT_AUTHOR_EMAIL": OTHER_EMAIL})
    mine = git(repo, "rev-list", "--author=test.user@example.com", "HEAD").split()  # newest first
    assert len(mine) == 7

    home_max = {"COMET_HOME": str(tmp_path / "home-max")}
    data = import_history(repo, "--max", "5", env=home_max)
    assert (data["matched"], data["added"], data["otherAuthorsAdded"]) == (5, 5, 1)
    events = events_of(repo, "repo.commit", home_max)
    assert {e["context"]["commit"] for e in events if e["context"]["authorIsUser"]} == set(mine[:5])
    # Another author's commit among yours comes along, without its paths: the project's conventions.
    [theirs] = [e for e in events if not e["context"]["authorIsUser"]]
    assert theirs["actor"] == "other-author" and theirs["context"]["files"] == []

    home_since = {"COMET_HOME": str(tmp_path / "home-since")}
    since = mine[3]
    data = import_history(repo, "--since", since, env=home_since)
    assert (data["matched"], data["added"]) == (3, 3)
    events = events_of(repo, "repo.commit", home_since)
    assert {e["context"]["commit"] for e in events if e["context"]["authorIsUser"]} == set(mine[:3])

    empty = tmp_path / "empty"
    empty.mkdir()
    run_git(empty, "init", "-q")
    init_project(empty, "--no-hooks")
    result = run_comet("journal", "import-history", "--json", cwd=empty)
    assert result.exit_code == 0, result.stderr
    assert (result.json()["matched"], result.json()["added"]) == (0, 0)
    assert events_of(empty, "repo.commit") == []


# --- 15. replay -----------------------------------------------------------------------------------


def test_replay_processes_an_unprocessed_signal_once(repo: Path) -> None:
    key = init_project(repo)
    journal = Journal(Home.from_environment().project_store(key).create())
    texts = {
        "ev-replay-never-processed": "Going forward, never push directly to main in this project",
        "ev-replay-failed-before": "From now on, always run ruff before every commit in this project",
    }
    journal.append(
        [
            Event(
                event_id=event_id,
                episode_id="ep-replay-test",
                type="user.signal",
                at=utc_now(),
                scope="project",
                project_key=key,
                actor="user",
                source="comet memory signal",
                context={},
                signal={"text": text, "kind": "long-term", "reason": "test", "cues": []},
            )
            for event_id, text in texts.items()
        ]
    )
    journal.mark([("ev-replay-failed-before", FAILED, "the store was read-only")])
    assert comet_ok("memory", "list", cwd=repo)["records"] == []

    report = comet_ok("journal", "replay", cwd=repo)
    assert report["failed"] == []
    assert sorted(item["eventId"] for item in report["processed"]) == sorted(texts)
    record_ids = {item["recordId"] for item in report["processed"]}
    assert None not in record_ids
    assert len(record_ids) == 2
    records = comet_ok("memory", "list", cwd=repo)["records"]
    assert {record["id"] for record in records} == record_ids
    signals = events_of(repo, "user.signal")
    assert {event["eventId"]: event["processing"] for event in signals} == dict.fromkeys(texts, "done")

    again = comet_ok("journal", "replay", cwd=repo)
    assert (again["processed"], again["failed"]) == ([], [])
    assert len(comet_ok("memory", "list", cwd=repo)["records"]) == 2
