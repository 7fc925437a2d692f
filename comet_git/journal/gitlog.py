"""Git commits and hook calls as journal events, read with the `git` command
(standard library only: this runs in the git-hook worker).

A commit event keeps the commit id, parents, branch, whether the author is the
user, the subject, trailers and issue references, and the changed paths with
their added and deleted line counts (capped). Never any diff text.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from comet_git.journal.events import Event, stable_id

MAX_FILES = 200
MAX_REWRITES = 200
RECORD, FIELD = "\x1e", "\x1f"
LOG_FORMAT = "%x1e%H%x1f%P%x1f%ae%x1f%cI%x1f%B%x1f"
TRAILER = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):\s+(.+)$")
BOT_EMAIL = re.compile(r"\[bot\]@|^bot@|[-.+]bot@|^(?:noreply|no-reply)@(?!github\.com$)")
ISSUE_REFERENCE = re.compile(r"(?<![\w/])(?:#\d+|GH-\d+|[A-Z][A-Z0-9]{1,9}-\d+)\b")


@dataclass(frozen=True)
class Commit:
    id: str
    parents: tuple[str, ...]
    author_email: str
    committed_at: str
    message: str
    files: tuple[tuple[str, int | None, int | None], ...]

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0].strip()


def git_output(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        check=True,
    )
    return done.stdout


def user_emails(repo: Path) -> set[str]:
    """Who "the user" is: every `comet.authorEmail` in git config, else `user.email`."""
    configured: set[str] = set()
    for key in ("comet.authorEmail", "user.email"):
        try:
            values = git_output(repo, "config", "--get-all", key).split()
        except subprocess.CalledProcessError:
            values = []
        configured |= {value.strip().lower() for value in values if value.strip()}
        if configured:
            return configured
    return configured


def current_branch(repo: Path) -> str | None:
    try:
        return git_output(repo, "symbolic-ref", "-q", "--short", "HEAD").strip() or None
    except subprocess.CalledProcessError:
        return None  # detached HEAD


def read_commits(repo: Path, revisions: Sequence[str], *, max_count: int | None = None) -> Iterator[Commit]:
    """Commits of `git log REVISIONS`, newest first, streamed from one git process."""
    args = ["git", "-c", "core.quotepath=off", "log", "--no-color", "--no-renames", "--numstat"]
    args += [f"--format={LOG_FORMAT}"]
    if max_count is not None:
        args.append(f"--max-count={max_count}")
    args += [*revisions, "--"]
    with subprocess.Popen(
        args,
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        errors="replace",
    ) as process:
        assert process.stdout is not None
        pending = ""
        for chunk in iter(lambda: process.stdout.read(1 << 16), ""):  # type: ignore[union-attr]
            pending += chunk
            *complete, pending = pending.split(RECORD)
            for entry in complete:
                if entry.strip():
                    yield _parse_commit(entry)
        if pending.strip():
            yield _parse_commit(pending)
    if process.returncode not in (0, None):
        raise subprocess.CalledProcessError(process.returncode, args)


def _parse_commit(entry: str) -> Commit:
    commit_id, parents, email, committed, message, numstat = entry.split(FIELD, 5)
    files: list[tuple[str, int | None, int | None]] = []
    for line in numstat.strip("\n").splitlines():
        parts = line.split("\t", 2)
        if len(parts) == 3:
            added, deleted, path = parts
            files.append((path, _count(added), _count(deleted)))
    return Commit(
        commit_id.strip(), tuple(parents.split()), email.strip().lower(), committed, message, tuple(files)
    )


def _count(text: str) -> int | None:
    return int(text) if text.isdigit() else None  # "-" for binary files


def utc(timestamp: str) -> str:
    moment = dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    return moment.astimezone(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def trailers(message: str) -> dict[str, object]:
    paragraphs = [p for p in message.strip().split("\n\n") if p.strip()]
    found: list[tuple[str, str]] = []
    if len(paragraphs) > 1:
        lines = paragraphs[-1].splitlines()
        matches = [TRAILER.match(line.strip()) for line in lines]
        if matches and all(matches):
            found = [(m.group(1), m.group(2)) for m in matches if m]
    keys = [key.lower() for key, _ in found]
    return {
        "keys": sorted({key for key, _ in found}),
        "signedOff": "signed-off-by" in keys,
        "coAuthors": keys.count("co-authored-by"),
    }


def has_body(message: str) -> bool:
    """Whether a message has text beyond its subject and its trailers."""
    paragraphs = [p for p in message.strip().split("\n\n") if p.strip()][1:]
    if paragraphs and all(TRAILER.match(line.strip()) for line in paragraphs[-1].splitlines()):
        paragraphs.pop()
    return bool(paragraphs)


def commit_event(
    commit: Commit,
    project_key: str,
    *,
    user: set[str],
    branch: str | None,
    source: str,
    with_files: bool = True,
) -> Event:
    """The `repo.commit` event of a commit.  Without `with_files` (another author's commit,
    kept for the project's own conventions) the changed paths are left out."""
    additions = sum(a or 0 for _, a, _ in commit.files)
    deletions = sum(d or 0 for _, _, d in commit.files)
    is_user = commit.author_email in user
    return Event(
        event_id=stable_id("ev", project_key, "repo.commit", commit.id),
        episode_id=stable_id("ep", project_key, "branch", branch or "history"),
        type="repo.commit",
        at=utc(commit.committed_at),
        scope="project",
        project_key=project_key,
        actor="user" if is_user else "other-author",
        source=source,
        context={
            "commit": commit.id,
            "parents": list(commit.parents),
            "branch": branch,
            "authorIsUser": is_user,
            "authorIsBot": bool(BOT_EMAIL.search(commit.author_email)),
            # Tells authors apart without keeping their e-mail address.
            "authorKey": stable_id("au", project_key, commit.author_email),
            "subject": commit.subject[:300],
            "hasBody": has_body(commit.message),
            "trailers": trailers(commit.message),
            "issues": sorted(set(ISSUE_REFERENCE.findall(commit.message)))[:20],
            "files": [
                {"path": path, "added": added, "deleted": deleted}
                for path, added, deleted in (commit.files[:MAX_FILES] if with_files else ())
            ],
            "filesChanged": len(commit.files),
            "filesTruncated": len(commit.files) > MAX_FILES,
            "added": additions,
            "deleted": deletions,
        },
    )


def now_utc() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class HookMoment:
    """What the shim saw when git called it: the worker runs detached, maybe after the
    next commit, so HEAD and the branch must come from the moment of the call."""

    head: str | None = None
    branch: str | None = None

    @classmethod
    def from_shim(cls, head: str, ref: str) -> HookMoment:
        valid_head = head if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", head) else None
        return cls(valid_head, ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else None)


def hook_events(
    repo: Path,
    project_key: str,
    hook: str,
    args: Sequence[str],
    stdin_text: str,
    at_hook: HookMoment | None = None,
) -> list[Event]:
    """The events one git hook call stands for (none for a file checkout)."""
    at_hook = at_hook or HookMoment()
    branch = at_hook.branch or current_branch(repo)
    user = user_emails(repo)
    source = f"git-hook:{hook}"
    if hook == "post-commit":
        commit = next(read_commits(repo, [at_hook.head or "HEAD"], max_count=1))
        return [commit_event(commit, project_key, user=user, branch=branch, source=source)]
    if hook == "post-checkout":
        previous, new, is_branch = _arg(args, 0, ""), _arg(args, 1, ""), _arg(args, 2, "0")
        if is_branch != "1":
            return []
        at = now_utc()
        # Two checkouts in one second may look alike: each hook call is its own event.
        return [
            _simple_event(
                project_key,
                "repo.checkout",
                at,
                branch,
                source,
                {"from": previous, "to": new, "branch": branch},
                previous,
                new,
                at,
                os.urandom(10).hex(),
            )
        ]
    if hook == "post-merge":
        head = git_output(repo, "rev-parse", "HEAD").strip()
        parents = git_output(repo, "rev-list", "--parents", "-n", "1", "HEAD").split()[1:]
        squash = _arg(args, 0, "0") == "1"
        return [
            _simple_event(
                project_key,
                "repo.merge",
                now_utc(),
                branch,
                source,
                {"commit": head, "parents": parents, "branch": branch, "squash": squash},
                head,
            )
        ]
    if hook == "post-rewrite":
        kind = _arg(args, 0, "unknown")
        pairs = [line.split()[:2] for line in stdin_text.splitlines() if len(line.split()) >= 2]
        context: dict[str, object] = {
            "kind": kind,
            "branch": branch,
            "count": len(pairs),
            "rewritten": pairs[:MAX_REWRITES],
        }
        return [
            _simple_event(
                project_key,
                "repo.rewrite",
                now_utc(),
                branch,
                source,
                context,
                kind,
                *sorted(" ".join(pair) for pair in pairs),
            )
        ]
    return []


MAX_BRANCHES = 100  # the most recently committed-to local branches read from the reflog


def created_branch_events(repo: Path, project_key: str) -> list[Event]:
    """A `repo.checkout` event (`created: true`, `via: reflog`) for each local branch whose
    reflog starts with "branch: Created from": a branch made here, by the user of this clone
    (a branch fetched from somebody else starts otherwise).  Git keeps reflogs 90 days by
    default, so this sees the recent branches only."""
    try:
        listing = git_output(
            repo, "for-each-ref", "--sort=-committerdate", f"--count={MAX_BRANCHES}",
            "--format=%(refname:short)", "refs/heads",
        )  # fmt: skip
    except (subprocess.CalledProcessError, OSError):
        return []
    events = []
    for branch in listing.split():
        try:
            log = git_output(repo, "reflog", "show", "--format=%gs%x1f%ct", f"refs/heads/{branch}", "--")
        except (subprocess.CalledProcessError, OSError):
            continue
        entries = [line.split("\x1f", 1) for line in log.splitlines() if "\x1f" in line]
        if not entries or not entries[-1][0].startswith("branch: Created from"):
            continue
        created = entries[-1][1].strip()
        at = (
            utc(dt.datetime.fromtimestamp(int(created), dt.timezone.utc).isoformat())
            if created.isdigit()
            else now_utc()
        )
        context: dict[str, object] = {"branch": branch, "created": True, "via": "reflog"}
        events.append(
            _simple_event(
                project_key,
                "repo.checkout",
                at,
                branch,
                "import-history",
                context,
                "created",
                branch,
                created,
            )
        )
    return events


def _arg(args: Sequence[str], index: int, default: str) -> str:
    return args[index] if len(args) > index else default


def _simple_event(
    project_key: str,
    kind: str,
    at: str,
    branch: str | None,
    source: str,
    context: dict[str, object],
    *identity: str,
) -> Event:
    return Event(
        event_id=stable_id("ev", project_key, kind, *identity),
        episode_id=stable_id("ep", project_key, "branch", branch or "history"),
        type=kind,
        at=at,
        scope="project",
        project_key=project_key,
        actor="user",
        source=source,
        context=context,
    )
