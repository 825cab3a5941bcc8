"""The first needle of each fact, for the unit and corpus tests of recovery."""

from __future__ import annotations

from cleveragents.application.services.compaction.recall import Fact


def needles(facts: tuple[Fact, ...]) -> list[str]:
    return [fact.needles[0] for fact in facts]
