"""Code diffs: where each line of a diff stands (outside any file, a file header, a hunk header,
a hunk's body) and the language of its file.

Hunks are delimited by the line counts of their ``@@`` headers, so a removed line that happens to
read ``--- x`` is body, not a file header; text that is not part of a hunk (a ``format-patch``
preamble, a commit message, the trailer) is kept as is. One pass, constant work per line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import Enum, auto
from operator import itemgetter

from cleveragents.domain.languages import language_for_path


class DiffLineKind(Enum):
    """What a line of a diff is."""

    OTHER = auto()  # preamble, commit message, trailer: not part of any file's diff
    FILE_HEADER = auto()
    HUNK_HEADER = auto()
    BODY = auto()


Segments = Iterable[tuple[DiffLineKind, str | None, int, int]]
"""What `diff_segments` gives: runs of lines `start:end` of one kind, with their language."""

FILE_STARTS = ("diff --git ", "diff --cc ", "diff --combined ")
_HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def split_diff(text: str) -> tuple[list[str], bool]:
    """The lines of `text` (split on ``\\n`` only) and whether it ended with a newline."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
        return lines, True
    return lines, False


def _path_language(header: str) -> str | None:
    """The language of the path in a ``--- a/x``, ``+++ b/x`` or ``diff --git a/x b/x`` line."""
    if header.startswith("diff "):
        path = header.rsplit(" ", 1)[-1]
    else:
        path = header[4:].split("\t", 1)[0].strip().strip('"')
    return None if path == "/dev/null" else language_for_path(path)


def scan_diff(lines: list[str]) -> Iterator[tuple[DiffLineKind, str | None]]:
    """Each line's kind and its file's language (see `diff_segments`)."""
    for kind, language, start, end in diff_segments(lines):
        for _ in range(start, end):
            yield kind, language


_BODY_MARKERS = frozenset((" ", "+", "-", "\\", ""))  # what a hunk body line starts with
_MARKER = itemgetter(slice(0, 1))  # a line's first character, or "" for an empty line


def diff_segments(lines: list[str]) -> Iterator[tuple[DiffLineKind, str | None, int, int]]:
    """The kind of each line and its file's language, for runs of lines `lines[start:end]`:
    a hunk's body lines are one run, each other line is one. A hunk ends when its header's
    line counts are used up (a combined diff's ``@@@`` header has no counts the pattern reads:
    its hunk ends at the first line that is not a body line)."""
    language: str | None = None
    state = DiffLineKind.OTHER  # OTHER: outside any file; FILE_HEADER; BODY: inside a hunk
    old_left = new_left = 0
    counted = False
    count = len(lines)
    index = 0
    while index < count:
        line = lines[index]
        starts_file = line.startswith(FILE_STARTS) or (
            line.startswith("--- ")
            and index + 1 < count
            and lines[index + 1].startswith("+++ ")
            and (state is not DiffLineKind.BODY or not counted)
        )
        if state is DiffLineKind.BODY and not starts_file and line[:1] in _BODY_MARKERS:
            end, old_left, new_left = _body_end(lines, index, old_left, new_left, counted)
            if counted and old_left <= 0 and new_left <= 0:
                state = DiffLineKind.OTHER
            yield DiffLineKind.BODY, language, index, end
            index = end
            continue
        if starts_file:
            state = DiffLineKind.FILE_HEADER
            language = _path_language(line)
            kind = DiffLineKind.FILE_HEADER
        elif line.startswith("@@"):
            state = DiffLineKind.BODY
            match = _HUNK.match(line)
            counted = match is not None
            if match is not None:
                old_left = int(match.group(1) or 1)
                new_left = int(match.group(2) or 1)
            kind = DiffLineKind.HUNK_HEADER
        elif state is DiffLineKind.FILE_HEADER:
            # `+++ /dev/null` (a deleted file) keeps the language of the `--- a/...` path.
            if line.startswith("--- ") or (line.startswith("+++ ") and _path_language(line)):
                language = _path_language(line)
            kind = DiffLineKind.FILE_HEADER
        else:
            state = kind = DiffLineKind.OTHER
        yield kind, language, index, index + 1
        index += 1


def _body_end(
    lines: list[str], index: int, old_left: int, new_left: int, counted: bool
) -> tuple[int, int, int]:
    """Where the run of hunk body lines that starts with the body line `lines[index]` ends,
    and the line counts left of its hunk then. The run ends at a line that is no body line or
    (in a hunk without counts) starts a file, or after the line that uses the counts up. (A
    body line cannot start with one of `FILE_STARTS`.)"""
    count = len(lines)
    while True:
        stretch = _uncounted_stretch(lines, index, old_left, new_left) if counted else None
        if stretch is not None:  # the lines that cannot use the counts up, all body lines
            index, old_left, new_left = stretch
        else:
            marker = lines[index][:1]
            if marker == "+":
                new_left -= 1
            elif marker == "-":
                old_left -= 1
            elif marker != "\\":  # context: a line of both sides
                old_left -= 1
                new_left -= 1
            index += 1
            if counted and old_left <= 0 and new_left <= 0:
                return index, old_left, new_left
        if index == count:
            return index, old_left, new_left
        line = lines[index]
        if line[:1] not in _BODY_MARKERS:
            return index, old_left, new_left
        if (
            not counted
            and line.startswith("--- ")
            and index + 1 < count
            and lines[index + 1].startswith("+++ ")
        ):
            return index, old_left, new_left  # a file starts


_STRETCH = 256
"""The most lines `_uncounted_stretch` reads at once: a header claiming more lines than follow
must not make each of its lines read all those after it."""


def _uncounted_stretch(
    lines: list[str], index: int, old_left: int, new_left: int
) -> tuple[int, int, int] | None:
    """`_body_end`'s walk over the lines from `index` (a body line) that cannot use its hunk's
    counts up (a line takes at most one from each count, so the counts last at least the
    larger of them, less one, more lines), done at once up to `_STRETCH` lines and up to the
    first line that is no body line: where it ends, and the counts left then. None when that
    is not worth it."""
    span = min(max(old_left, new_left) - 1, len(lines) - index, _STRETCH)
    if span < 2:
        return None
    markers = list(map(_MARKER, lines[index : index + span]))
    if not _BODY_MARKERS.issuperset(markers):  # up to the first line that is no body line
        span = min(markers.index(marker) for marker in set(markers) - _BODY_MARKERS)
        del markers[span:]
    unchanged = span - markers.count("\\")  # `\ No newline` takes from neither count
    old_left -= unchanged - markers.count("+")
    new_left -= unchanged - markers.count("-")
    return index + span, old_left, new_left
