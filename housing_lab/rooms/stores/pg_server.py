"""A throwaway PostgreSQL server for tests and benchmarks: initdb into a temporary folder,
pg_ctl on a free port of 127.0.0.1, stopped and deleted afterwards.

PostgreSQL refuses to run as root, so as root the folder is given to the `postgres` user and the
server runs as that user (runuser). `find_bin_dir` looks in the Debian folders
(/usr/lib/postgresql/<version>/bin) and on PATH.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DEBIAN_BINS = Path("/usr/lib/postgresql")


def find_bin_dir() -> Path | None:
    """The folder holding initdb and pg_ctl (the newest Debian version first), or None."""
    if DEBIAN_BINS.is_dir():
        versions = sorted(
            (p for p in DEBIAN_BINS.iterdir() if (p / "bin" / "initdb").exists()),
            key=lambda p: int(p.name) if p.name.isdigit() else 0,
            reverse=True,
        )
        if versions:
            return versions[0] / "bin"
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def temporary_server(bin_dir: Path | None = None) -> Iterator[str]:
    """Start a server; yields its URL (user postgres, trust auth, database postgres)."""
    bin_dir = bin_dir or find_bin_dir()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="housing-lab-pg-"))
    data = folder / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    log = folder / "server.log"

    def run(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=120)

    try:
        run(str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(log), "-w", "start")
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
