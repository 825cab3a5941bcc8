"""Domain layer: pydantic models and pure rules. Imports only the stdlib, pydantic and ulid.

The names below are re-exported lazily: importing one module of the domain (its errors, which
the tokenizer raises) must not load every model and pydantic with them, which would cost every
command that needs none of them, such as `agents tokens count`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

_MODULE_OF = {
    **dict.fromkeys(
        (
            "CleverAgentsError",
            "ConflictError",
            "DuplicateFragmentError",
            "InvalidIdError",
            "InvalidInputError",
            "InvalidPolicyError",
            "InvalidRatioError",
            "NotFoundError",
            "PlanNotFoundError",
            "ProjectAlreadyExistsError",
            "ProjectNotFoundError",
            "TokenCountingError",
            "UnknownEncodingError",
        ),
        "errors",
    ),
    "ContextFragment": "fragment",
    "Decision": "plan",
    "Plan": "plan",
    "PlanStatus": "plan",
    "ContextPolicy": "policy",
    "Project": "project",
    "DEFAULT_SKELETON_RATIO": "ratio",
    "SkeletonMetadata": "skeleton",
}

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


def __getattr__(name: str) -> object:
    """A re-exported name, imported from its module on first use."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value
