"""`comet journal import-history`: the user's own past commits as journal events,
with the same event ids the post-commit hook gives, so importing twice, or after
the hooks, adds nothing.  Other authors' commits in the same range come along without
their paths (`authorIsUser: false`): they teach the project's own conventions, never
the person's habits."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comet_git.journal.gitlog import (
    commit_event,
    created_branch_events,
    git_output,
    read_commits,
    user_emails,
)
from comet_git.journal.log import Journal

BATCH = 2000


@dataclass
class ImportResult:
    emails: set[str] = field(default_factory=set)
    matched: int = 0
    added: int = 0
    duplicates: int = 0
    others: int = 0  # other authors' commits read (imported when `others` is asked for)
    others_added: int = 0  # ...of them new in the journal (not in `added`, which is yours)
    branches_added: int = 0  # branches you created here, from the reflog

    def to_json(self) -> dict[str, Any]:
        return {
            "authorEmails": sorted(self.emails),
            "matched": self.matched,
            "otherAuthors": self.others,
            "otherAuthorsAdded": self.others_added,
            "branchesAdded": self.branches_added,
            "added": self.added,
            "duplicates": self.duplicates,
        }


def import_commits(
    repo: Path,
    project_key: str,
    journal: Journal,
    *,
    since: str | None,
    max_count: int | None,
    emails: tuple[str, ...] = (),
    others: bool = True,
) -> ImportResult:
    """Import the user's commits (the newest `max_count` of them) and, with `others`, the
    other authors' commits among them."""
    result = ImportResult(
        emails={email.strip().lower() for email in emails if email.strip()} or user_emails(repo)
    )
    if not result.emails or not _has_commits(repo):
        return result
    revisions = [f"{since}..HEAD" if since else "HEAD", "--fixed-strings"]
    if not others:  # git filters faster than we do
        revisions += [f"--author=<{email}>" for email in sorted(result.emails)]
    known = journal.known_ids()
    batch = []
    for commit in read_commits(repo, revisions, max_count=None if others else max_count):
        mine = commit.author_email in result.emails
        if not mine:
            result.others += 1
        elif max_count is not None and result.matched >= max_count:
            break
        else:
            result.matched += 1
        batch.append(
            commit_event(
                commit, project_key, user=result.emails, branch=None, source="import-history", with_files=mine
            )
        )
        if len(batch) >= BATCH:
            _flush(journal, batch, known, result)
    _flush(journal, batch, known, result)
    result.branches_added = len(
        journal.append(created_branch_events(repo, project_key), known_ids=known).added
    )
    return result


def _has_commits(repo: Path) -> bool:
    try:
        git_output(repo, "rev-parse", "-q", "--verify", "HEAD")
    except subprocess.CalledProcessError:
        return False
    return True


def _flush(journal: Journal, batch: list[Any], known: set[str], result: ImportResult) -> None:
    appended = journal.append(batch, known_ids=known)
    theirs = sum(1 for event in appended.added if event.actor == "other-author")
    theirs_read = sum(1 for event in batch if event.actor == "other-author")
    result.added += len(appended.added) - theirs
    result.others_added += theirs
    result.duplicates += appended.duplicates - (theirs_read - theirs)  # yours only, as `added`
    batch.clear()
