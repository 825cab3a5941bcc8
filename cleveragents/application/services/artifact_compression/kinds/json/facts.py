"""Smart mode for JSON: the facts the survey records of every array and object, and the JSON
spelling of a scalar, as `json.dumps` writes it (sizes are counted in that spelling)."""

from __future__ import annotations

import json
import math
from typing import NamedTuple

# `json.dumps(..., ensure_ascii=False)` writes strings with this function (C when available).
encode_string = json.encoder.encode_basestring


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
    new_members: tuple[int, ...] | None = None
    """Objects: the members that show a key path or a kind of value not seen before in the
    document (None: all of them), so a new-shape item can be shown by what is new in it."""


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
