"""Small windows just work: given only a window (or a window and a reserve), the unset settings
scale to it by the documented rules, every such policy is coherent, the defaults of a large
window are the product's defaults unchanged, and an explicit value always wins."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.domain.policy import (
    DEFAULT_KEEP_RECENT_TOKENS,
    DEFAULT_RESERVE_TOKENS,
    DEFAULT_SUMMARY_TOKENS,
    MIN_SUMMARY_TOKENS,
    ContextPolicy,
)

# Below this, a summary of MIN_SUMMARY_TOKENS and a recent turn no longer fit beside a reserve.
SMALLEST_WINDOW = 400


@given(st.integers(min_value=SMALLEST_WINDOW, max_value=2_000_000))
def test_a_window_alone_gives_a_coherent_policy(window: int) -> None:
    policy = ContextPolicy(context_window=window).check_coherent()
    reserve = policy.effective_reserve_tokens
    keep = policy.effective_keep_recent_tokens
    summary = policy.effective_summary_tokens
    assert reserve == min(DEFAULT_RESERVE_TOKENS, window // 4)
    assert keep == min(DEFAULT_KEEP_RECENT_TOKENS, (window - reserve) * 50 // 100)
    assert MIN_SUMMARY_TOKENS <= summary <= DEFAULT_SUMMARY_TOKENS
    assert keep + summary <= window - reserve


@given(st.integers(min_value=65_536, max_value=2_000_000))
def test_a_large_window_keeps_the_products_defaults(window: int) -> None:
    policy = ContextPolicy(context_window=window)
    assert policy.effective_reserve_tokens == DEFAULT_RESERVE_TOKENS
    assert policy.effective_keep_recent_tokens == DEFAULT_KEEP_RECENT_TOKENS
    assert policy.effective_summary_tokens == DEFAULT_SUMMARY_TOKENS


@given(
    st.integers(min_value=2_000, max_value=500_000),
    st.integers(min_value=0, max_value=100_000),
)
def test_a_given_reserve_wins_and_the_recent_turns_scale_to_what_it_leaves(
    window: int, reserve: int
) -> None:
    policy = ContextPolicy(context_window=window, reserve_tokens=reserve)
    assert policy.effective_reserve_tokens == reserve
    if reserve < window - 2 * MIN_SUMMARY_TOKENS:
        policy.check_coherent()
        assert policy.effective_keep_recent_tokens <= (window - reserve) * 50 // 100 + 1
