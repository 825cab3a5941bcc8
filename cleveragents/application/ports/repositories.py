"""Repositories: collections of aggregates, backed by whatever store the adapter chooses."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime

from cleveragents.domain.plan import Decision, Plan
from cleveragents.domain.policy import ContextPolicy
from cleveragents.domain.project import Project
from cleveragents.domain.stored_artifact import ArtifactStatus, StoredArtifact


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


class ArtifactRepository(ABC):
    @abstractmethod
    def add(self, artifact: StoredArtifact) -> None: ...

    @abstractmethod
    def get(self, artifact_id: str) -> StoredArtifact | None: ...

    @abstractmethod
    def save(self, artifact: StoredArtifact) -> None:
        """Store the changed fields of an existing artifact (status, expiry)."""

    @abstractmethod
    def list(
        self, project_id: str | None = None, status: ArtifactStatus | None = None
    ) -> list[StoredArtifact]:
        """Oldest first."""

    @abstractmethod
    def find_stored(self, sha256: str) -> StoredArtifact | None:
        """The oldest stored (not blocked, not expired) artifact with this content hash."""


@dataclass(frozen=True, slots=True)
class TempOutputRecord:
    """An issued temporary-output reference: its public selector, the SHA-256 of its secret
    verifier (never the verifier itself), what it grants, and its lifetime."""

    selector: str
    verifier_sha256: str
    tool_name: str
    path: str
    expires_at: datetime
    used_at: datetime | None = None


class TempOutputRepository(ABC):
    @abstractmethod
    def add(self, record: TempOutputRecord, created_at: datetime) -> None: ...

    @abstractmethod
    def get(self, selector: str) -> TempOutputRecord | None: ...

    @abstractmethod
    def expired(self, now: datetime) -> list[TempOutputRecord]:
        """References never used whose time is up."""

    @abstractmethod
    def delete(self, selector: str) -> None: ...

    @abstractmethod
    def mark_used(self, selector: str, now: datetime) -> bool:
        """Mark the reference used if it is unused and unexpired, atomically: of two
        concurrent calls at most one returns True."""
