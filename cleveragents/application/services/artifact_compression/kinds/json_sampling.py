"""Smart mode for JSON, part 1: what a document holds, measured once, and which of its array
items and object members a given level of detail keeps.

`Survey` walks the parsed document once and records, for every array and object, the sizes of
its full rendering in both layouts and the extremes below it (longest array, longest string,
largest object). A rendering at any level of detail then reuses an untouched container's
recorded size instead of walking it again, so measuring a candidate costs in proportion to what
it changes, not to the document.

The same walk decides which middle items of each array show something new: a key path (keys
from the root, array positions left out) or a kind of value (null, string, object...) at a
path that no item shown before had. Items are visited first, last, then in order; an item that
adds nothing new leaves the set of seen shapes as it was, so the decisions of the items it
contains only matter when it is kept, and then they are right.
"""

from __future__ import annotations

import json
import math
import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

# `json.dumps(..., ensure_ascii=False)` writes strings with this function (C when available).
encode_string = json.encoder.encode_basestring

_OBJECT, _ARRAY, _STRING, _NUMBER, _BOOL, _NULL = range(6)
_KINDS = 8  # a shape is `path * _KINDS + kind`
_ITEM = None  # the pseudo key of an array's items in a path


class Facts(NamedTuple):
    """What one array or object holds. Sizes are characters of its full rendering: `compact`
    with no whitespace, `pretty` with 2-space indentation at depth 0 (at depth d every one of
    its `newlines` is followed by 2*d more spaces)."""

    compact: int
    pretty: int
    newlines: int
    max_items: int  # the longest array in the subtree, this one included
    max_string: int  # the longest string value (characters) in the subtree
    max_keys: int  # the largest object in the subtree, this one included
    matched: bool  # a key or a scalar in the subtree mentions a task term
    shape_items: tuple[int, ...] = ()  # arrays: middle items that show a new shape
    shape_ranks: tuple[int, ...] = ()  # their places in the document's order of new shapes
    task_items: tuple[int, ...] = ()  # items (arrays) or members (objects) mentioning the task
    task_ranks: tuple[int, ...] = ()  # arrays: the items' places among all task items
    ordinal: int = -1  # arrays of 3+ items: 0, 1, 2... in the order the survey met them
    inner_items: int = 0  # arrays: the longest array inside the items (this one left out)
    ranges: tuple[int, int, int, int, int, int] = (0, 0, 0, 0, 0, 0)
    """The ordinals of the arrays in the subtree, the ranks of its new-shape items and of its
    task items, each as [from, to): the survey numbers them as it walks, so each subtree's
    are consecutive."""


def scalar_text(value: object) -> str:
    """The JSON spelling of a scalar, as `json.dumps` writes it (NaN and infinities too)."""
    if isinstance(value, str):
        return str(encode_string(value))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    return int.__repr__(value)


def _mention_test(terms: TaskTerms) -> Callable[[str], bool]:
    """`terms.matches` as one pattern search: the survey asks it of every string of the
    document, and a search in C is several times faster than a loop over the terms."""
    if not terms:
        return lambda _: False
    pattern = re.compile("|".join(map(re.escape, terms.terms)))
    return lambda text: pattern.search(text.lower()) is not None


_KIND_OF: dict[type, int] = {
    dict: _OBJECT,
    list: _ARRAY,
    str: _STRING,
    int: _NUMBER,
    float: _NUMBER,
    bool: _BOOL,
    type(None): _NULL,
}


def _kind(value: object) -> int:
    if isinstance(value, dict):
        return _OBJECT
    if isinstance(value, list):
        return _ARRAY
    if isinstance(value, str):
        return _STRING
    if value is None:
        return _NULL
    if isinstance(value, bool):
        return _BOOL
    return _NUMBER


class Survey:
    """The facts of every container of one parsed document, keyed by `id` (the document is
    held, so the ids stay valid)."""

    def __init__(self, root: object, terms: TaskTerms) -> None:
        self.root = root
        self.terms = terms
        self._mentions = _mention_test(terms)
        self.facts: dict[int, Facts] = {}
        self._paths: dict[tuple[int, str | None], int] = {}
        self._seen: set[int] = set()
        self._key_lengths: dict[str, int] = {}
        self._key_matches: dict[str, bool] = {}
        self._orders: dict[int, tuple[dict[int, int], int]] = {}
        self.shape_places: dict[int, tuple[int, int]] = {}
        """Where each new-shape item is, by rank: (its array's ordinal, its index)."""
        self.task_places: dict[int, tuple[int, int]] = {}
        """Where each task item is, by rank: (its array's ordinal, its index)."""
        self.arrays = 0
        """How many arrays of three items or more the document has (the others are never
        cut)."""
        self._arrays: list[list[object]] = []
        self.shape_items = 0
        """How many middle items show a new shape, in all."""
        self.task_items = 0
        """How many array items mention the task, in all."""
        if isinstance(root, dict | list):
            self._visit(root, 0)

    def of(self, container: object) -> Facts:
        return self.facts[id(container)]

    def admitted(
        self, container: list[object] | dict[str, object], members: int, origin: object
    ) -> list[int]:
        """The indices (ascending) of `container`'s members among the first `members` of the
        breadth-first order from `origin` (the root, or the one item shown less richly);
        empty when none is (the container is then a marker)."""
        first_rank = self._admission(origin)[0].get(id(container))
        if first_rank is None:
            return []  # not reached from `origin`: only what is kept whole is shown
        order = self._breadth_order(container)
        return sorted(order[: max(0, min(members - first_rank, len(order)))])

    def array(self, ordinal: int) -> list[object]:
        """The array of three items or more that the survey met `ordinal`-th."""
        return self._arrays[ordinal]

    def root_members(self) -> int:
        """How many members of the root come first in the breadth-first order."""
        root = self.root
        return len(self._breadth_order(root)) if isinstance(root, dict | list) else 0

    def admission_size(self, origin: object) -> int:
        """How many members the breadth-first order from `origin` has in all."""
        return self._admission(origin)[1]

    def _admission(self, origin: object) -> tuple[dict[int, int], int]:
        """The rank of each container's first member in the breadth-first order from
        `origin` over the document cut to first and last items, and how many members that
        order has; computed when first needed."""
        found = self._orders.get(id(origin))
        if found is None:
            ranks: dict[int, int] = {}
            rank = 0
            queue: deque[object] = deque([origin] if isinstance(origin, dict | list) else [])
            while queue:
                container = queue.popleft()
                ranks[id(container)] = rank
                order = self._breadth_order(container)  # type: ignore[arg-type]
                rank += len(order)
                members = container.values() if isinstance(container, dict) else container
                listed = list(members)  # type: ignore[call-overload]
                queue.extend(
                    listed[index]
                    for index in order
                    if isinstance(listed[index], dict | list) and listed[index]
                )
            found = self._orders[id(origin)] = (ranks, rank)
        return found

    def _breadth_order(self, container: list[object] | dict[str, object]) -> list[int]:
        """The members of `container` in the order they are admitted: an object's task
        members first, then the rest in order; an array's first and last items."""
        count = len(container)
        if isinstance(container, list):
            return [0, count - 1] if count > 1 else list(range(count))
        task = self.of(container).task_items
        if not task:
            return list(range(count))
        chosen = set(task)
        return [*task, *(index for index in range(count) if index not in chosen)]

    def key_length(self, key: str) -> int:
        """Characters of `key` written as a JSON string (keys repeat: measured once each)."""
        length = self._key_lengths.get(key)
        if length is None:
            length = self._key_lengths[key] = len(encode_string(key))
        return length

    def _path(self, parent: int, key: str | None) -> int:
        path = self._paths.get((parent, key))
        if path is None:
            path = self._paths[(parent, key)] = len(self._paths) + 1
        return path

    def _key_mentions_task(self, key: str) -> bool:
        hit = self._key_matches.get(key)
        if hit is None:
            hit = self._key_matches[key] = self._mentions(key)
        return hit

    def _visit(self, value: dict[str, object] | list[object], path: int) -> Facts:
        arrays, shapes, tasks = self.arrays, self.shape_items, self.task_items
        facts = self._object(value, path) if isinstance(value, dict) else self._array(value, path)
        facts = facts._replace(
            ranges=(arrays, self.arrays, shapes, self.shape_items, tasks, self.task_items)
        )
        self.facts[id(value)] = facts
        return facts

    # The two loops below run once per member of the whole document: scalars are handled
    # inline, with local names, because a call per scalar would double the survey's time.

    def _object(self, value: dict[str, object], path: int) -> Facts:
        count = len(value)
        if not count:
            return Facts(2, 2, 0, 0, 0, 0, False)
        paths, seen, key_lengths = self._paths, self._seen, self._key_lengths
        mentions = self._mentions if self.terms else None
        compact = widened = newlines = items = longest = 0
        keys = count
        task: list[int] = []
        for index, (key, item) in enumerate(value.items()):
            member_path = paths.get((path, key)) or self._path(path, key)
            key_length = key_lengths.get(key) or self.key_length(key)
            kind = _KIND_OF.get(type(item))
            if kind is None:
                kind = _kind(item)
            seen.add(member_path * _KINDS + kind)
            hit = False
            if kind <= _ARRAY:
                facts = self._visit(item, member_path)  # type: ignore[arg-type]
                compact += key_length + facts.compact
                widened += facts.pretty + 2 * facts.newlines - facts.compact
                newlines += facts.newlines
                items = max(items, facts.max_items)
                longest = max(longest, facts.max_string)
                keys = max(keys, facts.max_keys)
                hit = facts.matched
            elif kind == _STRING:
                compact += key_length + len(encode_string(item))  # type: ignore[arg-type]
                longest = max(longest, len(item))  # type: ignore[arg-type]
                hit = mentions is not None and mentions(item)  # type: ignore[arg-type]
            else:
                spelling = scalar_text(item)
                compact += key_length + len(spelling)
                hit = mentions is not None and mentions(spelling)
            if mentions is not None and (hit or self._key_mentions_task(key)):
                task.append(index)
        return Facts(
            compact=compact + 2 * count + 1,  # ':' and ',' per member, the braces
            pretty=compact + widened + 6 * count + 2,  # ': ', ',', newline and indent per member
            newlines=newlines + count + 1,
            max_items=items,
            max_string=longest,
            max_keys=keys,
            matched=bool(task),
            task_items=tuple(task),
        )

    def _array(self, value: list[object], path: int) -> Facts:
        count = len(value)
        if not count:
            return Facts(2, 2, 0, 0, 0, 0, False)
        item_path = self._path(path, _ITEM)
        ordinal = self._number(value)
        seen = self._seen
        mentions = self._mentions if self.terms else None
        compact = widened = newlines = longest = keys = 0
        items = 0  # the longest array inside the items
        shapes: list[tuple[int, int]] = []
        task: list[tuple[int, int]] = []
        for index in _first_last_then_middle(count):
            item = value[index]
            kind = _KIND_OF.get(type(item))
            if kind is None:
                kind = _kind(item)
            shape = item_path * _KINDS + kind
            hit = False
            if kind <= _ARRAY:
                middle = 0 < index < count - 1
                facts, rank = self._nested_item(item, item_path, shape, middle)  # type: ignore[arg-type]
                if rank is not None:
                    shapes.append((index, rank))
                compact += facts.compact
                widened += facts.pretty + 2 * facts.newlines - facts.compact
                newlines += facts.newlines
                items = max(items, facts.max_items)
                longest = max(longest, facts.max_string)
                keys = max(keys, facts.max_keys)
                hit = facts.matched
            else:
                if shape not in seen:
                    seen.add(shape)
                    if 0 < index < count - 1:
                        shapes.append((index, self.shape_items))
                        self.shape_items += 1
                if kind == _STRING:
                    compact += len(encode_string(item))  # type: ignore[arg-type]
                    longest = max(longest, len(item))  # type: ignore[arg-type]
                    hit = mentions is not None and mentions(item)  # type: ignore[arg-type]
                else:
                    spelling = scalar_text(item)
                    compact += len(spelling)
                    hit = mentions is not None and mentions(spelling)
            if hit:
                task.append((index, self.task_items))
                self.task_items += 1
        task.sort()
        self._place(ordinal, shapes, task)
        return Facts(
            compact=compact + count + 1,  # ',' per item, the brackets
            pretty=compact + widened + 4 * count + 2,  # newline and indent per item
            newlines=newlines + count + 1,
            max_items=max(items, count),
            max_string=longest,
            max_keys=keys,
            matched=bool(task),
            shape_items=tuple(index for index, _ in shapes),
            shape_ranks=tuple(rank for _, rank in shapes),
            task_items=tuple(index for index, _ in task),
            task_ranks=tuple(rank for _, rank in task),
            ordinal=ordinal,
            inner_items=items,
        )

    def _number(self, value: list[object]) -> int:
        """The array's ordinal; -1 for one of one or two items, which is never cut."""
        if len(value) < 3:
            return -1
        self._arrays.append(value)
        self.arrays += 1
        return self.arrays - 1

    def _place(
        self, ordinal: int, shapes: list[tuple[int, int]], task: list[tuple[int, int]]
    ) -> None:
        """Where the array's new-shape and task items are, by rank (for showing one of them
        less richly)."""
        if ordinal < 0:
            return
        for index, rank in shapes:
            self.shape_places[rank] = (ordinal, index)
        for index, rank in task:
            self.task_places[rank] = (ordinal, index)

    def _nested_item(
        self, item: dict[str, object] | list[object], path: int, shape: int, middle: bool
    ) -> tuple[Facts, int | None]:
        """The facts of an array's item that is itself a container, and its rank among the
        new-shape items when it is one (a middle item showing something not seen before)."""
        seen = self._seen
        seen_before = len(seen)
        seen.add(shape)
        rank = self.shape_items
        if middle:  # ranked before the new shapes inside it, which need it shown
            self.shape_items += 1
        facts = self._visit(item, path)
        if not middle:
            return facts, None
        if len(seen) > seen_before:
            return facts, rank
        self.shape_items -= 1  # nothing new, so nothing new inside either: no rank taken since
        return facts, None


def _first_last_then_middle(count: int) -> Iterator[int]:
    yield 0
    if count > 1:
        yield count - 1
    yield from range(1, count - 1)


def ends_inwards(count: int) -> Iterator[int]:
    """0, count-1, 1, count-2, ...: both ends of a sequence first, as smart mode packs lines."""
    low, high = 0, count - 1
    while low <= high:
        yield low
        if high != low:
            yield high
        low, high = low + 1, high - 1


# --- levels of detail -------------------------------------------------------------------------


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
    from that item."""

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

    def seen_by(self, facts: Facts) -> tuple[object, ...] | None:
        """What of this level a subtree with `facts` depends on: two levels with the same
        answer render it alike (None: breadth-first levels, not compared). When all its
        arrays are whole, only the string limit is."""
        if self.members is not None:
            return None
        arrays_from, arrays_to, shapes_from, shapes_to, tasks_from, tasks_to = facts.ranges
        partial = None
        if self.partial_ordinal is not None and arrays_from <= self.partial_ordinal < arrays_to:
            partial = (self.partial, self.partial_ordinal, self.partial_index)
        if facts.max_items <= self.extra_items + 2 and partial is None:
            return (self.string_limit,)
        return (
            self.string_limit,
            self.extra_items,
            min(max(self.one_more_below, arrays_from), arrays_to),
            None if self.shapes is None else min(max(self.shapes, shapes_from), shapes_to),
            None if self.task is None else min(max(self.task, tasks_from), tasks_to),
            self.where,
            partial,
        )

    def keeps_whole(self, facts: Facts) -> bool:
        """Whether a container with `facts` is rendered exactly as it is."""
        if self.members is not None:
            return facts.max_items == 0 and facts.max_keys == 0  # only an empty one
        return facts.max_items <= self.extra_items + 2 and (
            self.string_limit is None or facts.max_string <= self.string_limit
        )


def kept_items(facts: Facts, count: int, detail: Detail) -> tuple[list[int], int | None]:
    """The indices (ascending) of the items of an array of `count` items that `detail` keeps
    (not in breadth-first mode, see `Survey.admitted`), and the one shown less richly when
    this is the array with that item (`Detail.partial`)."""
    extra = detail.extra_items + (facts.ordinal < detail.one_more_below)
    if count <= extra + 2 and facts.ordinal != detail.partial_ordinal:
        return list(range(count)), None
    kept = {0, count - 1}
    kept.update(_ranked(facts.task_items, facts.task_ranks, detail.task))
    kept.update(_ranked(facts.shape_items, facts.shape_ranks, detail.shapes))
    extras = _take(ends_inwards(count), extra, kept)
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
    if count <= extra + 2:
        return [(0, count - 1)], None
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


# --- the ladder of levels ---------------------------------------------------------------------

STRING_STEP = 160
"""Family A's strings grow by this many characters for each extra item an array may keep."""
STRING_FLOOR = 16
"""The shortest head a cut string keeps before keys are dropped."""


class Family(NamedTuple):
    """Levels of detail of one kind, richer as `knob` grows from `low` to `high`."""

    rank: int  # 0 is the richest family
    low: int
    high: Callable[[], int]  # called only when the family is searched
    detail: Callable[[int], Detail]
    between: Callable[[int], list[Family]] | None = None
    """The levels between knob k and k + 1, when the step between them can be large."""


class Choice(NamedTuple):
    """The level picked and its size. `rank` and `knob` place it on the ladder, and for a
    level between two knobs, `inner_rank` and `inner_knob` place it between them."""

    rank: int
    knob: int
    detail: Detail
    chars: int
    inner_rank: int = 1 << 30  # past every inner family: the knob's own level
    inner_knob: int = 0

    def richer_than(self, other: Choice) -> bool:
        return self._place() < other._place()

    def _place(self) -> tuple[int, int, int, int]:
        return (self.rank, -self.knob, self.inner_rank, -self.inner_knob)


def ladder(survey: Survey) -> list[Family]:
    """Every family of levels, richest first:

    0. first, last, task and new-shape items, plus `t` more items per array (both ends
       inwards), strings cut at about 160 * (t + 1): the whole document at the top. The knob
       is `t` times the number of arrays plus how many of them get one more item;
    1. first, last, task and new-shape items, strings cut at 160 down to 16;
    2. the first `k` new-shape items, the last ones found going first;
    3. the first `k` task items (with a task);
    4. first and last items, and only the first `m` members breadth-first
       (`Detail.members`): the root's members before any of theirs, down to all of the root's;
    5. as 4 with markers that do not name their lines, down to the root's marker.

    One step of families 0, 2 and 3 adds one item, which can be large: between two steps,
    that item is tried less richly (`Detail.partial`), down to its own first members.
    """
    root = survey.root
    if isinstance(root, str):
        return [Family(0, 0, lambda: len(root), lambda limit: Detail(string_limit=limit))]
    if not isinstance(root, dict | list) or not root:
        return [Family(0, 0, lambda: 0, lambda _: Detail())]
    levels = _Levels(survey)
    bare = levels.bare
    return [
        Family(0, 0, lambda: levels.top, levels.sampled, levels.between_sampled),
        Family(1, STRING_FLOOR, lambda: STRING_STEP, levels.cut),
        Family(
            2,
            0,
            lambda: survey.shape_items,
            lambda k: Detail(string_limit=STRING_FLOOR, shapes=k),
            levels.between_shapes,
        ),
        Family(
            3, 0, lambda: survey.task_items, lambda k: replace(bare, task=k), levels.between_tasks
        ),
        Family(
            4,
            survey.root_members(),
            lambda: survey.admission_size(root),
            lambda m: replace(bare, members=m),
        ),
        Family(
            5,
            0,
            lambda: survey.admission_size(root),
            lambda m: replace(bare, members=m, where=False),
        ),
    ]


class _Levels:
    """The levels of `ladder` that take more than one line to say."""

    def __init__(self, survey: Survey) -> None:
        self.survey = survey
        facts = survey.of(survey.root)
        self.arrays = max(survey.arrays, 1)
        whole_strings = 2 * -(-facts.max_string // STRING_STEP)  # a power of two above needed
        self.top = max(facts.max_items, whole_strings) * self.arrays
        self.longest = facts.max_string
        self.bare = Detail(string_limit=STRING_FLOOR, shapes=0, task=0)

    def sampled(self, knob: int) -> Detail:
        """`t` = knob // arrays more items per array, strings cut at 160 times the largest
        power of two up to t + 1: the limit changes rarely, so measurements of the parts
        where only strings are cut are reused (`Pruner.measure`)."""
        extra, one_more = divmod(knob, self.arrays)
        limit = STRING_STEP << ((extra + 1).bit_length() - 1)
        return Detail(extra_items=extra, one_more_below=one_more, string_limit=limit)

    def cut(self, limit: int) -> Detail:
        return Detail(string_limit=limit)

    def between_sampled(self, knob: int) -> list[Family]:
        """Knob + 1 adds one item to array `knob % arrays`: that item less richly, else
        longer strings."""
        shortest = self.sampled(knob).string_limit or 0
        longer = Family(
            0,
            shortest,
            lambda: max(shortest, self.longest),
            lambda limit: replace(self.sampled(knob), string_limit=limit),
        )
        base = self.sampled(knob + 1)
        ordinal = knob % self.arrays
        if not self.survey.arrays:
            return [longer]
        array = self.survey.array(ordinal)
        if len(array) <= knob // self.arrays + 2:
            return [longer]  # the array is whole before the step already: it adds nothing
        _, index = kept_items(
            self.survey.of(array), len(array), replace(base, partial_ordinal=ordinal)
        )
        if index is None:
            return [longer]
        richer = [
            Family(0, 0, lambda: knob, self.sampled),
        ]
        return [*self._partly(base, ordinal, None, array[index], richer), longer]

    def between_shapes(self, rank: int) -> list[Family]:
        """Rank + 1 adds one new-shape item: that item less richly."""
        if rank not in self.survey.shape_places:
            return []
        ordinal, index = self.survey.shape_places[rank]
        base = Detail(string_limit=STRING_FLOOR, shapes=rank + 1)
        return self._partly(base, ordinal, index, self.survey.array(ordinal)[index], [])

    def between_tasks(self, rank: int) -> list[Family]:
        """Rank + 1 adds one task item: that item less richly."""
        if rank not in self.survey.task_places:
            return []
        ordinal, index = self.survey.task_places[rank]
        base = replace(self.bare, task=rank + 1)
        return self._partly(base, ordinal, index, self.survey.array(ordinal)[index], [])

    def _partly(
        self, base: Detail, ordinal: int, index: int | None, item: object, richer: list[Family]
    ) -> list[Family]:
        """`richer` families and then the item's first members, each as the level of detail
        of that one item in `base`."""
        if not isinstance(item, dict | list) or not item:
            return []

        def partly(inner: Callable[[int], Detail]) -> Callable[[int], Detail]:
            return lambda knob: replace(
                base, partial=inner(knob), partial_ordinal=ordinal, partial_index=index
            )

        members = Family(
            4,
            0,
            lambda: self.survey.admission_size(item),
            lambda m: replace(self.bare, members=m),
        )
        return [family._replace(detail=partly(family.detail)) for family in [*richer, members]]


BREADTH_FIRST_RANK = 4
"""The rank of the first family that drops members of objects."""


CLOSE_ENOUGH = 0.97
"""A level this close to the size limit ends the search of a family's knob."""
SEARCH_STEPS = 16
"""At most this many measurements search one family's knob."""


def richest(families: list[Family], measure: Callable[[Detail], int], limit: float) -> Choice:
    """The richest level whose size (`measure`, characters) is at most `limit`: the first
    family whose poorest level fits, then a search of its knob (sizes grow with the knob,
    near enough; the caller counts the result anyway), then the levels between that knob and
    the next. When nothing fits: the poorest level of all."""
    for family in families:
        choice = _richest_in(family, measure, limit)
        if choice is None:
            continue
        if (
            family.between is not None
            and choice.chars < limit * CLOSE_ENOUGH
            and choice.knob < family.high()
        ):
            for order, inner in enumerate(family.between(choice.knob)):
                finer = _richest_in(inner, measure, limit)
                if finer is not None:
                    return choice._replace(
                        detail=finer.detail,
                        chars=finer.chars,
                        inner_rank=order,
                        inner_knob=finer.knob,
                    )
        return choice
    last = families[-1]
    detail = last.detail(last.low)
    return Choice(last.rank, last.low, detail, measure(detail))


def _richest_in(family: Family, measure: Callable[[Detail], int], limit: float) -> Choice | None:
    """The largest knob of `family` whose level fits `limit` (or is within `CLOSE_ENOUGH` of
    it, or the best after `SEARCH_STEPS` measurements: sizes can jump, and the levels between
    knobs fill what is left): interpolating between the sizes known to fit and not to fit,
    every other step halving instead, so a few measurements do where a plain halving takes
    twenty."""
    low, high = family.low, family.high()
    low_chars = measure(family.detail(low))
    if low_chars > limit:
        return None
    high_chars = measure(family.detail(high)) if high > low else low_chars
    if high_chars <= limit:
        return Choice(family.rank, high, family.detail(high), high_chars)
    halve = False
    for _ in range(SEARCH_STEPS):
        if high - low <= 1 or low_chars >= limit * CLOSE_ENOUGH:
            break
        if halve or high_chars <= low_chars:
            middle = (low + high) // 2
        else:
            share = (limit - low_chars) / (high_chars - low_chars)
            middle = min(max(low + int(share * (high - low)), low + 1), high - 1)
        halve = not halve
        chars = measure(family.detail(middle))
        if chars <= limit:
            low, low_chars = middle, chars
        else:
            high, high_chars = middle, chars
    return Choice(family.rank, low, family.detail(low), low_chars)
