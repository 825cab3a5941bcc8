"""The provider's own usage figures, read from a response as it passes through the proxy.

A response is read as it is forwarded, chunk by chunk, never held back: a JSON body is kept
(up to a bound) and read at its end; a stream of server-sent events is read event by event,
and only the events that carry usage are parsed. Anthropic sends its input and cache figures
in ``message_start`` and the output in ``message_delta``; OpenAI Chat Completions in a last
chunk (when the client asked for it with ``stream_options``); Responses in
``response.completed``. The figures are the provider's, normalized by the metrics service's
`normalize_usage`; a response without them has no usage (never zeros).
"""

from __future__ import annotations

import json
from typing import Any

from cleveragents.application.services.metrics.usage_normalization import normalize_usage
from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.usage import TokenUsage

MAX_BODY_BYTES = 16 << 20
"""A JSON body longer than this is forwarded without its usage being read."""

MAX_EVENT_LINE_BYTES = 4 << 20
"""An event line longer than this is skipped (usage events are small)."""


class UsageTap:
    """Collects a response's usage from its bytes (see the module docstring)."""

    def __init__(self, api: ProviderApi, *, streamed: bool) -> None:
        self._api = api
        self._streamed = streamed
        self._body = bytearray()
        self._pending = b""
        self._figures: dict[str, Any] = {}
        self._overflow = False

    def feed(self, chunk: bytes) -> None:
        """The next bytes of the response body."""
        if not self._streamed:
            if len(self._body) + len(chunk) > MAX_BODY_BYTES:
                self._overflow = True
            if not self._overflow:
                self._body += chunk
            return
        data = self._pending + chunk
        lines = data.split(b"\n")
        self._pending = lines.pop()
        if len(self._pending) > MAX_EVENT_LINE_BYTES:
            self._pending = b""
        for line in lines:
            if line.startswith(b"data:") and b'"usage"' in line:
                self._merge(_parsed(line[5:]))

    def usage(self) -> TokenUsage | None:
        """The usage the response carried, once it has all been fed."""
        if not self._streamed and not self._overflow and self._body:
            self._merge(_parsed(bytes(self._body)))
            self._body.clear()
        if self._streamed and self._pending.startswith(b"data:"):
            self._merge(_parsed(self._pending[5:]))
            self._pending = b""
        if not self._figures:
            return None
        try:
            return normalize_usage(self._figures, self._api.usage_format)
        except InvalidInputError:
            return None

    def _merge(self, document: Any) -> None:
        usage = _usage_of(document)
        if usage:
            # Later events repeat or complete earlier ones (an output count that grows).
            self._figures.update({key: value for key, value in usage.items() if value is not None})


def _parsed(data: bytes) -> Any:
    try:
        return json.loads(data)
    except ValueError:
        return None


def _usage_of(document: Any) -> dict[str, Any] | None:
    if not isinstance(document, dict):
        return None
    for holder in (document, document.get("message"), document.get("response")):
        if isinstance(holder, dict) and isinstance(holder.get("usage"), dict):
            return dict(holder["usage"])
    return None
