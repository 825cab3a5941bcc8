"""Unit tests of the skeleton compressor (docs/skeleton-compressor.md)."""

from __future__ import annotations

import math

import pytest

from cleveragents.application.services.plans.skeleton_compressor import (
    DEFAULT_SKELETON_RATIO,
    SkeletonCompressorService,
    SkeletonResult,
)
from cleveragents.domain.errors import InvalidInputError, InvalidRatioError
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ids import new_ulid
from tests.skeleton_samples import exact_budget, frag


def ids(result: SkeletonResult) -> list[str]:
    return [f.fragment_id for f in result.fragments]


@pytest.fixture
def compressor() -> SkeletonCompressorService:
    return SkeletonCompressorService()


# --- examples ---------------------------------------------------------------------------------


def test_default_ratio_is_point_three() -> None:
    assert DEFAULT_SKELETON_RATIO == 0.3


def test_the_documented_example(compressor: SkeletonCompressorService) -> None:
    a, b, c = frag("A", 0.9, 400), frag("B", 0.6, 300), frag("C", 0.3, 300)
    result = compressor.compress([c, a, b], 0.5)
    assert result.fragments == (a,)
    assert result.metadata.ratio == 0.5
    assert result.metadata.original_tokens == 1000
    assert result.metadata.compressed_tokens == 400
    assert result.metadata.source_decision_ids == (a.decision_id,)


def test_ratio_zero_keeps_everything_in_rank_order(compressor: SkeletonCompressorService) -> None:
    fragments = [frag("b", 0.5, 10), frag("a", 0.5, 20), frag("c", 0.9, 30), frag("d", 0.1, 0)]
    result = compressor.compress(fragments, 0.0)
    assert ids(result) == ["c", "a", "b", "d"]
    assert result.metadata.original_tokens == 60
    assert result.metadata.compressed_tokens == 60
    assert result.metadata.source_decision_ids == tuple(f.decision_id for f in result.fragments)


def test_ratio_one_keeps_exactly_the_top_fragment(compressor: SkeletonCompressorService) -> None:
    # Zero-token fragments would fit any budget, yet ratio 1.0 keeps only the top one.
    fragments = [frag("z", 0.2, 0), frag("top", 0.8, 5), frag("y", 0.1, 0)]
    result = compressor.compress(fragments, 1.0)
    assert ids(result) == ["top"]
    assert result.metadata.original_tokens == 5
    assert result.metadata.compressed_tokens == 5
    assert result.metadata.ratio == 1.0


def test_ratio_none_applies_default(compressor: SkeletonCompressorService) -> None:
    # budget at 0.3 = 700: A (400) + C (300) fit; B (301) does not once A is in.
    fragments = [frag("A", 0.9, 400), frag("B", 0.6, 301), frag("C", 0.3, 300)]
    implicit = compressor.compress(fragments)
    explicit = compressor.compress(fragments, 0.3)
    assert implicit.metadata.ratio == 0.3
    assert implicit == explicit
    assert ids(implicit) == ["A", "C"]
    assert implicit.metadata.compressed_tokens == 700


@pytest.mark.parametrize("ratio", [None, 0.0, 0.5, 1.0])
def test_empty_input(compressor: SkeletonCompressorService, ratio: float | None) -> None:
    result = compressor.compress([], ratio)
    assert result.fragments == ()
    assert result.metadata.original_tokens == 0
    assert result.metadata.compressed_tokens == 0
    assert result.metadata.source_decision_ids == ()
    assert result.metadata.retained_pct == 100.0


def test_accepts_any_iterable(compressor: SkeletonCompressorService) -> None:
    fragments = [frag("a", 0.5, 1), frag("b", 0.6, 1)]
    result = compressor.compress(iter(fragments), 0.0)
    assert ids(result) == ["b", "a"]


# --- exact decimal budget ---------------------------------------------------------------------


def test_budget_is_exact_at_point_seven_sum_equal_to_budget_kept(
    compressor: SkeletonCompressorService,
) -> None:
    # 1000 * (1 - 0.7) is 300 exactly; 200 + 100 = 300 fits.
    fragments = [frag("A", 0.9, 200), frag("B", 0.8, 100), frag("C", 0.1, 700)]
    result = compressor.compress(fragments, 0.7)
    assert ids(result) == ["A", "B"]
    assert result.metadata.compressed_tokens == 300


def test_budget_is_exact_at_point_seven_one_over_is_skipped(
    compressor: SkeletonCompressorService,
) -> None:
    # 200 + 101 = 301 > 300: B is skipped even though float arithmetic gives 300.00000000000006.
    fragments = [frag("A", 0.9, 200), frag("B", 0.8, 101), frag("C", 0.1, 699)]
    result = compressor.compress(fragments, 0.7)
    assert ids(result) == ["A"]
    assert result.metadata.compressed_tokens == 200


def test_budget_is_exact_where_float_arithmetic_falls_short(
    compressor: SkeletonCompressorService,
) -> None:
    # In floats 1000 * (1 - 0.8) == 199.99999999999996, whose floor 199 would refuse B.
    assert 1000 * (1 - 0.8) < 200
    fragments = [frag("A", 0.9, 150), frag("B", 0.8, 50), frag("C", 0.1, 800)]
    result = compressor.compress(fragments, 0.8)
    assert ids(result) == ["A", "B"]
    assert result.metadata.compressed_tokens == 200


def test_budget_is_exact_on_tiny_inputs(compressor: SkeletonCompressorService) -> None:
    # 10 * (1 - 0.9) is 1 exactly (0.9999999999999998 in floats): the 1-token fragment fits.
    fragments = [frag("A", 0.9, 0), frag("B", 0.5, 1), frag("C", 0.1, 9)]
    result = compressor.compress(fragments, 0.9)
    assert ids(result) == ["A", "B"]


@pytest.mark.parametrize("ratio", [1e-30, 5e-324])
def test_budget_is_exact_for_tiny_ratios(
    compressor: SkeletonCompressorService, ratio: float
) -> None:
    # 1000 * (1 - 1e-30) = 999.999...: floor 999, so B (600 + 400 = 1000) must be skipped.
    assert exact_budget(1000, ratio) == 999
    fragments = [frag("A", 0.9, 600), frag("B", 0.5, 400)]
    result = compressor.compress(fragments, ratio)
    assert ids(result) == ["A"]


# --- skip and continue, top always kept ---------------------------------------------------------


def test_skip_and_continue(compressor: SkeletonCompressorService) -> None:
    # budget 500: A 300 kept; B 250 would make 550 -> skipped; C 150 -> 450 kept; D 60 -> skipped;
    # E 50 -> 500 kept (exactly the budget).
    fragments = [
        frag("A", 0.9, 300),
        frag("B", 0.8, 250),
        frag("C", 0.7, 150),
        frag("D", 0.6, 60),
        frag("E", 0.5, 50),
        frag("F", 0.4, 190),
    ]
    assert sum(f.token_count for f in fragments) == 1000
    result = compressor.compress(fragments, 0.5)
    assert ids(result) == ["A", "C", "E"]
    assert result.metadata.compressed_tokens == 500


def test_top_fragment_kept_even_when_it_exceeds_budget(
    compressor: SkeletonCompressorService,
) -> None:
    fragments = [frag("big", 0.95, 900), frag("small", 0.5, 50), frag("tiny", 0.4, 50)]
    result = compressor.compress(fragments, 0.5)  # budget 500 < 900
    assert ids(result) == ["big"]
    assert result.metadata.compressed_tokens == 900  # the truth, above the budget
    assert result.metadata.original_tokens == 1000
    assert result.metadata.retained_pct == 90.0


def test_zero_token_fragments_are_kept_while_within_budget(
    compressor: SkeletonCompressorService,
) -> None:
    fragments = [frag("a", 0.9, 5), frag("b", 0.5, 0), frag("c", 0.4, 5)]
    result = compressor.compress(fragments, 0.5)  # budget floor(5) = 5
    assert ids(result) == ["a", "b"]


# --- invalid input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ratio",
    [1.5, -0.1, 1.0000001, math.nan, math.inf, -math.inf, True, False, "0.5", b"0.5"],
)
def test_invalid_ratio_raises_value_error(
    compressor: SkeletonCompressorService, ratio: object
) -> None:
    with pytest.raises(ValueError, match="ratio") as caught:
        compressor.compress([frag("a", 0.5, 1)], ratio)  # type: ignore[arg-type]
    assert isinstance(caught.value, InvalidRatioError)


def test_invalid_ratio_raises_even_for_empty_input(compressor: SkeletonCompressorService) -> None:
    with pytest.raises(ValueError, match="ratio"):
        compressor.compress([], 2.0)


def test_duplicate_fragment_ids_raise(compressor: SkeletonCompressorService) -> None:
    with pytest.raises(ValueError, match="duplicate fragment_id 'x'") as caught:
        compressor.compress([frag("x", 0.5, 1), frag("y", 0.5, 1), frag("x", 0.9, 2)], 0.0)
    assert isinstance(caught.value, InvalidInputError)


def test_non_fragment_input_raises(compressor: SkeletonCompressorService) -> None:
    with pytest.raises(ValueError, match="expected ContextFragment"):
        compressor.compress([frag("a", 0.5, 1), {"fragment_id": "b"}], 0.0)  # type: ignore[list-item]


def test_ties_broken_by_fragment_id_ascending(compressor: SkeletonCompressorService) -> None:
    fragments = [frag("b", 0.5, 10), frag("c", 0.5, 10), frag("a", 0.5, 10), frag("B", 0.5, 10)]
    everything = compressor.compress(fragments, 0.0)
    assert ids(everything) == ["B", "a", "b", "c"]
    # With room for two, the tie-break decides which two: B and a.
    two = compressor.compress(fragments, 0.5)
    assert ids(two) == ["B", "a"]
    top = compressor.compress(list(reversed(fragments)), 1.0)
    assert ids(top) == ["B"]


def test_shared_decision_id_listed_once(compressor: SkeletonCompressorService) -> None:
    decision = new_ulid()
    a = ContextFragment(fragment_id="a", decision_id=decision, relevance=0.9, token_count=1)
    b = ContextFragment(fragment_id="b", decision_id=decision, relevance=0.8, token_count=1)
    result = compressor.compress([a, b], 0.0)
    assert result.fragments == (a, b)
    assert result.metadata.source_decision_ids == (decision,)


def test_fragment_content_is_preserved(compressor: SkeletonCompressorService) -> None:
    a = frag("a", 0.9, 3)
    result = compressor.compress([a], 0.3)
    assert result.fragments[0] is a
