"""Fragments and the exact budget, for the skeleton compressor's unit and property tests."""

from __future__ import annotations

import math
from fractions import Fraction

from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ids import new_ulid


def frag(fragment_id: str, relevance: float, tokens: int) -> ContextFragment:
    return ContextFragment(
        fragment_id=fragment_id,
        decision_id=new_ulid(),
        relevance=relevance,
        token_count=tokens,
        content=f"content of {fragment_id}",
    )


def exact_budget(original_tokens: int, ratio: float) -> int:
    """floor(original * (1 - ratio)) on the ratio as written, with Fraction (not Decimal)."""
    return math.floor(original_tokens * (1 - Fraction(repr(ratio))))
