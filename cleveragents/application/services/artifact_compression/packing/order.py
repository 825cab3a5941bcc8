"""Smart mode's packer: the order lines are offered in. By rank; within a rank from both ends
inwards (the first error says where trouble began, the last one how it ended); for context
ranks by distance to the nearest important line, so what is added last is the surroundings of
what matters.

There is a unit per line (two for a line offered first as its short form), so the order is
built from plain ints: one pass puts each line in its rank's bucket, the few lines with a short
form are placed after, and a rank is put in order only when the packer reaches it
(`RankGroups`)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from itertools import chain, compress, repeat
from operator import and_, le, lshift, or_, rshift

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Priority,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.packing.request import PackRequest

ANCHOR_RANK = Priority.IMPORTANT
"""Lines ranked this or better are what context is measured from."""

# An entry is ``position * 4 + kind``; `entry >> 1` is the unit a kind offers first.
_SHORT_ONLY = 0  # the short form alone: position * 2
_SHORT_THEN_WHOLE = 1  # the short form (position * 2), then the whole line (position * 2 + 1)
_WHOLE_ONLY = 2  # the whole line alone: position * 2 + 1


def ordered_units(request: PackRequest, shorts: Mapping[int, ShortForm]) -> list[int]:
    """The units in the order they are offered, each ``position * 2 + whole`` (see
    `RankGroups`)."""
    return list(chain.from_iterable(RankGroups(request, shorts).unit_lists()))


class RankGroups:
    """The units by rank, best first, each rank's in the order offered: from both ends
    inwards, except context ranks, which go by distance to the nearest important line, then
    position. A short form is offered at its own rank, just before the whole line when they
    share one.

    A rank's units are put in order when first asked for: a tight budget stops within the
    first ranks, and the context ranks, the largest, are then never sorted."""

    __slots__ = ("_anchors", "_by_rank", "_ordered", "_ranks", "_request", "_short_then_whole")

    def __init__(self, request: PackRequest, shorts: Mapping[int, ShortForm]):
        self._request = request
        self._ranks = _ranks_in_order(request)
        self._by_rank = _entries_by_rank(request.positions, self._ranks)
        self._short_then_whole = _place_short_forms(request, self._ranks, shorts, self._by_rank)
        self._ordered: dict[int, list[int]] = {}
        self._anchors: list[int] | None = None

    def unit_lists(self) -> Iterator[list[int]]:
        """Each rank's units in order, best rank first."""
        return map(self._units_of, sorted(self._by_rank))

    def _units_of(self, rank: int) -> list[int]:
        units = self._ordered.get(rank)
        if units is None:
            units = self._ordered[rank] = _units(self._entries_of(rank), self._short_then_whole)
        return units

    def _entries_of(self, rank: int) -> list[int]:
        group = self._by_rank[rank]
        if rank < Priority.CONTEXT:
            return _both_ends_inwards(group)
        request = self._request
        if self._anchors is None:
            self._anchors = _anchors(request.positions, self._ranks, request.total_lines)
        return _nearest_first(group, self._anchors, (request.total_lines * 4 + 4).bit_length())


def _ranks_in_order(request: PackRequest) -> list[int]:
    """The rank of each candidate, in position order."""
    ranks = request.ranks
    positions = request.positions
    if isinstance(positions, range) and positions.step == 1 and isinstance(ranks, Sequence):
        return list(ranks[positions.start : positions.stop])
    return list(map(ranks.__getitem__, positions))


def _entries_by_rank(positions: Sequence[int], ranks: list[int]) -> dict[int, list[int]]:
    """Each rank's entries in position order, every line offered whole alone."""
    by_rank: dict[int, list[int]] = {rank: [] for rank in set(ranks)}
    entries = (
        range(positions.start * 4 + _WHOLE_ONLY, positions.stop * 4 + _WHOLE_ONLY, 4)
        if isinstance(positions, range) and positions.step == 1
        else map(or_, map(lshift, positions, repeat(2)), repeat(_WHOLE_ONLY))
    )
    for entry, rank in zip(entries, ranks, strict=True):
        by_rank[rank].append(entry)
    return by_rank


def _place_short_forms(
    request: PackRequest,
    ranks: list[int],
    shorts: Mapping[int, ShortForm],
    by_rank: dict[int, list[int]],
) -> set[int]:
    """The entries of the candidates with a short form changed in `by_rank`: the short form
    alone at its own rank for a line known only by its head; short then whole when they
    share a rank; else the short form at its rank besides the whole line at the line's.
    Returns the entries offered short then whole."""
    positions = request.positions
    heads_only = request.heads_only
    short_then_whole: set[int] = set()
    removed: dict[int, set[int]] = {}
    added: dict[int, list[int]] = {}
    for position, short in shorts.items():
        index = _index_of(positions, position)
        if index is None:
            continue  # not a candidate: never offered
        rank = ranks[index]
        whole = position * 4 + _WHOLE_ONLY
        if position in heads_only:
            removed.setdefault(rank, set()).add(whole)
            added.setdefault(short.priority, []).append(position * 4 + _SHORT_ONLY)
        elif short.priority == rank:
            group = by_rank[rank]
            group[bisect_left(group, whole)] = whole - _WHOLE_ONLY + _SHORT_THEN_WHOLE
            short_then_whole.add(whole - _WHOLE_ONLY + _SHORT_THEN_WHOLE)
        else:
            added.setdefault(short.priority, []).append(position * 4 + _SHORT_ONLY)
    for rank, gone in removed.items():
        by_rank[rank] = [entry for entry in by_rank[rank] if entry not in gone]
    for rank, more in added.items():
        group = by_rank.setdefault(rank, [])
        group.extend(more)
        group.sort()  # ascending runs, which the sort merges
    for rank in [rank for rank, group in by_rank.items() if not group]:
        del by_rank[rank]
    return short_then_whole


def _index_of(positions: Sequence[int], position: int) -> int | None:
    """Where `position` is among the ascending `positions`, or None."""
    if isinstance(positions, range):
        return positions.index(position) if position in positions else None
    index = bisect_left(positions, position)
    if index < len(positions) and positions[index] == position:
        return index
    return None


def _units(group: list[int], short_then_whole: set[int]) -> list[int]:
    """The units of a group of entries in order: each entry's first unit, and right after a
    short form offered before its whole line, that line."""
    units = list(map(rshift, group, repeat(1)))
    where = _indices_of(group, short_then_whole) if short_then_whole else []
    if not where:
        return units
    expanded: list[int] = []
    previous = 0
    for index in where:
        expanded.extend(units[previous : index + 1])
        expanded.append(units[index] | 1)
        previous = index + 1
    expanded.extend(units[previous:])
    return expanded


def _indices_of(group: list[int], wanted: set[int]) -> list[int]:
    """The indices, ascending, of the entries of `group` that are in `wanted` (by looking
    each of the fewer up in the other)."""
    if len(wanted) < len(group):
        index_of = dict(zip(group, range(len(group)), strict=True))
        return sorted(index_of[entry] for entry in wanted if entry in index_of)
    return [index for index, entry in enumerate(group) if entry in wanted]


def _both_ends_inwards(group: list[int]) -> list[int]:
    """first, last, second, second-to-last, ...: the front half interleaved with the back
    half reversed (the middle one last when the group is odd)."""
    middle = (len(group) + 1) // 2
    ordered = [0] * len(group)
    ordered[0::2] = group[:middle]
    ordered[1::2] = group[middle:][::-1]
    return ordered


def _anchors(positions: Sequence[int], ranks: list[int], total_lines: int) -> list[int]:
    """The candidates ranked `ANCHOR_RANK` or better, ascending, with a sentinel at each end
    (as far before the first line as after the last: more than the artifact's length, so a
    line with no anchor at all goes by its distance to the nearer end)."""
    far = 2 * total_lines + 2
    return [-far, *compress(positions, map(le, ranks, repeat(ANCHOR_RANK))), far + total_lines]


def _nearest_first(group: list[int], anchors: list[int], shift: int) -> list[int]:
    """The entries of `group` (ascending) by their distance to the nearest of `anchors`, then
    entry (`shift`: the bits an entry takes): one sweep, one sort of ints."""
    keyed: list[int] = []
    append = keyed.append
    index = 1
    before, after = anchors[0], anchors[1]
    for entry in group:
        position = entry >> 2
        if position > after:
            index = bisect_left(anchors, position, index)
            before, after = anchors[index - 1], anchors[index]
        ahead = after - position
        behind = position - before
        append(((ahead if ahead < behind else behind) << shift) | entry)
    keyed.sort()
    return list(map(and_, keyed, repeat((1 << shift) - 1)))
