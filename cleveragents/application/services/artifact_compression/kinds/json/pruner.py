"""Smart mode for JSON, part 2: a level of detail written out, with markers that say what was
left out and on which lines of the original it is.

`Pruner.build` turns the parsed document into a smaller JSON value: containers it leaves as
they are are the original objects (shared, not copied), cut arrays hold one marker string per
run of omitted items, cut objects end with one marker member, long strings end with a marker.
It also returns the exact number of characters `json.dumps` will write for that value in the
chosen layout, from the survey's recorded sizes, so candidates are measured without being
serialised.

Where omitted items were is a `LineMap` (`line_maps`); the sizes of what is written whole, and
whether a run is no longer than its marker, are `rendered_sizes`'.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.kinds.json.detail import (
    Detail,
    kept_runs,
    runs,
)
from cleveragents.application.services.artifact_compression.kinds.json.facts import (
    Facts,
    encode_string,
    scalar_text,
)
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import LineMap
from cleveragents.application.services.artifact_compression.kinds.json.member_sizes import (
    MemberTable,
    MemberTables,
)
from cleveragents.application.services.artifact_compression.kinds.json.rendered_sizes import (
    SMALL_RUN,
    RenderedSizes,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import (
    ELLIPSIS,
    cut_string,
    items_marker,
    keys_marker,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles


class _OverCapError(Exception):
    """A measurement passed its cap: the level is larger, by how much is not needed."""


class Built(NamedTuple):
    """A pruned document and the exact length of its rendering."""

    value: object
    chars: int


class Pruner:
    """Builds the value of one level of detail and measures its rendering."""

    def __init__(
        self,
        survey: Survey,
        lines: LineMap,
        handles: Handles,
        *,
        pretty: bool,
        tables: MemberTables | None = None,
    ):
        self.survey = survey
        self.lines = lines
        self.handles = handles
        self.pretty = pretty
        self._detail = Detail()
        self._origin: object = survey.root
        self._novel = False  # inside an item kept for its new shape: only what is new in it
        self.sizes = RenderedSizes(survey, pretty=pretty)
        self.tables = tables if tables is not None else MemberTables(survey)
        """The objects' member sizes, which both layouts share."""
        self._measuring = False
        self._measured: dict[object, int] = {}
        self._cap = float("inf")
        self._spent = 0
        """While measuring: a lower bound of the size, the members measured so far of every
        container being measured (what a container adds around its members only grows it)."""
        self.claims: list[tuple[int, str]] | None = None
        """When a list: (line, first character) of the first omitted member of each run, for
        checking a line map that was inferred from the layout."""

    def build(self, detail: Detail) -> Built:
        self._detail = detail
        self._origin = self.survey.root
        self._novel = False
        value, chars = self._node(self.survey.root, 0, self.lines.root_line, detail)
        return Built(value, chars)

    def measure(self, detail: Detail, cap: float = float("inf")) -> int:
        """The length of `build(detail)`'s rendering, without its value; when it is over `cap`,
        some length over `cap` (the walk stops there: a level far too large costs what the
        cap lets it). A subtree has the same size at every level that agrees on what it
        depends on (`Detail.seen_by`), so levels that differ in one array measure again only
        the containers around it."""
        self._measuring = True
        self._cap = cap
        self._spent = 0
        try:
            return self.build(detail).chars
        except _OverCapError:
            return int(min(self._spent, cap + 1))
        finally:
            self._measuring = False
            self._cap = float("inf")

    def _spend(self, base: int, chars: int) -> None:
        """While measuring: the container that started at `base` has `chars` so far."""
        self._spent = base + chars
        if self._spent > self._cap:
            raise _OverCapError

    def _memo_key(self, facts: Facts, value: object, depth: int, detail: Detail) -> object:
        if not self._measuring:
            return None
        seen = detail.seen_by(facts)
        return None if seen is None else (id(value), depth, seen, self._novel)

    def _whole(self, facts: Facts, detail: Detail) -> bool:
        """Whether a container is written as it is: inside a new-shape item, an object also
        needs every member new."""
        return detail.keeps_whole(facts) and not (self._novel and facts.new_members is not None)

    def _node(self, value: object, depth: int, line: int, detail: Detail) -> tuple[object, int]:
        if isinstance(value, dict):
            return self._object(value, depth, line, detail)
        if isinstance(value, list):
            return self._array(value, depth, line, detail)
        if isinstance(value, str):
            if detail.string_limit is not None and len(value) > detail.string_limit:
                value = cut_string(value, detail.string_limit)
            return value, len(encode_string(value))
        return value, len(scalar_text(value))

    def _where(self, container: object, line: int, first: int, last: int) -> str:
        if not self._detail.where:
            return ""
        start, end = self.lines.span(container, line, first, last)
        return self.handles.lines(start, end)

    def _collapsed(
        self, value: dict[str, object] | list[object], where: str, depth: int
    ) -> tuple[object, int]:
        """A container replaced by one marker: ``{"…": "N keys omitted (lines a-b)"}`` or
        ``["… N items omitted (lines a-b)"]``."""
        if isinstance(value, dict):
            text = keys_marker(len(value), where)
            member = self.survey.key_length(ELLIPSIS) + (2 if self.pretty else 1)
            return {ELLIPSIS: text}, self.sizes.container_chars(
                member + len(encode_string(text)), 1, depth
            )
        text = items_marker(len(value), where)
        return [text], self.sizes.container_chars(len(encode_string(text)), 1, depth)

    def _array(
        self, value: list[object], depth: int, line: int, detail: Detail
    ) -> tuple[object, int]:
        facts = self.survey.of(value)
        if self._whole(facts, detail):
            return value, self.sizes.whole(facts, depth)
        key = self._memo_key(facts, value, depth, detail)
        if key is not None and key in self._measured:
            return None, self._measured[key]
        result, chars = self._cut_array(value, facts, depth, line, detail)
        if key is not None:
            self._measured[key] = chars
        return result, chars

    def _cut_array(
        self, value: list[object], facts: Facts, depth: int, line: int, detail: Detail
    ) -> tuple[object, int]:
        count = len(value)
        partial: int | None = None
        if detail.members is None:
            kept, last_extra = kept_runs(facts, count, detail)
            if detail.partial is not None and facts.ordinal == detail.partial_ordinal:
                partial = last_extra
        else:
            admitted = self.survey.admitted(value, detail.members, self._origin)
            if not admitted:
                return self._collapsed(value, self._where(value, line, 0, count - 1), depth)
            kept = runs(admitted)
        novel = self._novel_items(facts, detail)
        whole_items = partial is None and not novel and self._items_whole(facts, detail)
        result: list[object] = []
        chars = 0
        previous = -1
        base = self._spent
        for first, last in kept:
            if first > previous + 1:
                chars += self._omitted(result, value, previous + 1, first - 1, depth, line)
            if whole_items:
                result.extend(value[first : last + 1])
                chars += self.sizes.run_chars(value, first, last, depth + 1)
                self._spend(base, chars)
            else:
                for index in range(first, last + 1):
                    chars += self._append_item(
                        result, value, index, depth, line, detail, partial, novel
                    )
                    self._spend(base, chars)
            previous = last
        if previous < count - 1:
            chars += self._omitted(result, value, previous + 1, count - 1, depth, line)
        return result, self.sizes.container_chars(chars, len(result), depth)

    def _omitted(
        self,
        result: list[object],
        value: list[object],
        first: int,
        last: int,
        depth: int,
        line: int,
    ) -> int:
        """Items `first`..`last` replaced by their marker, or kept whole when no longer."""
        marker = items_marker(last - first + 1, self._where(value, line, first, last))
        marker_chars = len(encode_string(marker))
        if self.sizes.short_run(value, first, last, marker_chars):
            result.extend(value[first : last + 1])
            return self.sizes.run_chars(value, first, last, depth + 1)
        self._claim(value, line, first)
        result.append(marker)
        return marker_chars

    def _append_item(
        self,
        result: list[object],
        value: list[object],
        index: int,
        depth: int,
        line: int,
        detail: Detail,
        partial: int | None,
        novel: frozenset[int],
    ) -> int:
        """A kept item: the one shown less richly, one kept for its new shape, or one kept
        as the level says."""
        if index == partial and detail.partial is not None:
            return self._append_partial(result, value, index, depth, line, detail.partial)
        if index in novel:
            return self._append_novel(result, value, index, depth, line, detail)
        return self._append(result, value, index, depth, line, detail)

    def _append(
        self,
        result: list[object],
        value: list[object],
        index: int,
        depth: int,
        line: int,
        detail: Detail,
    ) -> int:
        item = value[index]
        child_line = self._child_line(value, line, index, item, detail)
        new, chars = self._node(item, depth + 1, child_line, detail)
        result.append(new)
        return chars

    def _child_line(
        self, container: object, line: int, index: int, item: object, detail: Detail
    ) -> int:
        """The first line of member `index`, when it may need one: a container this level
        cuts (a kept one, or a scalar, places no marker)."""
        if not isinstance(item, dict | list) or self._whole(self.survey.of(item), detail):
            return line
        return self.lines.child_line(container, line, index)

    @staticmethod
    def _items_whole(facts: Facts, detail: Detail) -> bool:
        """Whether the kept items of an array are all written whole (only the array is cut):
        they are then copied and measured a run at a time, from the sizes of its items summed
        once."""
        return (
            detail.members is None
            and facts.inner_items <= detail.whole_arrays
            and (detail.string_limit is None or facts.max_string <= detail.string_limit)
        )

    def _novel_items(self, facts: Facts, detail: Detail) -> frozenset[int]:
        """The items of an array kept for their new shape alone, at the levels below whole
        shapes (`Detail.last` off): each shows only what is new in it (`Facts.new_members`),
        the union of the array's shapes, not its values again."""
        if detail.last or detail.members is not None or not facts.shape_items:
            return frozenset()
        return frozenset(facts.shape_items) - {0} - set(facts.task_items)

    def _append_novel(
        self,
        result: list[object],
        value: list[object],
        index: int,
        depth: int,
        line: int,
        detail: Detail,
    ) -> int:
        outer, self._novel = self._novel, True
        try:
            return self._append(result, value, index, depth, line, detail)
        finally:
            self._novel = outer

    def _append_partial(
        self,
        result: list[object],
        value: list[object],
        index: int,
        depth: int,
        line: int,
        detail: Detail,
    ) -> int:
        """The one item shown less richly; breadth-first members count from it."""
        outer, self._origin = self._origin, value[index]
        try:
            return self._append(result, value, index, depth, line, detail)
        finally:
            self._origin = outer

    def _object(
        self, value: dict[str, object], depth: int, line: int, detail: Detail
    ) -> tuple[object, int]:
        facts = self.survey.of(value)
        if self._whole(facts, detail):
            return value, self.sizes.whole(facts, depth)
        key = self._memo_key(facts, value, depth, detail)
        if key is not None and key in self._measured:
            return None, self._measured[key]
        result, chars = self._cut_object(value, facts, depth, line, detail)
        if key is not None:
            self._measured[key] = chars
        return result, chars

    def _cut_object(
        self, value: dict[str, object], facts: Facts, depth: int, line: int, detail: Detail
    ) -> tuple[object, int]:
        count = len(value)
        novel = facts.new_members if self._novel else None
        kept = self._kept_members(value, novel, detail)
        if not kept:
            return self._collapsed(value, self._where(value, line, 0, count - 1), depth)
        table = self.tables.at(value, detail.string_limit)
        members = table.members
        marker: str | None = None
        whole: list[int] = []  # omitted members no larger than their marker: kept as they are
        if len(kept) < count:
            first, last = _omitted_ends(kept, count)
            marker = keys_marker(count - len(kept), self._where(value, line, first, last))
            if count - len(kept) < SMALL_RUN:
                omitted = sorted(set(range(count)).difference(kept))
                if self.sizes.short_members(members, omitted, len(encode_string(marker)) + 5):
                    whole, marker = omitted, None
            if marker is not None:
                self._claim(value, line, first)
        separator = 2 if self.pretty else 1
        # The scalars at once (`MemberTable`), then the containers one by one.
        chars = table.scalar_chars(kept) + separator * (len(kept) + len(whole))
        for index in whole:
            key, item = members[index]
            chars += self.survey.key_length(key) + self.sizes.whole_value(item, depth + 1)
        base = self._spent
        self._spend(base, chars)
        result = None if self._measuring else _written_scalars(table, kept, whole, detail)
        for index in table.kept_containers(kept):
            key, item = members[index]
            child_line = self._child_line(value, line, index, item, detail)
            written, item_chars = self._node(item, depth + 1, child_line, detail)
            if result is not None:
                result[key] = written
            chars += self.survey.key_length(key) + item_chars
            self._spend(base, chars)
        written_count = len(kept) + len(whole)
        if marker is not None:
            marker_key = _marker_key(table, kept)
            if result is not None:
                result[marker_key] = marker
            chars += self.survey.key_length(marker_key) + separator + len(encode_string(marker))
            written_count += 1
        return result, self.sizes.container_chars(chars, written_count, depth)

    def _kept_members(
        self, value: dict[str, object], novel: tuple[int, ...] | None, detail: Detail
    ) -> list[int]:
        """The indices of the members an object keeps (empty: it becomes a marker): inside a
        new-shape item those that are new, at a breadth-first level those admitted, else
        all."""
        if novel is not None:
            return list(novel)
        if detail.members is None:
            return list(range(len(value)))
        return self.survey.admitted(value, detail.members, self._origin)

    def _claim(self, container: list[object] | dict[str, object], line: int, index: int) -> None:
        if self.claims is None:
            return
        if isinstance(container, dict):
            self.claims.append((self.lines.child_line(container, line, index), '"'))
            return
        item = container[index]
        first = (
            "{"
            if isinstance(item, dict)
            else "["
            if isinstance(item, list)
            else scalar_text(item)[0]
        )
        self.claims.append((self.lines.child_line(container, line, index), first))


def _omitted_ends(kept: list[int], count: int) -> tuple[int, int]:
    """The first and the last index below `count` missing from ascending `kept` (one is):
    `kept[i] - i` grows with i, by one at each gap, so both are found by halving."""
    positions = range(len(kept))
    first_gap = bisect_left(positions, 1, key=lambda position: kept[position] - position)
    tail = bisect_left(positions, count - len(kept), key=lambda position: kept[position] - position)
    last = kept[tail] - 1 if tail < len(kept) else count - 1
    return first_gap, last


def _written_scalars(
    table: MemberTable, kept: list[int], whole: list[int], detail: Detail
) -> dict[str, object]:
    """The kept members in order, strings over the limit cut, the whole ones as they are;
    containers as they are too, until the pruner writes them."""
    members = table.members
    order = sorted(kept + whole) if whole else kept
    result = {members[index][0]: members[index][1] for index in order}
    limit = detail.string_limit or 0
    for index in table.kept_cut(kept):
        key, item = members[index]
        result[key] = cut_string(item, limit)  # type: ignore[arg-type]
    return result


def _marker_key(table: MemberTable, kept: list[int]) -> str:
    """``…``, or longer when the object keeps a member of that name."""
    names = {table.members[index][0] for index in kept if table.members[index][0][:1] == ELLIPSIS}
    marker_key = ELLIPSIS
    while marker_key in names:
        marker_key += ELLIPSIS
    return marker_key
