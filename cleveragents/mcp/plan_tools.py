"""Tools of plans: a plan's status, and a child plan spawned with a skeleton of its parent's
context."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field

from cleveragents.application.services.plans.child_plans import ChildPlanSpawner
from cleveragents.application.services.plans.plan_service import PlanService, PlanStatusReport
from cleveragents.domain.fragment import ContextFragment
from cleveragents.domain.plan import Plan
from cleveragents.domain.skeleton import SkeletonMetadata
from cleveragents.mcp.engine import Engine

PlanId = Annotated[str, Field(description="The plan's id (a ULID).")]


class Skeleton(BaseModel):
    """What a child plan inherited of its parent's context."""

    ratio: float = Field(description="Share of the parent's context tokens NOT inherited.")
    original_tokens: int = Field(description="The parent's context, in tokens.")
    compressed_tokens: int = Field(description="What the child inherited, in tokens.")
    retained_pct: float = Field(description="compressed_tokens / original_tokens, in percent.")
    source_decision_ids: list[str] = Field(description="The decisions the child's context is from.")


class PlanStatus(BaseModel):
    """What `agents plan status --json` shows."""

    id: str
    title: str
    project: str
    parent_id: str | None
    status: str
    decisions: int = Field(description="The plan's own decisions (one context fragment each).")
    own_tokens: int
    inherited_fragments: int
    inherited_tokens: int
    children: list[str]
    children_skeleton_ratio: float = Field(
        description="The skeleton ratio its children get unless a spawn names one."
    )
    skeleton: Skeleton | None = Field(description="For a child: what it inherited; else null.")


class ContextPiece(BaseModel):
    """One fragment of context a child plan inherited."""

    fragment_id: str
    decision_id: str
    relevance: float
    token_count: int
    content: str


class SpawnedPlan(BaseModel):
    id: str = Field(description="The child plan's id.")
    parent_id: str
    title: str
    skeleton: Skeleton | None
    context: list[ContextPiece] = Field(
        description="The context the child inherited (the skeleton's fragments), in order."
    )


def register(server: MCPServer, engine: Engine) -> None:
    @server.tool(name="plan_status", annotations=ToolAnnotations(read_only_hint=True))
    async def plan_status(plan_id: PlanId) -> PlanStatus:
        """Show a plan: its project, its decisions and their tokens, the context it inherited,
        its children and, for a child plan, the skeleton it was spawned with."""

        def work() -> PlanStatusReport:
            service: PlanService = engine.container.plan_service()
            return service.status(plan_id)

        return _status(await engine.run(work))

    @server.tool(name="spawn_child_plan", annotations=ToolAnnotations(destructive_hint=False))
    async def spawn_child_plan(
        parent_id: Annotated[str, Field(description="The parent plan's id.")],
        title: Annotated[
            str, Field(min_length=1, max_length=500, description="The child plan's title.")
        ],
        skeleton_ratio: Annotated[
            float | None,
            Field(
                ge=0.0,
                le=1.0,
                description="Share of the parent's context tokens the child does NOT inherit, "
                "in [0, 1] (default: the parent plan's setting, else its project's, else 0.3).",
            ),
        ] = None,
    ) -> SpawnedPlan:
        """Spawn a child plan for a sub-task: it inherits a skeleton of the parent's context
        (the most relevant decisions, within the skeleton ratio's share of its tokens).
        Returns the child's id, the skeleton's figures and the inherited context itself."""

        def work() -> Plan:
            spawner: ChildPlanSpawner = engine.container.child_plan_spawner()
            return spawner.spawn_child(parent_id, title, skeleton_ratio)

        child = await engine.run(work)
        assert child.parent_id is not None  # a spawned plan has its parent
        return SpawnedPlan(
            id=child.id,
            parent_id=child.parent_id,
            title=child.title,
            skeleton=_skeleton(child.skeleton_metadata),
            context=[_piece(fragment) for fragment in child.inherited_fragments],
        )


def _skeleton(metadata: SkeletonMetadata | None) -> Skeleton | None:
    if metadata is None:
        return None
    return Skeleton(
        ratio=metadata.ratio,
        original_tokens=metadata.original_tokens,
        compressed_tokens=metadata.compressed_tokens,
        retained_pct=metadata.retained_pct,
        source_decision_ids=list(metadata.source_decision_ids),
    )


def _piece(fragment: ContextFragment) -> ContextPiece:
    return ContextPiece(
        fragment_id=fragment.fragment_id,
        decision_id=fragment.decision_id,
        relevance=fragment.relevance,
        token_count=fragment.token_count,
        content=fragment.content,
    )


def _status(report: PlanStatusReport) -> PlanStatus:
    plan = report.plan
    return PlanStatus(
        id=plan.id,
        title=plan.title,
        project=report.project.name,
        parent_id=plan.parent_id,
        status=plan.status.value,
        decisions=len(plan.fragments),
        own_tokens=report.own_tokens,
        inherited_fragments=len(plan.inherited_fragments),
        inherited_tokens=report.inherited_tokens,
        children=list(report.children),
        children_skeleton_ratio=report.effective_policy.effective_skeleton_ratio,
        skeleton=_skeleton(plan.skeleton_metadata),
    )
