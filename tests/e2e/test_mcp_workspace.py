"""`agents mcp serve --workspace DIR`: a file a tool reads (compact_transcript's path) must end
inside the workspace, opened race-free without following links, whatever the client asks; the
workspace is chosen like every command's (flag, then $CLEVERAGENTS_WORKSPACE, then
$CLOSEDLOOP_WORKDIR, then the current directory). Driven by the MCP SDK's own client."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.e2e.test_mcp_server import call, refused

pytestmark = pytest.mark.slow

CONVERSATION = {
    "messages": [
        {"role": "user", "content": "list the files"},
        {"role": "assistant", "content": "README.md and setup.py"},
    ]
}


def serve_in(
    workspace_arguments: list[str], env: dict[str, str], home: Path, scenario: object
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "cleveragents.cli", "mcp", "serve", *workspace_arguments],
        env={"CLEVERAGENTS_HOME": str(home), **env},
    )

    async def session() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            await scenario(client)  # type: ignore[operator]

    anyio.run(session)


@pytest.fixture
def layout(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace holding a session, and a secret file beside it (outside)."""
    workspace = tmp_path / "ws"
    (workspace / "logs").mkdir(parents=True)
    (workspace / "logs" / "session.json").write_text(json.dumps(CONVERSATION))
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(CONVERSATION))
    return workspace, outside


def test_paths_inside_are_read_and_every_way_out_is_refused(
    tmp_path: Path, layout: tuple[Path, Path]
) -> None:
    workspace, outside = layout
    (workspace / "link.json").symlink_to(outside)
    (workspace / "sibling").mkdir()

    async def scenario(client: ClientSession) -> None:
        for inside in ("logs/session.json", "sibling/../logs/session.json"):
            answer = await call(client, "compact_transcript", path=inside)
            assert answer["report"]["status"] in {"compacted", "not-needed"}
        absolute = str(workspace / "logs" / "session.json")
        assert (await call(client, "compact_transcript", path=absolute))["report"]
        for way_out in (str(outside), "../outside.json", "/etc/passwd", "logs/../../outside.json"):
            message = await refused(client, "compact_transcript", path=way_out)
            assert "outside" in message or "no readable file" in message, (way_out, message)
        message = await refused(client, "compact_transcript", path="link.json")
        assert "symbolic link" in message

    serve_in(["--workspace", str(workspace)], {}, tmp_path / "home", scenario)


@pytest.mark.parametrize("variable", ["CLEVERAGENTS_WORKSPACE", "CLOSEDLOOP_WORKDIR"])
def test_the_workspace_comes_from_the_environment_too(
    tmp_path: Path, layout: tuple[Path, Path], variable: str
) -> None:
    workspace, outside = layout

    async def scenario(client: ClientSession) -> None:
        assert await call(client, "compact_transcript", path="logs/session.json")
        await refused(client, "compact_transcript", path=str(outside))

    serve_in([], {variable: str(workspace)}, tmp_path / "home", scenario)


def test_a_missing_workspace_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cleveragents.cli", "mcp", "serve", "--workspace", "nowhere"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "CLEVERAGENTS_HOME": str(tmp_path / "home")},
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert result.returncode == 2
    assert "no folder nowhere" in result.stderr
    assert "Traceback" not in result.stderr
