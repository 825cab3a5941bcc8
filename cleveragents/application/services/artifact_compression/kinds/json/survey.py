"""Smart mode for JSON, part 1: what a document holds, measured once (which of its array
items and object members a given level of detail keeps is `detail`).

`Survey` walks the parsed document once and records, for every array and object, the sizes of
its full rendering in both layouts and the extremes below it (longest array, longest string,
largest object). A rendering at any level of detail then reuses an untouched container's
recorded size instead of walking it again, so measuring a candidate costs in proportion to what
it changes, not to the document.

The same walk decides which middle items of each array show something new: a key path (keys
from the root, array positions left out) or a kind of value (null, string, object...) at a
path that no item shown before had. Items are visited in order (the last is one like the
others: tight levels show only the first item and the new shapes); an item that
adds nothing new leaves the set of seen shapes as it was, so the decisions of the items it
contains only matter when it is kept, and then they are right.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.kinds.json.facts import (
    Facts,
    encode_string,
    scalar_text,
)
from cleveragents.application.services.artifact_compression.kinds.json.signatures import (
    Signature,
    scalar_run_chars,
    signature_chars,
    signature_of,
)
from cleveragents.application.services.artifact_compression.task_terms import TaskTerms

_OBJECT, _ARRAY, _STRING, _NUMBER, _BOOL, _NULL = range(6)
_KINDS = 8  # a shape is `path * _KINDS + kind`
_ITEM = None  # the pseudo key of an array's items in a path


def _unencodable(value: object) -> object:
    raise TypeError(f"{type(value).__name__} is not JSON")


_COMPACT: Callable[[object, int], list[str]] = json.encoder.c_make_encoder(  # type: ignore[attr-defined]
    None, _unencodable, json.encoder.encode_basestring, None, ":", ",", False, False, True
)
"""`json.dumps`'s compact layout (``ensure_ascii=False``), the C writer made once: the survey
sizes flat objects with it, and making it per object (as `json.JSONEncoder.encode` does)
cost more than writing a small object."""
_FLAT_FROM = 16
"""Objects of scalars alone of this many members or more are sized at once (`_flat_object`);
for fewer, that costs more than walking the members."""
_SIGNED_FROM = 8
"""Objects of this many members or more are sized by their signature when it repeats (for
fewer, building the signature costs more than walking the members)."""


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


_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))
"""The types `json.loads` gives scalars (`_KIND_OF` has each)."""


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


class _Admission(NamedTuple):
    """The breadth-first order of members from one origin (`Detail.members`)."""

    ranks: dict[int, int]
    """The rank of each reached container's first member, by the container's `id`."""
    size: int
    """How many members the order has in all."""
    children_from: dict[int, int]
    """By a container's `id`, the lowest rank of its containers' members: a level that
    admits no more members than that shows each of its containers as a marker."""
    containers: list[object]
    """Every container reached, in the order (their ranks ascending)."""
    places: list[tuple[int, int]]
    """Where each of `containers` is: its parent's place in them and its index among the
    parent's members; (-1, -1) for the origin."""


class Survey:
    """The facts of every container of one parsed document, keyed by `id` (the document is
    held, so the ids stay valid)."""

    def __init__(self, root: object, terms: TaskTerms) -> None:
        self.root = root
        self.terms = terms
        self._task = bool(terms)
        """Whether there is a task: `TaskTerms.__bool__` asked once, not once per container."""
        self._mentions = _mention_test(terms)
        self.facts: dict[int, Facts] = {}
        self._children: dict[int, dict[str | None, int]] = {}
        """The number of each path: by its parent's number, by its last key (one dict per
        parent, so a member's lookup builds no tuple)."""
        self._path_count = 0
        self._seen: set[int] = set()
        self._key_lengths: dict[str, int] = {}
        self._key_matches: dict[str, bool] = {}
        self._orders: dict[int, _Admission] = {}
        self._signatures: dict[tuple[object, ...], Signature | None] = {}
        self._met_once: set[tuple[object, ...]] = set()
        self.shape_places: dict[int, tuple[int, int]] = {}
        """Where each new-shape item is, by rank: (its array's ordinal, its index)."""
        self.task_places: dict[int, tuple[int, int]] = {}
        """Where each task item is, by rank: (its array's ordinal, its index)."""
        self.arrays = 0
        """How many arrays of three items or more the document has (the others are never
        cut)."""
        self._arrays: list[list[object]] = []
        self.shape_items = 0
        """How many items after the first show a new shape, in all."""
        self.task_items = 0
        """How many array items mention the task, in all."""
        self.entries = 0
        """How many containers, members and items the document holds, in all (what one walk
        of it costs, about)."""
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
        first_rank = self.admission(origin).ranks.get(id(container))
        if first_rank is None:
            return []  # not reached from `origin`: only what is kept whole is shown
        share = members - first_rank
        if share <= 0 or not container:
            return []
        # `_breadth_order`'s first `share`, sorted, without building it where it is a range
        # (an array's first item; an object's members in order, when none is a task's).
        if isinstance(container, list):
            return [0]
        if not self.of(container).task_items:
            return list(range(min(share, len(container))))
        order = self._breadth_order(container)
        return sorted(order[:share])

    def array(self, ordinal: int) -> list[object]:
        """The array of three items or more that the survey met `ordinal`-th."""
        return self._arrays[ordinal]

    def root_members(self) -> int:
        """How many members of the root come first in the breadth-first order."""
        root = self.root
        return len(self._breadth_order(root)) if isinstance(root, dict | list) else 0

    def admission_size(self, origin: object) -> int:
        """How many members the breadth-first order from `origin` has in all."""
        return self.admission(origin).size

    def admitted_share(
        self, container: list[object] | dict[str, object], members: int, origin: object
    ) -> int | None:
        """How many of `container`'s members the first `members` of the breadth-first order
        from `origin` admit, when none of its members' own members is admitted: its rendering
        at that level then depends on that number alone (its containers are markers). None
        when some are (the rendering depends on more)."""
        admission = self.admission(origin)
        first_rank = admission.ranks.get(id(container))
        if first_rank is None:
            return 0  # not reached from `origin`: a marker at every such level
        if members > admission.children_from.get(id(container), members):
            return None
        # The length of `_breadth_order(container)`, without building it.
        length = len(container) if isinstance(container, dict) else min(len(container), 1)
        return min(max(members - first_rank, 0), length)

    def admission(self, origin: object) -> _Admission:
        """The breadth-first order from `origin` over the document cut to first and last
        items (`_Admission`), computed when first needed."""
        found = self._orders.get(id(origin))
        if found is None:
            found = self._orders[id(origin)] = self._admitted_from(origin)
        return found

    def _admitted_from(self, origin: object) -> _Admission:
        ranks: dict[int, int] = {}
        containers: list[object] = []
        places: list[tuple[int, int]] = []
        rank = 0
        queue: deque[tuple[object, int, int]] = deque()
        if isinstance(origin, dict | list):
            queue.append((origin, -1, -1))
        while queue:
            container, parent, index = queue.popleft()
            position = len(containers)
            containers.append(container)
            places.append((parent, index))
            ranks[id(container)] = rank
            order = self._breadth_order(container)  # type: ignore[arg-type]
            rank += len(order)
            members = container.values() if isinstance(container, dict) else container
            listed = list(members)  # type: ignore[call-overload]
            queue.extend(
                (listed[member], position, member)
                for member in order
                if isinstance(listed[member], dict | list) and listed[member]
            )
        # A container's members are queued together, in its order: the first of them comes
        # first, and its own first member has the lowest rank of theirs.
        children_from: dict[int, int] = {}
        for container, (parent, _) in zip(containers, places, strict=True):
            if parent >= 0:
                children_from.setdefault(id(containers[parent]), ranks[id(container)])
        return _Admission(ranks, rank, children_from, containers, places)

    def _breadth_order(self, container: list[object] | dict[str, object]) -> list[int]:
        """The members of `container` in the order they are admitted: an object's task
        members first, then the rest in order; an array's first and last items."""
        count = len(container)
        if isinstance(container, list):
            return [0] if count else []  # the first item only (`Detail.last` is off here)
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
        return self._child_path(self._children_of(parent), key)

    def _children_of(self, parent: int) -> dict[str | None, int]:
        children = self._children.get(parent)
        if children is None:
            children = self._children[parent] = {}
        return children

    def _child_path(self, children: dict[str | None, int], key: str | None) -> int:
        """The number of the path `key` under the parent of `children`; a path not met
        before takes the next number."""
        path = children.get(key)
        if path is None:
            self._path_count += 1
            path = children[key] = self._path_count
        return path

    def _key_mentions_task(self, key: str) -> bool:
        hit = self._key_matches.get(key)
        if hit is None:
            hit = self._key_matches[key] = self._mentions(key)
        return hit

    def _visit(self, value: dict[str, object] | list[object], path: int) -> Facts:
        self.entries += len(value) + 1
        facts = self._object(value, path) if isinstance(value, dict) else self._array(value, path)
        self.facts[id(value)] = facts
        return facts

    def _ranges(self, arrays: int, shapes: int, tasks: int) -> tuple[int, int, int, int, int, int]:
        """`Facts.ranges` of a subtree whose walk started at these counts and ends now."""
        return (arrays, self.arrays, shapes, self.shape_items, tasks, self.task_items)

    # The two loops below run once per member of the whole document: scalars are handled
    # inline, with local names, because a call per scalar would double the survey's time.

    def _object(self, value: dict[str, object], path: int) -> Facts:
        count = len(value)
        if not count:
            return Facts(2, 2, 0, 0, 0, 0, False, ranges=self._ranges(*self._counts()))
        if self._task or count < _SIGNED_FROM:  # a task: each member may mention it
            return self._new_object(value, path)
        signature_key = (path, tuple(value), tuple(map(type, value.values())))
        if signature_key not in self._signatures:
            # Made when the signature repeats: a single large object would pay for nothing.
            if signature_key not in self._met_once:
                self._met_once.add(signature_key)
                return self._new_object(value, path)
            self._signatures[signature_key] = signature_of(
                value, signature_key[2], self.key_length, lambda key: self._path(path, key)
            )
        signature = self._signatures[signature_key]
        if signature is None:
            return self._new_object(value, path)
        return self._known_object(value, signature)

    def _counts(self) -> tuple[int, int, int]:
        return self.arrays, self.shape_items, self.task_items

    def _known_object(self, value: dict[str, object], signature: Signature) -> Facts:
        """An object of a signature met before (no task): its scalars add no shape, so only
        their sizes are taken, and its containers are walked."""
        start = self._counts()
        count = len(value)
        seen, key_lengths = self._seen, self._key_lengths
        compact, longest = signature_chars(signature, value)
        widened = newlines = items = 0
        keys = count
        new: list[int] = []
        for index, key, member_path in signature.containers:
            seen_before = len(seen)
            facts = self._visit(value[key], member_path)  # type: ignore[arg-type]
            compact += key_lengths[key] + facts.compact
            widened += facts.pretty + 2 * facts.newlines - facts.compact
            newlines += facts.newlines
            items = max(items, facts.max_items)
            longest = max(longest, facts.max_string)
            keys = max(keys, facts.max_keys)
            if len(seen) > seen_before:
                new.append(index)
        return Facts(
            compact=compact + 2 * count + 1,
            pretty=compact + widened + 6 * count + 2,
            newlines=newlines + count + 1,
            max_items=items,
            max_string=longest,
            max_keys=keys,
            matched=False,
            ranges=self._ranges(*start),
            new_members=None if len(new) == count else tuple(new),
        )

    def _new_object(self, value: dict[str, object], path: int) -> Facts:
        """An object walked member by member: the first of its signature, or with a task."""
        if not self._task:
            if len(value) >= _FLAT_FROM:
                kinds = list(map(_KIND_OF.get, map(type, value.values())))
                if _OBJECT not in kinds and _ARRAY not in kinds and None not in kinds:
                    return self._flat_object(value, path, kinds)  # type: ignore[arg-type]
            elif _SCALAR_TYPES.issuperset(map(type, value.values())):
                return self._small_flat_object(value, path)
        arrays, shape_items, tasks = self.arrays, self.shape_items, self.task_items
        count = len(value)
        children = self._children.get(path) or self._children_of(path)
        seen, key_lengths = self._seen, self._key_lengths
        mentions = self._mentions if self._task else None
        compact = widened = newlines = items = longest = 0
        keys = count
        task: list[int] = []
        new: list[int] = []
        for index, (key, item) in enumerate(value.items()):
            seen_before = len(seen)
            member_path = children.get(key) or self._child_path(children, key)
            key_length = key_lengths.get(key)
            if key_length is None:  # `key_length`, inline: keys that never repeat are common
                key_length = key_lengths[key] = len(encode_string(key))
            kind = _KIND_OF.get(type(item))
            if kind is None:
                kind = _kind(item)
            seen.add(member_path * _KINDS + kind)
            hit = False
            if kind <= _ARRAY:
                facts = self._visit(item, member_path)  # type: ignore[arg-type]
                # One unpacking, not an attribute per figure: once per member of the document.
                inner, pretty, inner_lines, inner_items, inner_string, inner_keys, hit = facts[:7]
                compact += key_length + inner
                widened += pretty + 2 * inner_lines - inner
                newlines += inner_lines
                items = max(items, inner_items)
                longest = max(longest, inner_string)
                keys = max(keys, inner_keys)
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
            if len(seen) > seen_before:
                new.append(index)
        # Positional (the fields' order), which builds it at half the cost of keywords.
        return Facts(
            compact + 2 * count + 1,  # ':' and ',' per member, the braces
            compact + widened + 6 * count + 2,  # ': ', ',', newline and indent per member
            newlines + count + 1,
            items,
            longest,
            keys,
            bool(task),
            (),
            (),
            tuple(task),
            (),
            -1,
            0,
            (arrays, self.arrays, shape_items, self.shape_items, tasks, self.task_items),
            None if len(new) == count else tuple(new),
        )

    def _small_flat_object(self, value: dict[str, object], path: int) -> Facts:
        """A small object of scalars alone (no task): its shapes found member by member (for
        few members a loop costs less than `_flat_object`'s comprehensions), its size
        written in C at once instead of each key and value spelt and measured."""
        children = self._children.get(path) or self._children_of(path)
        seen = self._seen
        new: list[int] = []
        for index, (key, item) in enumerate(value.items()):
            shape = (children.get(key) or self._child_path(children, key)) * _KINDS + _KIND_OF[
                type(item)
            ]
            if shape not in seen:
                seen.add(shape)
                new.append(index)
        return self._scalars_facts(value, new)

    def _flat_object(self, value: dict[str, object], path: int, kinds: list[int]) -> Facts:
        """An object of scalars alone (no task), the commonest new one (a record of a new
        shape, a translation file): written compact in C to size it, its shapes found in
        comprehensions, no call per member."""
        children = self._children.get(path) or self._children_of(path)
        shapes = [
            (children.get(key) or self._child_path(children, key)) * _KINDS + kind
            for key, kind in zip(value, kinds, strict=True)
        ]
        seen = self._seen
        new = [index for index, shape in enumerate(shapes) if shape not in seen]
        seen.update(shapes)
        return self._scalars_facts(value, new)

    def _scalars_facts(self, value: dict[str, object], new: list[int]) -> Facts:
        """The facts of an object of scalars alone, whose members at `new` show a shape not
        seen before: its size written compact in C, its longest string."""
        count = len(value)
        compact = len("".join(_COMPACT(value, 0)))
        longest = max(map(len, [item for item in value.values() if type(item) is str]), default=0)
        arrays, shape_items, tasks = self.arrays, self.shape_items, self.task_items
        return Facts(
            compact,
            compact + 4 * count + 1,  # ': ' for ':', newline and indent per member
            count + 1,
            0,
            longest,
            count,
            False,
            (),
            (),
            (),
            (),
            -1,
            0,
            (arrays, arrays, shape_items, shape_items, tasks, tasks),
            None if len(new) == count else tuple(new),
        )

    def _array(self, value: list[object], path: int) -> Facts:
        count = len(value)
        if not count:
            return Facts(2, 2, 0, 0, 0, 0, False, ranges=self._ranges(*self._counts()))
        types = set(map(type, value))
        if not self._task and dict not in types and list not in types:
            return self._scalar_array(value, path, types)
        start = self._counts()
        item_path = self._path(path, _ITEM)
        ordinal = self._number(value)
        seen = self._seen
        mentions = self._mentions if self._task else None
        compact = widened = newlines = longest = keys = 0
        items = 0  # the longest array inside the items
        shapes: list[tuple[int, int]] = []
        task: list[tuple[int, int]] = []
        for index in range(count):
            item = value[index]
            kind = _KIND_OF.get(type(item))
            if kind is None:
                kind = _kind(item)
            shape = item_path * _KINDS + kind
            hit = False
            if kind <= _ARRAY:
                facts, rank = self._nested_item(item, item_path, shape, index > 0)  # type: ignore[arg-type]
                if rank is not None:
                    shapes.append((index, rank))
                inner, pretty, inner_lines, inner_items, inner_string, inner_keys, hit = facts[:7]
                compact += inner
                widened += pretty + 2 * inner_lines - inner
                newlines += inner_lines
                items = max(items, inner_items)
                longest = max(longest, inner_string)
                keys = max(keys, inner_keys)
            else:
                if shape not in seen:
                    seen.add(shape)
                    if index > 0:
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
            ranges=self._ranges(*start),
        )

    def _scalar_array(self, value: list[object], path: int, types: set[type]) -> Facts:
        """An array of scalars alone (no task): the first item of each kind of value not seen
        at its path before is a new shape, and the sizes are summed in C."""
        start = self._counts()
        count = len(value)
        item_path = self._path(path, _ITEM)
        ordinal = self._number(value)
        firsts: dict[int, int] = {}  # kind: the index of its first item
        if len(types) == 1:
            (only,) = types
            firsts[_KIND_OF.get(only, _kind(value[0]))] = 0
        else:
            listed = list(map(type, value))
            for kind_type in types:
                kind = _KIND_OF.get(kind_type)
                if kind is None:
                    kind = _kind(value[listed.index(kind_type)])
                index = listed.index(kind_type)
                firsts[kind] = min(firsts.get(kind, index), index)
        shapes: list[tuple[int, int]] = []
        seen = self._seen
        for index, kind in sorted((index, kind) for kind, index in firsts.items()):
            shape = item_path * _KINDS + kind
            if shape not in seen:
                seen.add(shape)
                if index > 0:
                    shapes.append((index, self.shape_items))
                    self.shape_items += 1
        self._place(ordinal, shapes, [])
        compact, longest = scalar_run_chars(value, types)
        return Facts(
            compact=compact + count + 1,
            pretty=compact + 4 * count + 2,
            newlines=count + 1,
            max_items=count,
            max_string=longest,
            max_keys=0,
            matched=False,
            shape_items=tuple(index for index, _ in shapes),
            shape_ranks=tuple(rank for _, rank in shapes),
            ordinal=ordinal,
            ranges=self._ranges(*start),
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
        # `_visit`, one call less per item
        self.entries += len(item) + 1
        facts = self._object(item, path) if isinstance(item, dict) else self._array(item, path)
        self.facts[id(item)] = facts
        if not middle:
            return facts, None
        if len(seen) > seen_before:
            return facts, rank
        self.shape_items -= 1  # nothing new, so nothing new inside either: no rank taken since
        return facts, None
