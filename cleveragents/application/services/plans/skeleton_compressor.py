"""Skeleton compression: the part of a parent's context that a child plan inherits.

The algorithm and its decisions (docs/skeleton-compressor.md):

* fragments are ranked by ``(-relevance, fragment_id)``, which is also the output order, so the
  same fragments in any arrival order give identical output;
* ``budget = original_tokens * (1 - ratio)`` in exact arithmetic on the ratio as written;
* a fragment that would push the running total over the budget is skipped and iteration goes on,
  so a later, smaller fragment can still fit;
* the top-ranked fragment is always kept, so a child never inherits nothing (ratio 1.0 keeps only
  it); ``compressed_tokens`` then tells the truth even where it exceeds the budget.

Speed (a million fragments in well under two seconds): every field is read once, in arrival
order, into flat lists; the ranking sorts indices, not objects; permutations are applied with
``itemgetter`` in one C loop; and the greedy pass's leading run (every fragment before the first
one that overflows is kept) is found with a prefix sum and a binary search instead of a Python
loop. Touching a million model objects in ranked (that is, random memory) order costs more than
the sort itself.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, repeat
from operator import attrgetter, itemgetter, not_
from typing import TypeVar

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ratio import DEFAULT_SKELETON_RATIO, skeleton_budget, validate_ratio
from cleveragents.domain.skeleton import SkeletonMetadata

__all__ = ["DEFAULT_SKELETON_RATIO", "SkeletonCompressorService", "SkeletonResult"]

_relevance = attrgetter("relevance")
_fragment_id = attrgetter("fragment_id")
_token_count = attrgetter("token_count")
_decision_id = attrgetter("decision_id")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SkeletonResult:
    """The kept fragments, in rank order, and the audit record of the pass."""

    fragments: tuple[ContextFragment, ...]
    metadata: SkeletonMetadata


class SkeletonCompressorService:
    """Compresses a plan's accumulated context to a skeleton for its children."""

    def compress(
        self, fragments: Iterable[ContextFragment], ratio: float | None = None
    ) -> SkeletonResult:
        """Keep the most relevant fragments within ``original_tokens * (1 - ratio)`` tokens.

        `ratio` None applies `DEFAULT_SKELETON_RATIO`. Raises `ValueError` (an
        `InvalidRatioError`) for a ratio outside [0.0, 1.0], NaN or infinite, and
        `InvalidInputError` (also a `ValueError`) for fragments that are not `ContextFragment`s
        or that share a fragment id (their order would then depend on arrival order).
        """
        applied = validate_ratio(DEFAULT_SKELETON_RATIO if ratio is None else ratio)
        items = _checked(fragments)
        relevances = list(map(_relevance, items))
        fragment_ids = list(map(_fragment_id, items))
        tokens = list(map(_token_count, items))
        if len(set(fragment_ids)) != len(items):
            raise InvalidInputError(f"duplicate fragment_id {_first_duplicate(fragment_ids)!r}")

        # Rank: a stable sort by fragment id, then a stable sort by relevance descending
        # (`reverse` keeps equal keys in their order), is the order (-relevance, fragment_id).
        order = sorted(range(len(items)), key=fragment_ids.__getitem__)
        order.sort(key=relevances.__getitem__, reverse=True)

        original_tokens = sum(tokens)
        budget = skeleton_budget(original_tokens, applied)
        ranked_tokens = _pick(tokens, order)
        lead, later_positions, compressed_tokens = _select_within_budget(
            ranked_tokens, budget, applied
        )
        kept_indices = (*order[:lead], *_pick(order, later_positions))

        decision_ids = list(map(_decision_id, items))
        source_decision_ids = _pick(decision_ids, kept_indices)
        if len(set(decision_ids)) != len(decision_ids):
            # Several fragments of one decision: list it once, where it first appears.
            source_decision_ids = tuple(dict.fromkeys(source_decision_ids))
        # Every invariant SkeletonMetadata validates holds by construction here (the ratio was
        # validated, the ids are unique); validating 700k ids again would cost a tenth of a second.
        metadata = SkeletonMetadata.model_construct(
            ratio=applied,
            original_tokens=original_tokens,
            compressed_tokens=compressed_tokens,
            source_decision_ids=source_decision_ids,
        )
        return SkeletonResult(fragments=_pick(items, kept_indices), metadata=metadata)


def _pick(values: Sequence[T], indices: Sequence[int]) -> tuple[T, ...]:
    """``tuple(values[i] for i in indices)``, in one C loop (itemgetter), about twice as fast."""
    if not indices:
        return ()
    if len(indices) == 1:
        return (values[indices[0]],)
    picked: tuple[T, ...] = itemgetter(*indices)(values)
    return picked


def _select_within_budget(
    ranked_tokens: Sequence[int], budget: int, ratio: float
) -> tuple[int, list[int], int]:
    """Which fragments (by rank position) are kept: the first `lead` ones, then the listed later
    positions; and their total tokens."""
    count = len(ranked_tokens)
    if count == 0:
        return 0, [], 0
    if ratio == 1.0:
        return 1, [], ranked_tokens[0]  # the design's table: only the single most relevant one

    # Until the first overflow every fragment fits: that leading run is a prefix-sum search.
    # The top fragment is always kept, so a child never inherits nothing.
    prefix = list(accumulate(ranked_tokens))
    lead = max(1, bisect_right(prefix, budget))
    later: list[int] = []
    total = prefix[lead - 1]
    for position in range(lead, count):
        headroom = budget - total
        if headroom < 0:  # only the always-kept top fragment can overflow: nothing else fits
            break
        if headroom == 0:
            # Only fragments of zero tokens can still fit; the rest is a filter, not a loop.
            zero = map(not_, ranked_tokens[position:])
            later.extend(compress(range(position, count), zero))
            break
        size = ranked_tokens[position]
        if size <= headroom:
            later.append(position)
            total += size
    return lead, later, total


def _checked(fragments: Iterable[ContextFragment]) -> list[ContextFragment]:
    items = list(fragments)
    if not all(map(isinstance, items, repeat(ContextFragment))):
        wrong = next(item for item in items if not isinstance(item, ContextFragment))
        raise InvalidInputError(f"expected ContextFragment, got {type(wrong).__name__}")
    return items


def _first_duplicate(values: list[str]) -> str:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            return value
        seen.add(value)
    raise AssertionError("no duplicate")  # pragma: no cover - only called when there is one
