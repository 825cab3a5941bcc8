"""The proxy's web app run by uvicorn: in the foreground (`agents proxy serve`) or on a port
of its own beside a command (`agents proxy run`), started and stopped deterministically.

The listening socket is bound before the server starts, so its port is known at once and a
client that connects before the server is ready waits in the socket's backlog: no polling.
Access logs are off: a request line is never written anywhere by the proxy.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from types import TracebackType

import uvicorn
from starlette.types import ASGIApp

LOOPBACK_NAMES = frozenset({"localhost"})


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on `host`:`port` (0: a free port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: a response's head and body go out at once, not 40 ms
    # apart (Nagle's algorithm against the client's delayed acknowledgement).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(socket.SOMAXCONN)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(False)
    return sock


def _config(app: ASGIApp) -> uvicorn.Config:
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")


def serve_forever(app: ASGIApp, sock: socket.socket) -> None:
    """Serve `app` on `sock` until interrupted (Ctrl-C, SIGTERM)."""
    uvicorn.Server(_config(app)).run(sockets=[sock])


class BackgroundServer:
    """`app` served on a socket of its own, in a thread, for as long as the `with` block
    lasts. `url` is known as soon as the block starts."""

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> None:
        self._socket = bound_socket(host, port)
        self._server = uvicorn.Server(_config(app))
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, daemon=True
        )
        address = self._socket.getsockname()
        self.host, self.port = str(address[0]), int(address[1])
        shown = f"[{self.host}]" if ":" in self.host else self.host
        self.url = f"http://{shown}:{self.port}"

    def __enter__(self) -> BackgroundServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop accepting, finish what is in flight, and wait for the thread to end."""
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join()
        self._socket.close()
