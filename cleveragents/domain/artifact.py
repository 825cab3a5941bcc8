"""Artifacts compressed for a judge or an agent: their kinds and the seed's result contract."""

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
    """`seed`: the seed's three tiers exactly (the default); `smart`: structure-aware."""

    SEED = "seed"
    SMART = "smart"


class CompressedArtifact(BaseModel):
    """The seed's strict output: exactly these five fields, in this order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    artifact_name: str
    raw_tokens: int = Field(ge=0)
    compacted_tokens: int = Field(ge=0)
    truncated: bool
    content: str
