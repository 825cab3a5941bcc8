"""Smart mode's packer: the order lines are offered in and the cost of each line, against plain
statements of what they are (the fast versions build them with loops in C)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cleveragents.application.services.artifact_compression.kinds.kind_compressor import (
    Priority,
    ShortForm,
)
from cleveragents.application.services.artifact_compression.packing.order import (
    ANCHOR_RANK,
    ordered_units,
)
from cleveragents.application.services.artifact_compression.packing.request import (
    PackRequest,
    line_costs_from_starts,
)


def plain_order(request: PackRequest, shorts: dict[int, ShortForm]) -> list[int]:
    """By rank; within a rank first, last, second, second-to-last...; context ranks by
    distance to the nearest line ranked `ANCHOR_RANK` or better, then position. A short form
    at its own rank, just before its whole line when they share one."""
    positions = list(request.positions)
    ranks = {position: request.ranks[position] for position in positions}
    offers: dict[int, list[tuple[int, list[int]]]] = {}  # rank -> (position, units)
    for position in positions:
        short = shorts.get(position)
        rank = ranks[position]
        if short is None:
            offers.setdefault(rank, []).append((position, [position * 2 + 1]))
        elif position in request.heads_only:
            offers.setdefault(short.priority, []).append((position, [position * 2]))
        elif short.priority == rank:
            offers.setdefault(rank, []).append((position, [position * 2, position * 2 + 1]))
        else:
            offers.setdefault(short.priority, []).append((position, [position * 2]))
            offers.setdefault(rank, []).append((position, [position * 2 + 1]))
    anchors = [position for position in positions if ranks[position] <= ANCHOR_RANK]
    far = 2 * request.total_lines + 2

    def distance(position: int) -> int:
        before = max((a for a in anchors if a <= position), default=-far)
        after = min((a for a in anchors if a >= position), default=far + request.total_lines)
        return min(position - before, after - position)

    ordered: list[int] = []
    for rank in sorted(offers):
        group = offers[rank]
        if rank >= Priority.CONTEXT:
            group = sorted(group, key=lambda offer: (distance(offer[0]), offer[0]))
        else:
            inwards = []
            while group:
                inwards.append(group.pop(0))
                if group:
                    inwards.append(group.pop())
            group = inwards
        for _, units in group:
            ordered.extend(units)
    return ordered


@st.composite
def requests(draw: st.DrawFn) -> tuple[PackRequest, dict[int, ShortForm]]:
    total = draw(st.integers(min_value=0, max_value=60))
    sparse = draw(st.booleans())
    if sparse:
        positions: list[int] | range = sorted(
            draw(st.sets(st.integers(min_value=0, max_value=max(total - 1, 0)), max_size=total))
        )
    else:
        positions = range(total)
    rank = st.integers(min_value=-1, max_value=7)
    ranks = {position: draw(rank) for position in positions}
    shorts = {
        position: ShortForm("head", draw(st.one_of(st.just(ranks[position]), rank)))
        for position in positions
        if draw(st.integers(min_value=0, max_value=3)) == 0
    }
    heads_only = frozenset(p for p in shorts if draw(st.integers(min_value=0, max_value=4)) == 0)
    request = PackRequest(
        positions=positions,
        texts={},
        ranks=ranks if sparse else [ranks[position] for position in positions],
        costs={},
        total_lines=total,
        short_forms=shorts,
        heads_only=heads_only,
    )
    return request, shorts


@given(requests())
def test_the_order_is_by_rank_then_ends_inwards_or_distance(
    drawn: tuple[PackRequest, dict[int, ShortForm]],
) -> None:
    request, shorts = drawn
    assert ordered_units(request, shorts) == plain_order(request, shorts)


@given(
    st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=40),
    st.data(),
)
def test_a_line_costs_the_tokens_that_start_in_it_at_least_one(
    lengths: list[int], data: st.DataObject
) -> None:
    offsets = [sum(lengths[:index]) + index for index in range(len(lengths))]  # "\n" joined
    end = offsets[-1] + lengths[-1] + 1
    starts = sorted(data.draw(st.sets(st.integers(min_value=0, max_value=end - 1))))
    ends = [*offsets[1:], end]
    expected = [
        max(sum(1 for start in starts if begin <= start < stop), 1)
        for begin, stop in zip(offsets, ends, strict=True)
    ]
    assert line_costs_from_starts(offsets, starts) == expected
