"""StructuralForms: each form of an artifact rendered at most once, in the order smart mode
needs them."""

from __future__ import annotations

from cleveragents.application.services.artifact_compression.strategy import (
    ArtifactStrategy,
    MalformedCompressionError,
    Priority,
)
from cleveragents.application.services.artifact_compression.structural_forms import (
    StructuralForms,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms
from cleveragents.domain.artifact import ArtifactKind


class CountingStrategy(ArtifactStrategy):
    """Forms named after their level; records every rendering."""

    kind = ArtifactKind.TEXT

    def __init__(self, strongest: int | None, levels: int, malformed_tier2: bool = False):
        self.strongest_level = strongest
        self.levels = levels
        self.malformed_tier2 = malformed_tier2
        self.calls: list[int] = []

    def tier2(self, text: str, terms: TaskTerms) -> str:
        self.calls.append(0)
        if self.malformed_tier2:
            raise MalformedCompressionError("bad")
        return f"{text}-tier2"

    def shrink(self, text: str, terms: TaskTerms, level: int) -> str | None:
        self.calls.append(level)
        return f"{text}-level{level}" if level <= self.levels else None

    def priorities(self, lines: list[str], terms: TaskTerms) -> list[Priority]:
        return [Priority.CONTEXT for _ in lines]

    def gap_marker(self, omitted_lines: int) -> str:
        return "..."


def test_the_strongest_form_is_rendered_once_and_reused() -> None:
    strategy = CountingStrategy(strongest=2, levels=2)
    forms = StructuralForms(strategy, TaskTerms(), "x")
    assert forms.strongest() == "x-level2"
    assert forms.strongest() == "x-level2"
    assert list(forms.gentlest_first()) == ["x-tier2", "x-level1", "x-level2"]
    assert strategy.calls == [2, 0, 1]  # level 2 was not rendered a second time


def test_gentlest_first_renders_lazily_and_skips_a_malformed_tier2() -> None:
    strategy = CountingStrategy(strongest=2, levels=2, malformed_tier2=True)
    forms = StructuralForms(strategy, TaskTerms(), "x")
    iterator = forms.gentlest_first()
    assert next(iterator) == "x-level1"
    assert strategy.calls == [0, 1]  # level 2 is not rendered until it is asked for


def test_without_a_declared_strongest_level_every_candidate_is_rendered() -> None:
    strategy = CountingStrategy(strongest=None, levels=1)
    forms = StructuralForms(strategy, TaskTerms(), "x")
    assert forms.strongest() is None
    assert forms.candidates() == ["x-tier2", "x-level1"]
    assert forms.candidates() == ["x-tier2", "x-level1"]
    assert strategy.calls == [0, 1, 2]  # level 2 said "no further level"; nothing twice


class FailingStrongest(CountingStrategy):
    def shrink(self, text: str, terms: TaskTerms, level: int) -> str | None:
        self.calls.append(level)
        if level == self.strongest_level:
            raise MalformedCompressionError("no valid strongest form")
        return f"{text}-level{level}"


def test_a_malformed_strongest_form_falls_back_to_the_candidates() -> None:
    strategy = FailingStrongest(strongest=2, levels=2)
    forms = StructuralForms(strategy, TaskTerms(), "x")
    assert forms.strongest() is None
    assert forms.strongest() is None
    assert strategy.calls == [2]  # tried once
    assert forms.candidates() == ["x-tier2", "x-level1"]  # level 2 stops the levels
