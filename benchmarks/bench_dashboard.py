"""Benchmark: the Dashboard's pages on a store of 10,000 records, and the server's memory.

For the overview, the record list (first page) and "what the agent gets" (a request
answered): time to first byte (the response's headers, sent once the page is rendered: the
server time) and full page load (the page and the stylesheet and script it links), median
over alternating runs, through a real `comet dashboard` on 127.0.0.1.  Target: server time
≤ 150 ms per page.  Then the server process's resident memory (now and at its peak).  No
assertion: the figures are printed.

    python3 benchmarks/bench_dashboard.py [--records 10000] [--runs 20] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import http.client
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

from _common import (
    Sample,
    Summary,
    add_common_arguments,
    alternate,
    bench_environment,
    generate_store,
    make_repository,
    print_table,
    verdict,
)

TARGET_SECONDS = 0.150
PAGES = {
    "overview": "/",
    "records (first page)": "/records",
    "what the agent gets": "/agent?task=fix+the+login+form&path=src%2Fauth%2Flogin.py&phase=build",
}
ASSETS = ("/static/dashboard.css", "/static/dashboard.js")


class Client:
    """Plain HTTP to the dashboard, with the cookie its launch URL sets."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        assert parts.port is not None
        self.port = parts.port
        status, headers, _ = self.get(f"/?{parts.query}")
        if status != 303:
            raise SystemExit(f"the launch URL answered {status}, not 303")
        self.cookie = headers["set-cookie"].split(";")[0]

    def get(self, path: str) -> tuple[int, dict[str, str], bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            headers = {"Host": f"127.0.0.1:{self.port}"}
            if hasattr(self, "cookie"):
                headers["Cookie"] = self.cookie
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def first_byte(self, path: str) -> Sample:
        started = time.perf_counter()
        status, _, body = self.get(path)
        if status != 200:
            raise SystemExit(f"{path} answered {status}: {body[:500]!r}")
        return Sample(time.perf_counter() - started, 0.0, len(body))

    def full_load(self, path: str) -> Sample:
        started = time.perf_counter()
        size = sum(len(self.get(item)[2]) for item in (path, *ASSETS))
        return Sample(time.perf_counter() - started, 0.0, size)


def resident_memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (peak) of the process, in KiB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            found[name] = int(value.split()[0])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--records", type=int, default=10_000, help="records in the store (default 10000)")
    parser.add_argument("--runs", type=int, default=20, help="measured runs of each case (default 20)")
    args = parser.parse_args()

    with bench_environment(args, extras="dashboard") as bench:
        repo, key = make_repository(bench)
        took = generate_store(bench, key, args.records, seed=args.seed)
        print(f"store: {args.records} records generated in {took:.1f} s (project {key})")
        bench.run_comet("memory", "list", "--json", cwd=repo)  # builds the index
        server = subprocess.Popen(
            bench.comet_argv("dashboard", str(repo), "--no-browser"),
            env=bench.env,
            cwd=repo,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            client = Client(server.stdout.readline().strip())
            started_memory = resident_memory(server.pid)
            for path in PAGES.values():  # warm: the first request of each page compiles its template
                client.full_load(path)
            cases = []
            for name, path in PAGES.items():
                cases.append((f"{name}: first byte", lambda path=path: client.first_byte(path)))
                cases.append((f"{name}: full load", lambda path=path: client.full_load(path)))
            results = alternate(cases, args.runs)
            memory = resident_memory(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=10)
        summaries = [Summary.of(name, samples) for name, samples in results.items()]
        print_table(summaries, title=f"dashboard pages, {args.records} records, warm server")
        for summary in summaries:
            if summary.name.endswith("first byte"):
                print(verdict(summary.name, summary.median, TARGET_SECONDS))
        print(
            f"server memory: {started_memory['VmRSS'] / 1024:.0f} MiB at start, "
            f"{memory['VmRSS'] / 1024:.0f} MiB after the runs, peak {memory['VmHWM'] / 1024:.0f} MiB"
        )


if __name__ == "__main__":
    main()
