"""Token counts of messages, from one canonical rendering of each.

Providers add framing tokens per message and count images their own way, so no offline count
equals a provider's bill; what is exact here is the tokenizer's count of the message's content
rendered canonically: the role, then each block (text as is, a tool call as its name and its
input as canonical JSON, a tool result as its content, thinking as its text, any other block as
canonical JSON). The same messages always give the same figures, which is what a trigger and a
"did it shrink" check need.

Images are the exception: a provider bills an image by its size in pixels, not by its base64
text (a 400 KB screenshot would otherwise "cost" 300,000 tokens and be folded away). An image,
as a block or as a part of a tool result, is rendered as a short placeholder and counted as
`IMAGE_TOKENS`, an estimate: Anthropic's cost of an image at the largest size it keeps
(about 1.15 megapixels, 1,600 tokens). Other base64 payloads (documents) are rendered without
their data.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.domain.transcript import (
    ContentBlock,
    Message,
    OtherBlock,
    TextBlock,
    ThinkingBlock,
    ToolCall,
    ToolResult,
)

IMAGE_TOKENS = 1_600
_IMAGE_TYPES = frozenset({"image", "image_url", "input_image"})
_PAYLOAD_CHARS = 1_000
# A string this long inside a block's data, all base64 (or a data: URL of it), is a payload,
# not text: a document in Chinese or minified JSON is text and is counted as text.
_ENCODED = re.compile(r"(?:data:[\w/+.-]+;base64,)?[A-Za-z0-9+/=_\-\s]+")


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
        # Text parts are the content already; only the others add to it.
        others = [part for part in block.parts or () if part.get("type") != "text"]
        parts = "".join(f"\n{_part_text(part)}" for part in others)
        return f"tool result {block.call_id}{flag}: {block.content}{parts}"
    return _part_text(block.data)


def _part_text(data: dict[str, object]) -> str:
    if data.get("type") in _IMAGE_TYPES:
        return "[image]"
    return canonical_json(_without_payloads(data))


def _without_payloads(value: object) -> object:
    if isinstance(value, str) and len(value) > _PAYLOAD_CHARS and _ENCODED.fullmatch(value):
        return f"[{len(value):,} characters of encoded data]"
    if isinstance(value, dict):
        return {key: _without_payloads(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_without_payloads(item) for item in value]
    return value


def _images(message: Message) -> int:
    count = 0
    for block in message.content:
        if isinstance(block, OtherBlock) and block.data.get("type") in _IMAGE_TYPES:
            count += 1
        elif isinstance(block, ToolResult):
            count += sum(1 for part in block.parts or () if part.get("type") in _IMAGE_TYPES)
    return count


def rendered(message: Message) -> str:
    """The canonical text of a message that its token count is taken from."""
    return "\n".join([f"{message.role.value}:", *(_block_text(b) for b in message.content)])


def message_tokens(messages: Sequence[Message], counter: TokenCounter) -> list[int]:
    """The token count of each message (images estimated, see the module docstring)."""
    return [
        counter.count(rendered(message)) + IMAGE_TOKENS * _images(message) for message in messages
    ]
