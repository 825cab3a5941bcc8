"""The proxy under test: a real store, the real engine and web app on uvicorn on 127.0.0.1, in
front of the local test upstream (`proxy_upstream`). Both servers listen on sockets bound
before they start, and stop when the `with` block ends (in-flight work finished first)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cleveragents.application.services.proxy.proxy_engine import ProxyEngine, ProxySettings
from cleveragents.container import Container, build_container
from cleveragents.container.proxy_engine import proxy_engine
from cleveragents.proxy.app import MAX_REQUEST_BYTES, Upstreams, build_app
from cleveragents.proxy.server import BackgroundServer
from tests.proxy_upstream import ProviderStandIn


@dataclass
class RunningProxy:
    url: str
    upstream: ProviderStandIn
    engine: ProxyEngine
    container: Container
    server: BackgroundServer

    def stop(self) -> None:
        """Stop the proxy (its exchanges are recorded by then)."""
        self.server.stop()


@contextmanager
def local_upstream() -> Iterator[tuple[ProviderStandIn, str]]:
    upstream = ProviderStandIn()
    with BackgroundServer(upstream.app()) as server:
        yield upstream, server.url


@contextmanager
def running_proxy(
    tmp_path: Path,
    settings: ProxySettings | None = None,
    *,
    access_token: str | None = None,
    engine: ProxyEngine | None = None,
    max_request_bytes: int | None = None,
) -> Iterator[RunningProxy]:
    container = build_container(f"sqlite:///{tmp_path / 'proxy.db'}", home=tmp_path / "home")
    try:
        with local_upstream() as (upstream, upstream_url):
            used = engine or proxy_engine(container, settings or ProxySettings())
            app = build_app(
                used,
                Upstreams(anthropic=upstream_url, openai=upstream_url),
                access_token=access_token,
                max_request_bytes=max_request_bytes or MAX_REQUEST_BYTES,
            )
            with BackgroundServer(app) as server:
                yield RunningProxy(server.url, upstream, used, container, server)
    finally:
        container.store().dispose()
