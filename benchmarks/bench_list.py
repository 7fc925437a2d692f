"""Benchmark: `comet memory list --json`, whole process, warm index, 10,000 records.

Target: median ≤ 150 ms.  Measured beside `comet --version` (interpreter + click
floor), alternating runs.  No assertion: the figures are printed.

    python3 benchmarks/bench_list.py [--records 10000] [--runs 30] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import json
import time

from _common import (
    RACY_SETTLE_SECONDS,
    Summary,
    add_common_arguments,
    alternate,
    bench_environment,
    count_opens,
    generate_store,
    make_repository,
    print_table,
    time_process,
    verdict,
)

TARGET_SECONDS = 0.150


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--records", type=int, default=10_000, help="records in the store (default 10000)")
    parser.add_argument("--runs", type=int, default=30, help="measured runs of each case (default 30)")
    args = parser.parse_args()

    with bench_environment(args) as bench:
        repo, key = make_repository(bench)
        took = generate_store(bench, key, args.records, seed=args.seed)
        print(f"store: {args.records} records generated in {took:.1f} s (project {key})")

        list_argv = bench.comet_argv("memory", "list", "--json")
        # Ranked (any word, BM25): three words, one of them in no record.
        query_argv = bench.comet_argv("memory", "list", "--query", "tests migration xylophone", "--json")
        version_argv = bench.comet_argv("--version")

        # Warm up: the first list builds the index and renders profile.md; that
        # file is "racy" (written < 2 s ago) on the next list, so settle and warm again.
        first = time_process(list_argv, env=bench.env, cwd=repo)
        time.sleep(RACY_SETTLE_SECONDS)
        time_process(list_argv, env=bench.env, cwd=repo)
        time.sleep(RACY_SETTLE_SECONDS)
        time_process(list_argv, env=bench.env, cwd=repo)
        print(f"first list (builds the index): {first.wall:.2f} s")

        listed = json.loads(bench.run_comet("memory", "list", "--json", cwd=repo).stdout)
        print(
            f"list --json prints {len(listed['records'])} records, "
            f"{len(bench.run_comet('memory', 'list', '--json', cwd=repo).stdout) / 1e6:.1f} MB"
        )

        results = alternate(
            [
                ("comet --version", lambda: time_process(version_argv, env=bench.env, cwd=repo)),
                ("comet memory list --json", lambda: time_process(list_argv, env=bench.env, cwd=repo)),
                ("comet memory list --query ...", lambda: time_process(query_argv, env=bench.env, cwd=repo)),
            ],
            args.runs,
        )
        summaries = [Summary.of(name, samples) for name, samples in results.items()]
        print_table(
            summaries, title=f"whole process, warm index, {args.records} records, {args.runs} runs each"
        )
        floor, listing, _ = summaries
        print(f"\nlist minus the --version floor (medians): {(listing.median - floor.median) * 1000:.1f} ms")
        print(verdict("list median", listing.median, TARGET_SECONDS))

        opens = count_opens(list_argv, env=bench.env, cwd=repo, home=bench.home)
        if opens is None:
            print("strace not available: open counts skipped")
        else:
            print(
                "files opened by one warm list (strace): " + ", ".join(f"{k} {v}" for k, v in opens.items())
            )


if __name__ == "__main__":
    main()
