"""Each bound an MCP tool's schema states is the bound the tool itself checks: a value at the
bound is not refused for that argument, a value one step past it is refused, on one line naming
the argument. A schema that promised more than the tool takes (a 200-character label the store
refused at 189) or less than it takes would fail here. Driven in process by the SDK's client."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.client import Client
from mcp.types import TextContent

from cleveragents.container import build_container
from cleveragents.domain.output_labels import MAX_LABEL_CHARS
from cleveragents.mcp.server import build_server

CONVERSATION = {
    "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
}

# tool -> (the arguments a valid call needs, {argument: (at the bound, one step past it)})
Bounded = dict[str, tuple[object, object]]
CASES: dict[str, tuple[dict[str, Any], Bounded]] = {
    "store_output": (
        {"text": "ok\n", "label": "run"},
        {"label": ("x" * MAX_LABEL_CHARS, "x" * (MAX_LABEL_CHARS + 1))},
    ),
    "compress": ({"text": "hello world", "budget": 10}, {"budget": (1, 0)}),
    "compact_transcript": (
        {"transcript": CONVERSATION},
        {
            "summary_tokens": (100, 99),
            "reserve_tokens": (0, -1),
            "keep_recent_tokens": (1, 0),
            "context_window": (1_000_000_000_000, 1_000_000_000_001),
        },
    ),
}


def schema_bounds(tool: Any, argument: str) -> dict[str, Any]:
    schema: dict[str, Any] = tool.input_schema["properties"][argument]
    for alternative in schema.get("anyOf", []):
        schema = {**schema, **alternative}
    return schema


def text_of(result: Any) -> str:
    return " ".join(block.text for block in result.content if isinstance(block, TextContent))


def run(scenario: Callable[[Client, dict[str, Any]], Any], home: Path) -> None:
    async def session() -> None:
        server = build_server(build_container(home=home), workspace=str(home))
        async with Client(server) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            await scenario(client, tools)

    anyio.run(session)


@pytest.mark.parametrize("tool_name", sorted(CASES))
def test_the_schema_bound_is_the_tools_bound(tool_name: str, home: Path) -> None:
    valid, bounded = CASES[tool_name]

    async def scenario(client: Client, tools: dict[str, Any]) -> None:
        for argument, (at_bound, past_bound) in bounded.items():
            schema = schema_bounds(tools[tool_name], argument)
            stated = {
                key for key in schema if key in {"maxLength", "minLength", "maximum", "minimum"}
            }
            assert stated, f"{tool_name}.{argument} states no bound"
            # The value at the bound is the bound the schema states, to the unit.
            shown = len(at_bound) if isinstance(at_bound, str) else at_bound
            assert shown in {schema[key] for key in stated}, (tool_name, argument, schema)
            accepted = await client.call_tool(tool_name, {**valid, argument: at_bound})
            if accepted.is_error:  # refused for another reason, never for this argument
                assert argument not in text_of(accepted), (tool_name, argument, text_of(accepted))
            refused = await client.call_tool(tool_name, {**valid, argument: past_bound})
            assert refused.is_error, (tool_name, argument, past_bound)
            message = text_of(refused)
            assert argument in message, message
            assert "\n" not in message
            assert "input_value" not in message, message
            assert "[type=" not in message, message

    run(scenario, home)
