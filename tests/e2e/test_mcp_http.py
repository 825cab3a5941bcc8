"""`agents mcp serve --http 127.0.0.1:PORT`: the same tools over streamable HTTP, reached with
the MCP SDK's own HTTP client; addresses beyond this machine are refused (no authentication)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.e2e.test_mcp_server import call, refused

pytestmark = pytest.mark.slow
READY_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    """A server spawned with --http; its URL once it accepts connections."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("hello")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "cleveragents.cli", "mcp", "serve", "--http", f"127.0.0.1:{port}"],
        cwd=workspace,
        env={**os.environ, "CLEVERAGENTS_HOME": str(tmp_path / "home")},
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        first_line = process.stderr.readline()  # printed once the address is checked
        assert f"serving MCP at http://127.0.0.1:{port}/mcp" in first_line, first_line
        _wait_until_listening(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)


def _wait_until_listening(port: int, process: subprocess.Popen[str]) -> None:
    # Readiness, not timing: connect until the socket accepts, or the process has died.
    with anyio.from_thread.start_blocking_portal() as portal:
        portal.call(_connect_until_accepted, port, process)


async def _connect_until_accepted(port: int, process: subprocess.Popen[str]) -> None:
    with anyio.fail_after(READY_SECONDS):
        while True:
            assert process.poll() is None, "the server exited before it listened"
            try:
                stream = await anyio.connect_tcp("127.0.0.1", port)
            except OSError:
                await anyio.sleep(0.05)
                continue
            await stream.aclose()
            return


def test_the_tools_answer_over_http(http_server: str) -> None:
    async def session() -> None:
        async with (
            streamable_http_client(http_server) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert {"store_output", "compress", "compact_transcript"} <= names
            counted = await call(client, "count_tokens", text="hello over http")
            assert counted["input_tokens"] > 0
            message = await refused(client, "compact_transcript", path="/etc/passwd")
            assert "outside" in message or "no readable file" in message

    anyio.run(session)


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("0.0.0.0:8765", "not a loopback address"),
        ("192.0.2.10:8765", "not a loopback address"),
        ("127.0.0.1:99999", "not from 1 to 65535"),
        ("8765", "give HOST:PORT"),
    ],
)
def test_an_address_beyond_this_machine_or_malformed_is_refused(
    tmp_path: Path, address: str, expected: str
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cleveragents.cli", "mcp", "serve", "--http", address],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "CLEVERAGENTS_HOME": str(tmp_path / "home")},
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert result.returncode == 2
    assert expected in result.stderr
    assert "Traceback" not in result.stderr
