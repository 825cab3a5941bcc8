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
from bisect import bisect_left, bisect_right
from itertools import accumulate

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
    """A diff's lines joined once (`text`: a newline before each line), and where each line
    starts in it, to find which lines hold what."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.text = "\n" + "\n".join(lines)
        # `starts[i]`: the offset of the newline before line i; one more entry, the text's end.
        # (The running sum of each line's length plus its newline, in C.)
        self.starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
        self._lowered: str | None = None

    def line_at(self, offset: int) -> int:
        """The index of the line `offset` falls in (the newline before a line belongs to it)."""
        return bisect_right(self.starts, offset) - 1

    def holding(self, words: tuple[str, ...]) -> set[int]:
        """The indexes of the lines that hold one of `words` (lower case), lower-cased."""
        if self._lowered is None:
            self._lowered = self.text.lower()
        lowered = self._lowered
        if len(lowered) != len(self.text):  # a letter's lower case is longer (`İ`): by line
            return {
                index
                for index, line in enumerate(self.lines)
                if any(word in line.lower() for word in words)
            }
        found: set[int] = set()
        for word in words:
            at = lowered.find(word)
            while at >= 0:
                line = self.line_at(at)
                found.add(line)
                at = lowered.find(word, self.starts[line + 1])  # on from the next line
        return found

    def starting(self, prefix: str) -> set[int]:
        """The indexes of the lines that start with `prefix`."""
        needle = "\n" + prefix
        found: set[int] = set()
        at = self.text.find(needle)
        while at >= 0:
            found.add(self.line_at(at))
            at = self.text.find(needle, at + 1)
        return found

    def matching(self, bound: re.Pattern[str], start: int, end: int) -> list[int]:
        """The indexes, in order, of the lines of `start`..`end - 1` where a pattern made by
        `line_bound` matches."""
        text_start, text_end = self.starts[start], self.starts[end]
        return [self.line_at(m.start()) for m in bound.finditer(self.text, text_start, text_end)]

    @staticmethod
    def between(indexes: list[int], start: int, end: int) -> list[int]:
        """The part of the sorted `indexes` from `start` up to `end` (excluded)."""
        return indexes[bisect_left(indexes, start) : bisect_left(indexes, end)]
