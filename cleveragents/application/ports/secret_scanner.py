"""The secret-scanner port: finds suspected credentials in a stream of bytes."""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from dataclasses import dataclass

from cleveragents.domain.secrets import SecretFinding, SecretKind

# Written by a person on the line of a credential that is meant to be there (a test fixture's
# fake key): that line is not reported, like gitleaks' `gitleaks:allow`, but only by a scan that
# asks for it (`honour_allow_markers`). Anything a tool or a model wrote can print the marker too.
ALLOW_MARKER = "cleveragents:allow-secret"
FINGERPRINT_HEX = 16


def fingerprint(rule: str, value: bytes) -> str:
    """``RULE:HEX``: the rule and the first 64 bits of the SHA-256 of the value. The same
    credential has the same fingerprint in every file, run and machine, so an allowlist can
    name it; the value itself is never kept."""
    digest = hashlib.sha256(b"cleveragents-secret\0" + value).hexdigest()
    return f"{rule}:{digest[:FINGERPRINT_HEX]}"


@dataclass(frozen=True, slots=True, order=True)
class SecretMatch:
    """A finding with what is needed to allowlist or redact it, still holding no part of the
    secret: `rule` is the detailed kind (``npm-auth-token`` or ``password``, where `kind` is
    ``npm-token`` or the broader ``generic-secret``), `fingerprint` names the value, and
    [`start`, `end`) are the byte offsets in the stream to replace (-1, -1 when the scanner
    cannot tell: the line goes)."""

    line: int
    kind: SecretKind
    rule: str
    fingerprint: str
    start: int = -1
    end: int = -1

    @property
    def finding(self) -> SecretFinding:
        return SecretFinding(self.line, self.kind)


class SecretScan(ABC):
    """One scan over a stream fed in chunks of any size.

    A credential split across two chunks is found (implementations carry the unfinished line
    over); invalid UTF-8 does not stop the scan; time is linear in the input (very long lines
    are scanned in overlapping windows, not re-scanned as they grow).
    """

    @abstractmethod
    def feed(self, data: bytes) -> None: ...

    @abstractmethod
    def finish(self) -> list[SecretFinding]:
        """All findings, sorted by line then kind, without duplicates."""

    def finish_matches(self) -> list[SecretMatch]:
        """The findings with their rules, fingerprints and spans, sorted by position. A scanner
        that knows no more than line and kind names the kind and line (and no span)."""
        return [
            SecretMatch(f.line, f.kind, f.kind.value, f"{f.kind.value}:line-{f.line}")
            for f in self.finish()
        ]


def findings_of(matches: list[SecretMatch]) -> list[SecretFinding]:
    """Sorted by line then kind, without duplicates: what `finish()` returns."""
    return sorted({match.finding for match in matches})


class SecretScanner(ABC):
    """Finds suspected credentials. Every scan ignores `ALLOW_MARKER` unless its caller passes
    ``honour_allow_markers=True``, which only text a person wrote deserves: a file of the
    user's own workspace that the user imports by path. Tool output, temporary outputs, standard
    input, transcripts and whatever a model hands over are scanned with the default: a tool
    that prints the marker next to a token must not get the token through."""

    @property
    @abstractmethod
    def name(self) -> str: ...

    @abstractmethod
    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        """A new scan; with `honour_allow_markers`, a match on a line holding `ALLOW_MARKER`
        (near it, as the scanner defines) is not reported."""

    def scan_bytes(self, data: bytes, *, honour_allow_markers: bool = False) -> list[SecretFinding]:
        scan = self.start(honour_allow_markers=honour_allow_markers)
        scan.feed(data)
        return scan.finish()

    def scan_text(self, text: str, *, honour_allow_markers: bool = False) -> list[SecretFinding]:
        return self.scan_bytes(
            text.encode("utf-8", errors="surrogatepass"), honour_allow_markers=honour_allow_markers
        )

    def match_bytes(self, data: bytes, *, honour_allow_markers: bool = False) -> list[SecretMatch]:
        scan = self.start(honour_allow_markers=honour_allow_markers)
        scan.feed(data)
        return scan.finish_matches()
