"""Exact token counts for Claude models through Anthropic's own counting endpoint
(``POST /v1/messages/count_tokens``), with the official ``anthropic`` SDK (the
``anthropic-count`` extra).

Used only when the user asks for an exact count: it sends the messages to Anthropic with the
user's credentials (``ANTHROPIC_API_KEY``, or whatever the SDK reads; ``ANTHROPIC_BASE_URL``
points it elsewhere, e.g. a gateway). Anthropic calls its figure an estimate that may differ
from a real request "by a small amount"; it is the provider's own, which is what exact means
here, and reports name the method.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from cleveragents.application.ports.provider_token_count import ProviderTokenCount
from cleveragents.domain.errors import TokenCountingError

TIMEOUT_SECONDS = 30.0
MAX_RETRIES = 1


class AnthropicTokenCount(ProviderTokenCount):
    """`ProviderTokenCount` over the SDK's ``messages.count_tokens``. `api_key` and
    `base_url` default to what the SDK reads from the environment."""

    def __init__(self, api_key: str | None = None, base_url: str | None = None) -> None:
        self._api_key = api_key
        self._base_url = base_url

    @property
    def method(self) -> str:
        return "Anthropic's count_tokens endpoint"

    def count_request(self, model: str, request: Mapping[str, Any]) -> int:
        # Here, not at the top: the optional `anthropic-count` extra (~1.8 s to import).
        try:
            import anthropic
        except ImportError as error:
            raise TokenCountingError(
                "exact counts for Claude models need the anthropic SDK: "
                "pip install 'cleveragents[anthropic-count]'"
            ) from error
        if not (self._api_key or os.environ.get("ANTHROPIC_API_KEY")):
            raise TokenCountingError(
                "exact counts for Claude models need Anthropic credentials: set ANTHROPIC_API_KEY"
            )
        try:
            client = anthropic.Anthropic(
                api_key=self._api_key,
                base_url=self._base_url,
                timeout=TIMEOUT_SECONDS,
                max_retries=MAX_RETRIES,
            )
        except anthropic.AnthropicError as error:  # no key anywhere
            raise TokenCountingError(
                "exact counts for Claude models need Anthropic credentials: set ANTHROPIC_API_KEY"
            ) from error
        fields = {key: request[key] for key in ("system", "tools") if request.get(key)}
        try:
            with client:
                result = client.messages.count_tokens(
                    model=model, messages=request["messages"], **fields
                )
        except anthropic.APIStatusError as error:
            raise TokenCountingError(
                f"Anthropic's count_tokens refused the request (HTTP {error.status_code}): "
                f"{_detail(error)}"
            ) from error
        except anthropic.APIError as error:  # connection, timeout, a malformed answer
            raise TokenCountingError(
                f"cannot reach Anthropic's count_tokens endpoint: {_detail(error)}"
            ) from error
        tokens = result.input_tokens
        if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 0:
            raise TokenCountingError("Anthropic's count_tokens answered no token count")
        return tokens


def _detail(error: Exception) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__
