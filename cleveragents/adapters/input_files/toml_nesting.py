"""How deep a TOML document nests, measured on its text before a parser builds anything.

``tomllib`` builds one table per part of a dotted key and checks each part against all the
parts before it: a line of 20,000 parts (``a.a.a....=1``, 40 KB) takes over a gigabyte of
memory and ten seconds before it is refused as nested too deeply; a deep ``[[[[...`` or
``{a={a={...`` ends in a `RecursionError` only after the stack is spent. `check_toml_nesting`
walks the text once, token by token, and refuses it at the first place nested deeper than the
limit, naming the line, so the parser is only ever given documents it can finish.

The depth of a value is the number of tables and arrays that hold it: the parts of its table
header (``[a.b]`` is 2), plus the parts of its key (``c.d = 1`` is 2 more), plus one for each
array it is inside and the parts of the keys of each inline table. The walk knows strings and
comments (a dot or a bracket inside them counts for nothing) and nothing else of the grammar:
whatever else is wrong with the text, `tomllib` says so afterwards.
"""

from __future__ import annotations

import re
from enum import Enum

MAX_TOML_DEPTH = 100
"""The deepest nesting accepted; a settings file needs a handful of levels."""

_STRING = "|".join(
    (
        r'"""(?:[^"\\]|\\[\s\S]|"(?!""))*(?:"{3,5}|\Z)',  # multi-line basic (may run to the end)
        r"'''[\s\S]*?(?:'{3,5}|\Z)",  # multi-line literal
        r'"(?:[^"\\\n]|\\.)*"?',  # basic, on one line
        r"'[^'\n]*'?",  # literal, on one line
    )
)
_TOKENS = re.compile(
    rf"(?P<string>{_STRING})|(?P<comment>#[^\n]*)|(?P<newline>\n)"
    r"|(?P<bracket>[\[\]{}=,])|(?P<atom>[^\s\"'#\[\]{}=,]+)"
)
"""Strings and comments whole; a bare run (a key's parts with their dots, ``1.5``, ``true``)
as one atom, so that a long array of numbers is a few tokens per element."""


class TomlNestingError(ValueError):
    """A document nested deeper than the limit; `line` is where (1-based)."""

    def __init__(self, limit: int, line: int) -> None:
        super().__init__(f"nested too deeply (more than {limit} levels at line {line})")
        self.limit = limit
        self.line = line


class _Reading(Enum):
    KEY = "key"  # a key (at the top, after a newline, or in an inline table)
    HEADER = "header"  # inside [a.b] or [[a.b]]
    VALUE = "value"  # after '=', or an element of an array
    AFTER = "after"  # a value or header is complete: until ',', a closing bracket, a newline


class _Walk:
    """What is being read, the open brackets and how deep what they hold is."""

    __slots__ = (
        "base",
        "depth",
        "key_started",
        "limit",
        "line",
        "opened",
        "parts",
        "reading",
        "table",
    )

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.line = 1
        self.reading = _Reading.KEY
        self.table = 0  # the depth of the current table header
        self.base = 0  # the depth the key being read starts from
        self.parts = 1  # the parts of the key (or header) being read
        self.key_started = False  # a part of a key was seen on this line
        self.depth = 0  # the depth of the value being read
        self.opened: list[tuple[str, int]] = []  # each open '[' or '{', the depth it holds

    def newline(self) -> None:
        self.line += 1
        if not self.opened:  # an array may span lines; anything else ends with its line
            self.reading, self.base, self.parts, self.key_started = (
                _Reading.KEY,
                self.table,
                1,
                False,
            )

    def key(self, token: str) -> None:
        if token == "[" and not self.opened and not self.key_started:
            self.reading, self.parts = _Reading.HEADER, 1
        elif token == "=":
            self.depth = self.base + self.parts
            self.reading = _Reading.VALUE
        elif token in "]}":
            self.close()
        elif token != ",":
            self.parts += token.count(".")
            self.key_started = True
            self.check(self.base + self.parts)

    def header(self, token: str) -> None:
        if token == "]":
            self.table, self.reading = self.parts, _Reading.AFTER
        elif token != "[":
            self.parts += token.count(".")
            self.check(self.parts)

    def value(self, token: str) -> None:
        if token == "{":
            self.opened.append(("{", self.depth))
            self.reading, self.base, self.parts = _Reading.KEY, self.depth, 1
        elif token == "[":
            self.depth += 1
            self.check(self.depth)
            self.opened.append(("[", self.depth))
        elif token in "]}":
            self.close()
        else:
            self.reading = _Reading.AFTER  # a scalar: its dots (1.5, times) are not keys

    def after(self, token: str) -> None:
        if token == "," and self.opened:
            bracket, self.depth = self.opened[-1]
            if bracket == "[":
                self.reading = _Reading.VALUE
            else:
                self.reading, self.base, self.parts = _Reading.KEY, self.depth, 1
        elif token in "]}":
            self.close()

    def close(self) -> None:
        if self.opened:
            self.opened.pop()
        self.reading = _Reading.AFTER

    def check(self, depth: int) -> None:
        if depth > self.limit:
            raise TomlNestingError(self.limit, self.line)


_STEPS = {
    _Reading.KEY: _Walk.key,
    _Reading.HEADER: _Walk.header,
    _Reading.VALUE: _Walk.value,
    _Reading.AFTER: _Walk.after,
}


def check_toml_nesting(text: str, limit: int = MAX_TOML_DEPTH) -> None:
    """Raise `TomlNestingError` at the first place `text` nests deeper than `limit`."""
    walk = _Walk(limit)
    for match in _TOKENS.finditer(text):
        kind = match.lastgroup
        if kind == "newline":
            walk.newline()
        elif kind == "string":
            walk.line += match.group().count("\n")
            _STEPS[walk.reading](walk, "x")  # a quoted key part, or a scalar value
        elif kind != "comment":
            _STEPS[walk.reading](walk, match.group())
