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

from bisect import bisect_right
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
from cleveragents.application.services.artifact_compression.kinds.json.rendered_sizes import (
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

    def __init__(self, survey: Survey, lines: LineMap, handles: Handles, *, pretty: bool):
        self.survey = survey
        self.lines = lines
        self.handles = handles
        self.pretty = pretty
        self._detail = Detail()
        self._origin: object = survey.root
        self._novel = False  # inside an item kept for its new shape: only what is new in it
        self.sizes = RenderedSizes(survey, pretty=pretty)
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
        if self._measuring and detail.members is None and novel is None:
            return None, self._measured_object(value, depth, line, detail)
        kept = self._kept_members(value, novel, detail)
        if not kept:
            return self._collapsed(value, self._where(value, line, 0, count - 1), depth)
        members = list(value.items())
        marker: str | None = None
        whole: set[int] = set()  # omitted members no larger than their marker: kept as they are
        if len(kept) < count:
            kept_set = set(kept)
            omitted = [index for index in range(count) if index not in kept_set]
            marker = keys_marker(len(omitted), self._where(value, line, omitted[0], omitted[-1]))
            if self.sizes.short_members(members, omitted, len(encode_string(marker)) + 5):
                kept, marker, whole = list(range(count)), None, set(omitted)
            else:
                self._claim(value, line, omitted[0])
        result: dict[str, object] = {}
        chars = 0
        separator = 2 if self.pretty else 1
        base = self._spent
        for index in kept:
            key, item = members[index]
            if index in whole:
                result[key], item_chars = item, self.sizes.whole_value(item, depth + 1)
            else:
                child_line = self._child_line(value, line, index, item, detail)
                result[key], item_chars = self._node(item, depth + 1, child_line, detail)
            chars += self.survey.key_length(key) + separator + item_chars
            self._spend(base, chars)
        if marker is not None:
            marker_key = ELLIPSIS
            while marker_key in result:
                marker_key += ELLIPSIS
            result[marker_key] = marker
            chars += self.survey.key_length(marker_key) + separator + len(encode_string(marker))
        return result, self.sizes.container_chars(chars, len(result), depth)

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

    def _measured_object(
        self, value: dict[str, object], depth: int, line: int, detail: Detail
    ) -> int:
        """The size of an object that keeps all its members, from its plan: only its
        containers and its strings over the limit are looked at one by one."""
        plan = self.sizes.plan(value)
        separator = 2 if self.pretty else 1
        limit = detail.string_limit
        whole = len(plan.by_length) if limit is None else bisect_right(plan.lengths, limit)
        chars = plan.plain + plan.prefix[whole]
        for index in plan.by_length[whole:]:  # (only with a limit)
            key, item = plan.members[index]
            cut = cut_string(str(item), limit or 0)
            chars += self.survey.key_length(key) + separator + len(encode_string(cut))
        base = self._spent
        self._spend(base, chars)
        for index in plan.containers:
            key, item = plan.members[index]
            child_line = self._child_line(value, line, index, item, detail)
            chars += self.survey.key_length(key) + separator
            chars += self._node(item, depth + 1, child_line, detail)[1]
            self._spend(base, chars)
        return self.sizes.container_chars(chars, len(value), depth)

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
