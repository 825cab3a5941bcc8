"""The proxy's engine, built of the container's parts (the artifact store, the compressor,
the tokenizer, the secret scanner, the compaction, the model catalog, the event log)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cleveragents.application.services.proxy.proxy_engine import ProxyEngine, ProxySettings
    from cleveragents.application.services.proxy.proxy_exchanges import ProxyExchanges
    from cleveragents.container.wiring import Container


def proxy_engine(container: Container, settings: ProxySettings) -> ProxyEngine:
    """The engine `agents proxy serve` runs with, for `settings`; the store is the
    container's (its database opened on first use)."""
    from cleveragents.application.services.proxy.proxy_engine import build_proxy_engine

    project_policy = None
    if settings.project is not None:  # an unknown project: ProjectNotFoundError, one line
        project_policy = container.project_service().get(settings.project).policy
    return build_proxy_engine(
        settings,
        store=container.artifact_store(),
        compressor=container.artifact_compressor_service(),
        counter=container.token_counter(),
        scanner=container.secret_scanner(),
        compactor=container.transcript_compactor(),
        catalog=container.model_catalog(),
        clock=container.clock(),
        events=container.event_sink(),
        project_policy=project_policy,
    )


def proxy_exchanges(container: Container) -> ProxyExchanges:
    """The recorded exchanges alone, for `agents proxy stats` (no store of artifacts)."""
    from cleveragents.application.services.proxy.proxy_exchanges import ProxyExchanges

    return ProxyExchanges(container.event_sink())
