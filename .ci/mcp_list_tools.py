"""Start `AGENTS mcp serve` as an MCP client would (the SDK's stdio client), list its tools, call
one, and print the tool names: what `.ci/check-wheel` runs against the installed wheel.

Usage: python mcp_list_tools.py AGENTS_EXECUTABLE  (exit 1, saying why, if anything is missing)
"""

from __future__ import annotations

import sys
import tempfile

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import TextContent

EXPECTED = {"count_tokens", "compress", "compact_transcript", "plan_status"}


async def _list(agents: str, home: str) -> list[str]:
    params = StdioServerParameters(
        command=agents, args=["mcp", "serve"], env={"CLEVERAGENTS_HOME": home}
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
        await client.initialize()
        names = sorted(tool.name for tool in (await client.list_tools()).tools)
        counted = await client.call_tool("count_tokens", {"text": "hello world"})
        [block] = counted.content
        answered = block.text if isinstance(block, TextContent) else repr(block)
        if counted.is_error or '"input_tokens": 2' not in answered:
            raise SystemExit(f"count_tokens answered {answered}")
        return names


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="mcp-list-tools-") as home:
        names = anyio.run(_list, sys.argv[1], home)
    missing = EXPECTED - set(names)
    if missing:
        raise SystemExit(f"tools missing from the MCP server: {', '.join(sorted(missing))}")
    print(f"{len(names)} MCP tools: {', '.join(names)}")


if __name__ == "__main__":
    main()
