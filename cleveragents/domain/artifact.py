"""Artifacts compressed for a judge or an agent: their kinds and the design's result contract."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from cleveragents.domain.vocabulary import (
    DEFAULT_COMPRESSION_MODE,
    ArtifactKind,
    CompressionMode,
)

__all__ = [
    "DEFAULT_COMPRESSION_MODE",
    "ArtifactKind",
    "CompressedArtifact",
    "CompressionMode",
]


class CompressedArtifact(BaseModel):
    """The design's strict output: exactly these five fields, in this order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    artifact_name: str
    raw_tokens: int = Field(ge=0)
    compacted_tokens: int = Field(ge=0)
    truncated: bool
    content: str
