"""Benchmark: the Remote provider and `comet serve`, on loopback.

1. `comet task --json` through Remote at 10,000 records beside Local, in the same run, on the
   same store (the local store's files copied into the server's user directory: the layout is
   the same).  Target: Remote's median ≤ 1.5 times Local's.
2. The server under 16 concurrent clients for 60 s, each mixing task requests (3 in 4) and
   remembers (1 in 4) through the Remote provider: requests per second, p50 and p95 by kind,
   errors (target 0), and whether every acknowledged write is in the store afterwards.

No assertion: the figures are printed.

    python3 benchmarks/bench_remote.py [--size 10000] [--runs 30] [--clients 16] [--seconds 60]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from _common import (
    RACY_SETTLE_SECONDS,
    BenchEnv,
    Sample,
    Summary,
    add_common_arguments,
    alternate,
    bench_environment,
    print_table,
    run_checked,
    run_together,
    time_process,
    verdict,
)
from bench_task import REQUESTS, prepare

TARGET_RATIO = 1.5
USER = "bench"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(bench: BenchEnv, data: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(data.parent / "serve.log", "ab")  # noqa: SIM115 (kept open for the server's life)
    process = subprocess.Popen(
        bench.comet_argv("serve", "--port", str(port), "--data", str(data)),
        env=bench.env,
        stdout=log,
        stderr=log,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/v1/health", timeout=1) as answer:
                if answer.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"comet serve did not start: {(data.parent / 'serve.log').read_text()[-2000:]}")


def remote_client(bench: BenchEnv, url: str, token: str, name: str = "client-home") -> BenchEnv:
    """A client machine (its own COMET_HOME, `name` under the work folder) set to `url`."""
    client = bench.with_home(bench.work / name)
    client.env["COMET_REMOTE_TOKEN"] = token
    client.run_comet("config", "set", "--global", "memory.provider", "remote")
    client.run_comet("config", "set", "--global", "memory.remote.url", url)
    client.run_comet(
        "config", "set", "--global", "memory.remote.timeout", "30"
    )  # the first call builds the index
    return client


def delivered(env: BenchEnv, repo: Path, request: tuple[str, ...]) -> list[str]:
    data = json.loads(env.run_comet("task", *request, "--json", cwd=repo).stdout)
    if data["retrieval"] != "enabled":
        raise SystemExit(f"retrieval {data['retrieval']}: {data['diagnostics']}")
    return [item["id"] for item in data["context"] + data["manifest"]]


def embedded_store(bench: BenchEnv, local: BenchEnv, repo: Path, data: Path) -> str:
    """The embedded backend's data folder `data` holding `local`'s store for USER, as it is (the
    same layout), its index built as a local one is; USER's token."""
    user_home = data / "users" / USER
    user_home.mkdir(parents=True)
    for part in ("global", "projects"):
        shutil.copytree(local.home / part, user_home / part)
    run_checked(bench.with_home(user_home).comet_argv("memory", "list", "--json"), env=dict(
        bench.env, COMET_HOME=str(user_home)), cwd=repo)  # fmt: skip
    created = bench.comet_argv("serve", "token", "create", "--user", USER, "--data", str(data), "--json")
    return str(json.loads(run_checked(created, env=bench.env).stdout)["token"])


def compare_task(local: BenchEnv, remotes: dict[str, BenchEnv], repo: Path, size: int, runs: int) -> None:
    """`comet task --json` through each of `remotes` (name -> client) beside Local, alternating:
    the same ids delivered, the medians, and each Remote's ratio to Local."""
    for request in REQUESTS:
        delivered(local, repo, request)  # warm: the index, the racy files
    time.sleep(RACY_SETTLE_SECONDS)
    for request in REQUESTS:
        ours = delivered(local, repo, request)
        for name, remote in remotes.items():
            theirs = delivered(remote, repo, request)
            same = "same ids, same order" if ours == theirs else f"DIFFERENT: {ours} vs {theirs}"
            print(f"  {request[1][:48]:<48} {len(ours)} delivered; {name}: {same}")
    clients = {"Local": local, **remotes}
    rotation = {name: itertools.cycle(REQUESTS) for name in clients}

    def case(name: str) -> tuple[str, Callable[[], Sample]]:
        env = clients[name]

        def run() -> Sample:
            argv = env.comet_argv("task", *next(rotation[name]), "--json")
            return time_process(argv, env=env.env, cwd=repo)

        return f"comet task --json ({name})", run

    results = alternate([case(name) for name in clients], runs)
    summaries = [Summary.of(name, samples) for name, samples in results.items()]
    print_table(summaries, title=f"whole process, warm index, {size} records, loopback, {runs} runs each")
    here = summaries[0]
    for name, there in zip(remotes, summaries[1:], strict=True):
        print(f"{name} / Local medians: {there.median / here.median:.2f} (p95: {there.p95 / here.p95:.2f})")
        target = TARGET_RATIO * here.median
        print(verdict(f"{name} task median", there.median, target) + " (1.5 times Local's)")


def load(args: argparse.Namespace) -> None:
    """Run by the benchmark venv's interpreter (it imports comet_git): the concurrent clients."""
    import threading

    from comet_git.errors import CometError
    from comet_git.provider import Query, Remember
    from comet_git.provider.candidates import TaskRequest
    from comet_git.provider.remote import RemoteProvider
    from comet_git.store import Home

    home = Home(Path(args.home))
    tasks = [request[1] for request in REQUESTS]
    timings: dict[str, list[float]] = {"task": [], "remember": []}
    errors: list[str] = []
    written: list[str] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + args.seconds

    def client(number: int) -> None:
        provider = RemoteProvider(home, args.project, args.url, args.token, timeout=30)
        for count in itertools.count():
            if time.monotonic() >= stop_at:
                break
            kind = "remember" if count % 4 == 3 else "task"
            started = time.perf_counter()
            try:
                if kind == "task":
                    request = TaskRequest(tasks[count % len(tasks)])
                    provider.query(Query(task=request))
                else:
                    text = f"Load test rule {number}-{count}: keep the build green on branch {number}"
                    result = provider.apply(Remember(text=text))
                    with lock:
                        written.append(result.id)
            except CometError as error:
                with lock:
                    errors.append(f"{kind}: {error.message}")
                continue
            with lock:
                timings[kind].append(time.perf_counter() - started)
        provider.close()

    elapsed = run_together(args.clients, client)
    checker = RemoteProvider(home, args.project, args.url, args.token, timeout=120)
    stored = {view.id for view in checker.query(Query()).records}
    print(json.dumps({
        "seconds": elapsed, "timings": timings, "errors": errors[:20], "errorCount": len(errors),
        "written": len(written), "lost": sorted(set(written) - stored),
    }))  # fmt: skip


def report_load(output: str, clients: int) -> None:
    data = json.loads(output)
    total = sum(len(values) for values in data["timings"].values())
    rate = total / data["seconds"]
    print(f"\n{clients} concurrent clients for {data['seconds']:.0f} s: {rate:.1f} requests/s")
    for kind, values in data["timings"].items():
        if len(values) >= 2:
            p95 = statistics.quantiles(values, n=20, method="inclusive")[18]
            print(f"  {kind:<9} n={len(values):<6} p50 {statistics.median(values) * 1000:7.1f} ms"
                  f"  p95 {p95 * 1000:7.1f} ms")  # fmt: skip
    print(
        f"  errors: {data['errorCount']} (target 0){' e.g. ' + data['errors'][0] if data['errors'] else ''}"
    )
    print(f"  writes acknowledged: {data['written']}; lost: {len(data['lost'])} (target 0)")


def main() -> None:
    if sys.argv[1:2] == ["load"]:
        parser = argparse.ArgumentParser()
        for name in ("--url", "--token", "--home", "--project"):
            parser.add_argument(name, required=True)
        parser.add_argument("--clients", type=int, default=16)
        parser.add_argument("--seconds", type=float, default=60)
        load(parser.parse_args(sys.argv[2:]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--size", type=int, default=10_000, help="records in the store (default 10000)")
    parser.add_argument("--runs", type=int, default=30, help="runs per case (default 30)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients of the load (default 16)")
    parser.add_argument("--seconds", type=float, default=60, help="how long the load runs (default 60)")
    args = parser.parse_args()
    with bench_environment(args, extras="server") as bench:
        local, repo, key = prepare(bench, args.size, args.seed)
        data = bench.work / "serve-data"
        token = embedded_store(bench, local, repo, data)
        server, url = start_server(bench, data)
        try:
            remote = remote_client(bench, url, token)
            compare_task(local, {"Remote": remote}, repo, args.size, args.runs)
            print(f"\nload: {args.clients} clients, {args.seconds:.0f} s ...", flush=True)
            output = run_checked(
                [str(bench.python), str(Path(__file__).resolve()), "load", "--url", url, "--token", token,
                 "--home", str(remote.home), "--project", key, "--clients", str(args.clients),
                 "--seconds", str(args.seconds)],
                env=bench.env,
            ).stdout  # fmt: skip
            report_load(output, args.clients)
        finally:
            server.terminate()
            server.wait(timeout=30)
        os.sync()


if __name__ == "__main__":
    main()
