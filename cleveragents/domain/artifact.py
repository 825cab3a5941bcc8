"""Artifacts compressed for a judge or an agent: their kinds and the design's result contract."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from cleveragents.domain.compression_modes import DEFAULT_COMPRESSION_MODE, CompressionMode

__all__ = [
    "DEFAULT_COMPRESSION_MODE",
    "ArtifactKind",
    "CompressedArtifact",
    "CompressionMode",
]


class ArtifactKind(StrEnum):
    """What an artifact is, which decides how it is compressed."""

    DIFF = "diff"
    JSON = "json"
    LOG = "log"
    MARKDOWN = "markdown"
    SOURCE = "source"
    TEXT = "text"


class CompressedArtifact(BaseModel):
    """The design's strict output: exactly these five fields, in this order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    artifact_name: str
    raw_tokens: int = Field(ge=0)
    compacted_tokens: int = Field(ge=0)
    truncated: bool
    content: str
