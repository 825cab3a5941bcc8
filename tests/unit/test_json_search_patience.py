"""The JSON ladder's search stops refining once it runs out of patience, and the survey counts
what one walk of a document costs (`Survey.entries`)."""

from __future__ import annotations

import json

from cleveragents.application.services.artifact_compression.kinds.json.detail import Detail
from cleveragents.application.services.artifact_compression.kinds.json.ladder import (
    ENOUGH,
    Family,
    richest,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms


class _Sizes:
    """A measure whose level `extra_items = k` is `k ** 3 // 100000 + 100` characters (convex:
    the interpolation undershoots, step after step), and how often it was asked."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, detail: Detail, cap: float) -> int:
        self.calls += 1
        return detail.extra_items**3 // 100_000 + 100


def _family() -> Family:
    return Family(0, 0, lambda: 1000, lambda knob: Detail(extra_items=knob))


def test_a_patient_search_comes_close_to_the_limit() -> None:
    sizes = _Sizes()
    choice = richest([_family()], sizes, 5000)
    assert 4800 <= choice.chars <= 5000
    assert sizes.calls > 2


def test_an_impatient_search_settles_for_a_level_within_enough_of_the_limit() -> None:
    patient = _Sizes()
    richest([_family()], patient, 5000)
    sizes = _Sizes()
    choice = richest([_family()], sizes, 5000, lambda: False)
    assert ENOUGH * 5000 <= choice.chars <= 5000
    assert sizes.calls < patient.calls


def test_patience_running_out_midway_ends_the_search_at_enough() -> None:
    sizes = _Sizes()
    choice = richest([_family()], sizes, 5000, lambda: sizes.calls < 3)
    assert choice.chars <= 5000
    assert choice.chars >= ENOUGH * 5000


def _entries(value: object) -> int:
    if isinstance(value, dict):
        return len(value) + 1 + sum(_entries(member) for member in value.values())
    if isinstance(value, list):
        return len(value) + 1 + sum(_entries(item) for item in value)
    return 0


def test_the_survey_counts_every_container_member_and_item() -> None:
    # Repeated shapes (the survey's known-signature path), items that are containers, a
    # scalar array, nesting and an empty object.
    shaped = {f"field{number}": number for number in range(10)}
    document = {
        "items": [dict(shaped, tags=["a", "b", "c"], nested={"x": [1, 2]}) for _ in range(30)],
        "matrix": [[1, 2, 3], [4, 5, 6]],
        "empty": {},
        "mixed": [{"k": n} if n % 2 else [n] for n in range(7)],
    }
    value = json.loads(json.dumps(document))
    assert Survey(value, TaskTerms()).entries == _entries(value)
