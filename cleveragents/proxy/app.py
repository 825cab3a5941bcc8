"""The proxy's web app: provider requests in, transformed, forwarded upstream, answers back.

A driving adapter, thin: the transform, the recording and the figures are the proxy service's
(`application/services/proxy`); this module only speaks HTTP. Requests to the three APIs the
proxy knows are transformed; every other path is forwarded unchanged. Headers pass through as
they came (the client's key, ``anthropic-version``, ``anthropic-beta``...) but for the
hop-by-hop ones, and are never logged or recorded. An upstream error comes back with its own
status and body; a stream comes back chunk by chunk as the upstream sends it.
"""

from __future__ import annotations

import hmac
import json
import logging
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial

import anyio.to_thread
import httpx
from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.application.services.proxy.proxy_engine import ProxyEngine
from cleveragents.application.services.proxy.proxy_requests import (
    ForwardedRequest,
    InvalidProxyRequestError,
    ProxyTransformError,
)
from cleveragents.application.services.proxy.usage_reading import UsageTap

_log = logging.getLogger(__name__)

ACCESS_TOKEN_HEADER = "x-cleveragents-proxy-token"
"""The header a client sends the access token in when the proxy listens beyond loopback."""

DEFAULT_ANTHROPIC_UPSTREAM = "https://api.anthropic.com"
DEFAULT_OPENAI_UPSTREAM = "https://api.openai.com"

# Headers of one connection, not of the request (RFC 9110, 7.6.1), and those the proxy sets
# itself (the body's length changes with the transform; the body is read decoded).
_NOT_FORWARDED = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
        "accept-encoding",
        ACCESS_TOKEN_HEADER,
    }
)
_NOT_RETURNED = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "content-length",
    }
)
MAX_REQUEST_BYTES = 64 << 20
"""A request to a transformed API larger than this is refused (413): the proxy reads it whole
to transform it, and the providers' own limits are far lower. Other paths stream through."""

INLINE_NEW_CHARACTERS = 16_384
"""A request with at most this much new message text is transformed on the event loop."""

_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]


@dataclass(frozen=True, slots=True)
class Upstreams:
    """Where each provider's requests go: a base URL, the client's path appended."""

    anthropic: str = DEFAULT_ANTHROPIC_UPSTREAM
    openai: str = DEFAULT_OPENAI_UPSTREAM

    def for_request(self, api: ProviderApi | None, path: str, headers: dict[str, str]) -> str:
        """The base URL of the provider a request is for: its API's, else Anthropic's when
        it carries Anthropic's headers (``/v1/messages/count_tokens``, ``/v1/models`` asked
        by an Anthropic client), else OpenAI's."""
        if api is not None:
            return self.anthropic if api.provider == "anthropic" else self.openai
        if path.startswith("/v1/messages") or "anthropic-version" in headers:
            return self.anthropic
        if "x-api-key" in headers:
            return self.anthropic
        return self.openai


def build_app(
    engine: ProxyEngine,
    upstreams: Upstreams,
    *,
    access_token: str | None = None,
    client: httpx.AsyncClient | None = None,
    max_request_bytes: int = MAX_REQUEST_BYTES,
) -> Starlette:
    """The proxy's ASGI app. `access_token`, when set, must come in every request's
    ``x-cleveragents-proxy-token`` header. `client` is the upstream HTTP client (one is made
    for the app's lifetime when None). A request to a transformed API over
    `max_request_bytes` is refused."""
    state: dict[str, httpx.AsyncClient] = {}

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        owned = client is None
        state["client"] = client or httpx.AsyncClient(
            timeout=httpx.Timeout(connect=30.0, read=600.0, write=600.0, pool=30.0),
            follow_redirects=False,
            # A request's head and body go out at once, not held for an acknowledgement.
            transport=httpx.AsyncHTTPTransport(
                socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
            ),
        )
        try:
            yield
        finally:
            if owned:
                await state["client"].aclose()

    async def healthz(_request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def forward(request: Request) -> Response:
        if access_token is not None and not _token_matches(request, access_token):
            return _error(
                None, 401, f"this proxy needs its access token in the {ACCESS_TOKEN_HEADER} header"
            )
        return await _forwarded(request, engine, upstreams, state["client"], max_request_bytes)

    routes = [
        Route("/healthz", healthz, methods=["GET"]),
        Route("/{path:path}", forward, methods=_METHODS),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _forwarded(
    request: Request,
    engine: ProxyEngine,
    upstreams: Upstreams,
    client: httpx.AsyncClient,
    max_request_bytes: int,
) -> Response:
    path = request.url.path
    api = ProviderApi.for_path(request.method, path)
    body = _passed_through_body(request)
    forwarded: ForwardedRequest | None = None
    if api is not None:
        body = await _bounded_body(request, max_request_bytes)
        if len(body) > max_request_bytes:
            return _error(api, 413, f"the request is over {max_request_bytes:,} bytes")
        try:
            forwarded = await _transformed(engine, api, body)
        except InvalidProxyRequestError as error:
            return _error(api, 400, str(error))
        except ProxyTransformError as error:
            return _error(api, 502, str(error))
        body = forwarded.body
    headers = {key.lower(): value for key, value in request.headers.items()}
    base = upstreams.for_request(api, path, headers)
    query = request.url.query
    url = base.rstrip("/") + path + (f"?{query}" if query else "")
    outgoing = [
        (key, value)
        for key, value in request.headers.raw
        if key.decode("latin-1").lower() not in _NOT_FORWARDED
    ]
    outgoing.append((b"accept-encoding", b"identity"))
    length = request.headers.get("content-length")
    if api is None and length is not None:  # a body streamed through keeps its length
        outgoing.append((b"content-length", length.encode("latin-1")))
    upstream_request = client.build_request(request.method, url, headers=outgoing, content=body)
    try:
        upstream = await client.send(upstream_request, stream=True)
    except httpx.HTTPError as error:
        host = httpx.URL(base).host
        return _error(
            api, 502, f"the upstream {host} could not be reached ({type(error).__name__})"
        )
    content_type = upstream.headers.get("content-type", "")
    tap = (
        UsageTap(api, streamed="text/event-stream" in content_type)
        if api is not None and forwarded is not None
        else None
    )

    async def passed_on() -> AsyncIterator[bytes]:
        try:
            async for chunk in upstream.aiter_raw():
                if tap is not None:
                    tap.feed(chunk)
                yield chunk
        finally:
            await upstream.aclose()

    background = None
    if forwarded is not None and tap is not None:
        background = BackgroundTask(_record, engine, forwarded, upstream.status_code, tap)
    response = StreamingResponse(
        passed_on(), status_code=upstream.status_code, background=background
    )
    response.raw_headers = [
        (key, value)
        for key, value in upstream.headers.raw
        if key.decode("latin-1").lower() not in _NOT_RETURNED
    ]
    return response


async def _transformed(engine: ProxyEngine, api: ProviderApi, body: bytes) -> ForwardedRequest:
    """The request transformed: where it stands when little of it is new (a hand-off to a
    worker thread costs more than such a transform), else in a worker thread, so that other
    requests' streams keep flowing while it runs."""
    requests = engine.requests
    read = requests.read(api, body)
    if requests.new_text(read) <= INLINE_NEW_CHARACTERS:
        return requests.forwarded_read(api, read)
    return await anyio.to_thread.run_sync(requests.forwarded_read, api, read)


def _passed_through_body(request: Request) -> bytes | AsyncIterator[bytes]:
    """A body forwarded as it comes (streamed), or none when the request has none."""
    if "content-length" in request.headers or "transfer-encoding" in request.headers:
        return request.stream()
    return b""


async def _bounded_body(request: Request, limit: int) -> bytes:
    """The body, read until it is over `limit` (then what was read: the caller refuses it)."""
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            break
    return bytes(data)


async def _record(
    engine: ProxyEngine, forwarded: ForwardedRequest, status: int, tap: UsageTap
) -> None:
    """The exchange recorded once its answer went out (off the event loop: a database). A
    store that cannot take it costs the figures, never the answer."""
    try:
        await anyio.to_thread.run_sync(
            partial(engine.exchanges.record, forwarded, status, tap.usage())
        )
    except Exception as error:  # the answer went out already: say so, carry on
        _log.warning("an exchange was not recorded (%s)", type(error).__name__)


def _token_matches(request: Request, access_token: str) -> bool:
    given = request.headers.get(ACCESS_TOKEN_HEADER, "")
    return hmac.compare_digest(given.encode("utf-8"), access_token.encode("utf-8"))


def _error(api: ProviderApi | None, status: int, message: str) -> Response:
    """One line, in the error shape of the API the client speaks (its SDK shows the text)."""
    line = " ".join(f"cleveragents proxy: {message}".split())
    if api is ProviderApi.ANTHROPIC_MESSAGES:
        document: dict[str, object] = {
            "type": "error",
            "error": {"type": "proxy_error", "message": line},
        }
    else:
        document = {"error": {"type": "proxy_error", "message": line, "code": None}}
    return Response(
        json.dumps(document, separators=(",", ":")) + "\n",
        status_code=status,
        media_type="application/json",
    )
