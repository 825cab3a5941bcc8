"""Smart mode for JSON: the sizes of levels that differ only in their string limit, from one
walk of the lowest of them.

Cutting strings changes nothing but the strings: the same containers, items and members are
written at every limit, each container's size is its members' sizes plus a frame that does not
depend on them, and a string is written whole or cut by `cut_string` alone. So once a level has
been walked at limit `L`, noting every string it passed to the cut (those longer than `L`),
the size at any limit from `L` up is that size with each noted string written at the other
limit instead. A string no longer than `L` is written whole at every such limit.

A document whose values never repeat (a lock file's hashes, the descriptions of an API) gives
the pruner nothing to remember from one limit to the next: a search of the string limit walked
it some eight times. It now walks it once, and a limit costs a sum over the lengths of the
noted strings (a string of ASCII that needs no escape is written, cut or not, by its length
alone; each other string is looked at on its own).
"""

from __future__ import annotations

from collections import Counter

from cleveragents.application.services.artifact_compression.kinds.json.facts import encode_string
from cleveragents.application.services.artifact_compression.kinds.json.writing import cut_string


def written_length(value: str, limit: int | None) -> int:
    """The length of `value` as written at `limit` (None: whole), quotes and escapes
    included: cut when longer than the limit, as the pruner cuts it."""
    if limit is not None and len(value) > limit:
        value = cut_string(value, limit)
    return len(encode_string(value))


class StringLimitSizes:
    """The sizes of one level at every string limit from `limit` up (and with strings
    whole), given its size at `limit`, the strings that walk passed to the cut, and what it
    walked (`Pruner.walked`)."""

    def __init__(self, limit: int, chars: int, noted: list[str], walk_cost: int) -> None:
        self.limit = limit
        self.walk_cost = walk_cost
        plain: Counter[int] = Counter()
        others: list[str] = []
        for value in noted:
            if value.isascii() and len(encode_string(value)) == len(value) + 2:
                plain[len(value)] += 1
            else:
                others.append(value)
        self._plain = plain
        self._others = others
        # The level without the noted strings: what every limit shares.
        self._rest = chars - self._strings(limit)
        self._sizes: dict[int | None, int] = {limit: chars}

    @classmethod
    def from_whole(
        cls, limit: int, whole: int, noted: list[str], walk_cost: int
    ) -> StringLimitSizes:
        """The sizes of a level that writes every member of a document whose size whole is
        `whole`, given its strings longer than `limit`: the level at `limit` is the whole
        less what cutting them saves."""
        sizes = cls(limit, 0, noted, walk_cost)
        sizes._rest = whole - sizes._strings(None)
        sizes._sizes = {}
        return sizes

    def size(self, limit: int | None) -> int | None:
        """The level's size at `limit`; None below the limit it was walked at (a string
        between the two was not noted)."""
        if limit is not None and limit < self.limit:
            return None
        size = self._sizes.get(limit)
        if size is None:
            size = self._sizes[limit] = self._rest + self._strings(limit)
        return size

    def _strings(self, limit: int | None) -> int:
        """The noted strings' written lengths at `limit`: a plain string's depends on its
        length alone, so one of each length is cut and written."""
        total = 0
        for length, count in self._plain.items():
            total += count * written_length("a" * length, limit)
        for value in self._others:
            total += written_length(value, limit)
        return total


class NotedStrings:
    """The strings a measuring walk passes to the cut, remembered with what the pruner
    remembers: a subtree measured once is not walked again at a level that writes it alike
    (`Pruner._measured`, `Pruner._item_sizes`), so the strings it cut are kept with its size
    and added again where the size is reused. A walk that reuses a size whose strings were
    not kept (remembered before the walk noted them) cannot give `StringLimitSizes`:
    `complete` is then False."""

    def __init__(self) -> None:
        self.walk: list[str] | None = None
        """While a walk notes them: the strings it passed to the cut so far."""
        self.complete = True
        self._kept: dict[object, tuple[list[str], int, int]] = {}

    def begin(self) -> None:
        self.walk, self.complete = [], True

    def end(self) -> list[str] | None:
        """The walk's strings, or None when some were left out."""
        walk, self.walk = self.walk, None
        return walk if self.complete else None

    def mark(self) -> int:
        """Where what follows starts in the walk's strings."""
        return len(self.walk) if self.walk is not None else 0

    def keep(self, key: object, start: int) -> None:
        """The strings noted from `start` on belong to the size remembered under `key`."""
        if self.walk is not None:
            self._kept[key] = (self.walk, start, len(self.walk))

    def reuse(self, key: object) -> None:
        """The size remembered under `key` is reused: its strings count again."""
        if self.walk is None:
            return
        kept = self._kept.get(key)
        if kept is None:
            self.complete = False
            return
        strings, start, end = kept
        self.walk.extend(strings[start:end])
