"""The shortcuts of the agent's hot path (`comet task`) answer what the long way answers:
the text search run in a thread, the plain config file read without YAML, the background
refresh started without subprocess, the episode ids hashed without OpenSSL."""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import comet_git.index
import comet_git.provider.candidates as candidates_module
from comet_git.config import read_layer, write_setting
from comet_git.director.deliver import deliver, plan
from comet_git.director.service import _placements
from comet_git.journal.events import stable_id
from comet_git.provider import Query, Remember
from comet_git.provider.candidates import Selection, TaskRequest, select
from comet_git.provider.local import LocalProvider
from comet_git.records.model import Selectors
from comet_git.store import Home
from tests.clihelp import invoke

POLICY, CORE = "collaboration-policy", "core-profile"
RULES = [
    ("Auth handlers log the error code, never the token.", POLICY, Selectors(paths=("src/auth/**",))),
    ("Run the auth tests before committing.", POLICY, Selectors(operations=("commit",))),
    ("Plan migrations with a rollback step.", POLICY, Selectors(phases=("plan",))),
    ("Billing migrations need a dry run.", POLICY,
     Selectors(paths=("src/billing/",), operations=("migrate",))),
    ("Mention the ticket in every error message.", POLICY, Selectors(tasks=("error handling",))),
    ("Answer in short paragraphs.", CORE, Selectors()),
    ("Core rule for edits of the auth module.", CORE, Selectors(operations=("edit",))),
    ("Docs pages keep one heading per section.", POLICY, Selectors(paths=("docs/*.md",))),
    ("Refactor the auth module in small steps.", POLICY, Selectors()),
    ("Use the recorded fixtures for API client tests.", POLICY,
     Selectors(paths=("tests/api/**",), phases=("verify",))),
    ("Release notes name every breaking change.", POLICY, Selectors(operations=("release",))),
    ("Error handling: wrap the database errors.", "personal-episode", Selectors()),
]  # fmt: skip
REQUESTS = [
    TaskRequest("Refactor the auth module error handling", "src/auth/login.py", False, "edit", "build"),
    TaskRequest("Write database migrations for billing", "src/billing", True, "migrate", "plan"),
    TaskRequest("Fix the flaky API client tests", "tests/api/test_client.py", False, "test", "verify"),
    TaskRequest("Prepare the release notes", None, False, "release", None),
    TaskRequest("error handling", None, False, None, None, budget=60, max_entries=2),
    TaskRequest("nothing in common", "docs", True, "COMMIT", "Plan"),
]


@pytest.fixture(params=["fts5", "no fts5"])
def provider(
    request: pytest.FixtureRequest, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> LocalProvider:
    if request.param == "no fts5":
        monkeypatch.setattr(comet_git.index, "FTS5_ENABLED", False)
    provider = LocalProvider(Home(comet_home), "acme-app-0123abcd")
    for (text, memory_type, selectors), scope in zip(RULES * 3, itertools.cycle(["project", "global"])):
        provider.apply(Remember(text=text, memory_type=memory_type, selectors=selectors, scope=scope))
    return provider


def outline(selection: Selection) -> tuple[object, ...]:
    """All a selection says; the scores rounded, as recency moves them between two calls."""
    candidates = [
        (c.id, round(c.score, 6), c.why, c.strong, c.reached, c.title, c.summary, c.text)
        for c in selection.candidates
    ]
    return (
        candidates,
        sorted(selection.excluded.items()),
        selection.already_given,
    )


@pytest.mark.parametrize("everything", [False, True])
def test_the_search_in_a_thread_selects_what_the_search_in_line_selects(
    provider: LocalProvider, monkeypatch: pytest.MonkeyPatch, everything: bool
) -> None:
    monkeypatch.setattr(candidates_module, "SEARCH_APART_FROM", 0)  # a thread whatever the size
    names = [store.name for store in provider.visible_stores()]
    with provider._open_index() as index:
        for request in REQUESTS:
            in_line = select(index.connection, names, request, index.has_fts, everything=everything)
            apart = select(
                index.connection, names, request, index.has_fts, everything=everything, search=index.reader
            )
            assert outline(apart) == outline(in_line), request
            assert in_line.candidates, request


def test_the_search_in_a_thread_is_used_from_the_size_on(
    provider: LocalProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[bool] = []
    names = [store.name for store in provider.visible_stores()]
    with provider._open_index() as index:

        def reader() -> object:
            opened.append(True)
            return index.reader()

        select(index.connection, names, REQUESTS[0], index.has_fts, search=reader)
        assert opened == []
        monkeypatch.setattr(candidates_module, "SEARCH_APART_FROM", 10)
        select(index.connection, names, REQUESTS[0], index.has_fts, search=reader)
        assert opened == [True]


def test_a_failing_search_in_a_thread_fails_the_selection(
    provider: LocalProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(candidates_module, "SEARCH_APART_FROM", 0)

    def broken() -> object:
        raise OSError("no second connection")

    names = [store.name for store in provider.visible_stores()]
    with provider._open_index() as index, pytest.raises(OSError, match="no second connection"):
        select(index.connection, names, REQUESTS[0], index.has_fts, search=broken)


def delivered(selection: Selection, request: TaskRequest) -> tuple[object, ...]:
    """What delivery gives, without the application ids (random)."""
    delivery = deliver(selection, request)
    items = [{key: value for key, value in item.items() if key != "applicationId"}
             for item in [*delivery.context, *delivery.manifest]]  # fmt: skip
    return items, delivery.used, delivery.omitted


def test_only_the_texts_delivery_places_are_read(provider: LocalProvider) -> None:
    names = [store.name for store in provider.visible_stores()]
    requests = [*REQUESTS, TaskRequest(""), TaskRequest("", budget=200), TaskRequest("auth", budget=300)]
    unread = 0
    with provider._open_index() as index:
        for request in requests:
            eager = select(index.connection, names, request, index.has_fts)
            lazy = select(index.connection, names, request, index.has_fts, placements=_placements)
            assert delivered(lazy, request) == delivered(eager, request), request
            placed = dict(plan(lazy.candidates, lazy.already_given, request).placed)
            for candidate in lazy.candidates:
                assert bool(candidate.title) == (candidate in placed), (request, candidate.id)
                assert bool(candidate.text) == placed.get(candidate, False), (request, candidate.id)
            unread += sum(1 for candidate in lazy.candidates if candidate not in placed)
    assert unread  # some candidates were never placed, and their texts never read
    for request in requests:  # and through the provider contract, as the director asks
        through = provider.query(Query(task=request, placements=_placements)).selection
        assert through is not None
        everything = provider.query(Query(task=request)).selection
        assert everything is not None
        assert delivered(through, request) == delivered(everything, request), request


def test_a_selection_is_delivered_for_its_own_request(provider: LocalProvider) -> None:
    selection = provider.query(Query(task=REQUESTS[0])).selection
    assert selection is not None
    assert deliver(selection, REQUESTS[0]).context
    with pytest.raises(ValueError):
        deliver(selection, REQUESTS[0]._replace(budget=10))


def test_the_plain_config_file_reads_as_yaml_reads_it(tmp_path: Path) -> None:
    import yaml

    path = tmp_path / "config.yaml"
    texts = [
        "memory:\n  learning: false\n",
        "memory:\n  learning: true\n  retrieval: false\n",
        "memory:\n  retrieval: true",
        "memory:\n  retrieval: false\n  learning: false\n",
        "memory:\n  learning: false  # a comment\n",
        "memory:\n    learning: no\n",
        "memory: {learning: true}\n",
        "memory:\n  learning: false\n  learning: true\n",
    ]
    for text in texts:
        path.write_text(text)
        expected = {f"memory.{key}": value for key, value in yaml.safe_load(text)["memory"].items()}
        assert read_layer(path) == expected, text


def test_the_plain_config_file_is_read_without_importing_yaml(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    write_setting(path, "memory.learning", False)  # as `comet config set` writes it
    code = (
        "import sys; from pathlib import Path; from comet_git.config import read_layer;"
        f"print(read_layer(Path({str(path)!r})), 'yaml' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "{'memory.learning': False} False"


def test_a_stale_scan_is_refreshed_in_the_background(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    import comet_git.provider.freshness
    import comet_git.provider.local
    from comet_git.index import Index

    for module in (comet_git.index, comet_git.provider.freshness):  # files just written count as settled
        monkeypatch.setattr(module, "RACY_WINDOW_NS", 0)
    invoke("memory", "remember", repo, "--text", "Auth handlers log the error code.", "--json")
    invoke("memory", "list", repo, "--json")  # a full scan: notes when it ran
    index_path = comet_home / "index" / "comet.sqlite3"
    index = Index.open(index_path)
    keys = [key for (key,) in index.connection.execute("SELECT key FROM meta WHERE key LIKE 'scanned:%'")]
    assert keys
    for key in keys:
        index.set_meta(key, "0")  # the last full scan was long ago
    index.close()
    spawned: list[list[str]] = []
    real_spawn = getattr(os, "posix_spawn", None)

    def spawn(path: str, argv: list[str], *args: object, **kwargs: object) -> int:
        spawned.append(argv)
        assert real_spawn is not None
        return int(real_spawn(path, argv, *args, **kwargs))

    monkeypatch.setattr(comet_git.provider.local.os, "posix_spawn", spawn, raising=False)
    answer = invoke("task", repo, "--task", "auth error", "--json")
    assert answer.json()["retrieval"] == "enabled"
    if sys.version_info >= (3, 11):
        assert spawned and spawned[0][1:4] == ["-P", "-m", "comet_git.provider.background"]
    deadline = time.monotonic() + 60
    scanned = [0.0]
    while time.monotonic() < deadline:
        index = Index.open(index_path)
        scanned = [float(index.get_meta(key) or 0) for key in keys]
        index.close()
        if all(scanned):
            break
        time.sleep(0.2)
    assert all(scanned), "the background refresh did not run"


# What an up-to-date `comet task` must not import: OpenSSL (hashlib: only a folder listing or a
# changed file is hashed) and, with no task text, the stemmer.  Reported as the process ends.
PROBE = """
import json, os, sys
sys.argv = ["comet", *sys.argv[1:]]
real_exit = os._exit
def end(code):
    sys.stdout.flush()
    sys.stderr.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n")
    real_exit(code)
os._exit = end
from comet_git.entry import main
main()
"""


def test_an_up_to_date_task_imports_neither_hashlib_nor_at_session_start_the_classifier(
    repo: Path, comet_home: Path
) -> None:
    import os

    invoke("memory", "remember", repo, "--text", "Auth handlers log the error code.", "--json")
    invoke("memory", "remember", repo, "--text", "Answer briefly.", "--type", "core-profile", "--json")
    long_ago = time.time() - 600  # files that are not "racy": a quick look trusts them
    for path in [comet_home, *comet_home.rglob("*")]:
        if "index" not in path.parts:
            os.utime(path, (long_ago, long_ago))
    for _ in range(2):  # the first takes the files in (no longer racy), the second finds them clean
        invoke("memory", "list", repo, "--json")
    heavy = {"dataclasses", "subprocess"}
    prompt = {"session_id": "s-1", "cwd": str(repo), "hook_event_name": "UserPromptSubmit",
              "prompt": "Fix the auth error handling and keep the tests green"}  # fmt: skip
    for argv, stdin, unwanted in (
        # (the stemmer is loaded for its release, which the index's terms depend on: ~1.5 ms)
        (["task", str(repo), "--json"], None, {"hashlib", "_hashlib", "comet_git.learning.cues"}),
        (["task", str(repo), "--task", "auth error handling", "--json"], None, {"hashlib", "_hashlib"}),
        # the prompt hook looks for cues in every prompt: with NamedTuples, not dataclasses
        (["agent-hook", "--host", "claude", "UserPromptSubmit"], json.dumps(prompt), {"hashlib", *heavy}),
    ):
        done = subprocess.run(
            [sys.executable, "-c", PROBE, *argv], cwd=repo, input=stdin, capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() and (stdin or json.loads(done.stdout)["context"]), argv  # it delivered
        [line] = [line for line in done.stderr.splitlines() if line.startswith("MODULES ")]
        assert unwanted & set(json.loads(line.removeprefix("MODULES "))) == set(), argv


def test_episode_ids_are_the_sha256_they_always_were() -> None:
    parts = ("app-3f9c2a1b", "session", "2026-11-30")
    expected = "ep-" + hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:20]
    assert stable_id("ep", *parts) == expected
