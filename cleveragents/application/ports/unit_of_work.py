"""The unit of work: one transaction around a use case."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar

from cleveragents.application.ports.repositories import (
    ArtifactRepository,
    PlanRepository,
    ProjectRepository,
    TempOutputRepository,
)

T = TypeVar("T")


class UnitOfWork(ABC):
    """A context manager around one transaction.

    Nothing is kept unless `commit()` is called inside the block: leaving the block, normally or
    by an exception, rolls back what was not committed.
    """

    projects: ProjectRepository
    plans: PlanRepository
    artifacts: ArtifactRepository
    temp_outputs: TempOutputRepository

    def __enter__(self) -> UnitOfWork:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.rollback()

    @abstractmethod
    def commit(self) -> None: ...

    @abstractmethod
    def rollback(self) -> None: ...

    def run(self, work: Callable[[UnitOfWork], T]) -> T:
        """`work` inside this unit of work (it commits what it keeps). A store whose
        transactions can be rolled back by the database (a deadlock) runs it again from the
        start; so `work` must do nothing outside the transaction it could not repeat."""
        with self:
            return work(self)


UnitOfWorkFactory = Callable[[], UnitOfWork]
