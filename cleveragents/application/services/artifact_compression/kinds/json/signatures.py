"""Smart mode for JSON: what the survey learns once from an object and reuses for every later
object with the same signature (its path, its keys in order, the type of each value).

Documents repeat themselves: an array of ten thousand records holds ten thousand objects of a
handful of signatures. Once one object of a signature has been walked member by member, every
scalar member's key path and kind of value has been seen, so a later object of that signature
shows nothing new in its scalars; what is left to learn of it is the size of its scalars, taken
here in a few calls that run in C (`itemgetter`, `map`) instead of a Python step per member.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import NamedTuple

from cleveragents.application.services.artifact_compression.kinds.json.facts import (
    encode_string,
    scalar_text,
)

_NULL = type(None)


def _getter(keys: list[str]) -> Callable[[dict[str, object]], tuple[object, ...]] | None:
    """A function giving the values of `keys` as a tuple (None when there are none)."""
    if not keys:
        return None
    if len(keys) == 1:
        single = itemgetter(keys[0])
        return lambda value: (single(value),)
    return itemgetter(*keys)


class Signature(NamedTuple):
    """An object's members sorted by type, for sizing later objects of the same signature."""

    fixed_chars: int  # keys, and the null members' values
    strings: Callable[[dict[str, object]], tuple[object, ...]] | None
    integers: Callable[[dict[str, object]], tuple[object, ...]] | None
    floats: Callable[[dict[str, object]], tuple[object, ...]] | None
    booleans: Callable[[dict[str, object]], tuple[object, ...]] | None
    containers: tuple[tuple[int, str, int], ...]  # (index, key, member path)


def signature_of(
    value: dict[str, object],
    types: tuple[type, ...],
    key_length: Callable[[str], int],
    member_path: Callable[[str], int],
) -> Signature | None:
    """The signature plan of `value`, whose values have `types` in order; None when a value is
    of a type `json.loads` does not make (such an object is always walked member by member)."""
    fixed = 0
    strings: list[str] = []
    integers: list[str] = []
    floats: list[str] = []
    booleans: list[str] = []
    containers: list[tuple[int, str, int]] = []
    for index, (key, kind) in enumerate(zip(value, types, strict=True)):
        if kind is dict or kind is list:
            containers.append((index, key, member_path(key)))
            continue
        fixed += key_length(key)
        if kind is str:
            strings.append(key)
        elif kind is int:
            integers.append(key)
        elif kind is float:
            floats.append(key)
        elif kind is bool:
            booleans.append(key)
        elif kind is _NULL:
            fixed += 4
        else:
            return None
    return Signature(
        fixed,
        _getter(strings),
        _getter(integers),
        _getter(floats),
        _getter(booleans),
        tuple(containers),
    )


def string_chars(strings: Sequence[object]) -> tuple[int, int]:
    """Characters of `strings` written as JSON strings, and the longest one's length."""
    return sum(map(len, map(encode_string, strings))), max(map(len, strings))  # type: ignore[arg-type]


def integer_chars(integers: Sequence[object]) -> int:
    return sum(map(len, map(int.__repr__, integers)))


def float_chars(floats: Sequence[object]) -> int:
    """Characters of `floats` as `json.dumps` writes them (``NaN``, ``Infinity`` spelled out)."""
    if all(map(math.isfinite, floats)):  # type: ignore[arg-type]
        return sum(map(len, map(float.__repr__, floats)))
    return sum(map(len, map(scalar_text, floats)))


def boolean_chars(booleans: Sequence[object]) -> int:
    trues = booleans.count(True)
    return 4 * trues + 5 * (len(booleans) - trues)


def signature_chars(signature: Signature, value: dict[str, object]) -> tuple[int, int]:
    """Characters of `value`'s scalar members (keys and values, no separators; its containers'
    keys are not included) and the length of its longest string."""
    chars = signature.fixed_chars
    longest = 0
    if signature.strings is not None:
        written, longest = string_chars(signature.strings(value))
        chars += written
    if signature.integers is not None:
        chars += integer_chars(signature.integers(value))
    if signature.floats is not None:
        chars += float_chars(signature.floats(value))
    if signature.booleans is not None:
        chars += boolean_chars(signature.booleans(value))
    return chars, longest


def scalar_run_chars(values: list[object], types: set[type]) -> tuple[int, int]:
    """Characters of an array's items, all scalars of `types`, written compact and without
    separators, and the length of its longest string."""
    if len(types) == 1:
        (kind,) = types
        if kind is str:
            return string_chars(values)
        if kind is int:
            return integer_chars(values), 0
        if kind is float:
            return float_chars(values), 0
        if kind is bool:
            return boolean_chars(values), 0
        return 4 * len(values), 0  # null
    chars = sum(map(len, map(scalar_text, values)))
    if str not in types:
        return chars, 0
    return chars, max(len(item) for item in values if isinstance(item, str))
