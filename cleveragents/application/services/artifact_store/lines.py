"""Cutting lines out of a stream of bytes, without holding the stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def lines_between(chunks: Iterable[bytes], first: int, last: int | None) -> Iterator[bytes]:
    """The bytes of lines `first`..`last` (1-based; `last` None: to the end) of a stream cut
    into `chunks` anywhere, one piece per chunk that holds some of them."""
    for _, piece in located_lines_between(chunks, first, last):
        yield piece


def located_lines_between(
    chunks: Iterable[bytes], first: int, last: int | None
) -> Iterator[tuple[int, bytes]]:
    """`lines_between`, each piece with the offset of its first byte in the stream. Lines are
    only counted (``bytes.count``) in a chunk that lies wholly before or inside the range; only
    the chunks where the range starts or ends are searched newline by newline."""
    line = 1  # the line the next byte belongs to
    passed = 0  # the stream's bytes before this chunk
    for chunk in chunks:
        start, line = _skip_to_line(chunk, 0, line, first)
        if line < first:
            passed += len(chunk)
            continue
        if last is None:
            end = len(chunk)
        else:
            end, line = _skip_to_line(chunk, start, line, last + 1)
        if end > start:
            yield passed + start, chunk[start:end]
        if last is not None and line > last:
            return
        passed += len(chunk)


def _skip_to_line(chunk: bytes, position: int, line: int, target: int) -> tuple[int, int]:
    """From `position` in `chunk`, on line `line`: the position where line `target` starts
    and `target`, or the chunk's end and the line it ends on when `target` starts later."""
    if line >= target:
        return position, line
    newlines = chunk.count(b"\n", position)
    if line + newlines < target:
        return len(chunk), line + newlines
    for _ in range(target - line):
        position = chunk.index(b"\n", position) + 1
    return position, target
