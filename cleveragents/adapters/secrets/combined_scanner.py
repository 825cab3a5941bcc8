"""Several scanners over one stream: a finding of any of them counts."""

from __future__ import annotations

from cleveragents.adapters.secrets.detect_secrets_scanner import DetectSecretsScanner
from cleveragents.adapters.secrets.pattern_scanner import PatternSecretScanner
from cleveragents.application.ports.secret_scanner import (
    SecretMatch,
    SecretScan,
    SecretScanner,
    findings_of,
)
from cleveragents.domain.errors import InvalidInputError
from cleveragents.domain.secrets import SecretFinding

SCANNER_NAMES = ("builtin", "detect-secrets", "both")


class CombinedSecretScanner(SecretScanner):
    """Every scanner over the same stream; each is asked whether to honour the allow marker
    exactly as this one was, so combining never lets through what one of them alone would
    report."""

    def __init__(self, scanners: tuple[SecretScanner, ...]) -> None:
        self._scanners = scanners

    @property
    def name(self) -> str:
        return "+".join(scanner.name for scanner in self._scanners)

    def start(self, *, honour_allow_markers: bool = False) -> SecretScan:
        return _CombinedScan(
            tuple(
                scanner.start(honour_allow_markers=honour_allow_markers)
                for scanner in self._scanners
            )
        )


class _CombinedScan(SecretScan):
    def __init__(self, scans: tuple[SecretScan, ...]) -> None:
        self._scans = scans

    def feed(self, data: bytes) -> None:
        for scan in self._scans:
            scan.feed(data)

    def finish(self) -> list[SecretFinding]:
        return findings_of(self.finish_matches())

    def finish_matches(self) -> list[SecretMatch]:
        return sorted({match for scan in self._scans for match in scan.finish_matches()})


def make_secret_scanner(name: str) -> SecretScanner:
    """The scanner named by ``$CLEVERAGENTS_SECRET_SCANNER``: ``builtin`` (the default),
    ``detect-secrets`` (needs the optional package), or ``both``."""
    if name == "builtin":
        return PatternSecretScanner()
    if name == "detect-secrets":
        return DetectSecretsScanner()
    if name == "both":
        return CombinedSecretScanner((PatternSecretScanner(), DetectSecretsScanner()))
    raise InvalidInputError(
        f"unknown secret scanner {name!r}: use one of {', '.join(SCANNER_NAMES)}"
    )
