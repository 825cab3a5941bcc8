"""Token estimates, for the callers that the seeds allow to fall back when counting fails."""

from __future__ import annotations

import math

HEURISTIC_CHARS_PER_TOKEN = 4


def heuristic_token_estimate(text: str) -> int:
    """``ceil(len(text) / 4)``: an estimate, never presented as a count. Callers that use it say
    so (the seeds' "[WARNING: Token count estimated via heuristic ...]")."""
    return math.ceil(len(text) / HEURISTIC_CHARS_PER_TOKEN)
