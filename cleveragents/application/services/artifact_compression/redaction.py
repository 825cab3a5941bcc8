"""Credentials redacted from an artifact before it is compressed, line numbers kept.

A judge reads what compression prints; a key in a log must not reach it. The whole artifact is
scanned once. On each flagged line the credential's characters are replaced by
``[REDACTED:<kind>]`` (the kind named, the value never). Only the credential goes: the quotes,
commas and brackets around it stay, so a JSON document still parses, and a variable's name
before ``=`` or ``:`` stays readable. A line that still holds a finding after that is replaced
whole.

A private key goes from its BEGIN line through its body (the base64 lines, up to its END
line): the BEGIN line's key becomes the placeholder, the other lines become empty, so every
later line keeps its number and the omission markers' line ranges still point at the right
lines. A line that only mentions a key header (code testing for one) loses the header, not the
lines after it. A key written on one line (a JSON string with ``\\n`` escapes) is replaced
within that line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.domain.secrets import SecretKind, redaction_placeholder

_CORE = re.compile(r"[^\s\"'`,;{}\[\]()<>]+")
"""A word without the punctuation that may surround a credential in code and JSON."""
_NAME_PREFIX = re.compile(r"^[A-Za-z_][\w.-]*[=:]")
_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")
_KEY_ONE_LINE = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY"
    r"( BLOCK)?-----|$)"
)
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY")
_KEY_BODY = re.compile(r"[A-Za-z0-9+/=]{16,}|(?:Proc-Type|DEK-Info|Comment): .*|")
"""A key's body line: base64, a PEM header such as ``Proc-Type: 4,ENCRYPTED``, or blank."""
MAX_CORES_MASKED = 200
"""On a flagged line with more words than this, only words flagged on their own are masked
(masking each word in its context would scan the line once per word)."""


def redact_artifact(text: str, scanner: SecretScanner) -> str:
    """`text` with its credentials redacted; `text` itself when none is found."""
    findings = scanner.scan_text(text)
    if not findings:
        return text
    lines = text.split("\n")
    keys = {finding.line - 1 for finding in findings if finding.kind is SecretKind.PRIVATE_KEY}
    cleared: set[int] = set()
    for index in sorted({finding.line - 1 for finding in findings}):
        if index in cleared or index >= len(lines):
            continue
        if index in keys and _KEY_BEGIN.search(lines[index]):
            cleared.update(_clear_key(lines, index))
        lines[index] = redact_line(lines[index], scanner)
    return "\n".join(lines)


def redact_line(line: str, scanner: SecretScanner) -> str:
    """One line with its credentials masked, the punctuation around them kept."""
    if not _kinds(line, scanner):
        return line
    line = _KEY_ONE_LINE.sub(redaction_placeholder(SecretKind.PRIVATE_KEY.value), line)
    cores = list(_CORE.finditer(line))
    in_context = len(cores) <= MAX_CORES_MASKED
    for core in reversed(cores):  # from the right: earlier offsets stay valid
        if not _kinds(line, scanner):
            return line
        start, end = core.span()
        word = line[start:end]
        prefix = _NAME_PREFIX.match(word)
        keep = prefix.end() if prefix and prefix.end() < len(word) else 0
        value = word[keep:]
        if value.startswith("[REDACTED:") or not value:
            continue
        before = _kinds(line, scanner) if in_context else _kinds(value, scanner)
        after = _kinds(line[: start + keep] + line[end:], scanner) if in_context else set()
        lost = before - after
        if lost:
            kind = min(lost, key=lambda found: found.value)
            line = line[: start + keep] + redaction_placeholder(kind.value) + line[end:]
    if _kinds(line, scanner):
        kinds = sorted(_kinds(line, scanner), key=lambda found: found.value)
        return redaction_placeholder(kinds[0].value)
    return line


def without_key_bodies(lines: Iterable[str]) -> Iterator[str]:
    """`lines` (with their endings) with the body and END lines of every private key made
    empty (the ending kept): for a stream read line by line, where a key's body lines are
    never seen next to its BEGIN line. The BEGIN line is left for `redact_line`."""
    in_key = False
    for line in lines:
        content = line.rstrip("\r\n")
        ending = line[len(content) :]
        if in_key:
            if _KEY_END.search(content):
                in_key = False
                yield ending
                continue
            if _KEY_BODY.fullmatch(content.strip()):
                yield ending
                continue
            in_key = False
        if _KEY_BEGIN.search(content) and not _KEY_END.search(content):
            in_key = True
        yield line


def _clear_key(lines: list[str], start: int) -> range:
    """The key's body and END lines after its BEGIN line `start`, made empty; a line that is
    not a key's ends it. Returns the lines cleared."""
    index = start + 1
    while index < len(lines):
        content = lines[index].strip()
        if _KEY_END.search(content):
            lines[index] = ""
            index += 1
            break
        if not _KEY_BODY.fullmatch(content):
            break
        lines[index] = ""
        index += 1
    return range(start + 1, index)


def _kinds(text: str, scanner: SecretScanner) -> set[SecretKind]:
    return {finding.kind for finding in scanner.scan_text(text)}
