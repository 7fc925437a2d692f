"""One look at the files per command: the second and later refreshes of a store within one
command (a CLI process, a Dashboard page) list its folders only if another process changed
the index's rows since.  Standard library only: every command enters it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

# Within one command (a CLI process, a Dashboard page): the stores whose files were found as
# the index has them, with the digests of the index's rows then (index.rows_digest).
_LOOKED: ContextVar[dict[tuple[str, str], tuple[str, ...]] | None] = ContextVar("comet_looked", default=None)


@contextlib.contextmanager
def one_look() -> Iterator[None]:
    """Within this block each store's folders are listed (every file stat'ed) at most once.

    A command asks the index for records several times (a remember: the similar records,
    the write, the record written); each time the index must be as fresh as the files.
    The first look lists them; a later one only checks that no other process changed the
    index's rows since (their digests), and looks at the files that were racy and at
    profile.md.  Every comet write renames into the folders under the store lock and
    updates the rows and their digests in the same transaction, so the writes of other
    processes are seen; a hand edit made while the command runs is taken in by the next
    command, as one made a moment later would be."""
    token = _LOOKED.set({})
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
    looked = _LOOKED.get()
    if looked is not None:
        looked.pop((index_path, store_name), None)


def looked_digests(index_path: str, store_name: str) -> tuple[str, ...] | None:
    """The digests of the rows when this command last found `store`'s files as indexed."""
    looked = _LOOKED.get()
    return None if looked is None else looked.get((index_path, store_name))


def note_looked(index_path: str, store_name: str, digests: tuple[str, ...]) -> None:
    """The files of `store` are as the index has them, whose rows have these digests."""
    looked = _LOOKED.get()
    if looked is not None:
        looked[(index_path, store_name)] = digests
