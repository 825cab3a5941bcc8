"""The vocabulary of the recovery measurement: fact categories, facts, and the report."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class FactCategory(StrEnum):
    """What a resumed agent must know, by kind (in report order)."""

    LATEST_REQUEST = "latest_request"
    USER_REQUESTS = "user_requests"  # every request the user made, the latest included
    FILES_MODIFIED = "files_modified"
    FILES_READ = "files_read"
    COMMANDS = "commands"  # commands run, test runs included, with their outcome
    ERRORS = "errors"  # calls that failed, resolved later or not
    UNFINISHED = "unfinished"
    DECISIONS = "decisions"  # what was chosen (by the user or the agent), and why
    NEXT_STEP = "next_step"  # what the agent was about to do when the transcript ends
    UNCERTAIN_EFFECTS = "uncertain_effects"


TARGET_CATEGORIES: tuple[FactCategory, ...] = (
    FactCategory.LATEST_REQUEST,
    FactCategory.FILES_MODIFIED,
    FactCategory.UNFINISHED,
)
"""The categories a compaction must recover completely (the 100% target)."""


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing a resumed agent needs, and how to recognise it in a compacted transcript.

    `needles` are the accepted spellings of the fact's key string; the first is the string as
    the transcript has it, the others are equivalent forms (a path relative to the workspace,
    a command without its ``cd dir &&`` prefix or ``2>&1 | tail`` suffix). One occurring is
    enough. When `outcome_words` is not empty, one of them must also occur (ignoring case)
    near an occurrence of a needle: that is how a failed command's outcome is checked.

    `terms` are the key terms of a prose fact (a request, a decision, the next step), which a
    summary may paraphrase: the fact is also recovered when most of them occur close together
    (`recall.text.terms_recovered`). Empty for facts that must occur as written.
    """

    category: FactCategory
    label: str
    needles: tuple[str, ...]
    outcome_words: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CategoryRecovery:
    """How many facts of one category the compacted transcript still holds."""

    category: FactCategory
    total: int
    recovered: int
    missing: tuple[str, ...] = ()
    """The labels of the facts not recovered, in transcript order."""

    @property
    def share(self) -> float | None:
        """`recovered / total`, or None when the transcript has no fact of this category."""
        return None if self.total == 0 else self.recovered / self.total


@dataclass(frozen=True, slots=True)
class RecoveryReport:
    """Recovery per category, every category present (with total 0 when it has no fact)."""

    by_category: dict[FactCategory, CategoryRecovery]

    def __getitem__(self, category: FactCategory) -> CategoryRecovery:
        return self.by_category[category]

    @property
    def missing(self) -> tuple[str, ...]:
        """Every missing fact's label, category by category."""
        return tuple(label for entry in self.by_category.values() for label in entry.missing)

    @property
    def meets_target(self) -> bool:
        """True when every fact of the `TARGET_CATEGORIES` is recovered."""
        return all(self[category].share in (None, 1.0) for category in TARGET_CATEGORIES)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready form: per category total, recovered, share and missing labels."""
        return {
            str(category): {
                "total": entry.total,
                "recovered": entry.recovered,
                "share": entry.share,
                "missing": list(entry.missing),
            }
            for category, entry in self.by_category.items()
        }
