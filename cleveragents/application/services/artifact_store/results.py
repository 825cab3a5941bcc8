"""What the artifact store answers: import results, cleanup reports, and its own errors."""

from __future__ import annotations

from dataclasses import dataclass

from cleveragents.application.ports.secret_scanner import SecretMatch
from cleveragents.application.services.governance.secret_allowlist import DEFAULT_ALLOWLIST_PATH
from cleveragents.domain.errors import InvalidInputError, NotFoundError
from cleveragents.domain.secrets import SecretFinding
from cleveragents.domain.stored_artifact import ArtifactPreview, ArtifactStatus, StoredArtifact
from cleveragents.domain.vocabulary import SecretHandling as SecretHandling  # noqa: PLC0414

# A finding on this line is in the output's name, not in its content.
NAME_LINE = 0


class ArtifactNotStoredError(NotFoundError):
    """The artifact exists only as an audit row (blocked, or expired by retention)."""


class ReferenceRefusedError(InvalidInputError):
    """A temporary-output reference that the store did not issue, or already used, or expired.
    The message never says which: a forger learns nothing."""


@dataclass(frozen=True, slots=True)
class ImportResult:
    artifact: StoredArtifact
    preview: ArtifactPreview | None  # None when blocked
    # What was found (blocked) or replaced (redacted), with fingerprints for an allowlist.
    # Never stored: a fingerprint is a hash of the secret.
    matches: tuple[SecretMatch, ...] = ()

    @property
    def blocked(self) -> bool:
        return self.artifact.status is ArtifactStatus.BLOCKED

    @property
    def redacted(self) -> bool:
        return not self.blocked and bool(self.artifact.findings)

    @property
    def fingerprints(self) -> tuple[str, ...]:
        return tuple(sorted({match.fingerprint for match in self.matches}))

    @property
    def notice(self) -> str:
        if not self.artifact.findings:
            return f"stored artifact {self.artifact.id}"
        rules = ", ".join(sorted({m.rule for m in self.matches})) or ", ".join(
            sorted({f.kind.value for f in self.artifact.findings})
        )
        where = _where(self.artifact.findings)
        if self.redacted:
            return f"stored artifact {self.artifact.id} with credentials redacted ({rules}) {where}"
        allow = (
            # The workspace's file, or the one --allowlist names (the result does not know
            # which was used: both are said).
            f"; to allow them, add their fingerprints to the allowlist ({DEFAULT_ALLOWLIST_PATH}"
            " or --allowlist FILE): " + ", ".join(self.fingerprints)
            if self.fingerprints
            else ""
        )
        return (
            f"blocked: {self.artifact.workspace_path} looks like it contains credentials "
            f"({rules}) {where}; nothing was stored (audit row {self.artifact.id}; "
            f"--secrets redact stores it with them replaced){allow}"
        )


def _where(findings: tuple[SecretFinding, ...]) -> str:
    lines = sorted({f.line for f in findings if f.line != NAME_LINE})
    parts = []
    if any(f.line == NAME_LINE for f in findings):
        parts.append("in its file name")
    if lines:
        parts.append("on line(s) " + ", ".join(str(line) for line in lines))
    return " and ".join(parts)


@dataclass(frozen=True, slots=True)
class CleanupReport:
    expired: tuple[StoredArtifact, ...]
    freed_bytes: int
    orphan_blobs: int
    dry_run: bool
    stale_temp_outputs: int = 0
    orphan_temp_outputs: int = 0  # folders of spent or unknown grants, left by a killed import
