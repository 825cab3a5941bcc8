"""Token estimates, for the callers that the design allows to fall back when counting fails, and
the bound on token figures."""

from __future__ import annotations

import math

HEURISTIC_CHARS_PER_TOKEN = 4

MAX_TOKEN_COUNT = 10**12
"""The largest token figure accepted anywhere (a fragment's count, a request's usage, a policy's
window): one trillion, millions of times the largest context window. The bound keeps stored
figures, and sums of millions of them, within the 64-bit signed integers SQLite and PostgreSQL
store, so an absurd figure is refused as input instead of failing in the database."""


def heuristic_token_estimate(text: str) -> int:
    """``ceil(len(text) / 4)``: an estimate, never presented as a count. Callers that use it say
    so (the design's "[WARNING: Token count estimated via heuristic ...]")."""
    return math.ceil(len(text) / HEURISTIC_CHARS_PER_TOKEN)
