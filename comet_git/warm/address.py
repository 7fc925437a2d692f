"""Where a warm process listens, and the words client and server exchange.

Standard library only, and only cheap modules: every `comet task` imports this one.
"""

from __future__ import annotations

import _socket
import os
import stat
import sys
import zlib

TYPE_CHECKING = False  # as in entry.py: no typing or collections imports on the hot path
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

SWITCH = "COMET_WARM"  # "0": every call runs in its own process
# Besides its arguments and folder, what a call's answer may depend on: the variables comet, git,
# Python and the C library read.  A warm process answers only the calls whose environment agrees
# with its own on these (the hosts' own variables, such as a session id, do not matter).
_ENVIRONMENT_PREFIXES = ("COMET_", "GIT_", "XDG_", "LC_", "PYTHON")
_ENVIRONMENT_NAMES = (
    *("HOME", "PATH", "LANG", "LANGUAGE", "TZ", "TMPDIR", "CODEX_HOME"),
    *("SSL_CERT_FILE", "SSL_CERT_DIR"),  # the Remote provider's HTTPS
)
_SOCKET_PATH_MAX = 107  # sun_path holds 108 bytes, the last one a NUL

# How a warm process is started: `python -c`, not `-m`, and without the working folder that both
# put first on sys.path (from a checkout of comet-git it would import the checkout's code, not
# the installed one); first of all it closes the descriptors the call inherited (a pipe that a
# shell or a host reads to its end must not stay open for as long as the process lives).
SERVER_ARGV = (
    "-c",
    "import os, sys; os.closerange(3, 1 << 16); sys.path[:1] = [p for p in sys.path[:1] if p];"
    " from comet_git.warm.server import main; sys.exit(main(sys.argv[1:]))",
)

MAGIC = b"comet-warm/1\n"
ANSWERED = b"A"  # then the exit code (one byte), stdout and stderr (each length-prefixed)
DECLINED = b"D"  # the client runs the call itself


def fingerprint(environ: Mapping[str, str], executable: str, package: str, version: str) -> bytes:
    """What a warm process and a call must share: interpreter, comet's files and version, and
    the environment that matters."""
    kept = sorted(
        (name, value)
        for name, value in environ.items()
        if name.startswith(_ENVIRONMENT_PREFIXES) or name in _ENVIRONMENT_NAMES
    )
    parts = [executable, package, version, *(f"{name}={value}" for name, value in kept)]
    return b"\0".join(os.fsencode(part) for part in parts)


def folder(environ: Mapping[str, str]) -> str:
    """The user's folder of sockets: $XDG_RUNTIME_DIR/comet-warm, else /tmp/comet-warm-UID."""
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime):
        return os.path.join(runtime, "comet-warm")
    return os.path.join(environ.get("TMPDIR") or "/tmp", f"comet-warm-{os.getuid()}")


def is_private(path: str) -> bool:
    """A real folder (not a link) of this user that nobody else can enter."""
    try:
        found = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid() and not found.st_mode & 0o077


def peer(connection: _socket.socket) -> tuple[int, int]:
    """The (pid, uid) of the process at the other end of a Unix socket (its struct ucred); (0, -1)
    where the system cannot say."""
    try:
        credentials = connection.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    except (OSError, AttributeError):  # no SO_PEERCRED here (not Linux)
        return 0, -1
    return int.from_bytes(credentials[:4], sys.byteorder), int.from_bytes(credentials[4:8], sys.byteorder)


def socket_path(sockets: str, print_: bytes) -> str | None:
    """The socket of the warm process for this fingerprint; None where the path is too long."""
    path = os.path.join(sockets, f"{zlib.crc32(print_):08x}.sock")
    return path if len(os.fsencode(path)) <= _SOCKET_PATH_MAX else None


def frame(fields: Sequence[bytes]) -> bytes:
    """Fields as the protocol sends them: a count, then each one's length and bytes."""
    out = [len(fields).to_bytes(4, "big")]
    for field in fields:
        out += [len(field).to_bytes(4, "big"), field]
    return b"".join(out)


def unframe(data: bytes) -> list[bytes] | None:
    """The fields of a whole frame; None while `data` holds only part of one (or is malformed)."""
    if len(data) < 4:
        return None
    count, at, fields = int.from_bytes(data[:4], "big"), 4, []
    for _ in range(count):
        if len(data) < at + 4:
            return None
        size = int.from_bytes(data[at : at + 4], "big")
        at += 4
        if len(data) < at + size:
            return None
        fields.append(data[at : at + size])
        at += size
    return fields if at == len(data) else None
