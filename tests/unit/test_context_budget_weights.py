"""How the per-line weights are derived from their measurements; tests/integration/
test_context_budget_corpus.py checks the shipped ones against the corpus."""

from __future__ import annotations

from decimal import Decimal

import pytest

from benchmarks.budget_weights import (
    MEASURED_FOLDERS,
    weight_of,
)
from cleveragents.domain.context_budget import BudgetKind


@pytest.mark.parametrize(
    ("tokens", "lines", "weight"),
    [
        (100, 10, "10.0"),
        (101, 10, "10.1"),
        (1001, 100, "10.1"),
        (43_583, 3_511, "12.5"),
        (5, 0, "5.0"),
    ],
)
def test_weights_round_up_to_the_next_tenth(tokens: int, lines: int, weight: str) -> None:
    assert weight_of(tokens, lines) == Decimal(weight)
    assert str(weight_of(tokens, lines)) == weight


def test_every_kind_is_measured_by_exactly_one_corpus_folder() -> None:
    kinds = [kind for kinds in MEASURED_FOLDERS.values() for kind in kinds]
    assert sorted(kinds) == sorted(BudgetKind)
