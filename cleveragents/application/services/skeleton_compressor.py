"""Skeleton compression: the part of a parent's context that a child plan inherits.

The seed's algorithm (seeds/skeleton-compressor.md) with SPEC C2's decisions:

* fragments are ranked by ``(-relevance, fragment_id)``, which is also the output order, so the
  same fragments in any arrival order give identical output;
* ``budget = original_tokens * (1 - ratio)`` in exact arithmetic on the ratio as written;
* a fragment that would push the running total over the budget is skipped and iteration goes on,
  so a later, smaller fragment can still fit;
* the top-ranked fragment is always kept, so a child never inherits nothing (ratio 1.0 keeps only
  it); ``compressed_tokens`` then tells the truth even where it exceeds the budget.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ratio import DEFAULT_SKELETON_RATIO, skeleton_budget, validate_ratio
from cleveragents.domain.skeleton import SkeletonMetadata

__all__ = ["DEFAULT_SKELETON_RATIO", "SkeletonCompressorService", "SkeletonResult"]


@dataclass(frozen=True, slots=True)
class SkeletonResult:
    """The kept fragments, in rank order, and the audit record of the pass."""

    fragments: tuple[ContextFragment, ...]
    metadata: SkeletonMetadata


def _rank_key(fragment: ContextFragment) -> tuple[float, str]:
    return (-fragment.relevance, fragment.fragment_id)


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
        ranked = sorted(_checked(fragments), key=_rank_key)
        original_tokens = sum(fragment.token_count for fragment in ranked)
        budget = skeleton_budget(original_tokens, applied)

        kept = _select_within_budget(ranked, budget, applied)
        metadata = SkeletonMetadata(
            ratio=applied,
            original_tokens=original_tokens,
            compressed_tokens=sum(fragment.token_count for fragment in kept),
            source_decision_ids=_unique(fragment.decision_id for fragment in kept),
        )
        return SkeletonResult(fragments=kept, metadata=metadata)


def _select_within_budget(
    ranked: Sequence[ContextFragment], budget: int, ratio: float
) -> tuple[ContextFragment, ...]:
    if not ranked:
        return ()
    if ratio == 1.0:
        return (ranked[0],)  # the seed's table: only the single most relevant fragment
    kept = [ranked[0]]  # always kept: a child never inherits nothing
    total = ranked[0].token_count
    for fragment in ranked[1:]:
        if total + fragment.token_count <= budget:
            kept.append(fragment)
            total += fragment.token_count
    return tuple(kept)


def _checked(fragments: Iterable[ContextFragment]) -> list[ContextFragment]:
    items = list(fragments)
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, ContextFragment):
            raise InvalidInputError(f"expected ContextFragment, got {type(item).__name__}")
        if item.fragment_id in seen:
            raise InvalidInputError(f"duplicate fragment_id {item.fragment_id!r}")
        seen.add(item.fragment_id)
    return items


def _unique(decision_ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(decision_ids))
