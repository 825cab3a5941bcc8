"""What the user asked: a user message's text without the noise a harness puts there.

Claude Code (and similar harnesses) put text in user messages that the user did not type:
slash-command echoes, hook output, background-task notices, interruption markers, skill
instructions (flagged as injected), and the continuation summary written after a compaction.
"""

from __future__ import annotations

import re

from cleveragents.application.services.compaction.recall.text import normalise
from cleveragents.domain.harness_noise import (
    COMMAND_ARGS_TAG,
    HARNESS_BLOCK_PREFIXES,
    HARNESS_FLAGS,
    NOISE_TAGS,
)
from cleveragents.domain.transcript import Message, Role, TextBlock

_TAG_ALTERNATION = "|".join(re.escape(tag) for tag in NOISE_TAGS)
_STARTS_WITH_NOISE_TAG = re.compile(rf"<(?:{_TAG_ALTERNATION})\b")
# A slash command's echo: what the user typed after the command's name is a request.
_COMMAND_ARGS = re.compile(rf"<{COMMAND_ARGS_TAG}>(.*?)</{COMMAND_ARGS_TAG}>", re.DOTALL)
# A slash command typed as it is (a prompt queued while the agent worked): its name is no
# request, the words after it are.
_SLASH_COMMAND = re.compile(r"^/[A-Za-z][\w:-]*(?:\s+|$)")
_NOISE_SECTION = re.compile(rf"<({_TAG_ALTERNATION})\b[^>]*>.*?</\1>", re.DOTALL)


def request_text(message: Message) -> str | None:
    """What the user asked in `message`, whitespace-normalised, without harness noise; None
    when the message asks nothing (tool results only, noise only, a summary, a message the
    harness injected). Of a slash command, only the words typed after its name count."""
    if message.role is not Role.USER or message.is_summary or _is_meta(message):
        return None
    parts: list[str] = []
    for block_text in (block.strip() for block in _text_blocks(message)):
        if _STARTS_WITH_NOISE_TAG.match(block_text) or block_text.startswith(
            HARNESS_BLOCK_PREFIXES
        ):
            parts.extend(
                arguments
                for found in _COMMAND_ARGS.findall(block_text)
                if (arguments := normalise(found))
            )
            continue
        cleaned = _SLASH_COMMAND.sub("", normalise(_NOISE_SECTION.sub(" ", block_text)))
        if cleaned:
            parts.append(cleaned)
    return " ".join(parts) or None


def _is_meta(message: Message) -> bool:
    """Written by the harness: flagged so on the message, in its extras or its raw record."""
    if message.meta:
        return True
    record = message.extra.get("claude_code", {})
    record = record.get("record", {}) if isinstance(record, dict) else {}
    flagged = [message.extra, record] if isinstance(record, dict) else [message.extra]
    return any(where.get(flag) is True for where in flagged for flag in HARNESS_FLAGS)


def _text_blocks(message: Message) -> list[str]:
    return [block.text for block in message.content if isinstance(block, TextBlock)]
