"""A size measured up to a cap and then scaled keeps the measure's promise: over the cap
whenever the scaled size is, exact (scaled) otherwise."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.json.fitter import scaled_size


def _measure(exact: int, asked: list[float]) -> Callable[[float], int]:
    """A measure that stops past its cap, as the pruner's does."""

    def measure(cap: float) -> int:
        asked.append(cap)
        return exact if exact <= cap else int(min(exact, cap + 1))

    return measure


@given(
    st.integers(min_value=0, max_value=10**7),
    st.integers(min_value=0, max_value=10**7),
    st.floats(min_value=0.05, max_value=4.0),
)
def test_a_scaled_size_is_over_its_cap_exactly_when_the_scaled_size_is(
    exact: int, cap: int, scale: float
) -> None:
    asked: list[float] = []
    found = scaled_size(_measure(exact, asked), cap, scale)
    assert asked == [cap / scale]  # measured up to the cap the scale allows
    if exact > cap / scale:
        assert found > cap
    else:
        assert found == int(exact * scale) <= cap


def test_a_size_just_over_the_scaled_cap_is_not_rounded_back_in() -> None:
    # Measured to the scaled cap plus one, 1001 * 0.5 rounds down to the cap: it fits no more.
    assert scaled_size(_measure(5000, []), 500, 0.5) == 501
