"""Nothing lost: a full disk, a broken file, a bad selector or a killed command never costs an
acknowledged event, the last good version of a record, or every other record's retrieval."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import comet_git.index
from tests.clihelp import Result, invoke, run_comet
from tests.test_bad_input import mem, ok, refused, remember, snapshot

# -- a disk that fills up ---------------------------------------------------------------------


class FullDisk:
    """os.write for files under COMET_HOME, on a disk with `room` bytes left: the write that
    does not fit writes what fits (a short write, as the kernel does) and the next raises ENOSPC."""

    def __init__(self, home: Path, room: int) -> None:
        self.home = str(home)
        self.room = room
        self.real_write = os.write

    def __call__(self, fd: int, data: Any) -> int:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            target = ""
        if not target.startswith(self.home):
            return self.real_write(fd, data)
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        part = bytes(data)[: self.room]
        self.room -= len(part)
        return self.real_write(fd, part)


@contextlib.contextmanager
def full_disk(monkeypatch: pytest.MonkeyPatch, home: Path, room: int = 0) -> Iterator[FullDisk]:
    disk = FullDisk(home, room)
    with monkeypatch.context() as patch:
        patch.setattr(os, "write", disk)
        yield disk


def no_space(result: Result) -> None:
    refused(result)
    assert "no space left on device" in result.stderr, result.stderr
    assert "damaged" not in result.stderr, result.stderr


def journal_bytes(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.glob("**/journal/*.jsonl"))}


@pytest.mark.parametrize("room", [0, 40])
def test_a_journal_append_on_a_full_disk_fails_and_leaves_the_journal_as_it_was(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch, room: int
) -> None:
    record = ("journal", "record", "--type", "verification.completed", "--summary", "ran the tests")
    ok(invoke(*record, "--outcome", "passed", "--json", cwd=repo))
    before = journal_bytes(comet_home)
    with full_disk(monkeypatch, comet_home, room):
        result = invoke(*record, "--outcome", "failed", "--json", cwd=repo)
    no_space(result)
    assert journal_bytes(comet_home) == before  # no torn fragment
    acknowledged = ok(invoke(*record, "--outcome", "failed", "--json", cwd=repo)).json()
    assert acknowledged["journaled"] is True
    listed = ok(invoke("journal", "list", "--json", cwd=repo)).json()
    assert listed["problems"] == []
    assert acknowledged["eventId"] in {event["eventId"] for event in listed["events"]}


# A remember writes some 1,200 bytes (record, history, profile.md): each room cuts it at another step.
@pytest.mark.parametrize("room", [0, 300, 700, 1100])
def test_remember_on_a_full_disk_changes_nothing_and_names_the_cause(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch, room: int
) -> None:
    remember(repo, "Run the linters before pushing.")
    mem("list", cwd=repo)
    before = snapshot(comet_home)
    with full_disk(monkeypatch, comet_home, room):
        result = invoke("memory", "remember", "--text", "Prefer small commits.", cwd=repo)
    no_space(result)
    assert snapshot(comet_home) == before


def test_a_full_index_database_is_no_space_not_damage_and_nothing_is_written(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = remember(repo, "Run the linters before pushing.")
    mem("list", cwd=repo)
    before = snapshot(comet_home)
    real_connect = comet_git.index._connect

    def connect_to_a_full_database(path: Path, memory_map: bool = True) -> Any:
        connection = real_connect(path, memory_map)
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own SQLITE_FULL
        return connection

    long_text = "Always explain the reason for a change in the commit body. " * 60
    with monkeypatch.context() as patch:
        patch.setattr(comet_git.index, "_connect", connect_to_a_full_database)
        for args in (
            ("remember", "--text", long_text),
            ("correct", "--id", first, "--text", long_text),
        ):
            result = invoke("memory", *args, cwd=repo)
            no_space(result)
            assert snapshot(comet_home) == before
    assert mem("show", "--id", first, cwd=repo)["record"]["version"] == 1


def can_mount_a_small_filesystem(where: Path) -> bool:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(where)],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def test_on_a_real_full_filesystem_nothing_acknowledged_is_lost(repo: Path, tmp_path: Path) -> None:
    small = tmp_path / "small"
    if os.geteuid() != 0 or not can_mount_a_small_filesystem(small):
        pytest.skip("mounting a small tmpfs needs root (the in-process fault tests cover the same)")
    try:
        env = {"COMET_HOME": str(small / "comet")}
        record = ("journal", "record", "--type", "review.resolved", "--summary", "review of the API")
        ok(run_comet(*record, "--outcome", "accepted", "--json", cwd=repo, env=env))
        ok(run_comet("memory", "remember", "--text", "Run the linters before pushing.", cwd=repo, env=env))
        filler = small / "filler"
        with contextlib.suppress(OSError), filler.open("wb", buffering=0) as handle:
            while True:
                handle.write(b"x" * 512)
        home = small / "comet"
        journal_before = journal_bytes(home)
        records_before = sorted(p.name for p in home.glob("**/records/*.md"))
        results = [
            run_comet(*record, "--outcome", "rejected", "--json", cwd=repo, env=env),
            run_comet("memory", "remember", "--text", "Prefer small commits. " * 200, cwd=repo, env=env),
        ]
        for result in results:
            assert "Traceback" not in result.stderr
            if result.exit_code != 0:
                assert "no space left on device" in result.stderr
        if results[0].exit_code != 0:
            assert journal_bytes(home) == journal_before
        if results[1].exit_code != 0:
            assert sorted(p.name for p in home.glob("**/records/*.md")) == records_before
        filler.unlink()
        listed = ok(run_comet("journal", "list", "--json", cwd=repo, env=env)).json()
        assert listed["problems"] == []
        reviews = [e for e in listed["events"] if e["type"] == "review.resolved"]
        kinds = [e.get("outcome", {}).get("outcome") for e in reviews]
        assert kinds[0] == "accepted" and (results[0].exit_code != 0 or "rejected" in kinds)
    finally:
        subprocess.run(["umount", str(small)], check=False)
