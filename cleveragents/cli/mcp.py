"""`agents mcp serve`: the engine offered to an agent as MCP tools, over stdio."""

from __future__ import annotations

import typer

from cleveragents.cli.output import EncodingOption
from cleveragents.cli.state import state

app = typer.Typer(
    help="Serve the engine to an agent as Model Context Protocol (MCP) tools.",
    no_args_is_help=True,
)


@app.command("serve")
def serve(ctx: typer.Context, encoding: EncodingOption = "cl100k_base") -> None:
    """Serve the engine's tools over stdio until the client closes the connection.

    The tools store a tool's output and return a bounded preview with its id, read a range
    of a stored artifact, compress a text or a stored artifact to a token budget, count
    tokens, compact a transcript, show a plan's status and spawn a child plan with its
    skeleton. The store is the one --db names (else the home's); it is opened when a tool
    first needs it. Standard output carries the protocol only; failures are logged on
    standard error. `agents docs mcp` shows how to add the server to Claude Code, Claude Desktop
    and other clients.

    Example: claude mcp add cleveragents -- agents mcp serve
    """
    from cleveragents.container import build_container
    from cleveragents.mcp.server import serve_stdio

    cli_state = state(ctx)
    container = build_container(cli_state.database_url, encoding=encoding)
    try:
        serve_stdio(container)
    except KeyboardInterrupt:  # Ctrl-C in a terminal: stop quietly, as the client would
        raise typer.Exit(130) from None
    finally:
        container.shutdown_resources()  # disposes the engine if a tool opened the store
