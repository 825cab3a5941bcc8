"""Whether facts survive in a compacted transcript (or in a summary given as plain text).

The check is textual on purpose: it asks whether a resumed agent could read the fact anywhere
in what it is given, whatever form the summarizer chose for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from cleveragents.application.services.compaction.recovery_facts import normalise
from cleveragents.application.services.compaction.recovery_model import (
    CategoryRecovery,
    Fact,
    FactCategory,
    RecoveryReport,
)
from cleveragents.domain.transcript import Message, TextBlock, ToolCall, ToolResult

NEEDLE_PREFIX = 200
"""A needle longer than this is looked for by its first `NEEDLE_PREFIX` characters: a summary
may keep the start of a very long request or heredoc command and cut the rest."""

OUTCOME_WINDOW = 300
"""How near (in characters, either side) to a needle an outcome word must be to count."""


def presence(
    facts: Mapping[FactCategory, Sequence[Fact]], compacted: Sequence[Message] | str
) -> RecoveryReport:
    """Which of `facts` the compacted transcript (or plain summary text) still holds.

    A fact counts as recovered when one of its needles occurs in `searchable_text(compacted)`
    (case-sensitive, whitespace-normalised) and, when it has outcome words, one of those
    occurs (ignoring case) within `OUTCOME_WINDOW` characters of that needle.
    """
    haystack = searchable_text(compacted)
    by_category: dict[FactCategory, CategoryRecovery] = {}
    for category in FactCategory:
        category_facts = tuple(facts.get(category, ()))
        missing = tuple(fact.label for fact in category_facts if not is_recovered(fact, haystack))
        by_category[category] = CategoryRecovery(
            category=category,
            total=len(category_facts),
            recovered=len(category_facts) - len(missing),
            missing=missing,
        )
    return RecoveryReport(by_category=by_category)


def searchable_text(compacted: Sequence[Message] | str) -> str:
    """What a resumed agent reads, as one whitespace-normalised string: text blocks, tool
    calls (name and arguments), tool results (an error result marked ``[error]``). Thinking
    is left out (providers drop it from later turns), as are images and other blocks.

    Arguments are written as ``key: value`` with string values raw rather than JSON-encoded,
    so a command with quotes or newlines still matches its needle.
    """
    if isinstance(compacted, str):
        return normalise(compacted)
    parts: list[str] = []
    for message in compacted:
        for block in message.content:
            if isinstance(block, TextBlock):
                parts.append(block.text)
            elif isinstance(block, ToolCall):
                parts.append(f"{block.name} {_render(block.input)}")
            elif isinstance(block, ToolResult):
                parts.append(f"[{'error' if block.is_error else 'result'}] {block.content}")
    return normalise("\n".join(parts))


def is_recovered(fact: Fact, haystack: str) -> bool:
    """`fact` against an already normalised `searchable_text`."""
    for needle in fact.needles:
        key = normalise(needle)[:NEEDLE_PREFIX]
        if key and _occurs(key, haystack, fact.outcome_words):
            return True
    return False


def _occurs(key: str, haystack: str, outcome_words: tuple[str, ...]) -> bool:
    start = haystack.find(key)
    if not outcome_words:
        return start >= 0
    while start >= 0:
        window = haystack[max(0, start - OUTCOME_WINDOW) : start + len(key) + OUTCOME_WINDOW]
        if any(word in window.lower() for word in outcome_words):
            return True
        start = haystack.find(key, start + 1)
    return False


def _render(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(f"{key}: {_render(item)}" for key, item in value.items())
    if isinstance(value, list):
        return " ".join(_render(item) for item in value)
    return json.dumps(value)
