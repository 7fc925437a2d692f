"""Benchmark: `comet journal import-history` of 20,000 commits, and of the real click history.

Target: ≤ 20 s for 20,000 commits.  The repository is written with `git fast-import`
(commits by the configured user, realistic subjects, bodies and trailers, 1 to 5
changed files each over a few thousand paths), checked out, given an origin and `comet init
--no-hooks`.  Each timed import goes into a fresh COMET_HOME (median of --runs); a
second import into the same store (every event a duplicate) is timed too.  Then the
click history (/work/shared/data/click-history.jsonl, 3,329 commits) is replayed
with /work/shared/tools/replay_history.py and imported for one of its authors.
No assertion on timing.

    python3 benchmarks/bench_import.py [--commits 20000] [--runs 3] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from _common import (
    BenchEnv,
    Sample,
    Summary,
    add_common_arguments,
    bench_environment,
    print_table,
    run_checked,
)

TARGET_SECONDS = 20.0
SHARED = Path("/work/shared")
CLICK_HISTORY = SHARED / "data" / "click-history.jsonl"
REPLAY_TOOL = SHARED / "tools" / "replay_history.py"
CLICK_AUTHOR = "author-99@example.invalid"
USER = ("Bench Mark", "bench@example.com")
EVENT_ID = re.compile(rb'"eventId":"([^"]+)"')

_VERBS = ("Fix", "Add", "Update", "Remove", "Refactor", "Document", "Speed up", "Simplify", "Test", "Rename")
_THINGS = (
    "the retry policy in the API client",
    "flaky test in the auth module",
    "database migration for invoices",
    "structured logging in the workers",
    "CLI help for the export command",
    "type hints in the config loader",
    "cache invalidation on user update",
    "error messages of the payment service",
    "pagination of the search endpoint",
    "the release workflow",
    "dependency pins",
    "timezone handling in reports",
    "feature flag for the new editor",
    "N+1 query in the dashboard",
    "docstrings of the public API",
)
_TRAILERS = (
    "Signed-off-by: Bench Mark <bench@example.com>",
    "Co-authored-by: Ada Example <ada@example.com>",
    "Reviewed-by: Grace Example <grace@example.com>",
)
_MODULES = ("api", "auth", "billing", "core", "search", "storage", "ui", "workers", "cli", "sync")


def make_paths(rng: random.Random, count: int) -> list[str]:
    paths: set[str] = set()
    while len(paths) < count:
        module = rng.choice(_MODULES)
        kind = rng.random()
        name = f"{rng.choice(('handler', 'model', 'view', 'util', 'client', 'schema'))}_{rng.randrange(400)}"
        if kind < 0.6:
            paths.add(f"src/{module}/{name}.py")
        elif kind < 0.85:
            paths.add(f"tests/{module}/test_{name}.py")
        elif kind < 0.95:
            paths.add(f"docs/{module}/{name}.md")
        else:
            paths.add(f"config/{module}/{name}.yaml")
    return sorted(paths)


def _data(text: str) -> bytes:
    raw = text.encode("utf-8")
    return b"data %d\n" % len(raw) + raw + b"\n"


def fast_import_stream(commits: int, paths: int, seed: int) -> Iterator[bytes]:
    """Yield the fast-import stream, one commit at a time."""
    rng = random.Random(seed)
    all_paths = make_paths(rng, paths)
    hot = all_paths[: max(1, len(all_paths) // 10)]  # a tenth of the files take half the changes
    contents: dict[str, list[str]] = {}
    when = 1_672_560_000  # 2023-01-01
    for number in range(1, commits + 1):
        when += rng.randint(300, 40_000)
        subject = f"{rng.choice(_VERBS)} {rng.choice(_THINGS)}"
        if rng.random() < 0.3:
            subject += f" (#{rng.randint(1, 4000)})"
        message = subject + "\n"
        if rng.random() < 0.35:
            message += "\nThe previous behaviour surprised users; this keeps it predictable.\n"
        if rng.random() < 0.2:
            message += "\n" + "\n".join(rng.sample(_TRAILERS, rng.randint(1, 2))) + "\n"
        out = bytearray(b"commit refs/heads/main\nmark :%d\n" % number)
        out += f"author {USER[0]} <{USER[1]}> {when} +0100\n".encode()
        out += f"committer {USER[0]} <{USER[1]}> {when} +0100\n".encode()
        out += _data(message)
        if number > 1:
            out += b"from :%d\n" % (number - 1)
        changed = {
            rng.choice(hot) if rng.random() < 0.5 else rng.choice(all_paths) for _ in range(rng.randint(1, 5))
        }
        for path in sorted(changed):
            lines = contents.setdefault(path, [])
            if lines and rng.random() < 0.5:
                start = rng.randrange(len(lines))
                del lines[start : start + rng.randint(1, 4)]
            position = rng.randrange(len(lines) + 1)
            lines[position:position] = [f"{path} {number}.{i}\n" for i in range(rng.randint(1, 12))]
            if len(lines) > 60:
                del lines[: len(lines) - 60]
            out += f"M 100644 inline {path}\n".encode() + _data("".join(lines))
        out += b"\n"
        yield bytes(out)


def build_repository(bench: BenchEnv, commits: int, paths: int, seed: int) -> Path:
    repo = bench.work / "repos" / "big-history"
    repo.mkdir(parents=True)
    run_checked(["git", "init", "-q", "-b", "main"], env=bench.env, cwd=repo)
    started = time.perf_counter()
    process = subprocess.Popen(
        ["git", "fast-import", "--quiet"], cwd=repo, env=bench.env, stdin=subprocess.PIPE
    )
    assert process.stdin is not None
    for chunk in fast_import_stream(commits, paths, seed):
        process.stdin.write(chunk)
    process.stdin.close()
    if process.wait() != 0:
        raise SystemExit("git fast-import failed")
    for argv in (
        ["git", "reset", "-q", "--hard", "main"],
        ["git", "config", "user.email", USER[1]],
        ["git", "config", "user.name", USER[0]],
        ["git", "remote", "add", "origin", "git@github.com:acme/big-history.git"],
    ):
        run_checked(argv, env=bench.env, cwd=repo)
    count = run_checked(["git", "rev-list", "--count", "HEAD"], env=bench.env, cwd=repo).stdout.strip()
    tracked = len(run_checked(["git", "ls-files"], env=bench.env, cwd=repo).stdout.splitlines())
    print(
        f"repository: {count} commits, {tracked} files, written with git fast-import "
        f"in {time.perf_counter() - started:.1f} s"
    )
    return repo


def journal_ids(home: Path) -> tuple[int, int]:
    """(event lines, distinct event ids) over every journal month file under `home`."""
    lines = 0
    ids: set[bytes] = set()
    for path in home.glob("projects/*/journal/*.jsonl"):
        if path.name == "processing.jsonl":
            continue
        data = path.read_bytes()
        lines += data.count(b"\n")
        ids.update(EVENT_ID.findall(data))
    return lines, len(ids)


def import_once(bench: BenchEnv, repo: Path, *extra: str) -> tuple[Sample, dict[str, object]]:
    """One timed `comet journal import-history --json`, its output parsed."""
    argv = bench.comet_argv("journal", "import-history", *extra, "--json")
    started = time.perf_counter()
    before = os.times()
    done = subprocess.run(argv, env=bench.env, cwd=repo, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"import-history failed ({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return Sample(wall, cpu, len(done.stdout)), json.loads(done.stdout)


def fresh_store(bench: BenchEnv, repo: Path, name: str) -> BenchEnv:
    env = bench.with_home(bench.work / name)
    env.run_comet("init", "--no-hooks", "--json", cwd=repo)
    return env


def bench_big(bench: BenchEnv, args: argparse.Namespace) -> None:
    repo = build_repository(bench, args.commits, args.paths, args.seed)
    fresh: list[Sample] = []
    last: BenchEnv | None = None
    outputs: list[dict[str, object]] = []
    for run in range(args.runs):
        last = fresh_store(bench, repo, f"home-big-{run}")
        sample, output = import_once(last, repo)
        fresh.append(sample)
        outputs.append(output)
        print(f"  import {run + 1}/{args.runs}: {sample.wall:.2f} s", file=sys.stderr, flush=True)
    assert last is not None
    again, output_again = import_once(last, repo)
    summaries = [
        Summary.of("import, fresh store", fresh),
        Summary.of("import again (all duplicates)", [again]),
    ]
    print_table(summaries, title=f"comet journal import-history, {args.commits} commits")
    first = outputs[0]
    print(
        f"first import: matched {first['matched']}, added {first['added']}, "
        f"duplicates {first['duplicates']}, author emails {first['authorEmails']}"
    )
    print(
        f"second import: matched {output_again['matched']}, added {output_again['added']}, "
        f"duplicates {output_again['duplicates']}"
    )
    lines, distinct = journal_ids(last.home)
    print(
        f"journal after both: {lines} event lines, {distinct} distinct ids (expected {args.commits} of each)"
    )
    median = summaries[0].median
    state = "within" if median <= TARGET_SECONDS else "MISSES"
    print(
        f"import median {median:.2f} s ({args.commits / median:,.0f} commits/s) — {state} the target of "
        f"{TARGET_SECONDS:.0f} s"
    )


def bench_click(bench: BenchEnv, args: argparse.Namespace) -> None:
    if not CLICK_HISTORY.exists() or not REPLAY_TOOL.exists():
        print(f"\n{CLICK_HISTORY} or {REPLAY_TOOL} missing: click history skipped")
        return
    repo = bench.work / "repos" / "click"
    started = time.perf_counter()
    run_checked([sys.executable, str(REPLAY_TOOL), str(CLICK_HISTORY), str(repo)], env=bench.env)
    count = run_checked(["git", "rev-list", "--count", "HEAD"], env=bench.env, cwd=repo).stdout.strip()
    print(f"\nclick: {count} commits replayed in {time.perf_counter() - started:.1f} s")
    samples: list[Sample] = []
    output: dict[str, object] = {}
    for run in range(args.runs):
        store = fresh_store(bench, repo, f"home-click-{run}")
        sample, output = import_once(store, repo, "--author-email", CLICK_AUTHOR)
        samples.append(sample)
    print_table(
        [Summary.of(f"import --author-email {CLICK_AUTHOR}", samples)],
        title=f"comet journal import-history, click ({count} commits), fresh store each run",
    )
    print(
        f"click: matched {output['matched']} commits of {CLICK_AUTHOR}, added {output['added']}, "
        f"duplicates {output['duplicates']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--commits", type=int, default=20_000, help="commits in the generated history")
    parser.add_argument("--paths", type=int, default=3_000, help="distinct paths in it (default 3000)")
    parser.add_argument("--runs", type=int, default=3, help="timed imports into a fresh store (default 3)")
    parser.add_argument("--skip-click", action="store_true", help="leave out the click history")
    args = parser.parse_args()

    with bench_environment(args) as bench:
        bench_big(bench, args)
        if not args.skip_click:
            bench_click(bench, args)


if __name__ == "__main__":
    main()
