"""SQLAlchemy repositories (named by technology, implementing the application's ports)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session

from cleveragents.adapters.persistence.mapping import (
    fragment_from_decision_row,
    fragment_from_inherited_row,
    policy_from_row,
    policy_to_columns,
    skeleton_from_row,
    skeleton_to_row,
)
from cleveragents.adapters.persistence.rows import (
    DecisionRow,
    InheritedFragmentRow,
    PlanRow,
    ProjectRow,
    SkeletonMetadataRow,
)
from cleveragents.application.ports.repositories import (
    PlanRepository,
    PlanSummary,
    ProjectRepository,
)
from cleveragents.domain.plan import Decision, Plan, PlanStatus
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project


def _now() -> datetime:
    return datetime.now(UTC)


def _project_from_row(row: ProjectRow) -> Project:
    return Project(id=row.id, name=row.name, policy=policy_from_row(row))


class SqlaProjectRepository(ProjectRepository):
    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, project: Project) -> None:
        self._session.add(
            ProjectRow(
                id=project.id,
                name=project.name,
                created_at=_now(),
                **policy_to_columns(project.policy),
            )
        )
        self._session.flush()

    def get_by_name(self, name: str) -> Project | None:
        row = self._session.scalars(select(ProjectRow).where(ProjectRow.name == name)).first()
        return None if row is None else _project_from_row(row)

    def get(self, project_id: str) -> Project | None:
        row = self._session.get(ProjectRow, project_id)
        return None if row is None else _project_from_row(row)

    def list(self) -> list[Project]:
        rows = self._session.scalars(select(ProjectRow).order_by(ProjectRow.name))
        return [_project_from_row(row) for row in rows]

    def save_policy(self, project_id: str, policy: ContextPolicy) -> None:
        self._session.execute(
            update(ProjectRow)
            .where(ProjectRow.id == project_id)
            .values(**policy_to_columns(policy))
        )


class SqlaPlanRepository(PlanRepository):
    def __init__(self, session: Session) -> None:
        self._session = session

    def add(self, plan: Plan) -> None:
        if plan.fragments:
            raise ValueError("a new plan has no decisions yet; record them with add_decision")
        self._session.add(
            PlanRow(
                id=plan.id,
                project_id=plan.project_id,
                parent_id=plan.parent_id,
                title=plan.title,
                status=plan.status.value,
                created_at=_now(),
                **policy_to_columns(plan.policy),
            )
        )
        self._session.flush()
        if plan.skeleton_metadata is not None:
            self._session.add(skeleton_to_row(plan.id, plan.skeleton_metadata))
        if plan.inherited_fragments:
            # One executemany, not one ORM object per fragment: spawning from a parent with
            # ten thousand fragments stays well under a second.
            self._session.execute(
                insert(InheritedFragmentRow),
                [
                    {
                        "plan_id": plan.id,
                        "position": position,
                        "fragment_id": fragment.fragment_id,
                        "decision_id": fragment.decision_id,
                        "relevance": fragment.relevance,
                        "token_count": fragment.token_count,
                        "content": fragment.content,
                    }
                    for position, fragment in enumerate(plan.inherited_fragments)
                ],
            )
        self._session.flush()

    def get(self, plan_id: str) -> Plan | None:
        row = self._session.get(PlanRow, plan_id)
        if row is None:
            return None
        decisions = self._session.scalars(
            select(DecisionRow).where(DecisionRow.plan_id == plan_id).order_by(DecisionRow.position)
        )
        inherited = self._session.scalars(
            select(InheritedFragmentRow)
            .where(InheritedFragmentRow.plan_id == plan_id)
            .order_by(InheritedFragmentRow.position)
        )
        return Plan(
            id=row.id,
            project_id=row.project_id,
            parent_id=row.parent_id,
            title=row.title,
            status=PlanStatus(row.status),
            policy=policy_from_row(row),
            skeleton_metadata=skeleton_from_row(self._session.get(SkeletonMetadataRow, plan_id)),
            fragments=tuple(fragment_from_decision_row(d) for d in decisions),
            inherited_fragments=tuple(fragment_from_inherited_row(i) for i in inherited),
        )

    def lock(self, plan_id: str) -> Plan | None:
        if not self.lock_exists(plan_id):
            return None
        return self.get(plan_id)

    def lock_exists(self, plan_id: str) -> bool:
        query = select(PlanRow.id).where(PlanRow.id == plan_id)
        # SQLite serialises writers at BEGIN IMMEDIATE; servers need the row lock.
        if self._session.get_bind().dialect.name != "sqlite":
            query = query.with_for_update()
        return self._session.scalar(query) is not None

    def contains_fragment(self, plan_id: str, fragment_id: str) -> bool:
        # Both lookups are served by the (plan_id, fragment_id) unique indexes.
        own = select(DecisionRow.id).where(
            DecisionRow.plan_id == plan_id, DecisionRow.fragment_id == fragment_id
        )
        inherited = select(InheritedFragmentRow.position).where(
            InheritedFragmentRow.plan_id == plan_id,
            InheritedFragmentRow.fragment_id == fragment_id,
        )
        return (
            self._session.scalar(own.limit(1)) is not None
            or self._session.scalar(inherited.limit(1)) is not None
        )

    def add_decision(self, decision: Decision) -> None:
        next_position = self._session.scalar(
            select(func.coalesce(func.max(DecisionRow.position), -1) + 1).where(
                DecisionRow.plan_id == decision.plan_id
            )
        )
        fragment = decision.fragment
        self._session.add(
            DecisionRow(
                id=decision.id,
                plan_id=decision.plan_id,
                position=next_position,
                fragment_id=fragment.fragment_id,
                relevance=fragment.relevance,
                token_count=fragment.token_count,
                content=fragment.content,
                created_at=_now(),
            )
        )
        self._session.flush()

    def save_policy(self, plan_id: str, policy: ContextPolicy) -> None:
        self._session.execute(
            update(PlanRow).where(PlanRow.id == plan_id).values(**policy_to_columns(policy))
        )

    def children(self, plan_id: str) -> list[str]:
        return list(
            self._session.scalars(
                select(PlanRow.id)
                .where(PlanRow.parent_id == plan_id)
                .order_by(PlanRow.created_at, PlanRow.id)
            )
        )

    def list(self, project_id: str | None = None) -> list[PlanSummary]:
        decision_counts = (
            select(DecisionRow.plan_id, func.count().label("n"))
            .group_by(DecisionRow.plan_id)
            .subquery()
        )
        query = (
            select(
                PlanRow.id,
                ProjectRow.name,
                PlanRow.parent_id,
                PlanRow.title,
                PlanRow.status,
                func.coalesce(decision_counts.c.n, 0),
                SkeletonMetadataRow.plan_id,
            )
            .join(ProjectRow, ProjectRow.id == PlanRow.project_id)
            .outerjoin(decision_counts, decision_counts.c.plan_id == PlanRow.id)
            .outerjoin(SkeletonMetadataRow, SkeletonMetadataRow.plan_id == PlanRow.id)
            .order_by(PlanRow.created_at, PlanRow.id)
        )
        if project_id is not None:
            query = query.where(PlanRow.project_id == project_id)
        summaries = []
        for row in self._session.execute(query):
            plan_id, project_name, parent_id, title, status, count, skeleton = row
            summaries.append(
                PlanSummary(
                    id=plan_id,
                    project_name=project_name,
                    parent_id=parent_id,
                    title=title,
                    status=status,
                    decision_count=count,
                    has_skeleton=skeleton is not None,
                )
            )
        return summaries
