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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cleveragents.application.services.proxy.message_transform import (
    MessageTransformer,
    TransformedMessage,
    canonical_json,
)
from cleveragents.application.services.proxy.provider_api import ProviderApi
from cleveragents.application.services.proxy.request_reading import (
    MalformedRequestError,
    RawValue,
    ReadRequest,
    RecentConversations,
    read_request,
)
from cleveragents.application.services.proxy.sticky_compaction import (
    CompactedConversation,
    StickyCompaction,
)
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
        self._recent = RecentConversations()

    def forwarded(self, api: ProviderApi, body: bytes) -> ForwardedRequest:
        """`body` (a request of `api`) as it is to be forwarded."""
        return self.forwarded_read(api, self.read(api, body))

    def read(self, api: ProviderApi, body: bytes) -> ReadRequest:
        """`body` read; `InvalidProxyRequestError` when it is not the API's JSON object."""
        try:
            return read_request(body, api.conversation_field, self._recent)
        except MalformedRequestError as error:
            raise InvalidProxyRequestError(f"{api.path}: {error}") from None

    @staticmethod
    def new_text(request: ReadRequest) -> int:
        """How many characters of the request's messages this process has not transformed
        in a recent request of the conversation: the work its transform will take grows with
        it (a caller may run a small transform where it stands, a large one aside)."""
        return sum(len(raw.text) for raw in request.conversation or () if raw.transformed is None)

    def forwarded_read(self, api: ProviderApi, request: ReadRequest) -> ForwardedRequest:
        """A request already read (`read`) as it is to be forwarded."""
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

    def _forwarded(self, api: ProviderApi, request: ReadRequest) -> ForwardedRequest:
        conversation_field = api.conversation_field
        raw_messages = request.conversation
        messages = [self._message(api, raw) for raw in raw_messages or ()]
        fields = {
            name: self._transformer.field(name, raw.text, raw.value)
            for name, raw in request.fields.items()
            if name != conversation_field or raw_messages is None
        }
        key = conversation_key(api, request)
        client_compaction = _is_client_compaction([message.data for message in messages])
        cut = CompactedConversation()
        if self._compaction is not None and messages and not client_compaction:
            prefix = {name: fields[name] for name in api.prefix_fields if name in fields}
            cut = self._compaction.apply(
                api,
                key,
                _model(request),
                {name: part.data for name, part in prefix.items()},
                sum(part.tokens_forwarded for part in prefix.values()),
                messages,
            )
        sent = messages[cut.folded :]
        parts = []
        for name in request.fields:
            if name == conversation_field and raw_messages is not None:
                texts = [*cut.summary_texts, *(message.text for message in sent)]
                parts.append(f"{canonical_json(name)}:[{','.join(texts)}]")
            else:
                parts.append(f"{canonical_json(name)}:{fields[name].text}")
        everything = [*messages, *fields.values()]
        stream = request.value("stream")
        return ForwardedRequest(
            api=api,
            body=_encoded("{" + ",".join(parts) + "}"),
            model=_model(request),
            stream=stream is True,
            conversation=key,
            tokens_received=sum(part.tokens_received for part in everything),
            tokens_forwarded=cut.summary_tokens
            + sum(part.tokens_forwarded for part in [*sent, *fields.values()]),
            tool_outputs_stored=sum(len(part.stored) for part in everything if part.first_seen),
            credentials_redacted=sum(part.credentials for part in everything if part.first_seen),
            compacted=cut.compacted_now,
            client_compaction=client_compaction,
        )

    def _message(self, api: ProviderApi, raw: RawValue) -> TransformedMessage:
        """A message transformed, or what was made of it when this same text was read in a
        recent request of the conversation (kept on it, as seen before)."""
        known = raw.transformed
        if isinstance(known, tuple) and known[0] is api:  # the same text, read for this API
            seen: TransformedMessage = known[1]
            return seen
        transformed = self._transformer.message(api, raw.text, raw.value)
        raw.transformed = (api, replace(transformed, first_seen=False))
        return transformed


def conversation_key(api: ProviderApi, request: ReadRequest) -> str:
    """A conversation's key: a hash of its system prompt and its first message, as the
    client sends them in every request of the conversation (it resends the whole history)."""
    conversation = request.conversation
    first = conversation[0].text if conversation else ""
    system = request.fields.get("system") or request.fields.get("instructions")
    digest = hashlib.sha256()
    for part in (api.value, system.text if system is not None else "", first):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\x00")
    return digest.hexdigest()[:CONVERSATION_KEY_CHARS]


def _is_client_compaction(conversation: Sequence[Any]) -> bool:
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


def _model(request: ReadRequest) -> str | None:
    model = request.value("model")
    return model if isinstance(model, str) else None


def _encoded(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate the client escaped: escape it again
        return json.dumps(json.loads(text), separators=(",", ":")).encode("ascii")


def _one_line(text: str) -> str:
    return " ".join(text.split())
