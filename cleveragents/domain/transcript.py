"""A provider-neutral conversation transcript: messages with roles and content blocks.

Anthropic Messages, OpenAI Chat Completions and Claude Code session logs all reduce to this
model (the adapters in `cleveragents.adapters.transcripts` read and write them). What a format
carries beyond it (Claude Code's record ids, an OpenAI message `name`) rides along in `extra`,
so a transcript written back in its own format loses nothing a reader of that format needs.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# Defined with the other names users choose from; the transcript's readers import it from here.
from cleveragents.domain.vocabulary import TranscriptFormat as TranscriptFormat  # noqa: PLC0414

SUMMARY_MARKER = "[cleveragents context summary v1]"
"""The first line of a compaction summary message: a transcript that starts with one is
compacted again by merging into it."""

CONTINUATION_PREFIX = "This session is being continued from a previous conversation"
"""How Claude Code's own compaction summary (a user message it writes) begins."""

SUMMARY_OF = "summary_of"
"""Message.extra key on a summary message: the `extra` of the last message it replaces, so a
format writer can link the summary to what it stands for (Claude Code's ``compact_boundary``
names that record) without the compactor knowing any format."""

RESULTS_SHORTENED = "results_shortened"
"""Message.extra key: the call ids of tool results a compaction shortened in this message. A
format that keeps a full copy of a result beside the content (Claude Code's ``toolUseResult``)
drops that copy, so the shortened output is not still written out whole."""

SUMMARY_TOKENS_BEFORE = "tokens_before"
"""Message.extra key on a summary message: the tokens of the conversation it compacted."""


class Role(StrEnum):
    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"


class _Block(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TextBlock(_Block):
    type: Literal["text"] = "text"
    text: str


class ThinkingBlock(_Block):
    """Model reasoning. `signature` is the provider's integrity token (Anthropic), kept so a
    thinking block can be sent back unchanged; `redacted` thinking has only opaque data."""

    type: Literal["thinking"] = "thinking"
    thinking: str
    signature: str | None = None
    redacted: bool = False


class ToolCall(_Block):
    """The assistant asks for a tool: `input` is the JSON arguments object."""

    type: Literal["tool_call"] = "tool_call"
    id: str = Field(min_length=1)
    name: str
    input: dict[str, Any] = Field(default_factory=dict)


class ToolResult(_Block):
    """The answer to the tool call `call_id`. `content` is its text (a result made of several
    parts is joined with newlines; non-text parts are kept in `parts` for round trips)."""

    type: Literal["tool_result"] = "tool_result"
    call_id: str = Field(min_length=1)
    content: str = ""
    is_error: bool = False
    parts: tuple[dict[str, Any], ...] | None = None


class OtherBlock(_Block):
    """A block this model does not interpret (an image, a document, a server tool's block),
    kept verbatim as `data` so writing the transcript back loses nothing."""

    type: Literal["other"] = "other"
    data: dict[str, Any]


ContentBlock = Annotated[
    TextBlock | ThinkingBlock | ToolCall | ToolResult | OtherBlock, Field(discriminator="type")
]


class Message(BaseModel):
    """One message. `usage` is the provider's usage payload as recorded (Claude Code keeps it
    on each assistant message); `extra` holds format-specific fields for round trips."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    role: Role
    content: tuple[ContentBlock, ...] = ()
    usage: dict[str, Any] | None = None
    extra: dict[str, Any] = Field(default_factory=dict)
    meta: bool = False
    """Injected by the harness, not typed by the user (a skill's instructions, a command
    caveat): sent to the model, but never a turn start or a request."""

    @property
    def text(self) -> str:
        """The text blocks joined with newlines (no thinking, no tool traffic)."""
        return "\n".join(block.text for block in self.content if isinstance(block, TextBlock))

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        return tuple(block for block in self.content if isinstance(block, ToolCall))

    @property
    def tool_results(self) -> tuple[ToolResult, ...]:
        return tuple(block for block in self.content if isinstance(block, ToolResult))

    @property
    def has_user_text(self) -> bool:
        """A user message that says something (not only tool results)."""
        return self.role is Role.USER and any(
            isinstance(block, TextBlock) for block in self.content
        )

    @property
    def is_summary(self) -> bool:
        return self.role is Role.USER and self.text.startswith(SUMMARY_MARKER)

    @property
    def starts_turn(self) -> bool:
        """A user request that opens a turn: user text, no tool results, not a compaction
        summary, not injected by the harness."""
        return (
            self.has_user_text and not self.tool_results and not self.is_summary and not self.meta
        )


class Transcript(BaseModel):
    """Messages in order. System prompts are messages with the system role at the start."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    messages: tuple[Message, ...] = ()
    extra: dict[str, Any] = Field(default_factory=dict)
