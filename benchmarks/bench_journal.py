"""Benchmark: journal appends per second under concurrent writers.

1, 2, 4 and 8 processes each append N single-event batches with
`comet_git.journal.log.Journal.append` to the same project journal (what hook workers
from several worktrees do), all starting at the same instant.  Each writer count gets
a fresh COMET_HOME (optionally pre-filled with --prefill events, as a journal later in
a busy month).  Prints appends per second over the whole run and the latency of one
append, then checks that the journal holds exactly writers * N events, with unique
ids and no unreadable line.  No assertion on timing.

The writers run in the benchmark venv's interpreter (this script's `_writer` mode).

    python3 benchmarks/bench_journal.py [--writers 1,2,4,8] [--appends 200] [--prefill 0]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _common import BenchEnv, add_common_arguments, bench_environment

PROJECT_KEY = "acme-app-0badc0de"
START_DELAY_SECONDS = 1.5  # time for every writer to start and import comet_git before the go


# -- the writer (runs in the benchmark venv) ----------------------------------------------


def _event(writer: int, number: int, at: str) -> object:
    from comet_git.journal.events import Event, stable_id

    return Event(
        event_id=stable_id("ev", PROJECT_KEY, "bench", str(writer), str(number)),
        episode_id=stable_id("ep", PROJECT_KEY, "branch", "main"),
        type="repo.commit",
        at=at,
        scope="project",
        project_key=PROJECT_KEY,
        actor="user",
        source="git-hook:post-commit",
        context={
            "commit": f"{writer:08x}{number:032x}",
            "parents": [f"{writer:08x}{number - 1:032x}"],
            "branch": "main",
            "authorIsUser": True,
            "subject": f"Fix the retry policy of the API client, change {number} (#{1000 + number})",
            "trailers": {"keys": [], "signedOff": False, "coAuthors": 0},
            "issues": [f"#{1000 + number}"],
            "files": [
                {"path": f"src/api/client_{number % 7}.py", "added": 12, "deleted": 3},
                {"path": f"tests/api/test_client_{number % 7}.py", "added": 30, "deleted": 0},
            ],
            "filesChanged": 2,
            "filesTruncated": False,
            "added": 42,
            "deleted": 3,
        },
    )


def _writer(home: Path, writer: int, count: int, start_at: float) -> None:
    from comet_git.journal.log import Journal
    from comet_git.records.model import utc_now
    from comet_git.store import Home

    journal = Journal(Home(home).project_store(PROJECT_KEY).create())
    at = utc_now()
    events = [_event(writer, number, at) for number in range(count)]
    delay = start_at - time.time()
    if delay > 0:
        time.sleep(delay)
    latencies: list[float] = []
    added = duplicates = 0
    started = time.time()
    for event in events:
        before = time.perf_counter()
        result = journal.append([event])  # type: ignore[list-item]
        latencies.append(time.perf_counter() - before)
        added += len(result.added)
        duplicates += result.duplicates
    ended = time.time()
    json.dump(
        {
            "started": started,
            "ended": ended,
            "added": added,
            "duplicates": duplicates,
            "latencies": latencies,
        },
        sys.stdout,
    )


def _prefill(home: Path, count: int) -> None:
    from comet_git.journal.log import Journal
    from comet_git.records.model import utc_now
    from comet_git.store import Home

    journal = Journal(Home(home).project_store(PROJECT_KEY).create())
    at = utc_now()
    journal.append([_event(999, number, at) for number in range(count)])  # type: ignore[misc]


# -- the benchmark ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    writers: int
    expected: int  # writers * appends
    seconds: float  # first writer's start to last writer's end
    added: int
    duplicates: int
    latencies: list[float]  # of one append, sorted
    lines: int  # event lines written during the run
    ids: int  # distinct ids among them
    unreadable: int

    @property
    def sound(self) -> bool:
        return (
            self.added == self.lines == self.ids == self.expected
            and self.unreadable == 0
            and self.duplicates == 0
        )


def run_level(bench: BenchEnv, writers: int, appends: int, prefill: int) -> Level:
    home = Path(tempfile.mkdtemp(prefix=f"home-{writers}-", dir=bench.work))
    script = str(Path(__file__).resolve())
    if prefill:
        subprocess.run(
            [str(bench.python), script, "_prefill", str(home), str(prefill)],
            env=bench.env,
            cwd=bench.work,
            check=True,
        )
    start_at = time.time() + START_DELAY_SECONDS
    processes = [
        subprocess.Popen(
            [str(bench.python), script, "_writer", str(home), str(writer), str(appends), repr(start_at)],
            env=bench.env,
            cwd=bench.work,
            stdout=subprocess.PIPE,
            text=True,
        )
        for writer in range(writers)
    ]
    reports = []
    for process in processes:
        out, _ = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a writer failed ({process.returncode})")
        reports.append(json.loads(out))
    lines, ids, unreadable = read_journal(home)
    return Level(
        writers=writers,
        expected=writers * appends,
        seconds=max(r["ended"] for r in reports) - min(r["started"] for r in reports),
        added=sum(r["added"] for r in reports),
        duplicates=sum(r["duplicates"] for r in reports),
        latencies=sorted(x for r in reports for x in r["latencies"]),
        lines=lines - prefill,
        ids=ids - prefill,
        unreadable=unreadable,
    )


def read_journal(home: Path) -> tuple[int, int, int]:
    """(event lines, distinct event ids, unreadable lines) of the project journal."""
    lines = unreadable = 0
    ids: set[str] = set()
    for path in sorted((home / "projects" / PROJECT_KEY / "journal").glob("*.jsonl")):
        if path.name == "processing.jsonl":
            continue
        for line in path.read_bytes().splitlines():
            if not line.strip():
                continue
            lines += 1
            try:
                ids.add(json.loads(line)["eventId"])
            except (ValueError, KeyError):
                unreadable += 1
    return lines, len(ids), unreadable


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_writer":
        _writer(Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "_prefill":
        _prefill(Path(sys.argv[2]), int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument(
        "--writers", default="1,2,4,8", help="writer counts, comma separated (default 1,2,4,8)"
    )
    parser.add_argument(
        "--appends", type=int, default=200, help="single-event appends per writer (default 200)"
    )
    parser.add_argument("--prefill", type=int, default=0, help="events already in the journal (default 0)")
    args = parser.parse_args()
    levels = [int(part) for part in args.writers.split(",") if part.strip()]

    with bench_environment(args) as bench:
        print(
            f"{args.appends} single-event appends per writer, journal pre-filled with {args.prefill} events"
        )
        rows = []
        for writers in levels:
            print(f"  {writers} writers ...", file=sys.stderr, flush=True)
            rows.append(run_level(bench, writers, args.appends, args.prefill))
        headers = ("writers", "events", "wall", "appends/s", "append median", "p95", "max", "journal check")
        table = []
        for level in rows:
            check = (
                "ok: every event once"
                if level.sound
                else f"FAILED: {level.added} added, {level.lines} lines, {level.ids} ids, "
                f"{level.unreadable} unreadable, {level.duplicates} duplicates"
            )
            table.append(
                (
                    str(level.writers),
                    str(level.expected),
                    f"{level.seconds:.2f} s",
                    f"{level.added / level.seconds:,.0f}",
                    f"{statistics.median(level.latencies) * 1000:.2f} ms",
                    f"{statistics.quantiles(level.latencies, n=20, method='inclusive')[18] * 1000:.2f} ms",
                    f"{level.latencies[-1] * 1000:.1f} ms",
                    check,
                )
            )
        widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(headers)]
        print("\njournal appends under concurrent writers (one fresh journal per row)")
        print("  " + "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)))
        for cells in table:
            print("  " + "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)))


if __name__ == "__main__":
    main()
