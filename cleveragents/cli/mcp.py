"""`agents mcp serve`: the engine offered to an agent as MCP tools, over stdio."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.inputs import LEGACY_WORKSPACE_ENV, WORKSPACE_ENV, workspace_root
from cleveragents.cli.output import EncodingOption
from cleveragents.cli.state import state
from cleveragents.container import build_container
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.vocabulary import DEFAULT_ENCODING

app = AgentsTyper(
    help="Serve the engine to an agent as Model Context Protocol (MCP) tools.",
    no_args_is_help=True,
)


@app.command("serve")
def serve(
    ctx: typer.Context,
    workspace: Annotated[
        str | None,
        typer.Option(
            "--workspace",
            "--workdir",
            metavar="DIR",
            help="The workspace: a path a tool takes (compact_transcript's path) must end "
            f"inside it, opened without following links (default: ${WORKSPACE_ENV}, else "
            f"${LEGACY_WORKSPACE_ENV}, else the current directory).",
        ),
    ] = None,
    http: Annotated[
        str | None,
        typer.Option(
            "--http",
            metavar="HOST:PORT",
            help="Serve over streamable HTTP at http://HOST:PORT/mcp instead of stdio; HOST "
            "must be a loopback address (127.0.0.1, ::1, localhost): the server has no "
            "authentication of its own.",
        ),
    ] = None,
    encoding: EncodingOption = DEFAULT_ENCODING,
) -> None:
    """Serve the engine's tools over stdio, or streamable HTTP with --http, until stopped.

    The tools store a tool's output and return a bounded preview with its id, read a range
    of a stored artifact, compress a text or a stored artifact to a token budget, count
    tokens, compact a transcript, show a plan's status and spawn a child plan with its
    skeleton. The store is the one --db names (else the home's); it is opened when a tool
    first needs it. A file a tool reads must end inside the workspace. Standard output
    carries the protocol only; failures are logged on standard error. `agents docs mcp` shows
    how to add the server to Claude Code, Claude Desktop and other clients.

    Example: claude mcp add cleveragents -- agents mcp serve

    Example: agents mcp serve --http 127.0.0.1:8765
    """
    # Here, not at the top: the MCP SDK and its web stack: ~1.1 s of CPU on `agents --help`.
    from cleveragents.mcp.server import serve_stdio

    root = workspace_root(workspace)
    if not os.path.isdir(root):
        raise typer.BadParameter(f"no folder {root}", param_hint="--workspace")
    listen = _listen_address(http) if http is not None else None
    cli_state = state(ctx)
    container = build_container(cli_state.database_url, encoding=encoding)
    try:
        if listen is None:
            serve_stdio(container, os.path.abspath(root))
        else:
            from cleveragents.mcp.http_transport import ENDPOINT_PATH, serve_http

            host, port = listen
            shown = f"[{host}]" if ":" in host else host
            typer.echo(f"serving MCP at http://{shown}:{port}{ENDPOINT_PATH}", err=True)
            serve_http(container, os.path.abspath(root), host, port)
    except KeyboardInterrupt:  # Ctrl-C in a terminal: stop quietly, as the client would
        raise typer.Exit(130) from None
    finally:
        container.shutdown_resources()  # disposes the engine if a tool opened the store


def _listen_address(address: str) -> tuple[str, int]:
    # Here, not at the top: the MCP SDK and its web stack: ~1.1 s of CPU on `agents --help`.
    from cleveragents.mcp.http_transport import parse_listen_address

    try:
        return parse_listen_address(address)
    except InvalidInputError as error:
        raise typer.BadParameter(str(error), param_hint="--http") from None
