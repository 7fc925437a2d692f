"""Stable repository identity: which project a path belongs to.

A project key is a readable slug plus eight hex digits (``acme-app-3f9c2a1b``).
It is derived once, from the origin remote, the root commits or, for a brand
new repository, at random, and then persisted as ``comet.projectKey`` in the
repository's *common* config, so every linked worktree, a moved directory and
a later ``git remote add`` all keep seeing the same key.

Locating the repository and reading a persisted key run on every command, from
git hooks too, so they use the standard library only; pygit2 is imported only
when a key has to be derived.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from comet_git.errors import CometError, InvalidInputError, NotARepositoryError

if TYPE_CHECKING:
    import pygit2

KEY_PATTERN: re.Pattern[str] = re.compile(r"\A[a-z0-9][a-z0-9-]{0,62}-[0-9a-f]{8}\Z")

KEY_CONFIG_NAME = "comet.projectKey"
DERIVATION_CONFIG_NAME = "comet.projectKeyDerivation"

_SLUG_MAX = 40
_HASH_LENGTH = 8


class RepoLocation(NamedTuple):
    worktree_root: Path
    git_dir: Path
    common_dir: Path


class ProjectFingerprint(NamedTuple):
    remotes: dict[str, str]
    root_commits: tuple[str, ...]
    worktrees: tuple[str, ...]


class ProjectIdentity(NamedTuple):
    key: str
    slug: str
    derivation: str
    persisted: bool
    location: RepoLocation
    fingerprint: ProjectFingerprint | None

    def to_json(self) -> dict[str, object]:
        fingerprint = self.fingerprint
        return {
            "key": self.key,
            "slug": self.slug,
            "derivation": self.derivation,
            "persisted": self.persisted,
            "worktreeRoot": str(self.location.worktree_root),
            "gitDir": str(self.location.git_dir),
            "commonDir": str(self.location.common_dir),
            "remotes": dict(fingerprint.remotes) if fingerprint else None,
            "rootCommits": list(fingerprint.root_commits) if fingerprint else None,
            "worktrees": list(fingerprint.worktrees) if fingerprint else None,
        }


# --- locating the repository (stdlib only) ---------------------------------


def find_repository(path: Path) -> RepoLocation | None:
    """The repository containing ``path``, or None outside any work tree.

    Bare repositories have no work tree and so no project: None as well.
    """
    start = Path(path).resolve()
    for directory in (start, *start.parents):
        dot_git = directory / ".git"
        if dot_git.is_file():
            # A broken gitfile stops the search, as it stops git: looking further
            # up would attribute the directory to an unrelated enclosing repository.
            return _location_from_gitfile(directory, dot_git)
        if (dot_git / "HEAD").is_file():
            return _location(directory, dot_git)
    return None


def _location_from_gitfile(worktree_root: Path, gitfile: Path) -> RepoLocation | None:
    try:
        content = gitfile.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    if not content.startswith("gitdir:"):
        return None
    git_dir = worktree_root / content[len("gitdir:") :].strip()
    if not (git_dir / "HEAD").is_file():
        return None
    return _location(worktree_root, git_dir)


def _location(worktree_root: Path, git_dir: Path) -> RepoLocation:
    git_dir = git_dir.resolve()
    common_dir = git_dir
    try:
        pointer = (git_dir / "commondir").read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        pointer = ""
    if pointer:
        common_dir = (git_dir / pointer).resolve()
    return RepoLocation(worktree_root=worktree_root, git_dir=git_dir, common_dir=common_dir)


_SHA = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


def read_head(location: RepoLocation) -> str | None:
    """The commit HEAD names, read from the files: a loose ref or packed-refs, one step of
    `ref:` at most.  None when the files do not say it plainly (an unborn branch, a ref of
    another kind): the caller asks git then."""
    try:
        head = (location.git_dir / "HEAD").read_text(encoding="utf-8").strip()
        if not head.startswith("ref:"):
            return head if _SHA.fullmatch(head) else None
        ref = head[len("ref:") :].strip()
        if not ref.startswith("refs/heads/"):
            return None
        loose = location.common_dir / ref
        if loose.is_file():
            sha = loose.read_text(encoding="utf-8").strip()
            return sha if _SHA.fullmatch(sha) else None
        packed = (location.common_dir / "packed-refs").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    for line in packed.splitlines():
        sha, _, name = line.partition(" ")
        if name == ref and _SHA.fullmatch(sha):
            return sha
    return None


# --- reading the common config (stdlib only) ---------------------------------


def read_persisted_key(location: RepoLocation) -> str | None:
    """The value of ``comet.projectKey`` in the common config, unvalidated."""
    return _read_common_config(location, KEY_CONFIG_NAME)


def _read_common_config(location: RepoLocation, name: str) -> str | None:
    try:
        # Bytes, not read_text(): newline translation would turn a quoted "\r" into "\n".
        text = (location.common_dir / "config").read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return None
    wanted = name.lower()
    key_name = wanted.rpartition(".")[2]
    if key_name not in text.lower():
        return None  # the common case before a key exists: skip parsing entirely
    value = None
    for found_name, found_value in _ConfigScanner(text).entries():
        if found_name == wanted:
            value = found_value  # like `git config --get`, the last one wins
    return value


# git's own isspace(): narrower than str.isspace(), and values depend on it.
_CONFIG_SPACE = frozenset(" \t\r\n")
_CONFIG_ESCAPES = {"n": "\n", "t": "\t", "b": "\b", '"': '"', "\\": "\\"}
_SECTION_HEADER = re.compile(r'\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]')
_UNESCAPE_SUBSECTION = re.compile(r"\\(.)")
_KEY_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")


class _ConfigScanner:
    """Just enough of git's config syntax to find one value reliably.

    Names come out canonical: section and key lowercased, subsection as written
    (``section.sub.key``).  Entries without ``=`` (implicit booleans) are skipped.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.section: str | None = None

    def entries(self) -> Iterator[tuple[str, str]]:
        while self.pos < len(self.text):
            entry = self._next_entry()
            if entry is not None:
                yield entry

    def _next_entry(self) -> tuple[str, str] | None:
        self._skip_blanks()
        char = self.text[self.pos : self.pos + 1]
        if char in ("#", ";"):
            self._skip_line()
        elif char == "[":
            self._read_section_header()
        elif char and (match := _KEY_NAME.match(self.text, self.pos)):
            self.pos = match.end()
            return self._read_entry(match.group().lower())
        elif char:
            self._skip_line()  # not valid config; git would refuse the file
        return None

    def _skip_blanks(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _CONFIG_SPACE:
            self.pos += 1

    def _skip_line(self) -> None:
        end = self.text.find("\n", self.pos)
        self.pos = len(self.text) if end < 0 else end + 1

    def _read_section_header(self) -> None:
        match = _SECTION_HEADER.match(self.text, self.pos)
        if match is None:
            self.section = None
            self._skip_line()
            return
        self.pos = match.end()  # git allows `key = value` on the header line
        name, subsection = match.group(1), match.group(2)
        if subsection is None:
            # The legacy `[section.sub]` form is case-insensitive throughout.
            self.section = name.lower()
        else:
            self.section = name.lower() + "." + _UNESCAPE_SUBSECTION.sub(r"\1", subsection)

    def _read_entry(self, key: str) -> tuple[str, str] | None:
        while self.text[self.pos : self.pos + 1] in (" ", "\t"):
            self.pos += 1
        if self.text[self.pos : self.pos + 1] != "=":
            self._skip_line()
            return None
        self.pos += 1
        value = self._read_value()
        if self.section is None:
            return None
        return f"{self.section}.{key}", value

    def _read_value(self) -> str:
        chars: list[str] = []
        pending_spaces = 0  # whitespace outside quotes counts only between words
        quoted = False
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if char == "\n":
                break
            if not quoted and char in ("#", ";"):
                self._skip_line()
                break
            if not quoted and char in _CONFIG_SPACE:
                pending_spaces += 1 if chars else 0
                continue
            chars.append(" " * pending_spaces)
            pending_spaces = 0
            if char == "\\":
                chars.append(self._read_escape())
            elif char == '"':
                quoted = not quoted
            else:
                chars.append(char)
        return "".join(chars)

    def _read_escape(self) -> str:
        char = self.text[self.pos : self.pos + 1]
        self.pos += 1
        if char == "\n":
            return ""  # a line continuation
        if char == "\r" and self.text[self.pos : self.pos + 1] == "\n":
            self.pos += 1
            return ""
        return _CONFIG_ESCAPES.get(char, char)


# --- remote URLs -------------------------------------------------------------

# As text, compiled by re on first use: only deriving a key needs them.
_URL_SCHEME = r"\A([A-Za-z][A-Za-z0-9+.-]*)://"
_WINDOWS_DRIVE = r"\A[A-Za-z]:[\\/]"
_DEFAULT_PORTS = {
    "ssh": "22",
    "git+ssh": "22",
    "ssh+git": "22",
    "git": "9418",
    "http": "80",
    "https": "443",
    "ftp": "21",
    "ftps": "990",
}


def normalize_remote_url(url: str, *, base: Path | None = None) -> str:
    """A canonical form of a remote URL, so that equivalent remotes hash equal.

    Network remotes become ``host[:port]/path`` whatever the transport, so
    ``https://github.com/acme/app`` and ``git@github.com:acme/app.git`` agree.
    Local remotes become an absolute resolved path; ``base`` is the directory
    a relative path is taken from (the current directory if not given).
    """
    url = url.strip()
    if not url:
        raise InvalidInputError("empty remote URL", hint="give a URL such as https://host/owner/repo")
    scheme_match = re.match(_URL_SCHEME, url)
    if scheme_match:
        scheme = scheme_match.group(1).lower()
        rest = url[scheme_match.end() :]
        if scheme == "file":
            from urllib.parse import unquote

            return _normalize_local_path(unquote(_strip_file_authority(rest)), base)
        return _normalize_network_url(scheme, rest)
    if _is_scp_like(url):
        host, _, path = url.partition(":")
        return _join_host_path(host.rpartition("@")[2].lower(), "", path)
    return _normalize_local_path(url, base)


def _is_scp_like(url: str) -> bool:
    # git's own rule: a colon before any slash, and not a Windows drive letter.
    colon = url.find(":")
    slash = url.find("/")
    return colon > 0 and (slash < 0 or colon < slash) and not re.match(_WINDOWS_DRIVE, url)


def _strip_file_authority(rest: str) -> str:
    authority, slash, path = rest.partition("/")
    if authority.lower() in ("", "localhost"):
        return slash + path
    return "//" + rest  # a UNC-style host: keep it as part of the path


def _normalize_network_url(scheme: str, rest: str) -> str:
    authority, _, path = rest.partition("/")
    host, port = _split_host_port(authority.rpartition("@")[2])
    if port == _DEFAULT_PORTS.get(scheme):
        port = ""
    return _join_host_path(host, port, path)


def _split_host_port(host_port: str) -> tuple[str, str]:
    if host_port.startswith("[") and "]" in host_port:
        end = host_port.index("]") + 1
        host, port = host_port[:end], host_port[end:].removeprefix(":")
    else:
        host, _, port = host_port.partition(":")
    if port.isascii() and port.isdigit():
        port = str(int(port))
    return host.lower(), port


def _join_host_path(host: str, port: str, path: str) -> str:
    authority = f"{host}:{port}" if port else host
    path = _strip_repository_suffix(re.sub(r"/{2,}", "/", path).lstrip("/"))
    return f"{authority}/{path}" if path else authority


def _strip_repository_suffix(path: str) -> str:
    while path.endswith(("/", ".git")):
        path = path.removesuffix("/").removesuffix(".git")
    return path


def _normalize_local_path(path: str, base: Path | None) -> str:
    resolved = (Path(base or Path.cwd()) / path).resolve()
    stripped = _strip_repository_suffix(resolved.as_posix())
    return stripped or "/"


# --- fingerprint (pygit2) ----------------------------------------------------


def fingerprint_repository(location: RepoLocation) -> ProjectFingerprint:
    """Remotes, root commits and worktrees of the repository.

    Everything is read through the common dir, HEAD included (the main
    worktree's HEAD), so every worktree computes the same fingerprint.
    """
    import pygit2

    repo = pygit2.Repository(str(location.common_dir))
    base = _main_worktree(location)
    remotes = {
        remote.name: normalize_remote_url(remote.url, base=base)
        for remote in repo.remotes
        if remote.name and remote.url
    }
    return ProjectFingerprint(
        remotes=dict(sorted(remotes.items())),
        root_commits=_root_commits(repo),
        worktrees=_worktrees(repo),
    )


def _root_commits(repo: pygit2.Repository) -> tuple[str, ...]:
    if repo.head_is_unborn:
        return ()
    roots = {str(commit.id) for commit in repo.walk(repo.head.target) if not commit.parent_ids}
    return tuple(sorted(roots))


def _worktrees(repo: pygit2.Repository) -> tuple[str, ...]:
    linked = sorted(str(Path(repo.lookup_worktree(name).path).resolve()) for name in repo.list_worktrees())
    main = [] if repo.is_bare or not repo.workdir else [str(Path(repo.workdir).resolve())]
    return (*main, *linked)


def _main_worktree(location: RepoLocation) -> Path:
    # Relative remote paths are relative to the main work tree (git resolves
    # them from the top of the work tree it runs in), whichever worktree asks.
    common = location.common_dir
    return common.parent if common.name == ".git" else common


def project_dir_name(location: RepoLocation) -> str:
    common = location.common_dir
    if common.name == ".git":
        return common.parent.name
    return common.name.removesuffix(".git")


# --- deriving and persisting the key -----------------------------------------


def make_slug(text: str) -> str:
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9-]+", "-", ascii_text.lower())
    slug = re.sub(r"-{2,}", "-", slug).strip("-")
    return slug[:_SLUG_MAX].rstrip("-") or "repo"


def _make_key(slug_source: str, hashed: str) -> str:
    import hashlib  # only when a key is derived, never on the fast path

    digest = hashlib.sha256(hashed.encode("utf-8")).hexdigest()[:_HASH_LENGTH]
    return f"{make_slug(slug_source)}-{digest}"


def _slug_of_key(key: str) -> str:
    return key.rpartition("-")[0]


def _chosen_remote(remotes: dict[str, str]) -> str:
    return "origin" if "origin" in remotes else min(remotes)


def _derive_key(location: RepoLocation, fingerprint: ProjectFingerprint) -> tuple[str, str]:
    """A fresh ``(key, derivation)`` for a repository without a persisted key."""
    if fingerprint.remotes:
        name = _chosen_remote(fingerprint.remotes)
        url = fingerprint.remotes[name]
        return _make_key(url.rpartition("/")[2], url), f"remote:{name}"
    if fingerprint.root_commits:
        roots = "\n".join(fingerprint.root_commits)
        return _make_key(project_dir_name(location), roots), "root-commits"
    # Random, and stable only because it is persisted right away.
    import uuid

    return _make_key(project_dir_name(location), uuid.uuid4().hex), "new-repository"


def check_key(key: str, origin: str) -> str:
    if not KEY_PATTERN.match(key):
        raise InvalidInputError(
            f"invalid project key {key!r} ({origin})",
            hint="a key is a lowercase slug, a dash and 8 hex digits, e.g. acme-app-3f9c2a1b",
        )
    return key


def _not_a_repository(path: Path) -> NotARepositoryError:
    return NotARepositoryError(
        f"not inside a git work tree: {path}",
        hint="run this from inside a git repository (or `git init` one first)",
    )


def _persist(location: RepoLocation, key: str, derivation: str) -> None:
    # The derivation goes first: a key without its derivation still reads
    # fine, while a derivation alone is ignored.
    config = location.common_dir / "config"
    _git_config_set(config, DERIVATION_CONFIG_NAME, derivation)
    _git_config_set(config, KEY_CONFIG_NAME, key)


def _git_config_set(config: Path, name: str, value: str) -> None:
    # `git config --file` takes git's own config.lock, so a concurrent git
    # command never sees a half-written config.
    import subprocess

    try:
        subprocess.run(
            ["git", "config", "--file", str(config), name, value],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", None) or str(error)
        raise CometError(
            f"could not write {name} to {config}: {detail.strip()}",
            hint=f"check that git is installed and that {config} is writable",
        ) from error


def _persisted_identity(location: RepoLocation, key: str, *, with_fingerprint: bool) -> ProjectIdentity:
    check_key(key, f"{KEY_CONFIG_NAME} in {location.common_dir / 'config'}")
    derivation = _read_common_config(location, DERIVATION_CONFIG_NAME) or "persisted"
    return ProjectIdentity(
        key=key,
        slug=_slug_of_key(key),
        derivation=derivation,
        persisted=True,
        location=location,
        fingerprint=fingerprint_repository(location) if with_fingerprint else None,
    )


def resolve_identity(
    path: Path,
    *,
    find_known: Callable[[ProjectFingerprint], str | None] | None = None,
    persist: bool = True,
    with_fingerprint: bool = False,
) -> ProjectIdentity:
    """The identity of the project containing ``path``, deriving and persisting it once.

    ``find_known`` lets the store claim a repository it already knows under
    another key (a re-clone, a copy).  ``with_fingerprint`` computes the
    fingerprint even when the key is already persisted.
    """
    location = find_repository(path)
    if location is None:
        raise _not_a_repository(path)
    persisted_key = read_persisted_key(location)
    if persisted_key is not None:
        return _persisted_identity(location, persisted_key, with_fingerprint=with_fingerprint)
    fingerprint = fingerprint_repository(location)
    key, derivation = _derive(location, fingerprint, find_known)
    if persist:
        # Another process may have won the race while we derived; its key stands.
        raced_key = read_persisted_key(location)
        if raced_key is not None:
            return _persisted_identity(location, raced_key, with_fingerprint=with_fingerprint)
        _persist(location, key, derivation)
    return ProjectIdentity(
        key=key,
        slug=_slug_of_key(key),
        derivation=derivation,
        persisted=persist,
        location=location,
        fingerprint=fingerprint,
    )


def _derive(
    location: RepoLocation,
    fingerprint: ProjectFingerprint,
    find_known: Callable[[ProjectFingerprint], str | None] | None,
) -> tuple[str, str]:
    known = find_known(fingerprint) if find_known is not None else None
    if known is not None:
        return check_key(known, "from the store"), "matched-known-project"
    return _derive_key(location, fingerprint)


def adopt(path: Path, key: str) -> ProjectIdentity:
    """Relink the repository containing ``path`` to an existing project key."""
    check_key(key, "given to adopt")
    location = find_repository(path)
    if location is None:
        raise _not_a_repository(path)
    _persist(location, key, "adopted")
    return ProjectIdentity(
        key=key,
        slug=_slug_of_key(key),
        derivation="adopted",
        persisted=True,
        location=location,
        fingerprint=None,
    )
