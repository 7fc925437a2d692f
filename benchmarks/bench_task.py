"""Benchmark: `comet task --json`, the agent's entry point, whole process, warm index.

Targets (issue 10): at 10,000 records median ≤ 70 ms and p95 ≤ 100 ms, for a task and for
session start; at 100,000 records median ≤ 150 ms.  Measured as a user has it (answered by the
warm process, comet_git/warm) and each call by itself (COMET_WARM=0).  Each size gets its own
store and repository; the requests are realistic (a task text that matches some records
lexically, a path, an operation and a phase) and rotate over a few kinds of task.  Measured
alternating with `comet --version` (the interpreter floor).  Then, for one call at 10,000
records (or the size nearest to it), where the time goes: `python -X importtime` top entries
and a cProfile top 15 (of a call by itself).  No assertion: the figures are printed.

    python3 benchmarks/bench_task.py [--sizes 1000,10000,100000] [--runs 30] [--large-runs 10]
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from _common import (
    RACY_SETTLE_SECONDS,
    BenchEnv,
    Sample,
    Summary,
    add_common_arguments,
    alternate,
    bench_environment,
    generate_store,
    index_path,
    make_repository,
    print_table,
    run_checked,
    start_warm,
    time_process,
    verdict,
    warm_environment,
)

TARGETS = {10_000: (0.070, 0.100), 100_000: (0.150, None)}  # size -> (median, p95), issue 10
LARGE = 20_000  # sizes above this get --large-runs runs
PROFILE_SIZE = 10_000

# Requests an agent would make: words that occur in the generated records'
# titles and texts, paths under the generated path selectors, known operations and phases.
REQUESTS: tuple[tuple[str, ...], ...] = (
    ("--task", "Refactor the auth module error handling", "--path", "src/auth/login.py",
     "--operation", "edit", "--phase", "build"),
    ("--task", "Write database migrations for billing", "--path", "src/billing",
     "--operation", "migrate", "--phase", "plan"),
    ("--task", "Fix the flaky integration tests of the API client", "--path", "tests/api/test_client.py",
     "--operation", "test", "--phase", "verify"),
    ("--task", "Prepare the release notes and changelog", "--path", "docs/cli.md",
     "--operation", "release", "--phase", "release"),
)  # fmt: skip
SESSION_START: tuple[str, ...] = ()  # `comet task` with no --task: what an agent's session starts with
REPO_FILES = ("src/auth/login.py", "src/billing/invoice.py", "tests/api/test_client.py", "docs/cli.md")


def target_line(size: int, summary: Summary) -> list[str]:
    median_target, p95_target = TARGETS.get(size, (None, None))
    lines = []
    if median_target is not None:
        lines.append(verdict(f"{size} records, task median", summary.median, median_target))
    if p95_target is not None:
        lines.append(verdict(f"{size} records, task p95", summary.p95, p95_target))
    return lines


def prepare(bench: BenchEnv, size: int, seed: int) -> tuple[BenchEnv, Path, str]:
    sized = bench.with_home(bench.work / f"comet-home-{size}")
    repo, key = make_repository(sized, name=f"acme-app-{size}")
    for name in REPO_FILES:  # so request paths resolve to real files and folders
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text("# placeholder\n")
    took = generate_store(sized, key, size, seed=seed)
    print(f"\n== {size} records (generated in {took:.1f} s, project {key})")
    return sized, repo, key


def warm(sized: BenchEnv, repo: Path, size: int) -> None:
    """The first call builds the index; files comet wrote < 2 s before a sync are
    "racy" and re-checked by the next command, so settle twice before measuring."""
    argv = sized.comet_argv("task", *REQUESTS[0], "--json")
    first = time_process(argv, env=sized.env, cwd=repo)
    for _ in range(2):
        time.sleep(RACY_SETTLE_SECONDS)
        time_process(argv, env=sized.env, cwd=repo)
    index_mb = index_path(sized.home).stat().st_size / 1e6
    print(f"first task (builds the index): {first.wall:.2f} s; index {index_mb:.1f} MB")
    for request in (*REQUESTS, SESSION_START):
        data = json.loads(sized.run_comet("task", *request, "--json", cwd=repo).stdout)
        if data["retrieval"] != "enabled":
            raise SystemExit(f"retrieval {data['retrieval']}: {data['diagnostics']}")
        print(
            f"  {(request[1] if request else '(session start)')[:48]:<48} {len(data['context'])} in full,"
            f" {len(data['manifest'])} in the manifest, {data['omitted']['count']} left out,"
            f" {data['budget']['used']} characters"
        )
    time.sleep(RACY_SETTLE_SECONDS)  # the journal those calls appended to settles too


def measure(sized: BenchEnv, repo: Path, size: int, runs: int) -> list[Summary]:
    """Each call by itself (COMET_WARM=0) and answered by the warm process (the default), both
    beside `comet --version`; the targets are read off the default."""
    version_argv = sized.comet_argv("--version")
    start_argv = sized.comet_argv("task", *SESSION_START, "--json")
    warm_env = warm_environment(sized.env)
    start_warm(start_argv, warm_env, repo)

    def task_call(env: dict[str, str]) -> Callable[[], Sample]:
        rotation = itertools.cycle(REQUESTS)
        return lambda: time_process(sized.comet_argv("task", *next(rotation), "--json"), env=env, cwd=repo)

    results = alternate(
        [
            ("comet --version", lambda: time_process(version_argv, env=sized.env, cwd=repo)),
            ("comet task --json, by itself", task_call(sized.env)),
            ("comet task --json, warm", task_call(warm_env)),
            ("session start, by itself", lambda: time_process(start_argv, env=sized.env, cwd=repo)),
            ("session start, warm", lambda: time_process(start_argv, env=warm_env, cwd=repo)),
        ],
        runs,
    )
    summaries = [Summary.of(name, samples) for name, samples in results.items()]
    print_table(summaries, title=f"whole process, warm index, {size} records, {runs} runs each")
    floor, task_alone, task, _, start = summaries
    for name, summary in (("task by itself", task_alone), ("task warm", task), ("session start warm", start)):
        print(f"{name} minus the --version floor (medians): {(summary.median - floor.median) * 1000:.1f} ms")
    for line in target_line(size, task) + target_line(size, start):
        print(line)
    return summaries


def profile(sized: BenchEnv, repo: Path, size: int) -> None:
    """Where one call's time goes: imports (self time) and a cProfile top 15."""
    argv = [str(sized.python), "-X", "importtime", "-m", "comet_git", "task", *REQUESTS[0], "--json"]
    done = subprocess.run(argv, env=sized.env, cwd=repo, capture_output=True, text=True, check=True)
    print_imports(done.stderr, size)

    stats = sized.work / f"task-{size}.prof"
    run_checked(
        [str(sized.python), "-c", PROFILED_TASK, str(stats), *REQUESTS[0], "--json"], env=sized.env, cwd=repo
    )
    for order, restriction, what in (
        ("tottime", "", "all functions"),
        ("cumulative", "comet_git/", "comet_git's functions"),
    ):
        shown = run_checked(
            [
                str(sized.python),
                "-c",
                "import pstats, sys; s = pstats.Stats(sys.argv[1]);"
                f" s.sort_stats('{order}').print_stats({restriction!r}, 15)",
                str(stats),
            ],
            env=sized.env,
        ).stdout
        lines = [_short(line) for line in shown.splitlines() if line.strip()]
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        header = next((line.strip() for line in lines if "function calls" in line), "")
        print(f"\ncProfile of one `comet task --json` at {size} records, {what}, top 15 by {order}")
        print(f"  ({header})")
        for line in lines[start:]:
            print("  " + line)


# `python -m cProfile -m comet_git` would write no figures: the fast path ends the process with
# os._exit (it skips the interpreter's teardown), so here os._exit ends the profile instead.
PROFILED_TASK = """
import cProfile, os, sys
stats = sys.argv[1]
sys.argv = ["comet", "task", *sys.argv[2:]]
profile = cProfile.Profile()

def end(code):
    profile.disable()
    profile.dump_stats(stats)
    sys.stdout.flush()
    real_exit(code)

real_exit, os._exit = os._exit, end
from comet_git.entry import main
profile.enable()
main()
"""


def _short(line: str) -> str:
    """Paths in pstats lines without the venv's and the interpreter's prefixes."""
    return re.sub(r"\S*/(site-packages|lib/python3\.\d+)/", "", line)


_IMPORT_LINE = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|(\s*)(\S+)")


def print_imports(stderr: str, size: int, top: int = 15) -> None:
    rows: list[tuple[int, int, int, str]] = []  # (self us, cumulative us, depth, module)
    for line in stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match:
            self_us, cumulative, indent, module = match.groups()
            rows.append((int(self_us), int(cumulative), (len(indent) - 1) // 2, module))
    if not rows:
        print("python -X importtime gave no figures")
        return
    total = sum(row[0] for row in rows)
    print(f"\npython -X importtime, one `comet task --json` at {size} records: {len(rows)} modules,")
    print(f"{total / 1000:.1f} ms of imports in all (self times summed)")
    print(f"  top {top} by self time:")
    for self_us, cumulative, _, module in sorted(rows, reverse=True)[:top]:
        print(f"    {self_us / 1000:7.2f} ms self {cumulative / 1000:7.2f} ms cumulative  {module}")
    top_level = [row for row in rows if row[2] == 0]
    print(f"  top {top} top-level imports by cumulative time:")
    for _self, cumulative, _, module in sorted(top_level, key=lambda row: -row[1])[:top]:
        print(f"    {cumulative / 1000:7.2f} ms cumulative  {module}")


def parse_sizes(text: str) -> Sequence[int]:
    return [int(size.replace("_", "")) for size in text.split(",") if size.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument(
        "--sizes", default="1000,10000,100000", help="comma-separated store sizes (default 1000,10000,100000)"
    )
    parser.add_argument("--runs", type=int, default=30, help=f"runs per case at sizes ≤ {LARGE} (default 30)")
    parser.add_argument(
        "--large-runs", type=int, default=10, help=f"runs per case above {LARGE} (default 10)"
    )
    parser.add_argument("--no-profile", action="store_true", help="skip the importtime and cProfile section")
    args = parser.parse_args()
    sizes = parse_sizes(args.sizes)
    profile_size = min(sizes, key=lambda size: abs(size - PROFILE_SIZE))

    with bench_environment(args) as bench:
        started = time.perf_counter()
        overview: list[tuple[int, Summary]] = []
        for size in sizes:
            sized, repo, _ = prepare(bench, size, args.seed)
            warm(sized, repo, size)
            runs = args.runs if size <= LARGE else args.large_runs
            for summary in measure(sized, repo, size, runs):
                overview.append((size, summary))
            if size == profile_size and not args.no_profile:
                profile(sized, repo, size)
        print("\nsummary:")
        for size, summary in overview:
            print(
                f"  {size:>7} records  {summary.name:<28} median {summary.median * 1000:6.1f} ms"
                f"  p95 {summary.p95 * 1000:6.1f} ms  (n={summary.n})"
            )
        for size, summary in overview:
            if summary.name.endswith("warm"):  # the default; "by itself" is COMET_WARM=0
                for line in target_line(size, summary):
                    print("  " + line)
        print(f"total benchmark time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
