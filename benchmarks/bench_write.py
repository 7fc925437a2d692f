"""Benchmark: the cost of one write (`comet memory remember`, `comet memory correct`) by store size,
and `comet task` right after a write.

Target: a write at 10,000 records within 2x of a write at 1,000 (a write costs what it changes,
not what the store holds); `comet task` right after a write no slower than bench_task.py's warm
figure.  Each size gets its own store and repository.  Each round runs, in turn: `comet
--version` (the floor), a `remember` of a new statement, a `correct` of another generated
record, and `comet task --json` at once after that write (comet's own files are then "racy").
No assertion: the figures are printed.

    python3 benchmarks/bench_write.py [--sizes 1000,10000] [--runs 20] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
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
    make_repository,
    print_table,
    record_files,
    time_process,
)

WITHIN = 2.0  # a write at the largest size within this factor of one at the smallest
TASK = (
    "--task",
    "Refactor the auth module error handling",
    "--path",
    "src/auth/login.py",
    "--phase",
    "build",
)
CASES = ("comet --version", "remember", "correct", "task right after a write")


def prepare(bench: BenchEnv, size: int, seed: int) -> tuple[BenchEnv, Path, list[str]]:
    """A store of `size` records with a warm index; returns the ids of its project records."""
    sized = bench.with_home(bench.work / f"comet-home-{size}")
    repo, key = make_repository(sized, name=f"acme-app-{size}")
    took = generate_store(sized, key, size, seed=seed)
    first = time_process(sized.comet_argv("memory", "list", "--json"), env=sized.env, cwd=repo)
    for _ in range(2):  # past the racy window, so the index is truly warm
        time.sleep(RACY_SETTLE_SECONDS)
        time_process(sized.comet_argv("memory", "list", "--json"), env=sized.env, cwd=repo)
    print(f"\n== {size} records (generated in {took:.1f} s, first list {first.wall:.2f} s, project {key})")
    return sized, repo, [path.stem for path in record_files(sized.home, key)]


def measure(sized: BenchEnv, repo: Path, ids: list[str], size: int, runs: int) -> list[Summary]:
    counter = itertools.count(1)
    to_correct = iter(ids)

    def run(*args: str) -> Sample:
        return time_process(sized.comet_argv(*args), env=sized.env, cwd=repo)

    def remember() -> Sample:
        number = next(counter)
        return run(
            "memory", "remember", "--text", f"Benchmark statement {number}: keep writes cheap.", "--json"
        )

    def correct() -> Sample:
        record_id = next(to_correct)
        return run(
            "memory", "correct", "--id", record_id, "--text", f"Corrected by the benchmark ({record_id})."
        )

    results = alternate(
        [
            (CASES[0], lambda: run("--version")),
            (CASES[1], remember),
            (CASES[2], correct),
            (CASES[3], lambda: run("task", *TASK, "--json")),
        ],
        runs,
    )
    summaries = [Summary.of(name, samples) for name, samples in results.items()]
    print_table(summaries, title=f"whole process, {size} records, {runs} runs each")
    listed = json.loads(sized.run_comet("memory", "list", "--json", cwd=repo).stdout)["records"]
    remembered = sum(1 for record in listed if record["text"].startswith("Benchmark statement"))
    if remembered != runs:
        raise SystemExit(f"{remembered} of the {runs} remembered statements are listed")
    return summaries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument(
        "--sizes", default="1000,10000", help="comma-separated store sizes (default 1000,10000)"
    )
    parser.add_argument("--runs", type=int, default=20, help="rounds per size (default 20)")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",") if size.strip()]

    with bench_environment(args) as bench:
        medians: dict[int, dict[str, float]] = {}
        for size in sizes:
            sized, repo, ids = prepare(bench, size, args.seed)
            summaries = measure(sized, repo, ids, size, args.runs)
            medians[size] = {summary.name: summary.median for summary in summaries}
        small, large = min(sizes), max(sizes)
        print("\nsummary (medians):")
        for size in sizes:
            print(
                "  "
                + f"{size:>7} records  "
                + "  ".join(f"{n} {medians[size][n] * 1000:.1f} ms" for n in CASES)
            )
        if small != large:
            for name in CASES[1:3]:
                ratio = medians[large][name] / medians[small][name]
                state = "within" if ratio <= WITHIN else "MISSES"
                print(f"{name} at {large} / at {small}: {ratio:.2f}x — {state} the target of {WITHIN:.0f}x")


if __name__ == "__main__":
    main()
