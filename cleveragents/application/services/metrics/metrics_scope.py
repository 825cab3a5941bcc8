"""The scope of a report (everything, a project, a plan) and which events belong to it."""

from __future__ import annotations

from collections.abc import Callable

from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
from cleveragents.application.services.metrics.metrics_report import Scope
from cleveragents.application.services.projects.project_service import default_project
from cleveragents.domain.errors import InvalidInputError, PlanNotFoundError, ProjectNotFoundError
from cleveragents.domain.event import RecordedEvent
from cleveragents.domain.ids import parse_ulid

EventFilter = Callable[[RecordedEvent], bool | None]


def resolve_scope(
    uow_factory: UnitOfWorkFactory,
    project: str | None,
    plan_id: str | None,
    *,
    create_default: bool,
) -> Scope:
    """The plan's scope (which must be in `project` when both are given), else the project's,
    else everything, or, with `create_default`, the ``default`` project (created on first use)."""
    with uow_factory() as uow:
        if plan_id is not None:
            return _plan_scope(uow, project, parse_ulid(plan_id, "plan id"))
        if project is None and not create_default:
            return Scope()
        if project is not None:
            found = uow.projects.get_by_name(project)
            if found is None:
                raise ProjectNotFoundError(project)
            return Scope(project=found)
    return Scope(project=default_project(uow_factory))


def event_filter(uow_factory: UnitOfWorkFactory, scope: Scope) -> EventFilter:
    """True when an event belongs to the scope, False when it belongs elsewhere, None when
    it names no project or plan. A plan's events belong to its project."""
    plan_ids: set[str] = set()
    if scope.project is not None and scope.plan_id is None:
        with uow_factory() as uow:
            plan_ids = {plan.id for plan in uow.plans.list(scope.project.id)}

    def in_scope(event: RecordedEvent) -> bool | None:
        project_id = _text(event.payload.get("project_id"))
        plan_id = _text(event.payload.get("plan_id"))
        if scope.kind == "all":
            return True
        if project_id is None and plan_id is None:
            return None
        if scope.plan_id is not None:
            return plan_id == scope.plan_id
        assert scope.project is not None
        return project_id == scope.project.id or plan_id in plan_ids

    return in_scope


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _plan_scope(uow: UnitOfWork, project: str | None, plan_id: str) -> Scope:
    plan = uow.plans.get(plan_id)
    if plan is None:
        raise PlanNotFoundError(plan_id)
    owner = uow.projects.get(plan.project_id)
    assert owner is not None
    if project is not None and owner.name != project:
        raise InvalidInputError(
            f"plan {plan_id} belongs to project {owner.name!r}, not {project!r}"
        )
    return Scope(project=owner, plan_id=plan_id)
