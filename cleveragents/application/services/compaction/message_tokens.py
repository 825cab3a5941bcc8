"""Token counts of messages, from one canonical rendering of each.

Providers add framing tokens per message and count images their own way, so no offline count
equals a provider's bill; what is exact here is the tokenizer's count of the message's content
rendered canonically: the role, then each block (text as is, a tool call as its name and its
input as canonical JSON, a tool result as its content, thinking as its text, any other block as
canonical JSON). The same messages always give the same figures, which is what a trigger and a
"did it shrink" check need.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.domain.transcript import (
    ContentBlock,
    Message,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)


def canonical_json(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _block_text(block: ContentBlock) -> str:
    if isinstance(block, TextBlock):
        return block.text
    if isinstance(block, ThinkingBlock):
        return block.thinking
    if isinstance(block, ToolCall):
        return f"tool call {block.name} {block.id}: {canonical_json(block.input)}"
    if isinstance(block, ToolResult):
        flag = " (error)" if block.is_error else ""
        return f"tool result {block.call_id}{flag}: {block.content}"
    return canonical_json(block.data)


def rendered(message: Message) -> str:
    """The canonical text of a message that its token count is taken from."""
    return "\n".join([f"{message.role.value}:", *(_block_text(b) for b in message.content)])


def message_tokens(messages: Sequence[Message], counter: TokenCounter) -> list[int]:
    """The token count of each message."""
    return [counter.count(rendered(message)) for message in messages]
