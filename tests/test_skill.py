"""The comet-memory skill: its format, every command it teaches, and `comet skill install`."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from comet_git.agents.skill import SKILL_NAME, packaged_files
from tests.clihelp import run_comet

ROOT = Path(__file__).resolve().parent.parent
SKILL = ROOT / "skills" / SKILL_NAME
SKILL_DOCS = [SKILL / "SKILL.md", *sorted((SKILL / "references").glob("*.md"))]


def front_matter(text: str) -> dict[str, str]:
    assert text.startswith("---\n")
    data = yaml.safe_load(text.split("\n---\n", 1)[0][4:])
    assert isinstance(data, dict)
    return data


def test_the_skill_follows_the_agent_skills_format() -> None:
    text = (SKILL / "SKILL.md").read_text()
    meta = front_matter(text)
    assert meta["name"] == SKILL.name == SKILL_NAME
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", meta["name"]) and len(meta["name"]) <= 64
    assert 0 < len(meta["description"]) <= 1024 and "Use it" in meta["description"]
    assert meta["allowed-tools"] == "Bash(comet:*)"  # the agent may run comet without asking each time
    assert len(text.splitlines()) <= 500
    for link in re.findall(r"\]\((references/[^)]+)\)", text):
        assert (SKILL / link).is_file(), link


def test_the_skill_installs_comet_from_its_repository_not_from_an_index() -> None:
    # comet-git is not published on a package index: `pip install comet-git` installs nothing
    # (or someone else's package).  Neither the skill nor a hint of comet may say so.
    index_install = re.compile(r"pip install ['\"]?comet-git")
    for doc in [*SKILL_DOCS, *sorted((ROOT / "comet_git").rglob("*.py"))]:
        for number, line in enumerate(doc.read_text().splitlines(), 1):
            if index_install.search(line) and not re.search(r"(do not|not) `?pip install", line):
                raise AssertionError(f"{doc.relative_to(ROOT)}:{number}: {line.strip()}")
    text = (SKILL / "SKILL.md").read_text()
    assert "pip install ." in text


def test_the_skill_tells_how_to_join_the_hooks_session() -> None:
    text = (SKILL / "SKILL.md").read_text()
    assert "<comet-git-memory>" in text and "comet session: --session" in text


def test_the_installed_package_holds_the_skill() -> None:
    assert set(packaged_files()) >= {"SKILL.md", "references/outcomes.md", "references/learning-deltas.md"}


def shell_blocks() -> list[tuple[str, str]]:
    return [
        (f"{doc.relative_to(SKILL)}#{number}", block)
        for doc in SKILL_DOCS
        for number, block in enumerate(re.findall(r"```sh\n(.*?)```", doc.read_text(), re.S), 1)
    ]


def test_every_command_the_skill_teaches_runs(repo: Path) -> None:
    """Each ```sh block, in order, against a real repository and store; ID, AID and S are
    filled with a real record id, application id and session name."""
    (repo / "src" / "auth").mkdir(parents=True)
    record = run_comet(
        "memory", "remember", "--text", "Login code uses the fake Redis fixture in tests.",
        "--path", "src/auth/**", "--json", cwd=repo,
    )  # fmt: skip
    assert record.exit_code == 0, record.stderr
    record_id = record.json()["record"]["id"]
    delivered = run_comet("task", "--task", "login rate limiting", "--path", "src/auth", "--json", cwd=repo)
    [item] = delivered.json()["context"] + delivered.json()["manifest"]
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    blocks = shell_blocks()
    assert len(blocks) >= 8
    for where, block in blocks:
        script = re.sub(r"\bAID\b", item["applicationId"], block)
        script = re.sub(r"\bID\b", record_id, script)
        script = re.sub(r"\bS\b", "skill-test-session", script)
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script], cwd=repo, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, f"{where}:\n{script}\n{done.stdout}{done.stderr}"


# -- comet skill install ---------------------------------------------------------------------


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    writable = tmp_path / "writable-home"
    writable.mkdir()
    monkeypatch.setenv("HOME", str(writable))
    return writable


def install(*args: str) -> list[dict[str, str]]:
    done = run_comet("skill", "install", *args, "--json")
    assert done.exit_code == 0, done.stderr
    return list(done.json()["targets"])


def test_user_install_puts_a_private_copy_where_each_host_looks(home: Path) -> None:
    targets = install()
    assert {t["path"]: t["state"] for t in targets} == {
        str(home / ".claude/skills/comet-memory"): "installed",
        str(home / ".agents/skills/comet-memory"): "installed",
        str(home / ".cursor/skills/comet-memory"): "installed",
    }
    copy = home / ".claude/skills/comet-memory"
    assert (copy / "SKILL.md").read_bytes() == (SKILL / "SKILL.md").read_bytes()
    assert stat.S_IMODE((copy / "SKILL.md").stat().st_mode) == 0o600
    assert stat.S_IMODE((copy / "references").stat().st_mode) == 0o700
    assert {t["state"] for t in install()} == {"unchanged"}


def test_a_copy_the_user_changed_is_kept_unless_forced(home: Path, comet_home: Path) -> None:
    install("--host", "claude")
    skill_md = home / ".claude/skills/comet-memory/SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nMy own note.\n")
    [kept] = install("--host", "claude")
    assert kept["state"] == "kept-modified" and skill_md.read_text().endswith("My own note.\n")
    [replaced] = install("--host", "claude", "--force")
    assert replaced["state"] == "replaced"
    assert skill_md.read_bytes() == (SKILL / "SKILL.md").read_bytes()
    assert (Path(replaced["backup"]) / "SKILL.md").read_text().endswith("My own note.\n")
    assert Path(replaced["backup"]).is_relative_to(comet_home)
    assert sorted(p.name for p in skill_md.parent.parent.iterdir()) == ["comet-memory"]


def test_an_untouched_old_copy_is_updated(home: Path) -> None:
    install("--host", "cursor")
    old = home / ".cursor/skills/comet-memory/references/outcomes.md"
    old.write_text("an older release\n")
    assert install("--host", "cursor")[0]["state"] == "kept-modified"  # not what comet wrote
    old.unlink()
    install("--host", "cursor", "--force")
    skill_dir = home / ".cursor/skills/comet-memory"
    (skill_dir / "SKILL.md").chmod(0o600)
    assert install("--host", "cursor")[0]["state"] == "unchanged"


def test_project_install_goes_into_the_repository_root(repo: Path, home: Path) -> None:
    (repo / "src").mkdir()
    [target] = install("--project", str(repo / "src"), "--host", "codex")
    assert target["path"] == str(repo / ".agents/skills/comet-memory") and target["state"] == "installed"
    assert stat.S_IMODE((repo / ".agents/skills/comet-memory/SKILL.md").stat().st_mode) == 0o644
    assert not (home / ".agents").exists()


def test_user_and_project_together_is_a_usage_error(repo: Path) -> None:
    assert run_comet("skill", "install", "--user", "--project", str(repo)).exit_code == 2


def test_the_wheel_built_from_the_working_tree_ships_the_skill(tmp_path: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    source = tmp_path / "tree"
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((ROOT / name).read_bytes())
    build = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        str(tmp_path),
    ]
    done = subprocess.run([*build, str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    (wheel,) = tmp_path.glob("comet_git-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {
        "comet_git/skills/comet-memory/SKILL.md",
        "comet_git/skills/comet-memory/references/outcomes.md",
    } <= names
    assert "comet_git/agents/hooks.py" in names
