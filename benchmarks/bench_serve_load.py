"""Benchmark: `comet serve` for a team, over PostgreSQL (--database) beside the embedded backend.

1. Load: USERS users of RECORDS records each (one generated store, imported for every user);
   CLIENTS concurrent Remote clients for SECONDS seconds, each request for one of the users:
   `task` 90% of the requests, and remember / correct / outcome the other 10%.  Requests per
   second, p50 / p95 / p99 by kind, errors (target 0), and afterwards every acknowledged write
   checked (the remembered records there, the last acknowledged correction their text, the
   acknowledged outcomes their counts).  The same run against the embedded backend beside it.
2. `comet task --json` through Remote at TASK_SIZE records for one user, over PostgreSQL and
   over the embedded backend, beside Local on the same records, alternating: the same ids
   delivered, and the medians (target: Remote's p50 at most 1.5 times Local's).

Without --database a throwaway PostgreSQL server is started (the system's binaries, as the
tests start one: tests/pgserver.py), with fsync on, as the embedded backend's writes are.
No assertion: the figures are printed.

    python3 benchmarks/bench_serve_load.py [--database URL] [--users 100] [--records 1000]
        [--clients 64] [--seconds 60] [--task-size 10000] [--runs 30] [--skip-embedded]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _common import REPO_ROOT, BenchEnv, add_common_arguments, bench_environment, run_checked, run_together
from bench_remote import compare_task, embedded_store, free_port, remote_client
from bench_task import REQUESTS, prepare

WRITE_SHARE = 0.1  # of the requests: remember, correct and outcome, a third each


# -- run by the benchmark venv's interpreter (it imports comet_git) ---------------------------------


def populate(args: argparse.Namespace) -> None:
    """Every user gets the generated store, and a token; prints the tokens.  The first user's
    copy is made as a user's would be (PostgreSQL: the store's export imported through the
    provider; embedded: the files, and the index built from them); the others are copies of
    the first's (rows copied by SQL; the folder, index included), the same records for each."""
    import shutil

    from comet_git.provider import Import, Query
    from comet_git.provider.archive import record_of
    from comet_git.provider.local import LocalProvider
    from comet_git.store import Home

    users = [f"u{number:03d}" for number in range(args.users)]
    tokens: dict[str, str] = {}
    if args.database:
        import psycopg

        from comet_git.server.postgres.backend import PostgresBackend

        archive = LocalProvider(Home(Path(args.home)), args.project).query(Query(export=True)).archive
        grouped: dict[tuple[str, str], list[Any]] = {}
        for item in archive:
            grouped.setdefault((item.scope, record_of(item.path)), []).append(item)
        backend = PostgresBackend(args.database)
        first = backend.provider_for(users[0], args.project)
        for (scope, record_id), files in grouped.items():
            first.apply(Import(record_id, scope, tuple(files)))
        for user in users:
            tokens[user] = backend.tokens.create(user)[0]
        backend.close()
        with psycopg.connect(args.database) as connection:
            for table in ("records", "path_anchors", "history_files", "tombstones"):  # not postings
                columns = ", ".join(
                    row[0]
                    for row in connection.execute(
                        "SELECT column_name FROM information_schema.columns WHERE table_name = %s"
                        " AND column_name NOT IN ('owner', 'rowid') ORDER BY ordinal_position",
                        (table,),
                    )
                )
                for user in users[1:]:
                    connection.execute(
                        f"INSERT INTO {table} (owner, {columns}) SELECT %s, {columns} FROM {table}"
                        " WHERE owner = %s",
                        (user, users[0]),
                    )
            connection.execute("ANALYZE records")  # else the join below is planned on no statistics
            for user in users[1:]:  # the search's postings, by the rowids of the user's own rows
                connection.execute(
                    "INSERT INTO postings (owner, token, rowid, tf, length)"
                    " SELECT %s, p.token, mine.rowid, p.tf, p.length FROM postings p"
                    " JOIN records first ON first.rowid = p.rowid"
                    " JOIN records mine ON mine.owner = %s AND mine.id = first.id WHERE p.owner = %s",
                    (user, user, users[0]),
                )
        # What autovacuum does to a server at rest, at once: the statistics, and the visibility
        # map that lets the candidate search read its rows from the indexes alone.
        with psycopg.connect(args.database, autocommit=True) as connection:
            connection.execute("VACUUM ANALYZE")
    else:
        from comet_git.server.tokens import TokenStore

        data = Path(args.data)
        first_home = data / "users" / users[0]
        for part in ("global", "projects"):  # the layout of a COMET_HOME, as the server keeps it
            shutil.copytree(Path(args.home) / part, first_home / part)
        LocalProvider(Home(first_home), args.project).query(Query())  # builds the user's index
        for user in users:
            if user != users[0]:
                shutil.copytree(first_home, data / "users" / user)
            tokens[user] = TokenStore(data).create(user)[0]
    print(json.dumps(tokens))


def load(args: argparse.Namespace) -> None:
    """The concurrent clients; prints the timings and what the check afterwards found."""
    import random
    import threading

    from comet_git.errors import CometError
    from comet_git.provider import Correct, Query, RecordOutcome, Remember
    from comet_git.provider.candidates import TaskRequest
    from comet_git.provider.remote import RemoteProvider
    from comet_git.records.model import utc_now
    from comet_git.store import Home

    tokens: dict[str, str] = json.loads(Path(args.tokens).read_text())
    users = sorted(tokens)
    home = Home(Path(args.home))
    tasks = [request[1] for request in REQUESTS]
    timings: dict[str, list[float]] = {"task": [], "remember": [], "correct": [], "outcome": []}
    errors: list[str] = []
    # What was acknowledged, to check afterwards: user -> id -> [text, outcomes]
    acknowledged: dict[str, dict[str, list[object]]] = {user: {} for user in users}
    lock = threading.Lock()
    stop_at = time.monotonic() + args.seconds

    def client(number: int) -> None:
        chance = random.Random(number)
        providers: dict[str, RemoteProvider] = {}
        mine: dict[str, list[str]] = {}  # user -> ids this client remembered
        count = 0
        while time.monotonic() < stop_at:
            count += 1
            user = users[(number + args.clients * (count // 50)) % len(users)]  # another user every 50
            provider = providers.get(user)
            if provider is None:
                provider = providers[user] = RemoteProvider(
                    home, args.project, args.url, tokens[user], timeout=60
                )
            draw = chance.random()
            kind = "task"
            if draw < WRITE_SHARE:
                kind = ("remember", "correct", "outcome")[int(draw / WRITE_SHARE * 3)]
                if kind != "remember" and not mine.get(user):
                    kind = "remember"
            started = time.perf_counter()
            try:
                if kind == "task":
                    provider.query(Query(task=TaskRequest(tasks[count % len(tasks)])))
                elif kind == "remember":
                    text = f"Load rule {number}-{count}: keep branch {number}-{count} green"
                    record_id = provider.apply(Remember(text=text)).id
                    mine.setdefault(user, []).append(record_id)
                    with lock:
                        acknowledged[user][record_id] = [text, 0]
                elif kind == "correct":
                    record_id = chance.choice(mine[user])
                    text = f"Load rule {number}-{count}: corrected"
                    provider.apply(Correct(record_id, text=text))
                    with lock:
                        acknowledged[user][record_id][0] = text
                else:
                    record_id = chance.choice(mine[user])
                    provider.apply(RecordOutcome(record_id, "used-successfully", utc_now()))
                    with lock:
                        acknowledged[user][record_id][1] = int(acknowledged[user][record_id][1]) + 1  # type: ignore[call-overload]
            except CometError as error:
                with lock:
                    errors.append(f"{kind}: {error.message}")
                continue
            with lock:
                timings[kind].append(time.perf_counter() - started)
        for provider in providers.values():
            provider.close()

    elapsed = run_together(args.clients, client)
    lost: list[str] = []
    for user, written in acknowledged.items():
        if not written:
            continue
        checker = RemoteProvider(home, args.project, args.url, tokens[user], timeout=120)
        found = {view.id: view.as_dict() for view in checker.query(Query(ids=tuple(written))).records}
        checker.close()
        for record_id, (text, outcomes) in written.items():
            data = found.get(record_id)
            counted = ((data or {}).get("application") or {}).get("counts", {}).get("used-successfully", 0)
            if data is None or data["text"] != text or counted != outcomes:
                lost.append(f"{user}/{record_id}")
    print(json.dumps({
        "seconds": elapsed, "timings": timings, "errors": errors[:20], "errorCount": len(errors),
        "written": sum(len(w) for w in acknowledged.values()), "lost": lost,
    }))  # fmt: skip


# -- the driver (the standard library only) ----------------------------------------------------------


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    sys.path.insert(0, str(REPO_ROOT))
    from tests.pgserver import PostgresServer

    root = Path(tempfile.mkdtemp(prefix="comet-bench-pg-"))
    server = PostgresServer(root).start(durable=True)
    try:
        yield server.url()
    finally:
        server.stop()
        subprocess.run(["rm", "-rf", str(root)], check=False)


def fresh_database(url: str, name: str) -> str:
    """A new database beside `url`'s (dropped first if a run left it): its URL."""
    base, _, _ = url.rpartition("/")
    sys.path.insert(0, str(REPO_ROOT))
    from tests.pgserver import bindir

    for sql in (f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'):
        run_checked([str(bindir() / "psql"), url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql])
    return f"{base}/{name}"


@contextlib.contextmanager
def serving(bench: BenchEnv, backend: list[str]) -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = bench.work / f"serve-{port}.log"
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            bench.comet_argv("serve", "--port", str(port), *backend), env=bench.env, stdout=log, stderr=log
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/v1/health", timeout=1) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit(f"comet serve did not start: {log_path.read_text()[-2000:]}") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=60)


def helper(bench: BenchEnv, *args: str) -> str:
    argv = [str(bench.python), str(Path(__file__).resolve()), *args]
    return run_checked(argv, env=bench.env).stdout


def load_average() -> str:
    with contextlib.suppress(OSError):
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    return "?"


def report(name: str, output: str, clients: int) -> None:
    data = json.loads(output)
    total = sum(len(values) for values in data["timings"].values())
    print(f"\n{name}: {clients} clients for {data['seconds']:.0f} s: {total / data['seconds']:.1f} requests/s"
          f" (load average after: {load_average()})")  # fmt: skip
    for kind, values in data["timings"].items():
        if len(values) >= 2:
            cuts = statistics.quantiles(values, n=100, method="inclusive")
            print(f"  {kind:<9} n={len(values):<6} p50 {statistics.median(values) * 1000:7.1f} ms"
                  f"  p95 {cuts[94] * 1000:7.1f} ms  p99 {cuts[98] * 1000:7.1f} ms")  # fmt: skip
    example = f" e.g. {data['errors'][0]}" if data["errors"] else ""
    print(f"  errors: {data['errorCount']} (target 0){example}")
    print(f"  writes acknowledged: {data['written']}; missing or not as acknowledged afterwards:"
          f" {len(data['lost'])} (target 0)")  # fmt: skip


def run_load(bench: BenchEnv, args: argparse.Namespace, home: Path, key: str, backend: list[str]) -> None:
    database = backend[1] if backend[0] == "--database" else None
    where = ["--database", database] if database else ["--data", backend[1]]
    name = "PostgreSQL" if database else "embedded"
    tokens = bench.work / f"tokens-{name}.json"
    started = time.perf_counter()
    tokens.write_text(helper(bench, "populate", *where, "--home", str(home), "--project", key,
                             "--users", str(args.users)))  # fmt: skip
    took = time.perf_counter() - started
    print(f"\n{name}: {args.users} users x {args.records} records loaded in {took:.0f} s")
    with serving(bench, backend) as url:
        client_home = bench.work / f"load-client-{name}"
        client_home.mkdir()
        output = helper(
            bench, "load", "--url", url, "--tokens", str(tokens), "--home", str(client_home),
            "--project", key, "--clients", str(args.clients), "--seconds", str(args.seconds),
        )  # fmt: skip
    report(name, output, args.clients)


def main() -> None:
    if sys.argv[1:2] in (["populate"], ["load"]):
        parser = argparse.ArgumentParser()
        parser.add_argument("--database")
        for name in ("--data", "--url", "--tokens", "--home", "--project"):
            parser.add_argument(name)
        for name in ("--users", "--clients"):
            parser.add_argument(name, type=int, default=1)
        parser.add_argument("--seconds", type=float, default=60)
        parsed = parser.parse_args(sys.argv[2:])
        (populate if sys.argv[1] == "populate" else load)(parsed)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--database", help="a PostgreSQL URL whose server to use (default: a throwaway one)")
    parser.add_argument("--users", type=int, default=100)
    parser.add_argument("--records", type=int, default=1000, help="records of each user")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument(
        "--task-size", type=int, default=10_000, help="records of the `comet task` comparison"
    )
    parser.add_argument("--runs", type=int, default=30, help="runs per case of the `comet task` comparison")
    parser.add_argument(
        "--skip-embedded", action="store_true", help="no load run against the embedded backend"
    )
    parser.add_argument("--skip-load", action="store_true", help="only the `comet task` comparison")
    args = parser.parse_args()
    print(f"load average before: {load_average()} on {os.cpu_count()} CPUs")
    with bench_environment(args, extras="server,postgres") as bench, contextlib.ExitStack() as stack:
        server_url = args.database or stack.enter_context(throwaway_postgres())
        if not args.skip_load:
            local, _, key = prepare(bench, args.records, args.seed)
            run_load(bench, args, local.home, key, ["--database", fresh_database(server_url, "comet_load")])
            if not args.skip_embedded:
                run_load(bench, args, local.home, key, ["--data", str(bench.work / "serve-data")])
        local, repo, key = prepare(bench, args.task_size, args.seed)
        database = fresh_database(server_url, "comet_task")
        tokens = json.loads(helper(bench, "populate", "--database", database, "--home", str(local.home),
                                   "--project", key, "--users", "1"))  # fmt: skip
        data = bench.work / "serve-data-task"
        token = embedded_store(bench, local, repo, data)
        with (
            serving(bench, ["--data", str(data)]) as on_files,
            serving(bench, ["--database", database]) as url,
        ):
            remotes = {
                "Remote, embedded": remote_client(bench, on_files, token, "client-embedded"),
                "Remote, PostgreSQL": remote_client(bench, url, tokens["u000"], "client-postgres"),
            }
            compare_task(local, remotes, repo, args.task_size, args.runs)
        print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
