"""Bounded previews: the head and the tail of an output, safe to show a model.

Cut on UTF-8 character boundaries (a character split by the byte limit is dropped, not mangled);
other invalid bytes become U+FFFD. Control characters are shown, not obeyed: a binary output's
ESC sequences would otherwise drive the terminal of whoever reads the preview (and a bidi
override would reorder the text a reviewer sees), so each C0 control but tab, newline and the
CR of a CRLF is shown as its Unicode control picture (ESC as ␛), DEL as ␡, and C1 and bidi
controls as U+FFFD; one character each, so the bounds hold. Lines that a secret scanner flags
are withheld (a stored artifact had no findings, but a preview's cut can make a fragment look
different, and the preview rule is absolute). The tail is always there: the end of an output
is where failures are reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cleveragents.application.ports.secret_scanner import SecretScanner

WITHHELD = "[line withheld: flagged as a possible credential]"

_KEPT_CONTROLS = frozenset({0x09, 0x0A, 0x0D})  # tab, newline; CR only before a newline
_SHOWN_CONTROLS = {
    **{code: 0x2400 + code for code in range(0x20) if code not in _KEPT_CONTROLS},
    0x7F: 0x2421,  # ␡
    **dict.fromkeys(range(0x80, 0xA0), 0xFFFD),  # C1: CSI (0x9B) starts escape sequences too
    **dict.fromkeys((*range(0x202A, 0x202F), *range(0x2066, 0x206A)), 0xFFFD),  # bidi
}
_LONE_CR = re.compile(r"\r(?!\n)")


@dataclass(frozen=True, slots=True)
class PreviewText:
    head: str
    tail: str
    omitted_bytes: int
    withheld_lines: int
    omitted_offset: int = 0  # the byte offset of the first omitted byte (after the head's bytes)


def build_preview(
    head: bytes, tail: bytes, total_bytes: int, scanner: SecretScanner
) -> PreviewText:
    """`head` is the first bytes of the output and `tail` its last bytes (they may overlap when
    the output is small: then the whole output is the head and the tail is empty)."""
    if total_bytes <= len(head) + len(tail):
        whole = _whole(head, tail, total_bytes)
        text, withheld = _withhold(whole.decode("utf-8", errors="replace"), scanner)
        return PreviewText(_shown(text), "", 0, withheld)
    head, tail = _cut_end(head), _cut_start(tail)
    head_text, head_withheld = _withhold(head.decode("utf-8", "replace"), scanner)
    tail_text, tail_withheld = _withhold(tail.decode("utf-8", "replace"), scanner)
    omitted = total_bytes - len(head) - len(tail)  # including a split character's bytes
    withheld = head_withheld + tail_withheld
    return PreviewText(_shown(head_text), _shown(tail_text), omitted, withheld, len(head))


def _shown(text: str) -> str:
    """`text` with its control characters shown as harmless characters (see the module)."""
    text = text.translate(_SHOWN_CONTROLS)
    return _LONE_CR.sub("\u240d", text) if "\r" in text else text


def _whole(head: bytes, tail: bytes, total: int) -> bytes:
    if len(head) >= total:
        return head[:total]
    overlap = len(head) + len(tail) - total
    return head + tail[overlap:]


def _cut_end(data: bytes) -> bytes:
    """Drop an incomplete multi-byte character at the end."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte < 0x80:
            return data  # ASCII: complete
        if byte >= 0xC0:  # a lead byte: is its sequence complete?
            needed = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return data if back >= needed else data[:-back]
    return data


def _cut_start(data: bytes) -> bytes:
    """Drop continuation bytes of a character that began before the tail."""
    start = 0
    while start < min(3, len(data)) and 0x80 <= data[start] < 0xC0:
        start += 1
    return data[start:]


def _withhold(text: str, scanner: SecretScanner) -> tuple[str, int]:
    findings = scanner.scan_text(text)
    if not findings:
        return text, 0
    flagged = {finding.line for finding in findings}
    lines = text.split("\n")
    for number in flagged:
        if 0 < number <= len(lines):
            lines[number - 1] = WITHHELD
    return "\n".join(lines), len(flagged)
