"""What the assistant said it decided and what it said comes next, sentence by sentence.

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
from cleveragents.domain.transcript import Message, Role

_APOSTROPHE = "['\u2019]"
_DECISION = re.compile(
    rf"\b(?:I{_APOSTROPHE}ll|I will|let{_APOSTROPHE}s|let me use|decided|instead|going with"
    rf"|we will|we{_APOSTROPHE}ll|the fix is|root cause|rather than|opted|chose|switch(?:ed)? to"
    rf"|the (?:cause|problem|issue|solution|approach|answer) (?:is|was)"
    r"|the (?:best|simplest|safest|right) (?:way|fix|option))\b",
    re.IGNORECASE,
)
# "Let me rewrite it with ..." and "I need to use ..." decide how, when they name the means
# (a verb that changes the approach) rather than the next look around ("Let me read it").
_MEANS = re.compile(
    r"\b(?:let me|I need to|I have to|I must|I should|we need to)\s+(?:\w+\s+)?"
    r"(?:use|rewrite|replace|avoid|keep|switch|move|split|merge|drop|remove|revert|restructure"
    r"|refactor|implement|apply|add|change|convert|wrap|skip|pin|bump|downgrade|upgrade)\b",
    re.IGNORECASE,
)
_NEXT_STEP = re.compile(rf"\b(?:next|then I{_APOSTROPHE}ll|remaining)\b", re.IGNORECASE)
_INTENT = re.compile(
    rf"^(?:now,? )?(?:let me|I{_APOSTROPHE}ll|I will|I need to|next,? I|now I)\b", re.IGNORECASE
)


def decisions(messages: Sequence[Message]) -> tuple[str, ...]:
    return unique(
        clip(sentence)
        for sentence in _sentences(messages)
        if _DECISION.search(sentence) or _MEANS.search(sentence)
    )


def announced_next_steps(messages: Sequence[Message]) -> tuple[str, ...]:
    """Sentences that announce what comes next, then the last stated intent of the last
    assistant message with text (where the work stood when these messages end)."""
    announced = [sentence for sentence in _sentences(messages) if _NEXT_STEP.search(sentence)]
    last = next(
        (m for m in reversed(messages) if m.role is Role.ASSISTANT and m.text.strip()), None
    )
    if last is not None:
        intents = [s for s in sentences(last.text) if _INTENT.search(s) and not s.endswith("?")]
        announced += intents[-1:]
    return unique(clip(sentence) for sentence in announced)


def _sentences(messages: Sequence[Message]) -> list[str]:
    return [
        sentence
        for message in messages
        if message.role is Role.ASSISTANT
        for sentence in sentences(message.text)
    ]
