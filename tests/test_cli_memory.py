"""The memory commands end to end: remember, list, show, correct, forget,
rollback and status, in project and global scope, with hand edits of record
files and profile.md, and `comet repair` of the derived index."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest

from tests.clihelp import Result, invoke, run_comet
from tests.gitutil import git, make_repo

RECORD_KEYS = {
    "id",
    "title",
    "summary",
    "scope",
    "projectKey",
    "memoryType",
    "memoryClass",
    "selectors",
    "authority",
    "lifecycle",
    "evidence",
    "supersedes",
    "supersededBy",
    "conflictsWith",
    "application",
    "version",
    "createdAt",
    "updatedAt",
    "text",
}
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


# -- helpers ---------------------------------------------------------------------------


def ok(result: Result) -> Result:
    assert result.exit_code == 0, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result


def mem(*args: str | os.PathLike[str], cwd: Path) -> Any:
    """`comet memory ARGS --json` in-process; must succeed; returns the JSON object."""
    return ok(invoke("memory", *args, "--json", cwd=cwd)).json()


def remember(cwd: Path, text: str, *extra: str) -> dict[str, Any]:
    data = mem("remember", "--text", text, *extra, cwd=cwd)
    assert data["schema"] == "comet.record/v1"
    record: dict[str, Any] = data["record"]
    return record


def listed(cwd: Path, *extra: str) -> dict[str, dict[str, Any]]:
    data = mem("list", *extra, cwd=cwd)
    assert data["schema"] == "comet.records/v1"
    return {record["id"]: record for record in data["records"]}


def show(cwd: Path, record_id: str, *extra: str) -> dict[str, Any]:
    data: dict[str, Any] = mem("show", "--id", record_id, *extra, cwd=cwd)
    assert data["schema"] == "comet.record/v1"
    return data


def assert_full_record(record: dict[str, Any]) -> None:
    missing = RECORD_KEYS - set(record)
    assert not missing, f"record JSON lacks {sorted(missing)}"
    assert re.match(r"^[a-z][a-z0-9]*-[a-z0-9]{4,32}$", record["id"])
    assert set(record["selectors"]) == {"paths", "tasks", "operations", "phases"}
    assert isinstance(record["version"], int)
    assert ISO.match(record["createdAt"]) and ISO.match(record["updatedAt"])


def project_dir(home: Path) -> Path:
    projects = [p for p in (home / "projects").iterdir() if p.is_dir()]
    assert len(projects) == 1, projects
    return projects[0]


def record_file(home: Path, record_id: str) -> Path:
    found = list(home.glob(f"**/records/{record_id}.md"))
    assert len(found) == 1, found
    return found[0]


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


# -- 1. the management commands ------------------------------------------------------


def test_remember_in_project_scope_without_init_gives_every_record_field(
    repo: Path, comet_home: Path
) -> None:
    assert not comet_home.exists()  # no `comet init`: the store is created on first use
    data = mem(
        "remember",
        "--text",
        "Run ruff before every commit.",
        "--title",
        "Ruff first",
        "--path",
        "src/**",
        "--task",
        "lint",
        "--operation",
        "commit",
        "--phase",
        "verify",
        cwd=repo,
    )
    assert data["schema"] == "comet.record/v1"
    record = data["record"]
    assert_full_record(record)
    identity = ok(invoke("project", "identity", "--json", cwd=repo)).json()
    assert record["scope"] == "project"
    assert record["projectKey"] == identity["key"]
    assert record["title"] == "Ruff first"
    assert record["text"] == "Run ruff before every commit."
    assert record["summary"]  # derived from the text when not given
    assert record["memoryType"] == "collaboration-policy"
    assert record["memoryClass"] == "project-agreement"
    assert record["authority"] == "explicit"
    assert record["lifecycle"] == "proven"
    assert record["version"] == 1
    assert record["selectors"] == {
        "paths": ["src/**"],
        "tasks": ["lint"],
        "operations": ["commit"],
        "phases": ["verify"],
    }
    assert (comet_home / "projects" / record["projectKey"] / "records" / f"{record['id']}.md").is_file()

    # show, list and status see it, each with its schema
    shown = show(repo, record["id"])
    assert_full_record(shown["record"])
    assert shown["record"]["text"] == record["text"]
    records = listed(repo)
    assert list(records) == [record["id"]]
    assert_full_record(records[record["id"]])
    status = mem("status", cwd=repo)
    assert status["schema"] == "comet.status/v1"
    project_store = next(s for s in status["stores"] if s["name"].startswith("project:"))
    assert project_store["lifecycle"] == {"proven": 1}
    assert project_store["invalid"] == []


def test_global_scope_is_visible_from_two_repositories_and_outside_any(tmp_path: Path) -> None:
    one = make_repo(tmp_path / "one", remote="https://example.com/acme/one.git")
    two = make_repo(tmp_path / "two", remote="https://example.com/acme/two.git")
    outside = tmp_path / "not-a-repo"
    outside.mkdir()

    mine = remember(one, "I prefer answers in English.", "--scope", "global", "--type", "core-profile")
    assert_full_record(mine)
    assert mine["scope"] == "global"
    assert mine["projectKey"] is None
    assert mine["memoryClass"] == "user-preference"
    # outside a repository the default scope is global, and it works
    there = remember(outside, "Keep commit messages short.")
    assert there["scope"] == "global"

    for place in (one, two, outside):
        assert set(listed(place)) == {mine["id"], there["id"]}, place
        assert show(place, mine["id"])["record"]["text"] == "I prefer answers in English."
    assert set(listed(one, "--scope", "global")) == {mine["id"], there["id"]}
    status = mem("status", cwd=outside)
    assert status["project"] is None
    assert [s["name"] for s in status["stores"]] == ["global"]


def test_project_records_are_not_visible_from_another_repository(tmp_path: Path) -> None:
    one = make_repo(tmp_path / "one", remote="https://example.com/acme/one.git")
    two = make_repo(tmp_path / "two", remote="https://example.com/acme/two.git")
    ours = remember(one, "Use pnpm in this project.")
    assert ours["id"] in listed(one)
    assert ours["id"] not in listed(two)
    assert ours["id"] not in listed(two, "--all")
    other = invoke("memory", "show", "--id", ours["id"], cwd=two)
    assert other.exit_code == 1
    assert "another project" in other.stderr
    assert other.stdout == ""


def test_linked_worktree_and_subdirectory_share_project_memory(repo: Path, tmp_path: Path) -> None:
    record = remember(repo, "Integration tests live under tests/e2e.")
    linked = tmp_path / "linked"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(linked))
    sub = repo / "src" / "deep"
    sub.mkdir(parents=True)
    for place in (linked, sub):
        assert record["id"] in listed(place), place
    # PATH given on the command line instead of the current directory: a directory or a file
    for target in (linked, sub, linked / "README.md"):
        ids = [r["id"] for r in mem("list", str(target), cwd=tmp_path)["records"]]
        assert ids == [record["id"]], target
    # and a record made in the linked worktree is seen by the main one
    from_linked = remember(linked, "Feature branches are rebased, never merged.")
    assert from_linked["projectKey"] == record["projectKey"]
    assert from_linked["id"] in listed(repo)


def test_remembering_the_same_statement_twice_does_not_duplicate(repo: Path) -> None:
    first = mem("remember", "--text", "Tabs, not spaces.", cwd=repo)
    second = mem("remember", "--text", "Tabs, not spaces.", cwd=repo)
    assert second["schema"] == "comet.record/v1"
    assert second["record"]["id"] == first["record"]["id"]
    assert second["record"]["version"] == 1
    assert list(listed(repo, "--all")) == [first["record"]["id"]]


def test_correct_keeps_the_id_bumps_the_version_and_keeps_history(repo: Path) -> None:
    record = remember(repo, "Run the unit tests with pytest -q.", "--operation", "test")
    data = mem("correct", "--id", record["id"], "--text", "Run the unit tests with pytest -x -q.", cwd=repo)
    assert data["schema"] == "comet.record/v1"
    corrected = data["record"]
    assert_full_record(corrected)
    assert corrected["id"] == record["id"]
    assert corrected["version"] == 2
    assert corrected["text"] == "Run the unit tests with pytest -x -q."
    assert corrected["selectors"]["operations"] == ["test"]  # untouched selectors are kept
    assert corrected["createdAt"] == record["createdAt"]

    shown = show(repo, record["id"], "--history")
    assert shown["record"]["version"] == 2
    history = {entry["version"]: entry for entry in shown["history"]}
    assert set(history) == {1, 2}
    assert history[1]["text"] == "Run the unit tests with pytest -q."
    assert history[1]["lifecycle"] == "superseded"
    assert history[2]["text"] == "Run the unit tests with pytest -x -q."
    for entry in shown["history"]:
        assert {"version", "text", "updatedAt", "lifecycle"} <= set(entry)
    # the old version is history, not a second live record
    assert list(listed(repo)) == [record["id"]]

    # a selector option replaces that selector
    narrowed = mem("correct", "--id", record["id"], "--path", "tests/**", cwd=repo)["record"]
    assert narrowed["version"] == 3
    assert narrowed["selectors"]["paths"] == ["tests/**"]


def test_forget_and_rollback_undo_one_action_at_a_time(repo: Path) -> None:
    record = remember(repo, "Version one of the rule.")
    rid = record["id"]
    mem("correct", "--id", rid, "--text", "Version two of the rule.", cwd=repo)
    forgotten = mem("forget", "--id", rid, cwd=repo)
    assert forgotten == {"schema": "comet.forget/v1", "id": rid, "permanent": False, "rollback": True}
    assert rid not in listed(repo)
    every = listed(repo, "--all")
    assert every[rid]["state"] == "forgotten"
    assert_full_record(every[rid])

    # the first rollback undoes the forget
    back = mem("rollback", "--id", rid, cwd=repo)
    assert back["schema"] == "comet.record/v1"
    assert_full_record(back["record"])
    assert back["record"]["text"] == "Version two of the rule."
    assert listed(repo)[rid]["text"] == "Version two of the rule."
    # the second one undoes the correction
    back = mem("rollback", "--id", rid, cwd=repo)
    assert back["record"]["text"] == "Version one of the rule."
    assert back["record"]["id"] == rid
    assert back["record"]["version"] > 2  # a rollback is a new version, never a reused number
    assert show(repo, rid)["record"]["text"] == "Version one of the rule."
    # nothing left to undo: a clear error, nothing changed
    third = invoke("memory", "rollback", "--id", rid, "--json", cwd=repo)
    assert third.exit_code == 1
    assert "nothing" in third.stderr.lower() or "no correction" in third.stderr
    assert third.stdout == ""


def test_rollback_of_a_correction_right_after_it(repo: Path) -> None:
    rid = remember(repo, "Deploy on Fridays.")["id"]
    mem("correct", "--id", rid, "--text", "Never deploy on Fridays.", cwd=repo)
    back = mem("rollback", "--id", rid, cwd=repo)
    assert back["record"]["text"] == "Deploy on Fridays."
    assert show(repo, rid)["record"]["text"] == "Deploy on Fridays."


def test_global_scope_correct_forget_rollback_from_outside_a_repository(tmp_path: Path) -> None:
    outside = tmp_path / "plain-dir"
    outside.mkdir()
    rid = remember(outside, "Answer tersely.", "--scope", "global")["id"]
    corrected = mem("correct", "--id", rid, "--text", "Answer tersely, with code first.", cwd=outside)
    assert corrected["record"]["version"] == 2
    assert mem("forget", "--id", rid, cwd=outside)["rollback"] is True
    assert rid not in listed(outside)
    assert listed(outside, "--all")[rid]["state"] == "forgotten"
    assert mem("rollback", "--id", rid, cwd=outside)["record"]["text"] == "Answer tersely, with code first."
    history = show(outside, rid, "--history")["history"]
    assert "Answer tersely." in [entry["text"] for entry in history]


def test_list_hides_superseded_and_forgotten_unless_all(repo: Path, comet_home: Path) -> None:
    live = remember(repo, "Keep the changelog current.")["id"]
    gone = remember(repo, "Use black for formatting.")["id"]
    old = remember(repo, "Use setup.py for packaging.")["id"]
    mem("forget", "--id", gone, cwd=repo)
    # the user marks a record superseded by hand
    path = record_file(comet_home, old)
    path.write_text(path.read_text().replace("lifecycle: proven", "lifecycle: superseded"))

    assert set(listed(repo)) == {live}
    every = listed(repo, "--all")
    assert set(every) == {live, gone, old}
    assert every[gone]["state"] == "forgotten"
    assert every[old]["lifecycle"] == "superseded"
    assert every[live]["state"] == "live"
    assert set(listed(repo, "--lifecycle", "superseded")) == {old}


def test_list_query_filters_by_word_also_in_chinese(repo: Path) -> None:
    docker = remember(repo, "Build the images with docker buildx.")["id"]
    chinese = remember(repo, "提交前先运行测试。", "--title", "测试优先")["id"]
    plain = remember(repo, "Prefer small pull requests.")["id"]
    assert set(listed(repo, "--query", "docker")) == {docker}
    assert set(listed(repo, "--query", "Docker")) == {docker}
    assert set(listed(repo, "--query", "测试")) == {chinese}
    assert set(listed(repo, "--query", "运行")) == {chinese}
    assert set(listed(repo, "--query", "pull")) == {plain}
    assert listed(repo, "--query", "kubernetes") == {}
    assert set(listed(repo, "--type", "collaboration-policy")) == {docker, chinese, plain}


def test_list_query_ranks_records_by_the_words_they_share_with_it(repo: Path, comet_home: Path) -> None:
    """One query word a record lacks used to hide it: the listing ranks instead."""
    migrations = remember(repo, "Run the database migrations with alembic before deploying.")["id"]
    deploys = remember(repo, "Never deploy on a Friday.")["id"]
    remember(repo, "Format the code with black.")
    pinned = remember(repo, "Pin versions.", "--scope", "global")["id"]
    found = mem("list", "--query", "alembic migration deploy checklist", cwd=repo)["records"]
    assert [r["id"] for r in found] == [migrations, deploys]
    assert [r["id"] for r in mem("list", "--query", "pinning", cwd=repo)["records"]] == [pinned]  # a stem
    text = ok(invoke("memory", "list", "--query", "deploy checklist", cwd=repo)).stdout.splitlines()
    assert text[0].startswith(deploys) and text[1].startswith(migrations)  # the shorter, closer match first


# -- 2. files ---------------------------------------------------------------------------


def _busy_flow(repo: Path) -> str:
    """Every kind of write, through the real installed command."""
    created = ok(run_comet("memory", "remember", "--text", "Squash before merging.", "--json", cwd=repo))
    rid: str = created.json()["record"]["id"]
    ok(run_comet("memory", "correct", "--id", rid, "--text", "Squash, then merge.", cwd=repo))
    ok(run_comet("memory", "remember", "--text", "Be brief.", "--scope", "global", cwd=repo))
    ok(run_comet("memory", "forget", "--id", rid, cwd=repo))
    ok(run_comet("memory", "rollback", "--id", rid, cwd=repo))
    ok(run_comet("memory", "list", cwd=repo))
    ok(run_comet("memory", "status", cwd=repo))
    return rid


def test_nothing_is_written_into_the_repository(repo: Path) -> None:
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    before = sorted(p.relative_to(repo) for p in repo.rglob("*") if ".git" not in p.parts)
    git_before = sorted(p.relative_to(repo) for p in (repo / ".git").rglob("*") if p.is_file())
    _busy_flow(repo)
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "status", "--porcelain", "--ignored") == ""
    assert sorted(p.relative_to(repo) for p in repo.rglob("*") if ".git" not in p.parts) == before
    # inside .git only the persisted project key may change (the config file), nothing new appears
    git_after = sorted(p.relative_to(repo) for p in (repo / ".git").rglob("*") if p.is_file())
    assert git_after == git_before


def _modes(home: Path, want_dirs: bool) -> list[str]:
    wrong = []
    for path in [home, *home.rglob("*")]:
        if path.is_dir() != want_dirs:
            continue
        mode = stat.S_IMODE(path.lstat().st_mode)
        if mode != (0o700 if want_dirs else 0o600):
            wrong.append(f"{oct(mode)} {path}")
    return wrong


def test_files_under_comet_home_are_0600(repo: Path, comet_home: Path) -> None:
    rid = _busy_flow(repo)
    store = project_dir(comet_home)
    for path in (
        store / "records" / f"{rid}.md",
        store / "profile.md",
        comet_home / "global" / "profile.md",
        comet_home / "index" / "comet.sqlite3",
    ):
        assert path.is_file(), path
    assert _modes(comet_home, want_dirs=False) == []


def test_directories_under_comet_home_are_0700(repo: Path, comet_home: Path) -> None:
    _busy_flow(repo)
    assert _modes(comet_home, want_dirs=True) == []


# -- 3. forget --permanent ------------------------------------------------------------


def _grep_home(home: Path, needles: list[bytes]) -> list[str]:
    hits = []
    for path in home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            hits.extend(f"{path.relative_to(home)}: {needle!r}" for needle in needles if needle in data)
    return hits


@pytest.mark.parametrize("first_forget", [False, True], ids=["directly", "after-a-plain-forget"])
def test_forget_permanent_leaves_no_trace_under_comet_home(
    repo: Path, comet_home: Path, first_forget: bool
) -> None:
    phrase = "quokka-marmalade-7731 secret plan"
    title = "Zanzibar lighthouse protocol"
    rid = ok(
        run_comet(
            "memory",
            "remember",
            "--text",
            f"The {phrase} is to be used.",
            "--title",
            title,
            "--json",
            cwd=repo,
        )
    ).json()["record"]["id"]
    ok(run_comet("memory", "correct", "--id", rid, "--text", f"The {phrase} applies on Mondays.", cwd=repo))
    ok(run_comet("memory", "remember", "--text", "An unrelated rule that stays.", cwd=repo))
    # the phrase now sits in the record, its history, profile.md and the index
    assert _grep_home(comet_home, [phrase.encode()])
    if first_forget:
        ok(run_comet("memory", "forget", "--id", rid, cwd=repo))
    result = ok(run_comet("memory", "forget", "--id", rid, "--permanent", "--json", cwd=repo))
    assert result.json() == {"schema": "comet.forget/v1", "id": rid, "permanent": True, "rollback": False}

    ok(run_comet("memory", "list", "--all", cwd=repo))  # a read afterwards must not bring it back either
    needles = [phrase.encode(), b"quokka-marmalade", title.encode(), b"Zanzibar"]
    assert _grep_home(comet_home, needles) == []

    listed_all = ok(run_comet("memory", "list", "--all", "--json", cwd=repo)).json()["records"]
    assert rid not in [r["id"] for r in listed_all]
    assert len(listed_all) == 1

    again = run_comet("memory", "rollback", "--id", rid, cwd=repo)
    assert again.exit_code == 1
    assert "permanently" in again.stderr
    assert "Traceback" not in again.stderr
    assert again.stdout == ""
    shown = run_comet("memory", "show", "--id", rid, cwd=repo)
    assert shown.exit_code == 1
    assert shown.stdout == ""
    assert "forgotten permanently" in shown.stderr and "rollback" not in shown.stderr
    # the id is never reused: only the id and a content hash remain
    stones = list(comet_home.glob(f"projects/*/tombstones/{rid}.*"))
    assert [p.suffix for p in stones] == [".json"]


# -- 5. hand edits --------------------------------------------------------------------------


def test_hand_edit_of_a_record_file_is_a_correction_and_keeps_user_comments(
    repo: Path, comet_home: Path
) -> None:
    rid = remember(repo, "Write docstrings in English.", "--title", "Docstrings")["id"]
    path = record_file(comet_home, rid)
    raw = path.read_text()
    edited = raw.replace("title: Docstrings\n", "title: Docstrings  # my own note, keep it\n")
    edited = edited.replace("Write docstrings in English.", "Write docstrings in plain English, briefly.")
    assert edited != raw and "# my own note" in edited
    path.write_text(edited)

    shown = show(repo, rid, "--history")
    assert shown["record"]["version"] == 2
    assert shown["record"]["text"] == "Write docstrings in plain English, briefly."
    assert shown["record"]["authority"] == "explicit"
    assert [e["text"] for e in shown["history"] if e["version"] == 1] == ["Write docstrings in English."]
    assert "# my own note, keep it" in path.read_text()
    assert "version: 2" in path.read_text()

    # a later tool update keeps the comment too
    mem("correct", "--id", rid, "--text", "Write docstrings in English; one line if you can.", cwd=repo)
    after = path.read_text()
    assert "# my own note, keep it" in after
    assert "version: 3" in after


def test_a_hand_edit_of_the_text_retitles_a_record_whose_title_came_from_it(
    repo: Path, comet_home: Path
) -> None:
    derived = remember(repo, "Pin dependencies. Renovate opens the pull requests.")
    chosen = remember(repo, "Write docstrings in English.", "--title", "Docstrings")
    assert derived["title"] == "Pin dependencies."
    for record, new_text in (
        (derived, "Pin every dependency. Dev ones too."),
        (chosen, "Docstrings: English."),
    ):
        path = record_file(comet_home, record["id"])
        front_matter, body = path.read_text().split("\n---\n", 1)
        path.write_text(front_matter + "\n---\n" + body.replace(record["text"], new_text))
    records = listed(repo)
    assert records[derived["id"]]["title"] == "Pin every dependency."
    assert records[chosen["id"]]["title"] == "Docstrings"  # the person's own title stays
    assert "title: Pin every dependency.\n" in record_file(comet_home, derived["id"]).read_text()
    # the same for the text of a section in profile.md (the title line left as it was)
    profile = _profile(comet_home)
    section_text = "-->\n\nPin every dependency. Dev ones too.\n"
    assert section_text in profile.read_text()
    profile.write_text(profile.read_text().replace(section_text, "-->\n\nPin all versions. Always.\n"))
    assert listed(repo)[derived["id"]]["title"] == "Pin all versions."


def test_hand_edited_comment_line_in_front_matter_survives(repo: Path, comet_home: Path) -> None:
    rid = remember(repo, "Pin dependencies.")["id"]
    path = record_file(comet_home, rid)
    raw = path.read_text()
    edited = raw.replace("authority:", "# I decided this after the 2025 outage\nauthority:", 1)
    edited = edited.replace("Pin dependencies.", "Pin every dependency, also dev ones.")
    path.write_text(edited)
    assert show(repo, rid)["record"]["version"] == 2
    assert "# I decided this after the 2025 outage\n" in path.read_text()
    mem("correct", "--id", rid, "--task", "dependencies", cwd=repo)
    assert "# I decided this after the 2025 outage\n" in path.read_text()


def _profile(home: Path) -> Path:
    return project_dir(home) / "profile.md"


def _section_pattern(title: str) -> re.Pattern[str]:
    return re.compile(rf"\n### {re.escape(title)}\n.*?(?=\n### |\n## |\Z)", re.S)


def test_profile_edit_corrects_delete_forgets_and_new_section_remembers(repo: Path, comet_home: Path) -> None:
    keep = remember(repo, "Use conventional commit messages.", "--title", "Commit style")["id"]
    drop = remember(repo, "Use tox for test runs.", "--title", "Tox")["id"]
    mem("list", cwd=repo)
    profile = _profile(comet_home)
    text = profile.read_text()
    assert keep in text and drop in text and "## Collaboration policies" in text

    # change a section's text
    text = text.replace("Use conventional commit messages.", "Use conventional commits, in English.")
    profile.write_text(text)
    corrected = show(repo, keep, "--history")
    assert corrected["record"]["text"] == "Use conventional commits, in English."
    assert corrected["record"]["version"] == 2
    assert "Use conventional commit messages." in [e["text"] for e in corrected["history"]]

    # delete a section
    text = profile.read_text()
    text, count = _section_pattern("Tox").subn("", text)
    assert count == 1
    profile.write_text(text)
    assert drop not in listed(repo)
    assert listed(repo, "--all")[drop]["state"] == "forgotten"
    mem("rollback", "--id", drop, cwd=repo)
    assert listed(repo)[drop]["text"] == "Use tox for test runs."
    assert drop in profile.read_text()

    # add a section without an id under ## Collaboration policies
    text = profile.read_text()
    text = text.replace(
        "## Collaboration policies\n",
        "## Collaboration policies\n\n### Review etiquette\n\nAsk before force-pushing a shared branch.\n",
    )
    profile.write_text(text)
    records = listed(repo)
    new = [r for r in records.values() if r["title"] == "Review etiquette"]
    assert len(new) == 1, records
    assert new[0]["text"] == "Ask before force-pushing a shared branch."
    assert new[0]["authority"] == "explicit"
    assert new[0]["lifecycle"] == "proven"
    assert new[0]["memoryType"] == "collaboration-policy"
    assert new[0]["id"] in profile.read_text()  # the section now carries its id
    assert set(records) == {keep, drop, new[0]["id"]}


# -- 6. compare-before-replace ----------------------------------------------------------------


def test_correct_refuses_to_overwrite_a_file_the_user_saved_meanwhile(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import comet_git.provider.writes as writes

    rid = remember(repo, "Prefer pathlib over os.path.")["id"]
    path = record_file(comet_home, rid)
    users = path.read_text().replace("Prefer pathlib over os.path.", "Prefer pathlib, always (saved by me).")
    real = writes.update_record_text
    calls = []

    def user_saves_in_between(raw: str, record: Any) -> str:
        calls.append(record.id)
        path.write_text(users)  # the editor saves between the tool's read and its write
        return real(raw, record)

    monkeypatch.setattr(writes, "update_record_text", user_saves_in_between)
    before = snapshot(comet_home)
    result = invoke("memory", "correct", "--id", rid, "--text", "Prefer pathlib (tool).", "--json", cwd=repo)
    monkeypatch.setattr(writes, "update_record_text", real)

    assert calls == [rid]
    assert result.exit_code == 1
    assert "changed on disk" in result.stderr
    assert "again" in result.stderr  # what to do next
    assert result.stdout == ""
    assert path.read_text() == users
    after = snapshot(comet_home)
    changed = {name for name in set(before) | set(after) if before.get(name) != after.get(name)} - {
        str(path.relative_to(comet_home))
    }
    assert {name for name in changed if not name.startswith("index/")} == set()
    # and the user's save is then taken in as their correction
    shown = show(repo, rid, "--history")["record"]
    assert shown["text"] == "Prefer pathlib, always (saved by me)."


# -- 8. repair ---------------------------------------------------------------------------------


def _index(home: Path) -> Path:
    return home / "index" / "comet.sqlite3"


def _list_ids(cwd: Path) -> set[str]:
    return {r["id"] for r in ok(run_comet("memory", "list", "--json", cwd=cwd)).json()["records"]}


def _make_some(repo: Path) -> set[str]:
    ids = set()
    for text in ("First rule.", "Second rule.", "Third rule."):
        ids.add(
            ok(run_comet("memory", "remember", "--text", text, "--json", cwd=repo)).json()["record"]["id"]
        )
    ids.add(
        ok(
            run_comet("memory", "remember", "--text", "Global rule.", "--scope", "global", "--json", cwd=repo)
        ).json()["record"]["id"]
    )
    return ids


def _drop_index(home: Path) -> None:
    for path in home.glob("index/comet.sqlite3*"):
        path.unlink()


def test_deleted_index_is_rebuilt_on_demand_and_by_repair(repo: Path, comet_home: Path) -> None:
    ids = _make_some(repo)
    _drop_index(comet_home)
    assert _list_ids(repo) == ids
    _drop_index(comet_home)
    report = ok(run_comet("repair", "--json", cwd=repo)).json()
    assert report["schema"] == "comet.repair/v1"
    assert report["index"]["rebuilt"] is True
    assert sum(store["records"] for store in report["stores"]) == len(ids)
    assert report["unrecoverable"] == []
    assert _list_ids(repo) == ids


def test_corrupt_index_asks_for_repair_and_repair_brings_everything_back(
    repo: Path, comet_home: Path
) -> None:
    ids = _make_some(repo)
    rid = sorted(ids)[0]
    _drop_index(comet_home)
    _index(comet_home).write_bytes(b"this is not a database\x00\xff" * 512)
    broken = run_comet("memory", "list", cwd=repo)
    assert broken.exit_code == 1
    assert "comet repair" in broken.stderr
    assert "Traceback" not in broken.stderr
    assert broken.stdout == ""
    status = run_comet("memory", "status", "--json", cwd=repo)
    assert status.exit_code == 1 or status.json()["index"]["problem"]

    report = ok(run_comet("repair", "--json", cwd=repo)).json()
    assert report["index"]["problem"]  # it said what was wrong
    assert report["index"]["rebuilt"] is True
    assert _list_ids(repo) == ids
    assert ok(run_comet("memory", "show", "--id", rid, cwd=repo))
    assert ok(run_comet("memory", "correct", "--id", rid, "--text", "Changed after repair.", cwd=repo))


def test_repair_check_changes_nothing(repo: Path, comet_home: Path) -> None:
    _make_some(repo)
    before = snapshot(comet_home)
    report = ok(run_comet("repair", "--check", "--json", cwd=repo)).json()
    assert report["checkOnly"] is True
    assert report["index"]["rebuilt"] is False
    after = snapshot(comet_home)
    # Its read-only integrity check may leave SQLite's empty -wal and -shm side files
    # behind; the database itself and every other file must be byte-for-byte the same.
    for side in ("index/comet.sqlite3-wal", "index/comet.sqlite3-shm"):
        if side not in before:
            after.pop(side, None)
    assert after == before
    # also with no index at all
    _drop_index(comet_home)
    before = snapshot(comet_home)
    report = ok(run_comet("repair", "--check", "--json", cwd=repo)).json()
    assert report["index"]["problem"]
    assert snapshot(comet_home) == before


def test_the_installed_list_without_click_says_what_click_says(repo: Path, tmp_path: Path) -> None:
    """A plain `comet memory list` is answered without click (comet_git/entry.py): its
    output, text and JSON, and its errors are the CLI's own."""
    remember(repo, "Always run ruff before committing")
    remember(repo, "Reply in Chinese", "--scope", "global", "--type", "core-profile")
    for extra in ((), ("--json",)):
        fast = run_comet("memory", "list", *extra, cwd=repo)
        slow = invoke("memory", "list", *extra, cwd=repo)
        assert (fast.exit_code, fast.stdout) == (slow.exit_code, slow.stdout)
    missing = tmp_path / "nowhere"
    fast = run_comet("memory", "list", missing, "--json", cwd=repo)
    slow = invoke("memory", "list", missing, "--json", cwd=repo)
    assert (fast.exit_code, fast.stdout, fast.stderr) == (1, "", slow.stderr)


def test_memory_edit_keeps_the_text_in_the_store_and_removes_it_when_killed(
    repo: Path, comet_home: Path, tmp_path: Path
) -> None:
    import signal
    import subprocess
    import time

    from tests.clihelp import installed_comet

    made = invoke("memory", "remember", repo, "--text", "Keep commits small.", "--json")
    record_id = made.json()["record"]["id"]
    seen = tmp_path / "seen"
    editor = tmp_path / "editor.sh"  # notes the file it was given, edits it, then waits
    editor.write_text(f'#!/bin/sh\necho "$1" > {seen}\nsed -i "s/small/tiny/" "$1"\nsleep "$PAUSE"\n')
    editor.chmod(0o755)
    command = [installed_comet(), "memory", "edit", str(repo), "--id", record_id]
    done = subprocess.run(command, env={**os.environ, "EDITOR": str(editor), "PAUSE": "0"}, timeout=60)
    assert done.returncode == 0
    shown = invoke("memory", "show", repo, "--id", record_id, "--json").json()
    assert shown["record"]["text"].startswith("Keep commits tiny")
    edited = Path(seen.read_text().strip())
    assert comet_home in edited.parents and not edited.exists()
    seen.unlink()
    running = subprocess.Popen(command, env={**os.environ, "EDITOR": str(editor), "PAUSE": "30"})
    try:
        deadline = time.monotonic() + 30
        while not seen.exists() or not seen.read_text().strip():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        edited = Path(seen.read_text().strip())
        assert oct(edited.stat().st_mode & 0o777) == "0o600"
        running.send_signal(signal.SIGTERM)
        assert running.wait(timeout=30) != 0
    finally:
        running.kill()
    assert not edited.exists()
