"""Several real `comet` processes writing to the same store at the same time."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from comet_git.records.codec import parse_record
from tests.clihelp import installed_comet, run_comet
from tests.gitutil import git

PER_WORKER = 10

# Each worker waits for a common start time, then adds its records one command at a time.
WORKER = textwrap.dedent(
    """
    import subprocess, sys, time
    comet, worker, count, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    time.sleep(max(0.0, start - time.time()))
    failures = 0
    for number in range(count):
        done = subprocess.run(
            [comet, "memory", "remember", "--text", f"Worker {worker} rule number {number}.",
             "--task", f"w{worker}n{number}"],
            capture_output=True, text=True,
        )
        if done.returncode != 0:
            failures += 1
            sys.stderr.write(f"worker {worker} record {number}: exit {done.returncode}: {done.stderr}\\n")
    sys.exit(1 if failures else 0)
    """
)


@pytest.mark.parametrize("workers", [4])  # (2 at once is no harder than 4)
def test_parallel_remember_loses_nothing(repo: Path, comet_home: Path, workers: int) -> None:
    # One command first, so that the project key is already persisted in .git/config:
    # the first-use race is test_parallel_first_use_of_a_repository below.
    assert run_comet("memory", "list", cwd=repo).exit_code == 0
    start = time.time() + 0.5
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, installed_comet(), str(w), str(PER_WORKER), str(start)],
            cwd=repo,
            env=dict(os.environ),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(workers)
    ]
    outcomes = [p.communicate(timeout=120) for p in processes]
    failures = [err for p, (_, err) in zip(processes, outcomes, strict=True) if p.returncode != 0]
    assert not failures, "\n".join(failures)

    wanted = {f"Worker {w} rule number {n}." for w in range(workers) for n in range(PER_WORKER)}
    listed = run_comet("memory", "list", "--json", cwd=repo)
    assert listed.exit_code == 0, listed.stderr
    data = listed.json()
    assert data["invalid"] == []
    texts = [record["text"] for record in data["records"]]
    assert sorted(texts) == sorted(wanted)  # each exactly once
    ids = [record["id"] for record in data["records"]]
    assert len(set(ids)) == len(ids) == workers * PER_WORKER

    check = run_comet("repair", "--check", "--json", cwd=repo)
    assert check.exit_code == 0, check.stderr
    report = check.json()
    assert [item for store in report["stores"] for item in store["invalid"]] == []
    assert report["unrecoverable"] == []
    assert sum(store["records"] for store in report["stores"]) == workers * PER_WORKER

    (store,) = [p for p in (comet_home / "projects").iterdir() if p.is_dir()]
    files = sorted((store / "records").glob("*.md"))
    assert len(files) == workers * PER_WORKER
    assert {parse_record(path.read_text(encoding="utf-8"), str(path)).text for path in files} == wanted
    assert not list((store / "records").glob(".*"))  # no temp files left behind
    profile = (store / "profile.md").read_text()
    assert all(record_id in profile for record_id in ids)
    # the index agrees with the files after a full rebuild too
    assert run_comet("repair", cwd=repo).exit_code == 0
    again = run_comet("memory", "list", "--json", cwd=repo).json()
    assert sorted(r["id"] for r in again["records"]) == sorted(ids)


def test_parallel_corrections_of_one_record_keep_every_version(repo: Path, comet_home: Path) -> None:
    created = run_comet("memory", "remember", "--text", "Version zero.", "--json", cwd=repo)
    rid = created.json()["record"]["id"]
    start = time.time() + 0.5
    script = textwrap.dedent(
        """
        import subprocess, sys, time
        comet, rid, worker, start = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
        time.sleep(max(0.0, start - time.time()))
        bad = 0
        for n in range(5):
            done = subprocess.run([comet, "memory", "correct", "--id", rid, "--text",
                                   f"Text by worker {worker}, round {n}."], capture_output=True, text=True)
            if done.returncode != 0:
                bad += 1
                sys.stderr.write(done.stderr)
        sys.exit(bad)
        """
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script, installed_comet(), rid, str(w), str(start)],
            cwd=repo,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(2)
    ]
    errors = [p.communicate(timeout=120)[1] for p in processes]
    assert [p.returncode for p in processes] == [0, 0], errors
    shown = run_comet("memory", "show", "--id", rid, "--history", "--json", cwd=repo).json()
    assert shown["record"]["version"] == 11
    versions = [entry["version"] for entry in shown["history"]]
    assert sorted(versions) == list(range(1, 12))
    assert run_comet("repair", "--check", "--json", cwd=repo).json()["unrecoverable"] == []


FIRST_USE = textwrap.dedent(
    """
    import subprocess, sys, time
    comet, number, start = sys.argv[1], sys.argv[2], float(sys.argv[3])
    time.sleep(max(0.0, start - time.time()))
    done = subprocess.run([comet, "memory", "remember", "--text", f"First-use rule {number}."],
                          capture_output=True, text=True)
    sys.stderr.write(done.stderr)
    sys.exit(done.returncode)
    """
)


def test_parallel_first_use_of_a_repository(tmp_path: Path, comet_home: Path) -> None:
    """Several agents start in a brand-new repository at once: every command succeeds and
    every record ends up in the one project store the repository resolves to."""
    processes_per_trial = 6
    for trial in range(6):  # the race does not show every time; one bad trial is enough
        repo = tmp_path / f"fresh-{trial}"
        repo.mkdir()
        git(repo, "init", "-q")  # no commit, no remote: the key is random until persisted
        start = time.time() + 0.3
        processes = [
            subprocess.Popen(
                [sys.executable, "-c", FIRST_USE, installed_comet(), str(n), str(start)],
                cwd=repo,
                stderr=subprocess.PIPE,
                text=True,
            )
            for n in range(processes_per_trial)
        ]
        errors = [p.communicate(timeout=60)[1] for p in processes]
        assert [p.returncode for p in processes] == [0] * processes_per_trial, errors
        listed = run_comet("memory", "list", "--json", cwd=repo).json()["records"]
        assert sorted(r["text"] for r in listed) == sorted(
            f"First-use rule {n}." for n in range(processes_per_trial)
        ), f"trial {trial}: records split over {sorted(os.listdir(comet_home / 'projects'))}"
