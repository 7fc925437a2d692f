"""comet config get | set, and the repository's .comet/config.yaml."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comet_git import config
from tests.clihelp import invoke
from tests.gitutil import git


def test_defaults_are_on(repo: Path) -> None:
    data = invoke("config", "get", repo, "memory.learning", "--json").json()
    assert data == {
        "schema": "comet.config/v1",
        "key": "memory.learning",
        "value": True,
        "source": "default",
        "file": None,
    }


def test_set_in_a_repository_is_a_per_project_override(repo: Path, tmp_path: Path, comet_home: Path) -> None:
    result = invoke("config", "set", repo, "memory.retrieval", "false", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["value"] is False
    assert result.json()["source"] == "project-override"
    assert Path(result.json()["written"]).is_relative_to(comet_home)
    assert invoke("config", "get", repo, "memory.retrieval", "--json").json()["value"] is False
    assert invoke("config", "get", tmp_path, "memory.retrieval", "--json").json()["value"] is True
    assert git(repo, "status", "--porcelain", "--ignored") == ""


def test_repository_file_is_read_and_the_user_wins(repo: Path) -> None:
    (repo / ".comet").mkdir()
    (repo / ".comet" / "config.yaml").write_text("memory:\n  learning: false  # the team's choice\n")
    got = invoke("config", "get", repo, "memory.learning", "--json").json()
    assert (got["value"], got["source"]) == (False, "repository")
    invoke("config", "set", repo, "memory.learning", "true")
    got = invoke("config", "get", repo, "memory.learning", "--json").json()
    assert (got["value"], got["source"]) == (True, "project-override")


def test_global_setting_outside_a_repository(tmp_path: Path, comet_home: Path) -> None:
    """Outside a repository there is no project to set it for: only --global says "everywhere"."""
    refused = invoke("config", "set", tmp_path, "memory.learning", "off")
    assert refused.exit_code == 1 and "not inside a git repository" in refused.stderr
    assert "comet config set --global memory.learning off" in refused.stderr
    assert not (comet_home / "config.yaml").exists()
    assert invoke("config", "set", tmp_path, "memory.learning", "off", "--global").exit_code == 0
    assert "learning: false" in (comet_home / "config.yaml").read_text()
    assert invoke("config", "get", tmp_path, "memory.learning", "--json").json()["source"] == "user"


def test_set_keeps_the_users_comments(tmp_path: Path, comet_home: Path) -> None:
    comet_home.mkdir(parents=True)
    (comet_home / "config.yaml").write_text("# my settings\nmemory:\n  retrieval: true  # keep on\n")
    invoke("config", "set", tmp_path, "memory.learning", "false", "--global")
    text = (comet_home / "config.yaml").read_text()
    assert "# my settings" in text and "# keep on" in text and "learning: false" in text


def test_bad_keys_and_values(repo: Path, comet_home: Path) -> None:
    unknown = invoke("config", "set", repo, "memory.colour", "blue")
    assert unknown.exit_code == 1 and "memory.learning" in unknown.stderr
    bad_value = invoke("config", "set", repo, "memory.learning", "maybe")
    assert bad_value.exit_code == 1 and "true or false" in bad_value.stderr
    assert not (comet_home / "config.yaml").exists()


def test_a_broken_repository_file_is_named(repo: Path) -> None:
    (repo / ".comet").mkdir()
    (repo / ".comet" / "config.yaml").write_text("memory:\n  learning: [oops\n")
    result = invoke("config", "get", repo, "memory.learning")
    assert result.exit_code == 1
    assert ".comet/config.yaml" in result.stderr


@pytest.mark.parametrize("where", ["repository", "user"])
def test_a_config_file_that_is_not_utf8_is_named_without_a_traceback(
    repo: Path, comet_home: Path, where: str
) -> None:
    path = repo / ".comet" / "config.yaml" if where == "repository" else comet_home / "config.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xff\xfe memory:\n")
    result = invoke("config", "get", repo, "memory.learning")
    assert result.exit_code == 1 and f"{path}: not UTF-8 text" in result.stderr
    status = invoke("memory", "status", repo)  # says what it can, and what it could not read
    assert "Traceback" not in status.stdout + status.stderr
    assert f"{path}: not UTF-8 text" in status.stdout + status.stderr


SETTING_VALUES = {
    "memory.learning": st.booleans(),
    "memory.retrieval": st.booleans(),
    "memory.provider": st.sampled_from(["local", "remote"]),
    "memory.remote.url": st.sampled_from(["http://127.0.0.1:8765", "https://memory.example.com/comet"]),
    "memory.remote.timeout": st.sampled_from([0.5, 2.0, 30.0]),
}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(sorted(SETTING_VALUES)), unique=True, min_size=1).flatmap(
    lambda keys: st.fixed_dictionaries({key: SETTING_VALUES[key] for key in keys})
))  # fmt: skip
def test_what_config_set_writes_is_read_without_yaml_and_as_yaml_reads_it(values: dict[str, object]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.yaml"
        for key, value in values.items():
            config.write_setting(path, key, value)  # type: ignore[arg-type]
        text = path.read_text()
    assert config._plain_settings(text) == config._yaml_settings(text, path) == values


@pytest.mark.parametrize(
    "text",
    [
        "memory:\n  remote:\n  provider: local\n",
        "memory:\n  remote:\n    token: x\n",
        "memory:\n  url: 'x'\n",
    ],
)
def test_anything_else_is_left_to_yaml(text: str) -> None:
    assert config._plain_settings(text) is None


def test_a_broken_repository_file_is_left_out_of_retrieval_and_named_by_status(repo: Path) -> None:
    """A teammate's broken commit of .comet/config.yaml must not turn memory off for everyone in
    the repository: it is left out (and logged), and `config get` and `status` name it."""
    assert invoke("memory", "remember", repo, "--text", "Run make lint before committing.").exit_code == 0
    (repo / ".comet").mkdir()
    (repo / ".comet" / "config.yaml").write_text("memory: [\n")
    asked = invoke("task", repo, "--task", "lint before committing")
    assert asked.exit_code == 0 and "make lint" in asked.stdout
    assert invoke("config", "set", repo, "memory.learning", "false").exit_code == 0  # your own choice still
    status = invoke("memory", "status", repo, "--json").json()["switches"]["memory.learning"]
    assert status["value"] is False and ".comet/config.yaml" in status["error"]
    assert invoke("config", "get", repo, "memory.learning").exit_code == 1
