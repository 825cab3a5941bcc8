"""Projects and their context policies."""

from __future__ import annotations

from cleveragents.application.ports.unit_of_work import UnitOfWorkFactory
from cleveragents.domain.errors import ProjectAlreadyExistsError, ProjectNotFoundError
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project
from cleveragents.domain.validation import build


class ProjectService:
    """Create projects and set the context policy their plans start from."""

    def __init__(self, uow_factory: UnitOfWorkFactory) -> None:
        self._uow_factory = uow_factory

    def create(self, name: str) -> Project:
        project = build(Project, name=name)
        with self._uow_factory() as uow:
            if uow.projects.get_by_name(project.name) is not None:
                raise ProjectAlreadyExistsError(project.name)
            uow.projects.add(project)
            uow.commit()
        return project

    def list(self) -> list[Project]:
        with self._uow_factory() as uow:
            return uow.projects.list()

    def get(self, name: str) -> Project:
        with self._uow_factory() as uow:
            return _require(uow.projects.get_by_name(name), name)

    def set_context(
        self,
        name: str,
        *,
        skeleton_ratio: float | None = None,
        context_window: int | None = None,
        reserve_tokens: int | None = None,
        keep_recent_tokens: int | None = None,
        summary_tokens: int | None = None,
        artifact_retention_days: int | None = None,
        artifact_retention_bytes: int | None = None,
        preview_head_bytes: int | None = None,
        preview_tail_bytes: int | None = None,
    ) -> Project:
        """Set the given policy fields (None leaves a field as it is) and return the project.

        Values are validated before the store is touched, so a bad value writes nothing.
        """
        changes = build(
            ContextPolicy,
            skeleton_ratio=skeleton_ratio,
            context_window=context_window,
            reserve_tokens=reserve_tokens,
            keep_recent_tokens=keep_recent_tokens,
            summary_tokens=summary_tokens,
            artifact_retention_days=artifact_retention_days,
            artifact_retention_bytes=artifact_retention_bytes,
            preview_head_bytes=preview_head_bytes,
            preview_tail_bytes=preview_tail_bytes,
        )
        with self._uow_factory() as uow:
            project = _require(uow.projects.get_by_name(name), name)
            policy = project.policy.overridden_by(changes).check_coherent()
            uow.projects.save_policy(project.id, policy)
            uow.commit()
        return project.model_copy(update={"policy": policy})


def _require(project: Project | None, name: str) -> Project:
    if project is None:
        raise ProjectNotFoundError(name)
    return project
