"""Credentials redacted from an artifact before it is compressed, line numbers kept.

A judge reads what compression prints; a key in a log must not reach it. The whole artifact is
scanned once and each credential loses its whole value to ``[REDACTED:<kind>]`` (the kind
named, the value never), in time linear in the artifact's length: the span redaction of
`governance.text_redaction`. Only the value goes: the quotes, commas and brackets around it
stay, so a JSON document still parses, and a variable's name before ``=`` or ``:`` stays
readable. A private key goes from its header through its END line: the header's line holds the
placeholder, its body and END lines become empty, so every later line keeps its number and the
omission markers' line ranges still point at the right lines.

A file too large to hold is read line by line, where a key's body lines are never seen beside
its header: `without_key_bodies` empties them as they stream by.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from cleveragents.application.ports.secret_scanner import SecretScanner
from cleveragents.application.services.governance.text_redaction import redact_document

_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")
_KEY_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY")
_KEY_BODY = re.compile(r"[A-Za-z0-9+/=]{16,}|(?:Proc-Type|DEK-Info|Comment): .*|")
"""A key's body line: base64, a PEM header such as ``Proc-Type: 4,ENCRYPTED``, or blank."""


def redact_artifact(text: str, scanner: SecretScanner) -> str:
    """`text` with its credentials redacted whole; `text` itself when none is found."""
    return redact_document(text, scanner).text


def without_key_bodies(lines: Iterable[str]) -> Iterator[str]:
    """`lines` (with their endings) with the body and END lines of every private key made
    empty (the ending kept): for a stream read line by line, where a key's body lines are
    never seen next to its BEGIN line. The BEGIN line is left for `redact_artifact`."""
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
