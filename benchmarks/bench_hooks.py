"""Benchmark: what comet's git hooks add to `git commit` (detached worker, the default);
with --agent, `comet agent-hook` (the coding agents' hooks) beside `comet --version`.

Target: ≤ 5 ms added to the median `git commit` (the floor is about 3 ms: one shell
process for the shim plus starting one detached interpreter).  Twin repositories of
50 files, identical but for their hooks, are committed to in turn (A, B, C, D, A, ...),
one modified file per commit:

- no hooks at all (the baseline);
- a trivial `post-commit` shell hook (`exit 0`): the cost of git running any hook;
- comet's hooks with `COMET_DISABLE=1` (the shim alone, no worker started);
- comet's hooks, as installed by `comet init` (the shim and its detached worker).

By default the detached workers of one commit are waited for (untimed) before the next
commit, so a worker still running never competes for the CPU with a timed commit of
another case; `--back-to-back` leaves them running.  After the run, `comet journal flush`
and a check that every commit made with the hooks was journaled.  No assertion on timing.

    python3 benchmarks/bench_hooks.py [--commits 40] [--files 50] [--python VENV/bin/python]

--agent: `comet agent-hook --host claude SessionStart` and `... UserPromptSubmit` (an ordinary
request, nothing journaled as a signal), whole process, at --records (10,000) generated records,
warm index, each call a new session (as a new conversation is), beside the bare interpreter,
`comet --version` and the director's own share (`comet task --json`, with and without
`--task`).  Then --parallel (8) prompt hooks started at once, as a host that runs several
hooks of one event does.  Target: p50 ≤ 100 ms and p95 ≤ 200 ms for both hooks.

    python3 benchmarks/bench_hooks.py --agent [--runs 40] [--records 10000] [--python VENV/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from _common import (
    BenchEnv,
    Sample,
    Summary,
    add_common_arguments,
    alternate,
    bench_environment,
    generate_store,
    make_repository,
    print_table,
    run_checked,
    start_warm,
    time_process,
    verdict,
    warm_environment,
)

TARGET_SECONDS = 0.005
AGENT_P50_TARGET, AGENT_P95_TARGET = 0.100, 0.200
AGENT_PROMPT = "Add rate limiting to the login endpoint and keep the session tests green"
SETTLE_TIMEOUT_SECONDS = 30.0
# A worker deletes its ticket just before its interpreter shuts down, and its fsync leaves
# the disk busy a little longer: give both time to finish, before any case, so that they
# are never charged to the next timed commit.
SETTLE_PAUSE_SECONDS = 0.2
_TRIVIAL_HOOK = "#!/bin/sh\nexit 0\n"


def make_twin(bench: BenchEnv, name: str, files: int) -> Path:
    """A repository of `files` files in a few folders, one commit, an origin; no comet yet."""
    repo = bench.work / "repos" / name
    repo.mkdir(parents=True)
    for number in range(files):
        path = repo / _file_name(number)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"line {line} of {path.name}\n" for line in range(40)))
    for argv in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "config", "user.email", "bench@example.com"],
        ["git", "config", "user.name", "Bench Mark"],
        ["git", "remote", "add", "origin", f"git@github.com:acme/{name}.git"],
        ["git", "add", "-A"],
        ["git", "commit", "-q", "-m", "initial commit"],
    ):
        run_checked(argv, env=bench.env, cwd=repo)
    return repo


def _file_name(number: int) -> str:
    folder = ("src/api", "src/core", "src/workers", "tests", "docs")[number % 5]
    suffix = ".md" if folder == "docs" else ".py"
    return f"{folder}/module_{number:02d}{suffix}"


def pending_tickets(home: Path) -> list[str]:
    try:
        return os.listdir(home / "run" / "pending")
    except FileNotFoundError:
        return []


def wait_for_workers(home: Path) -> None:
    """Untimed: wait until the detached workers started so far have removed their tickets."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_SECONDS
    while pending_tickets(home) and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(SETTLE_PAUSE_SECONDS)


def commit_case(
    bench: BenchEnv, repo: Path, env: dict[str, str], files: int, settle: bool, made: list[int]
) -> Callable[[], Sample]:
    """One round of a case: modify the next file and stage it (untimed), then time `git commit`."""

    def run() -> Sample:
        number = made[0]
        path = repo / _file_name(number % files)
        with path.open("a") as handle:
            handle.write(f"change {number}: adjust the retry policy\n")
        run_checked(["git", "add", str(path)], env=env, cwd=repo)
        if settle:
            wait_for_workers(bench.home)
        sample = time_process(
            ["git", "commit", "-q", "-m", f"Adjust {path.name} for change {number}"], env=env, cwd=repo
        )
        made[0] += 1
        return sample

    return run


def rotate(cases: list[tuple[str, Callable[[], Sample]]], runs: int) -> dict[str, list[Sample]]:
    """Like `alternate`, but each round starts one case further on (A B C D, B C D A, ...),
    so that no case always comes right after the comet worker of the round before."""
    results: dict[str, list[Sample]] = {name: [] for name, _ in cases}
    for round_number in range(runs):
        shift = round_number % len(cases)
        for name, case in cases[shift:] + cases[:shift]:
            results[name].append(case())
        print(f"\r  round {round_number + 1}/{runs}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return results


def journaled_commits(bench: BenchEnv, repo: Path) -> set[str]:
    listed = json.loads(
        bench.run_comet("journal", "list", "--type", "repo.commit", "--json", cwd=repo).stdout
    )
    return {str(event["context"]["commit"]) for event in listed["events"]}


# -- --agent: the coding agents' hooks ---------------------------------------------------


def time_with_stdin(argv: Sequence[str], stdin: bytes, *, env: dict[str, str], cwd: Path) -> Sample:
    """`time_process` with the payload on stdin, as a host writes it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(
        list(argv), env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = process.communicate(stdin)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        raise SystemExit(f"command failed ({process.returncode}): {' '.join(argv)}\n{err.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Sample(wall, cpu, len(out))


def hook_case(
    bench: BenchEnv, repo: Path, event: str, prompt: str | None, env: dict[str, str]
) -> Callable[[], Sample]:
    made = [0]

    def run() -> Sample:
        made[0] += 1
        payload: dict[str, object] = {
            "session_id": f"bench-{event}-{made[0]}",
            "cwd": str(repo),
            "hook_event_name": event,
        }
        if prompt is None:
            payload["source"] = "startup"
        else:
            payload["prompt"] = prompt
        argv = bench.comet_argv("agent-hook", "--host", "claude", event)
        sample = time_with_stdin(argv, json.dumps(payload).encode(), env=env, cwd=repo)
        if sample.output_bytes == 0:
            raise SystemExit(f"{event} answered nothing: the hook gave up or found no memory")
        return sample

    return run


def director_case(bench: BenchEnv, repo: Path, task: str | None, env: dict[str, str]) -> Callable[[], Sample]:
    """The director's own share: `comet task --json` with a new --session each call, as the hook
    passes the host's session (a session costs the director a lookup of what it already gave)."""
    made = [0]

    def run() -> Sample:
        made[0] += 1
        argv = ["task", "--json", "--session", f"bench-director-{task is None}-{made[0]}-{id(env)}"]
        argv += ["--task", task] if task else []
        return time_process(bench.comet_argv(*argv), env=env, cwd=repo)

    return run


def parallel_prompts(bench: BenchEnv, repo: Path, count: int, env: dict[str, str]) -> float:
    """Wall time until the last of `count` prompt hooks started together has answered."""
    argv = bench.comet_argv("agent-hook", "--host", "claude", "UserPromptSubmit")
    started = time.perf_counter()
    processes = []
    for number in range(count):
        payload = {
            "session_id": f"bench-par-{number}-{time.time()}",
            "cwd": str(repo),
            "prompt": AGENT_PROMPT,
        }
        process = subprocess.Popen(
            argv,
            env=env,
            cwd=repo,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdin is not None
        process.stdin.write(json.dumps({**payload, "hook_event_name": "UserPromptSubmit"}).encode())
        process.stdin.close()
        processes.append(process)
    for process in processes:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.read()
        process.stderr.read()
        process.wait()
    return time.perf_counter() - started


def agent_main(args: argparse.Namespace) -> None:
    with bench_environment(args) as bench:
        repo, key = make_repository(bench)
        seconds = generate_store(bench, key, args.records, seed=args.seed)
        bench.run_comet("repair", "--json", cwd=repo)  # the index built once, as in daily use
        print(f"{args.records} records generated in {seconds:.1f} s; {args.runs} runs per case")
        env = bench.env
        warm = warm_environment(env)  # the default; `env` has COMET_WARM=0: each call by itself
        start_warm(bench.comet_argv("task", "--json"), warm, repo)
        cases: list[tuple[str, Callable[[], Sample]]] = [
            ("python -c pass", lambda: time_process([str(bench.python), "-c", "pass"], env=env, cwd=repo)),
            ("comet --version", lambda: time_process(bench.comet_argv("--version"), env=env, cwd=repo)),
        ]
        for how, chosen in (("by itself", env), ("warm", warm)):
            cases += [
                (f"comet task --json (director, start), {how}", director_case(bench, repo, None, chosen)),
                (
                    f"comet task --task P --json (director), {how}",
                    director_case(bench, repo, AGENT_PROMPT, chosen),
                ),
                (f"agent-hook SessionStart, {how}", hook_case(bench, repo, "SessionStart", None, chosen)),
                (
                    f"agent-hook UserPromptSubmit, {how}",
                    hook_case(bench, repo, "UserPromptSubmit", AGENT_PROMPT, chosen),
                ),
            ]
        alternate(cases, 3)  # untimed: page cache, .pyc files, the index's first open
        results = alternate(cases, args.runs)
        summaries = [Summary.of(name, samples) for name, samples in results.items()]
        print_table(summaries, title=f"whole process, {args.records} records, warm index")
        by_name = {summary.name: summary for summary in summaries}
        for how in ("by itself", "warm"):
            for hook, director in (
                ("agent-hook SessionStart", "comet task --json (director, start)"),
                ("agent-hook UserPromptSubmit", "comet task --task P --json (director)"),
            ):
                summary, base = by_name[f"{hook}, {how}"], by_name[f"{director}, {how}"]
                if how == "warm":  # the targets are read off the default
                    print(verdict(f"{hook} p50", summary.median, AGENT_P50_TARGET))
                    print(verdict(f"{hook} p95", summary.p95, AGENT_P95_TARGET))
                print(
                    f"  {hook}, {how}: beyond `{director}` {(summary.median - base.median) * 1000:+.0f} ms"
                    f" (median wall), {(summary.cpu_median - base.cpu_median) * 1000:+.0f} ms (median cpu)"
                )
        for how, chosen in (("by itself", env), ("warm", warm)):
            walls = [parallel_prompts(bench, repo, args.parallel, chosen) for _ in range(5)]
            print(
                f"\n{args.parallel} prompt hooks at once, {how}: the last answers after"
                f" {statistics.median(walls) * 1000:.0f} ms (median of 5; {os.cpu_count()} CPUs)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    parser.add_argument("--agent", action="store_true", help="time `comet agent-hook` instead of git hooks")
    parser.add_argument("--runs", type=int, default=40, help="--agent: timed runs per case (default 40)")
    parser.add_argument("--records", type=int, default=10_000, help="--agent: records in the store")
    parser.add_argument("--parallel", type=int, default=8, help="--agent: prompt hooks started at once")
    parser.add_argument(
        "--commits", type=int, default=40, help="timed commits in each repository (default 40)"
    )
    parser.add_argument("--files", type=int, default=50, help="files in each repository (default 50)")
    parser.add_argument(
        "--back-to-back",
        action="store_true",
        help="do not wait for the detached workers between commits",
    )
    args = parser.parse_args()
    if args.agent:
        agent_main(args)
        return
    settle = not args.back_to_back

    with bench_environment(args) as bench:
        plain = make_twin(bench, "plain", args.files)
        trivial = make_twin(bench, "trivial-hook", args.files)
        hook = trivial / ".git" / "hooks" / "post-commit"
        hook.write_text(_TRIVIAL_HOOK)
        hook.chmod(0o755)
        disabled = make_twin(bench, "comet-disabled", args.files)
        hooked = make_twin(bench, "comet", args.files)
        for repo in (disabled, hooked):
            init = json.loads(bench.run_comet("init", "--json", cwd=repo).stdout)
            states = {h["name"]: h["state"] for h in (init.get("hooks") or {}).get("hooks", [])}
            if states.get("post-commit") != "installed":
                raise SystemExit(f"comet init did not install the post-commit hook in {repo}: {init}")
        disabled_env = dict(bench.env, COMET_DISABLE="1")
        print(
            f"{args.files} files per repository, {args.commits} timed commits each, "
            + ("workers waited for between commits" if settle else "back to back (workers left running)")
        )

        counters = {name: [0] for name in ("plain", "trivial", "disabled", "comet")}
        cases = [
            ("no hooks", commit_case(bench, plain, bench.env, args.files, settle, counters["plain"])),
            (
                "trivial sh hook",
                commit_case(bench, trivial, bench.env, args.files, settle, counters["trivial"]),
            ),
            (
                "comet, COMET_DISABLE=1",
                commit_case(bench, disabled, disabled_env, args.files, settle, counters["disabled"]),
            ),
            ("comet hooks", commit_case(bench, hooked, bench.env, args.files, settle, counters["comet"])),
        ]
        # Two untimed rounds first: page cache, git's index refresh, the worker's .pyc files.
        rotate(cases, 2)
        results = rotate(cases, args.commits)
        summaries = [Summary.of(name, samples) for name, samples in results.items()]
        print_table(summaries, title=f"git commit, whole process, {args.commits} commits per case")

        base = summaries[0]
        baseline = results["no hooks"]
        print(
            "\nadded against 'no hooks': difference of medians, of p95s, and the median of the"
            " paired differences (same round; steadier when the machine is busy)"
        )
        paired: dict[str, float] = {}
        for summary in summaries[1:]:
            pairs = [a.wall - b.wall for a, b in zip(results[summary.name], baseline, strict=True)]
            paired[summary.name] = statistics.median(pairs)
            print(
                f"  {summary.name:<24} {(summary.median - base.median) * 1000:+6.2f} ms"
                f"  p95 {(summary.p95 - base.p95) * 1000:+6.2f} ms"
                f"  paired {paired[summary.name] * 1000:+6.2f} ms"
            )
        added = summaries[3].median - base.median
        state = "within" if added <= TARGET_SECONDS else "MISSES"
        print(
            f"comet hooks add {added * 1000:.2f} ms to the median commit (paired: "
            f"{paired['comet hooks'] * 1000:.2f} ms) — {state} the target of {TARGET_SECONDS * 1000:.0f} ms"
        )

        started = time.perf_counter()
        flushed = json.loads(bench.run_comet("journal", "flush", "--json", cwd=hooked).stdout)
        print(
            f"\ncomet journal flush: {time.perf_counter() - started:.2f} s, "
            f"waiting workers {flushed['waitingWorkers']}, timed out {flushed['timedOut']}"
        )
        made = set(
            run_checked(
                ["git", "rev-list", f"--max-count={counters['comet'][0]}", "HEAD"], env=bench.env, cwd=hooked
            ).stdout.split()
        )
        seen = journaled_commits(bench, hooked)
        missing = made - seen
        print(
            f"journaled commits (comet hooks): {len(made & seen)} of {len(made)}"
            + (f" — MISSING {len(missing)}" if missing else " — all journaled")
        )
        if missing:
            print(
                "  (a post-commit worker reads HEAD when it runs: one that starts after the next commit"
                " journals that commit instead, and its own is lost)"
            )
        quiet = journaled_commits(bench, disabled)
        print(f"journaled commits with COMET_DISABLE=1: {len(quiet)} (expected 0)")
        diagnostics = bench.home / "logs" / "diagnostics.log"
        if diagnostics.is_file() and diagnostics.stat().st_size:
            print(f"diagnostics log: {len(diagnostics.read_text().splitlines())} lines, see {diagnostics}")
        else:
            print("diagnostics log: empty")


if __name__ == "__main__":
    main()
