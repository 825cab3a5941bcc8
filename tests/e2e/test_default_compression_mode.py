"""Smart is the default mode in every driver: the CLI, the MCP server (through the SDK's own
client) and the Python API keep a long log's last error and give a JSON document that parses,
with no --mode; --mode tiered still gives the documented tiers on request."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import TextContent

import cleveragents
from cleveragents.domain.artifact import DEFAULT_COMPRESSION_MODE, CompressionMode
from tests.e2e.cli_runner import run

BUDGET = 2000
FIELDS = ["artifact_name", "raw_tokens", "compacted_tokens", "truncated", "content"]
LAST_ERROR = "2026-03-01 09:59:59,999 ERROR [main] Job failed: disk quota exceeded on /data/7"


def long_log() -> str:
    """About 6,000 lines of a service log (far over the budget) with errors scattered through
    it and the one that matters last, where a head cut loses it."""
    generator = random.Random(20260301)
    lines = []
    for number in range(6000):
        level = "ERROR" if generator.random() < 0.01 else "INFO"
        lines.append(
            f"2026-03-01 09:{number // 100 % 60:02d}:{number % 60:02d},{number % 1000:03d} "
            f"{level} [worker-{generator.randrange(16)}] block blk_{generator.getrandbits(40)} "
            f"replicated to {generator.randrange(256)}.{generator.randrange(256)}.0.1"
        )
    lines.append(LAST_ERROR)
    lines.append("2026-03-01 10:00:00,000 INFO [main] shutting down")
    return "\n".join(lines) + "\n"


def long_json() -> str:
    generator = random.Random(7)
    records = [
        {
            "id": number,
            "name": f"item-{generator.getrandbits(32):08x}",
            "tags": [f"t{generator.randrange(50)}" for _ in range(4)],
            "nested": {"score": generator.random(), "ok": number % 3 == 0},
        }
        for number in range(3000)
    ]
    return json.dumps({"kind": "inventory", "records": records}, indent=2)


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "build.log").write_text(long_log(), encoding="utf-8")
    (folder / "response.json").write_text(long_json(), encoding="utf-8")
    return folder


def check(result: dict[str, Any], kind: str) -> None:
    """What the default must give: the five fields, in the budget, cut, and what matters."""
    assert list(result) == FIELDS
    assert result["compacted_tokens"] <= BUDGET
    assert result["raw_tokens"] > BUDGET * 5
    assert result["truncated"] is True
    if kind == "log":
        assert LAST_ERROR in result["content"].splitlines()
    else:
        json.loads(result["content"])


def test_the_default_is_smart_and_defined_once() -> None:
    assert DEFAULT_COMPRESSION_MODE is CompressionMode.SMART


@pytest.mark.parametrize(("name", "kind"), [("build.log", "log"), ("response.json", "json")])
def test_cli_default(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, name: str, kind: str
) -> None:
    result = run(
        capsys,
        "artifact",
        "compress",
        name,
        "--budget",
        str(BUDGET),
        "--workdir",
        str(workspace),
    )
    assert result.exit_code == 0, result.stderr
    check(result.json(), kind)


def test_cli_tiered_on_request_is_the_documented_head_cut(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    """A budget far under a log's size: tier 3, the head, which the smart default avoids."""
    arguments = ["artifact", "compress", "build.log", "--budget", "300"]
    tiered = run(capsys, *arguments, "--workdir", str(workspace), "--mode", "tiered").json()
    smart = run(capsys, *arguments, "--workdir", str(workspace)).json()
    assert tiered["compacted_tokens"] <= 300
    assert tiered["content"] != smart["content"]
    assert LAST_ERROR in smart["content"]


@pytest.mark.parametrize(("name", "kind"), [("build.log", "log"), ("response.json", "json")])
def test_python_default(workspace: Path, name: str, kind: str) -> None:
    compressed = cleveragents.compress(workspace / name, BUDGET)
    check(compressed.artifact.model_dump(), kind)


@pytest.mark.slow
def test_mcp_default(home: Path, workspace: Path) -> None:
    """The real server over stdio, called by the SDK's client without a mode."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "cleveragents.cli", "mcp", "serve"],
        env={"CLEVERAGENTS_HOME": str(home)},
    )
    answers: dict[str, dict[str, Any]] = {}

    async def session() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            mode = tools["compress"].input_schema["properties"]["mode"]
            assert mode.get("default") == "smart"
            for name in ("build.log", "response.json"):
                text = (workspace / name).read_text(encoding="utf-8")
                called = await client.call_tool(
                    "compress", {"text": text, "name": name, "budget": BUDGET}
                )
                [block] = called.content
                assert isinstance(block, TextContent)
                assert not called.is_error, block.text
                assert called.structured_content is not None
                answers[name] = called.structured_content["result"]

    anyio.run(session)
    check(answers["build.log"], "log")
    check(answers["response.json"], "json")
