"""Smart mode's packer: the order lines are offered in. By rank; within a rank from both ends
inwards (the first error says where trouble began, the last one how it ended); for context
ranks by distance to the nearest important line, so what is added last is the surroundings of
what matters."""

from __future__ import annotations

from collections.abc import Mapping

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Priority,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.packing.request import PackRequest

ANCHOR_RANK = Priority.IMPORTANT
"""Lines ranked this or better are what context is measured from."""


def ordered_units(request: PackRequest, shorts: Mapping[int, ShortForm]) -> list[int]:
    """The units in the order they are offered, each ``position * 2 + whole``: by rank; within
    a rank from both ends inwards, except context ranks, which go by distance to the nearest
    important line. A short form is offered at its own rank, just before the whole line when
    they share one. (Plain ints: there are as many units as lines.)"""
    by_rank = _entries_by_rank(request, shorts)
    distance = _distance_to_anchors(request)
    ordered: list[int] = []
    for rank in sorted(by_rank):
        group = by_rank[rank]
        if rank >= Priority.CONTEXT:
            # By distance, then position: one int per entry sorts fastest.
            shift = (request.total_lines * 4 + 4).bit_length()
            keyed = sorted((distance[entry >> 2] << shift) | entry for entry in group)
            group = [key & ((1 << shift) - 1) for key in keyed]
        else:
            group = _both_ends_inwards(group)
        for entry in group:
            position, kind = entry >> 2, entry & 3
            if kind == _WHOLE_ONLY:
                ordered.append(position * 2 + 1)
            elif kind == _SHORT_ONLY:
                ordered.append(position * 2)
            else:
                ordered.extend((position * 2, position * 2 + 1))
    return ordered


def _entries_by_rank(request: PackRequest, shorts: Mapping[int, ShortForm]) -> dict[int, list[int]]:
    """Each rank's entries, ``position * 4 + kind`` (`_WHOLE_ONLY`, `_SHORT_ONLY` or
    `_SHORT_THEN_WHOLE`), in position order."""
    by_rank: dict[int, list[int]] = {}
    ranks = request.ranks
    heads_only = request.heads_only
    for position in request.positions:
        rank = ranks[position]
        short = shorts.get(position) if shorts else None
        if short is None:
            group = by_rank.get(rank)
            if group is None:
                group = by_rank[rank] = []
            group.append(position * 4 + _WHOLE_ONLY)
        elif position in heads_only:
            by_rank.setdefault(short.priority, []).append(position * 4 + _SHORT_ONLY)
        elif short.priority == rank:
            by_rank.setdefault(rank, []).append(position * 4 + _SHORT_THEN_WHOLE)
        else:
            by_rank.setdefault(short.priority, []).append(position * 4 + _SHORT_ONLY)
            by_rank.setdefault(rank, []).append(position * 4 + _WHOLE_ONLY)
    return by_rank


_WHOLE_ONLY = 0
_SHORT_ONLY = 1
_SHORT_THEN_WHOLE = 2


def _both_ends_inwards(group: list[int]) -> list[int]:
    """first, last, second, second-to-last, ...: the front half interleaved with the back
    half reversed (the middle one last when the group is odd)."""
    middle = (len(group) + 1) // 2
    ordered = [0] * len(group)
    ordered[0::2] = group[:middle]
    ordered[1::2] = group[middle:][::-1]
    return ordered


def _distance_to_anchors(request: PackRequest) -> dict[int, int] | list[int]:
    """For each candidate, how many positions away the nearest line ranked `ANCHOR_RANK` or
    better is (more than the artifact's length when there is none): two sweeps. A list when
    every line is a candidate, else a dict."""
    positions = request.positions
    ranks = request.ranks
    far = 2 * request.total_lines + 2
    dense = isinstance(positions, range)
    distance: dict[int, int] | list[int] = [0] * request.total_lines if dense else {}
    last_anchor = -far
    for position in positions:
        if ranks[position] <= ANCHOR_RANK:
            last_anchor = position
        distance[position] = position - last_anchor
    next_anchor = far + request.total_lines
    for position in reversed(positions):
        if ranks[position] <= ANCHOR_RANK:
            next_anchor = position
        gap = next_anchor - position
        distance[position] = min(distance[position], gap)
    return distance
