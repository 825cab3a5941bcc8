"""The MCP server over streamable HTTP (``agents mcp serve --http 127.0.0.1:PORT``), for clients
that reach a server by URL rather than by spawning it.

The server has no authentication of its own, so it listens on a loopback address only: the
tools read the workspace and the store, which nothing beyond this machine should reach. The
endpoint is ``http://HOST:PORT/mcp``.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

from cleveragents.domain.errors import InvalidInputError
from cleveragents.mcp.server import build_server

if TYPE_CHECKING:
    from cleveragents.container import Container

ENDPOINT_PATH = "/mcp"
_LOOPBACK_NAMES = {"localhost"}


def parse_listen_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a host and a port, or `InvalidInputError`:
    the host must be a loopback address, the port a number from 1 to 65535."""
    host, colon, port_text = address.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host or not port_text.isdigit():
        raise InvalidInputError(f"give HOST:PORT, e.g. 127.0.0.1:8765, not {address!r}")
    port = int(port_text)
    if not 1 <= port <= 65535:
        raise InvalidInputError(f"port {port} is not from 1 to 65535")
    if not _is_loopback(host):
        raise InvalidInputError(
            f"{host} is not a loopback address; the MCP server has no authentication, so it "
            "listens on 127.0.0.1, ::1 or localhost only"
        )
    return host, port


def _is_loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_http(container: Container, workspace: str, host: str, port: int) -> None:
    """Serve the tools at ``http://host:port/mcp`` until interrupted."""
    build_server(container, workspace).run(
        "streamable-http", host=host, port=port, streamable_http_path=ENDPOINT_PATH
    )
