"""Plans, the decisions recorded on them, and the context they accumulate."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.ids import new_ulid
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.skeleton import SkeletonMetadata
from cleveragents.domain.stored_text import PLAN_TITLE_LENGTH, refuse_nul


class PlanStatus(StrEnum):
    ACTIVE = "active"
    COMPLETED = "completed"


class Decision(BaseModel):
    """A decision recorded on a plan. It carries exactly one context fragment."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(default_factory=new_ulid)
    plan_id: str
    fragment: ContextFragment


class Plan(BaseModel):
    """A unit of orchestrated work.

    `fragments` are the plan's own (one per decision, in recording order); `inherited_fragments`
    are the skeleton its parent handed down at spawn time, in the compressor's output order.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(default_factory=new_ulid)
    project_id: str
    parent_id: str | None = None
    title: str = Field(min_length=1, max_length=PLAN_TITLE_LENGTH)
    status: PlanStatus = PlanStatus.ACTIVE
    policy: ContextPolicy = ContextPolicy()
    skeleton_metadata: SkeletonMetadata | None = None
    fragments: tuple[ContextFragment, ...] = ()
    inherited_fragments: tuple[ContextFragment, ...] = ()

    @field_validator("title")
    @classmethod
    def _title_without_nul(cls, value: str) -> str:
        return refuse_nul(value, "title")

    @property
    def accumulated_context(self) -> tuple[ContextFragment, ...]:
        """What a child compresses: inherited first, then the plan's own."""
        return self.inherited_fragments + self.fragments

    def has_fragment(self, fragment_id: str) -> bool:
        return any(f.fragment_id == fragment_id for f in self.accumulated_context)
