"""A provider request as the proxy forwards it: the use case behind `agents proxy serve`.

The request's JSON is read; each message of its conversation and each field beside it goes
through the `MessageTransformer` (remembered by content); the conversation is compacted when
it would not fit the model's window (`sticky_compaction`); the result is written back as
compact JSON. Nothing here knows HTTP: the proxy's web app hands the body in and sends the
body out.

If anything in the transform fails (the secret scanner, the store), nothing is forwarded:
`ProxyTransformError` says so in one line, and the web app answers 502.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from cleveragents.application.services.proxy.message_transform import (
    MessageTransformer,
    TransformedMessage,
    canonical_json,
)
from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.application.services.proxy.sticky_compaction import StickyCompaction
from cleveragents.domain.errors import CleverAgentsError, InvalidInputError, OperationalError

CONVERSATION_KEY_CHARS = 16
"""Hex digits of a conversation's key: 64 bits, no collision among one user's conversations."""

CLIENT_COMPACTION_PROMPT = "Your task is to create a detailed summary of the conversation so far"
"""How Claude Code's own compaction request begins: such a request is forwarded without the
proxy's compaction (its per-message transforms still apply, so its prefix still matches the
cache)."""


class InvalidProxyRequestError(InvalidInputError):
    """A request body the proxy cannot read as the API's JSON object."""


class ProxyTransformError(OperationalError):
    """The transform could not run (credential redaction, the store): nothing is forwarded."""


@dataclass(frozen=True, slots=True)
class ForwardedRequest:
    """What to forward, and what the transform did (the figures of `agents proxy stats`)."""

    api: ProviderApi
    body: bytes
    model: str | None
    stream: bool
    conversation: str
    tokens_received: int
    tokens_forwarded: int
    tool_outputs_stored: int
    credentials_redacted: int
    compacted: bool
    client_compaction: bool


class ProxyRequests:
    """Transforms provider requests for forwarding; see the module docstring."""

    def __init__(
        self, transformer: MessageTransformer, compaction: StickyCompaction | None = None
    ) -> None:
        self._transformer = transformer
        self._compaction = compaction

    def forwarded(self, api: ProviderApi, body: bytes) -> ForwardedRequest:
        """`body` (a request of `api`) as it is to be forwarded."""
        request = _request_object(api, body)
        try:
            return self._forwarded(api, request)
        except CleverAgentsError as error:
            raise ProxyTransformError(
                f"the request was not forwarded: {_one_line(str(error))}"
            ) from error
        except Exception as error:  # a scanner or store that breaks: never forward raw
            raise ProxyTransformError(
                "the request was not forwarded: credential redaction could not run "
                f"({type(error).__name__})"
            ) from error

    def _forwarded(self, api: ProviderApi, request: dict[str, Any]) -> ForwardedRequest:
        field = api.conversation_field
        conversation = request.get(field)
        messages: list[TransformedMessage] = []
        if isinstance(conversation, list):
            messages = [self._transformer.message(api, message) for message in conversation]
        fields = {
            name: self._transformer.field(name, value)
            for name, value in request.items()
            if name != field or not isinstance(conversation, list)
        }
        key = conversation_key(api, request, conversation)
        client_compaction = isinstance(conversation, list) and _is_client_compaction(conversation)
        forwarded_messages = [message.data for message in messages]
        compacted, summary_tokens = False, 0
        if self._compaction is not None and messages and not client_compaction:
            prefix = [fields[name].data for name in api.prefix_fields if name in fields]
            outcome = self._compaction.apply(
                api, key, _model(request), prefix, messages, forwarded_messages
            )
            forwarded_messages, compacted = outcome.messages, outcome.compacted_now
            summary_tokens = outcome.summary_tokens
        out = {name: value.data for name, value in fields.items()}
        if isinstance(conversation, list):
            out = {
                name: (forwarded_messages if name == field else fields[name].data)
                for name in request
            }
        everything = [*messages, *fields.values()]
        return ForwardedRequest(
            api=api,
            body=_encoded(out),
            model=_model(request),
            stream=request.get("stream") is True,
            conversation=key,
            tokens_received=sum(part.tokens_received for part in everything),
            tokens_forwarded=summary_tokens
            + _forwarded_tokens(messages, fields, forwarded_messages),
            tool_outputs_stored=sum(len(part.stored) for part in everything if part.first_seen),
            credentials_redacted=sum(part.credentials for part in everything if part.first_seen),
            compacted=compacted,
            client_compaction=client_compaction,
        )


def conversation_key(api: ProviderApi, request: dict[str, Any], conversation: Any) -> str:
    """A conversation's key: a hash of its system prompt and its first message, which every
    later request of the conversation repeats (the client resends the whole history)."""
    first = conversation[0] if isinstance(conversation, list) and conversation else conversation
    system = request.get("system", request.get("instructions"))
    digest = hashlib.sha256(
        canonical_json([api.value, system, first]).encode("utf-8", "surrogatepass")
    )
    return digest.hexdigest()[:CONVERSATION_KEY_CHARS]


def _request_object(api: ProviderApi, body: bytes) -> dict[str, Any]:
    try:
        request = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        raise InvalidProxyRequestError(f"{api.path}: the request body is not JSON") from None
    if not isinstance(request, dict):
        raise InvalidProxyRequestError(f"{api.path}: the request body is not a JSON object")
    return request


def _is_client_compaction(conversation: list[Any]) -> bool:
    """The request is the client's own compaction: its last message asks for the summary."""
    last = conversation[-1] if conversation else None
    if not isinstance(last, dict) or last.get("role") != "user":
        return False
    content = last.get("content")
    texts = [content] if isinstance(content, str) else []
    if isinstance(content, list):
        texts = [
            block["text"]
            for block in content
            if isinstance(block, dict) and isinstance(block.get("text"), str)
        ]
    return any(CLIENT_COMPACTION_PROMPT in text for text in texts)


def _model(request: dict[str, Any]) -> str | None:
    model = request.get("model")
    return model if isinstance(model, str) else None


def _forwarded_tokens(
    messages: list[TransformedMessage],
    fields: dict[str, TransformedMessage],
    forwarded_messages: list[Any],
) -> int:
    fields_tokens = sum(part.tokens_forwarded for part in fields.values())
    if len(forwarded_messages) == len(messages) and all(
        kept is message.data for kept, message in zip(forwarded_messages, messages, strict=True)
    ):
        return fields_tokens + sum(message.tokens_forwarded for message in messages)
    # After a compaction the messages are not the transformed ones: count what goes.
    by_identity = {id(message.data): message.tokens_forwarded for message in messages}
    return fields_tokens + sum(by_identity.get(id(kept), 0) for kept in forwarded_messages)


def _encoded(request: dict[str, Any]) -> bytes:
    try:
        return canonical_json(request).encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate the client escaped: escape it again
        return json.dumps(request, separators=(",", ":")).encode("ascii")


def _one_line(text: str) -> str:
    return " ".join(text.split())
