"""The built-in secret scanner: precompiled credential patterns over a byte stream.

The stream is scanned in fixed windows of `WINDOW_BYTES` at absolute offsets, each read with
`OVERLAP_BYTES` of what follows (more than the longest possible match) and a little of what
precedes (for the patterns' left word boundaries). A match belongs to the window it starts in, so
every match is found whole exactly once, whatever the chunk sizes handed to `feed()`: a key split
across two chunks is found, and the findings depend only on the bytes. A very long line is just
more windows, so time stays linear and memory bounded by about one window, however long a line.

No decoding: every credential format is ASCII, so invalid UTF-8 is bytes that match nothing and
never stops the scan. Lines are counted by `\\n` (a `\\r\\n` file counts the same; a lone `\\r` does
not end a line).
"""

from __future__ import annotations

from cleveragents.adapters.secrets.secret_patterns import MAX_MATCH_BYTES, PATTERNS, SecretPattern
from cleveragents.application.ports.secret_scanner import SecretScan, SecretScanner
from cleveragents.domain.secrets import SecretFinding

WINDOW_BYTES = 256 * 1024
# The window ahead: a match starting in a window ends, with the byte or two its pattern and
# validator look at after it, inside the window plus this.
OVERLAP_BYTES = MAX_MATCH_BYTES + 64
# Kept before the next window for lookbehinds and the validators' look at the preceding byte.
CONTEXT_BYTES = 16


class PatternSecretScanner(SecretScanner):
    """Finds AWS, GitHub, OpenAI, Anthropic, Slack, Stripe and Google keys, private keys, JWTs,
    passwords in URLs, bearer tokens and high-entropy password/secret/token assignments."""

    def __init__(self, patterns: tuple[SecretPattern, ...] = PATTERNS) -> None:
        self._patterns = patterns

    @property
    def name(self) -> str:
        return "builtin"

    def start(self) -> SecretScan:
        return _PatternScan(self._patterns)


class _PatternScan(SecretScan):
    def __init__(self, patterns: tuple[SecretPattern, ...]) -> None:
        self._patterns = patterns
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        # Some bytes of context, then the bytes not yet scanned, from `_scan_from` on.
        self._buffer = b""
        self._scan_from = 0
        self._line = 1  # the line number at `_scan_from`
        self._found: set[SecretFinding] = set()
        self._finished = False

    def feed(self, data: bytes) -> None:
        if self._finished:
            raise RuntimeError("feed() after finish()")
        if not data:
            return
        self._pending.append(bytes(data))
        self._pending_bytes += len(data)
        unscanned = len(self._buffer) - self._scan_from + self._pending_bytes
        if unscanned >= WINDOW_BYTES + OVERLAP_BYTES:
            self._scan(final=False)

    def finish(self) -> list[SecretFinding]:
        if not self._finished:
            self._scan(final=True)
            self._finished = True
            self._buffer = b""
        return sorted(self._found)

    def _scan(self, *, final: bool) -> None:
        buffer = b"".join([self._buffer, *self._pending])
        self._pending.clear()
        self._pending_bytes = 0
        lowered = buffer.lower()  # ASCII-only: positions are unchanged
        start = self._scan_from
        while start < len(buffer):
            if len(buffer) - start >= WINDOW_BYTES + OVERLAP_BYTES:
                end = start + WINDOW_BYTES
                limit = end + OVERLAP_BYTES
            elif final:
                end = limit = len(buffer)
            else:
                break
            self._scan_window(buffer, lowered, start, end, limit)
            self._line += buffer.count(b"\n", start, end)
            start = end
        keep_from = max(0, start - CONTEXT_BYTES)
        self._buffer = buffer[keep_from:]
        self._scan_from = start - keep_from

    def _scan_window(self, buffer: bytes, lowered: bytes, start: int, end: int, limit: int) -> None:
        """Record the matches that start in [start, end), reading up to `limit`."""
        for pattern in self._patterns:
            text = lowered if pattern.lower else buffer
            line, counted_to = self._line, start
            for match in pattern.regex.finditer(text, start, limit):
                if match.start() >= end:
                    break
                kind = pattern.classify(buffer, match)
                if kind is None:
                    continue
                line += buffer.count(b"\n", counted_to, match.start())
                counted_to = match.start()
                self._found.add(SecretFinding(line, kind))
