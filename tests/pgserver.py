"""A throwaway PostgreSQL server for tests: the system's PostgreSQL binaries (which .ci/run installs),
a temporary data directory, a free port on 127.0.0.1 and a Unix socket in the temporary directory.

initdb refuses to run as root: as root the server runs as the `postgres` system user, the
directory chowned to it.  Each test module gets a database of its own (`create_database`).
Standard library only: benchmarks/bench_serve_load.py starts its throwaway server with it too."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
from pathlib import Path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def bindir() -> Path:
    """Where the server's binaries are: pg_config's BINDIR, else the Debian layout."""
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        found = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        candidate = Path(found.stdout.strip())
        if found.returncode == 0 and (candidate / "initdb").exists():
            return candidate
    installed = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not installed:
        raise AssertionError("PostgreSQL is not installed: .ci/run apt-installs the postgresql package")
    return Path(installed[-1]).parent


class PostgresServer:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.data = root / "pgdata"
        self.socket_dir = root / "socket"
        self.port = free_port()
        self.bin = bindir()
        self.as_root = os.geteuid() == 0

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise AssertionError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")

    def start(self, *, durable: bool = False) -> PostgresServer:
        """initdb and start.  Tests run without fsync (-F: a throwaway server); a benchmark's server
        is `durable`, as the embedded backend beside it is (its writes are fsynced)."""
        self.socket_dir.mkdir(parents=True)
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
            shutil.chown(self.socket_dir, "postgres", "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust",
                  "-E", "UTF8", "--no-locale", "--no-sync")  # fmt: skip
        options = f"-p {self.port} -k {self.socket_dir} -h 127.0.0.1 -c max_connections=200"
        options += "" if durable else " -F"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
                  "-o", options, "-w", "start")  # fmt: skip
        return self

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database; its URL."""
        psql = [str(self.bin / "psql"), "-h", str(self.socket_dir), "-p", str(self.port), "-U", "postgres"]
        self._run(*psql, "-q", "-v", "ON_ERROR_STOP=1", "-c", f'CREATE DATABASE "{name}"')
        return self.url(name)
