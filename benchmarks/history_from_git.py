"""Write a git repository's history as a history file (JSON Lines, as /work/shared/data/ has them).

Oldest first (first-parent topological order): `id`, `parents`, `author` / `committer` (`name`,
`email`, `date`), `message`, `files` (`path`, `added`, `deleted`; null counts for binary files).
Authors are anonymized as the shared data is: `Author N <author-N@example.invalid>` numbered by
first appearance, consistently across the file, a bot keeping `[bot]` in its address (the
evaluations leave bots out by it); e-mail addresses inside messages are replaced.

Used to build benchmarks/data/heldout/histories/ from public repositories (see its README):

    python3 benchmarks/history_from_git.py GIT_DIR OUT.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
from pathlib import Path
from typing import Any

FIELD = "\x1e"
RECORD = "\x1d"
FORMAT = FIELD.join(["%H", "%P", "%an", "%ae", "%aI", "%cn", "%ce", "%cI", "%B"]) + RECORD
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


class Anonymizer:
    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}

    def person(self, name: str, email: str) -> dict[str, str]:
        number = self.numbers.setdefault(email.lower(), len(self.numbers) + 1)
        if "[bot]" in email:
            return {"name": f"Bot {number}", "email": f"bot-{number}[bot]@users.noreply.invalid"}
        return {"name": f"Author {number}", "email": f"author-{number}@example.invalid"}


def numstat(line: str) -> dict[str, Any] | None:
    parts = line.split("\t")
    if len(parts) != 3:
        return None
    added, deleted, path = parts
    return {
        "path": path,
        "added": None if added == "-" else int(added),
        "deleted": None if deleted == "-" else int(deleted),
    }


def history(git_dir: Path) -> list[dict[str, Any]]:
    command = ["git", f"--git-dir={git_dir}", "log", "--reverse", "--topo-order", "--numstat"]
    log = subprocess.run(
        [*command, f"--format={FORMAT}"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "replace")
    people = Anonymizer()
    rows: list[dict[str, Any]] = []
    for chunk in log.split(RECORD):
        # a chunk is the previous commit's numstat lines, then this commit's fields (the first
        # field, the commit id, starts a line; the message may span many)
        first = chunk.find(FIELD)
        start = chunk.rfind("\n", 0, first) + 1 if first >= 0 else len(chunk)
        stats, fields = chunk[:start], chunk[start:]
        for line in stats.splitlines():
            if rows and (changed := numstat(line)):
                rows[-1]["files"].append(changed)
        if not fields:
            continue
        commit, parents, an, ae, ad, cn, ce, cd, message = fields.split(FIELD)
        rows.append(
            {
                "id": commit,
                "parents": parents.split(),
                "author": {**people.person(an, ae), "date": ad},
                "committer": {**people.person(cn, ce), "date": cd},
                "message": EMAIL.sub("someone@example.invalid", message.strip("\n")) + "\n",
                "files": [],
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    rows = history(args.git_dir)
    with gzip.open(args.out, "wt", encoding="utf-8") as out:
        out.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    print(f"{len(rows)} commits written to {args.out}")


if __name__ == "__main__":
    main()
