"""Bad input: each case exits 1 (2 for a click usage error), says on stderr what
to do next, prints nothing on stdout, and changes nothing on disk."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.clihelp import Result, invoke, run_comet

UNKNOWN = "pm-zzzzzzzz"


# -- helpers ---------------------------------------------------------------------------


def ok(result: Result) -> Result:
    assert result.exit_code == 0, f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result


def mem(*args: str | os.PathLike[str], cwd: Path) -> Any:
    return ok(invoke("memory", *args, "--json", cwd=cwd)).json()


def remember(cwd: Path, text: str, *extra: str) -> str:
    record_id: str = mem("remember", "--text", text, *extra, cwd=cwd)["record"]["id"]
    return record_id


def snapshot(root: Path) -> dict[str, Any]:
    """Every file's bytes under COMET_HOME, except the SQLite index files, whose bytes change
    on a mere read (files written less than 2 s earlier are re-hashed and their rows rewritten);
    for the index, its logical content (records, forgotten ids, invalid files) is compared."""
    if not root.exists():
        return {}
    files: dict[str, Any] = {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.name.startswith("comet.sqlite3")
    }
    index = root / "index" / "comet.sqlite3"
    if index.exists():
        files["<index content>"] = index_content(index)
    return files


def index_content(index: Path) -> list[Any]:
    connection = sqlite3.connect(f"file:{index}?immutable=1", uri=True)
    try:
        return [
            connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("records", "forgotten_ids", "invalid")
        ] + [connection.execute("SELECT * FROM meta WHERE key LIKE 'profile%' ORDER BY 1").fetchall()]
    finally:
        connection.close()


def refused(result: Result, code: int = 1) -> None:
    """A clear refusal: the exit code, a message on stderr, nothing on stdout, no traceback."""
    assert result.exit_code == code, (
        f"exit {result.exit_code}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    )
    assert result.stdout == ""
    assert result.stderr.strip()
    assert "Traceback" not in result.stderr
    if result.stderr.startswith("{"):  # with --json, the error is a comet.error/v1 object
        error = json.loads(result.stderr)
        assert error["schema"] == "comet.error/v1" and error["error"]
        assert error["hint"], "the message should say what to do next"
    elif code == 1:
        assert result.stderr.startswith("error: ")
        assert "hint: " in result.stderr, "the message should say what to do next"
    else:
        assert "Usage:" in result.stderr and "--help" in result.stderr


def project_store(home: Path) -> Path:
    (store,) = [p for p in (home / "projects").iterdir() if p.is_dir()]
    return store


def record_path(home: Path, record_id: str) -> Path:
    (path,) = home.glob(f"**/records/{record_id}.md")
    return path


@pytest.fixture
def populated(repo: Path, comet_home: Path) -> dict[str, str]:
    ids = {
        "project": remember(repo, "Run the linters before pushing.", "--operation", "commit"),
        "other": remember(repo, "Prefer small commits.", "--title", "Small commits"),
        "global": remember(repo, "Answer in English.", "--scope", "global", "--type", "core-profile"),
    }
    mem("list", cwd=repo)  # settle: profile.md and the index are written
    return ids


# -- unknown ids ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["show"],
        ["show", "--history"],
        ["correct", "--text", "something else"],
        ["forget"],
        ["forget", "--permanent"],
        ["rollback"],
    ],
    ids=lambda c: "-".join(c[:2]).strip("-"),
)
@pytest.mark.parametrize("bad_id", [UNKNOWN, "not-an-id!", "../../etc/passwd"])
def test_unknown_id(
    repo: Path, comet_home: Path, populated: dict[str, str], command: list[str], bad_id: str
) -> None:
    before = snapshot(comet_home)
    result = invoke("memory", command[0], "--id", bad_id, *command[1:], "--json", cwd=repo)
    refused(result)
    assert bad_id in result.stderr
    assert "comet memory list" in result.stderr
    assert snapshot(comet_home) == before


def test_rollback_of_a_record_with_nothing_to_undo(
    repo: Path, comet_home: Path, populated: dict[str, str]
) -> None:
    before = snapshot(comet_home)
    result = invoke("memory", "rollback", "--id", populated["project"], cwd=repo)
    refused(result)
    assert populated["project"] in result.stderr
    assert snapshot(comet_home) == before


def test_forgetting_twice_is_refused(repo: Path, comet_home: Path, populated: dict[str, str]) -> None:
    mem("forget", "--id", populated["other"], cwd=repo)
    before = snapshot(comet_home)
    result = invoke("memory", "forget", "--id", populated["other"], cwd=repo)
    refused(result)
    assert "already forgotten" in result.stderr
    assert "rollback" in result.stderr
    assert snapshot(comet_home) == before


# -- invalid values -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["remember", "--text", "x", "--type", "foo"],
        ["remember", "--text", "x", "--class", "foo"],
        ["remember", "--text", "x", "--scope", "everywhere"],
        ["list", "--type", "foo"],
        ["list", "--lifecycle", "ancient"],
        ["correct", "--id", "ID", "--type", "foo"],
        ["remember"],  # --text is required
        ["remember", "--text", "x", "--no-such-flag"],
    ],
    ids=lambda a: "-".join(a),
)
def test_invalid_enum_is_a_usage_error(
    repo: Path, comet_home: Path, populated: dict[str, str], args: list[str]
) -> None:
    args = [populated["project"] if a == "ID" else a for a in args]
    before = snapshot(comet_home)
    result = invoke("memory", *args, "--json", cwd=repo)
    refused(result, code=2)
    if "foo" in args:
        assert "'foo' is not one of" in result.stderr
    assert snapshot(comet_home) == before


@pytest.mark.parametrize("command", ["remember", "correct"])
@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--path", "/etc/passwd"),
        ("--path", "../x"),
        ("--path", "src/../../x"),
        ("--path", "~/notes"),
        ("--operation", "two words"),
        ("--phase", "not a phase!"),
    ],
)
def test_invalid_selector(
    repo: Path, comet_home: Path, populated: dict[str, str], command: str, flag: str, value: str
) -> None:
    before = snapshot(comet_home)
    head = (
        ["remember", "--text", "Something new."]
        if command == "remember"
        else [
            "correct",
            "--id",
            populated["project"],
        ]
    )
    result = invoke("memory", *head, flag, value, "--json", cwd=repo)
    refused(result, code=2)  # a usage error, as the README says: the value, not the store, is wrong
    assert flag in result.stderr
    assert value in result.stderr
    assert snapshot(comet_home) == before


@pytest.mark.parametrize("command", ["remember", "correct"])
def test_empty_text(repo: Path, comet_home: Path, populated: dict[str, str], command: str) -> None:
    before = snapshot(comet_home)
    head = ["remember"] if command == "remember" else ["correct", "--id", populated["project"]]
    result = invoke("memory", *head, "--text", "  \n", cwd=repo)
    refused(result, code=2)
    assert "text" in result.stderr
    assert snapshot(comet_home) == before


PASTED = "From now on always " + "check the invoice totals twice. " * 4000


@pytest.mark.parametrize("command", ["remember", "correct"])
def test_pasted_document_is_not_a_record(
    repo: Path, comet_home: Path, populated: dict[str, str], command: str
) -> None:
    """A 120 KB paste once became a proven global rule: a record is a few sentences."""
    before = snapshot(comet_home)
    head = ["remember"] if command == "remember" else ["correct", "--id", populated["project"]]
    result = invoke("memory", *head, "--text", PASTED, "--json", cwd=repo)
    refused(result, code=2)
    assert "at most 4,000" in result.stderr
    assert snapshot(comet_home) == before


def test_a_pasted_signal_keeps_its_rule_sentence_and_journals_the_paste(repo: Path) -> None:
    """What the user said is kept whole (the journal), but only the rule becomes a record: the
    pasted document around it is neither stored nor quoted back; the agent hooks capture prompts
    the same way."""
    answer = mem("signal", "--text", PASTED, cwd=repo)
    assert answer["kind"] == "long-term" and answer["record"] is not None, answer["note"]
    assert answer["record"]["text"] == "From now on always check the invoice totals twice."
    assert "the other 127,9" in answer["note"] and "invoice" not in answer["note"]
    journaled = ok(invoke("journal", "list", repo, "--json", "--type", "user.signal", cwd=repo)).json()
    assert [event["signal"]["text"] for event in journaled["events"]] == [PASTED]


def test_correct_with_nothing_to_change(repo: Path, comet_home: Path, populated: dict[str, str]) -> None:
    before = snapshot(comet_home)
    result = invoke("memory", "correct", "--id", populated["project"], cwd=repo)
    refused(result)
    assert "--text" in result.stderr
    assert snapshot(comet_home) == before


# -- outside any repository ---------------------------------------------------------------------


def test_project_scope_outside_a_repository_fails_and_global_still_works(
    tmp_path: Path, comet_home: Path
) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    before = snapshot(comet_home)
    result = invoke("memory", "remember", "--text", "Use make.", "--scope", "project", "--json", cwd=outside)
    refused(result)
    assert "git repository" in result.stderr
    assert "--scope global" in result.stderr
    assert snapshot(comet_home) == before

    # the global scope still works, as the default and when asked for
    first = mem("remember", "--text", "Use make.", cwd=outside)["record"]
    second = mem("remember", "--text", "Use tabs.", "--scope", "global", cwd=outside)["record"]
    assert first["scope"] == second["scope"] == "global"
    assert {r["id"] for r in mem("list", cwd=outside)["records"]} == {first["id"], second["id"]}
    assert mem("status", cwd=outside)["project"] is None


def test_list_project_scope_outside_a_repository_fails_clearly(tmp_path: Path, comet_home: Path) -> None:
    outside = tmp_path / "plain"
    outside.mkdir()
    mem("remember", "--text", "Use make.", cwd=outside)
    result = invoke("memory", "list", "--scope", "project", "--json", cwd=outside)
    refused(result)
    assert "git repository" in result.stderr


def test_path_that_does_not_exist(tmp_path: Path, comet_home: Path) -> None:
    for args in (["list"], ["status"], ["remember", "--text", "x"]):
        result = invoke("memory", args[0], str(tmp_path / "nowhere"), *args[1:], cwd=tmp_path)
        refused(result)
        assert "does not exist" in result.stderr
    assert snapshot(comet_home) == {}


# -- broken record files ------------------------------------------------------------------------


def _break(raw: str, how: str) -> tuple[str, int | None, str]:
    """(broken text, the line to report or None if any line will do, a word of the error)."""
    lines = raw.splitlines(keepends=True)
    if how == "broken-yaml":
        number = next(i for i, line in enumerate(lines, 1) if line.startswith("title:"))
        lines[number - 1] = "title: [unclosed, flow\n"
        return "".join(lines), None, "YAML"
    if how == "missing-key":
        return "".join(line for line in lines if not line.startswith("memoryClass:")), None, "memoryClass"
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("authority:"))
    lines.insert(number - 1, "colour: blue\n")
    return "".join(lines), number, "colour"


@pytest.mark.parametrize("how", ["broken-yaml", "missing-key", "unknown-key"])
def test_broken_record_file_is_reported_skipped_and_left_alone(
    repo: Path, comet_home: Path, populated: dict[str, str], how: str
) -> None:
    good = record_path(comet_home, populated["project"])
    broken = good.with_name("pm-broken01.md")
    text, line, word = _break(good.read_text().replace(populated["project"], "pm-broken01"), how)
    broken.write_bytes(text.encode())
    bytes_before = broken.read_bytes()
    front_lines = text.split("\n---\n")[0].count("\n") + 2

    data = mem("list", cwd=repo)
    (report,) = data["invalid"]
    assert report["file"] == str(broken)
    assert word in report["error"]
    if how != "missing-key":  # see test_missing_key_is_reported_with_a_line
        assert isinstance(report["line"], int)
        assert 2 <= report["line"] <= front_lines
    if line is not None:
        assert report["line"] == line
    assert {r["id"] for r in data["records"]} == set(populated.values())

    status = mem("status", cwd=repo)
    (store,) = [s for s in status["stores"] if s["name"].startswith("project:")]
    assert [item["file"] for item in store["invalid"]] == [str(broken)]
    plain = ok(invoke("memory", "status", cwd=repo)).stdout
    assert f"invalid: {broken}" in plain
    assert "pm-broken01.md" in ok(invoke("memory", "list", cwd=repo)).stdout

    # the other records still work
    mem("show", "--id", populated["other"], cwd=repo)
    mem("correct", "--id", populated["other"], "--text", "Prefer very small commits.", cwd=repo)
    mem("forget", "--id", populated["project"], cwd=repo)
    mem("rollback", "--id", populated["project"], cwd=repo)
    remember(repo, "A record made while a file is broken.")
    check = ok(run_comet("repair", "--check", "--json", cwd=repo)).json()
    assert str(broken) in [item["file"] for s in check["stores"] for item in s["invalid"]]
    full = ok(run_comet("repair", "--json", cwd=repo)).json()
    assert str(broken) in [item["file"] for item in full["unrecoverable"]]
    assert len(mem("list", cwd=repo)["records"]) == 4
    show_broken = invoke("memory", "show", "--id", "pm-broken01", cwd=repo)
    refused(show_broken)
    assert broken.read_bytes() == bytes_before

    # once the user fixes it, it is a record like any other
    broken.write_text(
        good.read_text()
        .replace(populated["project"], "pm-broken01")
        .replace("Run the linters before pushing.", "Fixed by hand.")
    )
    data = mem("list", cwd=repo)
    assert data["invalid"] == []
    assert "pm-broken01" in {r["id"] for r in data["records"]}


def test_missing_key_is_reported_with_a_line(repo: Path, comet_home: Path, populated: dict[str, str]) -> None:
    good = record_path(comet_home, populated["project"])
    text, _, _ = _break(good.read_text().replace(populated["project"], "pm-broken01"), "missing-key")
    good.with_name("pm-broken01.md").write_text(text)
    (report,) = mem("list", cwd=repo)["invalid"]
    assert isinstance(report["line"], int)


def test_same_id_in_two_files(repo: Path, comet_home: Path, populated: dict[str, str]) -> None:
    rid = populated["project"]
    original = record_path(comet_home, rid)
    copy = original.with_name("pm-copy0001.md")
    shutil.copyfile(original, copy)
    copy_bytes = copy.read_bytes()

    data = mem("list", cwd=repo)
    assert [r["id"] for r in data["records"]].count(rid) == 1
    (report,) = data["invalid"]
    assert report["file"] == str(copy)
    assert rid in report["error"] and "already used" in report["error"]
    status = mem("status", cwd=repo)
    assert [c["file"] for c in status["conflicts"]] == [str(copy)]

    # the one that is not reported still works
    corrected = mem("correct", "--id", rid, "--text", "Run every linter before pushing.", cwd=repo)
    assert corrected["record"]["version"] == 2
    assert "Run every linter before pushing." in original.read_text()
    assert copy.read_bytes() == copy_bytes
    assert mem("show", "--id", rid, cwd=repo)["record"]["text"] == "Run every linter before pushing."
    check = ok(run_comet("repair", "--check", "--json", cwd=repo)).json()
    flagged = [item["file"] for s in check["stores"] for item in s["invalid"]]
    assert len(flagged) == 1 and flagged[0] in (str(copy), str(original))


# -- an unwritable COMET_HOME -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["memory", "remember", "--text", "Remember me."],
        ["memory", "remember", "--text", "Remember me.", "--scope", "global"],
        ["memory", "list"],
        ["memory", "status"],
        ["memory", "show", "--id", UNKNOWN],
    ],
    ids=lambda a: "-".join(a[1:2] + a[-1:]),
)
def test_unwritable_comet_home(repo: Path, tmp_path: Path, args: list[str]) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("a regular file, not a directory\n")
    result = run_comet(*args, "--json", cwd=repo, env={"COMET_HOME": str(blocker / "home")})
    refused(result)
    assert "COMET_HOME" in result.stderr
    assert blocker.read_text() == "a regular file, not a directory\n"


# -- profile.md edited into nonsense --------------------------------------------------------------


def _nonsense(text: str, ids: dict[str, str], how: str) -> tuple[str, int]:
    lines = text.splitlines(keepends=True)
    if how == "unknown-heading":
        number = next(i for i, line in enumerate(lines, 1) if line.startswith("## Personal episodes"))
        lines[number - 1] = "## Things I like\n"
        return "".join(lines), number
    if how == "duplicate-id":
        start = next(i for i, line in enumerate(lines) if line.startswith("### Small commits"))
        section = lines[start : start + 4]  # heading, id line, blank, text
        assert ids["other"] in section[1]
        lines[start + 4 : start + 4] = ["\n", "### Small commits again\n", *section[1:]]
        return "".join(lines), start + 6
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("### Small commits"))
    assert ids["other"] in lines[number]
    lines[number] = lines[number].replace(ids["other"], UNKNOWN)
    return "".join(lines), number


@pytest.mark.parametrize("how", ["unknown-heading", "duplicate-id", "unknown-id"])
@pytest.mark.parametrize("fix", ["restore", "delete"])
def test_profile_edited_into_nonsense(
    repo: Path, comet_home: Path, populated: dict[str, str], how: str, fix: str
) -> None:
    store = project_store(comet_home)
    profile = store / "profile.md"
    original = profile.read_text()
    nonsense, line = _nonsense(original, populated, how)
    profile.write_text(nonsense)
    records_before = {k: v for k, v in snapshot(store).items() if not k.startswith("profile")}

    data = mem("list", cwd=repo)
    invalid = [item for item in data["invalid"] if item["file"] == str(profile)]
    assert len(invalid) == 1, data["invalid"]
    assert invalid[0]["line"] == line
    listed_before = {r["id"]: r for r in data["records"]}
    assert set(listed_before) == set(populated.values())
    status = mem("status", cwd=repo)
    (project,) = [s for s in status["stores"] if s["name"].startswith("project:")]
    assert [(i["file"], i["line"]) for i in project["invalid"]] == [(str(profile), line)]
    assert f"invalid: {profile}:{line}" in ok(invoke("memory", "status", cwd=repo)).stdout
    # nothing was taken from it, and it is left exactly as the user wrote it
    assert {k: v for k, v in snapshot(store).items() if not k.startswith("profile")} == records_before
    assert profile.read_text() == nonsense
    assert {r["id"]: r for r in mem("list", cwd=repo)["records"]} == listed_before

    # other commands still work, and still leave it alone
    new = remember(repo, "A rule added while profile.md is broken.")
    mem("correct", "--id", populated["project"], "--text", "Run all linters before pushing.", cwd=repo)
    assert profile.read_text() == nonsense
    assert [p.name for p in store.glob("profile.md*")] == ["profile.md"]

    # the user fixes it (puts back what was there) or deletes it: it is regenerated
    if fix == "restore":
        profile.write_text(original)
    else:
        profile.unlink()
    data = mem("list", cwd=repo)
    assert len(data["records"]) == 4
    regenerated = profile.read_text()
    for record_id in (*populated.values(), new):
        if record_id != populated["global"]:
            assert record_id in regenerated
    assert "Run all linters before pushing." in regenerated
    assert "Things I like" not in regenerated and UNKNOWN not in regenerated
    # and it is read as a profile again: an edit of it is taken in
    profile.write_text(regenerated.replace("Prefer small commits.", "Prefer tiny commits."))
    assert mem("show", "--id", populated["other"], cwd=repo)["record"]["text"] == "Prefer tiny commits."


@pytest.mark.parametrize("fix", ["restore", "delete"])
def test_profile_error_report_goes_away_once_fixed(
    repo: Path, comet_home: Path, populated: dict[str, str], fix: str
) -> None:
    profile = project_store(comet_home) / "profile.md"
    original = profile.read_text()
    profile.write_text(_nonsense(original, populated, "unknown-heading")[0])
    assert mem("list", cwd=repo)["invalid"]
    if fix == "restore":
        profile.write_text(original)
    else:
        profile.unlink()
    assert mem("list", cwd=repo)["invalid"] == []
    assert mem("status", cwd=repo)["stores"][1]["invalid"] == []


def test_a_record_file_that_is_not_utf8_is_named_by_the_commands_that_read_it(
    repo: Path, comet_home: Path
) -> None:
    made = invoke("memory", "remember", repo, "--text", "Reply briefly.", "--json")
    record_id = json.loads(made.stdout)["record"]["id"]
    [path] = list(comet_home.rglob(f"{record_id}.md"))
    path.write_bytes(path.read_bytes() + b"\xff\n")
    for args in (
        ["memory", "forget", repo, "--id", record_id],
        ["memory", "forget", repo, "--id", record_id, "--permanent"],
        ["memory", "correct", repo, "--id", record_id, "--text", "Reply at length."],
        ["memory", "export", repo],
    ):
        done = invoke(*args)  # in process: a traceback would raise here
        assert done.exit_code == 1 and f"{path}: not UTF-8 text" in done.stderr, args
    assert path.read_bytes().endswith(b"\xff\n")  # left as it was, for the user to fix


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("memory apply --delta -", "stdin is closed: there is no delta to read"),
        ("mcp .", "stdin or stdout is closed"),
    ],
)
def test_a_command_that_reads_stdin_started_without_one_says_so(repo: Path, command: str, said: str) -> None:
    import subprocess

    from tests.clihelp import installed_comet

    done = subprocess.run(
        ["sh", "-c", f"'{installed_comet()}' {command} <&-"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr


def test_an_import_file_that_nests_too_deeply_is_refused(repo: Path, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    done = invoke("memory", "import", deep, repo)
    assert done.exit_code == 1 and "nests too deeply" in done.stderr


@pytest.mark.parametrize("option", ["--max-entries", "--context-budget"])
def test_a_count_too_large_for_any_request_is_a_usage_error(repo: Path, option: str) -> None:
    done = run_comet("task", "--task", "lint", option, "99999999999999999999", cwd=repo)
    assert done.exit_code == 2 and "is not in the range" in done.stderr and "Traceback" not in done.stderr


def test_a_record_file_that_cannot_be_read_is_named_and_the_others_are_served(
    repo: Path, comet_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from comet_git.provider import sync

    made = invoke("memory", "remember", repo, "--text", "Reply briefly.", "--json")
    record_id = json.loads(made.stdout)["record"]["id"]
    assert invoke("memory", "remember", repo, "--text", "Run make lint before committing.").exit_code == 0
    [path] = list(comet_home.rglob(f"{record_id}.md"))
    path.write_text(path.read_text().replace("Reply briefly.", "Reply briefly, always."))  # to be read again
    real = sync.read_with_state

    def unreadable(where: Path) -> Any:
        if where == path:  # as a file of mode 000 is to anyone but root
            raise PermissionError(13, "Permission denied", str(where))
        return real(where)

    monkeypatch.setattr(sync, "read_with_state", unreadable)
    listed = mem("list", cwd=repo)
    assert any("cannot be read: Permission denied" in str(item) for item in listed["invalid"])
    assert {"Reply briefly.", "Run make lint before committing."} <= {r["text"] for r in listed["records"]}
    asked = invoke("task", repo, "--task", "lint before committing", "--json")
    assert asked.exit_code == 0 and "make lint" in asked.stdout
    assert invoke("memory", "remember", repo, "--text", "Prefer small pull requests.").exit_code == 0


def test_a_session_id_that_is_not_utf8_is_still_one_session(repo: Path) -> None:
    assert invoke("memory", "remember", repo, "--text", "Run make lint before committing.").exit_code == 0
    ask = ["task", "--task", "lint before committing", "--session", "s-\udcff", "--json"]  # the byte 0xff
    first, second = run_comet(*ask, cwd=repo), run_comet(*ask, cwd=repo)
    assert first.exit_code == 0 and "make lint" in first.stdout and "retrieval failed" not in first.stderr
    assert second.exit_code == 0 and "make lint" not in second.stdout  # already given in this session
