"""Models by name and counting what is sent, built without the dependency-injection container
(the tokenizer, the locked catalog and the transcript codec only): `agents models`,
`agents tokens count` and `count_tokens` need nothing else."""

from __future__ import annotations

import threading
from functools import cache
from typing import TYPE_CHECKING

from cleveragents.container import build_token_counter, factories
from cleveragents.domain.models import Provider

if TYPE_CHECKING:
    from cleveragents.application.ports.provider_token_count import ProviderTokenCount
    from cleveragents.application.ports.token_counter import TokenCounter
    from cleveragents.application.services.compaction.request_tokens import (
        RequestTokenCounting,
    )
    from cleveragents.application.services.counting.model_profiles import ModelProfiles

_lock = threading.Lock()


@cache
def build_model_profiles() -> ModelProfiles:
    """The model table joined with the locked catalog (built once per process)."""
    from cleveragents.application.services.counting.model_profiles import ModelProfiles

    return ModelProfiles(factories.model_catalog(), factories.clock())


def build_request_token_counting() -> RequestTokenCounting:
    """Counting texts and requests, with the offline tokenizers and, asked for exact counts of
    Claude models, Anthropic's counting endpoint."""
    from cleveragents.application.services.compaction.request_tokens import (
        RequestTokenCounting,
    )

    return RequestTokenCounting(factories.transcript_codec(), _counter, _provider_count)


_counters: dict[str, TokenCounter] = {}


def _counter(encoding: str) -> TokenCounter:
    with _lock:
        if encoding not in _counters:
            _counters[encoding] = build_token_counter(encoding)
        return _counters[encoding]


def _provider_count(provider: Provider) -> ProviderTokenCount | None:
    if provider is not Provider.ANTHROPIC:
        return None
    # Here, not at the top: Anthropic's counting adapter, only for a Claude model's exact count.
    from cleveragents.adapters.tokens.anthropic_count import AnthropicTokenCount

    return AnthropicTokenCount()
