"""The warm process: `python -c "$(address.SERVER_ARGV)" [--idle SECONDS] [--verbose]`.

It answers one call at a time, each as the console script would in a process of its own
(entry.py's plain `comet task` and `comet agent-hook`), in the caller's folder and with the
caller's stdin; each call looks at the store's files afresh, so what other processes wrote is
seen.  It declines (the caller then runs the call itself) what it was not started for: another
environment, arguments that need click, a comet whose files changed since it started.  One per
socket: the first to lock it serves, the others leave at once.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import gc
import io
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import IO

import comet_git
from comet_git.matching.text import VOCABULARY_FILE
from comet_git.warm import address

IDLE_SECONDS = 600.0
PATIENCE = 1.0  # for the caller to send its request (it sends at once)
_REQUEST_MAX = 4 << 20  # the kernel's own limit on a command line is 2 MB: more is no call
_FINISH_SECONDS = 120.0  # a hook's worker still running (agent_hook.FINISH_TIMEOUT)
# How long a call's threads get to end once it has answered: a thread that has handed over its
# answer ends at once, but on a busy machine it may wait a while for the CPU, and a process that
# stopped serving for it would leave every later call to start cold.
_GRACE_SECONDS = 0.25


class Served:
    """What this process was started as, and what it has done."""

    def __init__(self, verbose: bool) -> None:
        self.print_ = address.fingerprint(
            os.environ, sys.executable, os.path.dirname(comet_git.__file__), comet_git.__version__
        )
        self.verbose = verbose
        self.stamp: dict[str, int] = {}  # comet's modules as loaded: file -> modification time
        self.stale = False  # comet's files changed: serve no more

    def note(self, what: str, started: float | None = None) -> None:
        if self.verbose:  # what was served, never what it said
            took = "" if started is None else f" in {(time.perf_counter() - started) * 1000:.1f} ms"
            print(f"comet-warm: {what}{took}", file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="comet-warm")
    parser.add_argument("--idle", type=float, default=IDLE_SECONDS, help="leave after this many idle seconds")
    parser.add_argument("--verbose", action="store_true", help="one line on stderr per call served")
    args = parser.parse_args(argv)
    served = Served(args.verbose)
    sockets = address.folder(os.environ)
    path = address.socket_path(sockets, served.print_)
    if path is None or not _private_folder(sockets):
        return 0
    lock = os.open(path.removesuffix(".sock") + ".lock", os.O_CREAT | os.O_RDWR | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:  # another one serves (or is starting to)
        return 0
    os.ftruncate(lock, 0)
    os.write(lock, b"%d\n" % os.getpid())  # who serves here, for whoever must stop it
    os.umask(0o077)  # what comet writes is owner-only anyway; the socket is, from birth
    _preload()
    _code_changed(served)  # stamps what is loaded now
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # left by a process that was killed: the lock is ours
    listener.bind(path)
    listener.listen(64)
    gc.collect()
    gc.freeze()  # the modules and their objects stay: no collection walks them again
    try:
        _serve(listener, served, args.idle)
    finally:
        listener.close()
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(lock)  # another may serve now, while a hook's worker here finishes
    _wait_for_workers()
    return 0


def _private_folder(path: str) -> bool:
    with contextlib.suppress(OSError):  # exists already, or cannot be made: is_private says
        os.mkdir(path, 0o700)
    return address.is_private(path)


def _preload() -> None:
    """What the calls import, imported now rather than on the first call."""
    import comet_git.commands.agent_hook
    import comet_git.commands.fast
    import comet_git.commands.task  # noqa: F401


def _code_changed(served: Served) -> str | None:
    """The comet module loaded here (or the vocabulary, which makes the search terms) that
    changed on disk since it was loaded (or first seen here: calls import modules as they need
    them, and each call's are noted when it ends); None while none did."""
    files: list[str | None] = [getattr(module, "__file__", None) for name, module in list(sys.modules.items())
                               if name.startswith("comet_git")]  # fmt: skip
    files.append(str(VOCABULARY_FILE))  # data too
    for file in files:
        if not file:
            continue
        try:
            mtime = os.stat(file).st_mtime_ns
        except OSError:
            return file
        if served.stamp.setdefault(file, mtime) != mtime:
            return file
    return None


def _serve(listener: socket.socket, served: Served, idle: float) -> None:
    listener.settimeout(idle)
    while not served.stale:
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            return
        with connection:
            lingering = _handle(connection, served)
        if lingering:
            # A hook's worker outlived its budget and still holds the store (and this
            # process's folder and environment): take no more calls.
            served.note("left: a call's thread still runs")
            return


def _lingering() -> bool:
    """Whether a thread of a call still runs (one that has just handed over its answer gets a
    moment to end)."""
    others = [thread for thread in threading.enumerate() if thread is not threading.current_thread()]
    deadline = time.monotonic() + _GRACE_SECONDS
    for thread in others:
        thread.join(max(0.0, deadline - time.monotonic()))
    return any(thread.is_alive() for thread in others)


def _wait_for_workers() -> None:
    deadline = time.monotonic() + _FINISH_SECONDS
    for thread in threading.enumerate():
        if thread is not threading.current_thread():
            thread.join(max(0.0, deadline - time.monotonic()))


def _handle(connection: socket.socket, served: Served) -> bool:
    """Serve one call; whether a thread of it still runs."""
    started = time.perf_counter()
    connection.settimeout(PATIENCE)
    descriptors: list[int] = []
    try:
        if address.peer(connection)[1] != os.getuid():
            return False  # another user's process: nothing to say to it
        fields, descriptors = _receive(connection)
        answer, declined = _answer(fields, descriptors, served)
        connection.sendall(answer)
        served.note(
            f"declined {_kind(fields)} ({declined})" if declined else f"answered {_kind(fields)}", started
        )
    except OSError:
        pass  # the caller went away, or was too slow: it runs the call itself
    finally:
        lingering = _lingering()
        if not lingering:  # else a hook's worker may still read its stdin
            for descriptor in descriptors:
                with contextlib.suppress(OSError):
                    os.close(descriptor)
    return lingering


def _kind(fields: list[bytes] | None) -> str:
    return os.fsdecode(fields[2]) if fields and len(fields) > 2 else "nothing"


def _receive(connection: socket.socket) -> tuple[list[bytes] | None, list[int]]:
    data, ancillary, _, _ = connection.recvmsg(1 << 16, socket.CMSG_SPACE(4 * 4))
    descriptors = []
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            usable = len(payload) - len(payload) % 4
            descriptors += [int.from_bytes(payload[at : at + 4], sys.byteorder) for at in range(0, usable, 4)]
    while data.startswith(address.MAGIC) and len(data) < _REQUEST_MAX:
        fields = address.unframe(data[len(address.MAGIC) :])
        if fields is not None:
            return fields, descriptors
        chunk = connection.recv(1 << 16)
        if not chunk:
            break
        data += chunk
    return None, descriptors


def _answer(fields: list[bytes] | None, descriptors: list[int], served: Served) -> tuple[bytes, str]:
    """The answer to send, and why it declines ("" when it answers)."""
    if fields is None or len(fields) < 3:
        return address.DECLINED, "not a call"
    if fields[0] != served.print_:
        return address.DECLINED, "another environment"
    changed = _code_changed(served)
    if changed:
        served.stale = True
        return address.DECLINED, f"comet changed: {changed}"
    try:
        os.chdir(os.fsdecode(fields[1]))
    except OSError:
        return address.DECLINED, "no such folder"
    argv = [os.fsdecode(field) for field in fields[2:]]
    stdin = descriptors[0] if descriptors else None
    try:
        from comet_git.looks import one_look

        with one_look():  # one call: each store's files are listed once, as in entry.dispatch
            output = _run(argv, stdin)
    except Exception as error:  # the caller runs the call itself, and meets the same failure there
        _log(error)
        return address.DECLINED, f"failed: {type(error).__name__}"
    if output is None:
        return address.DECLINED, "not a fast call"
    changed = _code_changed(served)  # notes the modules this call imported first
    if changed:
        served.stale = True
        served.note(f"leaving: comet changed: {changed}")
    return address.ANSWERED + bytes([0]) + address.frame([output, b""]), ""


def _run(argv: list[str], stdin: int | None) -> bytes | None:
    """What the call writes to stdout, as entry.py's fast paths would; None: not one of them."""
    from comet_git.commands.fast import parse_fast_agent_hook, parse_fast_task

    if argv[:1] == ["task"]:
        fast = parse_fast_task(argv[1:])
        if fast is None:
            return None
        from comet_git.commands import task

        path, options, as_json = fast
        output = task.context(Path(path), options, record_applications=True)
        return b"".join(output.render(as_json))
    hook = parse_fast_agent_hook(argv[1:]) if argv[:1] == ["agent-hook"] else None
    if hook is None:
        return None
    from comet_git.commands.agent_hook import answer

    reader = _text(stdin)
    text = answer(*hook, reader.read).text
    encoding, errors = _stream_encoding(sys.stdout)
    return (str(text) + "\n").encode(encoding, errors) if text else b""


def _text(descriptor: int | None) -> IO[str]:
    """The caller's stdin, decoded as this process's own stdin would decode it."""
    if descriptor is None:
        return io.StringIO("")
    encoding, errors = _stream_encoding(sys.stdin)
    return open(descriptor, encoding=encoding, errors=errors, closefd=False)


def _stream_encoding(stream: IO[str] | None) -> tuple[str, str]:
    if stream is None or not isinstance(stream, io.TextIOWrapper):
        return "utf-8", "strict"
    return stream.encoding, stream.errors or "strict"


def _log(error: BaseException) -> None:
    with contextlib.suppress(Exception):
        from comet_git.diagnostics import log_failure
        from comet_git.store import Home

        log_failure(Home.from_environment().diagnostics_log, "warm process", error)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
