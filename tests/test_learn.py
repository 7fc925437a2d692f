"""`comet learn` end to end: real git histories, imported, reflected on and consolidated."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from comet_git.journal.events import Event
from comet_git.journal.log import Journal
from comet_git.store import Home
from tests.clihelp import invoke
from tests.gitutil import git
from tests.test_learn_reflectors import CONVENTIONAL_SUBJECTS

ME = ("Test User", "test.user@example.com")
OTHER = ("Other Person", "other@example.com")


def ok(*args: str | os.PathLike[str], cwd: Path, input: str | None = None) -> Any:
    result = invoke(*args, "--json", cwd=cwd, input=input)
    assert result.exit_code == 0, result.stderr + result.stdout
    return result.json()


def author_commit(repo: Path, author: tuple[str, str], message: str, files: dict[str, str]) -> None:
    for name, line in files.items():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("a") as handle:
            handle.write(line + "\n")
        git(repo, "add", name)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": author[0],
        "GIT_AUTHOR_EMAIL": author[1],
        "GIT_COMMITTER_NAME": author[0],
        "GIT_COMMITTER_EMAIL": author[1],
    }
    subprocess.run(["git", "commit", "-q", "-m", message], cwd=repo, env=env, check=True)


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q")
    git(path, "remote", "add", "origin", f"https://example.com/acme/{path.name}.git")
    return path


def habits(repo: Path) -> dict[str, dict[str, Any]]:
    """The live inferred records, by title."""
    records = ok("memory", "list", cwd=repo)["records"]
    return {record["title"]: record for record in records if record["authority"] == "inferred"}


CONVENTIONAL = CONVENTIONAL_SUBJECTS  # twelve subjects of one Conventional Commits user
CONVENTIONAL_HABITS = 9  # the habits conventional_repo's user has (see the first test)
# What a person who writes plain subjects, one line each, never does.
PLAIN_NEGATIVES = {
    "No type prefix on commit subjects",
    "Commit subjects do not end with a period",
    "No emoji in commit subjects",
    "Commit messages are a subject line only",
}


@pytest.fixture
def conventional_repo(tmp_path: Path) -> Path:
    """A user who writes Conventional Commits and signs off, and always touches
    tests/unit/x with src/x."""
    repo = new_repo(tmp_path / "conventional")
    for number, subject in enumerate(CONVENTIONAL):
        files = {
            f"src/x/mod{number % 3}.py": f"v{number}",
            f"tests/unit/x/test_mod{number % 3}.py": f"t{number}",
        }
        author_commit(repo, ME, f"{subject}\n\nSigned-off-by: {ME[0]} <{ME[1]}>", files)
    return repo


def test_the_true_habits_of_the_user_are_inferred_with_evidence(conventional_repo: Path) -> None:
    repo = conventional_repo
    ok("init", cwd=repo)
    imported = ok("journal", "import-history", cwd=repo)
    assert imported["added"] == len(CONVENTIONAL)
    report = ok("learn", cwd=repo)
    assert report["events"]["failed"] == 0
    found = habits(repo)
    assert set(found) == {
        "Commit subjects follow Conventional Commits",
        "Commit subjects start with a lowercase letter",
        "Commit subjects of at most 50 characters",
        "Commit subjects in the imperative mood",
        "Commits are signed off",
        "Commit subjects do not end with a period",
        "No emoji in commit subjects",
        "Commit messages are a subject line only",  # a Signed-off-by trailer is no body
        "Changes to src/x/ come with tests in tests/unit/x/",
    }
    for record in found.values():
        assert record["lifecycle"] == "trial" and record["memoryType"] == "collaboration-policy"
        evidence = record["evidence"]
        assert evidence[0]["kind"] == "reflection"
        assert evidence[0]["summary"].startswith(("12 of 12", "12 of your 12"))
        commits = [item for item in evidence if item["kind"] == "repo.commit"]
        assert len(commits) == 5 and all(item["event"].startswith("ev-") for item in commits)
    assert found["Commits are signed off"]["selectors"]["operations"] == ["commit"]
    assert found["Changes to src/x/ come with tests in tests/unit/x/"]["selectors"]["paths"] == ["src/x/"]

    # Learned habits reach the agent where they apply, and only there.
    context = ok("task", "--task", "commit the parser fix", "--operation", "commit", cwd=repo)
    delivered = {item["title"] for item in context["context"] + context["manifest"]}
    assert "Commits are signed off" in delivered
    elsewhere = ok("task", "--task", "deploy the service", "--operation", "deploy", cwd=repo)
    assert "Commits are signed off" not in {
        item["title"] for item in elsewhere["context"] + elsewhere["manifest"]
    }


def test_learn_twice_and_repair_give_the_same_records(conventional_repo: Path, comet_home: Path) -> None:
    repo = conventional_repo
    ok("init", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    ok("learn", cwd=repo)
    first = ok("memory", "list", cwd=repo)["records"]
    again = ok("learn", cwd=repo)
    assert again["events"]["processed"] == 0
    assert all(item["status"] == "noop" for item in again["results"])
    assert ok("memory", "list", cwd=repo)["records"] == first

    shutil.rmtree(comet_home / "index")
    ok("repair", cwd=repo)
    ok("learn", cwd=repo)
    assert ok("memory", "list", cwd=repo)["records"] == first


def test_a_forgotten_habit_is_never_learned_again(conventional_repo: Path, comet_home: Path) -> None:
    repo = conventional_repo
    ok("init", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    ok("learn", cwd=repo)
    found = habits(repo)
    soft = found["Commits are signed off"]["id"]
    hard = found["Commit subjects in the imperative mood"]["id"]
    ok("memory", "forget", "--id", soft, cwd=repo)
    ok("memory", "forget", "--id", hard, "--permanent", cwd=repo)
    # Even with every event pending again (the processing status lost), nothing comes back.
    for status in comet_home.glob("projects/*/journal/processing.jsonl"):
        status.unlink()
    report = ok("learn", cwd=repo)
    assert {soft, hard} <= {item["id"] for item in report["results"] if item["status"] == "noop"}
    remaining = habits(repo)
    assert (
        "Commits are signed off" not in remaining
        and "Commit subjects in the imperative mood" not in remaining
    )
    assert len(remaining) == len(found) - 2


def test_two_authors_with_opposite_habits(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "shared")
    past = ["Added", "Fixed", "Updated", "Removed", "Improved", "Changed"]
    for number in range(14):
        author_commit(repo, ME, f"{past[number % 6]} the widget part {number}", {f"lib/w{number}.txt": "x"})
        author_commit(
            repo,
            OTHER,
            f"fix(core): tidy the gadget part {number}\n\nSigned-off-by: O <o@example.com>",
            {"b": "y"},
        )
    ok("init", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    ok("learn", cwd=repo)
    assert set(habits(repo)) == {
        "Commit subjects in the past tense",
        "Commit subjects start with a capital letter",
        "Commit subjects of at most 50 characters",
        *PLAIN_NEGATIVES,
    }


def test_too_little_evidence_is_a_noop_and_noise_forms_nothing(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "few")
    for number, subject in enumerate(CONVENTIONAL[:5]):
        author_commit(repo, ME, subject, {f"f{number}": "x"})
    ok("init", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    assert ok("learn", cwd=repo)["results"] == []
    assert habits(repo) == {}

    noisy = new_repo(tmp_path / "noisy")
    subjects = ["WIP", "Fixed stuff", "more", "feat: thing", "Update", "oops", "cleanup.", "This and that",
                "added a test", "Merge fix", "x", "ok now it works", "Refactoring!", "tests",
                "fix: y"]  # fmt: skip
    for number, subject in enumerate(subjects):
        author_commit(noisy, ME, subject, {f"f{number}": "x" * number})
    ok("init", cwd=noisy)
    ok("journal", "import-history", cwd=noisy)
    ok("learn", cwd=noisy)
    # Noise has no positive habit; what it never does (a body, emoji...) is still true of it.
    assert set(habits(noisy)) <= {"Commit subjects of at most 50 characters", *PLAIN_NEGATIVES}


def test_learning_off_forms_nothing_and_keeps_everything(conventional_repo: Path) -> None:
    repo = conventional_repo
    ok("init", cwd=repo)
    ok("memory", "remember", "--text", "Use tabs in Makefiles", cwd=repo)
    ok("config", "set", "memory.learning", "false", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    report = ok("learn", cwd=repo)
    assert report["learning"] is False
    assert not [item for item in report["results"] if item["status"] == "applied"]
    assert [r["text"] for r in ok("memory", "list", cwd=repo)["records"]] == ["Use tabs in Makefiles"]
    ok("config", "set", "memory.learning", "true", cwd=repo)
    ok("learn", cwd=repo)
    assert len(habits(repo)) == CONVENTIONAL_HABITS


def test_the_git_hooks_learn_in_the_background(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "hooked")
    author_commit(repo, ME, "chore: start", {"README.md": "hello"})
    ok("init", cwd=repo)  # installs the git hooks
    for number, subject in enumerate(CONVENTIONAL):
        author_commit(repo, ME, f"{subject}\n\nSigned-off-by: {ME[0]} <{ME[1]}>", {f"f{number}.txt": "x"})
    ok("journal", "flush", "--timeout", "60", cwd=repo)
    assert "Commits are signed off" in habits(repo)
    # Everything was processed by the hooks: nothing is left for `comet learn`.
    assert ok("learn", cwd=repo)["events"]["processed"] == 0


# -- consolidation --------------------------------------------------------------------------


def test_a_contradicting_explicit_statement_supersedes_the_older_one(repo: Path) -> None:
    old = ok("memory", "remember", "--text", "Always reply in English", "--scope", "global", cwd=repo)[
        "record"
    ]
    new = ok("memory", "remember", "--text", "Always reply in Chinese", "--scope", "global", cwd=repo)[
        "record"
    ]
    assert new["supersedes"] == [old["id"]]
    shown = ok("memory", "show", "--id", old["id"], cwd=repo)["record"]
    assert shown["lifecycle"] == "superseded" and shown["supersededBy"] == [new["id"]]
    assert [r["id"] for r in ok("memory", "list", cwd=repo)["records"]] == [new["id"]]
    said = invoke("memory", "show", "--id", old["id"], cwd=repo).stdout  # the links, in words too
    assert f"superseded by {new['id']}" in said
    assert f"supersedes {old['id']}" in invoke("memory", "show", "--id", new["id"], cwd=repo).stdout


def test_a_change_of_mind_said_as_signals_supersedes_a_core_profile_rule(repo: Path) -> None:
    """Each statement becomes a core-profile rule with its own keywords ("reply", "english"):
    keywords are words of the text, not a place, so the later statement replaces the earlier."""
    said = [
        ok("memory", "signal", "--text", text, cwd=repo)["record"]
        for text in ("Reply to me in English.", "From now on, reply to me in Chinese.", "以后回复都用英文")
    ]
    assert {r["memoryType"] for r in said} == {"core-profile"}
    for old, new in itertools.pairwise(said):
        assert new["supersedes"] == [old["id"]]
        shown = ok("memory", "show", "--id", old["id"], cwd=repo)["record"]
        assert shown["lifecycle"] == "superseded" and shown["supersededBy"] == [new["id"]]
    assert [r["id"] for r in ok("memory", "list", cwd=repo)["records"]] == [said[-1]["id"]]
    assert ok("memory", "status", cwd=repo)["conflicts"] == []
    delivered = ok("task", "--task", "explain the build", cwd=repo)
    texts = [item.get("text", "") for item in delivered["context"] + delivered["manifest"]]
    assert not any("English." in text or "Chinese." in text for text in texts)


def test_remember_supersedes_a_contradicted_core_profile_record(repo: Path) -> None:
    args = ("--scope", "global", "--type", "core-profile")
    old = ok("memory", "remember", "--text", "Answer me in English, briefly.", *args, cwd=repo)["record"]
    new = ok("memory", "remember", "--text", "以后回答都用中文", *args, cwd=repo)
    assert new["consolidation"]["superseded"] == [old["id"]]
    assert "chinese instead of english" in new["consolidation"]["reason"]
    assert ok("memory", "show", "--id", old["id"], cwd=repo)["record"]["supersededBy"] == [
        new["record"]["id"]
    ]


def test_a_contradiction_for_another_place_is_linked_listed_and_settled_by_a_correction(repo: Path) -> None:
    tabs = ok("memory", "remember", "--text", "Indent with tabs.", cwd=repo)["record"]
    spaces = ok(
        "memory", "remember", "--text", "Use spaces for indentation.", "--path", "legacy/**", cwd=repo
    )
    assert spaces["consolidation"]["superseded"] == [] and spaces["consolidation"]["conflicts"] == [
        tabs["id"]
    ]
    assert spaces["record"]["conflictsWith"] == [tabs["id"]]
    assert ok("memory", "show", "--id", tabs["id"], cwd=repo)["record"]["conflictsWith"] == [
        spaces["record"]["id"]
    ]
    live = {r["id"]: r for r in ok("memory", "list", cwd=repo)["records"]}
    assert set(live) == {tabs["id"], spaces["record"]["id"]}  # both stay in use until you decide

    [conflict] = ok("memory", "status", cwd=repo)["conflicts"]
    assert conflict["kind"] == "contradiction"
    assert sorted(conflict["ids"]) == sorted([tabs["id"], spaces["record"]["id"]])
    assert "instead of" in conflict["reason"] and "another place" in conflict["reason"]
    text = invoke("memory", "status", cwd=repo).stdout
    assert f"conflict: {conflict['ids'][0]} and {conflict['ids'][1]}" in text
    # both are delivered, each saying that it conflicts with the other
    given = ok("task", "--task", "fix the indentation", "--path", "legacy/old.py", cwd=repo)
    why = {i["id"]: i["whyApplied"] for i in given["context"] + given["manifest"]}
    assert any(w.startswith(f"conflicts with {spaces['record']['id']}") for w in why[tabs["id"]])
    assert any(w.startswith(f"conflicts with {tabs['id']}") for w in why[spaces["record"]["id"]])

    corrected = ok(
        "memory", "correct", "--id", spaces["record"]["id"], "--text", "Indent legacy/ with tabs.", cwd=repo
    )
    assert corrected["conflictsSettled"] == [tabs["id"]] and corrected["record"]["conflictsWith"] == []
    assert ok("memory", "show", "--id", tabs["id"], cwd=repo)["record"]["conflictsWith"] == []
    assert ok("memory", "status", cwd=repo)["conflicts"] == []


def test_a_forgotten_side_ends_the_listed_conflict_and_a_rollback_brings_it_back(repo: Path) -> None:
    ok("memory", "remember", "--text", "Use pnpm.", cwd=repo)
    docs = ok("memory", "remember", "--text", "Use yarn for the docs site.", cwd=repo)["record"]
    assert len(ok("memory", "status", cwd=repo)["conflicts"]) == 1  # maybe an exception: not sure
    ok("memory", "forget", "--id", docs["id"], cwd=repo)
    assert ok("memory", "status", cwd=repo)["conflicts"] == []
    ok("memory", "rollback", "--id", docs["id"], cwd=repo)
    assert len(ok("memory", "status", cwd=repo)["conflicts"]) == 1


def delta(repo: Path, *deltas: dict[str, Any]) -> list[dict[str, Any]]:
    document = json.dumps({"schema": "comet.learning-delta/v1", "deltas": list(deltas)})
    results: list[dict[str, Any]] = ok("memory", "apply", "--delta", "-", cwd=repo, input=document)["results"]
    return results


def test_an_inferred_candidate_never_replaces_an_explicit_record(repo: Path) -> None:
    explicit = ok("memory", "remember", "--text", "Always reply in Chinese", "--scope", "global", cwd=repo)
    [result] = delta(repo, {"action": "create", "statement": "Always reply in English", "scope": "global"})
    assert result["status"] == "noop" and explicit["record"]["id"] in result["reason"]
    records = ok("memory", "list", cwd=repo)["records"]
    assert [(r["text"], r["lifecycle"]) for r in records] == [("Always reply in Chinese", "proven")]


def test_a_guess_contradicting_a_signal_is_refused_whatever_its_keywords(repo: Path) -> None:
    said = ok("memory", "signal", "--text", "以后回复都用中文", cwd=repo)["record"]
    [result] = delta(repo, {"action": "create", "statement": "Reply to me in English", "scope": "global"})
    assert result["status"] == "noop" and said["id"] in result["reason"]


def test_near_duplicate_inferred_candidates_merge(repo: Path) -> None:
    first = {
        "action": "create",
        "statement": "Run the integration tests with docker compose before pushing",
        "applicability": {"paths": ["services/api/"]},
        "evidence": [{"kind": "review", "summary": "CI failed without it", "ref": "ev-one"}],
    }
    second = {
        "action": "create",
        "statement": "Run the integration tests with docker compose before pushing changes",
        "evidence": [{"kind": "review", "summary": "again", "ref": "ev-two"}],
    }
    elsewhere = {
        "action": "create",
        "statement": "Run the integration tests with docker compose before pushing",
        "applicability": {"paths": ["services/web/"]},
    }
    [created] = delta(repo, first)
    [merged] = delta(repo, second)
    assert merged["status"] == "applied" and merged["id"] == created["id"]
    records = ok("memory", "list", cwd=repo)["records"]
    assert len(records) == 1
    assert records[0]["selectors"]["paths"] == ["services/api/"]
    assert [e["event"] for e in records[0]["evidence"]] == ["ev-one", "ev-two"]
    # The same words for another place are a rule of their own: merging would lose one.
    [separate] = delta(repo, elsewhere)
    assert separate["status"] == "applied" and separate["id"] != created["id"]


# -- lifecycle and episodes -------------------------------------------------------------------


def deliver(repo: Path, task: str) -> dict[str, str]:
    context = ok("task", "--task", task, cwd=repo)
    return {item["id"]: item["applicationId"] for item in context["context"] + context["manifest"]}


def test_outcomes_promote_lower_and_retire(repo: Path) -> None:
    [created] = delta(
        repo, {"action": "create", "statement": "Regenerate the API client after editing openapi.yaml"}
    )
    record_id = created["id"]
    application = deliver(repo, "edit openapi.yaml and regenerate the API client")[record_id]
    ok("task", "--application", application, "--outcome", "used-successfully", cwd=repo)
    assert ok("memory", "show", "--id", record_id, cwd=repo)["record"]["lifecycle"] == "proven"

    for outcome in ("corrected", "contributed-to-failure", "corrected"):
        application = deliver(repo, "edit openapi.yaml and regenerate the API client")[record_id]
        ok("task", "--application", application, "--outcome", outcome, cwd=repo)
    # Retired at once: it is not offered for re-reflection, it is gone from delivery.
    assert ok("learn", cwd=repo)["reflect"] == []
    record = ok("memory", "show", "--id", record_id, cwd=repo)["record"]
    assert record["lifecycle"] == "superseded"
    assert "negative outcomes" in record["evidence"][-1]["summary"]
    assert record_id not in deliver(repo, "edit openapi.yaml and regenerate the API client")


def test_an_application_outcome_counts_once(repo: Path) -> None:
    """An agent's retry loop reported one delivery's failure three times: that retired the
    record.  A repeated report is counted once; a different one replaces the first."""
    [created] = delta(
        repo, {"action": "create", "statement": "Regenerate the API client after editing openapi.yaml"}
    )
    record_id = created["id"]
    application = deliver(repo, "edit openapi.yaml and regenerate the API client")[record_id]
    for _ in range(3):
        answer = ok("task", "--application", application, "--outcome", "contributed-to-failure", cwd=repo)
    record = ok("memory", "show", "--id", record_id, cwd=repo)["record"]
    assert record["lifecycle"] == "trial"  # not retired
    assert {name: n for name, n in record["application"]["counts"].items() if n} == {
        "contributed-to-failure": 1
    }
    assert answer["replaced"] is None  # the same report again: nothing to replace

    # The agent changes its mind: the success replaces the failure, and promotes the record.
    answer = ok("task", "--application", application, "--outcome", "used-successfully", cwd=repo)
    assert answer["replaced"] == "contributed-to-failure"
    record = answer["record"]
    counts = {name: n for name, n in record["application"]["counts"].items() if n}
    assert counts == {"used-successfully": 1}
    assert record["lifecycle"] == "proven"
    # ... and taking the success back leaves no success to stand for "proven".
    answer = ok("task", "--application", application, "--outcome", "ignored", cwd=repo)
    counts = {name: n for name, n in answer["record"]["application"]["counts"].items() if n}
    assert counts == {"ignored": 1} and answer["record"]["lifecycle"] == "trial"
    outcomes = [e for e in ok("journal", "list", cwd=repo)["events"] if e["type"] == "context.outcome"]
    reported = sorted(e["outcome"]["outcome"] for e in outcomes)  # each change of mind, once
    assert reported == ["contributed-to-failure", "ignored", "used-successfully"]


def test_a_corrected_inferred_record_is_listed_for_re_reflection(repo: Path) -> None:
    # (No file named: one the repository lacks would make the record stale, listed at every learn.)
    [created] = delta(repo, {"action": "create", "statement": "Pin every dependency to an exact version"})
    application = deliver(repo, "add a dependency, pinned to an exact version")[created["id"]]
    ok("task", "--application", application, "--outcome", "corrected", cwd=repo)
    report = ok("learn", cwd=repo)
    assert [item["id"] for item in report["reflect"]] == [created["id"]]
    assert ok("learn", cwd=repo)["reflect"] == []


def test_a_completed_task_with_a_lesson_becomes_an_episode(repo: Path) -> None:
    deliver_args = ("task", "--task", "migrate the billing tables", "--path", "db/", "--session", "s1")
    ok(*deliver_args, cwd=repo)
    ok(
        "task", "--complete", "--session", "s1", "--summary", "added the migration and a backfill",
        "--outcome", "success", "--lesson", "Run the backfill in batches of 1000 rows to avoid locks",
        cwd=repo,
    )  # fmt: skip
    ok("task", "--complete", "--summary", "renamed a variable", "--outcome", "success", cwd=repo)
    report = ok("learn", cwd=repo)
    [episode] = [item for item in report["results"] if item["source"] == "task.completed"]
    assert episode["action"] == "create" and episode["status"] == "applied"
    record = ok("memory", "show", "--id", episode["id"], cwd=repo)["record"]
    assert record["memoryType"] == "personal-episode" and record["authority"] == "inferred"
    assert record["text"].splitlines() == [
        "Situation: migrate the billing tables",
        "Action: added the migration and a backfill",
        "Outcome: success (task.completed)",
        "Lesson: Run the backfill in batches of 1000 rows to avoid locks",
    ]
    assert record["selectors"]["paths"] == ["db/"]
    assert ok("learn", cwd=repo)["results"] == []


# -- replay in any order --------------------------------------------------------------------


def _history_events(key: str) -> list[Event]:
    events = []
    for number, subject in enumerate(CONVENTIONAL):
        context = {
            "commit": f"{number:040x}",
            "parents": ["0" * 40],
            "branch": None,
            "authorIsUser": True,
            "subject": subject,
            "trailers": {"keys": ["Signed-off-by"], "signedOff": True, "coAuthors": 0},
            "issues": [],
            "files": [{"path": f"src/x/m{number % 3}.py", "added": 1, "deleted": 0},
                      {"path": f"tests/unit/x/test_m{number % 3}.py", "added": 1, "deleted": 0}],
        }  # fmt: skip
        events.append(_event(f"ev-commit-{number:02d}", "repo.commit", key, context, number))
    events.append(
        _event(
            "ev-signal",
            "user.signal",
            key,
            {},
            20,
            signal={
                "text": "From now on, always run ruff before committing in this project",
                "kind": "long-term",
            },
        )
    )
    events.append(
        _event(
            "ev-done",
            "task.completed",
            key,
            {"summary": "sped up the import", "task": "make the import faster"},
            21,
            outcome={"outcome": "success", "lesson": "Profile with -X importtime before guessing"},
        )
    )
    return events


def _event(event_id: str, kind: str, key: str, context: dict[str, Any], minute: int, **extra: Any) -> Event:
    return Event(
        event_id=event_id,
        episode_id="ep-order",
        type=kind,
        at=f"2026-11-01T10:{minute:02d}:00Z",
        scope="project",
        project_key=key,
        actor="user",
        source="test",
        context=context,
        **extra,
    )


def _content(repo: Path) -> list[tuple[Any, ...]]:
    """The records as what they say: ids of explicit records are random, so they are left out."""
    found = []
    for record in ok("memory", "list", "--all", cwd=repo)["records"]:
        events = sorted(item.get("event") or item["summary"] for item in record.get("evidence") or [])
        learned_id = record["id"] if record["authority"] == "inferred" else None
        selectors = json.dumps(record["selectors"])
        found.append(
            (learned_id, record["text"], record["lifecycle"], record["authority"], selectors, tuple(events))
        )
    return sorted(found, key=repr)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@example(order=list(range(len(CONVENTIONAL) + 2)), split=10)  # habits formed, then more evidence
@given(order=st.permutations(range(len(CONVENTIONAL) + 2)), split=st.integers(0, len(CONVENTIONAL) + 2))
def test_any_replay_order_gives_the_same_records(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, order: list[int], split: int
) -> None:
    def replay(sequence: list[Event], cut: int) -> list[tuple[Any, ...]]:
        monkeypatch.setenv("COMET_HOME", str(tmp_path / f"home-{os.urandom(4).hex()}"))
        key = ok("init", "--no-hooks", cwd=repo)["project"]["key"]
        journal = Journal(Home.from_environment().project_store(key).create())
        for batch in (sequence[:cut], sequence[cut:]):
            journal.append(batch)
            ok("learn", cwd=repo)
        return _content(repo)

    key = ok("project", "identity", cwd=repo)["key"]
    events = _history_events(key)
    assert replay([events[i] for i in order], split) == replay(events, len(events))


def test_a_failed_verification_with_a_lesson_becomes_an_episode(repo: Path) -> None:
    ok("task", "--task", "run the end-to-end suite", "--session", "s2", cwd=repo)
    recorded = ok(
        "journal", "record", "--type", "verification.completed", "--summary", "ran the e2e suite",
        "--outcome", "failed", "--lesson", "Start the mock payment server before the e2e suite",
        "--session", "s2", cwd=repo,
    )  # fmt: skip
    assert recorded["type"] == "verification.completed"
    [episode] = ok("learn", cwd=repo)["results"]
    record = ok("memory", "show", "--id", episode["id"], cwd=repo)["record"]
    assert record["text"].splitlines()[0] == "Situation: run the end-to-end suite"
    assert "Outcome: failed (verification.completed)" in record["text"]
    bad = invoke(
        "journal", "record", "--type", "review.resolved", "--summary", "x", "--outcome", "passed", cwd=repo
    )
    assert bad.exit_code == 1 and "outcomes: accepted" in bad.stderr


def test_a_torn_journal_line_is_reported_and_the_rest_is_learned(
    conventional_repo: Path, comet_home: Path
) -> None:
    repo = conventional_repo
    ok("init", "--no-hooks", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    [month] = sorted(comet_home.glob("projects/*/journal/2*.jsonl"))[-1:]
    with month.open("ab") as handle:
        handle.write(b'{"schema":"comet.experience/v1","eventId":"ev-torn')
    report = ok("learn", cwd=repo)
    assert [problem["kind"] for problem in report["journalProblems"]] == ["torn"]
    assert len(habits(repo)) == CONVENTIONAL_HABITS


def test_a_path_convention_reaches_a_commit_on_that_path(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "paths")
    for number in range(6):
        author_commit(
            repo, ME, f"ci(github-actions): pin step {number}", {".github/workflows/ci.yml": f"{number}"}
        )
        author_commit(repo, ME, f"fix(bump): handle case {number}", {"src/pkg/bump.py": f"{number}"})
    for number in range(3):
        author_commit(repo, ME, f"bump: version 1.{number}.0 → 1.{number + 1}.0", {"pyproject.toml": "v"})
    ok("init", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    ok("learn", cwd=repo)
    found = habits(repo)
    assert "the types you use: ci, fix." in found["Commit subjects follow Conventional Commits"]["text"]
    context = ok("task", "--task", "commit", "--operation", "commit", "--path", "src/pkg/bump.py", cwd=repo)
    texts = [item.get("text") or item["summary"] for item in context["context"] + context["manifest"]]
    assert any(
        "`fix(bump): <lowercase imperative>`" in text and '"fix(bump): handle case ' in text for text in texts
    )
    assert not any("ci(github-actions)" in text for text in texts)


def test_a_habit_the_recent_commits_turned_from_is_superseded_with_the_reason(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "drift")
    for number in range(15):
        author_commit(repo, ME, f"Added the widget part {number}", {f"lib/w{number % 3}.txt": "x"})
    ok("init", "--no-hooks", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    ok("learn", cwd=repo)
    past = habits(repo)["Commit subjects in the past tense"]
    for number in range(100):
        author_commit(repo, ME, f"Add the gadget part {number}", {f"lib/g{number % 3}.txt": "x"})
    ok("journal", "import-history", cwd=repo)
    report = ok("learn", cwd=repo)
    found = habits(repo)
    imperative = found["Commit subjects in the imperative mood"]
    assert "Commit subjects in the past tense" not in {
        t for t, r in found.items() if r["lifecycle"] != "superseded"
    }
    retired = ok("memory", "show", "--id", past["id"], cwd=repo)
    record = retired.get("record", retired)
    assert record["lifecycle"] == "superseded" and record["supersededBy"] == [imperative["id"]]
    [note] = [item for item in report["results"] if item["action"] == "supersede"]
    # The commits share seconds, so the latest 100 may hold a few of the older ones.
    assert note["id"] == past["id"] and note["reason"].startswith("your recent commits turned: ")
    assert "commit subjects that start with a verb (of your last 100 commits)" in note["reason"]


def test_a_newcomer_gets_the_projects_agreement_and_a_person_keeps_their_own(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "project")
    for number, subject in enumerate(CONVENTIONAL * 3):
        someone = (f"Dev {number % 6}", f"dev{number % 6}@example.com")
        author_commit(repo, someone, subject, {f"src/m{number % 4}.py": f"{number}"})
    for number in range(3):
        author_commit(repo, ME, f"Tidy module {number}", {f"src/m{number}.py": "me"})
    ok("init", "--no-hooks", cwd=repo)
    imported = ok("journal", "import-history", cwd=repo)
    assert imported["matched"] == 3 and imported["otherAuthors"] == 36
    ok("learn", cwd=repo)
    [agreement] = ok("memory", "list", cwd=repo)["records"]
    assert agreement["title"] == "The project uses Conventional Commits"
    assert agreement["memoryClass"] == "project-agreement" and agreement["authority"] == "inferred"
    context = ok("task", "--task", "commit", "--operation", "commit", "--path", "src/m1.py", cwd=repo)
    assert agreement["id"] in {item["id"] for item in context["context"] + context["manifest"]}

    # The person's own habit says otherwise: it stands, the project's agreement is not formed.
    for number in range(12):
        author_commit(repo, ME, f"Tidy module part {number}", {f"src/m{number % 4}.py": "me again"})
    ok("journal", "import-history", cwd=repo)
    report = ok("learn", cwd=repo)
    found = habits(repo)
    assert "No type prefix on commit subjects" in found
    shown = ok("memory", "show", "--id", agreement["id"], cwd=repo)
    assert shown.get("record", shown)["lifecycle"] == "superseded"
    [note] = [item for item in report["results"] if item["action"] == "supersede"]
    assert note["id"] == agreement["id"] and note["reason"].startswith("your own habit ranks above")


def test_compaction_folds_what_no_record_cites_and_learning_stays_the_same(
    conventional_repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from comet_git.journal.log import Journal
    from comet_git.learning import compaction
    from comet_git.workspace import open_workspace

    repo = conventional_repo
    for number in range(30):  # more of the same user: src/x/ with tests/unit/x/
        files = {
            f"src/x/mod{number % 3}.py": f"w{number}",
            f"tests/unit/x/test_mod{number % 3}.py": f"u{number}",
        }
        author_commit(repo, ME, f"fix(x): case {number}\n\nSigned-off-by: {ME[0]} <{ME[1]}>", files)
    ok("init", "--no-hooks", cwd=repo)
    ok("journal", "import-history", cwd=repo)
    ok("learn", cwd=repo)
    before = {title: record["evidence"][0]["summary"] for title, record in habits(repo).items()}
    cited = {item["event"] for r in habits(repo).values() for item in r["evidence"] if item.get("event")}

    monkeypatch.setattr(compaction, "KEEP_USER_COMMITS", 10)
    monkeypatch.setattr(compaction, "KEEP_PROJECT_COMMITS", 10)
    ws = open_workspace(repo)
    provider = ws.provider()
    [store] = [s for s in provider.visible_stores() if s.scope == "project"]
    journal = Journal(store)
    journal.mark([(event.event_id, "done", None) for event in list(journal.events())[:5]])  # twice marked
    marks_before = journal.processing_path.read_bytes().count(b"\n")
    result = compaction.compact_store(provider, store)
    assert result.folded > 0 and result.size_after < result.size_before
    verbatim = {event.event_id for event in journal.events()}
    assert cited <= verbatim  # a record's chain of evidence stays whole
    assert len(verbatim) + result.folded == 42
    # The processing marks keep one outcome for each event still verbatim, and none for the folded.
    marked = [json.loads(line)["eventId"] for line in journal.processing_path.read_bytes().splitlines()]
    assert sorted(marked) == sorted(verbatim) and marks_before == 42 + 5
    assert all(journal.statuses()[event_id][0] == "done" for event_id in verbatim)

    # The folded ids stay known: a second import adds nothing, and learning forms the same habits.
    assert ok("journal", "import-history", cwd=repo)["added"] == 0
    ok("learn", cwd=repo)
    after = {title: record["evidence"][0]["summary"] for title, record in habits(repo).items()}
    # (Which message habits form depends on the few commits kept here, ties of one second included.)
    # The co-change count is over the whole history: the folded commits still count, from the summary.
    cochange = "Changes to src/x/ come with tests in tests/unit/x/"
    assert after[cochange] == before[cochange] and after[cochange].startswith("42 of 42")
    # (The message habits are judged on the latest commits, which real compaction keeps, KEEP_USER_COMMITS.)
    assert ok("journal", "compact", cwd=repo)["stores"][store.name]["folded"] == 0  # nothing left to fold


def test_branch_naming_is_learned_from_the_branches_you_created_and_says_so(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "branches")
    author_commit(repo, ME, "Start", {"a.txt": "a"})
    for name in (
        "feat/login-form",
        "fix/null-token",
        "feat/retry-upload",
        "chore/bump-ruff",
        "fix/empty-cart",
    ):
        git(repo, "branch", name)
    git(repo, "update-ref", "refs/heads/theirs/fetched", "HEAD")  # no "Created from" entry: not yours
    ok("init", "--no-hooks", cwd=repo)
    imported = ok("journal", "import-history", cwd=repo)
    assert imported["branchesAdded"] == 5
    assert ok("journal", "import-history", cwd=repo)["branchesAdded"] == 0  # known ids
    ok("learn", cwd=repo)
    record = habits(repo)["Branch names carry a type prefix"]
    assert "the prefixes you use: feat/, fix/," in record["text"] and "theirs/" not in record["text"]
    assert record["evidence"][0]["summary"] == (
        "5 of your 5 branches are named <type>/<description> (5 you created here, from git's reflog)"
    )
    assert all("from git's reflog" in item["summary"] for item in record["evidence"][1:])
