"""Smart mode for JSON: the pretty size of a whole document without the survey.

A pretty document that fits once compact is answered whole, and the room left opens its outer
containers (`layered`); how many lines that buys is judged from the whole document's pretty
length and newlines. Those two follow from the containers alone, so a walk that only counts
them costs a fraction of the survey (which also records every container's facts and every
key path), and the survey is then not made at all.

Written pretty with 2 spaces (`json.dumps(indent=2)`), a container of n members adds to its
compact rendering n + 1 newlines, ``": "`` or nothing and the indentation of each of its own
lines (2 per level of depth, 2 more for its members), so the difference between the layouts
is summed over the non-empty containers: 4n + 1 for an object and 3n + 1 for an array, plus
2 x depth x (n + 1).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

DEEPEST = 64
"""Deeper documents are left to the survey (which also decides when one is too deep to walk:
its answer is then the root's marker), so the answer stays what the survey gives."""


class PrettyExtent(NamedTuple):
    """What the pretty layout adds to the compact one over a whole document."""

    extra_chars: int
    newlines: int


def pretty_extent(root: object) -> PrettyExtent | None:
    """The characters and newlines the pretty layout adds to `root`'s compact rendering;
    None when `root` nests deeper than `DEEPEST`."""
    extra = newlines = 0
    pending: list[tuple[object, int]] = [(root, 0)]
    while pending:
        value, depth = pending.pop()
        if depth > DEEPEST:
            return None
        members: Iterable[object]
        if isinstance(value, dict):
            members = value.values()
            per_member = 4
        elif isinstance(value, list):
            members = value
            per_member = 3
        else:
            continue
        count = len(value)
        if not count:
            continue
        newlines += count + 1
        extra += per_member * count + 1 + 2 * depth * (count + 1)
        pending.extend((member, depth + 1) for member in members if isinstance(member, dict | list))
    return PrettyExtent(extra, newlines)
