"""Smart mode for JSON: a level of detail (`Detail`), and which items of an array it keeps."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from cleveragents.application.services.artifact_compression.kinds.json.facts import Facts


@dataclass(frozen=True, slots=True)
class Detail:
    """One level of detail of a rendering. Arrays keep their first and last items, then the
    items that mention the task and those that show a new shape (the first `task` and
    `shapes` of them in the document's order of each; None: all), then
    `extra_items` more from both ends inwards, one more in the arrays whose ordinal is below
    `one_more_below` (so that sizes grow about an item at a time). Strings longer than
    `string_limit` are cut (None: none is).

    With `members`, only that many members are shown, taken breadth-first over the document
    cut to first and last items (`Survey.admission`): the root's members first, then theirs;
    a container none of whose members is admitted becomes a marker. `where`: markers name
    the lines they stand for.

    `partial`: the level of detail of one item of array `partial_ordinal` (item
    `partial_index`, or the extra item it keeps last) when that item is too large to be kept
    as richly as the others: it fills the room that is left. Its `members`, if any, count
    from that item.

    `last`: arrays of three items or more keep their last item too. Levels below whole
    shapes leave it out: the first item and the items that show a new shape hold every key
    path, and the schema comes before the values."""

    extra_items: int = 0
    one_more_below: int = 0
    string_limit: int | None = None
    task: int | None = None
    shapes: int | None = None
    members: int | None = None
    where: bool = True
    partial: Detail | None = None
    partial_ordinal: int | None = None
    partial_index: int | None = None
    last: bool = True

    def seen_by(self, facts: Facts) -> tuple[object, ...] | None:
        """What of this level a subtree with `facts` depends on: two levels with the same
        answer render it alike (None: breadth-first levels, not compared). When all its
        arrays are whole, only the string limit and `last` are."""
        if self.members is not None:
            return None
        arrays_from, arrays_to, shapes_from, shapes_to, tasks_from, tasks_to = facts.ranges
        partial = None
        if self.partial_ordinal is not None and arrays_from <= self.partial_ordinal < arrays_to:
            partial = (self.partial, self.partial_ordinal, self.partial_index)
        if facts.max_items <= 1 and partial is None:
            # No array of more than one item: every level keeps each whole, and with `last`
            # or without it shows the same (no item after the first to show or leave out).
            return (self.string_limit,)
        if facts.max_items <= self.whole_arrays and partial is None:
            # Every array whole; without `last`, the new-shape items show what is new in them.
            return (self.string_limit, self.last)
        return (
            self.string_limit,
            self.extra_items,
            min(max(self.one_more_below, arrays_from), arrays_to),
            None if self.shapes is None else min(max(self.shapes, shapes_from), shapes_to),
            None if self.task is None else min(max(self.task, tasks_from), tasks_to),
            self.where,
            partial,
            self.last,
        )

    @property
    def whole_arrays(self) -> int:
        """The longest array this level keeps whole: its first and last items and the extra
        ones (only the first without `last`)."""
        return self.extra_items + (2 if self.last else 1)

    def keeps_whole(self, facts: Facts) -> bool:
        """Whether a container with `facts` is rendered exactly as it is."""
        if self.members is not None:
            return facts.max_items == 0 and facts.max_keys == 0  # only an empty one
        return facts.max_items <= self.whole_arrays and (
            self.string_limit is None or facts.max_string <= self.string_limit
        )


def kept_items(facts: Facts, count: int, detail: Detail) -> tuple[list[int], int | None]:
    """The indices (ascending) of the items of an array of `count` items that `detail` keeps
    (not in breadth-first mode, see `Survey.admitted`), and the one shown less richly when
    this is the array with that item (`Detail.partial`)."""
    extra = detail.extra_items + (facts.ordinal < detail.one_more_below)
    if count <= extra + (2 if detail.last else 1) and facts.ordinal != detail.partial_ordinal:
        return list(range(count)), None
    kept = {0, count - 1} if detail.last else {0}
    kept.update(_ranked(facts.task_items, facts.task_ranks, detail.task))
    kept.update(_ranked(facts.shape_items, facts.shape_ranks, detail.shapes))
    extras = _take(ends_inwards(count) if detail.last else iter(range(count)), extra, kept)
    kept.update(extras)
    if detail.partial_index is not None:
        return sorted(kept), detail.partial_index
    return sorted(kept), extras[-1] if extras else None


def kept_runs(facts: Facts, count: int, detail: Detail) -> tuple[list[tuple[int, int]], int | None]:
    """`kept_items` as runs of consecutive indices, [(first, last), ...]. An array with no
    task or new-shape item to keep and no item shown less richly keeps a head and a tail,
    found without listing them."""
    extra = detail.extra_items + (facts.ordinal < detail.one_more_below)
    plain = (
        facts.ordinal != detail.partial_ordinal
        and (detail.task == 0 or not facts.task_items)
        and (detail.shapes == 0 or not facts.shape_items)
    )
    if not plain:
        kept, partial = kept_items(facts, count, detail)
        return runs(kept), partial
    if count <= extra + (2 if detail.last else 1):
        return [(0, count - 1)], None
    if not detail.last:
        return [(0, extra)], None
    head_end, tail_start = (extra + 1) // 2, count - 1 - extra // 2
    return [(0, head_end), (tail_start, count - 1)], None


def runs(indices: list[int]) -> list[tuple[int, int]]:
    """Ascending `indices` as runs of consecutive ones: [(first, last), ...]."""
    found: list[tuple[int, int]] = []
    for index in indices:
        if found and found[-1][1] == index - 1:
            found[-1] = (found[-1][0], index)
        else:
            found.append((index, index))
    return found


def _ranked(items: tuple[int, ...], ranks: tuple[int, ...], below: int | None) -> list[int]:
    """The `items` whose rank is below `below` (all of them for None)."""
    if below is None:
        return list(items)
    return [item for item, rank in zip(items, ranks, strict=True) if rank < below]


def _take(indices: Iterator[int], wanted: int, already: set[int]) -> list[int]:
    """The first `wanted` of `indices` that are not in `already`."""
    taken: list[int] = []
    if wanted <= 0:
        return taken
    for index in indices:
        if index not in already:
            taken.append(index)
            if len(taken) == wanted:
                break
    return taken


def ends_inwards(count: int) -> Iterator[int]:
    """0, count-1, 1, count-2, ...: both ends of a sequence first, as smart mode packs lines."""
    low, high = 0, count - 1
    while low <= high:
        yield low
        if high != low:
            yield high
        low, high = low + 1, high - 1
