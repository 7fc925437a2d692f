"""Evaluation: precision and recall of the habits `comet learn` forms on a real history.

The ground truth is computed here, independently of comet's reflectors (its own rules, no
import of comet_git): for one author of a history file (JSON Lines as in
/work/shared/data/), the author's latest RECENT commits of their own writing (no merges,
reverts, version bumps or bots) are counted, and a habit holds when at least 80% of them
show it (case: of the subjects that start with a letter; mood: of those that start with a
verb, when that is at least half).  The five newest of the author's commits are held out:
the repository is replayed without them, `import-history` + `learn` run with the author
as the user, and for each held-out commit `comet task --operation commit --path <file>`
is asked what to do; the script reports which delivered habits the real commit obeys.

    python3 benchmarks/eval_learning.py ../shared/data/click-history.jsonl --python .venv/bin/python
    python3 benchmarks/eval_learning.py benchmarks/data/heldout/histories/httpx.jsonl.gz  # held out
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

RECENT = 100
SHARE = 0.8
HELD_OUT = 5
REPLAY = Path("/work/shared/tools/replay_history.py")

# Ground-truth rules, written apart from comet_git/learning/reflectors.py.
CONVENTIONAL = re.compile(r"^[a-z]+(\([^)]+\))?!?: ")
ANY_PREFIX = re.compile(r"^\w[\w-]*(\([^)]*\))?!?:\s")
VERSION_ONLY = re.compile(r"(release|bump|start|version|prepare)\b.*\d+\.\d+|^v?\d+\.\d+", re.IGNORECASE)
_VERB_TEXT = """
    add allow avoid change clean clarify convert correct deprecate document drop enable ensure fix
    handle implement improve make move prevent refactor remove rename replace restore revert run
    show skip support update upgrade use validate mark merge parametrize resolve sort strip
    forward streamline settle apply start install
"""
BASE_VERBS = frozenset(_VERB_TEXT.split())


def own_writing(row: dict[str, Any]) -> bool:
    subject = row["message"].split("\n", 1)[0].strip()
    if len(row["parents"]) > 1 or not subject:
        return False
    if subject.lower().startswith(("merge ", "revert")) or "[bot]" in row["author"]["email"]:
        return False
    return not (VERSION_ONLY.match(subject) and len(subject.split()) <= 4)


def mood(subject: str) -> str | None:
    text = subject.split(": ", 1)[1] if CONVENTIONAL.match(subject) else subject
    word = re.sub(r"[^a-z]", "", (text.split() or [""])[0].lower())
    for base in BASE_VERBS:
        if word == base:
            return "imperative"
        if word in (base + "ed", base + "d", base[:-1] + "ied", base + base[-1] + "ed"):
            return "past"
        if word in (base + "s", base + "es", base[:-1] + "ies"):
            return "third-person"
    return None


def has_body(message: str) -> bool:
    paragraphs = [p for p in message.strip().split("\n\n") if p.strip()][1:]
    if paragraphs and all(re.match(r"^[A-Za-z-]+: ", line) for line in paragraphs[-1].splitlines()):
        paragraphs.pop()
    return bool(paragraphs)


def truth(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Habit -> share of the recent commits showing it (only those at >= SHARE are habits)."""
    subjects = [row["message"].split("\n", 1)[0].strip() for row in rows]
    n = len(subjects)
    shares: dict[str, float] = {}
    shares["conventional"] = sum(bool(CONVENTIONAL.match(s)) for s in subjects) / n
    descriptions = [s.split(": ", 1)[1] if CONVENTIONAL.match(s) else s for s in subjects]
    letters = [d[0] for d in descriptions if d[:1].isalpha()]
    if letters:
        shares["case:lower"] = sum(c.islower() for c in letters) / len(letters)
        shares["case:upper"] = sum(c.isupper() for c in letters) / len(letters)
    for limit in (50, 72):
        share = sum(len(s) <= limit for s in subjects) / n
        if share >= SHARE:  # the tightest limit that holds is the habit
            shares[f"length:{limit}"] = share
            break
    moods = Counter(m for m in map(mood, subjects) if m)
    judged = sum(moods.values())
    if judged * 2 >= n:
        for which in ("imperative", "past"):
            shares[f"mood:{which}"] = moods[which] / judged
    shares["signoff"] = sum("Signed-off-by:" in row["message"] for row in rows) / n
    shares["never:type-prefix"] = sum(not ANY_PREFIX.match(s) for s in subjects) / n
    shares["never:trailing-period"] = sum(not s.endswith(".") for s in subjects) / n
    shares["never:body"] = sum(not has_body(row["message"]) for row in rows) / n
    return shares


TITLE_KEYS = {
    "Commit subjects follow Conventional Commits": "conventional",
    "Commit subjects start with a lowercase letter": "case:lower",
    "Commit subjects start with a capital letter": "case:upper",
    "Commit subjects of at most 50 characters": "length:50",
    "Commit subjects of at most 72 characters": "length:72",
    "Commit subjects in the imperative mood": "mood:imperative",
    "Commit subjects in the past tense": "mood:past",
    "Commits are signed off": "signoff",
    "No type prefix on commit subjects": "never:type-prefix",
    "Commit subjects do not end with a period": "never:trailing-period",
    "Commit messages are a subject line only": "never:body",
}


def obeys(key: str, row: dict[str, Any]) -> bool | None:
    """Whether one real commit obeys a delivered habit (None: the habit is not judged here)."""
    if key not in TITLE_KEYS.values():
        return None
    if key.startswith("length:"):  # truth() keeps only the tightest limit that holds
        return len(row["message"].split("\n", 1)[0].strip()) <= int(key.split(":")[1])
    return (
        truth([row]).get(key, 0.0) >= SHARE
        if not key.startswith("mood")
        else mood(row["message"].split("\n", 1)[0]) in (key.split(":")[1], None)
    )


def read_history(path: Path) -> list[dict[str, Any]]:
    """A history file's commits (JSON Lines, gzip-compressed when it ends in .gz)."""
    text = gzip.decompress(path.read_bytes()).decode("utf-8") if path.suffix == ".gz" else path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def comet(python: Path, env: dict[str, str], repo: Path, *args: str) -> dict[str, Any]:
    console = python.parent / "comet"
    done = subprocess.run(
        [str(console), *args, "--json"], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def evaluate(history: Path, email: str, python: Path, work: Path) -> None:
    rows = read_history(history)
    mine = [i for i, row in enumerate(rows) if row["author"]["email"] == email and own_writing(row)]
    held = mine[-HELD_OUT:]
    cut = held[0]  # the history up to the first held-out commit
    recent = [rows[i] for i in mine[:-HELD_OUT]][-RECENT:]
    shares = truth(recent)
    habits = {key for key, share in shares.items() if share >= SHARE}
    trimmed = work / f"{email}.jsonl"
    trimmed.write_text("".join(json.dumps(row) + "\n" for row in rows[:cut]))
    repo = work / email.split("@")[0]
    subprocess.run([sys.executable, str(REPLAY), str(trimmed), str(repo)], check=True, capture_output=True)
    subprocess.run(["git", "config", "user.email", email], cwd=repo, check=True)
    env = {**os.environ, "COMET_HOME": str(work / f"home-{email}"), "HOME": str(work), "COMET_WARM": "0"}
    comet(python, env, repo, "init", "--no-hooks")
    comet(python, env, repo, "journal", "import-history")
    comet(python, env, repo, "learn")
    records = comet(python, env, repo, "memory", "list")["records"]
    learned = {TITLE_KEYS[r["title"]] for r in records if r["title"] in TITLE_KEYS}
    others = [r["title"] for r in records if r["title"] not in TITLE_KEYS]
    right = learned & habits
    print(f"\n## {email}: {len(recent)} recent commits of their own writing")
    print("ground truth (>= 80%):", {k: round(v, 2) for k, v in sorted(shares.items()) if k in habits})
    print("near misses (60-80%):", {k: round(v, 2) for k, v in sorted(shares.items()) if 0.6 <= v < SHARE})
    print("learned:", sorted(learned), "| other records:", others)
    print(f"precision {len(right)}/{len(learned)}  recall {len(right)}/{len(habits)}")
    print("missed:", sorted(habits - learned), "| false:", sorted(learned - habits))
    for i in held:
        row = rows[i]
        path = next((f["path"] for f in row["files"]), ".")
        task = comet(python, env, repo, "task", "--task", "commit this change", "--operation", "commit",
                     "--path", path)  # fmt: skip
        delivered = [item["title"] for item in task.get("context", []) + task.get("manifest", [])]
        verdicts = {t: obeys(TITLE_KEYS.get(t, ""), row) for t in delivered}
        kept = sum(v is True for v in verdicts.values())
        judged = sum(v is not None for v in verdicts.values())
        print(f"held out {row['id'][:10]} {row['message'].splitlines()[0][:60]!r} path {path}:")
        print(f"   delivered {len(delivered)}, obeyed {kept}/{judged}:", verdicts)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("history", type=Path)
    parser.add_argument("--python", type=Path, default=Path(sys.executable))
    parser.add_argument("--authors", type=int, default=2, help="the N most active authors")
    args = parser.parse_args()
    rows = read_history(args.history)
    active = Counter(row["author"]["email"] for row in rows if own_writing(row))
    with tempfile.TemporaryDirectory() as work:
        for email, _ in active.most_common(args.authors):
            evaluate(args.history, email, args.python.absolute(), Path(work))
    return 0


if __name__ == "__main__":
    sys.exit(main())
