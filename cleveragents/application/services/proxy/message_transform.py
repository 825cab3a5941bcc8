"""One message (or request field) as the proxy forwards it, remembered by its text.

A message's forwarded form depends on nothing but the message: its large tool outputs are
condensed (`tool_output_condensing`), then every credential in any of its strings (text, tool
inputs, tool results, thinking, a system prompt) is redacted by the compaction's redaction,
which scans each string with its key name before it. Ids, names and the JSON's shape stay.

An agent resends its whole conversation on every request; each message is transformed once
and then found by its text as the client sent it, with its forwarded text ready to write, so a
request's work grows with what is new in it, not with the conversation. The memory is bounded
(least recently used go first): a message transformed again gives the same bytes, so
forgetting costs time, never the prompt cache.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.compaction.credential_redaction import redact_fields
from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.application.services.proxy.tool_output_condensing import ToolOutputCondenser

REMEMBERED_MESSAGES = 50_000
"""How many transformed messages and fields are kept: many long conversations' worth."""

_HOLDER = "value"  # a field's value is redacted as `{"value": ...}`


def canonical_json(value: Any) -> str:
    """`value` as the compact JSON text the proxy forwards (key order kept)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class TransformedMessage:
    """A message as forwarded (`data`, and `text`, its JSON), with what the transform did to
    it. `first_seen` is True the first time this process transformed it (its stored outputs
    and credentials are counted once, not once per request that resends them)."""

    data: Any
    text: str
    tokens_received: int
    tokens_forwarded: int
    credentials: int
    stored: tuple[str, ...]
    first_seen: bool = True


class MessageTransformer:
    """Messages and request fields transformed and remembered (see the module docstring).
    Safe to call from several threads."""

    def __init__(
        self,
        condenser: ToolOutputCondenser,
        counter: TokenCounter,
        scanner: SecretScanner,
        *,
        remembered: int = REMEMBERED_MESSAGES,
    ) -> None:
        self._condenser = condenser
        self._counter = counter
        self._scanner = scanner
        self._remembered = remembered
        self._memo: OrderedDict[tuple[str, str, str], TransformedMessage] = OrderedDict()
        self._lock = threading.Lock()

    def message(self, api: ProviderApi, text: str, message: Any) -> TransformedMessage:
        """One message of `api`'s conversation, as forwarded: `text` is its JSON as the
        client sent it, `message` that JSON read (left as it is)."""
        key = ("message", api.value, text)
        found = self._recalled(key)
        if found is not None:
            return found
        message = json.loads(text)  # a copy to change: `message` may be read again later
        stored: list[str] = []
        credentials = 0
        if isinstance(message, dict):
            for slot in api.tool_outputs(message):
                value = slot.holder[slot.key]  # type: ignore[index]
                condensed = self._condenser.condensed(value, slot.label)
                if condensed is not None:
                    slot.holder[slot.key] = condensed.view  # type: ignore[index]
                    stored.append(condensed.reference)
                    credentials += condensed.credentials
        return self._remember(key, text, message, credentials, tuple(stored))

    def field(self, name: str, text: str, value: Any) -> TransformedMessage:
        """A request field beside the conversation (the system prompt, the tools, the
        model's name), redacted and otherwise as it came; `text` and `value` as for
        `message`."""
        key = ("field", name, text)
        found = self._recalled(key)
        if found is not None:
            return found
        return self._remember(key, text, value, 0, ())

    def _recalled(self, key: tuple[str, str, str]) -> TransformedMessage | None:
        """A message transformed before (kept with `first_seen` False), if remembered."""
        with self._lock:
            found = self._memo.get(key)
            if found is not None:
                self._memo.move_to_end(key)
            return found

    def _remember(
        self,
        key: tuple[str, str, str],
        text: str,
        data: Any,
        credentials: int,
        stored: tuple[str, ...],
    ) -> TransformedMessage:
        redacted, redactions = redact_fields({_HOLDER: data}, self._scanner)
        forwarded = redacted[_HOLDER]
        forwarded_text = canonical_json(forwarded)
        forwarded_tokens = self._counter.count(forwarded_text)
        # Both counts are of the compact JSON (the client's spacing is not the message): a
        # message the transform left as it was is counted once.
        changed = bool(stored) or redactions.count > 0
        received = (
            self._counter.count(canonical_json(json.loads(text))) if changed else forwarded_tokens
        )
        transformed = TransformedMessage(
            forwarded,
            forwarded_text,
            received,
            forwarded_tokens,
            credentials + redactions.count,
            stored,
        )
        with self._lock:
            self._memo[key] = TransformedMessage(
                forwarded,
                forwarded_text,
                transformed.tokens_received,
                transformed.tokens_forwarded,
                transformed.credentials,
                stored,
                first_seen=False,
            )
            while len(self._memo) > self._remembered:
                self._memo.popitem(last=False)
        return transformed
