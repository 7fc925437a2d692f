"""The console script's side: hand a call to the warm process, or start one for the next call.

`_socket` (the C module under `socket`) keeps this at about a millisecond: `socket` itself
imports enum and friends, some 8 ms of a call that should take 50.
"""

from __future__ import annotations

import _socket
import os
import sys

from comet_git.warm import address

# How long a call waits for the warm process before it stops it and runs by itself: well over
# what a request takes (tens of milliseconds, seconds for a first full look at a large store).
PATIENCE = 5.0


def answer(argv: list[str]) -> int | None:
    """The exit code, with the warm process's output written; None: run the call here."""
    environ = os.environ
    if environ.get(address.SWITCH) == "0":
        return None
    if argv[:1] == ["agent-hook"] and sys.stdin is not None and sys.stdin.isatty():
        # A hook run by hand at a terminal: a worker still reading it after the answer would
        # take what is typed next from the shell.  By itself, the process ends with the call.
        return None
    import comet_git

    print_ = address.fingerprint(
        environ, sys.executable, os.path.dirname(comet_git.__file__), comet_git.__version__
    )
    sockets = address.folder(environ)
    path = address.socket_path(sockets, print_)
    if path is None or (os.path.lexists(sockets) and not address.is_private(sockets)):
        return None  # nowhere safe to meet
    connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        try:
            connection.connect(path)
        except OSError:  # none listening (yet, or any more)
            if os.path.isdir(os.path.dirname(sockets)):
                _start_server()
            return None
        if address.peer(connection)[1] != os.getuid():
            return None  # not our own process: tell it nothing
        return _ask(connection, print_, argv)
    finally:
        connection.close()


def _ask(connection: _socket.socket, print_: bytes, argv: list[str]) -> int | None:
    connection.settimeout(PATIENCE + _hook_budget(argv))
    try:
        request = address.MAGIC + address.frame([print_, os.fsencode(os.getcwd()), *map(os.fsencode, argv)])
        # stdin goes along as a descriptor: a hook's payload is read there as it would be here.
        # (Python sets sys.stdin to None when the call started without one: then descriptor 0
        # may be this very socket.)
        stdin = [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, (0).to_bytes(4, sys.byteorder))]
        connection.sendmsg([request], stdin if sys.stdin is not None else [])
        reply = _read_all(connection)
    except TimeoutError:
        _stop(connection)
        return None
    except OSError:
        return None
    if reply[:1] != address.ANSWERED or len(reply) < 2:
        return None  # declined, or the process went away before it answered
    streams = address.unframe(reply[2:])
    if streams is None or len(streams) != 2:
        return None
    try:
        _write(sys.stdout.fileno(), streams[0])  # descriptors 1 and 2 unless the call began without
        _write(sys.stderr.fileno(), streams[1])
    except OSError:  # the reader went away (`comet task --json | head -c1`): exit 1, as entry.main
        return 1
    return reply[1]


def _read_all(connection: _socket.socket) -> bytes:
    chunks = []
    while chunk := connection.recv(1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _write(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def _hook_budget(argv: list[str]) -> float:
    """A hook's own budget (agent_hook.py), which the warm process spends before it answers."""
    if argv[:1] != ["agent-hook"]:
        return 0.0
    try:
        return max(0.0, float(os.environ.get("COMET_AGENT_HOOK_TIMEOUT", "1")))
    except ValueError:
        return 1.0


def _stop(connection: _socket.socket) -> None:
    """A warm process that does not answer in time is stopped (killed: a stopped process would
    keep a SIGTERM pending, and hold every later call for as long); the next call starts another.
    What it was writing is safe: every write of comet survives a killed process."""
    pid = address.peer(connection)[0]
    if pid > 1:
        try:
            os.kill(pid, 9)  # SIGKILL
        except OSError:  # gone already
            return


def _start_server() -> None:
    """Start the warm process, detached: its own session, no terminal, nothing inherited that a
    host waits on (an agent host reads the hook's stdout until every holder closes it)."""
    devnull = os.devnull
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, devnull, os.O_WRONLY, 0),
    ]
    argv = [sys.executable, *address.SERVER_ARGV]
    try:
        os.posix_spawn(sys.executable, argv, os.environ, file_actions=actions, setsid=True)
    except OSError:  # no warm process: every call runs by itself, as with COMET_WARM=0
        return
