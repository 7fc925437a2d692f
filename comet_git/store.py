"""Where data lives (README: Where your memory lives) and how it is written: atomically, under a lock,
owner-only, and never over a file somebody else changed since we read it."""

from __future__ import annotations

import _thread
import contextlib
import errno
import fcntl
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from comet_git.errors import ConcurrentEditError, StoreError

DIR_MODE = 0o700
FILE_MODE = 0o600
LOCK_TIMEOUT_SECONDS = 15.0


def default_home() -> Path:
    """The platform user-data directory for `comet`, as platformdirs defines it.

    Computed with the standard library on Linux and macOS, because the git-hook
    worker may import nothing else; other platforms ask platformdirs.
    """
    if sys.platform.startswith("linux") or sys.platform.startswith(("freebsd", "openbsd", "netbsd")):
        base = os.environ.get("XDG_DATA_HOME", "").strip()
        return Path(base if base else os.path.expanduser("~/.local/share")) / "comet"
    if sys.platform == "darwin":
        return Path(os.path.expanduser("~/Library/Application Support")) / "comet"
    import platformdirs

    return Path(platformdirs.user_data_dir("comet", appauthor=False))


def comet_home() -> Path:
    configured = os.environ.get("COMET_HOME")
    return Path(configured).expanduser() if configured else default_home()


def ensure_dir(path: Path) -> Path:
    """Create `path` (and parents) owner-only, or explain why we cannot."""
    if path.is_dir():
        return path
    missing = [path]
    while not missing[-1].parent.exists() and missing[-1].parent != missing[-1]:
        missing.append(missing[-1].parent)
    try:
        # Every directory we create is owner-only, not just the last one.
        for directory in reversed(missing):
            directory.mkdir(mode=DIR_MODE, exist_ok=True)
            directory.chmod(DIR_MODE)
    except OSError as error:
        raise StoreError(
            f"cannot create {path}: {error.strerror or error}",
            hint="make COMET_HOME a writable directory, or point COMET_HOME elsewhere",
        ) from error
    return path


NO_SPACE_ERRNOS = (errno.ENOSPC, errno.EDQUOT)


def write_failure(path: Path, error: OSError) -> StoreError:
    """The StoreError for a write that failed: it names the real cause (a full disk above all)."""
    if error.errno in NO_SPACE_ERRNOS:
        return StoreError(
            f"cannot write {path}: no space left on device",
            hint="free some disk space, then run the command again (nothing was changed)",
        )
    return StoreError(
        f"cannot write {path}: {error.strerror or error}",
        hint="make COMET_HOME a writable directory, then run the command again (nothing was changed)",
    )


def write_all(fd: int, data: bytes) -> None:
    """os.write until every byte is written: a full disk answers with a short write first."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[written:]


class FileState(NamedTuple):
    """What a file looked like when we read it: the basis of compare-before-replace."""

    mtime_ns: int
    size: int
    sha256: str

    @classmethod
    def of_bytes(cls, data: bytes, stat: os.stat_result) -> FileState:
        return cls(stat.st_mtime_ns, stat.st_size, sha256_bytes(data))


def sha256_bytes(data: bytes) -> str:
    import hashlib  # not needed by a command that finds nothing changed

    return hashlib.sha256(data).hexdigest()


def read_with_state(path: Path) -> tuple[bytes, FileState]:
    with path.open("rb") as handle:
        stat = os.fstat(handle.fileno())
        data = handle.read()
    return data, FileState.of_bytes(data, stat)


def current_state(path: Path) -> FileState | None:
    try:
        return read_with_state(path)[1]
    except FileNotFoundError:
        return None


class Absent:
    """The expectation that a file does not exist yet."""


ABSENT = Absent()
Expectation = FileState | Absent | None  # None: write whatever is there


def check_unchanged(path: Path, expected: FileState | Absent) -> None:
    """Refuse to go on when `path` is no longer what we read (e.g. an editor saved it)."""
    actual = current_state(path)
    if isinstance(expected, Absent) and actual is None:
        return
    if isinstance(expected, FileState) and actual is not None and actual.sha256 == expected.sha256:
        return
    raise ConcurrentEditError(
        f"{path} changed on disk while comet was working; nothing was written",
        hint="run the command again; your saved version is kept as it is",
    )


def atomic_write(
    path: Path, data: bytes | str, *, expected: Expectation = None, mode: int = FILE_MODE
) -> FileState:
    """Write `data` to `path` through a temp file, fsync and os.replace.

    With `expected` (the FileState the caller read, or ABSENT for "must not
    exist yet") the write fails, changing nothing, when the file on disk is no
    longer what the caller read.  `mode` is for files that are not ours (an agent's settings
    keep the permissions their owner gave them).  Returns the state of what was written.
    A failed write (a full disk) is a StoreError that says so; the file is as it was.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    _replace(path, payload, expected, mode, durable=True)
    return FileState.of_bytes(payload, os.stat(path))


def replace_state_file(path: Path, data: str) -> None:
    """atomic_write for machine state that a crash of the machine may lose (what a session was
    given): whole or as it was, but neither fsynced nor hashed, for the agent's hot path."""
    _replace(path, data.encode("utf-8"), None, FILE_MODE, durable=False)


def _replace(path: Path, payload: bytes, expected: Expectation, mode: int, *, durable: bool) -> None:
    undo = _current_undo()
    if undo is not None:
        undo.save(path)
    ensure_dir(path.parent)
    temp_name = str(path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(temp_name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        try:
            write_all(fd, payload)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp_name, mode)
        if expected is not None:
            check_unchanged(path, expected)
        os.replace(temp_name, path)
    except BaseException as error:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp_name)
        if isinstance(error, OSError):
            raise write_failure(path, error) from error
        raise
    if durable:
        fsync_dir(path.parent)


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_file(path: Path, *, expected: FileState | bool | None = False) -> None:
    if expected is not False:
        check_unchanged(path, expected)  # type: ignore[arg-type]
    undo = _current_undo()
    if undo is not None:
        undo.save(path)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


UNDO_SUFFIX = ".undo"
# What atomic_write and WriteUndo leave behind when a command is killed mid-write.
TEMPORARY_NAME = r"^\..+\.[0-9a-f]{12}\.(?:tmp|undo)$"


def remove_temporaries(root: Path) -> int:
    """Remove the temporaries of killed commands under `root`; returns how many.  The caller
    holds the locks under which they are written (a store's, its journal's)."""
    import re
    import shutil

    temporary = re.compile(TEMPORARY_NAME)
    removed = 0
    for directory, folders, names in os.walk(root):
        for name in [folder for folder in folders if temporary.match(folder)]:
            shutil.rmtree(os.path.join(directory, name), ignore_errors=True)  # a folder kept aside
            folders.remove(name)
            removed += 1
        for name in names:
            if temporary.match(name):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(directory, name))
                    removed += 1
    return removed


class _Saved(NamedTuple):
    path: Path
    backup: Path | None  # a hard link to what the file was (or the folder, moved); None: none
    new_directories: tuple[Path, ...]  # directories the write will create, outermost first
    tree: bool = False  # a whole folder removed (moved aside until the operation succeeds)


class WriteUndo:
    """The files one operation writes, as they were before it: put back if it fails.

    A file about to be replaced or removed is kept as a hard link (costing no disk
    space, so that undoing works on a full disk); a file about to be created is
    removed again, and so are the directories made for it."""

    def __init__(self) -> None:
        self.saved: dict[Path, _Saved] = {}

    def save(self, path: Path) -> None:
        if path in self.saved:
            return  # the first state is the one to go back to
        new_directories: list[Path] = []
        parent = path.parent
        while not parent.exists() and parent != parent.parent:
            new_directories.insert(0, parent)
            parent = parent.parent
        backup: Path | None = None
        if path.exists():
            backup = path.with_name(f".{path.name}.{os.urandom(6).hex()}{UNDO_SUFFIX}")
            try:
                os.link(path, backup)
            except OSError as error:
                raise write_failure(path, error) from error
        self.saved[path] = _Saved(path, backup, tuple(new_directories))

    def remove_tree(self, path: Path) -> None:
        """Remove a folder, keeping it aside (renamed: no space needed) until the end."""
        if not path.is_dir():
            return
        backup = path.with_name(f".{path.name}.{os.urandom(6).hex()}{UNDO_SUFFIX}")
        try:
            os.rename(path, backup)
        except OSError as error:
            raise write_failure(path, error) from error
        self.saved[backup] = _Saved(path, backup, (), tree=True)

    def put_back(self) -> None:
        for saved in reversed(list(self.saved.values())):
            with contextlib.suppress(OSError):
                if saved.tree and saved.backup is not None:
                    os.rename(saved.backup, saved.path)
                elif saved.backup is not None and _same_file(saved.backup, saved.path):
                    saved.backup.unlink()  # never replaced (rename(2) of a link onto itself does nothing)
                elif saved.backup is not None:
                    os.replace(saved.backup, saved.path)
                else:
                    saved.path.unlink(missing_ok=True)
            for directory in reversed(saved.new_directories):
                with contextlib.suppress(OSError):
                    directory.rmdir()  # only when empty: nothing else was put there

    def discard(self) -> None:
        for saved in self.saved.values():
            if saved.tree and saved.backup is not None:
                import shutil

                shutil.rmtree(saved.backup, ignore_errors=True)
            elif saved.backup is not None:
                with contextlib.suppress(OSError):
                    saved.backup.unlink()


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


# The operation in progress of each thread, if any: atomic_write and remove_file are called
# deep down (history, tombstones, the journal), and each of them must register what it
# replaces.  A command writes on its main thread, but `comet serve` runs several users' store
# calls at once on worker threads: each thread's operation is its own.  (_thread: always
# loaded, where importing threading would cost the hot path.)
_undo_in_progress: dict[int, WriteUndo] = {}


def _current_undo() -> WriteUndo | None:
    return _undo_in_progress.get(_thread.get_ident())


def remove_tree(path: Path) -> None:
    """shutil.rmtree, undone with the rest if the operation in progress fails."""
    undo = _current_undo()
    if undo is not None:
        undo.remove_tree(path)
    else:
        import shutil

        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def all_or_nothing() -> Iterator[None]:
    """Every file written or removed inside is put back as it was when the block fails."""
    thread = _thread.get_ident()
    if thread in _undo_in_progress:
        yield  # the outer block decides
        return
    undo = WriteUndo()
    _undo_in_progress[thread] = undo
    try:
        yield
    except BaseException:
        undo.put_back()
        raise
    else:
        undo.discard()
    finally:
        del _undo_in_progress[thread]


@contextlib.contextmanager
def file_lock(
    path: Path, *, shared: bool = False, timeout: float = LOCK_TIMEOUT_SECONDS, wait: bool = True
) -> Iterator[bool]:
    """An advisory flock on `path`; waits up to `timeout` seconds for other comet processes.

    With `wait=False` it tries once and yields whether it got the lock."""
    ensure_dir(path.parent)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
    except OSError as error:
        raise StoreError(
            f"cannot open lock file {path}: {error.strerror or error}",
            hint="make COMET_HOME a writable directory, or point COMET_HOME elsewhere",
        ) from error
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    deadline = time.monotonic() + timeout
    pause = 0.0002  # short at first, so that a lock held briefly is taken promptly
    try:
        while True:
            try:
                fcntl.flock(fd, mode | fcntl.LOCK_NB)
                break
            except OSError as error:
                if error.errno not in (errno.EAGAIN, errno.EACCES):
                    raise
                if not wait:
                    yield False
                    return
                if time.monotonic() >= deadline:
                    raise StoreError(
                        f"another comet process has held {path} for over {timeout:.0f} s",
                        hint="wait for it to finish, then run the command again",
                    ) from error
                time.sleep(pause)
                pause = min(pause * 2, 0.02)
        yield True
    finally:
        os.close(fd)  # closing the descriptor releases the lock


class ScopeStore(NamedTuple):
    """The files of one memory scope: global, or one project."""

    root: Path
    scope: str  # "global" | "project"
    project_key: str | None = None

    @property
    def records_dir(self) -> Path:
        return self.root / "records"

    @property
    def history_dir(self) -> Path:
        return self.root / "history"

    @property
    def tombstones_dir(self) -> Path:
        return self.root / "tombstones"

    @property
    def journal_dir(self) -> Path:
        return self.root / "journal"

    @property
    def profile_path(self) -> Path:
        return self.root / "profile.md"

    @property
    def config_path(self) -> Path:
        return self.root / "config.yaml"

    @property
    def lock_path(self) -> Path:
        return self.root / ".lock"

    @property
    def name(self) -> str:
        return "global" if self.scope == "global" else f"project:{self.project_key}"

    def record_path(self, record_id: str) -> Path:
        return self.records_dir / f"{record_id}.md"

    def create(self) -> ScopeStore:
        for directory in (self.records_dir, self.history_dir, self.tombstones_dir, self.journal_dir):
            ensure_dir(directory)
        return self

    def exists(self) -> bool:
        return self.records_dir.is_dir()

    def lock(self, *, wait: bool = True) -> contextlib.AbstractContextManager[bool]:
        return file_lock(self.lock_path, wait=wait)


class Home(NamedTuple):
    """COMET_HOME and the stores below it."""

    root: Path

    @classmethod
    def from_environment(cls) -> Home:
        return cls(comet_home())

    @property
    def global_store(self) -> ScopeStore:
        return ScopeStore(self.root / "global", "global")

    def project_store(self, project_key: str) -> ScopeStore:
        return ScopeStore(self.root / "projects" / project_key, "project", project_key)

    @property
    def index_path(self) -> Path:
        return self.root / "index" / "comet.sqlite3"

    @property
    def diagnostics_log(self) -> Path:
        return self.root / "logs" / "diagnostics.log"

    @property
    def user_config_path(self) -> Path:
        return self.root / "config.yaml"

    def project_keys(self) -> list[str]:
        projects = self.root / "projects"
        if not projects.is_dir():
            return []
        return sorted(entry.name for entry in os.scandir(projects) if entry.is_dir())

    def ensure(self) -> Home:
        ensure_dir(self.root)
        return self
