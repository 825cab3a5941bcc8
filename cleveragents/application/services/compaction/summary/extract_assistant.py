"""What the assistant decided, the work it announced, and what it said comes next, sentence by
sentence (the rules that tell a decision from narration are in `narration`).

Thinking is not read: it is the model's scratch work, often abandoned, and a provider may
return it redacted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cleveragents.application.services.compaction.summary.extract_text import (
    clip,
    sentences,
    unique,
)
from cleveragents.application.services.compaction.summary.narration import (
    announced_work,
    decision,
    is_narration,
    is_question,
)
from cleveragents.domain.transcript import Message, Role

_APOSTROPHE = "['\u2019]"
_NEXT_STEP = re.compile(
    rf"\b(?:next|then I{_APOSTROPHE}ll|remaining|after that|afterwards)\b", re.IGNORECASE
)


_AFTER_COLON = re.compile(r"(?<=:)\s+(?=[A-Z])")


def decisions(messages: Sequence[Message]) -> tuple[str, ...]:
    """The choices and conclusions the assistant stated, each without its narration."""
    return unique(
        clip(found)
        for sentence in _sentences(messages)
        for part in _AFTER_COLON.split(sentence)  # "Let me read it: I'll use X." is two
        if (found := decision(part))
    )


def last_announcement(messages: Sequence[Message], start: int = 0) -> tuple[int, str] | None:
    """The last sentence from `messages[start:]` in which the assistant announced taking up a
    piece of work, with the index of its message."""
    for index in range(len(messages) - 1, start - 1, -1):
        message = messages[index]
        if message.role is not Role.ASSISTANT:
            continue
        announced = [s for s in sentences(message.text) if announced_work(s) is not None]
        if announced:
            return index, clip(announced[-1])
    return None


def announced_next_steps(messages: Sequence[Message]) -> tuple[str, ...]:
    """What the last assistant message with text says comes next: its sentences announcing
    next or remaining work, then its last statement of intent. Earlier messages' intents were
    acted on or superseded by the time that one was written."""
    last = next(
        (m for m in reversed(messages) if m.role is Role.ASSISTANT and m.text.strip()), None
    )
    if last is None:
        return ()
    said = [sentence for sentence in sentences(last.text) if not is_question(sentence)]
    announced = [sentence for sentence in said if _NEXT_STEP.search(sentence)]
    intents = [sentence for sentence in said if is_narration(sentence) and sentence[-1:] != ":"]
    return unique(clip(sentence) for sentence in [*announced, *intents[-1:]])


def _sentences(messages: Sequence[Message]) -> list[str]:
    return [
        sentence
        for message in messages
        if message.role is Role.ASSISTANT
        for sentence in sentences(message.text)
    ]
