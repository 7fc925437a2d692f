"""Benchmark: incremental refresh after ONE hand edit in a store of 10,000 records.

Target: ≤ 100 ms for picking up the edit.  Each round edits the text of one
record file by hand (a different file each round, untimed), then times, in order:

- "list after 1 hand edit": the first `comet memory list --json` after the edit
  (it takes the edit in as a correction: version bump, history, profile.md);
- "list right after (racy)": the next list; files comet wrote < 2 s ago are
  "racy" and get re-hashed;
- "list 2 s later (settling)": after a pause past the racy window;
- "list, unchanged store": the list after that, a clean warm index;
- "comet --version": the interpreter + click floor.

The figure held against the target is the refresh itself: the first list after
the edit minus the list on the unchanged store, both measured in the same run.
The whole-process time is printed too; it cannot be under 100 ms at this size,
since printing 10,000 records (9 MB of JSON) alone takes longer than that.
No assertion: the figures are printed.

    python3 benchmarks/bench_refresh.py [--records 10000] [--runs 15] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import random
import re
import time
from pathlib import Path

from _common import (
    RACY_SETTLE_SECONDS,
    Summary,
    add_common_arguments,
    bench_environment,
    count_opens,
    generate_store,
    make_repository,
    print_table,
    record_files,
    time_process,
    verdict,
)

TARGET_SECONDS = 0.100
_VERSION = re.compile(r"^version: *(\d+)\s*$", re.MULTILINE)


def hand_edit(path: Path, round_number: int) -> int:
    """Change the text below the front-matter, as a person in an editor would; returns the version."""
    raw = path.read_text(encoding="utf-8")
    head, fence, body = raw.partition("\n---\n")
    if not fence:
        raise SystemExit(f"{path} has no closing front-matter fence")
    lines = body.rstrip("\n").split("\n")
    lines[-1] = lines[-1].rstrip() + f" Also: keep the edit log short (hand edit {round_number})."
    with path.open("w", encoding="utf-8") as handle:  # in place, as many editors save
        handle.write(head + fence + "\n".join(lines) + "\n")
    match = _VERSION.search(head)
    return int(match.group(1)) if match else 0


def version_of(path: Path) -> int:
    match = _VERSION.search(path.read_text(encoding="utf-8"))
    return int(match.group(1)) if match else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--records", type=int, default=10_000, help="records in the store (default 10000)")
    parser.add_argument("--runs", type=int, default=15, help="rounds (default 15; each takes ~3-5 s)")
    args = parser.parse_args()

    with bench_environment(args) as bench:
        repo, key = make_repository(bench)
        took = generate_store(bench, key, args.records, seed=args.seed)
        print(f"store: {args.records} records generated in {took:.1f} s (project {key})")
        files = record_files(bench.home, key)
        random.Random(args.seed).shuffle(files)
        to_edit = iter(files)

        list_argv = bench.comet_argv("memory", "list", "--json")
        version_argv = bench.comet_argv("--version")

        def list_once() -> float:
            return time_process(list_argv, env=bench.env, cwd=repo).wall

        first = list_once()  # builds the index and profile.md
        time.sleep(RACY_SETTLE_SECONDS)
        list_once()
        time.sleep(RACY_SETTLE_SECONDS)
        list_once()
        print(f"first list (builds the index): {first:.2f} s")

        names = (
            "comet --version",
            "list, unchanged store",
            "list after 1 hand edit",
            "list right after (racy)",
            "list 2 s later (settling)",
        )
        samples: dict[str, list] = {name: [] for name in names}
        for round_number in range(1, args.runs + 1):
            samples["comet --version"].append(time_process(version_argv, env=bench.env, cwd=repo))
            samples["list, unchanged store"].append(time_process(list_argv, env=bench.env, cwd=repo))
            path = next(to_edit)
            before = hand_edit(path, round_number)
            samples["list after 1 hand edit"].append(time_process(list_argv, env=bench.env, cwd=repo))
            after = version_of(path)
            if after <= before:
                raise SystemExit(
                    f"the hand edit of {path.name} was not taken in (version {before} -> {after})"
                )
            samples["list right after (racy)"].append(time_process(list_argv, env=bench.env, cwd=repo))
            time.sleep(RACY_SETTLE_SECONDS)
            samples["list 2 s later (settling)"].append(time_process(list_argv, env=bench.env, cwd=repo))
            print(f"\r  round {round_number}/{args.runs}", end="", flush=True)
        print()

        summaries = {name: Summary.of(name, samples[name]) for name in names}
        print_table(
            list(summaries.values()),
            title=f"whole process, {args.records} records, {args.runs} rounds (each edit: a different file)",
        )
        ms = {name: summary.median * 1000 for name, summary in summaries.items()}
        extra = ms["list after 1 hand edit"] - ms["list, unchanged store"]
        print(
            verdict(
                "\nthe refresh after 1 hand edit (first list after it minus unchanged list)",
                extra / 1000,
                TARGET_SECONDS,
            )
        )
        print(
            f"  whole process: list after the edit {ms['list after 1 hand edit']:.1f} ms,"
            f" unchanged list {ms['list, unchanged store']:.1f} ms, floor {ms['comet --version']:.1f} ms"
        )

        # Which files one edit makes comet open (a separate, untimed run under strace).
        path = next(to_edit)
        hand_edit(path, 0)
        opens = count_opens(list_argv, env=bench.env, cwd=repo, home=bench.home)
        if opens is None:
            print("strace not available: open counts skipped")
            return
        print(
            "files opened by the list after 1 hand edit: " + ", ".join(f"{k} {v}" for k, v in opens.items())
        )
        racy = count_opens(list_argv, env=bench.env, cwd=repo, home=bench.home)
        if racy is not None:
            print("files opened by the list right after: " + ", ".join(f"{k} {v}" for k, v in racy.items()))
        time.sleep(RACY_SETTLE_SECONDS)
        list_once()
        time.sleep(RACY_SETTLE_SECONDS)
        list_once()
        settled = count_opens(list_argv, env=bench.env, cwd=repo, home=bench.home)
        if settled is not None:
            print(
                "files opened by a list, unchanged store: "
                + ", ".join(f"{k} {v}" for k, v in settled.items())
            )


if __name__ == "__main__":
    main()
