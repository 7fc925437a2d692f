"""Which store folders changed since a long-running process last listed them: Linux inotify.

A Dashboard page must see a record file edited by hand a moment before, yet listing every
file of a store of ten thousand records (a stat each) costs some 50 ms of each page.  The
kernel tells what happened in a folder instead: a file written in place, renamed in or out,
created, deleted, touched.  Where inotify is not to be had (another system, the optional
package missing, the watch limit reached) there is no watch, and every page lists."""

from __future__ import annotations

from collections.abc import Sequence

try:
    from inotify_simple import INotify
    from inotify_simple import flags as inotify_flags
except ImportError:  # not Linux, or the package is missing: no watch
    INotify = None

# What changes a folder's listing or a file's content; not opening or closing a file (every
# command opens the store's .lock for writing).
_CHANGES = (
    ("MODIFY", "ATTRIB", "MOVED_FROM", "MOVED_TO", "CREATE", "DELETE", "DELETE_SELF", "MOVE_SELF")
    if INotify is not None
    else ()
)


class FolderWatch:
    """inotify watches on folders; `disturbed` says whether anything happened in them."""

    def __init__(self) -> None:
        assert INotify is not None
        self._inotify = INotify(nonblocking=True)
        self._mask = 0
        for name in _CHANGES:
            self._mask |= getattr(inotify_flags, name)
        self._watches: dict[str, int] = {}  # folder -> watch descriptor
        self._folders: dict[int, str] = {}
        self._disturbed: set[str] = set()

    def watch(self, folders: Sequence[str]) -> None:
        """Watch these folders from now on (a folder that does not exist is not watched: it
        stays disturbed, so that it is listed each time)."""
        for folder in folders:
            if folder in self._watches:
                continue
            try:
                descriptor = self._inotify.add_watch(folder, self._mask)
            except OSError:  # missing, or the system's watch limit: listed every time
                continue
            self._watches[folder] = descriptor
            self._folders[descriptor] = folder

    def disturbed(self, folders: Sequence[str]) -> bool:
        """Whether anything happened in any of `folders` since the last call for them (or
        since they were watched), or they are not watched; then they count as quiet again."""
        self._read_events()
        found = any(folder in self._disturbed or folder not in self._watches for folder in folders)
        self._disturbed.difference_update(folders)
        return found

    def _read_events(self) -> None:
        for event in self._inotify.read(timeout=0):
            if event.mask & inotify_flags.Q_OVERFLOW:  # events were lost: everything may have changed
                self._disturbed.update(self._watches)
                continue
            folder = self._folders.get(event.wd)
            if folder is None:
                continue
            self._disturbed.add(folder)
            if event.mask & (inotify_flags.IGNORED | inotify_flags.DELETE_SELF | inotify_flags.MOVE_SELF):
                # The folder itself went: watch what is there next time.
                self._watches.pop(folder, None)
                self._folders.pop(event.wd, None)

    def close(self) -> None:
        self._inotify.close()


def folder_watch() -> FolderWatch | None:
    """A watch, where this system has inotify; else None."""
    if INotify is None:
        return None
    try:
        return FolderWatch()
    except OSError:  # the system's limit of inotify instances
        return None
