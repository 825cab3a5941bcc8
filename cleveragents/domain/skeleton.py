"""Skeleton metadata: the audit record of one compression pass."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cleveragents.domain.ratio import validate_ratio


class SkeletonMetadata(BaseModel):
    """What a compression pass did, stored on the child plan (`Plan.skeleton_metadata`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ratio: float
    original_tokens: int = Field(ge=0)
    compressed_tokens: int = Field(ge=0)
    source_decision_ids: tuple[str, ...] = ()

    @field_validator("ratio", mode="before")
    @classmethod
    def _ratio_in_range(cls, value: object) -> float:
        return validate_ratio(value)

    @field_validator("source_decision_ids")
    @classmethod
    def _unique(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(value)) != len(value):
            raise ValueError("source_decision_ids must be unique")
        return value

    @property
    def retained_pct(self) -> float:
        """Share of the original tokens the child inherited, in percent, one decimal.

        Nothing to compress (0 original tokens) means nothing was removed: 100.0.
        """
        if self.original_tokens == 0:
            return 100.0
        return round(100.0 * self.compressed_tokens / self.original_tokens, 1)
