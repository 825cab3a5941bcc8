"""Credentials redacted from every field of the messages a compaction returns.

A compaction hands back the messages to send next: the system prompt, the summary and the
recent messages kept verbatim (all of them, when nothing was folded). A credential in any of
them would travel into every later request, so each message is redacted whole: its text, the
arguments of its tool calls, its tool results (their text and their other parts), its
thinking, the blocks the transcript model keeps verbatim (`OtherBlock`), and the fields a
format keeps beside the content (`Message.extra`: Claude Code's record fields such as
``toolUseResult``, which repeats a tool's output; an OpenAI call's raw argument string).

The redaction itself is `summary.redaction.redact_messages`, the one the summary uses: it
covers text, tool calls and tool results. Every other field is handed to it inside a stand-in
tool call (its strings are scanned with their key names before them, ``token=...``, as a tool
call's arguments are) and put back where it came from. The texts of one message are scanned
as one document, so a private key split across two of its blocks goes whole.

Left as they are: ids, names and flags (a tool call's id pairs it with its result), and a
thinking block's signature (the provider's opaque integrity token). A thinking block whose
text held a credential no longer matches its signature: a provider may refuse it in the turn
that is still running (earlier turns' thinking is not checked).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.services.compaction.summary.redaction import (
    Redactions,
    redact_messages,
)
from cleveragents.domain.transcript import (
    ContentBlock,
    Message,
    OtherBlock,
    Role,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)

_STAND_IN_ID = "stand-in"
"""The id of the tool calls that carry a message's other fields through the redaction."""


@dataclass(frozen=True, slots=True)
class RedactedCredentials:
    """How many credentials were redacted from what a compaction returns, by where they were.

    `system`: the leading system prompt. `folded`: the messages folded into the summary
    (redacted before they were summarised, so the summary holds none) and an earlier summary
    merged into it. `kept`: the messages returned verbatim (every message after the system
    prompt when nothing was folded). `request`: the transcript's own fields beside its
    messages (a request's tools, metadata, ...)."""

    system: int = 0
    folded: int = 0
    kept: int = 0
    request: int = 0

    @property
    def total(self) -> int:
        return self.system + self.folded + self.kept + self.request

    def as_dict(self) -> dict[str, int]:
        return {
            "system": self.system,
            "folded": self.folded,
            "kept": self.kept,
            "request": self.request,
        }


@dataclass(frozen=True, slots=True)
class RedactedMessages:
    """Messages with their credentials redacted, and what was redacted from each (a message
    without a credential is returned as the same object)."""

    messages: tuple[Message, ...]
    found: tuple[Redactions, ...]

    def count(self, start: int = 0, stop: int | None = None) -> int:
        """How many credentials were redacted from the messages in [start, stop)."""
        return sum(found.count for found in self.found[start:stop])


def redact_every_field(messages: Sequence[Message], scanner: SecretScanner) -> RedactedMessages:
    """`messages` with every credential in every field redacted (see the module docstring).
    The given messages are not changed: they are frozen, and what changes is a copy."""
    redacted: list[Message] = []
    found: list[Redactions] = []
    for message in messages:
        redactions = Redactions()
        [stand_in] = redact_messages([_stand_in(message)], scanner, redactions)
        redacted.append(
            message if redactions.count == 0 else _restored(message, iter(stand_in.content))
        )
        found.append(redactions)
    return RedactedMessages(tuple(redacted), tuple(found))


def redact_fields(
    fields: Mapping[str, Any], scanner: SecretScanner
) -> tuple[dict[str, Any], Redactions]:
    """A JSON object (a transcript's request fields) with every credential in its strings
    redacted, as a copy, and what was redacted."""
    redactions = Redactions()
    holder = _holder(dict(fields))
    message = Message(role=Role.USER, content=(holder,))
    [redacted] = redact_messages([message], scanner, redactions)
    if redactions.count == 0:
        return dict(fields), redactions
    block = redacted.content[0]
    assert isinstance(block, ToolCall)
    return dict(block.input), redactions


def _holder(fields: dict[str, Any]) -> ToolCall:
    return ToolCall(id=_STAND_IN_ID, name=_STAND_IN_ID, input=fields)


def _stand_in(message: Message) -> Message:
    """One message the summary's redaction reads whole: each block as itself or a stand-in
    (thinking as text; a verbatim block or a tool result's parts as a tool call's arguments),
    then the message's usage and extra fields as one more tool call."""
    blocks: list[ContentBlock] = []
    for block in message.content:
        if isinstance(block, ThinkingBlock):
            blocks.append(TextBlock(text=block.thinking))
        elif isinstance(block, OtherBlock):
            blocks.append(_holder(dict(block.data)))
        else:
            blocks.append(block)
            if isinstance(block, ToolResult) and block.parts is not None:
                blocks.append(_holder({"parts": [dict(part) for part in block.parts]}))
    blocks.append(_holder({"usage": dict(message.usage or {}), "extra": dict(message.extra)}))
    return Message(role=message.role, content=tuple(blocks))


def _restored(message: Message, stand_ins: Iterator[ContentBlock]) -> Message:
    """`message` with the redacted values of its stand-ins put back, in `_stand_in`'s order."""
    content: list[ContentBlock] = []
    for block in message.content:
        stand_in = next(stand_ins)
        if isinstance(block, ThinkingBlock):
            assert isinstance(stand_in, TextBlock)
            content.append(block.model_copy(update={"thinking": stand_in.text}))
        elif isinstance(block, OtherBlock):
            content.append(block.model_copy(update={"data": _arguments(stand_in)}))
        elif isinstance(block, ToolResult) and block.parts is not None:
            parts = _arguments(next(stand_ins))["parts"]
            content.append(stand_in.model_copy(update={"parts": tuple(parts)}))
        else:
            content.append(stand_in)
    rest = _arguments(next(stand_ins))
    usage = rest["usage"] if message.usage is not None else None
    return message.model_copy(
        update={"content": tuple(content), "usage": usage, "extra": rest["extra"]}
    )


def _arguments(block: ContentBlock) -> dict[str, Any]:
    assert isinstance(block, ToolCall)
    return block.input
