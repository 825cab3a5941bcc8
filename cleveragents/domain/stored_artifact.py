"""Artifacts in the governed store: complete tool output, kept out of the prompt."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from cleveragents.domain.secrets import SecretFinding


class ArtifactStatus(StrEnum):
    STORED = "stored"  # the blob is in the store
    BLOCKED = "blocked"  # a suspected credential: no blob was ever stored
    EXPIRED = "expired"  # retention deleted the blob; the audit row remains


class RetentionClass(StrEnum):
    STANDARD = "standard"  # subject to the project's retention
    HOLD = "hold"  # kept whatever the retention says (legal hold, evidence)


class StoredArtifact(BaseModel):
    """The metadata row of an artifact: everything but its bytes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    project_id: str
    plan_id: str | None = None
    sha256: str | None = None  # None for a blocked import: not even a hash of a secret is kept
    byte_count: int = Field(ge=0)
    media_type: str
    workspace_path: str
    status: ArtifactStatus
    retention_class: RetentionClass = RetentionClass.STANDARD
    source: str  # "workspace" or "temp-output:<tool>"
    created_by: str
    created_at: datetime
    expires_at: datetime | None = None
    expired_at: datetime | None = None
    findings: tuple[SecretFinding, ...] = ()


class ArtifactPreview(BaseModel):
    """What the model is given instead of the output: bounded head and tail, and facts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    artifact_id: str
    workspace_path: str
    media_type: str
    byte_count: int
    sha256: str
    head: str
    tail: str
    omitted_bytes: int = Field(ge=0)
    withheld_lines: int = Field(ge=0)  # preview lines a scanner flagged, replaced by a notice
    omitted_offset: int = Field(default=0, ge=0)  # where the omitted bytes start (head's bytes)


class TempOutputGrant(BaseModel):
    """A file that a trusted tool may write, and the reference that imports it (once)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reference: str
    path: str
    tool_name: str
    expires_at: datetime
