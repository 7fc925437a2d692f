"""The Remote provider end to end: the installed `comet` against a real `comet serve` on 127.0.0.1.

With memory.provider remote the server is the memory: nothing is read from or written to the
local store, a server that is down or refuses the token is said so (and `comet task` still
exits 0), users are isolated, and the HTTP answers are the contract's error shape."""

from __future__ import annotations

import contextlib
import http.server
import importlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType

import pytest

from comet_git.errors import NotFoundError
from comet_git.journal.log import DONE, Journal
from comet_git.provider import Correct, Forget, Query, Remember
from comet_git.provider.remote import RemoteError, RemoteProvider
from comet_git.server.run import plan
from comet_git.store import Home
from comet_git.workspace import open_workspace
from tests.clihelp import Result, invoke, run_comet
from tests.serving import Server, free_port

BEARER = "Authorization"

# The server's backends: its embedded stores (--data), and PostgreSQL (--database); `server`
# (conftest) runs on each.
BACKENDS = ["embedded", "postgres"]


@contextlib.contextmanager
def environment(env: dict[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.pop("COMET_REMOTE_TOKEN", None)
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def comet(env: dict[str, str], *args: str | os.PathLike[str]) -> Result:
    """`comet ARGS` in-process (click's runner) with this environment: a subprocess each would
    take this module far past a minute on a busy machine; the real console script is run
    where its own path matters (`comet task`'s fast path, `comet serve`)."""
    with environment(env):
        return invoke(*args)


class Machine:
    """One client machine: its own COMET_HOME, set to the remote provider."""

    def __init__(self, home: Path, url: str, token: str | None) -> None:
        self.home = home
        self.env = {"COMET_HOME": str(home)}
        if token is not None:
            self.env["COMET_REMOTE_TOKEN"] = token
        for key, value in (("memory.provider", "remote"), ("memory.remote.url", url)):
            assert self.comet("config", "set", "--global", key, value).exit_code == 0

    def comet(self, *args: str | os.PathLike[str]) -> Result:
        return comet(self.env, *args)

    def installed(self, *args: str | os.PathLike[str]) -> Result:
        return run_comet(*args, env=self.env)

    def local_records(self) -> list[Path]:
        return sorted(self.home.glob("**/records/*.md"))


def stored_on(server: Server, user: str, record_id: str) -> bool:
    """Whether the server keeps `record_id` for `user`: a file of their store, or a row of theirs."""
    if server.database is None:
        return bool(list((server.data / "users" / user).glob(f"projects/*/records/{record_id}.md")))
    import psycopg

    with psycopg.connect(server.database) as connection:
        found = connection.execute(
            "SELECT 1 FROM records WHERE owner = %s AND id = %s AND state = 'live'", (user, record_id)
        ).fetchone()
    return found is not None


def new_user(server: Server, name: str) -> str:
    return server.create_token(name)


def test_memory_lives_on_the_server_and_a_second_machine_sees_it(
    server: Server, repo: Path, tmp_path: Path
) -> None:
    token = new_user(server, "ana")
    laptop = Machine(tmp_path / "laptop", server.url, token)
    made = laptop.comet(
        "memory", "remember", repo, "--text", "Run pytest with -n 0", "--task", "pytest", "--json"
    )
    assert made.exit_code == 0, made.stderr
    record_id = made.json()["record"]["id"]
    assert laptop.local_records() == []  # the local store is not written
    assert stored_on(server, "ana", record_id)

    desktop = Machine(tmp_path / "desktop", server.url, token)
    listed = desktop.comet("memory", "list", repo, "--json")
    assert [r["id"] for r in listed.json()["records"]] == [record_id]
    answer = desktop.installed("task", repo, "--task", "fix the pytest run", "--json").json()
    assert answer["retrieval"] == "enabled"
    assert [item["id"] for item in answer["context"] + answer["manifest"]] == [record_id]

    status = desktop.comet("memory", "status", repo, "--json")
    assert status.exit_code == 0, status.stderr
    assert status.json()["provider"] == "remote"
    assert status.json()["remote"] == {"url": server.url, "serverVersion": "0.1.0", "answered": True}
    assert f"remote: {server.url}" in desktop.comet("memory", "status", repo).stdout


def test_local_records_are_not_read_with_remote_on(server: Server, repo: Path, tmp_path: Path) -> None:
    home = tmp_path / "machine"
    local = comet({"COMET_HOME": str(home)}, "memory", "remember", repo, "--text", "A local-only rule")
    assert local.exit_code == 0, local.stderr
    machine = Machine(home, server.url, new_user(server, "ben"))
    assert machine.comet("memory", "list", repo, "--json").json()["records"] == []
    answer = machine.comet("task", repo, "--task", "a local-only rule", "--json").json()
    assert answer["retrieval"] == "enabled" and answer["context"] == answer["manifest"] == []


@pytest.mark.parametrize(
    ("token", "state"), [(None, "unauthorised"), ("comet_000000000000_" + "x" * 43, "unauthorised")]
)
def test_a_refused_token_is_said_so(
    server: Server, repo: Path, tmp_path: Path, token: str | None, state: str
) -> None:
    machine = Machine(tmp_path / "m", server.url, token)
    answer = machine.comet("task", repo, "--task", "anything", "--json")
    assert answer.exit_code == 0
    assert answer.json()["retrieval"] == "failed"
    assert answer.json()["provider"]["state"] == state
    listed = machine.comet("memory", "list", repo)
    assert listed.exit_code == 1 and state in listed.stderr and "COMET_REMOTE_TOKEN" in listed.stderr


def test_a_server_that_is_down_fails_loudly_and_changes_nothing(repo: Path, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    machine = Machine(tmp_path / "m", url, "comet_000000000000_" + "x" * 43)
    answer = machine.installed("task", repo, "--task", "anything", "--json")
    assert answer.exit_code == 0
    data = answer.json()
    assert (data["retrieval"], data["context"], data["manifest"]) == ("failed", [], [])
    assert data["provider"] == {"provider": "remote", "url": url, "state": "unreachable", "answered": False}
    for args in (
        ("memory", "list", repo),
        ("memory", "remember", repo, "--text", "x"),
        ("memory", "status", repo),
    ):
        result = machine.comet(*args)
        assert result.exit_code == 1, args
        assert f"remote memory {url}: unreachable" in result.stderr
        assert "Traceback" not in result.stderr
    assert machine.local_records() == []


def test_a_token_in_a_config_file_is_refused(repo: Path, tmp_path: Path) -> None:
    machine = Machine(tmp_path / "m", "http://127.0.0.1:9", None)
    refused = machine.comet("config", "set", "--global", "memory.remote.token", "secret")
    assert refused.exit_code == 1 and "COMET_REMOTE_TOKEN" in refused.stderr
    config = machine.home / "config.yaml"
    config.write_text(config.read_text() + "  token: secret\n".replace("  token", "    token"))
    assert "remote:" in config.read_text()
    listed = machine.comet("memory", "list", repo)
    assert (
        listed.exit_code == 1
        and "memory.remote.token" in listed.stderr
        and "COMET_REMOTE_TOKEN" in listed.stderr
    )


def test_a_repository_cannot_send_memory_elsewhere(repo: Path, tmp_path: Path) -> None:
    (repo / ".comet").mkdir()
    (repo / ".comet" / "config.yaml").write_text(
        "memory:\n  provider: remote\n  remote:\n    url: http://evil.example\n"
    )
    env = {"COMET_HOME": str(tmp_path / "h")}
    assert comet(env, "memory", "remember", repo, "--text", "stays here").exit_code == 0
    assert comet(env, "config", "get", repo, "memory.provider").stdout.startswith("memory.provider = local")


def test_two_users_are_isolated(server: Server, comet_home: Path) -> None:
    home = Home(comet_home)
    ana = RemoteProvider(home, None, server.url, new_user(server, "ana2"), timeout=30)
    bob = RemoteProvider(home, None, server.url, new_user(server, "bob2"), timeout=30)
    try:
        secret = ana.apply(Remember(text="Ana's own rule", scope="global")).id
        missing = "pm-zzzzzzzz"
        assert bob.query(Query()).records == []
        messages = []
        for record_id in (secret, missing):
            for call in (
                lambda wanted: bob.query(Query(ids=(wanted,), include_forgotten=True)),
                lambda wanted: bob.apply(Forget(wanted)),
                lambda wanted: bob.apply(Correct(wanted, text="mine now")),
            ):
                with pytest.raises(NotFoundError) as raised:
                    call(record_id)
                messages.append(raised.value.message.replace(record_id, "ID"))
        assert messages[:3] == messages[3:]  # an id of another user reads as one that never was
        assert [view.id for view in ana.query(Query()).records] == [secret]
        assert sum(sum(s.counts_by_lifecycle.values()) for s in bob.status().stores) == 0
    finally:
        ana.close()
        bob.close()


def test_a_token_revoked_mid_session_is_refused_from_the_next_request(
    server: Server, comet_home: Path
) -> None:
    token = server.create_token("carl")
    token_id = token.split("_")[1]
    client = RemoteProvider(Home(comet_home), None, server.url, token, timeout=30)
    try:
        client.apply(Remember(text="Before the revocation", scope="global"))
        revoked = run_comet("serve", "token", "revoke", token_id, *server.backend_args)
        assert revoked.exit_code == 0, revoked.stderr
        with pytest.raises(RemoteError) as raised:
            client.apply(Remember(text="After the revocation", scope="global"))
        assert raised.value.state == "unauthorised"
    finally:
        client.close()
    listed = run_comet("serve", "token", "list", *server.backend_args, "--json").json()
    assert token_id not in [item["id"] for item in listed["tokens"]]


def test_a_token_file_changed_twice_in_one_clock_tick_is_read_again(tmp_path: Path) -> None:
    """A revocation and a creation of the same size within the file system's clock tick leave the
    file's time and size as they were: the running server's store still reads the change."""
    from comet_git.server.tokens import TokenStore

    served, admin = TokenStore(tmp_path), TokenStore(tmp_path)
    carl, carl_entry = admin.create("carl")
    assert served.user_of(carl) == "carl"
    before = os.stat(served.path)
    admin.revoke(carl_entry.id)
    dora, _ = admin.create("dora")  # the same length of name: the same size of file
    os.utime(served.path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(served.path).st_size == before.st_size
    assert served.user_of(carl) is None
    assert served.user_of(dora) == "dora"


def test_http_errors_have_the_contract_shape(server: Server) -> None:
    token = new_user(server, "dora")
    auth = {BEARER: f"Bearer {token}"}

    def post(path: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
        status, data = server.request("POST", path, body, {**auth, **(headers or {})})
        return status, data

    def document(**fields: object) -> bytes:
        return json.dumps({"schema": "comet.provider/v1", **fields}).encode()

    remember = {
        "kind": "remember", "text": "Use tabs", "title": None, "scope": "global",
        "memoryType": "collaboration-policy", "memoryClass": None,
        "selectors": {"paths": [], "tasks": [], "operations": [], "phases": []},
        "summary": None, "authority": "explicit", "evidence": [], "id": None,
    }  # fmt: skip
    created = post("/v1/apply", document(change=remember))
    assert created[0] == 200
    record_id = created[1]["result"]["id"]  # type: ignore[index]
    correction = {"kind": "correct", "id": record_id, "text": "Use spaces", "baseVersion": 1}
    assert post("/v1/apply", document(change=correction))[0] == 200
    cases = [
        (post("/v1/query", b"{not json"), 400),
        (post("/v1/query", json.dumps({"schema": "comet.provider/v0"}).encode()), 400),
        (post("/v1/apply", document(change={"kind": "remember"})), 400),
        (post("/v1/apply", document(change=remember, project="../../etc")), 400),
        (server.request("POST", "/v1/status", document()), 401),
        (post("/v1/status", document(), {BEARER: "Bearer comet_000000000000_" + "y" * 43}), 401),
        (
            post("/v1/apply", document(change={"kind": "forget", "id": "pm-nothere1", "permanent": False})),
            404,
        ),
        (post("/v1/apply", document(change={**correction, "text": "Use tabs again"})), 409),
        (post("/v1/apply", b"{" + b" " * (5 * 1024 * 1024) + b"}"), 413),
        (post("/v1/apply", document(change={**remember, "memoryType": "nonsense"})), 422),
    ]
    for (status, data), wanted in cases:
        assert status == wanted, (wanted, data)
        error = data["error"]
        assert set(error) == {"kind", "message", "hint"}, data  # type: ignore[arg-type]
        assert "Traceback" not in json.dumps(data)
    status, described = server.request("GET", "/openapi.json")
    assert status == 200
    assert {"/v1/health", "/v1/status", "/v1/query", "/v1/apply"} <= set(described["paths"])


def test_binding_beyond_loopback_needs_tls_or_says_it_is_insecure(tmp_path: Path) -> None:
    refused = run_comet("serve", "--host", "0.0.0.0", "--port", str(free_port()), "--data", tmp_path / "d")
    assert refused.exit_code == 1 and "--tls-cert" in refused.stderr and "--insecure-http" in refused.stderr
    listening = plan("0.0.0.0", 8765, tmp_path, None, None, insecure_http=True)
    assert listening.warnings and "clear text" in listening.warnings[0]
    assert plan("127.0.0.1", 8765, tmp_path, None, None, insecure_http=False).warnings == []


@pytest.fixture(params=BACKENDS)
def own_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Server]:
    """A server of the test's own, to kill: stopped whatever the test's end."""
    database = request.getfixturevalue("pg_database") if request.param == "postgres" else None
    running = Server(tmp_path / "killed", database=database).start()
    try:
        yield running
    finally:
        running.stop()


def test_a_server_killed_during_applies_keeps_each_change_whole(own_server: Server, comet_home: Path) -> None:
    own = own_server
    token = own.create_token("erin")
    client = RemoteProvider(Home(comet_home), None, own.url, token, timeout=30)
    acknowledged: list[str] = []
    failure: list[RemoteError] = []
    started = threading.Event()

    def write() -> None:
        for number in range(10_000):
            change = Remember(text=f"Rule number {number} " + "x" * 2000, scope="global")
            try:
                acknowledged.append(client.apply(change).id)
            except RemoteError as error:
                failure.append(error)
                return
            finally:
                if number >= 5 or failure:
                    started.set()

    writer = threading.Thread(target=write)
    writer.start()
    assert started.wait(60)
    own.stop(signal.SIGKILL)
    writer.join(60)
    client.close()
    assert failure and failure[0].state == "unreachable"

    own.start()
    client = RemoteProvider(Home(comet_home), None, own.url, token, timeout=30)
    found = client.query(Query())
    client.close()
    assert found.invalid == []  # no half-written record
    ids = [view.id for view in found.records]
    assert set(acknowledged) <= set(ids) and len(ids) - len(acknowledged) in (0, 1)
    assert all(view.as_dict()["text"].endswith("x" * 2000) for view in found.records)


def test_edit_applies_the_saved_text_as_a_correction(server: Server, repo: Path, tmp_path: Path) -> None:
    local_env = {"COMET_HOME": str(tmp_path / "local")}
    remote = Machine(tmp_path / "remote", server.url, new_user(server, "fay"))
    editor = tmp_path / "editor.sh"
    for env in (local_env, remote.env):
        editor.write_text('#!/bin/sh\nsed -i "s/tabs/spaces/" "$1"\n')
        editor.chmod(0o700)
        made = comet(env, "memory", "remember", repo, "--text", "Indent with tabs", "--json")
        record_id = made.json()["record"]["id"]
        edited = comet({**env, "EDITOR": str(editor)}, "memory", "edit", repo, "--id", record_id, "--json")
        assert edited.exit_code == 0, edited.stderr
        assert edited.json()["record"]["text"] == "Indent with spaces"
        assert edited.json()["record"]["version"] == 2
        for bad in ('sed -i "s/^version: 2/version: 7/" "$1"', 'sed -i "s/^---$/--/" "$1"'):
            editor.write_text(f"#!/bin/sh\n{bad}\n")
            refused = comet({**env, "EDITOR": str(editor)}, "memory", "edit", repo, "--id", record_id)
            assert refused.exit_code == 1, refused.stdout
            assert "nothing was changed" in refused.stderr or "which the tool keeps" in refused.stderr
        shown = comet(env, "memory", "show", repo, "--id", record_id, "--json").json()["record"]
        assert (shown["version"], shown["text"]) == (2, "Indent with spaces")
    assert remote.local_records() == []


def test_export_from_local_then_import_into_remote(server: Server, repo: Path, tmp_path: Path) -> None:
    local_env = {"COMET_HOME": str(tmp_path / "local")}
    for text in ("Use pnpm", "Run ruff before committing"):
        assert comet(local_env, "memory", "remember", repo, "--text", text).exit_code == 0
    comet(local_env, "memory", "remember", repo, "--text", "Reply in English", "--scope", "global")
    exported = comet(local_env, "memory", "export", repo)
    assert exported.exit_code == 0, exported.stderr
    dump = tmp_path / "memory.json"
    dump.write_text(exported.stdout)

    remote = Machine(tmp_path / "remote", server.url, new_user(server, "gus"))
    imported = remote.comet("memory", "import", dump, repo, "--json")
    assert imported.exit_code == 0, imported.stderr
    assert len(imported.json()["imported"]) == 3
    again = remote.comet("memory", "import", dump, repo, "--json")
    assert again.json()["imported"] == [] and len(again.json()["unchanged"]) == 3
    mine = comet(local_env, "memory", "list", repo, "--json").json()["records"]
    theirs = remote.comet("memory", "list", repo, "--json").json()["records"]
    assert theirs == mine


def test_learning_lands_on_the_server(server: Server, repo: Path, tmp_path: Path) -> None:
    machine = Machine(tmp_path / "m", server.url, new_user(server, "hal"))
    said = machine.comet("memory", "signal", repo, "--text", "From now on, always use pnpm", "--json")
    assert said.exit_code == 0, said.stderr
    record_id = said.json()["record"]["id"]
    assert [r["id"] for r in machine.comet("memory", "list", repo, "--json").json()["records"]] == [record_id]
    assert machine.local_records() == []
    assert list((machine.home).glob("**/journal/*"))  # the journal stays on the machine


BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
EXTRA_SET = Path(__file__).resolve().parent / "data" / "director-extra.json"


def _eval_runner() -> ModuleType:
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module("eval_director")


@pytest.mark.parametrize("which", ["dev", "extra"])
def test_the_director_through_remote_equals_local(server: Server, tmp_path: Path, which: str) -> None:
    """The labelled sets loaded locally, moved to the server by export and import: every request
    answers the same ids in the same order through Remote as through Local."""
    runner = _eval_runner()
    path = runner.DEV_SET if which == "dev" else EXTRA_SET
    if not path.exists():
        pytest.skip(f"{path} is not available here")
    dataset = runner.load_dataset(path)
    local_env = {"COMET_HOME": str(tmp_path / "local")}

    def runs_in(env: dict[str, str]) -> Callable[[Sequence[str], Path, str | None], tuple[int, str, str]]:
        def run(args: Sequence[str], cwd: Path, stdin: str | None) -> tuple[int, str, str]:
            with environment(env):
                result = invoke(*args, cwd=cwd, input=stdin)
            return result.exit_code, result.stdout, result.stderr

        return run

    def git(args: Sequence[str], cwd: Path) -> None:
        subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)

    loaded = runner.setup(dataset, tmp_path / "eval", runs_in(local_env), git)
    remote = Machine(tmp_path / "remote", server.url, new_user(server, f"eval-{which}"))
    for repo in loaded.repos.values():
        dump = tmp_path / f"{repo.name}.json"
        dump.write_text(comet(local_env, "memory", "export", repo).stdout)
        imported = remote.comet("memory", "import", dump, repo)
        assert imported.exit_code == 0, imported.stderr

    def delivered(env: dict[str, str]) -> list[list[str]]:
        answers = runner.run_queries(dataset, loaded, runs_in(env))
        return [[item["id"] for _, item, _ in answer.items] for answer in answers]

    ours, theirs = delivered(local_env), delivered(remote.env)
    assert any(ours) and theirs == ours
    # And the session-start requests (no task text): the standing rules, the core profile.
    starts = [runner.run_session_starts(dataset, loaded, runs_in(env)) for env in (local_env, remote.env)]
    assert starts[0] == starts[1]


class _OtherVersion(http.server.BaseHTTPRequestHandler):
    """A server that answers as a later version of the contract would."""

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._answer()

    def _answer(self) -> None:
        body = json.dumps({"schema": "comet.provider/v2", "status": "ok"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


@contextlib.contextmanager
def other_version_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _OtherVersion)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def silent_server() -> Iterator[str]:
    """Accepts connections (the kernel does, from the backlog) and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


def test_another_version_of_the_contract_is_a_version_mismatch(repo: Path, tmp_path: Path) -> None:
    with other_version_server() as url:
        machine = Machine(tmp_path / "m", url, "comet_000000000000_" + "x" * 43)
        answer = machine.comet("task", repo, "--task", "anything", "--json").json()
        assert (answer["retrieval"], answer["provider"]["state"]) == ("failed", "version-mismatch")
        listed = machine.comet("memory", "list", repo)
        assert listed.exit_code == 1 and "version-mismatch" in listed.stderr and "upgrade" in listed.stderr


def test_a_server_slower_than_the_timeout_is_unreachable(repo: Path, tmp_path: Path) -> None:
    with silent_server() as url:
        machine = Machine(tmp_path / "m", url, "comet_000000000000_" + "x" * 43)
        assert machine.comet("config", "set", "--global", "memory.remote.timeout", "0.3").exit_code == 0
        answer = machine.comet("task", repo, "--task", "anything", "--json").json()
        assert answer["retrieval"] == "failed" and answer["provider"]["state"] == "unreachable"
        assert "no answer within 0.3 s" in answer["diagnostics"][0]


def test_learning_stops_at_a_server_that_does_not_answer_and_keeps_the_events(
    repo: Path, tmp_path: Path
) -> None:
    machine = Machine(tmp_path / "m", f"http://127.0.0.1:{free_port()}", "comet_000000000000_" + "x" * 43)
    for lesson in ("Run the migrations before the tests", "Rebuild the docs after a release"):
        done = machine.comet("task", repo, "--complete", "--summary", "did it", "--outcome", "success",
                             "--lesson", lesson)  # fmt: skip
        assert done.exit_code == 0, done.stderr
    report = machine.comet("learn", repo, "--json").json()
    assert len(report["failed"]) == 1 and "unreachable" in report["failed"][0]["error"]  # stopped at once
    with environment(machine.env):
        journal = Journal(open_workspace(repo).provider().visible_stores()[-1])
        completed = [event.event_id for event in journal.events() if event.type == "task.completed"]
        statuses = journal.statuses()
    assert len(completed) == 2 and all(statuses.get(event_id, ("",))[0] != DONE for event_id in completed)
    assert machine.local_records() == []
