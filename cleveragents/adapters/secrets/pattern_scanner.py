"""The built-in secret scanner: precompiled credential patterns over a byte stream.

The stream is scanned in fixed windows of `WINDOW_BYTES` at absolute offsets, each read with
`OVERLAP_BYTES` of what follows (more than the longest possible match, plus room to look for the
allow marker after it) and `CONTEXT_BYTES` of what precedes (for the patterns' left word
boundaries and the marker before a match). A match belongs to the window it starts in, so every
match is found whole exactly once, whatever the chunk sizes handed to `feed()`: a key split
across two chunks is found, and the findings depend only on the bytes. A very long line is just
more windows, so time stays linear and memory bounded by about one window, however long a line.

No decoding of the text itself: every credential format is ASCII, so invalid UTF-8 is bytes that
match nothing and never stops the scan. Two wrappings are unwrapped, because tools print them
(`kubectl get secret -o yaml`, `echo ... | base64`, a Windows tool's UTF-16 log):
- base64: a run of at least `MIN_BASE64_CHARS` base64 characters that decodes to ASCII text is
  scanned as that text (one level deep; runs longer than `MAX_BASE64_CHARS` are not looked into).
  The runs are found on a copy of the bytes made of their classes (base64, edge, other) by
  `bytes.find`, so only tokens standing on their own are visited in Python;
- UTF-16LE: only in a window that holds a NUL byte and three printable ASCII characters in a row
  in UTF-16LE (every match holds three), a run of ASCII characters each followed by a NUL is
  scanned as those characters.
A credential found inside a wrapping is reported on the line where the wrapping starts, and its
span (for a redaction) is the whole base64 run, or the UTF-16 bytes of the credential.

Lines are counted by `\\n` (a `\\r\\n` file counts the same; a lone `\\r` does not end a line).
In a scan started with `honour_allow_markers=True` (only for a file of the user's workspace
imported by path), a line holding `cleveragents:allow-secret` within `MARKER_REACH_BYTES` of a
match (on the same line) reports nothing for that match. Every other scan ignores the marker:
tool output can print it. The windows keep room for the marker either way, so the findings of
both kinds of scan depend only on the bytes.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable, Iterator

from cleveragents.adapters.secrets.pattern_model import SecretPattern
from cleveragents.adapters.secrets.secret_patterns import MAX_MATCH_BYTES, PATTERNS
from cleveragents.application.ports.secret_scanner import (
    ALLOW_MARKER,
    SecretMatch,
    SecretScan,
    SecretScanner,
    findings_of,
    fingerprint,
)
from cleveragents.domain.secrets import SecretFinding, SecretKind

WINDOW_BYTES = 256 * 1024
MARKER_REACH_BYTES = 160
# The window ahead: a match starting in a window ends, with what its pattern and validator
# look at after it and the marker's reach, inside the window plus this.
OVERLAP_BYTES = MAX_MATCH_BYTES + MARKER_REACH_BYTES + 64
# Kept before the next window: lookbehinds, the validators' look at the preceding bytes, the
# marker's reach.
CONTEXT_BYTES = MARKER_REACH_BYTES + 16

# Hopping to a pattern's anchor costs about what the regex engine's own scan costs over this many
# bytes; where anchors come closer on average, the engine's scan is cheaper. (A hop, `find` then
# `match` in Python, measured 0.8 us: 1,800 `J` in 1 MB of generated logs cost 1.4 ms hopped,
# 0.5 ms scanned by the engine, which reads some 0.4 ns a byte.)
MIN_ANCHOR_GAP_BYTES = 2048
_HOPS_BEFORE_GAP_CHECK = 16
# The largest buffer kept (beyond the one being scanned) for its newlines to be counted later.
_MAX_HELD_BYTES = 2 * (WINDOW_BYTES + OVERLAP_BYTES)

MIN_BASE64_CHARS = 20
MAX_BASE64_CHARS = 4096
_MARKER = ALLOW_MARKER.encode()
# Standard base64 only: with `-` and `_` every long snake-case name and kebab-case word would be
# a candidate (base64url credentials, JWTs, are matched as they are).
_BASE64_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_GROUP_STARTS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef"
_TOKEN_EDGES = frozenset(b" \t\n\r\x0b\x0c\"'=:,;()[]{}<>")
_EDGE_CLASS = 0x20
_TOKEN_CLASSES = bytes(
    0x41 if byte in _BASE64_BYTES else _EDGE_CLASS if byte in _TOKEN_EDGES else 0x2E
    for byte in range(256)
)
_BASE64_SEED = b"A" * MIN_BASE64_CHARS
_TOKEN_START = b" " + _BASE64_SEED
_NOT_BASE64_CLASS = re.compile(rb"[^A]")
_PRINTABLE = bytes(range(0x20, 0x7F)) + b"\t\n\r"
# For the UTF-16LE pass: a printable ASCII byte but the blank becomes `a`, NUL stays, any other `.`.
_UTF16LE_CLASSES = bytes(
    0x61 if 0x21 <= byte <= 0x7E else 0x00 if byte == 0 else 0x2E for byte in range(256)
)
_UTF16LE_TRIGRAM = b"a\x00a\x00a\x00"


class PatternSecretScanner(SecretScanner):
    """Finds the credential kinds of `PATTERNS` (cloud and vendor keys and tokens such as AWS,
    GitHub, GitLab, OpenAI, Anthropic, Slack, Stripe, Datadog, Vault and age; private keys,
    JWTs, passwords in URLs, bearer tokens, and password/secret/token/api-key assignments),
    also inside base64 and UTF-16LE; `domain.secrets.SecretKind` lists them all."""

    def __init__(self, patterns: tuple[SecretPattern, ...] = PATTERNS) -> None:
        self._patterns = patterns

    @property
    def name(self) -> str:
        return "builtin"

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        return _PatternScan(self._patterns, honour_allow_markers)


class _PatternScan(SecretScan):
    def __init__(self, patterns: tuple[SecretPattern, ...], honour_allow_markers: bool) -> None:
        self._patterns = patterns
        self._honour_markers = honour_allow_markers
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        # Some bytes of context, then the bytes not yet scanned, from `_scan_from` on.
        self._buffer = b""
        self._scan_from = 0
        self._offset = 0  # the stream offset of `_buffer[0]`
        # Lines are counted only when a finding needs one: most scans find nothing, and counting
        # the newlines of every window cost some 0.4 ms a MB (5% of a scan). `_line` is the
        # line at buffer position `_line_at`, plus the newlines of `_held[1:]` in `_held[0]`, an
        # earlier buffer not counted yet (see `_hold_uncounted`).
        self._line = 1
        self._line_at = 0
        self._held: tuple[bytes, int, int] | None = None
        self._fed_callers_bytes = False
        self._deferred = False
        self._found: dict[tuple[int, int], SecretMatch] = {}
        self._counted = (-1, 0)  # (buffer position, its line) of the last finding
        self._finished = False

    def feed(self, data: bytes) -> None:
        if self._finished:
            raise RuntimeError("feed() after finish()")
        if not data:
            return
        if self._deferred:
            self._deferred = False
            self._scan(final=False)  # the piece fed before, as it would have been then
        piece = bytes(data)
        self._pending.append(piece)
        self._fed_callers_bytes = piece is data  # not a copy of ours
        self._pending_bytes += len(data)
        unscanned = len(self._buffer) - self._scan_from + self._pending_bytes
        if unscanned >= WINDOW_BYTES + OVERLAP_BYTES:
            if not self._buffer and len(self._pending) == 1 and self._fed_callers_bytes:
                # A first piece of the caller's own: if `finish()` comes next (`match_bytes`),
                # it is scanned whole once, not up to its last window here and that window's
                # bytes lowered, classed and copied a second time there. Nothing is copied
                # while it waits, and the windows fall where they would have.
                self._deferred = True
            else:
                self._scan(final=False)

    def finish(self) -> list[SecretFinding]:
        return findings_of(self.finish_matches())

    def finish_matches(self) -> list[SecretMatch]:
        if not self._finished:
            self._scan(final=True)
            self._finished = True
            self._buffer = b""
            self._held = None
        return sorted(self._found.values(), key=lambda m: (m.start, m.end, m.rule))

    def _scan(self, *, final: bool) -> None:
        self._counted = (-1, 0)  # buffer positions change below
        # Without the empty pieces, a stream fed in one piece is scanned as it is (`join` of a
        # single piece returns it): no copy of the whole input.
        pieces = [piece for piece in (self._buffer, *self._pending) if piece]
        buffer = b"".join(pieces)
        fed_whole = len(pieces) == 1 and buffer is not self._buffer and self._fed_callers_bytes
        self._pending.clear()
        self._pending_bytes = 0
        lowered = buffer.lower()  # ASCII-only: positions are unchanged
        classes = buffer.translate(_TOKEN_CLASSES)  # for the base64 tokens
        start = self._scan_from
        while start < len(buffer):
            if len(buffer) - start >= WINDOW_BYTES + OVERLAP_BYTES:
                end = start + WINDOW_BYTES
                limit = end + OVERLAP_BYTES
            elif final:
                end = limit = len(buffer)
            else:
                break
            self._scan_window(buffer, lowered, classes, start, end, limit)
            start = end
        keep_from = max(0, start - CONTEXT_BYTES)
        self._hold_uncounted(buffer, start, kept=fed_whole)
        self._line_at = start - keep_from
        self._buffer = buffer[keep_from:]
        self._offset += keep_from
        self._scan_from = start - keep_from

    def _hold_uncounted(self, buffer: bytes, end: int, *, kept: bool) -> None:
        """Leave the newlines of `buffer[_line_at:end]`, which is about to be dropped, to be
        counted when a finding needs them. At most one earlier buffer is held: one held before
        is counted now. A buffer larger than `_MAX_HELD_BYTES` is counted now too, unless it is
        the piece the caller fed (`kept`: a scan of one piece, `match_bytes`, holds nothing the
        caller does not hold)."""
        if self._held is not None:
            self._count_held()
        if self._line_at >= end:
            return
        if kept or len(buffer) <= _MAX_HELD_BYTES:
            self._held = (buffer, self._line_at, end)
        else:
            self._line += buffer.count(b"\n", self._line_at, end)

    def _count_held(self) -> None:
        if self._held is not None:
            held, start, end = self._held
            self._line += held.count(b"\n", start, end)
            self._held = None

    def _line_of(self, buffer: bytes, position: int) -> int:
        """The line at `position` of `buffer`, at or after `_line_at`; counted on from there."""
        self._count_held()
        self._line += buffer.count(b"\n", self._line_at, position)
        self._line_at = position
        return self._line

    def _scan_window(
        self, buffer: bytes, lowered: bytes, classes: bytes, start: int, end: int, limit: int
    ) -> None:
        """Record the matches that start in [start, end), reading up to `limit`."""
        honour = self._honour_markers
        for match_start, match_end, kind, rule, value_start, value_end in _hits(
            self._patterns, buffer, lowered, start, end, limit
        ):
            if honour and _allowed_inline(buffer, match_start, match_end):
                continue
            self._record(
                buffer,
                start,
                match_start,
                kind,
                rule,
                buffer[value_start:value_end],
                value_start,
                value_end,
            )
        for run_start, run_end, text in _base64_runs(buffer, classes, start, end, limit):
            for _, _, kind, rule, value_start, value_end in _hits(
                self._patterns, text, text.lower(), 0, len(text), len(text)
            ):
                if not (honour and _allowed_inline(buffer, run_start, run_end)):
                    self._record(
                        buffer,
                        start,
                        run_start,
                        kind,
                        rule,
                        text[value_start:value_end],
                        run_start,
                        run_end,
                    )
        if buffer.find(b"\x00", start, end) != -1 and _may_hold_utf16le_text(buffer, start, limit):
            for parity in (0, 1):
                first = start + parity
                text = _utf16le_characters(buffer, first, limit)
                text_end = (end - first + 1) // 2  # the characters starting before `end`
                for match_start, match_end, kind, rule, value_start, value_end in _hits(
                    self._patterns, text, text.lower(), 0, text_end, len(text)
                ):
                    if honour and _allowed_inline(text, match_start, match_end):
                        continue
                    self._record(
                        buffer,
                        start,
                        first + 2 * match_start,
                        kind,
                        rule,
                        text[value_start:value_end],
                        first + 2 * value_start,
                        first + 2 * value_end,
                    )

    def _record(
        self,
        buffer: bytes,
        window_start: int,
        position: int,
        kind: SecretKind,
        rule: str,
        value: bytes,
        value_start: int,
        value_end: int,
    ) -> None:
        # Counted on from the last finding when it came before this one (matches come in
        # order within each pattern), so many findings in a window stay linear.
        counted_from, counted_line = self._counted
        if not window_start <= counted_from <= position:
            counted_from, counted_line = window_start, self._line_of(buffer, window_start)
        line = counted_line + buffer.count(b"\n", counted_from, position)
        self._counted = (position, line)
        match = SecretMatch(
            line,
            kind,
            rule,
            fingerprint(rule, value),
            self._offset + value_start,
            self._offset + value_end,
        )
        # One finding per span: the patterns of specific formats come first, so `npm_...` assigned
        # to `NPM_TOKEN` is an npm token, not also a generic token.
        self._found.setdefault((match.start, match.end), match)


def _hits(
    patterns: tuple[SecretPattern, ...],
    text: bytes,
    lowered: bytes,
    start: int,
    end: int,
    limit: int,
) -> Iterator[tuple[int, int, SecretKind, str, int, int]]:
    """(match start, match end, kind, rule, value start, value end) of the classified matches
    that start in [start, end) of `text`."""
    for pattern in patterns:
        searched = lowered if pattern.lower else text
        for match in _matches(pattern, searched, start, limit):
            if match.start() >= end:
                break
            hit = pattern.classify(text, match)
            if hit is not None:
                yield match.start(), match.end(), hit.kind, hit.rule, hit.start, hit.end


def _matches(
    pattern: SecretPattern, searched: bytes, start: int, limit: int
) -> Iterator[re.Match[bytes]]:
    """What `pattern.regex.finditer(searched, start, limit)` gives: the leftmost match from
    `start`, then the leftmost from its end, and so on. With an anchor, by hopping from one
    anchor byte to the next (`bytes.find`, many times faster than the regex engine's scan) and
    trying the regex where a match would start; where the anchor turns out to be common (more
    than one every `MIN_ANCHOR_GAP_BYTES` on average), the rest is left to `finditer`."""
    regex = pattern.regex
    finder = pattern.finder
    if finder is not None:
        yield from _found_from_rare_byte(pattern, finder, searched, start, limit)
        return
    anchor = pattern.anchor
    if not anchor:
        yield from regex.finditer(searched, start, limit)
        return
    offset = pattern.anchor_offset
    companion = pattern.companion
    reach = pattern.companion_reach
    find = searched.find
    match_at = regex.match
    position = start
    hops = 0
    while True:
        found = find(anchor, position + offset, limit)
        if found == -1:
            return
        candidate = found - offset
        hops += 1
        if hops > _HOPS_BEFORE_GAP_CHECK and candidate - start < hops * MIN_ANCHOR_GAP_BYTES:
            yield from regex.finditer(searched, candidate, limit)
            return
        if companion:
            held = find(companion, candidate, limit)
            if held == -1:
                return  # no match from here on holds it
            if held > candidate + reach:
                # No match starts before `held - reach`: it would hold no companion.
                position = held - reach
                continue
        match = match_at(searched, candidate, limit)
        if match is None:
            position = candidate + 1
        else:
            yield match
            position = match.end()


def _found_from_rare_byte(
    pattern: SecretPattern, finder: re.Pattern[bytes], searched: bytes, start: int, limit: int
) -> Iterator[re.Match[bytes]]:
    """`pattern.regex`'s matches, found by its `finder` (which matches where the regex does,
    `finder_offset` bytes later): searching from `offset` past where the regex would search
    finds the same leftmost match, and the regex is asked for it there (for its groups)."""
    offset = pattern.finder_offset
    search = finder.search
    match_at = pattern.regex.match
    position = start
    while True:
        found = search(searched, position + offset, limit)
        if found is None:
            return
        match = match_at(searched, found.start() - offset, limit)
        if match is None:  # cannot happen: the finder reads the same bytes
            raise AssertionError(f"finder and regex disagree at {found.start() - offset}")
        yield match
        position = match.end()


def _allowed_inline(text: bytes, start: int, end: int) -> bool:
    """Whether the allow marker is on the match's line, within reach of it."""
    before = text.rfind(b"\n", max(0, start - MARKER_REACH_BYTES), start) + 1
    after = text.find(b"\n", end, end + MARKER_REACH_BYTES)
    region = text[
        max(before, start - MARKER_REACH_BYTES) : after if after != -1 else end + MARKER_REACH_BYTES
    ]
    return _MARKER in region


def _base64_runs(
    buffer: bytes, classes: bytes, start: int, end: int, limit: int
) -> Iterator[tuple[int, int, bytes]]:
    """(start, end, decoded text) of the base64 tokens starting in [start, end) that decode to
    ASCII text worth scanning.

    A token is a run of base64 characters standing on its own: after the start of the stream, a
    blank, a quote or `= : , ; ( ) [ ] { } < >`, and before one of those (or its `=` padding).
    `JobHistoryEventHandler` after a `.`, or a path's piece after a `/`, is no token: most long
    words in logs and code are never looked at. A run longer than `MAX_BASE64_CHARS` (an image,
    an archive) is not looked into: a window always sees that much of a run that starts in it,
    so whether it is looked into does not depend on where the windows fall."""
    # `classes` has each byte's class: `A` for base64, a blank for an edge, `.` for any other. A
    # token starts after an edge followed by `MIN_BASE64_CHARS` base64 bytes, which `find` finds
    # at memory-search speed: runs glued to the word before them (most long words of logs and
    # code) are never visited in Python. The stream's start counts as an edge, and so does
    # `limit` (a run cut there ends there).
    find = classes.find
    if start == 0 and classes.startswith(_BASE64_SEED, 0, limit):
        run_start = 0
    else:
        run_start = _after_edge(find, max(start - 1, 0), limit)
    while 0 <= run_start < end:
        token = run_start
        reach = token + MAX_BASE64_CHARS + 1
        after = _NOT_BASE64_CLASS.search(classes, token + MIN_BASE64_CHARS, min(reach, limit))
        if after is None and reach <= limit:
            run_start = _after_edge(find, reach - 1, limit)
            continue  # too long: an image, an archive
        run_end = limit if after is None else after.start()
        run_start = _after_edge(find, run_end, limit)
        if run_end < limit and classes[run_end] != _EDGE_CLASS:
            continue  # glued to what follows
        run = buffer[token:run_end]
        # Base64 of ASCII text: every 4-character group starts with A-Z or a-f (a byte < 0x80
        # has its top bit clear). Words and identifiers rarely pass, and nothing is decoded.
        if len(run) % 4 == 1 or run.isalpha() or run[::4].translate(None, _GROUP_STARTS):
            continue
        decoded = binascii.a2b_base64(run + b"=" * (-len(run) % 4))
        if not decoded.translate(None, _PRINTABLE):
            padding = buffer[run_end : run_end + 2]
            yield token, run_end + len(padding) - len(padding.lstrip(b"=")), decoded


def _after_edge(find: Callable[[bytes, int, int], int], position: int, limit: int) -> int:
    """Where the next token after an edge at or after `position` starts, or -1."""
    edge = find(_TOKEN_START, position, limit)
    return -1 if edge == -1 else edge + 1


def _may_hold_utf16le_text(buffer: bytes, start: int, limit: int) -> bool:
    """Whether `buffer[start:limit]` holds three printable ASCII characters in a row in
    UTF-16LE, each followed by a NUL: every match of every pattern holds three such characters
    (its literal), so a window of a binary without them needs no UTF-16LE pass (two more
    passes of every pattern, over half a window each)."""
    return buffer[start:limit].translate(_UTF16LE_CLASSES).find(_UTF16LE_TRIGRAM) != -1


def _utf16le_characters(buffer: bytes, first: int, limit: int) -> bytes:
    """The bytes at `first`, `first + 2`, ... before `limit`, each kept where the byte after it
    is a NUL (a UTF-16LE ASCII character) and made a NUL elsewhere, which no pattern matches
    across. Done on integers as wide as the window (each byte's lane at once), not byte by byte
    in Python, nor with a regex for `(.\\0)+` that would try every position of every binary."""
    characters = buffer[first:limit:2]
    partners = buffer[first + 1 : limit : 2]
    size = len(partners)
    characters = characters[:size]
    if not size:
        return b""
    low7 = int.from_bytes(b"\x7f" * size, "little")
    high = int.from_bytes(b"\x80" * size, "little")
    value = int.from_bytes(partners, "little")
    # A lane's high bit: set when its partner byte is not 0 (no carry leaves a lane).
    nonzero = ((value & low7) + low7 | value) & high
    keep = ~((nonzero >> 7) * 0xFF)
    kept = int.from_bytes(characters, "little") & keep & ((1 << (8 * size)) - 1)
    return kept.to_bytes(size, "little")
