"""Smart mode for JSON: where omitted items were, as lines of the original (`LineMap`).

Where omitted items were: `LineMap`. Pretty-printed input in the usual layout (one member a
line, closing brackets on their own line, as `json.dumps(indent=...)`, `JSON.stringify`, jq
and most printers write it) has line numbers that follow from the structure, so they cost
nothing to find; other multi-line layouts are parsed once more with positions; a one-line
document is on one line.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from bisect import bisect_left
from itertools import accumulate

from cleveragents.application.services.artifact_compression.kinds.json.survey import Survey


class LineMap(ABC):
    """The 1-based lines of the original text that hold a container's members."""

    def __init__(self, root_line: int) -> None:
        self.root_line = root_line

    @abstractmethod
    def child_line(self, container: object, line: int, index: int) -> int:
        """The first line of member `index` of `container`, which starts on `line`."""

    @abstractmethod
    def span(self, container: object, line: int, first: int, last: int) -> tuple[int, int]:
        """The first line of member `first` and the last line of member `last`."""


class OneLine(LineMap):
    """A document written on one line: everything is on it."""

    def child_line(self, container: object, line: int, index: int) -> int:
        return self.root_line

    def span(self, container: object, line: int, first: int, last: int) -> tuple[int, int]:
        return self.root_line, self.root_line


class UsualLayout(LineMap):
    """Pretty-printed the usual way: a member takes as many lines as its pretty rendering
    (the survey counted its newlines), the container's first line holds only its bracket."""

    def __init__(self, root_line: int, survey: Survey) -> None:
        super().__init__(root_line)
        self._survey = survey
        self._offsets: dict[int, list[int]] = {}

    def child_line(self, container: object, line: int, index: int) -> int:
        return line + 1 + self._lines_before(container, index)

    def span(self, container: object, line: int, first: int, last: int) -> tuple[int, int]:
        # The line before member last+1 ends the span. (Every marker asks: one look at the
        # container's facts for both ends.)
        if self._survey.of(container).newlines == len(container) + 1:  # type: ignore[arg-type]
            return line + 1 + first, line + last + 1  # every member on one line
        offsets = self._offsets_of(container)
        return line + 1 + offsets[first], line + offsets[last + 1]

    def _lines_before(self, container: object, index: int) -> int:
        if self._survey.of(container).newlines == len(container) + 1:  # type: ignore[arg-type]
            return index  # every member on one line
        return self._offsets_of(container)[index]

    def _offsets_of(self, container: object) -> list[int]:
        """The lines before each member and after the last, relative to the first's."""
        offsets = self._offsets.get(id(container))
        if offsets is None:
            members = container.values() if isinstance(container, dict) else container
            sizes = (self._lines(member) for member in members)  # type: ignore[attr-defined]
            offsets = self._offsets[id(container)] = [0, *accumulate(sizes)]
        return offsets

    def _lines(self, value: object) -> int:
        if isinstance(value, dict | list):
            return self._survey.of(value).newlines + 1
        return 1


class Positions(LineMap):
    """Any other layout: the offsets of every member, found by parsing with positions."""

    def __init__(self, text: str, spans: dict[int, tuple[list[int], list[int]]]) -> None:
        self._newlines = [match.start() for match in re.finditer("\n", text)]
        self._spans = spans
        super().__init__(self.line_of(len(text) - len(text.lstrip())))

    def line_of(self, offset: int) -> int:
        return bisect_left(self._newlines, offset) + 1

    def child_line(self, container: object, line: int, index: int) -> int:
        return self.line_of(self._spans[id(container)][0][index])

    def span(self, container: object, line: int, first: int, last: int) -> tuple[int, int]:
        starts, ends = self._spans[id(container)]
        return self.line_of(starts[first]), self.line_of(ends[last] - 1)


def structural_line_map(text: str, survey: Survey) -> LineMap | None:
    """The map of a one-line document or of one pretty-printed the usual way (its newlines
    are exactly those its pretty rendering has); None for any other layout, whose positions
    must be parsed (`parse_with_positions`)."""
    start = len(text) - len(text.lstrip())
    body = text.strip()
    root_line = text.count("\n", 0, start) + 1
    if "\n" not in body:
        return OneLine(root_line)
    root = survey.root
    if isinstance(root, dict | list) and body.count("\n") == survey.of(root).newlines:
        return UsualLayout(root_line, survey)
    return None


class MemberLine:
    """The first line of member `index` of `container` (which starts on `line`), found when
    first asked for: a level walks most members without naming where they are (only markers
    name lines), and finding each one's line cost a fifth of a walk."""

    __slots__ = ("_container", "_found", "_index", "_line")

    def __init__(self, container: object, line: Line, index: int) -> None:
        self._container = container
        self._line = line
        self._index = index
        self._found = -1

    def found_in(self, lines: LineMap) -> int:
        if self._found >= 0:
            return self._found
        # The members not found yet up the chain, found from the outermost down: a loop, not
        # a call per level (a deep document's walk already takes most of the stack).
        chain: list[MemberLine] = []
        line: Line = self
        while isinstance(line, MemberLine) and line._found < 0:
            chain.append(line)
            line = line._line
        found = line if isinstance(line, int) else line._found
        for member in reversed(chain):
            found = member._found = lines.child_line(member._container, found, member._index)
        return found


Line = int | MemberLine
"""A line number, or where to find it."""


def line_number(lines: LineMap, line: Line) -> int:
    return line if isinstance(line, int) else line.found_in(lines)
