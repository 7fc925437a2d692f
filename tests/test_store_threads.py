"""all_or_nothing in threads: `comet serve` runs the store calls of several users at once on
worker threads, and each operation's undo must be its own (a failure in one thread puts back
only what that thread wrote; a success elsewhere is not disturbed)."""

from __future__ import annotations

import threading
from pathlib import Path

from comet_git.store import all_or_nothing, atomic_write


def test_a_failure_in_one_thread_undoes_only_its_own_writes(tmp_path: Path) -> None:
    inside = threading.Barrier(2)
    written = threading.Barrier(2)
    outcomes: dict[str, BaseException | None] = {}

    def operation(name: str, fail: bool) -> None:
        try:
            with all_or_nothing():
                inside.wait()  # both operations are under way at once
                atomic_write(tmp_path / f"{name}.md", f"{name}\n")
                written.wait()
                if fail:
                    raise RuntimeError("the disk filled up")
            outcomes[name] = None
        except BaseException as error:
            outcomes[name] = error

    threads = [
        threading.Thread(target=operation, args=("kept", False)),
        threading.Thread(target=operation, args=("failed", True)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes["kept"] is None
    assert isinstance(outcomes["failed"], RuntimeError)
    assert (tmp_path / "kept.md").read_text() == "kept\n"
    assert not (tmp_path / "failed.md").exists()


def test_many_operations_at_once_all_finish(tmp_path: Path) -> None:
    writes = 50
    folder = tmp_path / "store"
    folder.mkdir()
    errors: list[BaseException] = []

    def operation(number: int) -> None:
        try:
            for count in range(writes):
                with all_or_nothing():
                    atomic_write(folder / f"{number}-{count}.md", "x\n")
                    atomic_write(folder / f"{number}-{count}.md", "y\n")  # keeps the first aside
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=operation, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(list(folder.iterdir())) == 4 * writes  # no copy kept aside is left behind
