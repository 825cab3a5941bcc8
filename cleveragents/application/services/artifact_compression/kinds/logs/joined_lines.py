"""Log lines joined by newlines: which of them hold a word, found by `str.find` in C.

Most words a log's lines are searched for (``0x``, an omission marker, a task's terms, a
traceback's header, a blank that starts a frame) are in a few lines or none: finding them in the
joined text costs a fraction of a Python loop turn per line, and counting the newlines before
each hit gives its line. (A line that holds a newline of its own would make those counts wrong:
then each line is searched on its own.)
"""

from __future__ import annotations

from collections.abc import Sequence

from cleveragents.application.services.artifact_compression.kinds.line_hits import (
    first_hits_per_line,
)

__all__ = ["lines_holding", "lines_starting"]


def lines_holding(
    lines: Sequence[str],
    needles: tuple[str, ...],
    joined: str | None = None,
    *,
    lowered: bool = False,
) -> list[int]:
    """The indexes, in order, of the `lines` that hold one of `needles` (none holds a newline),
    in their lower case when `lowered` (the needles in lower case). `joined`: the lines joined
    by newlines, when the caller has it already. (Lower case keeps the lines apart: no
    character lowers to a newline.)"""
    text = "\n".join(lines) if joined is None else joined
    if text.count("\n") != max(len(lines) - 1, 0):
        return [
            index
            for index, line in enumerate(lines)
            if any(needle in (line.lower() if lowered else line) for needle in needles)
        ]
    if lowered:
        text = text.lower()
    return _line_indexes(text, first_hits_per_line(text, needles))


def lines_starting(
    lines: Sequence[str], prefixes: tuple[str, ...], joined: str | None = None
) -> list[int]:
    """The indexes, in order, of the `lines` that start with one of `prefixes` (none holds a
    newline). `joined`: the lines joined by newlines, when the caller has it already."""
    text = "\n".join(lines) if joined is None else joined
    if text.count("\n") != max(len(lines) - 1, 0):
        return [index for index, line in enumerate(lines) if line.startswith(prefixes)]
    offsets = [0] if lines and text.startswith(prefixes) else []
    for prefix in prefixes:
        needle = "\n" + prefix
        at = text.find(needle)
        while at >= 0:
            offsets.append(at + 1)
            at = text.find(needle, at + 1)
    return _line_indexes(text, offsets)


def _line_indexes(joined: str, offsets: list[int]) -> list[int]:
    """The line of `joined` each offset falls in, each line once, in order."""
    indexes: list[int] = []
    line = counted = 0
    for at in sorted(offsets):
        line += joined.count("\n", counted, at)
        counted = at
        if not indexes or indexes[-1] != line:
            indexes.append(line)
    return indexes
