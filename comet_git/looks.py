"""One look at the files per command: the second and later refreshes of a store within one
command (a CLI process, a Dashboard page) list its folders only if another process changed
the index's rows since.  Standard library only: every command enters it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from typing import Protocol


class Watch(Protocol):
    """What happened in folders since they were last listed (provider/watch.py)."""

    def watch(self, folders: Sequence[str]) -> None: ...

    def disturbed(self, folders: Sequence[str]) -> bool: ...


class Looks:
    """The stores whose files were found as the index has them, with the digests of the
    index's rows then (index.rows_digest); with a watch, kept from one command to the next
    while the watch saw nothing happen in their folders."""

    def __init__(self, watch: Watch | None = None) -> None:
        self.watch = watch
        self.looked: dict[tuple[str, str], tuple[str, ...]] = {}


_LOOKED: ContextVar[Looks | None] = ContextVar("comet_looked", default=None)


@contextlib.contextmanager
def one_look(kept: Looks | None = None) -> Iterator[None]:
    """Within this block each store's folders are listed (every file stat'ed) at most once.

    A command asks the index for records several times (a remember: the similar records,
    the write, the record written); each time the index must be as fresh as the files.
    The first look lists them; a later one only checks that no other process changed the
    index's rows since (their digests), and looks at the files that were racy and at
    profile.md.  Every comet write renames into the folders under the store lock and
    updates the rows and their digests in the same transaction, so the writes of other
    processes are seen; a hand edit made while the command runs is taken in by the next
    command, as one made a moment later would be.

    `kept`, with a watch: a long-running process (the Dashboard) keeps its looks from one
    command to the next, for the stores in whose folders the watch saw nothing happen."""
    token = _LOOKED.set(kept if kept is not None and kept.watch is not None else Looks())
    try:
        yield
    finally:
        _LOOKED.reset(token)


@contextlib.contextmanager
def every_look() -> Iterator[None]:
    """Within this block (a server of many commands, until one of them enters one_look) every
    refresh lists the folders."""
    token = _LOOKED.set(None)
    try:
        yield
    finally:
        _LOOKED.reset(token)


def forget_look(index_path: str, store_name: str) -> None:
    """The caller wrote files of `store` that the index does not have yet: the next refresh
    lists the folders."""
    looks = _LOOKED.get()
    if looks is not None:
        looks.looked.pop((index_path, store_name), None)


def looked_digests(index_path: str, store_name: str, folders: Sequence[str]) -> tuple[str, ...] | None:
    """The digests of the rows when the store's files (in `folders`) were last found as
    indexed, unless the watch saw something happen in them since."""
    looks = _LOOKED.get()
    if looks is None:
        return None
    key = (index_path, store_name)
    if looks.watch is not None and looks.watch.disturbed(folders):
        looks.looked.pop(key, None)
    return looks.looked.get(key)


def start_looking(folders: Sequence[str]) -> None:
    """The folders are about to be listed: from now on, the watch (if any) notes what happens."""
    looks = _LOOKED.get()
    if looks is not None and looks.watch is not None:
        looks.watch.watch(folders)
        looks.watch.disturbed(folders)  # what happened before this listing, it sees


def note_looked(index_path: str, store_name: str, digests: tuple[str, ...]) -> None:
    """The files of `store` are as the index has them, whose rows have these digests."""
    looks = _LOOKED.get()
    if looks is not None:
        looks.looked[(index_path, store_name)] = digests
