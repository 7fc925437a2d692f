"""Repository identity against real git repositories: worktrees, clones, moves."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from comet_git.errors import InvalidInputError, NotARepositoryError
from comet_git.identity import (
    KEY_PATTERN,
    ProjectFingerprint,
    RepoLocation,
    adopt,
    find_repository,
    fingerprint_repository,
    make_slug,
    normalize_remote_url,
    read_persisted_key,
    resolve_identity,
)
from tests.clihelp import run_comet
from tests.gitutil import commit, git, make_repo


def config_get(config: Path, name: str) -> str | None:
    # Bytes: text mode would translate a "\r" in the value.
    done = subprocess.run(["git", "config", "--file", str(config), "--get", name], capture_output=True)
    if done.returncode != 0:
        return None
    return done.stdout.decode("utf-8").removesuffix("\n")


def worktree_files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if ".git" not in p.relative_to(root).parts}


def assert_worktree_clean(root: Path) -> None:
    status = git(root, "status", "--porcelain", "--ignored", "--untracked-files=all")
    assert status == ""


# --- locating the repository -------------------------------------------------


def git_says(cwd: Path) -> RepoLocation:
    top, git_dir, common_dir = git(
        cwd,
        "rev-parse",
        "--path-format=absolute",
        "--show-toplevel",
        "--git-dir",
        "--git-common-dir",
    ).splitlines()
    return RepoLocation(Path(top).resolve(), Path(git_dir).resolve(), Path(common_dir).resolve())


def test_find_repository_agrees_with_git(tmp_path: Path) -> None:
    main = make_repo(tmp_path / "main")
    (main / "src" / "deep").mkdir(parents=True)
    git(main, "worktree", "add", "-q", str(tmp_path / "linked"))
    library = make_repo(tmp_path / "library")
    git(main, "submodule", "add", "-q", str(library), "vendor/library")

    for place in (
        main,
        main / "src" / "deep",
        tmp_path / "linked",
        main / "vendor" / "library",
    ):
        assert find_repository(place) == git_says(place), place


def test_find_repository_from_a_file_and_a_relative_path(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "src").mkdir()
    (repo / "src" / "main.py").write_text("")
    monkeypatch.chdir(repo / "src")

    from_file = find_repository(Path("main.py"))
    from_relative = find_repository(Path("."))

    assert from_file == from_relative == git_says(repo)


def test_find_repository_outside_any_repository(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    assert find_repository(tmp_path / "plain") is None


def test_a_dangling_gitfile_is_not_attributed_to_an_enclosing_repository(repo: Path) -> None:
    nested = repo / "nested"
    nested.mkdir()
    (nested / ".git").write_text("gitdir: /nowhere/at/all\n")
    assert find_repository(nested) is None


# --- identity ----------------------------------------------------------------


def test_outside_any_repository_raises_with_a_hint(tmp_path: Path) -> None:
    with pytest.raises(NotARepositoryError) as raised:
        resolve_identity(tmp_path)
    assert raised.value.hint


def test_key_from_origin_remote(repo: Path) -> None:
    identity = resolve_identity(repo)

    assert identity.derivation == "remote:origin"
    assert identity.key.startswith("app-")
    assert KEY_PATTERN.match(identity.key)
    assert identity.slug == "app"
    assert identity.fingerprint is not None
    assert identity.fingerprint.remotes == {"origin": "example.com/acme/app"}


def test_persisted_key_is_the_fast_path(repo: Path) -> None:
    first = resolve_identity(repo)
    second = resolve_identity(repo)

    assert first.persisted and second.persisted
    assert second.key == first.key
    assert second.fingerprint is None
    assert second.derivation == "remote:origin"
    assert resolve_identity(repo, with_fingerprint=True).fingerprint == first.fingerprint


def test_persist_false_writes_nothing(repo: Path) -> None:
    config = repo / ".git" / "config"
    before = config.read_bytes()

    identity = resolve_identity(repo, persist=False)

    assert not identity.persisted
    assert config.read_bytes() == before


def test_linked_worktree_shares_the_key_and_writes_the_common_config(tmp_path: Path) -> None:
    main = make_repo(tmp_path / "main", commits=2)
    linked = tmp_path / "linked"
    git(main, "worktree", "add", "-q", str(linked))
    files_before = worktree_files(main) | worktree_files(linked)

    # Computed independently from each side, with nothing persisted yet.
    from_main = resolve_identity(main, persist=False)
    from_linked = resolve_identity(linked, persist=False)
    assert from_main.key == from_linked.key
    assert from_main.derivation == "root-commits"

    persisted = resolve_identity(linked)

    common = main / ".git"
    assert persisted.location.common_dir == common.resolve()
    assert config_get(common / "config", "comet.projectKey") == from_main.key
    assert not (persisted.location.git_dir / "config.worktree").exists()
    assert resolve_identity(main).persisted
    assert resolve_identity(main).key == from_main.key
    for root in (main, linked):
        assert_worktree_clean(root)
    assert worktree_files(main) | worktree_files(linked) == files_before


def test_linked_worktree_with_worktree_config_still_writes_the_common_config(
    tmp_path: Path,
) -> None:
    main = make_repo(tmp_path / "main", remote="https://example.com/acme/app.git")
    git(main, "config", "extensions.worktreeConfig", "true")
    linked = tmp_path / "linked"
    git(main, "worktree", "add", "-q", str(linked))

    identity = resolve_identity(linked)

    assert git(linked, "config", "comet.projectKey") == identity.key
    assert config_get(main / ".git" / "config", "comet.projectKey") == identity.key
    assert config_get(identity.location.git_dir / "config.worktree", "comet.projectKey") is None


def test_two_clones_of_the_same_remote_get_the_same_key(tmp_path: Path) -> None:
    original = make_repo(tmp_path / "original", commits=3)
    bare = tmp_path / "shared.git"
    git(tmp_path, "clone", "-q", "--bare", str(original), str(bare))
    git(tmp_path, "clone", "-q", str(bare), "first")
    git(tmp_path, "clone", "-q", str(bare), "second")
    first, second = tmp_path / "first", tmp_path / "second"
    first_location, second_location = find_repository(first), find_repository(second)
    assert first_location is not None and second_location is not None
    assert read_persisted_key(first_location) is None
    assert read_persisted_key(second_location) is None

    first_identity = resolve_identity(first)
    second_identity = resolve_identity(second)

    assert first_identity.key == second_identity.key
    assert first_identity.derivation == second_identity.derivation == "remote:origin"
    assert first_identity.slug == "shared"


def test_https_and_scp_remotes_of_the_same_repository_agree(tmp_path: Path) -> None:
    https = make_repo(tmp_path / "https", remote="https://github.com/acme/app")
    scp = make_repo(tmp_path / "scp", remote="git@github.com:acme/app.git")

    assert resolve_identity(https).key == resolve_identity(scp).key


def test_a_fork_with_another_origin_gets_another_key(tmp_path: Path) -> None:
    upstream = make_repo(tmp_path / "upstream", remote="https://example.com/acme/app.git")
    git(tmp_path, "clone", "-q", str(upstream), "fork")
    fork = tmp_path / "fork"
    git(fork, "remote", "set-url", "origin", "https://example.com/someone/app.git")

    assert resolve_identity(fork).key != resolve_identity(upstream).key


def test_unrelated_repositories_without_remotes_get_different_keys(tmp_path: Path) -> None:
    # Same directory name, different first commits (identical first commits
    # would be the same history as far as git is concerned).
    one = make_repo(tmp_path / "same-name" / "app", commits=0)
    commit(one, "one.txt")
    other = make_repo(tmp_path / "other-place" / "app", commits=0)
    commit(other, "other.txt")

    assert resolve_identity(one).key != resolve_identity(other).key


def test_a_moved_repository_keeps_its_key(tmp_path: Path) -> None:
    before = make_repo(tmp_path / "before")
    key = resolve_identity(before).key

    after = Path(shutil.move(before, tmp_path / "elsewhere" / "renamed"))

    assert not before.exists()
    assert resolve_identity(after).key == key


def test_a_moved_repository_with_a_remote_derives_the_same_key_even_unpersisted(
    repo: Path, tmp_path: Path
) -> None:
    key = resolve_identity(repo, persist=False).key
    moved = Path(shutil.move(repo, tmp_path / "moved-away"))
    assert resolve_identity(moved, persist=False).key == key


def test_an_empty_repository_gets_a_stable_key(tmp_path: Path) -> None:
    empty = tmp_path / "Brand New Project"
    empty.mkdir()
    git(empty, "init", "-q")

    first = resolve_identity(empty)
    second = resolve_identity(empty)

    assert first.derivation == "new-repository"
    assert first.slug == "brand-new-project"
    assert first.fingerprint == ProjectFingerprint(
        remotes={}, root_commits=(), worktrees=(str(empty.resolve()),)
    )
    assert second.key == first.key
    assert second.derivation == "new-repository"


def test_commits_without_a_remote_derive_from_the_root_commits(tmp_path: Path) -> None:
    local = make_repo(tmp_path / "local-only", commits=3)
    root = git(local, "rev-list", "--max-parents=0", "HEAD")

    identity = resolve_identity(local)

    assert identity.derivation == "root-commits"
    assert identity.slug == "local-only"
    assert identity.fingerprint is not None
    assert identity.fingerprint.root_commits == (root,)


def test_a_clone_of_a_local_repository_derives_from_its_origin_path(tmp_path: Path) -> None:
    # A clone records the source path as origin, so it is the remote, not the
    # shared root commits, that names it; both clones of that path agree.
    local = make_repo(tmp_path / "local-only", commits=2)
    git(tmp_path, "clone", "-q", str(local), "clone-a")
    git(tmp_path, "clone", "-q", str(local), "clone-b")

    clone_a = resolve_identity(tmp_path / "clone-a")

    assert clone_a.derivation == "remote:origin"
    assert clone_a.slug == "local-only"
    assert clone_a.key != resolve_identity(local).key
    assert resolve_identity(tmp_path / "clone-b").key == clone_a.key


def test_merged_histories_are_keyed_by_all_their_root_commits(tmp_path: Path) -> None:
    local = make_repo(tmp_path / "two-roots")
    git(local, "checkout", "-q", "--orphan", "other")
    commit(local, "other.txt")
    git(local, "checkout", "-q", "main")
    git(local, "merge", "-q", "--allow-unrelated-histories", "-m", "merge", "other")
    roots = sorted(git(local, "rev-list", "--max-parents=0", "HEAD").split())

    location = find_repository(local)
    assert location is not None

    fingerprint = fingerprint_repository(location)

    assert list(fingerprint.root_commits) == roots
    assert len(roots) == 2


def test_a_subdirectory_and_a_file_resolve_to_the_same_key(repo: Path) -> None:
    (repo / "src" / "pkg").mkdir(parents=True)
    source = repo / "src" / "pkg" / "module.py"
    source.write_text("")
    key = resolve_identity(repo, persist=False).key

    assert resolve_identity(repo / "src" / "pkg", persist=False).key == key
    assert resolve_identity(source, persist=False).key == key
    assert resolve_identity(source).location.worktree_root == repo.resolve()


def test_adding_a_remote_after_persisting_keeps_the_key(tmp_path: Path) -> None:
    local = make_repo(tmp_path / "local")
    before = resolve_identity(local)

    git(local, "remote", "add", "origin", "https://example.com/acme/local.git")
    after = resolve_identity(local)

    assert after.key == before.key
    assert after.derivation == "root-commits"
    assert after.persisted


def test_origin_is_preferred_then_the_alphabetically_first_remote(tmp_path: Path) -> None:
    local = make_repo(tmp_path / "local")
    git(local, "remote", "add", "zeta", "https://example.com/z/zeta.git")
    git(local, "remote", "add", "beta", "https://example.com/b/beta.git")
    assert resolve_identity(local, persist=False).derivation == "remote:beta"

    git(local, "remote", "add", "origin", "https://example.com/o/origin.git")
    assert resolve_identity(local, persist=False).derivation == "remote:origin"


def test_a_relative_remote_path_resolves_from_the_main_worktree(tmp_path: Path) -> None:
    make_repo(tmp_path / "upstream")
    main = make_repo(tmp_path / "main", remote="../upstream")
    git(main, "worktree", "add", "-q", str(tmp_path / "nested" / "linked"))

    from_main = resolve_identity(main, persist=False)
    from_linked = resolve_identity(tmp_path / "nested" / "linked", persist=False)

    assert from_main.fingerprint is not None
    assert from_main.fingerprint.remotes == {"origin": str((tmp_path / "upstream").resolve())}
    assert from_linked.key == from_main.key


def test_find_known_is_honored_and_persisted(repo: Path) -> None:
    seen: list[ProjectFingerprint] = []

    def find_known(fingerprint: ProjectFingerprint) -> str | None:
        seen.append(fingerprint)
        return "acme-app-0123abcd"

    identity = resolve_identity(repo, find_known=find_known)

    assert identity.key == "acme-app-0123abcd"
    assert identity.derivation == "matched-known-project"
    assert seen[0].remotes == {"origin": "example.com/acme/app"}
    assert resolve_identity(repo).derivation == "matched-known-project"
    assert config_get(repo / ".git" / "config", "comet.projectKey") == "acme-app-0123abcd"


def test_find_known_returning_none_falls_through(repo: Path) -> None:
    identity = resolve_identity(repo, find_known=lambda fingerprint: None)
    assert identity.derivation == "remote:origin"


def test_a_corrupt_persisted_key_is_refused(repo: Path) -> None:
    git(repo, "config", "comet.projectKey", "../../etc")
    with pytest.raises(InvalidInputError):
        resolve_identity(repo)


def test_to_json_uses_camel_case_and_serializes(repo: Path) -> None:
    document = resolve_identity(repo).to_json()

    assert set(document) == {
        "key",
        "slug",
        "derivation",
        "persisted",
        "worktreeRoot",
        "gitDir",
        "commonDir",
        "remotes",
        "rootCommits",
        "worktrees",
    }
    assert json.loads(json.dumps(document)) == document
    assert document["worktrees"] == [str(repo.resolve())]
    assert resolve_identity(repo).to_json()["rootCommits"] is None


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Acme App", "acme-app"),
        ("--my__repo..v2--", "my-repo-v2"),
        ("Café Crème", "cafe-creme"),
        ("日本", "repo"),
        ("", "repo"),
        ("a" * 39 + "-bcd", "a" * 39),
    ],
)
def test_make_slug(text: str, slug: str) -> None:
    assert make_slug(text) == slug


# --- adopt -------------------------------------------------------------------


def test_adopt_persists_a_valid_key(repo: Path) -> None:
    resolve_identity(repo)

    adopted = adopt(repo / ".", "acme-app-3f9c2a1b")

    assert adopted.key == "acme-app-3f9c2a1b"
    assert adopted.slug == "acme-app"
    assert adopted.derivation == "adopted"
    again = resolve_identity(repo)
    assert (again.key, again.derivation, again.persisted) == ("acme-app-3f9c2a1b", "adopted", True)


@pytest.mark.parametrize(
    "bad_key",
    [
        "",
        "acme-app",
        "Acme-App-3f9c2a1b",
        "acme-app-3F9C2A1B",
        "-app-3f9c2a1b",
        "acme_app-3f9c2a1b",
        "acme-app-3f9c2a1b\n",
        "../../x-3f9c2a1b",
        "acme-app-3f9c2a1",
    ],
)
def test_adopt_refuses_an_invalid_key_and_changes_nothing(repo: Path, bad_key: str) -> None:
    resolve_identity(repo)
    config = repo / ".git" / "config"
    before = config.read_bytes()

    with pytest.raises(InvalidInputError) as raised:
        adopt(repo, bad_key)

    assert raised.value.hint and "3f9c2a1b" in raised.value.hint
    assert config.read_bytes() == before


def test_adopt_outside_a_repository(tmp_path: Path) -> None:
    with pytest.raises(NotARepositoryError):
        adopt(tmp_path, "acme-app-3f9c2a1b")


# --- reading the config ------------------------------------------------------


def location_with_config(tmp_path: Path, text: str) -> RepoLocation:
    (tmp_path / "config").write_text(text)
    return RepoLocation(tmp_path, tmp_path, tmp_path)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[comet]\n\tprojectKey = acme-app-3f9c2a1b\n", "acme-app-3f9c2a1b"),
        ('[COMET]\n  ProjectKEY="acme-app-3f9c2a1b" ; why\n', "acme-app-3f9c2a1b"),
        ("[comet]\nprojectkey = a-3f9c2a1b # note\n", "a-3f9c2a1b"),
        ('[comet]\nprojectKey = "a # b ; c"\n', "a # b ; c"),
        ('[comet]\nprojectKey = "say \\"hi\\"" \\\\ x\n', 'say "hi" \\ x'),
        ("[comet]\nprojectKey = first-3f9c2a1b\nprojectKey = last-3f9c2a1b\n", "last-3f9c2a1b"),
        ("[comet]\nprojectKey = con\\\ntinued\n", "continued"),
        ("[comet] projectKey = inline-3f9c2a1b\n", "inline-3f9c2a1b"),
        ('[comet "sub"]\nprojectKey = nope-3f9c2a1b\n', None),
        ("[comet.sub]\nprojectKey = nope-3f9c2a1b\n", None),
        ("# [comet]\n# projectKey = nope-3f9c2a1b\n", None),
        ("[core]\nprojectKey = nope-3f9c2a1b\n[comet]\nother = x\n", None),
        ("", None),
    ],
)
def test_read_persisted_key_parses_git_config(tmp_path: Path, text: str, expected: str | None) -> None:
    location = location_with_config(tmp_path, text)
    assert read_persisted_key(location) == expected
    assert config_get(tmp_path / "config", "comet.projectKey") == expected


def test_an_implicit_boolean_is_not_a_key(tmp_path: Path) -> None:
    location = location_with_config(tmp_path, "[comet]\n\tprojectKey\n")
    assert read_persisted_key(location) is None


def test_read_persisted_key_without_a_config_file(tmp_path: Path) -> None:
    assert read_persisted_key(RepoLocation(tmp_path, tmp_path, tmp_path)) is None


config_values = st.text(
    alphabet=st.sampled_from(list('ab-19 \t\r\x0c"\\#;=[]\n')) | st.characters(codec="utf-8"),
    max_size=30,
).filter(lambda value: "\x00" not in value)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=config_values)
def test_read_persisted_key_reads_what_git_wrote(value: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "config"
        config.write_text("[core]\n\tbare = false\n")
        git(Path(scratch), "config", "--file", str(config), "comet.projectKey", value)
        location = RepoLocation(Path(scratch), Path(scratch), Path(scratch))
        assert read_persisted_key(location) == config_get(config, "comet.projectKey") == value


# --- normalizing remote URLs -------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://github.com/acme/app", "github.com/acme/app"),
        ("https://github.com/acme/app.git", "github.com/acme/app"),
        ("https://github.com/acme/app/", "github.com/acme/app"),
        ("https://github.com/acme/app.git/", "github.com/acme/app"),
        ("git@github.com:acme/app.git", "github.com/acme/app"),
        ("github.com:acme/app", "github.com/acme/app"),
        ("ssh://git@github.com/acme/app.git", "github.com/acme/app"),
        ("ssh://git@github.com:22/acme/app.git", "github.com/acme/app"),
        ("git+ssh://git@github.com/acme/app", "github.com/acme/app"),
        ("git://github.com:9418/acme/app.git", "github.com/acme/app"),
        ("HTTPS://GitHub.COM/Acme/App", "github.com/Acme/App"),
        ("https://user:s3cr3t-token@github.com/acme/app", "github.com/acme/app"),
        ("https://oauth2@gitlab.example.com:443/group/app.git", "gitlab.example.com/group/app"),
        ("http://example.com:80/app", "example.com/app"),
        ("https://example.com:8443/acme/app.git", "example.com:8443/acme/app"),
        ("ssh://git@example.com:2222/acme/app.git", "example.com:2222/acme/app"),
        ("https://example.com:80/app", "example.com:80/app"),
        ("https://example.com:0443/app", "example.com/app"),
        ("https://example.com:²/app", "example.com:²/app"),
        ("ssh://[::1]:2222/acme/app", "[::1]:2222/acme/app"),
        ("  https://github.com//acme//app.git  ", "github.com/acme/app"),
        ("file:///srv/git/app.git", "/srv/git/app"),
        ("file://localhost/srv/git/app.git", "/srv/git/app"),
        ("/srv/git/app.git", "/srv/git/app"),
        ("/srv/git/app.git/", "/srv/git/app"),
        ("/srv/git/work/.git", "/srv/git/work"),
        ("file:///srv/git/my%20app", "/srv/git/my app"),
    ],
)
def test_normalize_remote_url(url: str, expected: str) -> None:
    assert normalize_remote_url(url) == expected


def test_normalize_relative_paths_against_a_base(tmp_path: Path) -> None:
    base = tmp_path / "work" / "main"
    expected = str((tmp_path / "work" / "upstream").resolve())
    assert normalize_remote_url("../upstream.git", base=base) == expected
    assert normalize_remote_url(f"file://{expected}.git") == expected


def test_normalize_follows_symlinks_for_local_paths(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert normalize_remote_url(str(tmp_path / "link")) == str((tmp_path / "real").resolve())


def test_normalize_rejects_an_empty_url() -> None:
    with pytest.raises(InvalidInputError):
        normalize_remote_url("  ")


hosts = st.lists(
    st.from_regex(r"[a-z0-9]([a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True), min_size=1, max_size=3
).map(".".join)
segments = st.lists(
    st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,10}", fullmatch=True), min_size=1, max_size=4
)


@given(host=hosts, path=segments, suffix=st.sampled_from(["", ".git", "/", ".git/", "//"]))
def test_equivalent_spellings_of_a_remote_normalize_equal(host: str, path: list[str], suffix: str) -> None:
    joined = "/".join(path)
    canonical = normalize_remote_url(f"https://{host}/{joined}")
    spellings = [
        f"https://{host}/{joined}{suffix}",
        f"https://{host.upper()}/{joined}{suffix}",
        f"https://someone:token@{host}:443/{joined}{suffix}",
        f"http://{host}:80/{joined}{suffix}",
        f"ssh://git@{host}:22/{joined}{suffix}",
        f"ssh://{host.upper()}/{joined}{suffix}",
        f"git://{host}/{joined}{suffix}",
        f"git@{host}:{joined}{suffix}",
        f"{host}:{joined}{suffix}",
    ]
    for spelling in spellings:
        assert normalize_remote_url(spelling) == canonical, spelling


def test_head_is_read_from_the_files_as_git_reads_it(repo: Path) -> None:
    """HEAD from a loose ref, from packed-refs, detached, and in a linked worktree; None where
    the files do not say it plainly (an unborn branch), for the caller to ask git."""
    from comet_git.identity import find_repository, read_head

    def head_of(path: Path) -> str | None:
        location = find_repository(path)
        assert location is not None
        return read_head(location)

    assert head_of(repo) == git(repo, "rev-parse", "HEAD").strip()
    git(repo, "pack-refs", "--all")
    assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    assert head_of(repo) == git(repo, "rev-parse", "HEAD").strip()
    commit(repo, "second.txt", "two\n")
    second = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "--detach", "HEAD~1")
    assert head_of(repo) == git(repo, "rev-parse", "HEAD").strip() != second
    git(repo, "checkout", "-q", "main")
    git(repo, "worktree", "add", "-q", "-b", "side", str(repo.parent / "side"))
    assert head_of(repo.parent / "side") == second
    git(repo, "checkout", "-q", "--orphan", "fresh")
    assert head_of(repo) is None


def test_a_repository_in_a_folder_whose_name_is_not_utf8_works(tmp_path: Path) -> None:
    # The lock that guards deriving the key is named after the repository's path: its bytes,
    # which UTF-8 cannot encode here (the name came from the file system as surrogate escapes).
    repo = make_repo(tmp_path / os.fsdecode(b"we\xffird"), remote="https://example.invalid/a/weird.git")
    remembered = run_comet("memory", "remember", "--text", "Run make lint first.", "--json", cwd=repo)
    assert remembered.exit_code == 0, remembered.stderr
    task = run_comet("task", "--task", "lint the code", "--json", cwd=repo)
    assert task.exit_code == 0, task.stderr
    assert [item["id"] for item in task.json()["context"]] == [remembered.json()["record"]["id"]]
