"""cleveragents: the context engine of an AI agent orchestrator.

The Python API (docs/python-api.md), typed (the package ships ``py.typed``):

- `compact` a conversation held as provider-native dicts (Anthropic Messages, OpenAI Chat
  Completions, Claude Code session records) or as its file's text, in the same shape;
- `compress` text or a file to an exact token budget;
- `plan_context_budget` to predict an implementation phase's token footprint before it starts;
- `count_tokens` with the real tokenizer;
- `open_store` for the database and the governed artifact store: import a tool's output,
  preview it, read ranges back, projects, plans and child plans spawned with a skeleton;
- `compress_skeleton` and `make_fragment`, the skeleton compressor without a store;
- `gate` context before it is delivered: refused, with reasons, on the delivery stop
  conditions (a credential, a missing output tail, a summary that omits unfinished work, an
  artifact path outside the workspace, a fabricated cache figure).

Nothing touches a database unless a store is used. Importing the package loads none of the
engine: each name is imported from its module on first use. This package is imported by every
run of the `agents` command (its modules live under it): importing every name here up front
costs some 480 ms of CPU, more than `agents tokens count` takes in all.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from cleveragents.api.budget import plan_context_budget
    from cleveragents.api.compaction import CompactResult, ShrunkToolResult, compact
    from cleveragents.api.compression import CompressResult, compress
    from cleveragents.api.gate import GateResult, gate
    from cleveragents.api.skeleton import compress_skeleton, make_fragment
    from cleveragents.api.store import Store, open_store
    from cleveragents.api.tokens import TokenCount, count_tokens
    from cleveragents.application.services.artifact_store.artifact_store import ImportResult
    from cleveragents.application.services.artifact_store.reading import ArtifactSlice
    from cleveragents.application.services.budget.budget_plan import BudgetPlan
    from cleveragents.application.services.plans.plan_service import PlanStatusReport
    from cleveragents.application.services.plans.skeleton_compressor import SkeletonResult
    from cleveragents.domain.artifact import ArtifactKind, CompressionMode
    from cleveragents.domain.errors import (
        CleverAgentsError,
        InvalidInputError,
        InvalidPolicyError,
        NotFoundError,
        OperationalError,
    )
    from cleveragents.domain.fragment import ContextFragment
    from cleveragents.domain.models import UnknownModelError
    from cleveragents.domain.plan import Decision, Plan
    from cleveragents.domain.policy import ContextPolicy
    from cleveragents.domain.project import Project
    from cleveragents.domain.skeleton import SkeletonMetadata
    from cleveragents.domain.stored_artifact import ArtifactPreview, StoredArtifact
    from cleveragents.domain.transcript import TranscriptFormat

_MODULE_OF = {
    "plan_context_budget": "api.budget",
    "BudgetPlan": "application.services.budget.budget_plan",
    "compact": "api.compaction",
    "CompactResult": "api.compaction",
    "ShrunkToolResult": "api.compaction",
    "compress": "api.compression",
    "CompressResult": "api.compression",
    "gate": "api.gate",
    "GateResult": "api.gate",
    "compress_skeleton": "api.skeleton",
    "make_fragment": "api.skeleton",
    "open_store": "api.store",
    "Store": "api.store",
    "count_tokens": "api.tokens",
    "TokenCount": "api.tokens",
    "UnknownModelError": "domain.models",
    "ImportResult": "application.services.artifact_store.artifact_store",
    "ArtifactSlice": "application.services.artifact_store.reading",
    "PlanStatusReport": "application.services.plans.plan_service",
    "SkeletonResult": "application.services.plans.skeleton_compressor",
    "ArtifactKind": "domain.artifact",
    "CompressionMode": "domain.artifact",
    "CleverAgentsError": "domain.errors",
    "InvalidInputError": "domain.errors",
    "InvalidPolicyError": "domain.errors",
    "NotFoundError": "domain.errors",
    "OperationalError": "domain.errors",
    "ContextFragment": "domain.fragment",
    "Decision": "domain.plan",
    "Plan": "domain.plan",
    "ContextPolicy": "domain.policy",
    "Project": "domain.project",
    "SkeletonMetadata": "domain.skeleton",
    "ArtifactPreview": "domain.stored_artifact",
    "StoredArtifact": "domain.stored_artifact",
    "TranscriptFormat": "domain.transcript",
}

__all__ = [
    "ArtifactKind",
    "ArtifactPreview",
    "ArtifactSlice",
    "BudgetPlan",
    "CleverAgentsError",
    "CompactResult",
    "CompressResult",
    "CompressionMode",
    "ContextFragment",
    "ContextPolicy",
    "Decision",
    "GateResult",
    "ImportResult",
    "InvalidInputError",
    "InvalidPolicyError",
    "NotFoundError",
    "OperationalError",
    "Plan",
    "PlanStatusReport",
    "Project",
    "ShrunkToolResult",
    "SkeletonMetadata",
    "SkeletonResult",
    "Store",
    "StoredArtifact",
    "TokenCount",
    "TranscriptFormat",
    "UnknownModelError",
    "__version__",
    "compact",
    "compress",
    "compress_skeleton",
    "count_tokens",
    "gate",
    "make_fragment",
    "open_store",
    "plan_context_budget",
]


def __getattr__(name: str) -> object:
    """An API name, imported from its module on first use."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
