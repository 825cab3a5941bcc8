"""Counting what is sent: a text, a message list or a whole request (system prompt and tools
included), for a model, labelled exact only where it is the provider's own figure.

Exact offline: OpenAI Chat Completions messages made of text, counted with the model's own
encoding and the framing OpenAI documents for chat models (its cookbook, "How to count tokens
with tiktoken": 3 tokens a message, 1 more for a `name`, 3 priming the reply). Everything else
is an estimate and says so: tools (their rendering to the model is not documented), other
formats, any Claude model (no public tokenizer). An estimate counts each message's canonical
rendering (`message_tokens`) plus the same 3 tokens a message and 3 for the reply, and the
request's tool definitions as canonical JSON. Exact for Claude: the provider's own counting
endpoint (`ProviderTokenCount`), only when asked.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from cleveragents.application.ports.provider_token_count import ProviderTokenCount
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.ports.transcript_codec import TranscriptCodec
from cleveragents.application.services.compaction.message_tokens import (
    canonical_json,
    message_tokens,
)
from cleveragents.application.services.counting.token_count import TokenCountReport
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.models import ModelProfile, Provider
from cleveragents.domain.transcript import Transcript, TranscriptFormat

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING_TOKENS = 3
_PLAIN_KEYS = frozenset({"role", "content", "name"})
_TOOL_KEYS = ("tools", "functions")
_FRAMING = "OpenAI's chat framing: 3 tokens a message, 1 a name, 3 for the reply"


class RequestTokenCounting:
    """Counts texts and message lists for a model (see the module docstring). Container name:
    ``request_token_counting``."""

    def __init__(
        self,
        codec: TranscriptCodec,
        counter_for: Callable[[str], TokenCounter],
        provider_count: Callable[[Provider], ProviderTokenCount | None] | None = None,
    ) -> None:
        self._codec = codec
        self._counter_for = counter_for
        self._provider_count = provider_count

    def count_text(
        self, text: str, encoding: str, profile: ModelProfile | None, *, exact: bool = False
    ) -> TokenCountReport:
        """The tokens of `text`: exact in `encoding`; for a model, exact only when `encoding`
        is the model's own tokenizer (or through the provider with `exact`)."""
        if exact:
            request = {"messages": [{"role": "user", "content": text}]}
            return self._provider(profile, request, "the text as one user message")
        tokens = self._counter_for(encoding).count(text)
        return _report(tokens, encoding, profile, framing=None, plain=True)

    def count_messages(
        self,
        messages: str | object,
        encoding: str,
        profile: ModelProfile | None,
        *,
        transcript_format: TranscriptFormat | None = None,
        exact: bool = False,
    ) -> TokenCountReport:
        """The input tokens of a message list or request (`messages`: a file's text or the
        parsed document, in any format the codec reads)."""
        if isinstance(messages, str):
            found = transcript_format or self._codec.detect(messages)
            transcript = self._codec.read(messages, found)
            document = _parsed(messages) if found is not TranscriptFormat.CLAUDE_CODE else None
        else:
            found = transcript_format or self._codec.detect_native(messages)
            transcript = self._codec.read_native(messages, found)
            document = messages
        if exact:
            request = self._codec.write_native(transcript, TranscriptFormat.ANTHROPIC)
            return self._provider(profile, _anthropic_request(request, transcript), "")
        counter = self._counter_for(encoding)
        # Text messages with roles read as either API's; they are OpenAI's chat when the
        # model is OpenAI's (or none is named) and no Anthropic `system` field says otherwise.
        plain = (
            found in (TranscriptFormat.OPENAI, TranscriptFormat.ANTHROPIC)
            and (profile is None or profile.provider is Provider.OPENAI)
            and _plain_chat(document)
            and not (found is TranscriptFormat.ANTHROPIC and _has_system_field(document))
        )
        if plain:
            tokens = _framed_plain_chat(_message_dicts(document), counter)
        else:
            tokens = _estimated(transcript, counter)
        return _report(tokens, encoding, profile, framing=_FRAMING, plain=plain)

    def _provider(
        self, profile: ModelProfile | None, request: Mapping[str, Any], what: str
    ) -> TokenCountReport:
        if profile is None:
            raise InvalidInputError("an exact count through the provider needs the model")
        if profile.exact:  # the offline count is the provider's own already
            raise InvalidInputError(
                f"{profile.name}'s tokenizer is public: its offline count is exact already"
            )
        counter = self._provider_count(profile.provider) if self._provider_count else None
        if counter is None:
            raise InvalidInputError(f"no exact counter for {profile.provider.value} models")
        tokens = counter.count_request(profile.name, request)
        method = f"{counter.method} ({what})" if what else counter.method
        return TokenCountReport(tokens, True, method, None, profile.name)


def _report(
    tokens: int, encoding: str, profile: ModelProfile | None, *, framing: str | None, plain: bool
) -> TokenCountReport:
    own = profile is None or (profile.exact and profile.encoding.value == encoding)
    exact = own and plain
    if exact:
        method = encoding if framing is None else f"{encoding}, with {framing}"
    elif not plain:
        method = (
            f"{encoding} estimate: each message's canonical rendering, 3 tokens a message, "
            "3 for the reply, tool definitions as JSON"
        )
    else:
        method = f"{encoding} estimate"
    return TokenCountReport(tokens, exact, method, encoding, profile.name if profile else None)


def _parsed(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:  # the codec read it; a form it accepts and json does not is no plain chat
        return None


def _has_system_field(document: object) -> bool:
    return isinstance(document, Mapping) and "system" in document


def _message_dicts(document: object) -> list[Any]:
    if isinstance(document, Mapping):
        found = document.get("messages")
        return list(found) if isinstance(found, list | tuple) else []
    return list(document) if isinstance(document, list | tuple) else []


def _plain_chat(document: object) -> bool:
    """Chat messages of text alone (no tool traffic, no parts), in a request without tools:
    what OpenAI's documented framing counts."""
    if isinstance(document, Mapping) and any(document.get(key) for key in _TOOL_KEYS):
        return False
    messages = _message_dicts(document)
    return bool(messages) and all(
        isinstance(message, Mapping)
        and set(message) <= _PLAIN_KEYS
        and all(isinstance(value, str) for value in message.values())
        for message in messages
    )


def _framed_plain_chat(messages: list[Any], counter: TokenCounter) -> int:
    total = REPLY_PRIMING_TOKENS
    for message in messages:
        total += TOKENS_PER_MESSAGE
        for key, value in message.items():
            total += counter.count(value)
            if key == "name":
                total += TOKENS_PER_NAME
    return total


def _estimated(transcript: Transcript, counter: TokenCounter) -> int:
    per_message = message_tokens(transcript.messages, counter)
    tools = _tool_definitions(transcript)
    tool_tokens = counter.count(canonical_json(tools)) if tools else 0
    framing = TOKENS_PER_MESSAGE * len(per_message) + REPLY_PRIMING_TOKENS
    return sum(per_message) + framing + tool_tokens


def _tool_definitions(transcript: Transcript) -> list[Any]:
    """The request's tool definitions, wherever its format's reader kept the request's other
    fields."""
    found: list[Any] = []
    for value in transcript.extra.values():
        if isinstance(value, Mapping):
            for key in _TOOL_KEYS:
                if isinstance(value.get(key), list):
                    found.extend(value[key])
    return found


def _anthropic_request(written: object, transcript: Transcript) -> dict[str, Any]:
    """The Messages request the provider counts: the messages, the system prompt, the tools."""
    if isinstance(written, Mapping):
        request = {key: written[key] for key in ("messages", "system") if key in written}
    else:
        request = {"messages": written}
    tools = _tool_definitions(transcript)
    if tools:
        request["tools"] = tools
    return request
