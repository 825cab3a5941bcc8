"""Repositories: collections of aggregates, backed by whatever store the adapter chooses."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from cleveragents.domain.plan import Decision, Plan
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project


@dataclass(frozen=True, slots=True)
class PlanSummary:
    """A plan without its fragments: enough for listings."""

    id: str
    project_name: str
    parent_id: str | None
    title: str
    status: str
    decision_count: int
    has_skeleton: bool


class ProjectRepository(ABC):
    @abstractmethod
    def add(self, project: Project) -> None:
        """Store a new project; raise `ProjectAlreadyExistsError` if the name is taken."""

    @abstractmethod
    def get_by_name(self, name: str) -> Project | None: ...

    @abstractmethod
    def get(self, project_id: str) -> Project | None: ...

    @abstractmethod
    def list(self) -> list[Project]:
        """All projects, by name."""

    @abstractmethod
    def save_policy(self, project_id: str, policy: ContextPolicy) -> None: ...


class PlanRepository(ABC):
    @abstractmethod
    def add(self, plan: Plan) -> None:
        """Store a new plan with its inherited fragments and skeleton metadata."""

    @abstractmethod
    def get(self, plan_id: str) -> Plan | None:
        """The plan with all its fragments, or None."""

    @abstractmethod
    def lock(self, plan_id: str) -> Plan | None:
        """Like `get`, for a plan about to be changed: adapters on servers lock its row."""

    @abstractmethod
    def lock_exists(self, plan_id: str) -> bool:
        """Whether the plan exists, locking its row (on servers) without loading its context."""

    @abstractmethod
    def contains_fragment(self, plan_id: str, fragment_id: str) -> bool:
        """Whether the plan's accumulated context (own or inherited) has this fragment id."""

    @abstractmethod
    def add_decision(self, decision: Decision) -> None: ...

    @abstractmethod
    def save_policy(self, plan_id: str, policy: ContextPolicy) -> None: ...

    @abstractmethod
    def children(self, plan_id: str) -> list[str]:
        """Ids of the plans spawned from `plan_id`, oldest first."""

    @abstractmethod
    def list(self, project_id: str | None = None) -> list[PlanSummary]:
        """Summaries, oldest first, of one project's plans or of all."""
