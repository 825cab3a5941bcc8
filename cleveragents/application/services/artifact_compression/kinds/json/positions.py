"""Smart mode for JSON: a parse that records where each member of each container starts and ends,
for layouts whose line numbers do not follow from the structure."""

from __future__ import annotations

import re
from json.decoder import scanstring  # type: ignore[attr-defined]
from json.scanner import NUMBER_RE


def parse_with_positions(text: str) -> tuple[object, dict[int, tuple[list[int], list[int]]]]:
    """The value `json.loads` gives, and for each of its containers (by `id`) the offsets
    where its members start and end. Raises ValueError (or IndexError, RecursionError) on
    input `json.loads` refuses or nesting too deep."""
    parser = _PositionParser(text)
    return parser.parse(), parser.found


_WHITESPACE = re.compile(r"[ \t\n\r]*")


class _PositionParser:
    """A recursive-descent JSON parser with the semantics of `json.loads` (strings through
    its own `scanstring`, numbers through its pattern, NaN and infinities, duplicate keys
    keeping the last value) that records member positions. Only used for layouts whose line
    numbers do not follow from the structure."""

    def __init__(self, text: str) -> None:
        self._text = text
        self.found: dict[int, tuple[list[int], list[int]]] = {}

    def parse(self) -> object:
        index = _WHITESPACE.match(self._text, 0).end()  # type: ignore[union-attr]
        value, index = self._value(index)
        if _WHITESPACE.match(self._text, index).end() != len(self._text):  # type: ignore[union-attr]
            raise ValueError(f"extra data at {index}")
        return value

    def _skip(self, index: int) -> int:
        return _WHITESPACE.match(self._text, index).end()  # type: ignore[union-attr]

    def _value(self, index: int) -> tuple[object, int]:
        text = self._text
        char = text[index]
        if char == '"':
            return scanstring(text, index + 1)  # type: ignore[no-any-return]
        if char == "{":
            return self._object(index + 1)
        if char == "[":
            return self._array(index + 1)
        for literal, meaning in _LITERALS:
            if text.startswith(literal, index):
                return meaning, index + len(literal)
        match = NUMBER_RE.match(text, index)
        if match is None:
            raise ValueError(f"expecting a value at {index}")
        integer, fraction, exponent = match.groups()
        if fraction or exponent:
            return float(integer + (fraction or "") + (exponent or "")), match.end()
        return int(integer), match.end()

    def _object(self, index: int) -> tuple[object, int]:
        text = self._text
        result: dict[str, object] = {}
        starts: list[int] = []
        ends: list[int] = []
        where: dict[str, int] = {}
        self._keep(result, starts, ends)
        index = self._skip(index)
        if text[index] == "}":
            return result, index + 1
        while True:
            if text[index] != '"':
                raise ValueError(f"expecting a key at {index}")
            start = index
            key, index = scanstring(text, index + 1)
            index = self._skip(index)
            if text[index] != ":":
                raise ValueError(f"expecting ':' at {index}")
            value, index = self._value(self._skip(index + 1))
            if key in where:  # a duplicate: the last value wins, in the first one's place
                starts[where[key]], ends[where[key]] = start, index
            else:
                where[key] = len(starts)
                starts.append(start)
                ends.append(index)
            result[key] = value
            index = self._skip(index)
            if text[index] == "}":
                return result, index + 1
            if text[index] != ",":
                raise ValueError(f"expecting ',' at {index}")
            index = self._skip(index + 1)

    def _array(self, index: int) -> tuple[object, int]:
        text = self._text
        result: list[object] = []
        starts: list[int] = []
        ends: list[int] = []
        self._keep(result, starts, ends)
        index = self._skip(index)
        if text[index] == "]":
            return result, index + 1
        while True:
            starts.append(index)
            value, index = self._value(index)
            ends.append(index)
            result.append(value)
            index = self._skip(index)
            if text[index] == "]":
                return result, index + 1
            if text[index] != ",":
                raise ValueError(f"expecting ',' at {index}")
            index = self._skip(index + 1)

    def _keep(self, container: object, starts: list[int], ends: list[int]) -> None:
        # The containers stay alive in the parsed value, so their ids stay unique.
        self.found[id(container)] = (starts, ends)


_LITERALS: tuple[tuple[str, object], ...] = (
    ("null", None),
    ("true", True),
    ("false", False),
    ("NaN", float("nan")),
    ("Infinity", float("inf")),
    ("-Infinity", float("-inf")),
)
