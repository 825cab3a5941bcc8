"""The skeleton ratio: how much of a parent's context a child does *not* inherit."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from numbers import Real

from cleveragents.domain.errors import InvalidRatioError

DEFAULT_SKELETON_RATIO = 0.3
"""Applied when neither the spawn, the parent plan nor the project sets a ratio."""


def validate_ratio(ratio: object) -> float:
    """Return `ratio` as a float in the closed interval [0.0, 1.0], else raise.

    `InvalidRatioError` is a `ValueError`, as the design requires. Booleans are refused: `True` is
    an int to Python but never a ratio a user meant.
    """
    if isinstance(ratio, bool) or not isinstance(ratio, Real | Decimal):
        raise InvalidRatioError(f"skeleton ratio must be a number in [0.0, 1.0], got {ratio!r}")
    value = float(ratio)
    if math.isnan(value) or math.isinf(value) or not 0.0 <= value <= 1.0:
        raise InvalidRatioError(f"skeleton ratio must be within [0.0, 1.0], got {ratio!r}")
    return value


def ratio_as_decimal(ratio: float) -> Decimal:
    """The ratio as written: `repr` of a float is the shortest text that round-trips, so 0.7 is
    Decimal("0.7") and `1000 * (1 - 0.7)` is exactly 300, not 300.00000000000006."""
    return Decimal(repr(ratio))


def skeleton_budget(original_tokens: int, ratio: float) -> int:
    """``floor(original_tokens * (1 - ratio))`` computed exactly on the ratio as written.

    Exact rational arithmetic (a Decimal context would round ``1 - 1e-30`` to 1). Token counts
    are integers, so "running total <= budget" is "running total <= floor(budget)".
    """
    return math.floor(original_tokens * (1 - Fraction(ratio_as_decimal(ratio))))
