"""Each forwarded request and its response's usage, recorded; their figures summed.

An exchange is recorded as one event (`proxy_exchange`) in the store the proxy runs with, so
`agents proxy stats` reads it from another process, after the proxy stopped. The event holds
figures only: no header, no message, no credential.
"""

from __future__ import annotations

from typing import Any

from cleveragents.application.ports.events import EventSink
from cleveragents.application.services.proxy.proxy_requests import ForwardedRequest
from cleveragents.domain.proxy_stats import ConversationStats, ProxyStats
from cleveragents.domain.usage import TokenUsage

PROXY_EXCHANGE = "proxy_exchange"
TOTAL = "total"


class ProxyExchanges:
    """Records exchanges and sums them per conversation (see the module docstring)."""

    def __init__(self, events: EventSink) -> None:
        self._events = events

    def record(self, request: ForwardedRequest, status: int, usage: TokenUsage | None) -> None:
        """One request forwarded, the status it got, and the usage its response reported."""
        payload: dict[str, Any] = {
            "conversation": request.conversation,
            "api": request.api.value,
            "model": request.model,
            "status": status,
            "tokens_received": request.tokens_received,
            "tokens_forwarded": request.tokens_forwarded,
            "tool_outputs_stored": request.tool_outputs_stored,
            "credentials_redacted": request.credentials_redacted,
            "compacted": request.compacted,
            "usage": None,
        }
        if usage is not None:
            payload["usage"] = {
                "input_tokens": usage.input_tokens,
                "cache_read_tokens": usage.cache_read_tokens,
                "cache_write_tokens": usage.cache_write_tokens,
                "output_tokens": usage.output_tokens,
            }
        self._events.emit(PROXY_EXCHANGE, payload)

    def stats(self) -> ProxyStats:
        """Every conversation's figures, and the total."""
        by_conversation: dict[str, ConversationStats] = {}
        for event in self._events.recorded(PROXY_EXCHANGE):
            one = _exchange(event.payload)
            if one is None:
                continue
            known = by_conversation.get(one.conversation)
            by_conversation[one.conversation] = one if known is None else known.plus(one)
        conversations = sorted(
            by_conversation.values(), key=lambda stats: (-stats.tokens_received, stats.conversation)
        )
        total = ConversationStats(TOTAL, api="")
        for stats in conversations:
            total = total.plus(stats)
        return ProxyStats(tuple(conversations), total)


def _exchange(payload: dict[str, Any]) -> ConversationStats | None:
    conversation = payload.get("conversation")
    if not isinstance(conversation, str):
        return None
    usage = payload.get("usage")
    usage = usage if isinstance(usage, dict) else None

    def number(key: str) -> int:
        value = payload.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def reported(key: str) -> int | None:
        value = usage.get(key) if usage is not None else None
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    model = payload.get("model")
    return ConversationStats(
        conversation,
        api=str(payload.get("api", "")),
        model=model if isinstance(model, str) else None,
        requests=1,
        tokens_received=number("tokens_received"),
        tokens_forwarded=number("tokens_forwarded"),
        tool_outputs_stored=number("tool_outputs_stored"),
        credentials_redacted=number("credentials_redacted"),
        compactions=1 if payload.get("compacted") is True else 0,
        responses_with_usage=1 if usage is not None else 0,
        input_tokens=reported("input_tokens"),
        cache_read_tokens=reported("cache_read_tokens"),
        cache_write_tokens=reported("cache_write_tokens"),
        output_tokens=reported("output_tokens"),
    )
