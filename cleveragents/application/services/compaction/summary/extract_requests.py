"""What the user asked for: requests, constraints and preferences, permissions given in words.

Only text the user wrote counts. Claude Code also records as user messages what the harness
says (slash-command echoes, local command output, system reminders, "[Request interrupted by
user]", the continuation summary of its own compaction); those are noise here, as is a
compaction summary of ours, which the summarizer merges instead of reading as a request.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from cleveragents.application.services.compaction.summary.extract_text import (
    clip,
    sentences,
    unique,
)
from cleveragents.domain.harness_noise import (
    COMMAND_ARGS_TAG,
    HARNESS_BLOCK_PREFIXES,
    HARNESS_FLAGS,
    NOISE_TAGS,
)
from cleveragents.domain.transcript import Message, TextBlock

# A noise element, or its unclosed start running to the end (a truncated record).
_NOISE_ELEMENT = re.compile(rf"<({'|'.join(NOISE_TAGS)})>.*?(?:</\1>|\Z)", re.DOTALL)
_COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.DOTALL)
_COMMAND_ARGS = re.compile(rf"<{COMMAND_ARGS_TAG}>(.*?)</{COMMAND_ARGS_TAG}>", re.DOTALL)

_APOSTROPHE = "['\u2019]"
_CONSTRAINT = re.compile(
    rf"\b(?:never|don{_APOSTROPHE}?t|do not|must|always|only|avoid|prefer(?:red|s)?"
    rf"|should not|shouldn{_APOSTROPHE}t|no need|without)\b",
    re.IGNORECASE,
)
_REFUSAL = re.compile(
    rf"\b(?:you (?:cannot|can{_APOSTROPHE}?t|may not|must not|are not allowed to)"
    r"|not allowed to|no permission)\b",
    re.IGNORECASE,
)
_GRANT = re.compile(
    r"\b(?:you can|you may|go ahead|allowed to|feel free|permission to)\b|^yes\b", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class UserRequest:
    """A user message that says something: its position and its text, noise removed."""

    index: int
    text: str


def request_text(message: Message) -> str | None:
    """What the user wrote in `message`, or None when it holds no request of theirs.

    A text block without noise is kept exactly; one with a noise element loses it and is
    trimmed; a block that is only noise is dropped. A slash command typed with arguments is a
    request, written as the user typed it (``/review src/app.py``)."""
    if not message.has_user_text or message.is_summary or message.meta:
        return None
    if any(message.extra.get(flag) is True for flag in HARNESS_FLAGS):
        return None
    parts: list[str] = []
    for block in message.content:
        if not isinstance(block, TextBlock):
            continue
        text = block.text
        if text.lstrip().startswith(HARNESS_BLOCK_PREFIXES):
            continue
        typed = _typed_command(text)
        if _NOISE_ELEMENT.search(text):
            text = _NOISE_ELEMENT.sub("", text).strip()
        parts.extend(part for part in (typed, text) if part.strip())
    return "\n".join(parts) or None


def _typed_command(text: str) -> str:
    name, args = _COMMAND_NAME.search(text), _COMMAND_ARGS.search(text)
    if name is None or args is None or not args.group(1).strip():
        return ""
    return f"{name.group(1).strip()} {args.group(1).strip()}"


def user_requests(messages: Sequence[Message]) -> list[UserRequest]:
    """The user's requests, oldest first."""
    found: list[UserRequest] = []
    for index, message in enumerate(messages):
        text = request_text(message)
        if text is not None:
            found.append(UserRequest(index, text))
    return found


def goals(requests: Sequence[UserRequest]) -> tuple[str, ...]:
    return unique(clip(request.text) for request in requests)


def constraints(requests: Sequence[UserRequest]) -> tuple[str, ...]:
    """The sentences that constrain the work or state a preference, negative ones included."""
    return unique(
        clip(sentence)
        for request in requests
        for sentence in sentences(request.text)
        if _CONSTRAINT.search(sentence)
    )


def permissions_in_words(requests: Sequence[UserRequest]) -> list[tuple[int, str]]:
    """Permissions the user granted or refused in words, with the position of their message.

    A negated grant ("you can't push") is a refusal, so refusals are looked for first."""
    found: list[tuple[int, str]] = []
    for request in requests:
        for sentence in sentences(request.text):
            if _REFUSAL.search(sentence):
                found.append((request.index, "refused: " + clip(sentence)))
            elif _GRANT.search(sentence):
                found.append((request.index, "granted: " + clip(sentence)))
    return found
