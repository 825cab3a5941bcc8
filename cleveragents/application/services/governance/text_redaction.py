"""Credentials redacted from a text whole, from one scan, in time linear in its length.

The text is scanned once; each credential found loses its whole value (the scanner's span,
widened by `credential_spans.whole_span`) to ``[REDACTED:<kind>]``: the kind is named, the value
never. Only the value goes: a variable's name, the quotes, commas and brackets around it stay,
so a JSON document still parses. A span that runs over several lines (a private key's body, a
wrapped base64 block) keeps its line breaks, so every later line keeps its number and the
omission markers' line ranges still point at the right lines. A finding the scanner could only
place on a line (no span) takes its whole line.

Defence in depth: the result is scanned once more, and a line on which anything is still found
(a credential the placeholders joined into being, a span the scanner got wrong) is replaced
whole. Two scans and two passes over the text, whatever the number of credentials.
"""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.application.ports.secret_scanner import SecretMatch, SecretScanner
from cleveragents.application.services.governance.credential_spans import whole_span
from cleveragents.domain.secrets import SecretKind, redaction_placeholder

_ENCODING = "utf-8"
_ERRORS = "surrogatepass"  # a str from `errors="surrogateescape"` input round-trips


@dataclass(frozen=True, slots=True)
class RedactedText:
    """A text with its credentials redacted, and the kind of each credential that went (one
    per placeholder written, in the order of the text)."""

    text: str
    kinds: tuple[SecretKind, ...] = ()


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int
    kind: SecretKind


def redact_document(text: str, scanner: SecretScanner) -> RedactedText:
    """`text` with every credential the scanner finds in it redacted whole; `text` itself
    (and no kinds) when none is found."""
    data = text.encode(_ENCODING, _ERRORS)
    matches = scanner.match_bytes(data)
    if not matches:
        return RedactedText(text)
    redacted, kinds = _replaced(data, _spans(data, matches))
    leftover = scanner.match_bytes(redacted)
    if leftover:
        redacted, more = _replaced(redacted, _line_spans(redacted, leftover))
        kinds = kinds + more
    return RedactedText(redacted.decode(_ENCODING, _ERRORS), kinds)


def _spans(data: bytes, matches: list[SecretMatch]) -> list[_Span]:
    """The spans to replace, widened to whole values, sorted and merged where they overlap."""
    located: list[_Span] = []
    covered = 0  # where the spans widened so far end
    for match in sorted((m for m in matches if m.start >= 0), key=lambda m: (m.start, m.end)):
        if match.end <= covered:
            # Inside a value already widened (a wrapped block, a long run): widening it again
            # would walk the same bytes once per match.
            located.append(_Span(match.start, match.end, match.kind))
            continue
        start, end = whole_span(data, match)
        located.append(_Span(start, end, match.kind))
        covered = max(covered, end)
    unplaced = [match for match in matches if match.start < 0]
    if unplaced:
        located += _line_spans(data, unplaced)
    located.sort(key=lambda span: (span.start, span.end))
    merged: list[_Span] = []
    for span in located:
        if merged and span.start <= merged[-1].end:
            last = merged[-1]
            kind = _more_specific(last.kind, span.kind)
            merged[-1] = _Span(last.start, max(last.end, span.end), kind)
        else:
            merged.append(span)
    return merged


def _line_spans(data: bytes, matches: list[SecretMatch]) -> list[_Span]:
    """Each match's lines, whole (their endings kept): from the line it is reported on
    through the line its span ends on, if it has one."""
    wanted: dict[int, tuple[int, SecretKind]] = {}  # first line -> (last line, kind)
    for match in matches:
        last = match.line
        if 0 <= match.start < match.end <= len(data):
            last += data.count(b"\n", match.start, match.end)
        first_last, kind = wanted.get(match.line, (last, match.kind))
        wanted[match.line] = (max(first_last, last), _more_specific(kind, match.kind))
    spans: list[_Span] = []
    line, position = 1, 0
    for first in sorted(wanted):
        last, kind = wanted[first]
        while line < first and position <= len(data):
            position = _next_line(data, position)
            line += 1
        start = position
        while line < last and position <= len(data):
            position = _next_line(data, position)
            line += 1
        end = _line_end(data, position)
        if start < len(data):
            spans.append(_Span(start, max(start, end), kind))
    return spans


def _next_line(data: bytes, position: int) -> int:
    newline = data.find(b"\n", position)
    return len(data) + 1 if newline == -1 else newline + 1


def _line_end(data: bytes, position: int) -> int:
    """Where the line at `position` ends, before its ``\\r\\n`` or ``\\n``."""
    newline = data.find(b"\n", position)
    end = len(data) if newline == -1 else newline
    return end - 1 if end > position and data[end - 1] == 0x0D else end


def _replaced(data: bytes, spans: list[_Span]) -> tuple[bytes, tuple[SecretKind, ...]]:
    """`data` with each span replaced by its placeholder and the line breaks it held."""
    if not spans:
        return data, ()
    out = bytearray()
    kinds: list[SecretKind] = []
    position = 0
    for span in spans:
        start, end = _character_bounds(data, span.start, span.end)
        if end <= position:
            continue  # within a span already replaced (lines of two findings)
        start = max(start, position)
        out += data[position:start]
        out += redaction_placeholder(span.kind.value).encode()
        kinds.append(span.kind)
        out += b"\n" * data.count(b"\n", start, end)
        position = max(position, end)
    out += data[position:]
    return bytes(out), tuple(kinds)


def _character_bounds(data: bytes, start: int, end: int) -> tuple[int, int]:
    """[start, end) moved out to whole UTF-8 characters (never inside one's bytes)."""
    while 0 < start < len(data) and 0x80 <= data[start] < 0xC0:
        start -= 1
    while end < len(data) and 0x80 <= data[end] < 0xC0:
        end += 1
    return start, end


def _more_specific(first: SecretKind, second: SecretKind) -> SecretKind:
    """Of two kinds found at one place, the one that says more (a GitHub token over a generic
    secret)."""
    broad = (SecretKind.GENERIC_SECRET, SecretKind.OTHER)
    if first in broad and second not in broad:
        return second
    return first
