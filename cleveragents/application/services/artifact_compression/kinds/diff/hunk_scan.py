"""Code diffs: what the lines of a diff hold, found in the diff's text at once.

Reading a diff line by line costs a Python loop turn and a regex call for each line; a large
diff has tens of thousands of them. What smart mode needs to tell apart is rare (a declaration,
an error word, a task term, a block comment's start), so the lines are joined once and each of
those is searched for in the joined text by `str.find` or one scan of the regex engine: the
lines with a hit are read one by one, the others are plain (`line_plan`).

A pattern written for one line (`match` at the start of the code) reads the joined text the
same way once it cannot cross a line's end (`line_bound`): the blanks it skips are blanks other
than the newline, the characters a negated class takes are any but the newline.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from cleveragents.application.services.artifact_compression.kinds.line_hits import (
    first_hits_per_line,
)

_NEWLINE_FREE_ESCAPES = frozenset("wdSbB\\.()[]{}|*+?$^-/'\"!#&~,:;<=>@`%")


def line_bound(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """`pattern` (used with `match` on a line's code) as a pattern that finds, in
    `JoinedLines.text`, each line of one marker column (``+``, ``-`` or a space) whose code it
    matches, from the newline before the line: its ``\\s`` are blanks other than a newline,
    its negated classes take no newline, its ``$`` is a line's end. Raises ValueError for what
    it cannot bound (a ``\\W`` or ``\\D``, a ``\\s`` in a class, ``^``, a flag that lets ``.``
    take a newline)."""
    if pattern.flags & (re.DOTALL | re.MULTILINE):
        raise ValueError(f"cannot bound a pattern with DOTALL or MULTILINE: {pattern.pattern}")
    source = pattern.pattern
    out: list[str] = []
    index = 0
    while index < len(source):
        char = source[index]
        if char == "\\":
            escaped = source[index + 1]
            if escaped == "s":
                out.append(r"[^\S\n]")
            elif escaped in _NEWLINE_FREE_ESCAPES:
                out.append(source[index : index + 2])
            else:
                raise ValueError(f"cannot bound the escape \\{escaped} in {source}")
            index += 2
        elif char == "[":
            end = _class_end(source, index)
            body = source[index + 1 : end]
            if "\\s" in body or "\\W" in body or "\\D" in body:
                raise ValueError(f"cannot bound the class [{body}] in {source}")
            out.append(f"[{body}\\n]" if body.startswith("^") else f"[{body}]")
            index = end + 1
        elif char == "^" or (char == "(" and source.startswith("(?s", index)):
            raise ValueError(f"cannot bound {char!r} in {source}")
        else:
            out.append(char)
            index += 1
    return re.compile(r"\n[^\n](?:" + "".join(out) + ")", pattern.flags | re.MULTILINE)


def _class_end(source: str, start: int) -> int:
    """The index of the ``]`` that closes the class opened at `source[start]`."""
    index = start + 1
    if source.startswith("^", index):
        index += 1
    if source.startswith("]", index):
        index += 1  # a `]` first in a class is a character of it
    while source[index] != "]":
        index += 2 if source[index] == "\\" else 1
    return index


class JoinedLines:
    """A diff's lines joined once (`text`: a newline before each line), to find which lines
    hold what. A place in the text is known as a line index and the offset of the newline
    before that line (`Place`); the finders count lines on from one."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.text = "\n" + "\n".join(lines)
        self._lowered: str | None = None

    def place(self, index: int, known: Place = (0, 0)) -> Place:
        """Line `index` and the offset of the newline before it (`len(text)` after the last
        line), counted on from the earlier place `known`."""
        line, at = known
        return index, at + (index - line) + sum(map(len, self.lines[line:index]))

    def _line_indexes(
        self, offsets: list[int], known: Place = (0, 0), text: str | None = None
    ) -> list[int]:
        """The index of the line each offset (ascending, after `known`, none on a newline) of
        `text` (`self.text`, or its lower case: the same lines) falls in."""
        counted = self.text if text is None else text
        line, before = known[0] - 1, known[1]  # the newline at `before` is counted
        indexes: list[int] = []
        for at in offsets:
            line += counted.count("\n", before, at)
            before = at
            indexes.append(line)
        return indexes

    def holding(self, words: tuple[str, ...]) -> set[int]:
        """The indexes of the lines that hold one of `words` (lower case, no newline),
        lower-cased. (The text is lower-cased whole: a letter's lower case may be longer, as
        ``İ``'s is, but it holds no newline, so the lines are the same.)"""
        if self._lowered is None:
            self._lowered = self.text.lower()
        lowered = self._lowered
        offsets = sorted(first_hits_per_line(lowered, words))
        return set(self._line_indexes(offsets, text=lowered))

    def starting(self, prefix: str) -> list[int]:
        """The indexes of the lines that start with `prefix` (no newline), in order."""
        needle = "\n" + prefix
        offsets: list[int] = []
        at = self.text.find(needle)
        while at >= 0:
            offsets.append(at + 1)
            at = self.text.find(needle, at + 1)
        return self._line_indexes(offsets)

    def matching(
        self, bound: re.Pattern[str], start: Place = (0, 0), end: Place | None = None
    ) -> list[int]:
        """The indexes, in order, of the lines from `start` up to `end` (the end of the text
        when None) where a pattern made by `line_bound` matches."""
        stop = len(self.text) if end is None else end[1]
        offsets = [match.start() + 1 for match in bound.finditer(self.text, start[1], stop)]
        return self._line_indexes(offsets, start)

    @staticmethod
    def between(indexes: list[int], start: int, end: int) -> list[int]:
        """The part of the sorted `indexes` from `start` up to `end` (excluded)."""
        return indexes[bisect_left(indexes, start) : bisect_left(indexes, end)]


Place = tuple[int, int]
"""A line index and the offset in `JoinedLines.text` of the newline before that line."""
