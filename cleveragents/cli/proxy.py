"""`agents proxy serve|stats|run`: the engine in front of an unchanged agent, as a local proxy
for the Anthropic and OpenAI APIs (`agents docs proxy`)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from cleveragents.cli.command_classes import AgentsTyper
from cleveragents.cli.output import JsonFlag, emit_json, print_table
from cleveragents.cli.state import state
from cleveragents.container.proxy_engine import proxy_engine, proxy_exchanges
from cleveragents.domain.errors import InvalidInputError

if TYPE_CHECKING:
    from cleveragents.application.services.proxy.proxy_engine import ProxySettings
    from cleveragents.container import Container
    from cleveragents.proxy.app import Upstreams

app = AgentsTyper(
    help="A local proxy for the Anthropic and OpenAI APIs: credentials redacted, large tool "
    "outputs stored and condensed, long conversations compacted, usage recorded.",
    no_args_is_help=True,
)

TOKEN_VARIABLE = "CLEVERAGENTS_PROXY_TOKEN"


class ProxyExtraMissingError(InvalidInputError):
    """Starlette, uvicorn or httpx is not installed."""

    def __init__(self, package: str | None) -> None:
        super().__init__(
            f"the proxy needs the proxy extra ({package or 'starlette, uvicorn, httpx'} is "
            "missing): pip install -e '.[proxy]' in a checkout, or "
            "'dist/cleveragents-VERSION-py3-none-any.whl[proxy]'"
        )


Host = Annotated[
    str,
    typer.Option(
        "--host",
        metavar="HOST",
        help="Address to listen on; one beyond this machine needs --allow-remote.",
    ),
]
Port = Annotated[int, typer.Option("--port", metavar="PORT", help="Port to listen on.")]
AnthropicUpstream = Annotated[
    str,
    typer.Option("--anthropic-upstream", metavar="URL", help="Where Anthropic requests go."),
]
OpenaiUpstream = Annotated[
    str, typer.Option("--openai-upstream", metavar="URL", help="Where OpenAI requests go.")
]
CompressOver = Annotated[
    int,
    typer.Option(
        "--compress-over",
        metavar="TOKENS",
        help="A tool output over this many tokens is stored and forwarded condensed.",
    ),
]
ToolBudget = Annotated[
    int,
    typer.Option(
        "--tool-budget", metavar="TOKENS", help="Tokens of a condensed tool output, at most."
    ),
]
ContextWindow = Annotated[
    int | None,
    typer.Option(
        "--context-window",
        metavar="TOKENS",
        help="The window to compact for, for every model (default: the model catalog's).",
    ),
]
ReserveTokens = Annotated[
    int | None,
    typer.Option(
        "--reserve-tokens",
        metavar="TOKENS",
        help="Tokens kept free for the answer: compact above the window less this.",
    ),
]
KeepRecentTokens = Annotated[
    int | None,
    typer.Option(
        "--keep-recent-tokens",
        metavar="TOKENS",
        help="Recent tokens a compaction keeps verbatim.",
    ),
]
ProjectOption = Annotated[
    str | None,
    typer.Option(
        "--project",
        metavar="NAME",
        help="Start from this project's context policy; store tool outputs under it.",
    ),
]
NoCompaction = Annotated[
    bool, typer.Option("--no-compaction", help="Forward every conversation whole.")
]


def _settings(
    compress_over: int,
    tool_budget: int,
    context_window: int | None,
    reserve_tokens: int | None,
    keep_recent_tokens: int | None,
    no_compaction: bool,
    project: str | None,
) -> ProxySettings:
    # Here, not at the top: the proxy's services: ~340 ms of CPU on `agents --help`.
    from cleveragents.application.services.proxy.proxy_engine import ProxySettings

    return ProxySettings(
        compress_over=compress_over,
        tool_budget=tool_budget,
        context_window=context_window,
        reserve_tokens=reserve_tokens,
        keep_recent_tokens=keep_recent_tokens,
        compaction=not no_compaction,
        project=project,
    )


def _require_extra() -> None:
    # Here, not at the top: the optional `proxy` extra, checked here.
    try:
        import httpx  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as missing:
        raise ProxyExtraMissingError(missing.name) from None


def _upstream(option: str, url: str) -> str:
    """`url` when it is an http(s) URL with a host; one line naming `option` otherwise."""
    # Here, not at the top: the optional `proxy` extra.
    import httpx

    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError):
        parsed = None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
        raise InvalidInputError(f"{option} {url!r} is not an http:// or https:// URL")
    return url


def _upstreams(anthropic_upstream: str, openai_upstream: str) -> Upstreams:
    # Here, not at the top: the proxy's web stack: ~540 ms of CPU on `agents --help`.
    from cleveragents.proxy.app import Upstreams

    return Upstreams(
        anthropic=_upstream("--anthropic-upstream", anthropic_upstream),
        openai=_upstream("--openai-upstream", openai_upstream),
    )


def _app(
    container: Container,
    settings: ProxySettings,
    upstreams: Upstreams,
    access_token: str | None,
) -> object:
    # Here, not at the top: the proxy's web stack: ~540 ms of CPU on `agents --help`.
    from cleveragents.proxy.app import build_app

    return build_app(proxy_engine(container, settings), upstreams, access_token=access_token)


@app.command("serve")
def serve(
    ctx: typer.Context,
    host: Host = "127.0.0.1",
    port: Port = 8787,
    anthropic_upstream: AnthropicUpstream = "https://api.anthropic.com",
    openai_upstream: OpenaiUpstream = "https://api.openai.com",
    compress_over: CompressOver = 2000,
    tool_budget: ToolBudget = 1000,
    context_window: ContextWindow = None,
    reserve_tokens: ReserveTokens = None,
    keep_recent_tokens: KeepRecentTokens = None,
    no_compaction: NoCompaction = False,
    project: ProjectOption = None,
    allow_remote: Annotated[
        bool,
        typer.Option(
            "--allow-remote",
            help=f"Listen beyond this machine; clients must send ${TOKEN_VARIABLE}'s token "
            "in the x-cleveragents-proxy-token header.",
        ),
    ] = False,
) -> None:
    """Serve the proxy until interrupted.

    POST /v1/messages (Anthropic), /v1/chat/completions and /v1/responses (OpenAI), streamed
    or not, are transformed and forwarded; every other path is forwarded unchanged; GET
    /healthz answers ok. Credentials are redacted from every message, tool outputs over
    --compress-over tokens are stored in the artifact store and forwarded as a view of at most
    --tool-budget tokens that names their handle, and a conversation that would not fit the
    model's window is compacted once and the cut reused. The client's headers pass through
    and are never logged or stored.

    Example: agents proxy serve --port 8787, then ANTHROPIC_BASE_URL=http://127.0.0.1:8787
    """
    _require_extra()
    settings = _settings(
        compress_over,
        tool_budget,
        context_window,
        reserve_tokens,
        keep_recent_tokens,
        no_compaction,
        project,
    )
    upstreams = _upstreams(anthropic_upstream, openai_upstream)
    access_token = _access_token(host, allow_remote)
    # Here, not at the top: the proxy's server: ~65 ms of CPU on `agents --help`.
    from cleveragents.proxy.server import bound_socket, serve_forever

    try:
        sock = bound_socket(host, port)
    except OSError as error:
        raise InvalidInputError(
            f"cannot listen on {host}:{port}: {error.strerror or error}"
        ) from None
    container = state(ctx).container()
    proxy = _app(container, settings, upstreams, access_token)
    print(f"proxy listening on http://{host}:{sock.getsockname()[1]}", file=sys.stderr)
    try:
        serve_forever(proxy, sock)  # type: ignore[arg-type]
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def _access_token(host: str, allow_remote: bool) -> str | None:
    # Here, not at the top: the proxy's server: ~65 ms of CPU on `agents --help`.
    from cleveragents.proxy.server import is_loopback

    if is_loopback(host):
        return None
    if not allow_remote:
        raise InvalidInputError(
            f"--host {host} is reachable from other machines: pass --allow-remote, with an "
            f"access token in ${TOKEN_VARIABLE}, or listen on 127.0.0.1"
        )
    token = os.environ.get(TOKEN_VARIABLE, "")
    if len(token) < 16:
        raise InvalidInputError(
            f"--allow-remote needs an access token of at least 16 characters in "
            f"${TOKEN_VARIABLE}; clients send it in the x-cleveragents-proxy-token header"
        )
    return token


@app.command("stats")
def stats(ctx: typer.Context, as_json: JsonFlag = False) -> None:
    """Show what the proxy did, per conversation and in total.

    Tokens received from the client and forwarded (counted by the proxy's tokenizer), tool
    outputs stored, credentials redacted, compactions, and the provider's own figures from
    its responses: input, cache reads, cache writes and output (none is inferred; a figure no
    response reported shows as -).

    Example: agents proxy stats --json
    """
    figures = proxy_exchanges(state(ctx).container()).stats()
    if as_json:
        emit_json(figures.as_dict())
        return
    columns = (
        "conversation",
        "model",
        "requests",
        "received",
        "forwarded",
        "outputs stored",
        "credentials",
        "compactions",
        "input",
        "cache read",
        "cache write",
        "output",
    )
    rows = [
        (
            each.conversation,
            each.model,
            each.requests,
            each.tokens_received,
            each.tokens_forwarded,
            each.tool_outputs_stored,
            each.credentials_redacted,
            each.compactions,
            each.input_tokens,
            each.cache_read_tokens,
            each.cache_write_tokens,
            each.output_tokens,
        )
        for each in (*figures.conversations, figures.total)
    ]
    print_table("Proxy", columns, rows)


@app.command(
    "run",
    context_settings={"allow_interspersed_args": False, "ignore_unknown_options": True},
)
def run(
    ctx: typer.Context,
    command: Annotated[
        list[str], typer.Argument(metavar="COMMAND [ARGS]...", help="The command to run.")
    ],
    anthropic_upstream: AnthropicUpstream = "https://api.anthropic.com",
    openai_upstream: OpenaiUpstream = "https://api.openai.com",
    compress_over: CompressOver = 2000,
    tool_budget: ToolBudget = 1000,
    context_window: ContextWindow = None,
    reserve_tokens: ReserveTokens = None,
    keep_recent_tokens: KeepRecentTokens = None,
    no_compaction: NoCompaction = False,
    project: ProjectOption = None,
) -> None:
    """Run a command with the proxy in front of it, and pass on its exit code.

    The proxy listens on a free port of 127.0.0.1 while the command runs, with
    ANTHROPIC_BASE_URL and OPENAI_BASE_URL pointing at it; it stops when the command ends.

    Example: agents proxy run -- claude
    """
    _require_extra()
    settings = _settings(
        compress_over,
        tool_budget,
        context_window,
        reserve_tokens,
        keep_recent_tokens,
        no_compaction,
        project,
    )
    upstreams = _upstreams(anthropic_upstream, openai_upstream)
    # Here, not at the top: the proxy's server: ~65 ms of CPU on `agents --help`.
    from cleveragents.proxy.server import BackgroundServer

    container = state(ctx).container()
    proxy = _app(container, settings, upstreams, None)
    with BackgroundServer(proxy) as server:  # type: ignore[arg-type]
        environment = dict(os.environ)
        environment["ANTHROPIC_BASE_URL"] = server.url
        environment["OPENAI_BASE_URL"] = f"{server.url}/v1"
        try:
            completed = subprocess.run(command, env=environment, check=False)
        except FileNotFoundError:
            raise InvalidInputError(f"no such command: {command[0]}") from None
        except KeyboardInterrupt:
            raise typer.Exit(130) from None
    code = completed.returncode
    raise typer.Exit(128 - code if code < 0 else code)  # killed by a signal: as a shell says
