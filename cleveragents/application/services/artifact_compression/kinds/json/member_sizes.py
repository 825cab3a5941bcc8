"""Smart mode for JSON: the sizes of an object's members at a string limit, in the object's
order, summed once, so a level that keeps many scalar members (a translation file, a lock
file's map: one object of tens of thousands) is measured by a lookup and written by a
comprehension instead of a call per member.

The sizes leave the separator after the key out (`": "` or `":"`), so one table serves both
layouts; a member that is an array or an object counts 0 here (the pruner walks it)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.kinds.json.facts import (
    encode_string,
    scalar_text,
)
from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey
from cleveragents.application.services.artifact_compression.kinds.json.writing import cut_string

_LIMITS_KEPT = 4
"""Tables kept per object (the search moves between a few string limits at a time)."""


class MemberTable(NamedTuple):
    """An object's members at one string limit."""

    members: list[tuple[str, object]]
    sizes: list[int]  # key and value as written at the limit, no separator; containers 0
    prefix: list[int]  # running sums of `sizes`, from 0
    containers: list[int]  # the indices of the members that are arrays or objects
    cut: list[int]  # the indices (ascending) of the strings longer than the limit

    def scalar_chars(self, kept: list[int]) -> int:
        """The sizes of the kept members' scalars (`kept` ascending)."""
        if _is_prefix(kept):
            return self.prefix[len(kept)]
        return sum(map(self.sizes.__getitem__, kept))

    def kept_containers(self, kept: list[int]) -> list[int]:
        """The kept members that are arrays or objects, in order."""
        if _is_prefix(kept):
            return self.containers[: bisect_left(self.containers, len(kept))]
        sizes = self.sizes
        return [index for index in kept if not sizes[index]]  # a scalar member is never 0

    def kept_cut(self, kept: list[int]) -> list[int]:
        """The kept members that are strings longer than the limit, in order."""
        if _is_prefix(kept):
            return self.cut[: bisect_left(self.cut, len(kept))]
        chosen = set(kept)
        return [index for index in self.cut if index in chosen]


class _Whole(NamedTuple):
    members: list[tuple[str, object]]
    sizes: list[int]  # as `MemberTable.sizes` with no string cut
    containers: list[int]
    lengths: list[int]  # the string members' lengths, ascending
    by_length: list[int]  # their indices, in that order


class MemberTables:
    """The member tables of a document's objects, made when first asked for."""

    def __init__(self, survey: Survey) -> None:
        self._survey = survey
        self._wholes: dict[int, _Whole] = {}
        self._tables: dict[int, dict[int | None, MemberTable]] = {}

    def at(self, value: dict[str, object], limit: int | None) -> MemberTable:
        """`value`'s members with strings longer than `limit` cut (None: none is)."""
        tables = self._tables.setdefault(id(value), {})
        table = tables.get(limit)
        if table is None:
            if len(tables) >= _LIMITS_KEPT:
                del tables[next(iter(tables))]
            table = tables[limit] = self._table(value, limit)
        return table

    def _table(self, value: dict[str, object], limit: int | None) -> MemberTable:
        whole = self._whole(value)
        long = [] if limit is None else whole.by_length[bisect_right(whole.lengths, limit) :]
        sizes = whole.sizes
        if long:
            sizes = sizes.copy()
            key_length = self._survey.key_length
            members = whole.members
            for index in long:
                key, item = members[index]
                cut = cut_string(item, limit or 0)  # type: ignore[arg-type]
                sizes[index] = key_length(key) + len(encode_string(cut))
        prefix = [0, *accumulate(sizes)]
        return MemberTable(whole.members, sizes, prefix, whole.containers, sorted(long))

    def _whole(self, value: dict[str, object]) -> _Whole:
        whole = self._wholes.get(id(value))
        if whole is None:
            members = list(value.items())
            key_length = self._survey.key_length
            sizes: list[int] = []
            containers: list[int] = []
            strings: list[tuple[int, int]] = []  # length, index
            for index, (key, item) in enumerate(members):
                if isinstance(item, dict | list):
                    containers.append(index)
                    sizes.append(0)
                    continue
                if isinstance(item, str):
                    strings.append((len(item), index))
                    sizes.append(key_length(key) + len(encode_string(item)))
                else:
                    sizes.append(key_length(key) + len(scalar_text(item)))
            strings.sort()
            lengths = [length for length, _ in strings]
            by_length = [index for _, index in strings]
            whole = self._wholes[id(value)] = _Whole(members, sizes, containers, lengths, by_length)
        return whole


def _is_prefix(kept: list[int]) -> bool:
    """Whether ascending `kept` is 0, 1, ..., n - 1."""
    return not kept or kept[-1] == len(kept) - 1
