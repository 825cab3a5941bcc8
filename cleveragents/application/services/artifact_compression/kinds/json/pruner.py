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
from dataclasses import replace
from functools import partial
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.kinds.json.breadth_first_sizes import (
    BreadthFirstSizes,
)
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
from cleveragents.application.services.artifact_compression.kinds.json.line_maps import (
    Line,
    LineMap,
    MemberLine,
    line_number,
)
from cleveragents.application.services.artifact_compression.kinds.json.member_sizes import (
    MemberTable,
    MemberTables,
)
from cleveragents.application.services.artifact_compression.kinds.json.pretty_text import (
    pretty_json,
)
from cleveragents.application.services.artifact_compression.kinds.json.rendered_sizes import (
    SMALL_RUN,
    RenderedSizes,
)
from cleveragents.application.services.artifact_compression.kinds.json.string_limit_sizes import (
    NotedStrings,
    StringLimitSizes,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import (
    ELLIPSIS,
    cut_string,
    items_marker,
    kept_whole_up_to,
    keys_marker,
)
from cleveragents.application.services.artifact_compression.kinds.kind_compressor import Handles

_TABLE_FROM = 64
"""Objects of this many members or more are measured from a `MemberTable`; a smaller one
member by member (making its table costs more than it saves)."""
_LEVELS_KEPT = 4
"""Arrays of item sizes kept per array (`Pruner._item_sizes`): one per level measured
lately."""


class _OverCapError(Exception):
    """A measurement passed its cap: the level is larger, by how much is not needed."""


class MemberPrefix(NamedTuple):
    """A large object's members as a breadth-first level that admits none of their own
    members writes them: `chars[i]` the first i members' size (keys and separators included),
    `walks[i]` what walking their containers as markers costs the search's patience, and
    the first member whose key starts with the marker's key (the object's size if none)."""

    chars: list[int]
    walks: list[int]
    first_ellipsis: int


_PREFIX_FROM = 64
"""Objects of this many members or more keep their `MemberPrefix` (a level whose point is a
smaller one measures it)."""


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
        self._item_vectors: dict[int, dict[tuple[object, ...], list[int]]] = {}
        self._breadth_first_sizes: dict[Detail, BreadthFirstSizes] = {}
        self._string_limit_sizes: dict[object, StringLimitSizes] = {}
        """By what a level writes with its string limit left out (`_string_limit_family`):
        its sizes at every limit from one walk."""
        self._notes = NotedStrings()
        self._all_strings: list[str] | None = None
        self._derived: dict[Detail, int] = {}
        """The sizes found from `StringLimitSizes`, checked when such a level is built."""
        self._cap = float("inf")
        self._spent = 0
        """While measuring: a lower bound of the size, the members measured so far of every
        container being measured (what a container adds around its members only grows it)."""
        self.walked = 0
        """The containers cut so far and the members and items they hold, by builds and
        measurements alike (one that a measurement found measured already is not counted):
        what the search has spent, in the unit of `Survey.entries`."""
        self.twin: Pruner | None = None
        """For a pretty pruner, the compact one of the same document (`_measured_by_twin`)."""
        self._member_markers = 0
        """While `marker_and_members` sizes a container: its containers' markers so far."""
        self.claims: list[tuple[int, str]] | None = None
        """When a list: (line, first character) of the first omitted member of each run, for
        checking a line map that was inferred from the layout."""

    def build(self, detail: Detail) -> Built:
        self._detail = detail
        self._origin = self.survey.root
        self._novel = False
        value, chars = self._node(self.survey.root, 0, self.lines.root_line, detail)
        derived = None if self._measuring else self._derived.get(detail)
        if derived is not None and derived != chars:
            # Never seen; should a level ever depend on its string limit in a way the sizes
            # do not follow, the search goes on with walks (its counts are exact either way).
            self._string_limit_sizes.clear()
            self._derived.clear()
            self.twin = None
        return Built(value, chars)

    def measure(self, detail: Detail, cap: float = float("inf")) -> int:
        """The length of `build(detail)`'s rendering, without its value; when it is over `cap`,
        some length over `cap` (the walk stops there: a level far too large costs what the
        cap lets it). A subtree has the same size at every level that agrees on what it
        depends on (`Detail.seen_by`), so levels that differ in one array measure again only
        the containers around it."""
        if detail.members is not None and self._every_member_written(detail) is not None:
            # Every member admitted, and no array to cut to its first item: the whole
            # document, strings cut, as the level that drops nothing writes it.
            return self.measure(replace(detail, members=None, where=True), cap)
        if detail.members is not None and detail.partial is None:
            admitted = self.survey.admission_size(self.survey.root)
            if detail.members < admitted:
                return self._breadth_first(detail).size(detail.members)
            if detail.members == admitted:
                # The level a search interpolates down from: sized by the same gains as the
                # levels below it, up to the cap. A walk of it was a second walk of the
                # document wherever the cap did not stop it (an API description at raw/5).
                return self._breadth_first(detail).whole_size(cap)
        by_twin = self._measured_by_twin(detail, cap)
        if by_twin is not None:
            return by_twin
        family = self._string_limit_family(detail)
        sizes = None if family is None else self._string_limit_sizes.get(family)
        derived = None if sizes is None else sizes.size(detail.string_limit)
        if derived is not None and sizes is not None:
            self._derived[detail] = derived
            # Counted against the search's patience as the walk it replaces: the search ends
            # where it ended, sooner.
            self.walked += sizes.walk_cost
            return derived
        limit = detail.string_limit
        noting = family is not None and limit is not None and (sizes is None or limit < sizes.limit)
        root_facts = self._every_member_written(detail)
        if noting and root_facts is not None and limit is not None:
            # Nothing but strings changes: the sizes at every limit from the strings alone.
            whole = root_facts.pretty if self.pretty else root_facts.compact
            longer = [value for value in self._strings() if len(value) > limit]
            sizes = self._string_limit_sizes[family] = StringLimitSizes.from_whole(
                limit, whole, longer, self.survey.entries
            )
            found = sizes.size(limit)
            if found is not None:
                # Charged as the walk it replaces, which stops at the cap.
                self.walked += int(sizes.walk_cost * min(1.0, cap / max(found, 1)))
                self._derived[detail] = found
                return found if found <= cap else int(min(found, cap + 1))  # as the walk says
        if noting:
            self._notes.begin()
        walked = self.walked
        self._measuring = True
        self._cap = cap
        self._spent = 0
        try:
            chars = self.build(detail).chars
        except _OverCapError:
            return int(min(self._spent, cap + 1))
        finally:
            self._measuring = False
            self._cap = float("inf")
            noted = self._notes.end()
        if family is not None and limit is not None and noted is not None:
            self._string_limit_sizes[family] = StringLimitSizes(
                limit, chars, noted, self.walked - walked
            )
        return chars

    def _measured_by_twin(self, detail: Detail, cap: float) -> int | None:
        """A pretty level's size from its compact `twin`'s, when they differ by a constant:
        in a document with no array of two items, a level that drops no member (neither
        breadth-first nor with an item shown less richly) writes every member and item, and
        only strings change, so its pretty rendering has exactly the whole document's
        whitespace more (a lock file, most configuration). The walk is the twin's, charged
        to this pruner's patience too; the size is checked when the level is built. None
        otherwise."""
        twin = self.twin
        facts = self._every_member_written(detail)
        if twin is None or facts is None:
            return None
        more = facts.pretty - facts.compact
        walked = twin.walked
        size = twin.measure(detail, cap - more) + more
        self.walked += twin.walked - walked
        if size <= cap:
            self._derived[detail] = size
        return size

    def written_whole(self, detail: Detail) -> str | None:
        """A pretty level that writes every member of the document (`_every_member_written`)
        written straight from the document, its strings cut as it goes: what `build` and
        `render` give, without the copy of the document (a lock file at 0.8x raw: a copy of
        nearly all of it). None for any other level, or one not sized without a walk, or
        when its length is not that size (the caller builds it then)."""
        limit = detail.string_limit
        if not self.pretty or self._every_member_written(detail) is None:
            return None
        cut = None if limit is None else partial(cut_string, limit=limit)
        try:
            text = pretty_json(self.survey.root, cut)
        except ValueError:
            return None
        return text if len(text) == self._derived.get(detail) else None

    def _every_member_written(self, detail: Detail) -> Facts | None:
        """The root's facts when `detail` writes every member and item of the document (only
        its strings may be cut): a level that drops no member (not breadth-first, or
        admitting every member, and with no item shown less richly) of a document with no
        array of two items; else None."""
        root = self.survey.root
        if detail.partial is not None or (
            detail.members is not None and detail.members < self.survey.admission_size(root)
        ):
            return None
        if not isinstance(root, dict | list):
            return None
        facts = self.survey.of(root)
        return facts if facts.max_items <= 1 else None

    def _strings(self) -> list[str]:
        """Every string value of the document, found once."""
        if self._all_strings is None:
            found: list[str] = []
            _collect_strings(self.survey.root, found)
            self._all_strings = found
        return self._all_strings

    def _string_limit_family(self, detail: Detail) -> object | None:
        """What levels that write the document alike but for their string limit share (the
        key of their `StringLimitSizes`): what the root's rendering depends on
        (`Detail.seen_by`) but the limit, so that levels that differ only where the document
        has nothing to show share it (`last` in a document with no array of two items). None
        for a breadth-first level or one with an item shown less richly, whose sizes are found
        otherwise."""
        if detail.members is not None or detail.partial is not None:
            return None
        root = self.survey.root
        if isinstance(root, dict | list):
            seen = detail.seen_by(self.survey.of(root))
            if seen is not None:
                return seen[1:]
        return replace(detail, string_limit=None)

    def measure_container(self, container: object, depth: int, line: int, detail: Detail) -> int:
        """The size of `container` alone as `detail` writes it, at `depth`, from `line` (a
        part of the root's rendering: `detail`'s breadth-first members count from the root)."""
        self._measuring = True
        self._detail = detail
        self._origin = self.survey.root
        self._novel = False
        try:
            return self._node(container, depth, line, detail)[1]
        finally:
            self._measuring = False

    def marker_and_members(
        self, container: dict[str, object] | list[object], depth: int, line: Line, detail: Detail
    ) -> tuple[int, int, int, MemberPrefix | None]:
        """At the breadth-first levels written like `detail` (from the root, no item shown
        less richly): the size of non-empty `container` as a marker, and with every member
        the breadth-first order gives it (all of an object's, an array's first item: what
        `measure_container` finds at the levels that admit none and all of them), its own
        containers as markers (their members come after). Found directly, as `_cut_object`
        and `_cut_array` would find them, for the walk they count against the search's
        patience (both sizes walk the container, and its containers once as markers). With
        them, how much of the second its containers' markers take (the rest is its own part
        of every level that admits its members: a part no later container takes back), and a
        large object's `MemberPrefix`, for the levels whose point it is."""
        self._detail, self._origin, self._novel = detail, self.survey.root, False
        self._member_markers = 0
        count = len(container)
        self.walked += 2 * (count + 1)
        as_marker = self._collapsed(container, self._where(container, line, 0, count - 1), depth)[1]
        if isinstance(container, list):
            chars = self._member_size(container[0], depth + 1, container, line, 0)
            written: list[object] = [None]  # stand-ins: only the count is used
            if count > 1:
                chars += self._omitted(written, container, 1, count - 1, depth, line)
            admitted = self.sizes.container_chars(chars, len(written), depth)
            return as_marker, admitted, self._member_markers, None
        if count >= _PREFIX_FROM:
            prefix = self._member_prefix(container, depth, line)
            admitted = self.sizes.container_chars(prefix.chars[-1], count, depth)
            return as_marker, admitted, self._member_markers, prefix
        # A small object keeps no running sizes (`_member_prefix`): its lists would cost more
        # than measuring it again at the one level whose point it is.
        key_length = self.survey.key_length
        chars = (2 if self.pretty else 1) * count
        for index, (key, member) in enumerate(container.items()):
            chars += key_length(key) + self._member_size(member, depth + 1, container, line, index)
        admitted = self.sizes.container_chars(chars, count, depth)
        return as_marker, admitted, self._member_markers, None

    def _member_prefix(self, container: dict[str, object], depth: int, line: Line) -> MemberPrefix:
        key_length = self.survey.key_length
        separator = 2 if self.pretty else 1
        chars, walks = [0], [0]
        first_ellipsis = len(container)
        for index, (key, member) in enumerate(container.items()):
            walked = self.walked
            size = key_length(key) + separator
            size += self._member_size(member, depth + 1, container, line, index)
            chars.append(chars[-1] + size)
            walks.append(walks[-1] + self.walked - walked)
            if first_ellipsis == len(container) and key.startswith(ELLIPSIS):
                first_ellipsis = index
        return MemberPrefix(chars, walks, first_ellipsis)

    def object_admitting(
        self,
        container: dict[str, object],
        depth: int,
        line: Line,
        detail: Detail,
        share: int,
        prefix: MemberPrefix,
    ) -> int | None:
        """The size of a large object at the breadth-first level whose point it is, `share`
        of its members admitted (the first ones: it has no task member), from its
        `MemberPrefix`: what `measure_container` finds, without walking them again. None
        when the rest is too short to be sure it is a marker (`_keys_marker`), or when a
        kept key makes the marker's key longer: the caller measures it then."""
        count = len(container)
        if count - share < SMALL_RUN or not 0 < share <= prefix.first_ellipsis:
            return None
        if self.survey.of(container).task_items:
            return None
        self._detail, self._origin, self._novel = detail, self.survey.root, False
        marker = keys_marker(count - share, self._where(container, line, share, count - 1))
        separator = 2 if self.pretty else 1
        chars = prefix.chars[share] + self.survey.key_length(ELLIPSIS) + separator
        return self.sizes.container_chars(chars + len(encode_string(marker)), share + 1, depth)

    def _member_size(
        self, member: object, depth: int, container: object, line: Line, index: int
    ) -> int:
        """A member's size at a breadth-first level that admits none of its own members:
        a scalar as the level writes it, an empty container whole, any other as a marker."""
        if isinstance(member, dict | list):
            if not member:
                return 2
            self.walked += len(member) + 1  # the walk that found it a marker
            where = self._where(member, MemberLine(container, line, index), 0, len(member) - 1)
            size = self._collapsed(member, where, depth)[1]
            self._member_markers += size
            return size
        return self._node(member, depth, line, self._detail)[1]

    def _breadth_first(self, detail: Detail) -> BreadthFirstSizes:
        """The sizes of the breadth-first levels written like `detail`, made when first
        needed."""
        like = replace(detail, members=0)
        sizes = self._breadth_first_sizes.get(like)
        if sizes is None:
            sizes = self._breadth_first_sizes[like] = BreadthFirstSizes(self, like)
        return sizes

    def _spend(self, base: int, chars: int) -> None:
        """While measuring: the container that started at `base` has `chars` so far."""
        self._spent = base + chars
        if self._spent > self._cap:
            raise _OverCapError

    def _memo_key(
        self,
        facts: Facts,
        value: dict[str, object] | list[object],
        depth: int,
        detail: Detail,
    ) -> object:
        if not self._measuring:
            return None
        if detail.members is not None:
            return self._breadth_first_key(value, depth, detail.members, detail.string_limit)
        seen = detail.seen_by(facts)
        return None if seen is None else (id(value), depth, seen, self._novel)

    def _breadth_first_key(
        self,
        value: dict[str, object] | list[object],
        depth: int,
        members: int,
        string_limit: int | None,
    ) -> object:
        """At a breadth-first level, a container whose own members' members are all left out
        is written alike at every level that admits as many of its members (`Survey
        .admitted_share`): the levels of a search that differ only past it share it. The
        levels that admit some of its members' members say nothing of each other here."""
        share = self.survey.admitted_share(value, members, self._origin)
        if share is None:
            return None
        # Marked apart from `Detail.seen_by`'s tuples, which start with the string limit.
        seen = ("members", share, string_limit, self._detail.where, id(self._origin))
        return (id(value), depth, seen, self._novel)

    def _whole(self, facts: Facts, detail: Detail) -> bool:
        """Whether a container is written as it is: inside a new-shape item, an object also
        needs every member new."""
        return detail.keeps_whole(facts) and not (self._novel and facts.new_members is not None)

    def _node(self, value: object, depth: int, line: Line, detail: Detail) -> tuple[object, int]:
        if isinstance(value, dict):
            return self._object(value, depth, line, detail)
        if isinstance(value, list):
            return self._array(value, depth, line, detail)
        if isinstance(value, str):
            if detail.string_limit is not None and len(value) > detail.string_limit:
                noted = self._notes.walk
                if noted is not None:
                    noted.append(value)
                value = cut_string(value, detail.string_limit)
            return value, len(encode_string(value))
        return value, len(scalar_text(value))

    def _where(self, container: object, line: Line, first: int, last: int) -> str:
        if not self._detail.where:
            return ""
        start, end = self.lines.span(container, line_number(self.lines, line), first, last)
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
        self, value: list[object], depth: int, line: Line, detail: Detail
    ) -> tuple[object, int]:
        facts = self.survey.of(value)
        if self._whole(facts, detail):
            return value, self.sizes.whole(facts, depth)
        key = self._memo_key(facts, value, depth, detail)
        if key is not None and key in self._measured:
            self._notes.reuse(key)
            return None, self._measured[key]
        start = self._notes.mark()
        result, chars = self._cut_array(value, facts, depth, line, detail)
        if key is not None:
            self._measured[key] = chars
            self._notes.keep(key, start)
        return result, chars

    def _cut_array(
        self, value: list[object], facts: Facts, depth: int, line: Line, detail: Detail
    ) -> tuple[object, int]:
        count = len(value)
        self.walked += count + 1
        found = self._kept_items(value, facts, detail)
        if found is None:
            return self._collapsed(value, self._where(value, line, 0, count - 1), depth)
        kept, partial = found
        novel = self._novel_items(facts, detail)
        whole_items = partial is None and not novel and self._items_whole(facts, detail)
        sizes = None if whole_items else self._item_sizes(value, facts, depth, detail, partial)
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
            elif sizes is not None:
                # Measured before at this level: summed at once; else measured and noted.
                result.extend(value[first : last + 1])  # stand-ins: only the count is used
                if min(sizes[first : last + 1]) < 0 or self._notes.walk is not None:
                    self._measure_items(value, sizes, first, last, depth, line, detail, novel)
                chars += sum(sizes[first : last + 1])
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

    def _measure_items(
        self,
        value: list[object],
        sizes: list[int],
        first: int,
        last: int,
        depth: int,
        line: Line,
        detail: Detail,
        novel: frozenset[int],
    ) -> None:
        """The items `first`..`last` not measured yet at this level, measured into `sizes`
        (the strings cut kept with each, `NotedStrings`); those measured before count their
        strings again when a walk notes them."""
        vector = (id(value), depth, detail.string_limit, detail.last, detail.where, self._novel)
        base, running = self._spent, 0
        for index in range(first, last + 1):
            if sizes[index] < 0:
                start = self._notes.mark()
                sizes[index] = self._append_item([], value, index, depth, line, detail, None, novel)
                self._notes.keep((vector, index), start)
            else:
                self._notes.reuse((vector, index))
            running += sizes[index]
            self._spend(base, running)

    def _kept_items(
        self, value: list[object], facts: Facts, detail: Detail
    ) -> tuple[list[tuple[int, int]], int | None] | None:
        """The runs of items an array keeps and the index of the one shown less richly, if
        any; None when it keeps none (it becomes a marker)."""
        if detail.members is not None:
            admitted = self.survey.admitted(value, detail.members, self._origin)
            return (runs(admitted), None) if admitted else None
        kept, last_extra = kept_runs(facts, len(value), detail)
        if detail.partial is not None and facts.ordinal == detail.partial_ordinal:
            return kept, last_extra
        return kept, None

    def _item_sizes(
        self, value: list[object], facts: Facts, depth: int, detail: Detail, partial: int | None
    ) -> list[int] | None:
        """While measuring, the sizes of the array's items as this level writes them (-1: not
        measured yet), when they depend only on the string limit and the few switches in the
        key: no array inside an item is cut and none holds the item shown less richly. Items
        are then measured once per such level, and a run of them is summed at once."""
        if (
            not self._measuring
            or detail.members is not None
            or partial is not None
            or facts.inner_items > detail.whole_arrays
        ):
            return None
        arrays_from, arrays_to = facts.ranges[0], facts.ranges[1]
        if detail.partial_ordinal is not None and arrays_from <= detail.partial_ordinal < arrays_to:
            return None
        by_level = self._item_vectors.setdefault(id(value), {})
        key = (depth, detail.string_limit, detail.last, detail.where, self._novel)
        sizes = by_level.get(key)
        if sizes is None:
            if len(by_level) >= _LEVELS_KEPT:
                del by_level[next(iter(by_level))]
            sizes = by_level[key] = [-1] * len(value)
        return sizes

    def _flat_item(
        self,
        array: list[object],
        index: int,
        depth: int,
        line: Line,
        detail: Detail,
        novel_item: bool,
    ) -> tuple[object, int] | None:
        """Item `index` of `array` when it is an object of scalars: measured from its whole
        size and the strings the level cuts, and written (not while measuring) as a copy
        with those cut, or, shown by what is new in it, cut at once: what `_append` finds,
        without its calls per item and per member. None for any other item."""
        item = array[index]
        if not isinstance(item, dict) or not item or detail.members is not None:
            return None
        facts = self.survey.of(item)
        if facts.newlines != len(item) + 1:
            return None  # a member spans lines: it is a container
        if (self._novel or novel_item) and facts.new_members is not None:
            outer, self._novel = self._novel, True  # only what is new in it, and a marker
            try:
                first_line = MemberLine(array, line, index)
                return self._cut_object(item, facts, depth, first_line, detail)
            finally:
                self._novel = outer
        chars = self.sizes.whole(facts, depth)
        if detail.keeps_whole(facts):
            return item, chars
        # Only its strings longer than the limit change: its size is its whole size less
        # what cutting them saves, and it is written as a copy with them replaced (found in
        # one comprehension: a loop over every member costs several times more).
        limit = detail.string_limit or 0
        whole_up_to = kept_whole_up_to(limit)
        long = [
            (key, member)
            for key, member in item.items()
            if type(member) is str and len(member) > whole_up_to
        ]
        written: dict[str, object] | None = None if self._measuring else dict(item)
        noted = self._notes.walk
        if noted is not None:
            noted.extend(member for _, member in long)
        for key, member in long:
            shown = cut_string(member, limit)
            chars -= len(encode_string(member)) - len(encode_string(shown))
            if written is not None:
                written[key] = shown
        return written, chars

    def _omitted(
        self,
        result: list[object],
        value: list[object],
        first: int,
        last: int,
        depth: int,
        line: Line,
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
        line: Line,
        detail: Detail,
        partial: int | None,
        novel: frozenset[int],
    ) -> int:
        """A kept item: the one shown less richly, one kept for its new shape, or one kept
        as the level says."""
        if index == partial and detail.partial is not None:
            return self._append_partial(result, value, index, depth, line, detail.partial)
        flat = self._flat_item(value, index, depth + 1, line, detail, index in novel)
        if flat is not None:
            result.append(flat[0])
            return flat[1]
        if index in novel:
            return self._append_novel(result, value, index, depth, line, detail)
        return self._append(result, value, index, depth, line, detail)

    def _append(
        self,
        result: list[object],
        value: list[object],
        index: int,
        depth: int,
        line: Line,
        detail: Detail,
    ) -> int:
        item = value[index]
        child_line = self._child_line(value, line, index, item)
        new, chars = self._node(item, depth + 1, child_line, detail)
        result.append(new)
        return chars

    @staticmethod
    def _child_line(container: object, line: Line, index: int, item: object) -> Line:
        """The first line of member `index`, when it may need one (a scalar places no
        marker), found when a marker asks for it."""
        if not isinstance(item, dict | list):
            return line
        return MemberLine(container, line, index)

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
        line: Line,
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
        line: Line,
        detail: Detail,
    ) -> int:
        """The one item shown less richly; breadth-first members count from it."""
        outer, self._origin = self._origin, value[index]
        try:
            return self._append(result, value, index, depth, line, detail)
        finally:
            self._origin = outer

    def _object(
        self, value: dict[str, object], depth: int, line: Line, detail: Detail
    ) -> tuple[object, int]:
        facts = self.survey.of(value)
        if self._whole(facts, detail):
            return value, self.sizes.whole(facts, depth)
        key = self._memo_key(facts, value, depth, detail)
        if key is not None and key in self._measured:
            self._notes.reuse(key)
            return None, self._measured[key]
        start = self._notes.mark()
        result, chars = self._cut_object(value, facts, depth, line, detail)
        if key is not None:
            self._measured[key] = chars
            self._notes.keep(key, start)
        return result, chars

    def _cut_object(
        self, value: dict[str, object], facts: Facts, depth: int, line: Line, detail: Detail
    ) -> tuple[object, int]:
        count = len(value)
        self.walked += count + 1
        novel = facts.new_members if self._novel else None
        kept = self._kept_members(value, novel, detail)
        if not kept:
            return self._collapsed(value, self._where(value, line, 0, count - 1), depth)
        table = self.tables.at(value, detail.string_limit) if count >= _TABLE_FROM else None
        members = table.members if table is not None else list(value.items())
        marker, whole = self._keys_marker(value, members, kept, line)
        separator = 2 if self.pretty else 1
        result, chars, indices, whole_set = self._members_begun(
            table, members, kept, whole, depth, detail
        )
        base = self._spent
        self._spend(base, chars)
        limit = detail.string_limit
        key_length = self.survey.key_length
        noted = self._notes.walk
        # One loop (no helper) that recurses: the depth a document can have is the stack's.
        for index in indices:
            key, written = members[index]
            # Scalars inline (`_node`'s way): most members are, and a call each costs more.
            if index in whole_set:
                item_chars = self.sizes.whole_value(written, depth + 1)
            elif isinstance(written, str):
                if limit is not None and len(written) > limit:
                    if noted is not None:
                        noted.append(written)
                    written = cut_string(written, limit)
                item_chars = len(encode_string(written))
            elif isinstance(written, dict | list):
                child_line = MemberLine(value, line, index)
                written, item_chars = self._node(written, depth + 1, child_line, detail)
                self._spend(base, chars + key_length(key) + item_chars)
            else:
                item_chars = len(scalar_text(written))
            if result is not None:
                result[key] = written
            chars += key_length(key) + item_chars
        self._spend(base, chars)
        chars += separator * (len(kept) + len(whole))
        written_count = len(kept) + len(whole)
        if marker is not None:
            marker_key = _marker_key(members, kept)
            if result is not None:
                result[marker_key] = marker
            chars += self.survey.key_length(marker_key) + separator + len(encode_string(marker))
            written_count += 1
        return result, self.sizes.container_chars(chars, written_count, depth)

    def _keys_marker(
        self,
        value: dict[str, object],
        members: list[tuple[str, object]],
        kept: list[int],
        line: Line,
    ) -> tuple[str | None, list[int]]:
        """The marker of the members an object omits (None: it omits none), and the omitted
        members it keeps after all, as they are, because they are no larger than it."""
        count = len(members)
        if len(kept) == count:
            return None, []
        first, last = _omitted_ends(kept, count)
        marker = keys_marker(count - len(kept), self._where(value, line, first, last))
        if count - len(kept) < SMALL_RUN:
            omitted = sorted(set(range(count)).difference(kept))
            if self.sizes.short_members(members, omitted, len(encode_string(marker)) + 5):
                return None, omitted
        self._claim(value, line, first)
        return marker, []

    def _members_begun(
        self,
        table: MemberTable | None,
        members: list[tuple[str, object]],
        kept: list[int],
        whole: list[int],
        depth: int,
        detail: Detail,
    ) -> tuple[dict[str, object] | None, int, list[int], set[int]]:
        """What an object's members start from: its value so far (None while measuring), its
        size so far, the members still to write, and which of them are kept as they are. A
        large object has its scalars written and measured at once, from its table; the
        containers are left."""
        result: dict[str, object] | None = None if self._measuring else {}
        if table is None:
            return result, 0, sorted(kept + whole) if whole else kept, set(whole)
        chars = table.scalar_chars(kept) + self._whole_members(members, whole, depth)
        noted = self._notes.walk
        if noted is not None:
            noted.extend(str(members[index][1]) for index in table.kept_cut(kept))
        if result is not None:
            result = _written_scalars(table, kept, whole, detail)
        return result, chars, table.kept_containers(kept), set()

    def _whole_members(
        self, members: list[tuple[str, object]], whole: list[int], depth: int
    ) -> int:
        """The size of the members written as they are (separators left out)."""
        chars = 0
        for index in whole:
            key, item = members[index]
            chars += self.survey.key_length(key) + self.sizes.whole_value(item, depth + 1)
        return chars

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

    def _claim(self, container: list[object] | dict[str, object], line: Line, index: int) -> None:
        if self.claims is None:
            return
        if isinstance(container, dict):
            self.claims.append((self._member_line(container, line, index), '"'))
            return
        item = container[index]
        first = (
            "{"
            if isinstance(item, dict)
            else "["
            if isinstance(item, list)
            else scalar_text(item)[0]
        )
        self.claims.append((self._member_line(container, line, index), first))

    def _member_line(self, container: object, line: Line, index: int) -> int:
        return self.lines.child_line(container, line_number(self.lines, line), index)


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


def _marker_key(members: list[tuple[str, object]], kept: list[int]) -> str:
    """``…``, or longer when the object keeps a member of that name."""
    names = {members[index][0] for index in kept if members[index][0][:1] == ELLIPSIS}
    marker_key = ELLIPSIS
    while marker_key in names:
        marker_key += ELLIPSIS
    return marker_key


def _collect_strings(value: object, found: list[str]) -> None:
    """The string values in `value`, appended to `found` (keys are not values)."""
    for member in value.values() if type(value) is dict else value:  # type: ignore[attr-defined]
        kind = type(member)
        if kind is str:
            found.append(member)
        elif kind is dict or kind is list:
            _collect_strings(member, found)
