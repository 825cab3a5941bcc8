"""The structural forms of one artifact (Tier 2 and the strategy's shrink levels), each computed
at most once, so they can be prepared while the raw token count runs on another thread."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import suppress

from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    MalformedCompressionError,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind

MAX_SUMMARY_LEVEL = 3
"""Shrink levels smart mode tries: beyond 3 a JSON array would lose every item, and with them
its keys; packing lines by priority keeps more."""


class StructuralForms:
    """Lazily computed, cached structural forms of `text`."""

    def __init__(self, strategy: ArtifactStrategy, terms: TaskTerms, text: str) -> None:
        self._strategy = strategy
        self.terms = terms
        self.text = text
        self._tier2: str | None = None
        self._tier2_done = False
        self._candidates: list[str] | None = None
        self._strongest: str | None = None
        self._no_strongest = False

    def tier2(self) -> str | None:
        """The seed's Tier 2 form, or None when it is malformed (the seed then truncates)."""
        if not self._tier2_done:
            with suppress(MalformedCompressionError):
                self._tier2 = self._strategy.tier2(self.text, self.terms)
            self._tier2_done = True
        return self._tier2

    @property
    def strategy(self) -> ArtifactStrategy:
        return self._strategy

    @property
    def kind(self) -> ArtifactKind:
        return self._strategy.kind

    @property
    def ordered(self) -> bool:
        """Whether the forms shorten level by level up to a declared strongest one."""
        return self._strategy.strongest_level is not None

    def prepared_tier2(self) -> str | None:
        """Tier 2 when it has already been rendered (and is well-formed); never renders it."""
        return self._tier2 if self._tier2_done else None

    def tier2_share(self, sample: str) -> float | None:
        """Tier 2's length as a share of `sample`'s, rendered on the sample alone: a cheap
        forecast of how much of the whole text Tier 2 keeps. None when it is malformed."""
        try:
            return len(self._strategy.tier2(sample, self.terms)) / max(len(sample), 1)
        except MalformedCompressionError:
            return None

    def strongest(self) -> str | None:
        """The strategy's strongest shrink level, when it declares one no gentler form is
        shorter than (`ArtifactStrategy.strongest_level`); else None."""
        level = self._strategy.strongest_level
        if level is None or self._no_strongest:
            return None
        if self._strongest is None:
            try:
                self._strongest = self._shrink(level)
            except MalformedCompressionError:
                self._strongest = None
            # Without it, the gentler forms are rendered one by one instead.
            self._no_strongest = self._strongest is None
        return self._strongest

    def gentlest_first(self) -> Iterator[str]:
        """Tier 2 (when well-formed), then each shrink level up to the strongest, each rendered
        only when asked for; duplicates are skipped."""
        return self._forms(self._strategy.strongest_level or 0)

    def _forms(self, last_level: int) -> Iterator[str]:
        """Tier 2, then shrink levels 1 to `last_level` until one is malformed or missing,
        duplicates skipped, each rendered only when asked for."""
        seen: set[str] = set()
        tier2 = self.tier2()
        if tier2 is not None:
            seen.add(tier2)
            yield tier2
        for level in range(1, last_level + 1):
            try:
                shrunk = self._shrink(level)
            except MalformedCompressionError:
                return
            if shrunk is None:
                return
            if shrunk not in seen:
                seen.add(shrunk)
                yield shrunk

    def _shrink(self, level: int) -> str | None:
        if level == self._strategy.strongest_level and self._strongest is not None:
            return self._strongest
        return self._strategy.shrink(self.text, self.terms, level)

    def candidates(self) -> list[str]:
        """Tier 2 and the shrink levels that still summarise (up to `MAX_SUMMARY_LEVEL`), in
        that order, duplicates dropped."""
        if self._candidates is None:
            self._candidates = list(self._forms(MAX_SUMMARY_LEVEL))
        return self._candidates
