"""Byte-range edits on source text and the final tidy-up of the outline's lines."""

from __future__ import annotations

from dataclasses import dataclass

_BLANKS = b" \t\r\f\v"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``source[start:end]`` with ``replacement``."""

    start: int
    end: int
    replacement: bytes = b""


def apply_edits(source: bytes, edits: list[Edit]) -> bytes:
    """The source with the edits applied; an edit overlapping an earlier one is dropped (a comment
    between a Python ``:`` and its block is already inside the elided range)."""
    pieces: list[bytes] = []
    cursor = 0
    for edit in sorted(edits, key=lambda edit: (edit.start, -edit.end)):
        if edit.start < cursor:
            continue
        pieces.append(source[cursor : edit.start])
        pieces.append(edit.replacement)
        cursor = edit.end
    pieces.append(source[cursor:])
    return b"".join(pieces)


def line_start(source: bytes, offset: int) -> int:
    """The offset where the line holding ``offset`` begins."""
    return source.rfind(b"\n", 0, offset) + 1


def line_indent(source: bytes, offset: int) -> bytes:
    """The leading whitespace of the line holding ``offset``."""
    start = line_start(source, offset)
    end = start
    while end < len(source) and source[end] in b" \t":
        end += 1
    return source[start:end]


def comment_removal(source: bytes, start: int, end: int) -> Edit:
    """Deletes a comment; a comment alone on its lines takes those lines with it, so removing it
    leaves no blank line where there was none."""
    first = line_start(source, start)
    newline = source.find(b"\n", end)
    last = len(source) if newline < 0 else newline + 1
    alone = not source[first:start].strip(_BLANKS) and not source[end:last].strip(_BLANKS + b"\n")
    return Edit(first, last) if alone else Edit(start, end)


def tidy_lines(text: str) -> str:
    """Trailing whitespace stripped, runs of blank lines collapsed to one, no blank lines at
    either end, exactly one final newline (or nothing for an empty outline)."""
    lines: list[str] = []
    for raw_line in text.split("\n"):
        line = raw_line.rstrip()
        if not line and (not lines or not lines[-1]):
            continue
        lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n" if lines else ""
