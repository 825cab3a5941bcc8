"""Whether facts survive in a compacted transcript (or in a summary given as plain text).

The check is textual on purpose: it asks whether a resumed agent could read the fact anywhere
in what it is given, whatever form the summarizer chose for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cleveragents.application.services.compaction.recall.model import (
    CategoryRecovery,
    Fact,
    FactCategory,
    RecoveryReport,
)
from cleveragents.application.services.compaction.recall.text import (
    normalise,
    searchable_text,
    terms_recovered,
)
from cleveragents.domain.transcript import Message

__all__ = ["NEEDLE_PREFIX", "OUTCOME_WINDOW", "is_recovered", "presence", "searchable_text"]

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
    occurs (ignoring case) within `OUTCOME_WINDOW` characters of that needle; a prose fact
    also when most of its key terms occur close together (`recall.text.terms_recovered`).
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


def is_recovered(fact: Fact, haystack: str) -> bool:
    """`fact` against an already normalised `searchable_text`."""
    for needle in fact.needles:
        key = normalise(needle)[:NEEDLE_PREFIX]
        if key and _occurs(key, haystack, fact.outcome_words):
            return True
    return bool(fact.terms) and terms_recovered(fact.terms, haystack)


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
