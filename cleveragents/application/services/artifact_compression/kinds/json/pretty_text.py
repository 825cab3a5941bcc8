"""JSON written pretty with 2 spaces, exactly as `json.dumps(value, ensure_ascii=False,
indent=2)` writes it, several times as fast.

With an indent, the standard library leaves its C encoder for its Python one, which yields
every bracket, key and separator through nested generators: some 30 MB/s, where one tiktoken
encode of the same text runs at 20. Smart mode writes several candidates of a document and
Tier 2 one, so the writing cost as much as counting them. Here each container is one call that
appends its members' text to one list, strings are escaped by the standard library's C
function, and scalars are spelled as it spells them (`facts.scalar_text`). What a JSON parser
does not return (the markers the compressors add are such values too) is written by
`json.dumps` itself: a tuple, a subclass of `dict` or `list`, a key that is no string.

Objects and arrays have a loop each, alike but for the key: one loop over both, fed pairs of
prefix and item, was a quarter slower.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring  # the C function where the interpreter has it

from cleveragents.application.services.artifact_compression.kinds.json.facts import scalar_text

_ITEM_SEPARATOR = ","


class _NotPlainJsonError(Exception):
    """A value `json.dumps` writes by rules this writer does not repeat."""


Cut = Callable[[str], str] | None
"""What becomes of each string value as it is written (None: written as it is)."""


def pretty_json(value: object, cut: Cut = None) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=2)`. Raises as it does: `ValueError` for a
    circular reference is a `RecursionError` here (both mean "cannot be written"). With `cut`,
    each string value (not a key) is written as `cut` returns it: the document with its
    strings cut, without a copy of it made first."""
    out: list[str] = []
    try:
        _write(value, "\n", out, cut)
    except _NotPlainJsonError:
        if cut is not None:
            raise ValueError("a value json.dumps writes by its own rules") from None
        return json.dumps(value, ensure_ascii=False, indent=2)
    return "".join(out)


def _write(value: object, newline: str, out: list[str], cut: Cut) -> None:
    """`value` appended to `out`, its members on lines that start with `newline` and 2 more
    spaces."""
    kind = type(value)
    if kind is dict:
        _object(value, newline, out, cut)  # type: ignore[arg-type]
    elif kind is list:
        _array(value, newline, out, cut)  # type: ignore[arg-type]
    elif kind is str and cut is not None:
        out.append(encode_basestring(cut(value)))  # type: ignore[arg-type]
    else:
        out.append(_scalar(value))


def _object(value: dict[object, object], newline: str, out: list[str], cut: Cut) -> None:
    if not value:
        out.append("{}")
        return
    inner = newline + "  "
    separator = _ITEM_SEPARATOR + inner
    out.append("{" + inner)
    first = True
    for key, item in value.items():
        if type(key) is not str:
            raise _NotPlainJsonError  # json.dumps turns numbers, booleans and null into keys
        if first:
            first = False
        else:
            out.append(separator)
        kind = type(item)
        if kind is str:
            written = item if cut is None else cut(item)  # type: ignore[arg-type]
            out.append(encode_basestring(key) + ": " + encode_basestring(written))  # type: ignore[arg-type]
        elif kind is dict or kind is list:
            out.append(encode_basestring(key) + ": ")
            _write(item, inner, out, cut)
        else:
            out.append(encode_basestring(key) + ": " + _scalar(item))
    out.append(newline + "}")


def _array(value: list[object], newline: str, out: list[str], cut: Cut) -> None:
    if not value:
        out.append("[]")
        return
    inner = newline + "  "
    separator = _ITEM_SEPARATOR + inner
    out.append("[" + inner)
    first = True
    for item in value:
        if first:
            first = False
        else:
            out.append(separator)
        kind = type(item)
        if kind is str:
            written = item if cut is None else cut(item)  # type: ignore[arg-type]
            out.append(encode_basestring(written))  # type: ignore[arg-type]
        elif kind is dict or kind is list:
            _write(item, inner, out, cut)
        else:
            out.append(_scalar(item))
    out.append(newline + "]")


def _scalar(value: object) -> str:
    """A string, number, boolean or null as `json.dumps` spells it (`facts.scalar_text`);
    anything else (a tuple, a set, a subclass of `dict`) is `json.dumps`'s to write or refuse."""
    if type(value) is int:  # the commonest scalar left, spelled at once
        return int.__repr__(value)
    if value is None or isinstance(value, str | int | float):
        return scalar_text(value)
    raise _NotPlainJsonError
