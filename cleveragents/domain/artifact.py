"""Artifacts compressed for a judge or an agent: their kinds and the design's result contract."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class ArtifactKind(StrEnum):
    """What an artifact is, which decides how it is compressed."""

    DIFF = "diff"
    JSON = "json"
    LOG = "log"
    MARKDOWN = "markdown"
    SOURCE = "source"
    TEXT = "text"


class CompressionMode(StrEnum):
    """`tiered`: three tiers, whole / the kind's compressor / a head cut (the default);
    `smart`: fills the budget by value. `seed`, the tiered mode's former name, still reads as
    `tiered`."""

    TIERED = "tiered"
    SMART = "smart"

    @classmethod
    def _missing_(cls, value: object) -> CompressionMode | None:
        return cls.TIERED if value == "seed" else None


class CompressedArtifact(BaseModel):
    """The design's strict output: exactly these five fields, in this order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    artifact_name: str
    raw_tokens: int = Field(ge=0)
    compacted_tokens: int = Field(ge=0)
    truncated: bool
    content: str
