"""comet init and comet project identity | adopt, through the command line."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.clihelp import invoke, run_comet
from tests.gitutil import git, make_repo


def test_init_is_idempotent_and_writes_nothing_into_the_repository(repo: Path, comet_home: Path) -> None:
    first = invoke("init", repo, "--json")
    assert first.exit_code == 0, first.stderr
    data = first.json()
    assert data["schema"] == "comet.init/v1"
    assert data["created"] is True
    second = invoke("init", repo, "--json").json()
    assert second["created"] is False
    assert second["project"]["key"] == data["project"]["key"]
    store = comet_home / "projects" / data["project"]["key"]
    assert (store / "project.yaml").exists()
    assert git(repo, "status", "--porcelain", "--ignored") == ""


def test_init_outside_a_repository_says_what_to_do(tmp_path: Path) -> None:
    result = invoke("init", tmp_path)
    assert result.exit_code == 1
    assert "not inside a git repository" in result.stderr
    assert "git init" in result.stderr


def test_identity_json_shows_key_and_derivation(repo: Path) -> None:
    data = invoke("project", "identity", repo, "--json").json()
    assert data["schema"] == "comet.project-identity/v1"
    assert data["key"].startswith("app-")
    assert data["derivation"] == "remote:origin"
    assert data["remotes"] == {"origin": "example.com/acme/app"}


def test_a_fresh_clone_and_a_worktree_share_the_memory(tmp_path: Path, comet_home: Path) -> None:
    origin = make_repo(tmp_path / "origin")
    bare = tmp_path / "shared.git"
    git(tmp_path, "clone", "-q", "--bare", str(origin), str(bare))
    first = tmp_path / "first"
    git(tmp_path, "clone", "-q", str(bare), str(first))
    assert run_comet("memory", "remember", "--text", "Use tabs in Makefiles.", cwd=first).exit_code == 0
    second = tmp_path / "second"
    git(tmp_path, "clone", "-q", str(bare), str(second))
    listed = run_comet("memory", "list", "--json", cwd=second).json()
    assert [r["text"] for r in listed["records"]] == ["Use tabs in Makefiles."]
    worktree = tmp_path / "wt"
    git(first, "worktree", "add", "-q", str(worktree))
    listed = run_comet("memory", "list", "--json", cwd=worktree / ".").json()
    assert [r["text"] for r in listed["records"]] == ["Use tabs in Makefiles."]


def test_a_moved_repository_keeps_its_memory(repo: Path, tmp_path: Path) -> None:
    invoke("memory", "remember", repo, "--text", "Prefer dataclasses over dicts.")
    moved = tmp_path / "elsewhere" / "app"
    moved.parent.mkdir()
    shutil.move(str(repo), str(moved))
    listed = invoke("memory", "list", moved, "--json").json()
    assert [r["text"] for r in listed["records"]] == ["Prefer dataclasses over dicts."]


def test_adopt_relinks_a_clone_to_an_existing_key(tmp_path: Path) -> None:
    original = make_repo(tmp_path / "original")  # no remote: keyed by its root commit
    invoke("memory", "remember", original, "--text", "Squash fixups before merging.")
    key = invoke("project", "identity", original, "--json").json()["key"]
    other = make_repo(tmp_path / "other", remote="https://example.com/someone/other.git")
    adopted = invoke("project", "adopt", key, other, "--json")
    assert adopted.exit_code == 0, adopted.stderr
    assert adopted.json()["key"] == key
    listed = invoke("memory", "list", other, "--json").json()
    assert [r["text"] for r in listed["records"]] == ["Squash fixups before merging."]


def test_adopt_refuses_a_mistyped_key_unless_new_and_says_how_to_go_back(
    repo: Path, comet_home: Path
) -> None:
    invoke("memory", "remember", repo, "--text", "Squash fixups before merging.")
    key = invoke("project", "identity", repo, "--json").json()["key"]
    typo = key[:-1] + ("0" if key[-1] != "0" else "1")
    before = sorted(p.relative_to(comet_home) for p in comet_home.rglob("*"))
    result = invoke("project", "adopt", typo, repo)
    assert result.exit_code == 1
    assert f"no project {typo}" in result.stderr and f"did you mean {key}?" in result.stderr
    assert "--new" in result.stderr
    assert invoke("project", "identity", repo, "--json").json()["key"] == key
    assert sorted(p.relative_to(comet_home) for p in comet_home.rglob("*")) == before

    fresh = invoke("project", "adopt", "fresh-start-0123abcd", repo, "--new", "--json")
    assert fresh.exit_code == 0, fresh.stderr
    assert fresh.json()["goBack"] == f"comet project adopt {key}"
    assert invoke("memory", "list", repo, "--json").json()["records"] == []
    back = invoke("project", "adopt", key, repo)
    assert back.exit_code == 0 and "to go back: comet project adopt fresh-start-0123abcd" in back.stdout
    listed = invoke("memory", "list", repo, "--json").json()
    assert [r["text"] for r in listed["records"]] == ["Squash fixups before merging."]


def test_adopt_rejects_a_malformed_key_and_changes_nothing(repo: Path) -> None:
    before = invoke("project", "identity", repo, "--json").json()["key"]
    result = invoke("project", "adopt", "../../etc", repo)
    assert result.exit_code == 1
    assert "hint" in result.stderr
    assert invoke("project", "identity", repo, "--json").json()["key"] == before


def test_version_and_module_entry_point() -> None:
    result = run_comet("--version")
    assert result.exit_code == 0
    assert result.stdout.startswith("comet, version ")
    alias = Path(run_comet.__globals__["installed_comet"]()).with_name("comet-git")
    assert alias.exists()


def test_the_demo_tours_a_temporary_store_and_leaves_nothing_behind(tmp_path: Path, comet_home: Path) -> None:
    result = run_comet("demo", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    for step in ("$ comet init", "$ comet memory correct", "$ comet memory rollback", "forgotten:"):
        assert step in result.stdout
    assert "files under the store that still contain the text: none" in result.stdout
    assert "or staging" in result.stdout  # the hand edit of profile.md was taken in
    assert not comet_home.exists()  # the tour used its own temporary store
