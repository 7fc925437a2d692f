"""Nothing lost: a full disk, a broken file, a bad selector or a killed command never costs an
acknowledged event, the last good version of a record, or every other record's retrieval."""

from __future__ import annotations

import contextlib
import errno
import os
import sqlite3
import subprocess
import sys
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
@pytest.mark.parametrize("command", ["remember", "correct", "forget", "forget-permanent"])
def test_a_write_on_a_full_disk_changes_nothing_and_names_the_cause(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch, room: int, command: str
) -> None:
    record_id = remember(repo, "Run the linters before pushing.")
    ok(invoke("journal", "record", "--type", "review.resolved", "--summary", "linters", "--outcome",
              "accepted", cwd=repo))  # fmt: skip
    mem("list", cwd=repo)
    args = {
        "remember": ["remember", "--text", "Prefer small commits."],
        "correct": ["correct", "--id", record_id, "--text", "Run ruff and mypy before pushing."],
        "forget": ["forget", "--id", record_id],
        "forget-permanent": ["forget", "--id", record_id, "--permanent"],
    }[command]
    before = snapshot(comet_home)
    with full_disk(monkeypatch, comet_home, room):
        result = invoke("memory", *args, cwd=repo)
    if result.exit_code == 0 and command.startswith("forget"):
        return  # a forget small enough to fit: nothing to check here
    no_space(result)
    assert snapshot(comet_home) == before
    ok(invoke("memory", *args, cwd=repo))  # with room again, it works


@pytest.mark.parametrize("room", [0, 400, 900])
def test_a_hand_edit_taken_in_on_a_full_disk_is_taken_in_whole_or_not_at_all(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch, room: int
) -> None:
    record_id = remember(repo, "Run the linters before pushing.")
    mem("list", cwd=repo)
    path = next(comet_home.glob(f"projects/*/records/{record_id}.md"))
    path.write_text(path.read_text().replace("Run the linters", "Run ruff"))
    before = snapshot(comet_home)
    with full_disk(monkeypatch, comet_home, room):
        result = invoke("memory", "list", cwd=repo)
    no_space(result)
    assert {k: v for k, v in snapshot(comet_home).items() if k != "<index content>"} == {
        k: v for k, v in before.items() if k != "<index content>"
    }
    shown = mem("show", "--id", record_id, "--history", cwd=repo)
    assert shown["record"]["version"] == 2 and "Run ruff" in shown["record"]["text"]
    assert "Run the linters" in shown["history"][0]["text"]


def test_retrieval_on_a_full_disk_still_gives_the_context(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_id = remember(repo, "Run the linters before pushing.", "--operation", "commit")
    request = ("task", "--task", "commit the fix", "--operation", "commit", "--json")
    ok(invoke(*request, cwd=repo))
    before = journal_bytes(comet_home)
    with full_disk(monkeypatch, comet_home):
        data = ok(invoke(*request, cwd=repo)).json()
    assert data["retrieval"] != "failed", data["diagnostics"]
    assert record_id in {entry["id"] for entry in data["context"]}
    assert any("no space left on device" in line for line in data["diagnostics"])
    assert journal_bytes(comet_home) == before


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
        # A journal line may still fit in the slack of its file's last page; 4 KB of text cannot.
        assert results[1].exit_code == 1
        assert sorted(p.name for p in home.glob("**/records/*.md")) == records_before
        filler.unlink()
        listed = ok(run_comet("journal", "list", "--json", cwd=repo, env=env)).json()
        assert listed["problems"] == []
        reviews = [e for e in listed["events"] if e["type"] == "review.resolved"]
        kinds = [e.get("outcome", {}).get("outcome") for e in reviews]
        # Both events may carry the same second: the listing's order between them is not theirs.
        assert "accepted" in kinds and (results[0].exit_code != 0 or "rejected" in kinds)
        assert len(kinds) == (1 if results[0].exit_code != 0 else 2)
    finally:
        subprocess.run(["umount", str(small)], check=False)


# -- repair keeps the last good version ----------------------------------------------------------


def project_dir(home: Path) -> Path:
    (store,) = [p for p in (home / "projects").iterdir() if p.is_dir()]
    return store


def listed_ids(repo: Path) -> set[str]:
    return {item["id"] for item in mem("list", cwd=repo)["records"]}


@pytest.mark.parametrize(
    "breakage",
    ["broken YAML", "binary", "duplicate id"],
)
def test_repair_keeps_serving_the_last_good_version_of_a_broken_record(
    repo: Path, comet_home: Path, breakage: str
) -> None:
    kept = remember(repo, "Prefer small commits.", "--title", "Small commits")
    broken = remember(repo, "Run the linters before pushing.", "--title", "Linters first")
    mem("list", cwd=repo)
    path = project_dir(comet_home) / "records" / f"{broken}.md"
    if breakage == "broken YAML":
        path.write_text(path.read_text().replace("title: Linters first", "title: [unclosed"))
    elif breakage == "binary":
        path.write_bytes(b"\x00\xff\xfe binary junk \x00")
    else:
        path.write_text((project_dir(comet_home) / "records" / f"{kept}.md").read_text())
    for command in (("memory", "list", "--json"), ("repair", "--json")):
        ok(run_comet(*command, cwd=repo))
        assert listed_ids(repo) == {kept, broken}, f"after {command}"
        shown = mem("show", "--id", broken, cwd=repo)["record"]
        assert shown["text"].strip() == "Run the linters before pushing."
        profile = (project_dir(comet_home) / "profile.md").read_text()
        assert "Run the linters before pushing." in profile and "Prefer small commits." in profile
    status = mem("status", cwd=repo)
    invalid = [item["file"] for store in status["stores"] for item in store["invalid"]]
    assert invalid == [str(path)], "the broken file is still reported until it is fixed"


# -- machine state files are read tolerantly --------------------------------------------------


def test_a_non_utf8_processing_line_is_reported_and_skipped_and_repair_drops_it(
    repo: Path, comet_home: Path
) -> None:
    ok(invoke("memory", "signal", "--text", "From now on, always run the linters before pushing.", cwd=repo))
    ok(invoke("learn", "--json", cwd=repo))
    processing = project_dir(comet_home) / "journal" / "processing.jsonl"
    assert processing.exists()
    with processing.open("ab") as handle:
        handle.write(b'{"eventId":"ev-x","status":"done\xff"}\n')
    for command in (("memory", "status", "--json"), ("journal", "list", "--json"), ("learn", "--json")):
        result = run_comet(*command, cwd=repo)
        assert result.exit_code == 0 and "Traceback" not in result.stderr, (command, result.stderr)
    listed = ok(run_comet("journal", "list", "--json", cwd=repo)).json()
    bad_line = len(processing.read_bytes().splitlines())
    assert [(p["file"], p["line"]) for p in listed["problems"]] == [(str(processing), bad_line)]
    assert all(event["processing"] == "done" for event in listed["events"])
    report = ok(run_comet("repair", "--json", cwd=repo)).json()
    assert any("unreadable" in note for store in report["stores"] for note in store["notes"])
    assert b"\xff" not in processing.read_bytes()
    assert ok(run_comet("journal", "list", "--json", cwd=repo)).json()["problems"] == []


def test_other_machine_state_files_are_read_tolerantly(repo: Path, comet_home: Path) -> None:
    record_id = remember(repo, "Run the linters before pushing.", "--operation", "commit")
    forgotten = remember(repo, "Prefer tabs.")
    ok(invoke("memory", "forget", "--id", forgotten, cwd=repo))
    request = ("task", "--task", "commit the fix", "--operation", "commit", "--session", "s1", "--json")
    ok(run_comet(*request, cwd=repo))
    damaged = [
        *comet_home.glob("sessions/*.json"),
        project_dir(comet_home) / "project.yaml",
        project_dir(comet_home) / "tombstones" / f"{forgotten}.json",
    ]
    assert len(damaged) == 3
    for path in damaged:
        path.write_bytes(b"\xff\xfe not what it was \x00")
    data = ok(run_comet(*request, cwd=repo)).json()
    assert data["retrieval"] != "failed", data["diagnostics"]
    assert record_id in {entry["id"] for entry in data["context"]}
    ok(run_comet("memory", "list", "--json", cwd=repo))
    signal = run_comet("memory", "signal", "--text", "From now on, always prefer spaces.", cwd=repo)
    assert signal.exit_code == 0 and "Traceback" not in signal.stderr, signal.stderr


# -- repair takes hand edits in first, and cleans what killed commands left ------------------------


def test_repair_takes_a_pending_hand_edit_in_and_says_so(repo: Path, comet_home: Path) -> None:
    record_id = remember(repo, "Run the linters before pushing.", "--title", "Linters first")
    mem("list", cwd=repo)
    path = project_dir(comet_home) / "records" / f"{record_id}.md"
    path.write_text(path.read_text().replace("Run the linters before pushing.", "Run ruff before pushing."))
    report = ok(run_comet("repair", "--json", cwd=repo)).json()
    notes = [note for store in report["stores"] for note in store["notes"]]
    assert any(record_id in note and "edit" in note for note in notes), notes
    shown = mem("show", "--id", record_id, "--history", cwd=repo)
    assert shown["record"]["version"] == 2 and shown["record"]["text"].strip() == "Run ruff before pushing."
    assert shown["history"][0]["text"].strip() == "Run the linters before pushing."


def test_repair_removes_what_killed_commands_left_behind(repo: Path, comet_home: Path) -> None:
    record_id = remember(repo, "Run the linters before pushing.")
    mem("list", cwd=repo)
    store = project_dir(comet_home)
    leftovers = [
        store / "records" / f".{record_id}.md.0123456789ab.tmp",
        store / "history" / f".{record_id}.0123456789ab.undo",
        store / ".profile.md.ba9876543210.tmp",
        comet_home / "index" / "comet.sqlite3.rebuild",
        comet_home / "index" / "comet.sqlite3.rebuild-wal",
    ]
    for leftover in leftovers:
        leftover.parent.mkdir(parents=True, exist_ok=True)
        leftover.write_text("Run the linters before pushing.")
    checked = ok(run_comet("repair", "--check", "--json", cwd=repo)).json()
    assert checked["index"]["leftovers"] == [str(p) for p in leftovers[3:]]
    assert "left by a killed repair" in ok(run_comet("repair", "--check", cwd=repo)).stdout
    assert all(p.exists() for p in leftovers)
    report = ok(run_comet("repair", "--json", cwd=repo)).json()
    assert [p for p in leftovers if p.exists()] == []
    assert any("temporary" in note for s in report["stores"] for note in s["notes"])
    assert report["index"]["leftovers"] == []
    assert listed_ids(repo) == {record_id}


def test_a_repair_that_fails_on_a_full_disk_leaves_no_half_built_index(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from comet_git.provider import repair as repair_module

    record_id = remember(repo, "Run the linters before pushing.")
    index_before = (comet_home / "index" / "comet.sqlite3").read_bytes()

    def no_room(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")  # what SQLite says then

    with monkeypatch.context() as patch:
        patch.setattr(repair_module.StoreSync, "run", no_room)
        no_space(invoke("repair", cwd=repo))
    assert sorted(p.name for p in (comet_home / "index").iterdir() if ".rebuild" in p.name) in (
        [],
        ["comet.sqlite3.rebuild.open-lock"],
    )
    assert (comet_home / "index" / "comet.sqlite3").read_bytes() == index_before
    assert ok(invoke("repair", "--check", "--json", cwd=repo)).json()["index"]["leftovers"] == []
    assert listed_ids(repo) == {record_id}


# -- bad selectors are refused, and one bad row costs only itself ---------------------------------


@pytest.mark.parametrize(
    "flag, value",
    [
        ("--path", "src/a\x1eb"),
        ("--path", "src/a\x1fb"),
        ("--path", "src/\x7fauth/**"),
        ("--path", "src/" + "a" * 400),
        ("--task", "auth\x1elogin"),
        ("--task", "x" * 400),
        ("--title", " "),
    ],
    ids=["record-sep", "unit-sep", "delete", "long-path", "task-control", "long-task", "blank-title"],
)
def test_bad_selectors_and_a_blank_title_are_refused(
    repo: Path, comet_home: Path, flag: str, value: str
) -> None:
    remember(repo, "Prefer small commits.")
    mem("list", cwd=repo)
    before = snapshot(comet_home)
    # A bad value of an option is a usage error (exit 2), as for every option of remember.
    refused(run_comet("memory", "remember", "--text", "Check the auth flow.", flag, value, cwd=repo), 2)
    assert snapshot(comet_home) == before


def test_a_record_the_index_cannot_read_costs_only_itself(repo: Path, comet_home: Path) -> None:
    good = remember(repo, "Validate tokens in src/a.", "--path", "src/a/**")
    other = remember(repo, "Keep the Python code typed.", "--path", "src/a/**/*.py")
    request = ("task", "--task", "fix the token check", "--path", "src/a/x.py", "--json")
    ok(run_comet(*request, cwd=repo))
    # A record file written by hand (or by an older comet) with a separator in its selector
    # is an invalid file, reported; nothing else changes.
    store = project_dir(comet_home)
    text = (store / "records" / f"{good}.md").read_text().replace(good, "pm-badsel00")
    (store / "records" / "pm-badsel00.md").write_text(text.replace("- src/a/**", '- "src/a\\x1eb"'))
    data = ok(run_comet(*request, cwd=repo)).json()
    assert data["retrieval"] != "failed", data["diagnostics"]
    assert good in {entry["id"] for entry in data["context"]}
    # A row the index holds in a form the director cannot read (as an index written before
    # the validation would): that row alone is left out.
    connection = sqlite3.connect(comet_home / "index" / "comet.sqlite3")
    with connection:
        connection.execute(
            "UPDATE records SET sel_paths = ? WHERE id = ?", ("src/a\x1eb\x1f+\x1f^src/a\x1eb", other)
        )
    connection.close()
    data = ok(run_comet(*request, cwd=repo)).json()
    assert data["retrieval"] != "failed", data["diagnostics"]
    assert good in {entry["id"] for entry in data["context"]}
    assert other not in {entry["id"] for entry in data["context"]}


# -- a permanent forget leaves no byte of the content anywhere ------------------------------------

FORGOTTEN_TEXT = "Deploy through the purplewalrus pipeline on Fridays."
FORGOTTEN_TITLE = "Purplewalrus deploys"


def holding_the_text(root: Path) -> list[str]:
    needles = (FORGOTTEN_TEXT.encode(), FORGOTTEN_TITLE.encode(), b"purplewalrus")
    return [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*"))
        if path.is_file() and any(needle in path.read_bytes().lower() for needle in needles)
    ]


def test_a_permanent_forget_leaves_no_byte_of_the_content_under_comet_home(
    repo: Path, comet_home: Path
) -> None:
    kept = remember(repo, "Prefer small commits.")
    record_id = remember(repo, FORGOTTEN_TEXT, "--title", FORGOTTEN_TITLE)
    ok(invoke("memory", "correct", "--id", record_id, "--text", FORGOTTEN_TEXT + " Or Mondays.", cwd=repo))
    mem("list", cwd=repo)
    store = project_dir(comet_home)
    profile = (store / "profile.md").read_text()
    # What earlier commands left: a profile.md kept aside after a rebuild, the temporary
    # file of a killed write, the half-built index of a killed repair.
    (store / "profile.md.2026-11-30T070000Z.orig").write_text(profile + "\nMy own note: keep this.\n")
    (store / "records" / f".{record_id}.md.0123456789ab.tmp").write_text(FORGOTTEN_TEXT)
    (comet_home / "index" / "comet.sqlite3.rebuild-wal").write_bytes(FORGOTTEN_TEXT.encode() * 3)
    # Another process in the middle of a read transaction on the index.
    reader = sqlite3.connect(comet_home / "index" / "comet.sqlite3", isolation_level=None)
    try:
        reader.execute("BEGIN")
        assert reader.execute("SELECT count(*) FROM records").fetchone()[0] == 2
        result = run_comet("memory", "forget", "--id", record_id, "--permanent", cwd=repo)
        assert result.exit_code == 0, result.stderr
        assert holding_the_text(comet_home) == []
    finally:
        reader.close()
    assert holding_the_text(comet_home) == []
    assert "My own note: keep this." in (store / "profile.md.2026-11-30T070000Z.orig").read_text()
    assert listed_ids(repo) == {kept}


COMET_READER = """
import sqlite3, sys, time
from pathlib import Path
from comet_git.store import file_lock
home = Path(sys.argv[1])
with file_lock(home / "index" / ".lock", shared=True):  # as every comet reader holds it
    reader = sqlite3.connect(home / "index" / "comet.sqlite3", isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM records").fetchone()
    print("reading", flush=True)
    time.sleep(3)
    reader.close()
"""


def test_a_permanent_forget_during_another_comet_read_leaves_no_byte_either(
    repo: Path, comet_home: Path
) -> None:
    remember(repo, "Prefer small commits.")
    record_id = remember(repo, FORGOTTEN_TEXT, "--title", FORGOTTEN_TITLE)
    mem("list", cwd=repo)
    command = [sys.executable, "-c", COMET_READER, str(comet_home)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as reader:
        assert reader.stdout is not None and reader.stdout.readline().strip() == "reading"
        result = run_comet("memory", "forget", "--id", record_id, "--permanent", cwd=repo)
    assert result.exit_code == 0, result.stderr
    assert holding_the_text(comet_home) == []


def test_every_comet_key_in_the_git_config_is_documented(repo: Path, comet_home: Path) -> None:
    remember(repo, "Prefer small commits.")
    keys = subprocess.run(
        ["git", "config", "--local", "--name-only", "--get-regexp", r"^comet\."],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert keys, "comet persists the project key in .git/config"
    readme = (Path(__file__).parent.parent / "README.md").read_text().lower()
    assert [key for key in keys if f"`{key.lower()}`" not in readme] == []
