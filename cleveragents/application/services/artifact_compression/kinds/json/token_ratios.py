"""JSON artifacts, smart mode: tokens per character of the document in either layout (its own:
its whole count; the other: evenly spread windows of the input, rewritten), so candidates are
sized before they are counted."""

from __future__ import annotations

import json
import re
from functools import partial

from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.services.artifact_compression.kinds.json.facts import encode_string
from cleveragents.application.services.artifact_compression.kinds.json.writing import cut_string

_SAMPLE_WINDOWS = 8
_MAX_SAMPLE_WINDOWS = 32
_SAMPLE_CHARS = 2048


def sample_ratio(counter: TokenCounter, text: str) -> float:
    """Tokens per character of `text`: exact for a short text, else from evenly spread
    windows."""
    if not text:
        return 1.0
    if len(text) <= 2 * _SAMPLE_WINDOWS * _SAMPLE_CHARS:
        return counter.count(text) / len(text)
    return _ratio_of(counter, _windows(text, lines=False))


class LayoutRatios:
    """Tokens per character of the document written pretty and compact, each counted when first
    needed: in the input's own layout from its whole count; a pretty input's compact ratio
    from windows of it, whole lines, whose strings are whole, so dropping their whitespace
    outside strings shows the compact ratio."""

    def __init__(self, counter: TokenCounter, text: str, *, pretty: bool) -> None:
        self._counter = counter
        self._text = text
        self._pretty_input = pretty
        self._windows: list[str] | None = None
        self._compacted: list[str] | None = None
        self._ratios: dict[bool, float] = {}
        self._cut: dict[int, float] = {}
        self._compact_cut: dict[int, float] = {}
        self._one_line: list[str] | None = None

    def __getitem__(self, pretty: bool) -> float:
        if pretty not in self._ratios:
            self._ratios[pretty] = self._measure(pretty=pretty)
        return self._ratios[pretty]

    def compacted_share(self) -> float:
        """The share of a pretty input's characters its compact rendering keeps, from the
        windows (an estimate: escapes and numbers may be written otherwise); 1 for a
        compact input."""
        if not self._pretty_input:
            return 1.0
        windows, compacted = self._windows_of_input(), self._compacted_windows()
        chars = sum(map(len, windows))
        return sum(map(len, compacted)) / chars if chars else 1.0

    def bare_strings(self) -> float:
        """Tokens per character of the input's windows with every value string longer than a
        word written as a bare `…`, as the levels that keep key paths and no values write
        them: on a document of long hashes or encoded blobs, well below its own ratio.
        (Keys stay: a string followed by `:` is one.) A pretty input's windows are pretty."""
        return self.cut_strings(0)  # limit 0: `cut_string` writes a bare `…`

    def cut_strings(self, limit: int) -> float:
        """Tokens per character of the input's windows with every value string longer than
        `limit` cut as that string limit cuts it (`writing.cut_string`). A pretty input's
        windows are pretty."""
        found = self._cut.get(limit)
        if found is None:
            found = self._cut[limit] = self._cut_ratio(self._windows_of_input(), limit)
        return found

    def compact_cut_strings(self, limit: int) -> float:
        """Tokens per character of the input's windows written compact, with every value
        string longer than `limit` cut as that string limit cuts it."""
        found = self._compact_cut.get(limit)
        if found is None:
            windows = self._compacted_windows() if self._pretty_input else self._one_line_windows()
            found = self._compact_cut[limit] = self._cut_ratio(windows, limit)
        return found

    def _cut_ratio(self, windows: list[str], limit: int) -> float:
        """Tokens per character of `windows` with every value string longer than `limit`
        cut as that string limit cuts it."""
        cut = partial(_cut_value, limit)
        return _ratio_of(self._counter, [_LONG_VALUE.sub(cut, window) for window in windows])

    def _one_line_windows(self) -> list[str]:
        """A one-line input's windows, each from a member's value on (where a string is
        known not to be open) and compacted."""
        if self._one_line is None:
            self._one_line = [
                _INSIGNIFICANT.sub(_keep_strings, window)
                for window in _windows(self._text, lines=False, at_values=True)
            ]
        return self._one_line

    def _measure(self, *, pretty: bool) -> float:
        if pretty or not self._pretty_input:
            # The input's own layout: its whole count, exact, which the compression took
            # first (a counter that remembers gives it again without encoding; samples would
            # encode a fifth to all of a document of 35-150 KB again).
            return self._counter.count(self._text) / len(self._text) if self._text else 1.0
        return _ratio_of(self._counter, self._compacted_windows())

    def _windows_of_input(self) -> list[str]:
        if self._windows is None:
            self._windows = _windows(self._text, lines=True)
        return self._windows

    def _compacted_windows(self) -> list[str]:
        if self._compacted is None:
            self._compacted = [
                _INSIGNIFICANT.sub(_keep_strings, window) for window in self._windows_of_input()
            ]
        return self._compacted


_INSIGNIFICANT = re.compile(r'("(?:[^"\\]|\\.)*")|[ \t\n\r]+')
# A JSON string and, when it is a key, the colon after it.
_LONG_VALUE = re.compile(r'"(?:[^"\\]|\\.)*"(\s*:)?')


def _cut_value(limit: int, match: re.Match[str]) -> str:
    written = match.group(0)
    if match.group(1) is not None or len(written) - 2 <= limit:
        return written  # a key, or no longer than the limit even escaped
    try:
        value = json.loads(written)
    except ValueError:
        return written  # a window's edge inside a string
    if not isinstance(value, str) or len(value) <= limit:
        return written
    return str(encode_string(cut_string(value, limit)))


def _keep_strings(match: re.Match[str]) -> str:
    return match.group(1) or ""


def _windows(text: str, *, lines: bool, at_values: bool = False) -> list[str]:
    """Pieces of about `_SAMPLE_CHARS` evenly spread over `text` (all of it when short):
    `_SAMPLE_WINDOWS`, or one every 128 KiB of a long text (`_MAX_SAMPLE_WINDOWS` at most),
    cut at line ends when `lines`. With `at_values`, each but the first starts after the next
    key's end (`_after_a_key`), where no string is open, so the strings after it pair up."""
    if len(text) <= 2 * _SAMPLE_WINDOWS * _SAMPLE_CHARS:
        return [text]
    count = min(_MAX_SAMPLE_WINDOWS, max(_SAMPLE_WINDOWS, len(text) >> 17))
    step = (len(text) - _SAMPLE_CHARS) // (count - 1)
    windows = []
    for index in range(count):
        start, end = index * step, index * step + _SAMPLE_CHARS
        if lines:
            start = text.find("\n", start) + 1 if index else 0
            found = text.find("\n", end)
            end = found if found != -1 else len(text)
        elif at_values and index:
            start = _after_a_key(text, start, end)
        windows.append(text[start:end])
    return [window for window in windows if window]


def _after_a_key(text: str, start: int, end: int) -> int:
    """The offset just after the first key's end (`":`) in `text[start:end]`, `end` when there
    is none. A quote a backslash escapes ends nothing (an odd run of backslashes before it);
    an unescaped quote that opens a string beginning with a colon (`":x"`) is not told apart,
    which only makes the window's estimate rougher."""
    found = text.find('":', start, end)
    while found != -1:
        before = found
        while before > 0 and text[before - 1] == "\\":
            before -= 1
        if (found - before) % 2 == 0:
            return found + 2
        found = text.find('":', found + 1, end)
    return end


def _ratio_of(counter: TokenCounter, windows: list[str]) -> float:
    chars = sum(map(len, windows))
    return sum(map(counter.count, windows)) / chars if chars else 1.0
