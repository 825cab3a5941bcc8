"""The seed's Tier 3, made exact: cut at a paragraph boundary, and back off until it fits.

The seed estimates the cut at ``budget * 4`` characters and cuts at the last paragraph boundary
before it. On code four characters are often more than a token, so that can overshoot. Here the
kept text plus the marker is counted with the real tokenizer and, while it is over the budget,
the cut moves back: to an earlier paragraph boundary, then to a line boundary, then to a token
boundary. The marker reports what was really omitted: raw tokens minus the tokens kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cleveragents.application.ports.token_counter import TokenCounter

HEURISTIC_CHARS_PER_TOKEN = 4
PARAGRAPH = "\n\n"
SEPARATOR = "\n\n"


def truncation_marker(omitted_tokens: int) -> str:
    return f"[TRUNCATED: content exceeds budget, remaining {omitted_tokens} tokens omitted]"


# When even the marker does not fit, shorter ones, then nothing (a budget of a few tokens).
_SHORT_MARKERS: tuple[Callable[[int], str], ...] = (
    truncation_marker,
    lambda omitted: f"[TRUNCATED: {omitted} tokens omitted]",
    lambda _omitted: "[TRUNCATED]",
)


@dataclass(frozen=True, slots=True)
class Truncated:
    content: str
    kept_text: str


def truncate_to_budget(text: str, budget: int, raw_tokens: int, counter: TokenCounter) -> Truncated:
    """The longest seed-style head of `text` that, with the marker, fits `budget` tokens."""
    char_limit = budget * HEURISTIC_CHARS_PER_TOKEN
    seed_cut = text.rfind(PARAGRAPH, 0, char_limit)
    if seed_cut <= 0:
        seed_cut = min(len(text), char_limit)

    def assemble(kept: str) -> str | None:
        """kept + marker if that fits, trying shorter markers; None if none fits."""
        omitted = max(raw_tokens - (counter.count(kept) if kept else 0), 0)
        for marker in _SHORT_MARKERS:
            content = f"{kept}{SEPARATOR}{marker(omitted)}" if kept else marker(omitted)
            if counter.count(content) <= budget:
                return content
        return None

    head = text[:seed_cut]
    content = assemble(head)
    if content is not None:
        return Truncated(content, head)

    for boundaries in (_paragraph_ends(head), _line_ends(head)):
        fitted = _last_fitting(head, boundaries, assemble)
        if fitted is not None:
            return fitted

    # Not even the first line fits: cut at a token boundary inside it.
    marker_room = counter.count(SEPARATOR + truncation_marker(raw_tokens))
    kept = counter.prefix_within(head, max(budget - marker_room, 0))
    while kept:
        content = assemble(kept)
        if content is not None:
            return Truncated(content, kept)
        kept = counter.prefix_within(kept, max(counter.count(kept) - 1, 0))
    return Truncated(assemble("") or "", "")


def _last_fitting(
    head: str, boundaries: list[int], assemble: Callable[[str], str | None]
) -> Truncated | None:
    """The last boundary whose prefix fits, by binary search (fitting is monotone in practice:
    a longer prefix never has fewer tokens, up to merges at the cut, which the final count
    checks)."""
    if not boundaries:
        return None
    low, high = 0, len(boundaries) - 1
    best: Truncated | None = None
    while low <= high:
        middle = (low + high) // 2
        kept = head[: boundaries[middle]]
        content = assemble(kept)
        if content is not None:
            best = Truncated(content, kept)
            low = middle + 1
        else:
            high = middle - 1
    return best


def _paragraph_ends(text: str) -> list[int]:
    return _ends(text, PARAGRAPH)


def _line_ends(text: str) -> list[int]:
    return _ends(text, "\n")


def _ends(text: str, separator: str) -> list[int]:
    """Offsets where a prefix ending just before `separator` stops (never 0)."""
    ends = []
    position = text.find(separator)
    while position >= 0:
        if position > 0:
            ends.append(position)
        position = text.find(separator, position + len(separator))
    return ends
