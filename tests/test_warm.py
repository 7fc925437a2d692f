"""The warm process (comet_git/warm): the calls it answers are answered as they would be by
themselves, it sees what other processes write, and any doubt sends the call back to its own
process: a changed comet, a folder others could enter, a server that breaks or hangs."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clihelp import installed_comet, run_comet, script_interpreter, wheel_layout

REQUESTS = (
    ["task", "--json"],  # session start
    ["task", "--json", "--task", "Fix the login form validation", "--path", "src/auth/login.py"],
    ["task", "--task", "review the pull request", "--operation", "review"],
    ["task", "--json", "--task", "给 orders 表加一列"],
    ["task", "--json", "--task", "x", "--context-budget", "0"],
)


@pytest.fixture
def warm(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The warm process on, its socket folder under a short private temporary folder (a socket's
    path holds at most 107 bytes); every warm process started here is stopped at the end."""
    base = Path(tempfile.mkdtemp(prefix="cw", dir="/tmp"))
    monkeypatch.delenv("COMET_WARM")
    monkeypatch.setenv("TMPDIR", str(base))
    try:
        yield base / f"comet-warm-{os.getuid()}"
    finally:
        for lock in base.glob("comet-warm-*/*.lock"):
            with contextlib.suppress(ValueError, OSError):
                os.kill(int(lock.read_text()), signal.SIGKILL)
        shutil.rmtree(base, ignore_errors=True)


def python() -> str:
    interpreter = script_interpreter(Path(installed_comet()))
    assert interpreter
    return interpreter


def start_server(log: Path, *options: str) -> subprocess.Popen[bytes]:
    """A warm process in the foreground, one line on `log` per call it serves, started as a call
    starts one (from the tests' folder, a checkout: it must still run the installed comet)."""
    from comet_git.warm.address import SERVER_ARGV

    with log.open("wb") as stderr:
        server = subprocess.Popen([python(), *SERVER_ARGV, "--verbose", *options], stderr=stderr)
    return server


def stop(server: subprocess.Popen[bytes]) -> None:
    server.kill()
    server.wait()


@contextlib.contextmanager
def serving(warm: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A warm process (start_server) that listens for the whole block; killed after it."""
    server = start_server(log)
    try:
        wait_for(lambda: sockets_of(warm), "the warm process listens")
        yield server
    finally:
        stop(server)


def wait_for(condition: object, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def sockets_of(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.sock")) if folder.exists() else []


def answered(log: Path) -> list[str]:
    return re.findall(r"comet-warm: (answered|declined) (\S+)", log.read_text())


def by_itself(*args: str, cwd: Path, stdin: str | None = None) -> str:
    done = run_comet(*args, cwd=cwd, input=stdin, env={"COMET_WARM": "0"})
    assert done.exit_code == 0, done.stderr
    return done.stdout


def same_answer(text: str) -> str:
    """An answer without what differs on each call: the ids of the applications it recorded."""
    return re.sub(r"\bap-[0-9a-f]{8,}", "ap-X", text)


def rule_prompt(repo: Path, session: str) -> str:
    """A prompt hook's payload that states a project rule."""
    said = "From now on, always use uv for Python dependencies in this repository."
    return json.dumps(
        {"session_id": session, "cwd": str(repo), "hook_event_name": "UserPromptSubmit", "prompt": said}
    )


def remember(repo: Path, *args: str) -> None:
    done = run_comet("memory", "remember", *args, cwd=repo)
    assert done.exit_code == 0, done.stderr


def seed(repo: Path) -> None:
    (repo / "src" / "auth").mkdir(parents=True, exist_ok=True)
    (repo / "src" / "auth" / "login.py").write_text("# login\n")
    run_comet("init", cwd=repo)
    remember(repo, "--text", "Always run make lint before committing.", "--scope", "project")
    remember(
        repo, "--text", "Validate forms on the server too.", "--path", "src/auth/**", "--scope", "project"
    )
    remember(
        repo, "--text", "Reviews: comment on tests first.", "--operation", "review", "--scope", "project"
    )
    remember(repo, "--text", "给表加列时先写迁移脚本。", "--scope", "project")
    remember(repo, "--text", "Reply in English.", "--scope", "global")


def test_the_warm_process_answers_each_call_as_it_would_be_answered_by_itself(
    repo: Path, warm: Path, tmp_path: Path
) -> None:
    seed(repo)
    with serving(warm, tmp_path / "served.log"):
        for request in REQUESTS:
            alone = by_itself(*request, cwd=repo)
            done = run_comet(*request, cwd=repo)
            assert done.exit_code == 0 and done.stderr == ""
            assert same_answer(done.stdout) == same_answer(alone), request
        assert answered(tmp_path / "served.log") == [("answered", "task")] * len(REQUESTS)


def test_what_other_processes_write_is_seen_by_the_next_warm_call(
    repo: Path, warm: Path, tmp_path: Path
) -> None:
    seed(repo)
    with serving(warm, tmp_path / "served.log"):
        ask = ["task", "--json", "--task", "deploy the staging cluster with helm"]
        assert "helm upgrade" not in run_comet(*ask, cwd=repo).stdout
        remember(repo, "--text", "Deploy staging with helm upgrade --atomic.", "--scope", "project")
        delivered = json.loads(run_comet(*ask, cwd=repo).stdout)
        found = [item for item in delivered["context"] if "helm upgrade" in item["text"]]
        assert found, delivered
        listed = json.loads(run_comet("memory", "list", "--json", cwd=repo).stdout)["records"]
        record = next(r for r in listed if "helm" in r["text"])
        record_file = next(Path(os.environ["COMET_HOME"]).rglob(f"{record['id']}.md"))
        record_file.write_text(record_file.read_text().replace("--atomic", "--atomic --wait"))  # by hand
        wait_for(
            lambda: "--atomic --wait" in run_comet(*ask, cwd=repo).stdout, "the hand edit is delivered", 10
        )
        assert all(kind == ("answered", "task") for kind in answered(tmp_path / "served.log"))


def test_agent_hooks_are_answered_warm_and_what_the_user_said_is_remembered(
    repo: Path, warm: Path, tmp_path: Path
) -> None:
    seed(repo)
    with serving(warm, tmp_path / "served.log"):

        def start(session: str) -> str:  # each its own session: a session is given each item once
            return json.dumps({"session_id": session, "cwd": str(repo), "hook_event_name": "SessionStart"})

        hook = ["agent-hook", "--host", "claude", "SessionStart"]
        alone = by_itself(*hook, cwd=repo, stdin=start("one"))
        done = run_comet(*hook, cwd=repo, input=start("two"))
        assert done.exit_code == 0 and "make lint" in done.stdout
        assert same_answer(done.stdout).replace("claude:two", "claude:one") == same_answer(alone)
        prompt = ["agent-hook", "--host", "claude", "UserPromptSubmit"]
        assert run_comet(*prompt, cwd=repo, input=rule_prompt(repo, "s2")).exit_code == 0
        listed = run_comet("memory", "list", "--json", cwd=repo).json()["records"]
        assert any("uv" in record["text"] for record in listed)
        assert answered(tmp_path / "served.log") == [("answered", "agent-hook")] * 2


def test_the_first_call_starts_a_warm_process_that_leaves_when_idle(
    repo: Path, warm: Path, tmp_path: Path
) -> None:
    seed(repo)
    first = run_comet("task", "--json", cwd=repo)
    assert first.exit_code == 0 and "make lint" in first.stdout  # answered by itself meanwhile
    wait_for(lambda: sockets_of(warm), "the first call started a warm process")
    assert oct(warm.stat().st_mode & 0o777) == "0o700"
    assert all(oct(path.stat().st_mode & 0o777) in ("0o600", "0o700") for path in warm.iterdir())
    lock = next(warm.glob("*.lock"))
    pid = int(lock.read_text())
    os.kill(pid, signal.SIGKILL)  # killed: its socket stays behind, and nobody answers on it
    again = run_comet("task", "--json", cwd=repo)
    assert same_answer(again.stdout) == same_answer(first.stdout)
    wait_for(lambda: lock.read_text().strip() not in ("", str(pid)), "the next call started another")
    # One that idles leaves by itself, and takes its socket with it.
    os.kill(int(lock.read_text()), signal.SIGKILL)
    for socket in sockets_of(warm):
        socket.unlink()
    server = start_server(tmp_path / "served.log", "--idle", "0.3")
    assert server.wait(timeout=30) == 0
    assert sockets_of(warm) == []


@pytest.fixture(scope="module")
def private_comet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the comet under test, installed as a wheel installs it, for the tests that change
    its files' times: each test worker (a process) has its own, so a change is seen by no warm
    process but the test's own (with `-n auto` another worker's warm tests run meanwhile)."""
    site = wheel_layout(tmp_path_factory.mktemp("site"))
    subprocess.run([python(), "-m", "compileall", "-q", str(site)], check=True, timeout=120)
    return site


def module_file(module: str, tmp_path: Path) -> str:
    """Where the comet of this environment keeps `module`, or `module:FILE`, a data file beside it
    (asked from outside the checkout)."""
    module, _, data = module.partition(":")
    code = f"import {module} as m; print(m.__file__)"
    done = subprocess.run([python(), "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    file = done.stdout.strip()
    return os.path.join(os.path.dirname(file), data) if data else file


# A module the warm process loaded when it started, one it first loaded for a call (a prompt that
# states a rule), and the vocabulary (data that makes the search terms).
@pytest.mark.parametrize(
    "module",
    ["comet_git.commands.task", "comet_git.learning.signals", "comet_git.matching.text:vocabulary.txt"],
)
def test_a_changed_comet_is_never_served_by_the_process_started_before(
    repo: Path, warm: Path, tmp_path: Path, module: str, private_comet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(private_comet))  # the server, the calls, module_file
    monkeypatch.setenv("COMET_AGENT_HOOK_TIMEOUT", "60")  # the hook answers: no worker outlives it
    file = module_file(module, tmp_path)
    assert file.startswith(str(private_comet))
    seed(repo)
    with serving(warm, tmp_path / "served.log") as server:
        hook = ["agent-hook", "--host", "claude", "UserPromptSubmit"]
        assert run_comet(*hook, cwd=repo, input=rule_prompt(repo, "s")).exit_code == 0
        before = os.stat(file)
        os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))  # as a reinstall does
        try:
            done = run_comet("task", "--json", cwd=repo)
            assert done.exit_code == 0 and "uv" in done.stdout  # answered by itself
            assert server.wait(timeout=30) == 0  # and the old process left
        finally:
            os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns))
    log = (tmp_path / "served.log").read_text()
    assert answered(tmp_path / "served.log") == [("answered", "agent-hook"), ("declined", "task")], log
    assert f"declined task (comet changed: {file})" in log


def test_a_pipe_the_call_inherited_is_not_held_open_by_the_warm_process_it_starts(
    repo: Path, warm: Path
) -> None:
    """`comet task 3>&1 | wc -c` ends when comet does, also when that call started the warm
    process (which would otherwise hold the pipe for as long as it lives)."""
    seed(repo)
    started = time.monotonic()
    done = subprocess.run(
        ["sh", "-c", f"'{installed_comet()}' task --json 3>&1 | wc -c"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and int(done.stdout) > 100
    assert time.monotonic() - started < 20
    wait_for(lambda: sockets_of(warm), "the call started a warm process")


def test_a_socket_folder_that_others_could_enter_is_not_used(repo: Path, warm: Path) -> None:
    seed(repo)
    warm.mkdir(mode=0o755)
    warm.chmod(0o755)
    for _ in range(2):
        done = run_comet("task", "--json", cwd=repo)
        assert done.exit_code == 0 and "make lint" in done.stdout
    time.sleep(0.5)
    assert sockets_of(warm) == []


# A stand-in for a warm process that broke: it takes the call, then closes, or never answers.
BROKEN_SERVER = """
import os, socket, sys, time
listener = socket.socket(socket.AF_UNIX)
listener.bind(sys.argv[1]); listener.listen(8)
print("ready", flush=True)
while True:
    connection, _ = listener.accept()
    connection.recv(1 << 16)
    if sys.argv[2] == "close":
        connection.close()
    else:
        time.sleep(60)
"""


@pytest.mark.parametrize("breaks", ["close", "hang"])
def test_a_warm_process_that_breaks_or_hangs_costs_the_call_nothing_but_time(
    repo: Path, warm: Path, tmp_path: Path, breaks: str
) -> None:
    seed(repo)
    expected = by_itself("task", "--json", cwd=repo)
    first = start_server(tmp_path / "served.log")  # to learn where calls look for it
    wait_for(lambda: sockets_of(warm), "the warm process listens")
    where = sockets_of(warm)[0]
    stop(first)
    where.unlink(missing_ok=True)
    broken = subprocess.Popen([python(), "-c", BROKEN_SERVER, str(where), breaks], stdout=subprocess.PIPE)
    try:
        assert broken.stdout is not None and broken.stdout.readline() == b"ready\n"
        started = time.monotonic()
        done = run_comet("task", "--json", cwd=repo)
        assert done.exit_code == 0 and same_answer(done.stdout) == same_answer(expected)
        if breaks == "hang":
            assert time.monotonic() - started < 30
            assert broken.wait(timeout=10) == -signal.SIGKILL  # the call stopped it
    finally:
        stop(broken)
        assert broken.stdout is not None
        broken.stdout.close()


def test_a_call_from_another_environment_is_declined(repo: Path, warm: Path, tmp_path: Path) -> None:
    import socket

    from comet_git.warm import address

    with serving(warm, tmp_path / "served.log") as server:
        with socket.socket(socket.AF_UNIX) as connection:
            connection.connect(str(sockets_of(warm)[0]))
            connection.sendall(
                address.MAGIC + address.frame([b"another environment", os.fsencode(repo), b"task"])
            )
            assert connection.recv(16) == address.DECLINED
        with socket.socket(socket.AF_UNIX) as connection:  # not the protocol at all
            connection.connect(str(sockets_of(warm)[0]))
            connection.sendall(b"GET / HTTP/1.0\r\n\r\n")
            connection.shutdown(socket.SHUT_WR)
            assert connection.recv(16) == address.DECLINED
        assert server.poll() is None  # still serving


@pytest.mark.parametrize("switch", ["0", "1"])
def test_a_call_started_without_stdout_or_stdin_does_its_work_without_a_traceback(
    repo: Path, warm: Path, tmp_path: Path, switch: str
) -> None:
    seed(repo)
    with serving(warm, tmp_path / "served.log"):
        comet = installed_comet()
        for closed in (">&-", "<&-", "<&- >&-"):
            done = subprocess.run(
                ["sh", "-c", f"'{comet}' task --json {closed}"],
                cwd=repo,
                env={**os.environ, "COMET_WARM": switch},
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert (done.returncode, done.stderr) == (0, ""), closed
        hook = f"'{comet}' agent-hook --host claude SessionStart <&-"  # no payload: no session
        answers = [
            subprocess.run(
                ["sh", "-c", hook],
                cwd=repo,
                env={**os.environ, "COMET_WARM": warm_switch},
                capture_output=True,
                text=True,
            ).stdout
            for warm_switch in ("0", switch)
        ]
        assert "make lint" in answers[1] and same_answer(answers[1]) == same_answer(answers[0])
