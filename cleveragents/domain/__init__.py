"""Domain layer: pydantic models and pure rules. Imports only the stdlib, pydantic and ulid."""

from cleveragents.domain.errors import (
    CleverAgentsError,
    ConflictError,
    DuplicateFragmentError,
    InvalidIdError,
    InvalidInputError,
    InvalidPolicyError,
    InvalidRatioError,
    NotFoundError,
    PlanNotFoundError,
    ProjectAlreadyExistsError,
    ProjectNotFoundError,
    TokenCountingError,
    UnknownEncodingError,
)
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.plan import Decision, Plan, PlanStatus
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project
from cleveragents.domain.ratio import DEFAULT_SKELETON_RATIO
from cleveragents.domain.skeleton import SkeletonMetadata

__all__ = [
    "DEFAULT_SKELETON_RATIO",
    "CleverAgentsError",
    "ConflictError",
    "ContextFragment",
    "ContextPolicy",
    "Decision",
    "DuplicateFragmentError",
    "InvalidIdError",
    "InvalidInputError",
    "InvalidPolicyError",
    "InvalidRatioError",
    "NotFoundError",
    "Plan",
    "PlanNotFoundError",
    "PlanStatus",
    "Project",
    "ProjectAlreadyExistsError",
    "ProjectNotFoundError",
    "SkeletonMetadata",
    "TokenCountingError",
    "UnknownEncodingError",
]
