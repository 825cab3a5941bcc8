"""A throwaway PostgreSQL server for the benchmarks: initdb in a temporary directory, listening
on 127.0.0.1 on a free port, stopped and removed afterwards.

`$CLEVERAGENTS_BENCH_POSTGRES_URL` (else `$CLEVERAGENTS_TEST_POSTGRES_URL`) names a server to
use instead. Run as root, the server runs as the ``postgres`` user (initdb refuses root).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_START_SECONDS = 60.0
_SEARCH = ("/usr/local/bin", "/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin")


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    roots = [*_SEARCH, *sorted(str(p) for p in Path("/usr/lib/postgresql").glob("*/bin"))]
    for root in roots:
        candidate = Path(root) / name
        if candidate.is_file():
            return str(candidate)
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@contextmanager
def postgres_url() -> Iterator[str | None]:
    """A URL of an empty database, or None when no server is given and none can be started."""
    given = os.environ.get("CLEVERAGENTS_BENCH_POSTGRES_URL") or os.environ.get(
        "CLEVERAGENTS_TEST_POSTGRES_URL"
    )
    if given:
        yield given
        return
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        yield None
        return
    root = Path(tempfile.mkdtemp(prefix="cleveragents-bench-pg-"))
    data = root / "data"
    port = _free_port()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    try:
        _quietly([initdb, "-D", str(data), "-U", "bench", "--auth=trust", "-E", "UTF8"])
        options = f"-h 127.0.0.1 -p {port} -k {root} -c max_connections=100"
        _quietly([pg_ctl, "-D", str(data), "-o", options, "-l", str(root / "log"), "start"])
        _wait_for(port)
        yield f"postgresql+psycopg://bench@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_server_user([pg_ctl, "-D", str(data), "-m", "immediate", "stop"]),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(root, ignore_errors=True)


def _quietly(command: list[str]) -> None:
    subprocess.run(
        _as_server_user(command),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + _START_SECONDS
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"PostgreSQL did not start on 127.0.0.1:{port}")
