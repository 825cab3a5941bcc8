"""`compact(messages, context_window=N)` alone works for small windows: the reserve, the recent
turns and the summary scale to the window, and the result fits under its threshold."""

from __future__ import annotations

import pytest

import cleveragents


def conversation(turns: int) -> list[dict[str, str]]:
    messages = []
    for turn in range(turns):
        messages.append({"role": "user", "content": f"step {turn}: run the tests of module {turn}"})
        messages.append(
            {"role": "assistant", "content": f"ran module {turn}: " + "3 passed, 1 failed " * 60}
        )
    return messages


@pytest.mark.parametrize("window", [8_000, 20_000, 32_000])
def test_a_window_alone_is_enough_to_compact(window: int) -> None:
    messages = conversation(120)
    result = cleveragents.compact(messages, context_window=window)
    assert result.status == "compacted"
    assert result.tokens_after <= result.threshold < window


def test_an_explicit_value_still_wins_and_an_impossible_one_is_one_error() -> None:
    result = cleveragents.compact(conversation(2), context_window=20_000, reserve_tokens=1_000)
    assert result.threshold == 19_000
    with pytest.raises(cleveragents.InvalidPolicyError, match="keep_recent_tokens"):
        cleveragents.compact(conversation(2), context_window=8_000, keep_recent_tokens=30_000)
