"""The shipped per-line weights are the ones measured on the corpus with the real tokenizer."""

from __future__ import annotations

from decimal import Decimal

import pytest

from benchmarks.budget_weights import (
    ENCODING,
    MEASURED_FOLDERS,
    derived_weights,
    measure,
    weight_of,
    weights_table,
)
from cleveragents.adapters.budget_weights.heuristics_file import (
    default_heuristics,
    default_weights_text,
)
from cleveragents.adapters.tokens.tiktoken_counter import TiktokenCounter
from cleveragents.domain.context_budget import ArtifactKind


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
    assert sorted(kinds) == sorted(ArtifactKind)


def test_the_shipped_weights_are_the_measured_ones() -> None:
    measured = derived_weights(measure(TiktokenCounter(ENCODING)))
    assert measured == default_heuristics().weights
    # The file holds the table exactly as the script prints it.
    assert weights_table(measured) + "\n" in default_weights_text()
