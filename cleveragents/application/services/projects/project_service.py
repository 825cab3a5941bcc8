"""Projects and their context policies."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cleveragents.application.ports.project_listing import ListingUnavailableError
from cleveragents.domain.errors import (
    ConflictError,
    ProjectAlreadyExistsError,
    ProjectNotFoundError,
)
from cleveragents.domain.project import Project
from cleveragents.domain.validation import build

if TYPE_CHECKING:
    # Named in annotations only: `list_projects` (a read-only listing) must not load the unit
    # of work's repositories and every domain model they name.
    from cleveragents.application.ports.project_listing import ProjectListing
    from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory
    from cleveragents.domain.policy import ContextPolicyChanges

DEFAULT_PROJECT = "default"
"""What imports and usage records belong to when no project is named: created on first use."""


def default_project(uow_factory: UnitOfWorkFactory) -> Project:
    """The ``default`` project, created by the first caller. Workers on one database may all
    find it missing at once: the one whose insert loses the race reads the winner's."""

    def get_or_add(uow: UnitOfWork) -> Project:
        found = uow.projects.get_by_name(DEFAULT_PROJECT)
        if found is not None:
            return found
        created = Project(name=DEFAULT_PROJECT)
        uow.projects.add(created)
        uow.commit()
        return created

    try:
        return uow_factory().run(get_or_add)
    except ConflictError:
        pass  # another worker created it since we looked (the store says so on leaving)
    with uow_factory() as uow:
        winner = uow.projects.get_by_name(DEFAULT_PROJECT)
    if winner is None:  # pragma: no cover - the conflict says it exists
        raise ConflictError(f"the project {DEFAULT_PROJECT!r} could not be created")
    return winner


class ProjectService:
    """Create projects and set the context policy their plans start from."""

    def __init__(self, uow_factory: UnitOfWorkFactory) -> None:
        self._uow_factory = uow_factory

    def create(self, name: str) -> Project:
        project = build(Project, name=name)

        def add(uow: UnitOfWork) -> Project:
            if uow.projects.get_by_name(project.name) is not None:
                raise ProjectAlreadyExistsError(project.name)
            uow.projects.add(project)
            uow.commit()
            return project

        return self._uow_factory().run(add)

    def list(self) -> list[Project]:
        with self._uow_factory() as uow:
            return uow.projects.list()

    def get(self, name: str) -> Project:
        with self._uow_factory() as uow:
            return _require(uow.projects.get_by_name(name), name)

    def set_context(self, name: str, changes: ContextPolicyChanges) -> Project:
        """Apply `changes` to the project's policy (fields it leaves unset stay as they are)
        and return the project. A policy that would leave no room is refused and nothing is
        written; the values themselves were checked when `changes` was made."""
        with self._uow_factory() as uow:
            project = _require(uow.projects.get_by_name(name), name)
            policy = project.policy.updated(changes).check_coherent()
            uow.projects.save_policy(project.id, policy)
            uow.commit()
        return project.model_copy(update={"policy": policy})


def list_projects(
    read_only: ProjectListing | None, full: Callable[[], ProjectListing]
) -> list[Project]:
    """All projects, by name: from the `read_only` listing when there is one and it can read
    the store as it is, else from `full` (the store with its unit of work, built only then),
    which first migrates a schema that is behind, or says why the store cannot be read.

    Listing is a read, so it should not need what writing does: a writable file, a migrated
    schema, the SQL toolkit loaded.
    """
    if read_only is not None:
        try:
            return read_only.list()
        except ListingUnavailableError:
            pass  # e.g. a schema to migrate first: the full store does that
    return full().list()


def _require(project: Project | None, name: str) -> Project:
    if project is None:
        raise ProjectNotFoundError(name)
    return project
