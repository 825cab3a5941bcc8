"""Ports: what the application needs from the outside world, named by role."""

from cleveragents.application.ports.repositories import (
    PlanRepository,
    PlanSummary,
    ProjectRepository,
)
from cleveragents.application.ports.token_counter import TokenCounter
from cleveragents.application.ports.unit_of_work import UnitOfWork, UnitOfWorkFactory

__all__ = [
    "PlanRepository",
    "PlanSummary",
    "ProjectRepository",
    "TokenCounter",
    "UnitOfWork",
    "UnitOfWorkFactory",
]
