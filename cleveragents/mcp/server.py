"""The MCP server: the engine's tools, one module per group, over stdio.

Each tool is thin: it checks what only it can check (which of two arguments was given), asks
a service through the container, and shapes the answer. Nothing is built before a tool needs
it: listing the tools, or counting tokens, opens no database.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from mcp.server.mcpserver import MCPServer

from cleveragents import __version__
from cleveragents.mcp import (
    artifact_tools,
    budget_tools,
    compression_tools,
    gate_tools,
    plan_tools,
    transcript_tools,
)
from cleveragents.mcp.engine import Engine
from cleveragents.mcp.one_line_errors import OneLineErrors

if TYPE_CHECKING:
    from cleveragents.container import Container

INSTRUCTIONS = (
    "cleveragents keeps large tool output out of the context and fits what goes in to a token "
    "budget. store_output keeps an output and returns a bounded preview with its id; "
    "read_artifact reads any part of it back; compress fits a text or a stored artifact to a "
    "token budget; count_tokens counts exactly; compact_transcript folds a long conversation "
    "into a summary plus its recent turns; plan_status and spawn_child_plan manage plans and "
    "the skeleton of context a child plan inherits; gate checks context before it is "
    "delivered (credentials, missing output tails, summaries that omit unfinished work, "
    "artifact paths outside the workspace, unpriced cache figures); plan_context_budget "
    "predicts an implementation phase's token footprint before it starts."
)


def build_server(container: Container, workspace: str | None = None) -> MCPServer:
    """The server with every tool, each calling its service through `container`; a path a
    tool takes must end inside `workspace` (default: the current directory)."""
    server: MCPServer = MCPServer(
        name="cleveragents",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",  # stderr is the client's log: failures only, not each request
        middleware=[OneLineErrors()],
    )
    engine = Engine(container, workspace if workspace is not None else os.getcwd())
    groups = (artifact_tools, compression_tools, transcript_tools, plan_tools, gate_tools)
    for group in (*groups, budget_tools):
        group.register(server, engine)
    return server


def serve_stdio(container: Container, workspace: str | None = None) -> None:
    """Serve over standard input and output until the client closes the connection."""
    build_server(container, workspace).run("stdio")
