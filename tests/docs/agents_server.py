"""A fork server for the docs audit: `agents` started once, each command run in a fork of it.

The docs hold a hundred commands; a fresh interpreter each (imports and vocabularies) would take
minutes. The server imports the package and loads the vocabularies once; for each command a small
client (`CLIENT`, installed as `agents` on the examples' PATH) sends its arguments, working
directory, environment and its standard input, output and error descriptors; the server forks,
the child takes the descriptors as its own and runs the real entry point, and the exit code goes
back to the client. Pipes, redirections and exit codes behave as with the installed command.

Run: ``python -m tests.docs.agents_server SOCKET`` (prints ``ready`` once it listens).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import pkgutil
import runpy
import signal
import socket
import struct
import sys

PYTHON_FILE = "--docs-audit-python-file"
"""First argument that runs a Python file in the child instead of the CLI."""

CLIENT = """\
import json, os, socket, struct, sys
connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
connection.connect(os.environ["DOCS_AUDIT_SOCKET"])
request = json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)})
data = request.encode("utf-8", "surrogateescape")
socket.send_fds(connection, [struct.pack("!I", len(data)) + data], [0, 1, 2])
reply = connection.recv(16)
sys.exit(int(reply or b"1"))
"""


def _receive(connection: socket.socket) -> tuple[dict[str, object], list[int]]:
    data, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
    (length,) = struct.unpack("!I", data[:4])
    body = data[4:]
    while len(body) < length:
        body += connection.recv(length - len(body))
    return json.loads(body.decode("utf-8", "surrogateescape")), fds


def _child(request: dict[str, object], fds: list[int]) -> int:
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(str(request["cwd"]))
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in dict(request["env"]).items()})  # type: ignore[call-overload]
    # As on a terminal: stdout flushed line by line, so stdout and stderr interleave in order.
    sys.stdin = io.TextIOWrapper(os.fdopen(0, "rb", closefd=False), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(
        os.fdopen(1, "wb", closefd=False), encoding="utf-8", line_buffering=True
    )
    sys.stderr = io.TextIOWrapper(
        os.fdopen(2, "wb", closefd=False), encoding="utf-8", line_buffering=True
    )
    argv = [str(arg) for arg in request["argv"]]  # type: ignore[attr-defined]
    try:
        if argv[:1] == [PYTHON_FILE]:
            sys.argv = argv[1:]
            runpy.run_path(argv[1], run_name="__main__")
            code = 0
        else:
            from cleveragents.cli.main import main

            main(argv)
            code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    except BaseException:  # a traceback, as the real command would print it
        import traceback

        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return code


PRELOADED = ("alembic.command", "alembic.config", "alembic.runtime.migration", "rich.table")
"""Besides every module of the package: what migrating a new database and printing a table load."""


def _preload() -> None:
    """Import what the commands would import, once, so that each fork starts with it (a command
    that opens the store would otherwise import SQLAlchemy again: half a second, a hundred
    times). A module that fails to import is left for the command that needs it to report."""
    import cleveragents

    names = [
        module.name
        for module in pkgutil.walk_packages(cleveragents.__path__, "cleveragents.", onerror=str)
        if not module.name.endswith("__main__")
    ]
    for name in [*names, *PRELOADED]:
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def serve(path: str) -> None:
    import cleveragents.cli.app  # noqa: F401  (the imports every command pays for)
    from cleveragents.adapters.tokens.tiktoken_counter import load_encoding

    _preload()
    for name in ("cl100k_base", "o200k_base"):
        load_encoding(name)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(8)
    print("ready", flush=True)
    while True:
        connection, _ = listener.accept()
        with connection:
            request, fds = _receive(connection)
            pid = os.fork()
            if pid == 0:
                listener.close()
                connection.close()
                os._exit(_child(request, fds))
            for fd in fds:
                os.close(fd)
            _, status = os.waitpid(pid, 0)
            connection.sendall(str(os.waitstatus_to_exitcode(status) & 0xFF).encode())


if __name__ == "__main__":
    serve(sys.argv[1])
