"""Benchmark: `comet repair`, a full rebuild of the index from the Markdown records.

Targets: ≤ 3 s at 10,000 records, ≤ 30 s at 100,000 records.  Two cases per size,
alternating with the `comet --version` floor:
- "repair": the usual case, a sound index exists (pending hand edits are taken
  in first, then the index is rebuilt into a new file and swapped in);
- "repair, no index": the index files were deleted before the run.
No assertion: the figures are printed.

    python3 benchmarks/bench_repair.py [--sizes 10000,100000] [--runs 5] [--large-runs 1]
"""

from __future__ import annotations

import argparse
import json
import time

from _common import (
    BenchEnv,
    Summary,
    add_common_arguments,
    alternate,
    bench_environment,
    generate_store,
    index_path,
    make_repository,
    print_table,
    remove_index,
    time_process,
)

TARGETS = {10_000: 3.0, 100_000: 30.0}
LARGE = 20_000  # sizes above this get --large-runs runs


def target_for(size: int) -> float:
    """The target at `size`: the spec's figures, linear in between (3 s per 10,000 records)."""
    return TARGETS.get(size, 3.0 * size / 10_000)


def bench_size(bench: BenchEnv, size: int, runs: int, seed: int) -> list[Summary]:
    sized = bench.with_home(bench.work / f"comet-home-{size}")
    repo, key = make_repository(sized, name=f"acme-app-{size}")
    took = generate_store(sized, key, size, seed=seed)
    print(f"\n== {size} records (generated in {took:.1f} s, project {key})")

    repair_argv = sized.comet_argv("repair", "--json")
    version_argv = sized.comet_argv("--version")

    started = time.perf_counter()
    report = json.loads(sized.run_comet("repair", "--json", cwd=repo).stdout)
    first = time.perf_counter() - started
    records = sum(store["records"] for store in report["stores"])
    unreadable = len(report["unrecoverable"])
    print(
        f"first repair (no index yet): {first:.2f} s; {records} records indexed, {unreadable} unreadable; "
        f"index {index_path(sized.home).stat().st_size / 1e6:.1f} MB"
    )
    if records != size or unreadable:
        raise SystemExit(
            f"expected {size} readable records, the repair report says {records} ({unreadable} bad)"
        )

    def before_each(name: str) -> None:
        if name == "comet repair, no index":
            remove_index(sized.home)  # untimed

    results = alternate(
        [
            ("comet --version", lambda: time_process(version_argv, env=sized.env, cwd=repo)),
            ("comet repair", lambda: time_process(repair_argv, env=sized.env, cwd=repo)),
            ("comet repair, no index", lambda: time_process(repair_argv, env=sized.env, cwd=repo)),
        ],
        runs,
        before_each=before_each,
    )
    summaries = [Summary.of(name, samples) for name, samples in results.items()]
    print_table(summaries, title=f"comet repair, {size} records, {runs} run(s) each")
    target = target_for(size)
    for summary in summaries[1:]:
        state = "within" if summary.median <= target else "MISSES"
        print(f"{summary.name}: median {summary.median:.2f} s — {state} the target of {target:.0f} s")
    return summaries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument(
        "--sizes",
        default="10000",
        help="comma-separated store sizes (default 10000; e.g. 10000,100000 for both targets)",
    )
    parser.add_argument("--runs", type=int, default=5, help=f"runs per case at sizes ≤ {LARGE} (default 5)")
    parser.add_argument("--large-runs", type=int, default=1, help=f"runs per case above {LARGE} (default 1)")
    args = parser.parse_args()
    sizes = [int(size.replace("_", "")) for size in args.sizes.split(",") if size.strip()]

    with bench_environment(args) as bench:
        started = time.perf_counter()
        overview: list[tuple[int, Summary]] = []
        for size in sizes:
            runs = args.runs if size <= LARGE else args.large_runs
            for summary in bench_size(bench, size, runs, args.seed):
                overview.append((size, summary))
        print("\nsummary (medians):")
        for size, summary in overview:
            if summary.name != "comet --version":
                target = target_for(size)
                print(
                    f"  {size:>7} records {summary.name:<24} {summary.median:6.2f} s (target {target:.0f} s)"
                )
        print(f"total benchmark time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
