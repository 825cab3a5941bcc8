"""Where a credential the scanner matched really ends: its span widened to the whole value.

The scanner's span is what its pattern could take, and a pattern is bounded (an assigned value
is at most 256 bytes, a PEM body 4,096): a longer value would lose its head and print its tail.
So each span is widened, to the right only (every pattern starts where its credential starts):

- a value in quotes runs on to its closing quote (a JSON string's escapes are part of it);
- a value assigned without quotes (after ``=`` or ``:``) runs on over any character a value
  holds (not blanks, backslashes, ``@`` nor the punctuation that ends a value in code:
  `` ` , ; & < > ( ) { } [ ]``), and over a quote that such a character follows
  (``abc'def``), but for a trailing ``.``, ``:``, ``!`` or ``?`` (the end of a sentence);
- any other credential not in quotes (a token with a format of its own) runs on over the
  characters of a key (letters, digits, ``+ / = _ -``) and a quote a letter or digit follows:
  ``build-ghp_....log`` keeps its ``.log``;
- a password in a URL runs on to the authority's last ``@`` (``user:p@ss@host``);
- a private key runs on through its body to its END line (its body lines are kept as empty
  lines by the redaction);
- a credential found inside base64 takes its whole wrapped block: the adjacent lines of base64
  of the same width (``base64`` wraps at 76 columns), each holding a piece of the same secret.

Every widening reads only the bytes it takes (and a line's worth around a base64 block), so
widening all the spans of a text costs time linear in its length.
"""

from __future__ import annotations

import re

from cleveragents.application.ports.secret_scanner import SecretMatch
from cleveragents.domain.secrets import SecretKind

_KEY_RUN = re.compile(rb"[A-Za-z0-9+/=_-]*")
_VALUE_RUN = re.compile(rb"[^\x00-\x20\x7f-\xff\"'`\\,;&<>(){}\[\]@]*")
_ASSIGNED = re.compile(rb"[=:][ \t]{0,8}\Z")
_QUOTES = frozenset(b"\"'")
_GIVEN_BACK = b".:!?"
_JSON_STRING_RUN = re.compile(rb'(?:[^\x00-\x20\x7f"\\]|\\[^\x00-\x20])*')
_SINGLE_QUOTED_RUN = re.compile(rb"[^\x00-\x20\x7f'\\]*")
_ESCAPED_QUOTED_RUN = re.compile(rb"[^\x00-\x20\x7f\"'\\]*")
_AUTHORITY = re.compile(rb"[^\s/?#\"'<>\\]*")
_PEM_REST = re.compile(
    rb"(?:[A-Za-z0-9+/=\s\\:,]|-(?!----END ))*"
    rb"(?:-----END [A-Z0-9 ]{0,24}PRIVATE KEY(?: BLOCK)?-----)?"
)
_PEM_END = re.compile(rb"PRIVATE KEY(?: BLOCK)?-----\Z")
_BASE64_LINE = re.compile(rb"[A-Za-z0-9+/]+={0,2}\r?")
MIN_WRAPPED_WIDTH = 40
"""A line of base64 narrower than this is no wrapped block's (``base64`` wraps at 76, PEM 64)."""


def whole_span(data: bytes, match: SecretMatch) -> tuple[int, int]:
    """[start, end) of the credential `match` found in `data`, widened to its whole value."""
    start, end = match.start, match.end
    if not 0 <= start < end <= len(data):
        return start, end  # not in these bytes (a file that changed since it was scanned)
    if match.kind is SecretKind.PRIVATE_KEY:
        if not _PEM_END.search(data, max(start, end - 32), end):
            end = _run_end(_PEM_REST, data, end)
        return start, end
    if _is_wrapped_line(data, start, end):
        return _wrapped_block(data, start, end)
    end = _value_end(data, start, end)
    if match.kind is SecretKind.PASSWORD_IN_URL and data[end : end + 1] == b"@":
        authority_end = _run_end(_AUTHORITY, data, end)
        end = data.rindex(b"@", end, authority_end)
    return start, end


def _value_end(data: bytes, start: int, end: int) -> int:
    """Where the value that begins at `start` and holds at least [start, end) ends."""
    opening = data[start - 1] if start > 0 else None
    if opening in _QUOTES:
        escaped = start > 1 and data[start - 2] == 0x5C  # `\"`: a JSON string inside a string
        if escaped:
            return _run_end(_ESCAPED_QUOTED_RUN, data, end)
        run = _JSON_STRING_RUN if opening == 0x22 else _SINGLE_QUOTED_RUN
        return _run_end(run, data, end)
    widened = end
    run = _VALUE_RUN if _ASSIGNED.search(data, max(0, start - 9), start) else _KEY_RUN
    while True:
        widened = _run_end(run, data, widened)
        quotes = widened
        while data[quotes : quotes + 1] in (b'"', b"'"):
            quotes += 1
        if quotes > widened and _run_end(run, data, quotes) > quotes:
            widened = quotes
            continue
        break
    while widened > end and data[widened - 1] in _GIVEN_BACK:
        widened -= 1
    return widened


def _run_end(run: re.Pattern[bytes], data: bytes, position: int) -> int:
    """Where `run` (a pattern that matches the empty string too) ends from `position`."""
    found = run.match(data, position)
    return position if found is None else found.end()


def _is_wrapped_line(data: bytes, start: int, end: int) -> bool:
    """Whether [start, end) is a whole line of base64 that may be one of a wrapped block."""
    return (
        (start == 0 or data[start - 1] == 0x0A)
        and data[end : end + 1] in (b"", b"\n", b"\r")
        and _BASE64_LINE.fullmatch(data, start, end) is not None
        and _has_wrapped_neighbour(data, start, end)
    )


def _has_wrapped_neighbour(data: bytes, start: int, end: int) -> bool:
    before = _line_before(data, start)
    after = _line_after(data, end)
    return any(
        line is not None
        and _width(data, *line) >= MIN_WRAPPED_WIDTH
        and _BASE64_LINE.fullmatch(data, *line) is not None
        for line in (before, after)
    )


def _wrapped_block(data: bytes, start: int, end: int) -> tuple[int, int]:
    """The lines of the wrapped block holding the line [start, end): lines of base64 above it
    of one width (at least its own), and below it while the line above is of that width."""
    width = _width(data, start, end)
    above = _line_before(data, start)
    if above is not None and _is_base64_line(data, above) and _width(data, *above) >= width:
        width = _width(data, *above)
    if width < MIN_WRAPPED_WIDTH:
        return start, end
    first, last = start, end
    while (line := _line_before(data, first)) is not None and (
        _is_base64_line(data, line) and _width(data, *line) == width
    ):
        first = line[0]
    current_width = _width(data, start, end)
    while current_width == width and (line := _line_after(data, last)) is not None:
        if not _is_base64_line(data, line) or _width(data, *line) > width:
            break
        last = line[1]
        current_width = _width(data, *line)
    return first, last


def _is_base64_line(data: bytes, line: tuple[int, int]) -> bool:
    return _BASE64_LINE.fullmatch(data, *line) is not None


def _width(data: bytes, start: int, end: int) -> int:
    """A line's length without its ``\\r``."""
    return end - start - (1 if end > start and data[end - 1] == 0x0D else 0)


def _line_before(data: bytes, start: int) -> tuple[int, int] | None:
    """[start, end) of the line before the line starting at `start` (without its newline)."""
    if start == 0:
        return None
    return data.rfind(b"\n", 0, start - 1) + 1, start - 1


def _line_after(data: bytes, end: int) -> tuple[int, int] | None:
    """[start, end) of the line after the line ending at `end` (without its newline)."""
    if data[end : end + 1] == b"\r":
        end += 1
    if data[end : end + 1] != b"\n":
        return None
    following = data.find(b"\n", end + 1)
    return end + 1, len(data) if following == -1 else following
