"""What the assistant said it decided and what it said comes next, sentence by sentence.

Thinking is not read: it is the model's scratch work, often abandoned, and a provider may
return it redacted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cleveragents.application.services.compaction.extract_text import clip, sentences, unique
from cleveragents.domain.transcript import Message, Role

_APOSTROPHE = "['\u2019]"
_DECISION = re.compile(
    rf"\b(?:I{_APOSTROPHE}ll|I will|let{_APOSTROPHE}s|let me use|decided|instead|going with"
    rf"|we will|we{_APOSTROPHE}ll|the fix is|root cause)\b",
    re.IGNORECASE,
)
_NEXT_STEP = re.compile(rf"\b(?:next|then I{_APOSTROPHE}ll|remaining)\b", re.IGNORECASE)


def decisions(messages: Sequence[Message]) -> tuple[str, ...]:
    return unique(clip(sentence) for sentence in _sentences(messages) if _DECISION.search(sentence))


def announced_next_steps(messages: Sequence[Message]) -> tuple[str, ...]:
    return unique(
        clip(sentence) for sentence in _sentences(messages) if _NEXT_STEP.search(sentence)
    )


def _sentences(messages: Sequence[Message]) -> list[str]:
    return [
        sentence
        for message in messages
        if message.role is Role.ASSISTANT
        for sentence in sentences(message.text)
    ]
