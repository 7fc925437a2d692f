"""No traceback reaches a user: the inputs that once gave one, through the installed `comet`.

Each answers with an exit code the README documents (0, 1 or 2), a message that says what to
do next and, when it refuses, the store as it was.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.clihelp import Result, installed_comet, invoke, run_comet
from tests.test_bad_input import snapshot

NOT_UTF8 = os.fsdecode(b"caf\xe9")  # Latin-1 bytes, as Python holds them: lone surrogates


def calm(result: Result, code: int) -> Result:
    assert result.exit_code == code, (
        f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    )
    assert "Traceback" not in result.stderr
    return result


def remember(repo: Path, text: str) -> str:
    result = calm(run_comet("memory", "remember", "--text", text, "--json", cwd=repo), 0)
    record_id: str = result.json()["record"]["id"]
    return record_id


def run_bytes(*args: str, cwd: Path) -> Result:
    """`comet` with arguments that may hold non-UTF-8 bytes (as a shell passes them)."""
    done = subprocess.run(
        [installed_comet(), *args], cwd=cwd, capture_output=True, env=os.environ.copy(), timeout=120
    )
    return Result(done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace"))


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "remember", "--text", NOT_UTF8],
        ["memory", "remember", "--text", "Use tabs.", "--path", NOT_UTF8],
        ["memory", "signal", "--text", f"From now on {NOT_UTF8}"],
        ["memory", "explain", "--id", NOT_UTF8, "--task", "x"],
        ["memory", "rollback", "--id", NOT_UTF8],
        ["memory", "show", "--id", NOT_UTF8],
        ["task", "--application", NOT_UTF8, "--outcome", "ignored"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_a_non_utf8_argument_is_a_usage_error(repo: Path, comet_home: Path, args: list[str]) -> None:
    remember(repo, "Run the linters before pushing.")
    before = snapshot(comet_home)
    result = calm(run_bytes(*args, cwd=repo), 2)
    assert "not valid UTF-8" in result.stderr and "caf\\udce9" in result.stderr
    assert snapshot(comet_home) == before
    as_json = calm(run_bytes(*args, "--json", cwd=repo), 2)
    assert json.loads(as_json.stderr)["schema"] == "comet.error/v1"


@pytest.mark.parametrize("option", ["--path", "--operation", "--phase", "--task"])
def test_task_answers_a_non_utf8_value(repo: Path, option: str) -> None:
    answer = json.loads(calm(run_bytes("task", option, NOT_UTF8, "--json", cwd=repo), 0).stdout)
    assert answer["schema"] == "comet.task-context/v1"


def test_task_answers_a_path_component_too_long_for_the_file_system(repo: Path) -> None:
    for args in (["--path", "a" * 300 + "/b.py"], ["--task", "fix it", "--path", "x" * 256]):
        answer = calm(run_comet("task", *args, "--json", cwd=repo), 0).json()
        assert answer["retrieval"] == "failed"
        assert "too long" in answer["diagnostics"][0]


@pytest.mark.parametrize(
    "args", [["task", "--json"], ["task", "--task", "x"], ["memory", "list", "--json"], ["memory", "list"]]
)
def test_a_reader_that_went_away_gets_no_traceback(repo: Path, args: list[str]) -> None:
    """`comet task --json | head -c1`: a pipe whose reader is gone before comet writes."""
    remember(repo, "Run the linters before pushing.")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([installed_comet(), *args], cwd=repo, stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    assert done.stderr == b""
    assert done.returncode in (0, 1)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"schema": "comet.learning-delta/v1", "deltas": []}\xff', "not UTF-8"),
        (b"[" * 100_000 + b"]" * 100_000, "nests too deeply"),
    ],
    ids=["not-utf8", "deeply-nested"],
)
def test_memory_apply_refuses_a_file_it_cannot_read(
    repo: Path, comet_home: Path, tmp_path: Path, content: bytes, problem: str
) -> None:
    remember(repo, "Run the linters before pushing.")
    delta = tmp_path / "delta.json"
    delta.write_bytes(content)
    before = snapshot(comet_home)
    for source, stdin in ((str(delta), None), ("-", content)):
        done = subprocess.run(
            [installed_comet(), "memory", "apply", "--delta", source],
            cwd=repo,
            input=stdin,
            capture_output=True,
        )
        stderr = done.stderr.decode()
        assert done.returncode == 1 and "Traceback" not in stderr
        assert problem in stderr and "hint:" in stderr
    assert snapshot(comet_home) == before


def test_an_index_path_that_is_a_directory(repo: Path, comet_home: Path) -> None:
    remember(repo, "Run the linters before pushing.")
    index = comet_home / "index" / "comet.sqlite3"
    for leftover in comet_home.glob("index/comet.sqlite3*"):
        leftover.unlink()
    index.mkdir()
    for args in (["memory", "list"], ["memory", "remember", "--text", "Use tabs."], ["memory", "status"]):
        assert "comet repair" in calm(run_comet(*args, cwd=repo), 1).stderr
    assert calm(run_comet("task", "--json", cwd=repo), 0).json()["retrieval"] == "failed"
    check = calm(run_comet("repair", "--check", "--json", cwd=repo), 1)
    assert check.json()["index"]["problem"]  # the report on stdout, the error on stderr
    assert json.loads(check.stderr)["schema"] == "comet.error/v1"


def test_repair_check_of_a_sound_index_exits_0(repo: Path) -> None:
    remember(repo, "Run the linters before pushing.")
    calm(run_comet("repair", "--check", cwd=repo), 0)


def test_signal_on_a_full_disk(repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal's append meets ENOSPC: exit 1 and a hint, no traceback (in-process, as the
    disk cannot be filled from a test)."""
    remember(repo, "Run the linters before pushing.")
    real_write = os.write

    def full_disk(fd: int, data: bytes) -> int:
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(comet_home)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    result = invoke("memory", "signal", "--text", "From now on, use tabs.", cwd=repo)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and "no space left on device" in result.stderr
    assert "hint: free some disk space" in result.stderr


def test_with_json_every_error_is_json(repo: Path) -> None:
    for args, code in (
        (["memory", "show", "--id", "pm-zzzzzzzz"], 1),
        (["memory", "list", "--bogus"], 2),
        (["task", "--context-budget", "lots"], 2),
        (["memory", "remember", "--text", "x", "--operation", "two words"], 2),
    ):
        result = calm(run_comet(*args, "--json", cwd=repo), code)
        assert result.stdout == ""
        error = json.loads(result.stderr)
        assert error["schema"] == "comet.error/v1" and error["error"] and error["hint"]
