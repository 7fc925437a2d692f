"""`comet memory signal`: long-term statements become memory, one-offs never do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clihelp import invoke
from tests.gitutil import make_repo

DEV_SET = Path(__file__).resolve().parents[2] / "shared" / "eval" / "signals-dev.jsonl"


def signal(repo: Path, text: str, *extra: str) -> dict[str, object]:
    result = invoke("memory", "signal", repo, "--text", text, "--json", *extra)
    assert result.exit_code == 0, result.stderr
    data: dict[str, object] = result.json()
    return data


def listed(repo: Path) -> list[dict[str, object]]:
    records: list[dict[str, object]] = invoke("memory", "list", repo, "--json").json()["records"]
    return records


def test_a_long_term_statement_becomes_an_explicit_proven_record(repo: Path) -> None:
    data = signal(repo, "From now on, run ruff before every commit in this project.")
    assert data["schema"] == "comet.signal/v1"
    assert data["kind"] == "long-term" and data["stored"] is True and data["constraint"] is None
    record = data["record"]
    assert isinstance(record, dict)
    assert (record["authority"], record["lifecycle"], record["scope"]) == ("explicit", "proven", "project")
    assert record["selectors"]["operations"] == ["commit"]
    assert record["evidence"][0]["event"] == data["eventId"]
    assert [r["id"] for r in listed(repo)] == [record["id"]]
    events = invoke("journal", "list", repo, "--json", "--type", "user.signal").json()["events"]
    assert [(e["eventId"], e["processing"]) for e in events] == [(data["eventId"], "done")]


def test_a_one_off_is_a_constraint_and_is_never_stored(repo: Path) -> None:
    data = signal(repo, "这次先不要提交。")
    assert data["kind"] == "one-off" and data["stored"] is False and data["record"] is None
    assert data["constraint"] == "这次先不要提交。"
    assert "这次" in str(data["reason"])
    assert listed(repo) == []
    assert len(invoke("journal", "list", repo, "--json").json()["events"]) == 1


@pytest.mark.parametrize(
    ("text", "rule", "asked"),
    [
        ("always use uv here; now add httpx", "always use uv here", "now add httpx"),
        ("以后都用 uv 管理依赖。现在帮我加上 httpx", "以后都用 uv 管理依赖。", "现在帮我加上 httpx"),
    ],
)
def test_only_the_rule_is_stored_and_the_whole_statement_is_journaled(
    repo: Path, text: str, rule: str, asked: str
) -> None:
    data = signal(repo, text)
    record = data["record"]
    assert isinstance(record, dict) and record["text"] == rule
    assert "httpx" not in json.dumps(record["selectors"]) and "httpx" not in record["title"]
    assert record["evidence"][0]["summary"] == rule
    assert asked in str(data["note"])
    [event] = invoke("journal", "list", repo, "--json", "--type", "user.signal").json()["events"]
    assert event["signal"]["text"] == text and event["signal"]["rule"] == rule
    # The rule reaches tasks it is about, the request no longer does.
    about_httpx = invoke("memory", "retrieve", repo, "--task", "upgrade httpx", "--json").json()
    assert "httpx" not in json.dumps(about_httpx["context"] + about_httpx["manifest"], ensure_ascii=False)


def test_a_one_off_said_in_a_repository_is_journaled_in_its_project(repo: Path) -> None:
    data = signal(repo, "Don't commit this time.")
    assert data["kind"] == "one-off" and data["constraint"] == "Don't commit this time."
    key = invoke("project", "identity", repo, "--json").json()["key"]
    [event] = invoke("journal", "list", repo, "--json").json()["events"]
    assert (event["scope"], event["projectKey"]) == ("project", key)


def test_a_signal_with_a_session_joins_the_sessions_episode(repo: Path) -> None:
    task = invoke("task", repo, "--task", "tidy the build", "--session", "s-42", "--json")
    assert task.exit_code == 0, task.stderr
    signal(repo, "这次先不要提交。", "--session", "s-42")
    events = invoke("journal", "list", repo, "--json").json()["events"]
    [said] = [e["episodeId"] for e in events if e["type"] == "user.signal"]
    assert [e["episodeId"] for e in events if e["type"] in ("task.started", "context.applied")] == [said]
    signal(repo, "Don't push yet.", "--session", "another")
    other = invoke("journal", "list", repo, "--json", "--type", "user.signal").json()["events"]
    assert len({e["episodeId"] for e in other}) == 2


def test_a_statement_about_the_person_goes_global(repo: Path, tmp_path: Path) -> None:
    data = signal(repo, "Always reply to me in Chinese.")
    record = data["record"]
    assert isinstance(record, dict) and record["scope"] == "global"
    assert record["memoryType"] == "core-profile"
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert [r["id"] for r in listed(other)] == [record["id"]]


def test_a_rule_that_names_the_repository_goes_to_its_project(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "checkout", remote="https://example.invalid/acme/telemetry-pipeline.git")
    data = signal(repo, "From now on, whenever you show me rows from telemetry-pipeline, mask e-mails.")
    assert isinstance(data["record"], dict) and data["record"]["scope"] == "project", data["scopeReason"]
    assert data["scopeReason"] == 'project: "telemetry-pipeline" names this repository'
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert listed(other) == []  # it does not follow the person to other repositories


def test_scope_can_be_forced(repo: Path) -> None:
    data = signal(repo, "Always reply to me in Chinese.", "--scope", "project")
    assert isinstance(data["record"], dict) and data["record"]["scope"] == "project"


def test_learning_off_journals_but_stores_nothing(repo: Path) -> None:
    invoke("config", "set", repo, "memory.learning", "false")
    data = signal(repo, "Always use ISO 8601 dates.")
    assert data["kind"] == "long-term" and data["stored"] is False
    assert "memory.learning" in str(data["note"])
    assert listed(repo) == []


def test_secrets_in_a_statement_are_redacted_everywhere(repo: Path, comet_home: Path) -> None:
    signal(repo, "Always deploy with the key AKIAIOSFODNN7EXAMPLE from now on.")
    for path in comet_home.rglob("*"):
        if path.is_file():
            assert b"AKIAIOSFODNN7EXAMPLE" not in path.read_bytes(), path


def test_permanent_forget_scrubs_the_signal_from_the_journal(repo: Path, comet_home: Path) -> None:
    data = signal(repo, "From now on, every PR description needs a rollback plan for the zebra service.")
    record_id = data["record"]["id"]  # type: ignore[index]
    assert invoke("memory", "forget", repo, "--id", record_id, "--permanent").exit_code == 0
    for path in comet_home.rglob("*"):
        if path.is_file():
            assert b"zebra" not in path.read_bytes(), path
    events = invoke("journal", "list", repo, "--json").json()["events"]
    assert [e["eventId"] for e in events] == [data["eventId"]]


def test_an_empty_statement_is_refused(repo: Path) -> None:
    result = invoke("memory", "signal", repo, "--text", "  ")
    assert result.exit_code == 1 and "empty" in result.stderr


@pytest.mark.skipif(not DEV_SET.exists(), reason="the shared evaluation set is not here")
def test_the_dev_set_through_the_cli_stores_no_one_off(repo: Path) -> None:
    cases = [json.loads(line) for line in DEV_SET.read_text().splitlines() if line.strip()]
    stored_one_offs = []
    correct = 0
    for case in cases:
        before = {r["id"] for r in listed(repo)}
        data = signal(repo, case["text"])
        after = {r["id"] for r in listed(repo)}
        stored = bool(after - before) or (data["kind"] == "long-term" and data["record"] is not None)
        assert stored == (data["record"] is not None)  # what the output says is what list shows
        if case["label"] == "one-off" and stored:
            stored_one_offs.append(case["text"])
        correct += data["kind"] == case["label"]
    assert stored_one_offs == []
    assert correct / len(cases) >= 0.95
