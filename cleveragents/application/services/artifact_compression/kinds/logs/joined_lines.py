"""Log lines joined by newlines: which of them hold a word, found by `str.find` in C.

Most words a log's lines are searched for (``0x``, an omission marker, a task's terms, a
traceback's header, a blank that starts a frame) are in a few lines or none: finding them in the
joined text costs a fraction of a Python loop turn per line, and counting the newlines before
each hit gives its line.
"""

from __future__ import annotations

__all__ = ["lines_holding", "lines_starting"]


def lines_holding(joined: str, needles: tuple[str, ...]) -> list[int]:
    """The indexes, in order, of the lines of `joined` (lines joined by newlines; no needle
    holds one) that hold one of `needles`."""
    offsets: list[int] = []
    for needle in needles:
        at = joined.find(needle)
        while at >= 0:
            offsets.append(at)
            line_end = joined.find("\n", at)
            if line_end < 0:
                break
            at = joined.find(needle, line_end)  # on from the next line
    return _line_indexes(joined, offsets)


def lines_starting(joined: str, prefixes: tuple[str, ...]) -> list[int]:
    """The indexes, in order, of the lines of `joined` (lines joined by newlines) that start
    with one of `prefixes` (none holds a newline)."""
    offsets = [0] if joined.startswith(prefixes) else []
    for prefix in prefixes:
        needle = "\n" + prefix
        at = joined.find(needle)
        while at >= 0:
            offsets.append(at + 1)
            at = joined.find(needle, at + 1)
    return _line_indexes(joined, offsets)


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
