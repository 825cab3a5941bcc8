"""Credentials redacted from an artifact before it is compressed, line numbers kept.

A judge reads what compression prints; a key in a log must not reach it. The whole artifact is
scanned once; on each flagged line the credential is replaced by ``[REDACTED:<kind>]`` (the
kind named, the value never: the masking of the compaction summaries). A private key's BEGIN
line becomes the placeholder and the key's other lines become empty, so every later line keeps
its number and the omission markers' line ranges still point at the right lines.
"""

from __future__ import annotations

import re

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.services.compaction.summary_redaction import (
    Redactions,
    placeholder,
    redact_line,
)
from cleveragents.domain.secrets import SecretKind

_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY")


def redact_artifact(text: str, scanner: SecretScanner) -> str:
    """`text` with its credentials redacted; `text` itself when none is found."""
    findings = scanner.scan_text(text)
    if not findings:
        return text
    lines = text.split("\n")
    redactions = Redactions()
    keys = {finding.line - 1 for finding in findings if finding.kind is SecretKind.PRIVATE_KEY}
    cleared: set[int] = set()
    for index in sorted({finding.line - 1 for finding in findings}):
        if index in cleared or index >= len(lines):
            continue
        if index in keys:
            cleared.update(_clear_key(lines, index))
        else:
            lines[index] = redact_line(lines[index], scanner, redactions)
    return "\n".join(lines)


def _clear_key(lines: list[str], start: int) -> range:
    """The key from its BEGIN line through its END line (or the end): the first line becomes
    the placeholder, the others empty. Returns the lines cleared."""
    end = start
    while end < len(lines) and not _KEY_END.search(lines[end]):
        end += 1
    end = min(end, len(lines) - 1)
    lines[start] = placeholder(SecretKind.PRIVATE_KEY)
    for index in range(start + 1, end + 1):
        lines[index] = ""
    return range(start, end + 1)
