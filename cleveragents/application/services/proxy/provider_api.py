"""The three provider APIs the proxy reads, and where each keeps what the proxy changes.

Each API declares, in one place: the path its requests come on, the field holding the
conversation (a list of messages or items), the fields forwarded beside it that must stay as
they are for the provider's prompt cache (the system prompt, the tools), and how a tool's
output appears in a message. The transform walks nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cleveragents.domain.transcript import TranscriptFormat
from cleveragents.domain.usage import UsageFormat

JsonObject = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ToolOutputSlot:
    """Where one tool output's text lives: `holder[key]` is a str, or a list of content
    blocks whose ``text`` blocks hold it (an Anthropic ``tool_result`` with blocks)."""

    holder: JsonObject | list[Any]
    key: str | int
    label: str
    """A short name for the output's artifact: the call id it answers."""


class ProviderApi(StrEnum):
    """One provider API the proxy transforms (any other path is forwarded unchanged)."""

    ANTHROPIC_MESSAGES = "anthropic-messages"
    OPENAI_CHAT = "openai-chat"
    OPENAI_RESPONSES = "openai-responses"

    @property
    def path(self) -> str:
        return _PATHS[self]

    @property
    def provider(self) -> str:
        return "anthropic" if self is ProviderApi.ANTHROPIC_MESSAGES else "openai"

    @property
    def conversation_field(self) -> str:
        """The request field holding the conversation."""
        return "input" if self is ProviderApi.OPENAI_RESPONSES else "messages"

    @property
    def prefix_fields(self) -> tuple[str, ...]:
        """Fields sent before the conversation that the transform never reshapes: redacted
        (deterministically) and otherwise forwarded as they came."""
        return _PREFIX_FIELDS[self]

    @property
    def usage_format(self) -> UsageFormat:
        return UsageFormat(self.value)

    @property
    def transcript_format(self) -> TranscriptFormat | None:
        """The transcript format the compaction reads this API's conversation in (None: the
        API's conversation is not compacted by the proxy)."""
        if self is ProviderApi.ANTHROPIC_MESSAGES:
            return TranscriptFormat.ANTHROPIC
        if self is ProviderApi.OPENAI_CHAT:
            return TranscriptFormat.OPENAI
        if self is ProviderApi.OPENAI_RESPONSES:
            return TranscriptFormat.OPENAI_RESPONSES
        return None

    def tool_outputs(self, message: JsonObject) -> Iterator[ToolOutputSlot]:
        """The tool outputs one message (or Responses item) carries."""
        return _TOOL_OUTPUTS[self](message)

    @classmethod
    def for_path(cls, method: str, path: str) -> ProviderApi | None:
        """The API a request is for, when the proxy transforms it."""
        if method != "POST":
            return None
        for api in cls:
            if path.rstrip("/") == api.path:
                return api
        return None


_PATHS = {
    ProviderApi.ANTHROPIC_MESSAGES: "/v1/messages",
    ProviderApi.OPENAI_CHAT: "/v1/chat/completions",
    ProviderApi.OPENAI_RESPONSES: "/v1/responses",
}
_PREFIX_FIELDS = {
    ProviderApi.ANTHROPIC_MESSAGES: ("system", "tools"),
    ProviderApi.OPENAI_CHAT: ("tools", "functions"),
    ProviderApi.OPENAI_RESPONSES: ("instructions", "tools"),
}


def _anthropic(message: JsonObject) -> Iterator[ToolOutputSlot]:
    content = message.get("content")
    if message.get("role") != "user" or not isinstance(content, list):
        return
    for block in content:
        if not isinstance(block, dict) or block.get("type") != "tool_result":
            continue
        label = str(block.get("tool_use_id", "tool"))
        inner = block.get("content")
        if isinstance(inner, str):
            yield ToolOutputSlot(block, "content", label)
        elif isinstance(inner, list):
            yield from _text_parts(inner, label)


def _openai_chat(message: JsonObject) -> Iterator[ToolOutputSlot]:
    if message.get("role") not in ("tool", "function"):
        return
    label = str(message.get("tool_call_id") or message.get("name") or "tool")
    content = message.get("content")
    if isinstance(content, str):
        yield ToolOutputSlot(message, "content", label)
    elif isinstance(content, list):
        yield from _text_parts(content, label)


def _openai_responses(item: JsonObject) -> Iterator[ToolOutputSlot]:
    if item.get("type") not in ("function_call_output", "custom_tool_call_output"):
        return
    label = str(item.get("call_id", "tool"))
    output = item.get("output")
    if isinstance(output, str):
        yield ToolOutputSlot(item, "output", label)
    elif isinstance(output, list):
        yield from _text_parts(output, label)


def _text_parts(parts: list[Any], label: str) -> Iterator[ToolOutputSlot]:
    for part in parts:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            yield ToolOutputSlot(part, "text", label)


_TOOL_OUTPUTS: dict[ProviderApi, Callable[[JsonObject], Iterator[ToolOutputSlot]]] = {
    ProviderApi.ANTHROPIC_MESSAGES: _anthropic,
    ProviderApi.OPENAI_CHAT: _openai_chat,
    ProviderApi.OPENAI_RESPONSES: _openai_responses,
}
