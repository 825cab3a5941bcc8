"""Models by name for the MCP tools: what a tool's `model` makes of its settings, and the
container that counts with the model's encoding (on the server's own store)."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from cleveragents.api.models import model_settings as settings_for
from cleveragents.container import build_container
from cleveragents.domain.errors import CleverAgentsError
from cleveragents.mcp.engine import refuse

if TYPE_CHECKING:
    from cleveragents.application.services.counting.model_profiles import ModelSettings
    from cleveragents.container import Container
    from cleveragents.mcp.engine import Engine

_containers: dict[tuple[int, str], Container] = {}
_lock = threading.Lock()
_log = logging.getLogger(__name__)


def model_settings(
    model: str | None,
    context_window: int | None = None,
    reserve_tokens: int | None = None,
    *,
    request: object = None,
) -> ModelSettings:
    """The settings for `model` (None: those given, unchanged; or, given a `request`, its own
    "model" when the catalog knows it, else the server's log says it is not known); the values
    given win. An unknown `model` (or a catalog that fails its lock) is a tool error of one
    line."""
    try:
        settings, warnings = settings_for(
            request,
            model,
            encoding=None,
            context_window=context_window,
            reserve_tokens=reserve_tokens,
            request_model=request is not None,
        )
    except CleverAgentsError as error:
        raise refuse(str(error)) from error
    for warning in warnings:
        _log.warning(warning)
    return settings


def container_for(engine: Engine, encoding: str | None) -> Container:
    """The server's container, or one on the same store counting with `encoding`."""
    container = engine.container
    if encoding is None or encoding == container.config.encoding():
        return container
    key = (id(container), encoding)
    with _lock:
        if key not in _containers:
            _containers[key] = build_container(
                container.config.database_url(), home=container.config.home(), encoding=encoding
            )
        return _containers[key]
