"""Records whose anchors (paths, make targets, npm scripts) are gone at HEAD are flagged, never changed."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from comet_git.provider.anchors import HeadTree, stale_reasons, text_paths
from tests.clihelp import invoke
from tests.gitutil import git


def ok(*args: str, cwd: Path) -> Any:
    result = invoke(*args, "--json", cwd=cwd)
    assert result.exit_code == 0, result.stderr + result.stdout
    return result.json()


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def tree(files: dict[str, str]) -> HeadTree:
    paths = frozenset(files)
    directories = frozenset("/".join(p.split("/")[: i + 1]) for p in paths for i in range(p.count("/")))
    return HeadTree("h", paths, directories)


def test_the_paths_a_text_names() -> None:
    text = (
        "Run the checks in `tests/unit/` and docs/index.md, and/or keep pyproject.toml; see https://x.io/a/b."
    )
    assert text_paths(text) == {"tests/unit/", "docs/index.md", "pyproject.toml"}
    assert text_paths("Use input/output streams, ci/cd, `type(scope): x`.") == set()


def test_a_record_whose_folder_moved_is_stale_and_one_that_holds_is_not() -> None:
    head = tree({"src/auth/login.py": "", "Makefile": ""})
    moved = {"text": "Keep the tokens in src/session/ private.", "selectors": {"paths": ["src/session/"]}}
    assert stale_reasons(moved, head) == ["src/session/ no longer exists"]
    holds = {
        "text": "Tests for `src/auth/` go in the same commit.",
        "selectors": {"paths": ["src/auth/", "*.py"]},
    }
    assert stale_reasons(holds, head) == []


def test_a_tool_another_of_its_kind_replaced_is_stale(repo: Path) -> None:
    (repo / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n\n[tool.mypy]\nstrict = true\n")
    (repo / "uv.lock").write_text("version = 1\n")
    (repo / "README.md").write_text("We used to run black and poetry.\n")  # a README is no configuration
    commit_all(repo, "Move to ruff and uv")
    head = HeadTree.read(repo)
    assert head is not None and head.tools == {"ruff", "mypy", "uv"}

    def reasons(text: str) -> list[str]:
        return stale_reasons({"text": text}, head)

    assert reasons("Format with `black .` before committing.") == [
        "`black`: the repository shows ruff, not black"
    ]
    assert reasons("Add dependencies with poetry add.") == ["`poetry`: the repository shows uv, not poetry"]
    assert reasons("Run ruff check and mypy before you commit.") == []
    assert reasons("Use a black background for code blocks.") == []  # the colour, not the formatter
    assert reasons("Run jest for the web tests.") == []  # no JavaScript test runner shown: none replaced


def settle_store_folders() -> None:
    """As if the stores had last changed a minute ago: past the window in which a folder's time
    cannot be trusted (freshness.folder_marks), so that what is computed now is cached."""
    past = time.time() - 60
    for folder in Path(os.environ["COMET_HOME"]).glob("projects/*"):
        for path in (folder / "records", folder / "tombstones", folder / "profile.md"):
            if path.exists():
                os.utime(path, (past, past))


def test_stale_records_are_flagged_where_listed_and_delivered_and_never_changed(repo: Path) -> None:
    (repo / "src" / "auth").mkdir(parents=True)
    (repo / "src" / "auth" / "login.py").write_text("x\n")
    (repo / "Makefile").write_text("test lint:\n\tpytest\n")
    (repo / "package.json").write_text(json.dumps({"scripts": {"build": "tsc"}}))
    commit_all(repo, "layout")
    ok("init", "--no-hooks", cwd=repo)
    auth = ok("memory", "remember", "--text", "Never log tokens in src/auth/; run `make lint` first.",
              "--path", "src/auth/", cwd=repo)["record"]["id"]  # fmt: skip
    build = ok("memory", "remember", "--text", "Build with `npm run build` before a release.", cwd=repo)[
        "record"
    ]["id"]
    assert ok("memory", "list", "--stale", cwd=repo)["records"] == []

    git(repo, "mv", "src/auth", "src/session")
    (repo / "Makefile").write_text("test check:\n\tpytest\n")
    commit_all(repo, "move auth, rename lint")
    settle_store_folders()  # the verdicts are cached only once the folders' times can be trusted
    [listed] = ok("memory", "list", "--stale", cwd=repo)["records"]
    assert listed["id"] == auth
    assert listed["stale"] == ["src/auth/ no longer exists", "`make lint`: the Makefile has no lint target"]
    assert listed["authority"] == "explicit" and listed["text"].startswith("Never log tokens in src/auth/")
    status = ok("memory", "status", cwd=repo)
    assert [item["id"] for item in status["stale"]] == [auth]

    context = ok("task", "--task", "change the login", "--path", "src/session/login.py", cwd=repo)
    delivered = {item["id"]: item for item in context["context"] + context["manifest"]}
    assert build in delivered and not any("stale" in why for why in delivered[build]["whyApplied"])
    context = ok("task", "--task", "never log tokens make lint", cwd=repo)
    delivered = {item["id"]: item for item in context["context"] + context["manifest"]}
    assert (
        "may be stale: src/auth/ no longer exists; `make lint`: the Makefile has no lint target"
        in (delivered[auth]["whyApplied"])
    )
    # Flagged, never changed: the person's record is as they wrote it.
    [record] = [r for r in ok("memory", "list", cwd=repo)["records"] if r["id"] == auth]
    assert record["version"] == 1


def test_learn_offers_the_stale_learned_records_for_correction_never_the_persons(repo: Path) -> None:
    for folder in ("src/auth", "tests/auth"):
        (repo / folder).mkdir(parents=True)
        (repo / folder / "login.py").write_text("x\n")
    commit_all(repo, "layout")
    ok("init", "--no-hooks", cwd=repo)
    mine = ok("memory", "remember", "--text", "Never log tokens in src/auth/.", cwd=repo)["record"]["id"]
    document = {
        "schema": "comet.learning-delta/v1",
        "deltas": [{"action": "create", "statement": "Changes to src/auth/ come with tests in tests/auth/."}],
    }
    [learned] = invoke(
        "memory", "apply", "--delta", "-", "--json", cwd=repo, input=json.dumps(document)
    ).json()["results"]
    assert ok("learn", cwd=repo)["reflect"] == []  # nothing stale yet

    git(repo, "mv", "src/auth", "src/session")
    commit_all(repo, "move auth")
    [offered] = ok("learn", cwd=repo)["reflect"]
    assert offered["id"] == learned["id"] != mine
    assert offered["stale"] == ["src/auth/ no longer exists"]
    assert offered["reason"].startswith("may be stale (src/auth/ no longer exists): check it against")
