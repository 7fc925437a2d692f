"""Benchmark: `comet learn` over 20,000 commit events; memory stays flat as the journal grows.

Target: ≤ 10 s for 20,000 commit events.  The repository is the one bench_import.py
writes with `git fast-import` (the user's own commits, realistic subjects and paths).
For each size (default 5,000, 10,000 and 20,000 newest commits) a fresh COMET_HOME gets
`comet init --no-hooks` and `comet journal import-history --max N`; then `comet learn`
is timed twice: the first run processes every event, the second finds nothing pending
but recounts the habits; then `comet journal compact` (the journal's size before and after)
and `comet learn` once more over the compacted journal.  Each run's peak resident memory
(ru_maxrss of the child) is printed beside the journal's size: flat memory means the peak
does not grow with N.
The baseline, measured in the same run, is `comet journal list --type task.completed`,
which streams the same journal without learning anything.

    python3 benchmarks/bench_learn.py [--sizes 5000,10000,20000] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from _common import BenchEnv, add_common_arguments, bench_environment
from bench_import import build_repository, fresh_store

TARGET_SECONDS = 10.0  # issue 14: learn over 20,000 commits in at most 10 s
MEASURE = (
    "import resource, subprocess, sys, time\n"
    "started = time.perf_counter()\n"
    "done = subprocess.run(sys.argv[1:], capture_output=True)\n"
    "wall = time.perf_counter() - started\n"
    "sys.stderr.buffer.write(done.stderr)\n"
    "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(done.returncode, wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)\n"
    "sys.stdout.buffer.write(done.stdout)\n"
)


def measured(bench: BenchEnv, repo: Path, *args: str) -> tuple[float, int, float, str]:
    """(wall seconds, peak RSS in KiB, CPU seconds, stdout) of one comet run in its own parent."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *bench.comet_argv(*args)],
        env=bench.env,
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    first, _, rest = done.stdout.partition("\n")
    code, wall, rss, cpu = first.split()
    if code != "0":
        raise SystemExit(f"comet {' '.join(args)} failed ({code}):\n{done.stderr[-2000:]}")
    return float(wall), int(rss), float(cpu), rest


def journal_bytes(home: Path) -> int:
    return sum(
        p.stat().st_size for p in home.glob("projects/*/journal/*.jsonl") if p.name != "processing.jsonl"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_common_arguments(parser)
    parser.add_argument(
        "--sizes", default="5000,10000,20000", help="commit counts (default 5000,10000,20000)"
    )
    parser.add_argument("--paths", type=int, default=3000, help="distinct file paths in the repository")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    started = time.perf_counter()
    with bench_environment(args) as bench:
        repo = build_repository(bench, max(sizes), args.paths, args.seed)
        print(f"\n{'commits':>8} {'journal':>9} {'run':<24} {'wall':>8} {'CPU':>8} {'peak RSS':>9}")
        figures: dict[int, float] = {}
        for size in sizes:
            env = fresh_store(bench, repo, f"home-learn-{size}")
            env.run_comet("journal", "import-history", "--max", str(size), "--json", cwd=repo)
            size_mb = journal_bytes(env.home) / 1e6
            cases = [
                ("journal list (baseline)", ("journal", "list", "--type", "task.completed", "--json")),
                ("learn, all pending", ("learn", "--json")),
                ("learn again, none pending", ("learn", "--json")),
                ("journal compact", ("journal", "compact", "--json")),
                ("learn after compaction", ("learn", "--json")),
            ]
            for label, argv in cases:
                wall, rss, cpu, out = measured(env, repo, *argv)
                print(
                    f"{size:>8} {size_mb:>7.1f}MB {label:<24} {wall:>7.2f}s {cpu:>7.2f}s {rss / 1024:>7.1f}MB"
                )
                if label == "journal compact":
                    for name, sizes_of in json.loads(out)["stores"].items():
                        print(
                            f"{'':>8} {name}: {sizes_of['folded']} events folded; journal"
                            f" {sizes_of['sizeBefore'] / 1e6:.1f} MB -> {sizes_of['sizeAfter'] / 1e6:.1f} MB"
                        )
                if label.startswith("learn, all"):
                    figures[size] = wall
                    report = json.loads(out)
                    created = [r for r in report["results"] if r["status"] == "applied"]
                    print(
                        f"{'':>8} read {report['events']['read']} events, processed"
                        f" {report['events']['processed']}, {len(created)} records formed or updated"
                    )
        largest = max(sizes)
        state = "within" if figures[largest] <= TARGET_SECONDS else "MISSES"
        print(
            f"\nlearn over {largest} commit events: {figures[largest]:.2f} s — {state} the target of"
            f" {TARGET_SECONDS:.0f} s"
        )
    print(f"total benchmark time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
