"""Where words stand in lines joined by newlines: found by `str.find` in C, once per line.

A kind's line plan asks which of thousands of lines hold a word (an error word, a marker, a
task's term); most words are in few lines or none, so finding them in the joined text costs a
fraction of a loop turn per line. The caller turns offsets into line indexes (counting the
newlines before each), which is why a line holding a newline of its own must be searched
another way.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["first_hits_per_line"]


def first_hits_per_line(text: str, needles: Iterable[str]) -> list[int]:
    """The offset in `text` of each needle's first occurrence on every line that holds it
    (needles hold no newline), needle by needle: unsorted, and a line holding two needles has
    an offset for each."""
    offsets: list[int] = []
    for needle in needles:
        at = text.find(needle)
        while at >= 0:
            offsets.append(at)
            line_end = text.find("\n", at)
            if line_end < 0:
                break
            at = text.find(needle, line_end)  # on from the next line
    return offsets
