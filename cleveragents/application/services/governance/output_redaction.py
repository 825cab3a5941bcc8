"""Redaction of a stream: each credential a scan matched is replaced by a notice naming its
rule (``[REDACTED:npm-token]``), never its value.

A match with a byte span loses that span; a match without one (a scanner that only tells the
line) loses its whole line, the line ending kept. The stream is fed in chunks of any size, in the
order they were scanned, so output of any length is redacted in bounded memory; overlapping spans
become one notice.
"""

from __future__ import annotations

import dataclasses
from typing import BinaryIO

from cleveragents.application.ports.secret_scanner import SecretMatch
from cleveragents.application.services.governance.credential_spans import whole_span
from cleveragents.domain.secrets import redaction_placeholder


def redaction_notice(rule: str) -> bytes:
    return redaction_placeholder(rule).encode()


def redact_text(text: str, matches: list[SecretMatch]) -> str:
    """`text` (a file name, a short output) with `matches`, found in its UTF-8 bytes, redacted:
    each value whole (see `credential_spans`), not only what the scanner's pattern took."""
    data = text.encode("utf-8", "surrogatepass")
    whole = [_widened(data, match) for match in matches]
    return OutputRedactor(whole).feed(data).decode("utf-8", "replace")


WIDENING_BEFORE_BYTES = 4096
"""Read before a match to widen it: its quote, its `=`, the lines of a wrapped base64 block."""
WIDENING_AFTER_BYTES = 64 * 1024
"""Read after a match to widen it: no credential runs on longer than this."""


def whole_matches(handle: BinaryIO, matches: list[SecretMatch]) -> list[SecretMatch]:
    """`matches`, found in the seekable stream `handle`, each widened to its whole value
    (`credential_spans`), for an `OutputRedactor` over that stream: the bytes around each match
    are read again (nearby matches share one read, so the reads stay about one pass)."""
    widened: list[SecretMatch] = []
    window_start, window = 0, b""
    for match in sorted(matches):
        if match.start < 0:
            widened.append(match)
            continue
        needed_end = match.end + WIDENING_AFTER_BYTES // 2
        if not (
            window_start <= max(0, match.start - 64) < needed_end <= window_start + len(window)
        ):
            window_start = max(0, match.start - WIDENING_BEFORE_BYTES)
            handle.seek(window_start)
            window = handle.read(match.end + WIDENING_AFTER_BYTES - window_start)
        local = dataclasses.replace(
            match, start=match.start - window_start, end=match.end - window_start
        )
        start, end = whole_span(window, local)
        widened.append(
            dataclasses.replace(match, start=start + window_start, end=end + window_start)
        )
    return widened


def _widened(data: bytes, match: SecretMatch) -> SecretMatch:
    if match.start < 0:
        return match
    start, end = whole_span(data, match)
    return dataclasses.replace(match, start=start, end=end)


class OutputRedactor:
    def __init__(self, matches: list[SecretMatch]) -> None:
        ordered = sorted((m.start, m.end, m.rule) for m in matches if 0 <= m.start < m.end)
        merged: list[tuple[int, int, str]] = []
        for start, end, rule in ordered:
            if merged and start <= merged[-1][1]:
                first, last, kept = merged[-1]
                merged[-1] = (first, max(last, end), kept)
            else:
                merged.append((start, end, rule))
        self._spans = merged
        self._span = 0  # the next span not wholly passed
        self._span_open = False  # its notice is written
        self._lines = {m.line: m.rule for m in matches if m.start < 0}
        self._flagged = sorted(self._lines)
        self._offset = 0  # the stream offset of the chunk being fed
        self._line = 1
        self._line_marked = 0  # the flagged line whose notice is written

    def feed(self, chunk: bytes) -> bytes:
        out = bytearray()
        position = 0
        size = len(chunk)
        while position < size:
            here = self._offset + position
            span_start = self._spans[self._span][0] if self._span < len(self._spans) else None
            if span_start is not None and span_start <= here:
                position = self._skip_span(chunk, position, out)
                continue
            limit = size if span_start is None else min(size, span_start - self._offset)
            if self._line in self._lines:
                position = self._skip_line(chunk, position, limit, out)
                continue
            position = self._copy(chunk, position, limit, out)
        self._offset += size
        return bytes(out)

    def _skip_span(self, chunk: bytes, position: int, out: bytearray) -> int:
        _, end, rule = self._spans[self._span]
        if not self._span_open:
            out += redaction_notice(rule)
            self._span_open = True
        stop = min(end - self._offset, len(chunk))
        self._line += chunk.count(b"\n", position, stop)
        if self._offset + stop >= end:
            self._span += 1
            self._span_open = False
        return stop

    def _skip_line(self, chunk: bytes, position: int, limit: int, out: bytearray) -> int:
        if self._line_marked != self._line:
            out += redaction_notice(self._lines[self._line])
            self._line_marked = self._line
        newline = chunk.find(b"\n", position, limit)
        if newline == -1:
            return limit
        out += b"\n"
        self._line += 1
        return newline + 1

    def _copy(self, chunk: bytes, position: int, limit: int, out: bytearray) -> int:
        """Copy up to `limit`, or to the start of the next flagged line."""
        upcoming = next((line for line in self._flagged if line > self._line), None)
        newlines = chunk.count(b"\n", position, limit)
        if upcoming is None or self._line + newlines < upcoming:
            out += chunk[position:limit]
            self._line += newlines
            return limit
        stop = position
        while self._line < upcoming:
            stop = chunk.index(b"\n", stop, limit) + 1
            self._line += 1
        out += chunk[position:stop]
        return stop
