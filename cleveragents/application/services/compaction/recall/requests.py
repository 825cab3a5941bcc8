"""What the user asked: a user message's text without the noise a harness puts there.

Claude Code (and similar harnesses) put text in user messages that the user did not type:
slash-command echoes, hook output, background-task notices, interruption markers, skill
instructions (flagged as injected), and the continuation summary written after a compaction.
"""

from __future__ import annotations

import re

from cleveragents.application.services.compaction.recall.text import normalise
from cleveragents.domain.transcript import SUMMARY_MARKER, Message, Role, TextBlock

_NOISE_TAGS = (
    "command-name",
    "command-message",
    "command-args",
    "local-command-stdout",
    "local-command-stderr",
    "local-command-caveat",
    "system-reminder",
    "task-notification",
    "user-prompt-submit-hook",
    "bash-input",
    "bash-stdout",
    "bash-stderr",
)
_TAG_ALTERNATION = "|".join(re.escape(tag) for tag in _NOISE_TAGS)
_STARTS_WITH_NOISE_TAG = re.compile(rf"<(?:{_TAG_ALTERNATION})\b")
# A slash command's echo: what the user typed after the command's name is a request.
_COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)
# A slash command typed as it is (a prompt queued while the agent worked): its name is no
# request, the words after it are.
_SLASH_COMMAND = re.compile(r"^/[A-Za-z][\w:-]*(?:\s+|$)")
_NOISE_SECTION = re.compile(rf"<({_TAG_ALTERNATION})\b[^>]*>.*?</\1>", re.DOTALL)
_NOISE_PREFIXES = (
    "[Request interrupted by user",
    SUMMARY_MARKER,
    "This session is being continued from a previous conversation",
)


def request_text(message: Message) -> str | None:
    """What the user asked in `message`, whitespace-normalised, without harness noise; None
    when the message asks nothing (tool results only, noise only, a summary, a message the
    harness injected). Of a slash command, only the words typed after its name count."""
    if message.role is not Role.USER or message.is_summary or _is_meta(message):
        return None
    parts: list[str] = []
    for block_text in (block.strip() for block in _text_blocks(message)):
        if _STARTS_WITH_NOISE_TAG.match(block_text) or block_text.startswith(_NOISE_PREFIXES):
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
    if message.meta:
        return True
    record = message.extra.get("claude_code", {})
    record = record.get("record", {}) if isinstance(record, dict) else {}
    return isinstance(record, dict) and record.get("isMeta") is True


def _text_blocks(message: Message) -> list[str]:
    return [block.text for block in message.content if isinstance(block, TextBlock)]
